package bedrock

import (
	"io"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/provider/stream"
)

var fixedClock = capturetest.Clock

// captureInvocationID is the UUID testdata/capture.mjs gives the SDK, so
// that the SigV4 signatures of the captures can be compared.
const captureInvocationID = "00000000-0000-4000-8000-000000000000"

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
		return req.ParseResponse(c.Status, c.Header.Get("x-amzn-errortype"), body, fixedClock)
	},
	// Pi itself emits these streams' events out of grammar.
	Quirks: map[string]bool{
		"blocks never stopped leak index and partialJson":   true,
		"no messageStop is stop; no messageStart, no start": true,
	},
	ShortCase: "text, thinking and a tool call",
}

func fixInvocationID(t *testing.T) {
	saved := newInvocationID
	newInvocationID = func() string { return captureInvocationID }
	t.Cleanup(func() { newInvocationID = saved })
}

func TestBuildRequestMatchesPi(t *testing.T) {
	fixInvocationID(t)
	captures.CheckRequests(t, "testdata/requests.json")
}

func TestInvocationIDIsAUUID(t *testing.T) {
	a, b := invocationID(), invocationID()
	if len(a) != 36 || a == b || a[14] != '4' {
		t.Errorf("invocation ids %q, %q", a, b)
	}
}

func TestDecodeOptionsPathErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"maxTokens":"10"}`, "/options/maxTokens: want number, got string"},
		{`{"env":{"AWS_REGION":1}}`, "/options/env/AWS_REGION: want a string, got number"},
		{`{"toolChoice":true}`, "/options/toolChoice: want a string or an object, got boolean"},
		{`{"region":1}`, "/options/region: want string, got number"},
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
	v, _ := jsonv.Parse([]byte(`{"apiKey":"k","region":"r","env":{"A":"1"},"headers":{"a":"1","b":null},"reasoning":"low","requestMetadata":{"x":"y"},"signal":{}}`))
	o, err := DecodeOptions(v, "")
	if err != nil {
		t.Fatal(err)
	}
	if !jsonv.Equal(o.JSON(), v) {
		t.Errorf("round trip: %s, want %s", o.JSON(), v)
	}
}
