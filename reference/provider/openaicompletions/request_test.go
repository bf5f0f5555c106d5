package openaicompletions

import (
	"errors"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/provider/stream"
)

// captures replays testdata/requests.json and testdata/streams.json, which
// capture.mjs recorded from real Pi 0.80.2.
var captures = capturetest.Captures{
	Driver:    Driver,
	ShortCase: "tool calls",
	Edges: capturetest.StreamEdges{
		Parse: ParseStream, Provider: "custom",
		ReadError: "data: {\"id\":\"r\",\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n",
		Outside: []string{
			"data: {\"choices\":[{\"delta\":{\"content\":[\"a\"]},\"finish_reason\":\"stop\"}]}\n\n",
			"data: {\"id\":7,\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
			// An id and a name Pi keeps as they are, with no string form.
			`data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":{"toString":"x"},"function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}` + "\n\n",
			`data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":{"toString":"x"},"arguments":"{}"}}]},"finish_reason":"tool_calls"}]}` + "\n\n",
			// Pi's catch throws appending it: the process dies, no message.
			`data: {"error":{"message":"m","metadata":{"raw":{"toString":"x"}}}}` + "\n\n",
		},
	},
}

func TestMatchesPi(t *testing.T) { captures.Check(t) }

func TestNormalizeToolCallID(t *testing.T) {
	custom := &ai.Model{Provider: "custom"}
	openai := &ai.Model{Provider: "openai"}
	for _, tc := range []struct {
		model   *ai.Model
		in, out string
	}{
		{custom, "call_abc|fc_very+long/id==", "call_abc"},
		{custom, "tool.x|y", "tool_x"},
		{custom, "emoji😀|x", "emoji__"},
		{custom, strings.Repeat("a", 45) + "|b", strings.Repeat("a", 40)},
		{custom, strings.Repeat("a", 45), strings.Repeat("a", 45)},
		{custom, "call.1", "call.1"},
		{openai, strings.Repeat("a", 45), strings.Repeat("a", 40)},
		{openai, strings.Repeat("a", 39) + "😀", strings.Repeat("a", 39) + "\xed\xa0\xbd"},
	} {
		if got := NormalizeToolCallID(tc.in, tc.model, nil); got != tc.out {
			t.Errorf("NormalizeToolCallID(%q, %s) = %q, want %q", tc.in, tc.model.Provider, got, tc.out)
		}
	}
}

// TestDecodeOptionsPathErrors: the shared members are checked; this API's
// own take any value (Pi reads them unchecked) and keep it.
func TestDecodeOptionsPathErrors(t *testing.T) {
	capturetest.CheckDecodeOptions(t, Driver, nil,
		`{"apiKey":"k","signal":{},"headers":{"a":"1","b":null},"toolChoice":{"type":"function","function":{"name":"x"}},"reasoningEffort":"high"}`)
	capturetest.CheckDecodeOptions(t, Driver, nil, `{"toolChoice":true,"reasoningEffort":null}`)
}

// TestOpenRouterModelIDNotAString: Pi calls the id's startsWith for an
// OpenRouter model (by provider or by URL), and throws on any other value;
// elsewhere the id is copied into the body as it is.
func TestOpenRouterModelIDNotAString(t *testing.T) {
	key := "k"
	for _, tc := range []struct {
		model string
		want  error
	}{
		{`{"id":7,"api":"openai-completions","provider":"openrouter","baseUrl":"http://x","input":["text"]}`, ErrOpenRouterModelNotString},
		{`{"api":"openai-completions","provider":"p","baseUrl":"https://openrouter.ai/api","input":["text"]}`, ErrOpenRouterModelNotString},
		{`{"id":7,"api":"openai-completions","provider":"p","baseUrl":"http://x","input":["text"]}`, nil},
	} {
		v, err := jsonv.Parse([]byte(tc.model))
		if err != nil {
			t.Fatal(err)
		}
		model, err := ai.DecodeWireModel(v, "/model")
		if err != nil {
			t.Fatal(err)
		}
		_, err = Driver.BuildRequest(model, &ai.Context{}, &Options{StreamOptions: provider.StreamOptions{APIKey: &key}}, nil)
		if !errors.Is(err, tc.want) {
			t.Errorf("model %s: error %v, want %v", tc.model, err, tc.want)
		}
	}
}

// TestHTTPErrorMetadataRaw: a truthy error.metadata.raw follows the SDK's
// message; one with no string form makes Pi's catch throw, which the
// reference does not model.
func TestHTTPErrorMetadataRaw(t *testing.T) {
	model := &ai.Model{API: API, Provider: "custom"}
	for _, tc := range []struct {
		body, want string
		outside    bool
	}{
		{`{"error":{"message":"m","metadata":{"raw":"upstream"}}}`, "502 m\nupstream", false},
		{`{"error":{"message":"m","metadata":{"raw":""}}}`, "502 m", false},
		{`{"error":{"message":"m","metadata":{"raw":[1,2]}}}`, "502 m\n1,2", false},
		{`{"error":{"message":"m","metadata":{"raw":{"toString":"x"}}}}`, "", true},
	} {
		msg, _, err := ParseHTTPError(model, 502, []byte(tc.body), nil)
		switch {
		case tc.outside && !errors.Is(err, stream.ErrOutsideModel):
			t.Errorf("%s: error %v, want stream.ErrOutsideModel", tc.body, err)
		case !tc.outside && err != nil:
			t.Errorf("%s: error %v", tc.body, err)
		case !tc.outside && (msg.ErrorMessage == nil || *msg.ErrorMessage != tc.want):
			t.Errorf("%s: errorMessage %v, want %q", tc.body, msg.ErrorMessage, tc.want)
		}
	}
}
