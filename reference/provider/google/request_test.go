package google

import (
	"cmp"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/provider/stream"
)

var fixedClock = capturetest.Clock

// captures replays testdata/requests.json and testdata/streams.json, which
// capture.mjs recorded from real Pi 0.80.2.
var captures = capturetest.Provider[Options, *Request]{
	DecodeOptions: DecodeOptions,
	BuildRequest:  BuildRequest,
	Sent: func(req *Request) capturetest.Sent {
		header := req.Header.Clone()
		for _, h := range IncidentalHeaders {
			header.Del(h)
		}
		return capturetest.Sent{Method: req.Method, URL: req.URL, Header: header, Body: req.Body}
	},
	RequestError: capturetest.ErrorMessage[*RequestError],
	Failure:      Failure,
	ParseResponse: func(req *Request, c capturetest.Case[Options], body io.Reader) (*ai.AssistantMessage, []stream.Event, error) {
		h := http.Header{}
		h.Set("Content-Type", cmp.Or(c.ContentType, "text/event-stream"))
		return req.ParseResponse(c.Status, http.StatusText(c.Status), h, body, fixedClock)
	},
	// Tool-call ids Pi made up count the ids the process made before.
	Redact: redactIDs,
	// A 2xx body that is a JSON error object is recognised only when it
	// arrives in one read, in Pi as here.
	WholeReadOnly: func(name string) bool { return strings.HasPrefix(name, "JSON error body in a 200") },
}

func TestBuildRequestMatchesPi(t *testing.T) { captures.CheckRequests(t, "testdata/requests.json") }

func TestIncidentalHeadersNameTheSDK(t *testing.T) {
	key := "k"
	req, err := BuildRequest(&ai.Model{ID: "gemini-2.5-pro", Provider: "google", BaseURL: "http://h"},
		&ai.Context{Messages: []ai.Message{&ai.UserMessage{Content: ai.Content{IsString: true, Text: "hi"}}}}, Options{APIKey: &key}, fixedClock)
	if err != nil {
		t.Fatal(err)
	}
	want := "google-genai-sdk/" + SDKVersion + " gl-node/" + NodeVersion
	for _, h := range IncidentalHeaders {
		if got := req.Header.Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
}

func TestNormalizeToolCallID(t *testing.T) {
	claude := &ai.Model{ID: "claude-sonnet-4-5"}
	gemini := &ai.Model{ID: "gemini-2.5-pro"}
	for _, tc := range []struct {
		model   *ai.Model
		in, out string
	}{
		{claude, "call.1.2", "call_1_2"},
		{claude, "emoji😀", "emoji__"}, // two UTF-16 units, two underscores
		{claude, "lone\xed\xa0\xbd", "lone_"},
		{claude, strings.Repeat("x", 70), strings.Repeat("x", 64)},
		{&ai.Model{ID: "gpt-oss-20b"}, "a|b", "a_b"},
		{gemini, "a|b.c", "a|b.c"},
	} {
		if got := NormalizeToolCallID(tc.in, tc.model, nil); got != tc.out {
			t.Errorf("NormalizeToolCallID(%q, %s) = %q, want %q", tc.in, tc.model.ID, got, tc.out)
		}
	}
}

func TestDecodeOptionsPathErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"maxTokens":"10"}`, "/options/maxTokens: want number, got string"},
		{`{"headers":{"x":1}}`, "/options/headers/x: want a string or null, got number"},
		{`{"toolChoice":{}}`, "/options/toolChoice: want string, got object"},
		{`{"thinking":{"enabled":"yes"}}`, "/options/thinking/enabled: want boolean, got string"},
		{`{"thinking":{"budgetTokens":"1"}}`, "/options/thinking/budgetTokens: want number, got string"},
		{`[]`, "/options: want an object, got array"},
	} {
		v, err := jsonv.Parse([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		_, err = DecodeOptions(v, "/options")
		if err == nil || err.Error() != tc.want {
			t.Errorf("DecodeOptions(%s) error = %v, want %q", tc.in, err, tc.want)
		}
	}
	v, _ := jsonv.Parse([]byte(`{"apiKey":"k","signal":{},"headers":{"a":"1","b":null},"toolChoice":"any","thinking":{"enabled":true,"level":"LOW","x":1}}`))
	o, err := DecodeOptions(v, "")
	if err != nil {
		t.Fatal(err)
	}
	if !jsonv.Equal(o.JSON(), v) {
		t.Errorf("round trip: %s, want %s", o.JSON(), v)
	}
}
