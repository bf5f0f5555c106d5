package anthropic

import (
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/provider/internal/capturetest"
)

// captures replays testdata/requests.json and testdata/streams.json, which
// capture.mjs recorded from real Pi 0.80.2.
var captures = capturetest.Captures{
	Driver: Driver,
	// Pi itself emits these streams' events out of grammar.
	Quirks:    map[string]bool{"blocks never stopped leak index and partialJson": true},
	ShortCase: "example from the notes",
	Edges: capturetest.StreamEdges{
		Parse: ParseStream, Provider: "anthropic",
		ReadError: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{}}}\n\n",
		Outside: []string{
			// A response id that is a number.
			"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":5,\"usage\":{}}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
		},
	},
}

func TestMatchesPi(t *testing.T) { captures.Check(t) }

func TestNormalizeToolCallID(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"call.1.2", "call_1_2"},
		{"abc+", "abc_"},
		{"a|b|c", "a_b_c"},
		{"emoji😀", "emoji__"}, // two UTF-16 units, two underscores
		{"lone\xed\xa0\xbd", "lone_"},
		{"call_abc|fc_123+/=" + strings.Repeat("x", 70), "call_abc_fc_123___" + strings.Repeat("x", 46)},
		{"ok_-AZ09", "ok_-AZ09"},
	} {
		if got := NormalizeToolCallID(tc.in, nil, nil); got != tc.want {
			t.Errorf("NormalizeToolCallID(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDecodeOptionsPathErrors(t *testing.T) {
	// The API's own members take any value (input.lenient): they round-trip.
	capturetest.CheckDecodeOptions(t, Driver, nil,
		`{"apiKey":"k","signal":{},"headers":{"a":"1","b":null},"toolChoice":true,"effort":7,"thinkingDisplay":null,"interleavedThinking":"","thinkingBudgetTokens":[]}`)
}
