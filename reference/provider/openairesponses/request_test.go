package openairesponses

import (
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/transform"
)

// captures replays testdata/requests.json and testdata/streams.json, which
// capture.mjs recorded from real Pi 0.80.2.
var captures = capturetest.Captures{
	Driver: Driver,
	// Pi itself emits these streams' events out of grammar.
	Quirks: map[string]bool{
		"tool call left open at completion leaks partialJson": true,
		"blocks left open when the next item starts":          true,
		"function_call done without an open call":             true,
		// These two end with a message block that no output_item.done closed.
		"framing: comments, CRLF, lone CR, multi-line data, BOM, no event lines": true,
		"invalid UTF-8 becomes replacement characters":                           true,
	},
	ShortCase: "example from the notes",
	Edges: capturetest.StreamEdges{
		Parse: ParseStream, Provider: "openai",
		ReadError: "data: {\"type\":\"response.created\",\"response\":{\"id\":\"r\"}}\n\n",
		Outside: []string{
			// A name and arguments Pi keeps as they are, with no string form.
			`data: {"type":"response.output_item.added","item":{"type":"function_call","call_id":"c","id":"i","name":{"toString":"x"}}}` + "\n\n",
			`data: {"type":"response.output_item.added","item":{"type":"function_call","call_id":"c","id":"i","name":"f"}}` + "\n\n" +
				`data: {"type":"response.function_call_arguments.done","arguments":{"toString":"x"}}` + "\n\n",
		},
	},
}

func TestMatchesPi(t *testing.T) { captures.Check(t) }

func TestNormalizeToolCallID(t *testing.T) {
	openai := &ai.Model{ID: "gpt-5", API: API, Provider: "openai"}
	copilot := &ai.Model{ID: "gpt-5", API: API, Provider: "github-copilot"}
	foreign := &ai.AssistantMessage{API: "anthropic-messages", Provider: "anthropic", Model: "claude"}
	sibling := &ai.AssistantMessage{API: API, Provider: "openai", Model: "gpt-4.1"}
	for _, tc := range []struct {
		in     string
		model  *ai.Model
		source *ai.AssistantMessage
		want   string
	}{
		{"toolu_01A.b", openai, foreign, "toolu_01A_b"},
		{"call_9|item+/=long", openai, foreign, "call_9|fc_l0jjeey534ua"},
		{"call_9|item+/=long", copilot, foreign, "call_9_item___long"},
		{"call_9|rs+x", openai, sibling, "call_9|fc_rs_x"},
		{"call_9|fc_1", openai, sibling, "call_9|fc_1"},
		{"a.__", openai, foreign, "a"},
		{"emoji😀", openai, foreign, "emoji"},
		{strings.Repeat("x", 70) + "|y", openai, foreign, strings.Repeat("x", 64) + "|fc_" + transform.ShortHash("y")},
	} {
		if got := NormalizeToolCallID(tc.in, tc.model, tc.source); got != tc.want {
			t.Errorf("NormalizeToolCallID(%q, %s) = %q, want %q", tc.in, tc.model.Provider, got, tc.want)
		}
	}
}

func TestDecodeOptionsPathErrors(t *testing.T) {
	capturetest.CheckDecodeOptions(t, Driver, capturetest.OptionErrors{}, `{"apiKey":"k","toolChoice":"auto","headers":{"a":"1","b":null},"serviceTier":"flex","reasoningSummary":"auto"}`)
}
