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
	if len(r.Header) != 1 || r.Header[0] != (HeaderField{"Content-Type", EventStreamContentType}) {
		t.Errorf("headers %v", r.Header)
	}
}

func TestEventStreamCassetteIsReadableAndReplaysTheBytes(t *testing.T) {
	for _, chunk := range []string{"", `"replay": {"chunkBytes": 7}, `} {
		c := loadCase(t, strings.Replace(eventStreamCase, `"response"`, chunk+`"response"`, 1), nil)
		cas := record(t, c)
		text := string(cas)
		for _, want := range []string{
			eventStreamMarker[:len(eventStreamMarker)-1],
			`{"headers":{":event-type":"messageStart",":content-type":"application/json",":message-type":"event"},"data":{"role":"assistant","n":1.50}}`,
			`"text":"not json {"`,
			`":exception-type":"throttlingException"`,
			"application/vnd.amazon.eventstream",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("cassette lacks %q:\n%s", want, text)
			}
		}
		if strings.Contains(text, "!!binary") {
			t.Errorf("cassette holds binary:\n%s", text)
		}
		reads := 0
		subj := func(ctx context.Context, in jsonv.Value, cl *http.Client) (jsonv.Value, error) {
			cl = &http.Client{Transport: countingTransport{&reads}}
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

func TestEventStreamTextRoundTrip(t *testing.T) {
	body := bytes.Join(wantFrames(), nil)
	text, ok := eventStreamText(body)
	if !ok {
		t.Fatal("not representable")
	}
	frames, ok, err := eventStreamFrames(text)
	if !ok || err != nil || !bytes.Equal(bytes.Join(frames, nil), body) {
		t.Errorf("round trip: ok %v err %v", ok, err)
	}
	// Not the readable form: replayed as it is.
	if _, ok, _ := eventStreamFrames("data: x\n\n"); ok {
		t.Error("plain body taken for frames")
	}
	// A frame that does not decode, or a header that is not a string, stays binary.
	if _, ok := eventStreamText(body[:len(body)-1]); ok {
		t.Error("cut frame represented")
	}
	odd := eventstream.Encode(eventstream.Message{Headers: []eventstream.Header{{Name: "n", Type: eventstream.TypeInt, Value: []byte{0, 0, 0, 1}}}})
	if _, ok := eventStreamText(odd); ok {
		t.Error("int header represented")
	}
	if _, _, err := eventStreamFrames(eventStreamMarker + "{\"headers\":{}}\n"); err == nil {
		t.Error("line without payload accepted")
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
