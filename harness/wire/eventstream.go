package wire

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"

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

// eventStreamMarker starts the readable form of an event-stream body in a
// cassette. A cassette stores strings, and frames are binary (lengths and
// checksums), so the recorder's before-save hook writes one line per frame
// instead: a JSON object with the frame's string headers, in order, and its
// payload as JSON ("data") or text ("text"). The replay turns the lines back
// into the same bytes. A body that does not fit this form (another header
// type, a payload that is not UTF-8, a frame that does not decode) is kept
// as it was, which YAML then writes as base64 (!!binary).
const eventStreamMarker = "# piconform: aws-eventstream frames, one a line; the replay writes them as binary frames\n"

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

// eventStreamText is the readable form of an event-stream body, or false
// when the body does not fit it.
func eventStreamText(body []byte) (string, bool) {
	var b strings.Builder
	b.WriteString(eventStreamMarker)
	for len(body) > 0 {
		m, n, err := eventstream.Decode(body)
		if err != nil {
			return "", false
		}
		body = body[n:]
		var hs []jsonv.Member
		for _, h := range m.Headers {
			if h.Type != eventstream.TypeString || !utf8.Valid(h.Value) {
				return "", false
			}
			hs = append(hs, jsonv.Member{Key: h.Name, Value: jsonv.StringValue(string(h.Value))})
		}
		line := []jsonv.Member{{Key: "headers", Value: jsonv.ObjectValue(hs...)}}
		if v, err := jsonv.Parse(m.Payload); err == nil && bytes.Equal(v.AppendJSON(nil), m.Payload) {
			line = append(line, jsonv.Member{Key: "data", Value: v})
		} else if utf8.Valid(m.Payload) {
			line = append(line, jsonv.Member{Key: "text", Value: jsonv.StringValue(string(m.Payload))})
		} else {
			return "", false
		}
		b.Write(jsonv.ObjectValue(line...).AppendJSON(nil))
		b.WriteByte('\n')
	}
	return b.String(), true
}

// eventStreamFrames turns a readable body back into its frames, or returns
// false when the body is not in the readable form.
func eventStreamFrames(body string) ([][]byte, bool, error) {
	rest, ok := strings.CutPrefix(body, eventStreamMarker)
	if !ok {
		return nil, false, nil
	}
	var frames [][]byte
	sc := bufio.NewScanner(strings.NewReader(rest))
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for n := 2; sc.Scan(); n++ {
		if sc.Text() == "" {
			continue
		}
		v, err := jsonv.Parse(sc.Bytes())
		if err != nil {
			return nil, true, fmt.Errorf("event-stream line %d: %w", n, err)
		}
		f := jsonv.ReadFields(v, "")
		headers := f.Object("headers")
		data := f.Any("data")
		text := f.OptString("text")
		if err := f.Err(); err != nil {
			return nil, true, fmt.Errorf("event-stream line %d: %w", n, err)
		}
		var m eventstream.Message
		for _, h := range headers.Members() {
			if h.Value.Kind() != jsonv.String {
				return nil, true, fmt.Errorf("event-stream line %d: header %q is not a string", n, h.Key)
			}
			m.Headers = append(m.Headers, eventstream.String(h.Key, h.Value.Str()))
		}
		switch {
		case text != nil:
			m.Payload = []byte(*text)
		case !data.IsAbsent():
			m.Payload = data.AppendJSON(nil)
		default:
			return nil, true, errors.New("event-stream line without data or text")
		}
		frames = append(frames, eventstream.Encode(m))
	}
	return frames, true, sc.Err()
}

// isEventStream tells whether a content type is AWS's event stream.
func isEventStream(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.EqualFold(strings.TrimSpace(mt), EventStreamContentType)
}

// ReplayBody is the body the replay writes for a recorded response: the
// binary frames of an event-stream body kept in its readable form, any
// other body as it is.
func ReplayBody(resp cassette.Response) ([]byte, error) {
	frames, ok, err := eventStreamFrames(resp.Body)
	if !ok {
		return []byte(resp.Body), nil
	}
	return bytes.Join(frames, nil), err
}
