package wire

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/eventstream"
)

// eventStreamCase answers with two AWS event-stream frames: an event and
// an exception.
const eventStreamCase = `{
  "id": "wire/echo",
  "kind": "wire",
  "description": "d",
  "rules": ["wire.request"],
  "input": {"model": {"api": "echo-api"}, "say": "hello"},
  "response": {"encoding": "aws-eventstream", "events": [
    {"event": "messageStart", "data": {"role": "assistant", "n": 1.50}},
    {"event": "contentBlockDelta", "data": "not json {"},
    {"exception": "throttlingException", "data": {"message": "slow down"}}
  ]}
}`

func wantFrames() [][]byte {
	ev := func(typ, payload string) []byte {
		return eventstream.Encode(eventstream.Message{Headers: []eventstream.Header{
			eventstream.String(":event-type", typ), eventstream.String(":content-type", "application/json"),
			eventstream.String(":message-type", "event"),
		}, Payload: []byte(payload)})
	}
	exc := eventstream.Encode(eventstream.Message{Headers: []eventstream.Header{
		eventstream.String(":exception-type", "throttlingException"), eventstream.String(":content-type", "application/json"),
		eventstream.String(":message-type", "exception"),
	}, Payload: []byte(`{"message":"slow down"}`)})
	return [][]byte{ev("messageStart", `{"role":"assistant","n":1.50}`), ev("contentBlockDelta", "not json {"), exc}
}

func TestEventStreamCaseRendersFrames(t *testing.T) {
	s, err := ParseCase(loadCase(t, eventStreamCase, nil))
	if err != nil {
		t.Fatal(err)
	}
	r := s.Responses[0]
	if !bytes.Equal(r.Body, bytes.Join(wantFrames(), nil)) {
		t.Errorf("body %x", r.Body)
	}
	if len(r.Header) != 1 || r.Header[0] != (HeaderField{"Content-Type", eventstream.ContentType}) {
		t.Errorf("headers %v", r.Header)
	}
}

// The frames are readable in the case file only: the cassette holds the
// request, and the replay writes the case's frames, byte for byte.
func TestEventStreamReplaysTheCaseFrames(t *testing.T) {
	for _, chunk := range []string{"", `"replay": {"chunkBytes": 7}, `} {
		c := loadCase(t, strings.Replace(eventStreamCase, `"response"`, chunk+`"response"`, 1), nil)
		cas := record(t, c)
		for _, bad := range []string{"response:", "!!binary", "messageStart", eventstream.ContentType} {
			if strings.Contains(string(cas), bad) {
				t.Errorf("cassette holds %q:\n%s", bad, cas)
			}
		}
		reads := 0
		subj := func(ctx context.Context, in jsonv.Value, cl *http.Client) (jsonv.Value, error) {
			cl = &http.Client{Transport: countingTransport{&reads, http.DefaultTransport}}
			return echoSubject(nil)(ctx, in, cl)
		}
		out, err := replay(t, c, cas, subj)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := out.Get("body")
		if want := bytes.Join(wantFrames(), nil); body.Str() != string(want) {
			t.Errorf("replayed body %x, want %x", body.Str(), want)
		}
		if chunk != "" && reads < 10 {
			t.Errorf("%d reads in 7-byte pieces", reads)
		}
	}
}

// writeCounter is a ResponseWriter that keeps each write apart.
type writeCounter struct {
	h      http.Header
	writes [][]byte
}

func (w *writeCounter) Header() http.Header { return w.h }
func (w *writeCounter) WriteHeader(int)     {}
func (w *writeCounter) Write(p []byte) (int, error) {
	w.writes = append(w.writes, append([]byte(nil), p...))
	return len(p), nil
}

func TestEventStreamGoesOutOneFramePerWrite(t *testing.T) {
	s, err := ParseCase(loadCase(t, eventStreamCase, nil))
	if err != nil {
		t.Fatal(err)
	}
	w := &writeCounter{h: http.Header{}}
	writeResponse(w, s.Responses[0].cassetteResponse(), 0, false)
	if want := wantFrames(); len(w.writes) != len(want) || !bytes.Equal(bytes.Join(w.writes, nil), bytes.Join(want, nil)) {
		t.Errorf("%d writes %x, want the %d frames", len(w.writes), w.writes, len(want))
	}
	w = &writeCounter{h: http.Header{}}
	writeResponse(w, s.Responses[0].cassetteResponse(), 7, false)
	if len(w.writes) < 10 || len(w.writes[0]) != 7 {
		t.Errorf("in 7-byte pieces: %d writes", len(w.writes))
	}
}

func TestEventStreamCaseErrors(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{`"aws-eventstream"`, `"sse"`, "/response/encoding"},
		{`{"event": "messageStart", `, `{"event": "messageStart", "exception": "x", `, "/response/events/0"},
		{`"data": "not json {"`, `"data": "x", "id": 1`, "/response/events/1/id"},
	} {
		c := loadCase(t, strings.Replace(eventStreamCase, tc.from, tc.to, 1), nil)
		if _, err := ParseCase(c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.to, err, tc.want)
		}
	}
	head, _, _ := strings.Cut(eventStreamCase, `"response"`)
	c := loadCase(t, head+`"response": {"encoding": "aws-eventstream", "body": "x"}}`, nil)
	if _, err := ParseCase(c); err == nil || !strings.Contains(err.Error(), "needs events") {
		t.Errorf("encoding without events: %v", err)
	}
}

func TestScrubberOnASigV4Request(t *testing.T) {
	c := loadCase(t, eventStreamCase, nil)
	sigv4 := func(r *http.Request) {
		r.Header.Del("X-Api-Key")
		r.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=abc")
		r.Header.Set("X-Amz-Date", "20260101T000000Z")
	}
	data, err := Record(context.Background(), c, echoSubject(sigv4), []string{"x-amz-date", "x-telemetry-*"})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"AKIDEXAMPLE", "AWS4-HMAC", "X-Amz-Date"} {
		if strings.Contains(string(data), bad) {
			t.Errorf("cassette holds %q", bad)
		}
	}
	for _, f := range []string{
		"Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/bedrock/aws4_request",
		"key: AKIAIOSFODNN7EXAMPLE",
	} {
		if len(FindSecrets([]byte(f))) == 0 {
			t.Errorf("FindSecrets misses %q", f)
		}
	}
}
