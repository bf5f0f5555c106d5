package eventstream

import "github.com/piconform/piconform/reference/jsonv"

// ContentType is the content type of an event-stream response.
const ContentType = "application/vnd.amazon.eventstream"

// EncodeEvent writes one readable fixture event as a frame, so a wire case
// can state Bedrock's answer as JSON: {"event": type, "data": …} is a frame
// with :event-type, :content-type application/json and :message-type
// event; {"exception": type, "data": …} one with :exception-type and
// :message-type exception. data is the payload: a JSON value written
// compact, or a string written as it is. Errors name the JSON path under ptr.
func EncodeEvent(v jsonv.Value, ptr string) ([]byte, error) {
	f := jsonv.ReadFields(v, ptr)
	event := f.OptString("event")
	exception := f.OptString("exception")
	data := f.Any("data")
	if rest := f.Rest(); len(rest) > 0 && f.Err() == nil {
		return nil, jsonv.Errorf(f.At(rest[0].Key), "unknown member")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	var m Message
	switch {
	case (event == nil) == (exception == nil):
		return nil, jsonv.Errorf(ptr, "an aws-eventstream event needs \"event\" or \"exception\", not both")
	case event != nil:
		m.Headers = []Header{String(":event-type", *event), String(":content-type", "application/json"), String(":message-type", "event")}
	default:
		m.Headers = []Header{String(":exception-type", *exception), String(":content-type", "application/json"), String(":message-type", "exception")}
	}
	switch data.Kind() {
	case jsonv.Absent:
		m.Payload = []byte{}
	case jsonv.String:
		m.Payload = []byte(data.Str())
	default:
		m.Payload = data.AppendJSON(nil)
	}
	return Encode(m), nil
}
