package mistral

import (
	"io"
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
		return capturetest.Sent{Method: req.Method, URL: req.URL, Header: req.Header, Body: req.Body}
	},
	RequestError: capturetest.ErrorMessage[*RequestError],
	Failure:      Failure,
	ParseResponse: func(req *Request, c capturetest.Case[Options], body io.Reader) (*ai.AssistantMessage, []stream.Event, error) {
		ct := c.ContentType
		if ct == "" {
			ct = SSEContentType
		}
		return req.ParseResponse(c.Status, ct, body, fixedClock)
	},
	ShortCase: "example from the notes",
}

func TestBuildRequestMatchesPi(t *testing.T) { captures.CheckRequests(t, "testdata/requests.json") }

func TestToolCallIDNormalizer(t *testing.T) {
	// One normalizer: answers depend on the ids met before (NORM-019).
	n := NewToolCallIDNormalizer()
	for _, tc := range []struct{ in, want string }{
		{"abc-DEF-123", "abcDEF123"},
		{"abc_DEF_123", "11syy0iwk"},
		{"abc-DEF-123", "abcDEF123"},
		{"call_abc|fc_123", "18g6kob34"},
		{"toolu_01ABCDEFGHIJ", "zrh08v1xq"},
		{"!!!", "skuitn1o3"},
		{"short", "7kdrt5py4"},
		{"ABCDEFGHI", "ABCDEFGHI"},
		{"call_abc", "18mdplhyx"},
	} {
		if got := n(tc.in, nil, nil); got != tc.want {
			t.Errorf("normalize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	n = NewToolCallIDNormalizer()
	if a, b := n("abc+", nil, nil), n("a|b|c", nil, nil); a != "y0biex7f9" || b != "144a7j62l" {
		t.Errorf("collision: %q %q", a, b)
	}
	if got := DeriveToolCallID("toolcall:0", 0); got != "toolcall0" {
		t.Errorf("derived = %q", got)
	}
}

func TestDecodeOptionsPathErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"maxTokens":"10"}`, "/options/maxTokens: want number, got string"},
		{`{"headers":{"x":1}}`, "/options/headers/x: want a string or null, got number"},
		{`{"toolChoice":true}`, "/options/toolChoice: want a string or an object, got boolean"},
		{`{"sessionId":3}`, "/options/sessionId: want string, got number"},
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
	v, _ := jsonv.Parse([]byte(`{"apiKey":"k","signal":{},"headers":{"a":"1","b":null},"toolChoice":{"type":"function","function":{"name":"x"}},"promptMode":"reasoning"}`))
	o, err := DecodeOptions(v, "")
	if err != nil {
		t.Fatal(err)
	}
	if !jsonv.Equal(o.JSON(), v) {
		t.Errorf("round trip: %s, want %s", o.JSON(), v)
	}
}
