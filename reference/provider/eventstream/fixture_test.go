package eventstream

import (
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
)

func TestEncodeEvent(t *testing.T) {
	for _, tc := range []struct {
		in, headers, payload string
	}{
		{`{"event": "messageStart", "data": {"role": "assistant", "n": 1.50}}`, ":event-type=messageStart :content-type=application/json :message-type=event", `{"role":"assistant","n":1.50}`},
		{`{"event": "contentBlockDelta", "data": "not json {"}`, ":event-type=contentBlockDelta :content-type=application/json :message-type=event", "not json {"},
		{`{"exception": "throttlingException"}`, ":exception-type=throttlingException :content-type=application/json :message-type=exception", ""},
	} {
		v, err := jsonv.Parse([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		frame, err := EncodeEvent(v, "/response/events/0")
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		m, n, err := Decode(frame)
		if err != nil || n != len(frame) {
			t.Fatalf("%s: decode %v (%d of %d bytes)", tc.in, err, n, len(frame))
		}
		var hs []string
		for _, h := range m.Headers {
			hs = append(hs, h.Name+"="+string(h.Value))
		}
		if got := strings.Join(hs, " "); got != tc.headers {
			t.Errorf("%s: headers %s, want %s", tc.in, got, tc.headers)
		}
		if string(m.Payload) != tc.payload {
			t.Errorf("%s: payload %q, want %q", tc.in, m.Payload, tc.payload)
		}
	}
}

func TestEncodeEventErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{"data": 1}`:                      "/e: an aws-eventstream event needs",
		`{"event": "a", "exception": "b"}`: "/e: an aws-eventstream event needs",
		`{"event": "a", "id": 1}`:          "/e/id: unknown member",
		`{"event": 1}`:                     "/e/event",
	} {
		v, err := jsonv.Parse([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := EncodeEvent(v, "/e"); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: error %v, want %q…", in, err, want)
		}
	}
}
