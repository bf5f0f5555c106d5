package wire

import (
	"strings"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/eventstream"
)

// Response encodings a case may ask for ("encoding" next to "events").
// Without one, events are server-sent events.
const (
	// EncodingAWSEventStream writes each event as one frame of AWS's binary
	// event stream (Bedrock's ConverseStream): {"event": type, "data": …}
	// is a frame with :event-type, :content-type application/json and
	// :message-type event; {"exception": type, "data": …} one with
	// :exception-type and :message-type exception. data is the payload: a
	// JSON value written compact, or a string written as it is.
	EncodingAWSEventStream = "aws-eventstream"

	// EventStreamContentType is the content type of such a response.
	EventStreamContentType = "application/vnd.amazon.eventstream"
)

// renderEventStreamEvent writes one case event as a frame.
func renderEventStreamEvent(v jsonv.Value, ptr string) ([]byte, error) {
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
	var m eventstream.Message
	switch {
	case (event == nil) == (exception == nil):
		return nil, jsonv.Errorf(ptr, "an aws-eventstream event needs \"event\" or \"exception\", not both")
	case event != nil:
		m.Headers = []eventstream.Header{
			eventstream.String(":event-type", *event),
			eventstream.String(":content-type", "application/json"),
			eventstream.String(":message-type", "event"),
		}
	default:
		m.Headers = []eventstream.Header{
			eventstream.String(":exception-type", *exception),
			eventstream.String(":content-type", "application/json"),
			eventstream.String(":message-type", "exception"),
		}
	}
	switch data.Kind() {
	case jsonv.Absent:
		m.Payload = []byte{}
	case jsonv.String:
		m.Payload = []byte(data.Str())
	default:
		m.Payload = data.AppendJSON(nil)
	}
	return eventstream.Encode(m), nil
}

// isEventStream tells whether a content type is AWS's event stream.
func isEventStream(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.EqualFold(strings.TrimSpace(mt), EventStreamContentType)
}
