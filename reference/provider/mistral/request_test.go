package mistral

import (
	"testing"

	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

// captures replays testdata/requests.json and testdata/streams.json, which
// capture.mjs recorded from real Pi 0.80.2.
var captures = capturetest.Captures{
	Driver:    Driver,
	ShortCase: "example from the notes",
	Edges: capturetest.StreamEdges{
		Parse: ParseStream, Provider: "mistral",
		ReadError: `data: {"id":"r","model":"m","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}` + "\n\n",
		Outside: []string{
			`data: {"model":"m","choices":[]}` + "\n\n",
			`data: {"id":"r","model":"m","choices":[{"index":0,"delta":{}}]}` + "\n\n",
			`data: {"id":"r","model":"m","usage":{"prompt_tokens":1.5},"choices":[]}` + "\n\n",
		},
	},
}

func TestMatchesPi(t *testing.T) { captures.Check(t) }

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

// TestDecodeOptionsPathErrors: the shared members are checked; this API's
// own take any value (Pi reads them unchecked) and keep it.
func TestDecodeOptionsPathErrors(t *testing.T) {
	capturetest.CheckDecodeOptions(t, Driver, nil,
		`{"apiKey":"k","signal":{},"headers":{"a":"1","b":null},"toolChoice":{"type":"function","function":{"name":"x"}},"promptMode":"reasoning"}`)
	capturetest.CheckDecodeOptions(t, Driver, nil, `{"toolChoice":true,"promptMode":7,"reasoningEffort":null}`)
}
