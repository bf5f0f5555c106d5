package mistral

import (
	"errors"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/transform"
)

// buildLenient sends a context of members of other types for a model of provider
// "p" with the given input kinds (capturetest.BuildLenient).
func buildLenient(t *testing.T, input, context, options string) (jsonv.Value, error) {
	t.Helper()
	model := `{"id":"m","api":"mistral-conversations","provider":"p","baseUrl":"http://x","input":` + input + `}`
	return capturetest.BuildLenient(t, Driver, model, context, options)
}

// same marks an assistant message as the model's own.
const same = `"api":"mistral-conversations","provider":"p","model":"m"`

// TestLenientMessages: members of other types reach the body as Pi's
// toChatMessages and the SDK's schema write them (wire.mistral.lenient).
func TestLenientMessages(t *testing.T) {
	for _, tc := range []struct {
		name, input, messages, want string
	}{
		{"a message of another role is a tool result", `["text"]`,
			`[{"role":"custom","content":[{"type":"text","text":"a"},7,{"type":"image"}],"toolCallId":"c","isError":1}]`,
			`[{"role":"tool","content":[{"type":"text","text":"[tool error] a\n[tool image omitted: model does not support images]"}],"tool_call_id":"c"}]`},
		{"user elements that are no text are images for a vision model", `["text","image"]`,
			`[{"role":"user","content":[7,{"type":"image","data":7}]}]`,
			`[{"role":"user","content":[{"type":"image_url","image_url":"data:undefined;base64,undefined"},{"type":"image_url","image_url":"data:undefined;base64,7"}]}]`},
		{"user elements that are no text are dropped for a text model", `["text"]`,
			`[{"role":"user","content":[7,{"type":"image","data":7}]}]`,
			`[{"role":"user","content":[{"type":"text","text":"(image omitted: model does not support images)"}]}]`},
		{"any other assistant block is a tool call, its id \"null\" when missing", `["text"]`,
			`[{"role":"assistant",` + same + `,"stopReason":"toolUse","content":[{"type":"mystery","name":"n","id":"i"},{"type":"toolCall","name":"n","arguments":7}]},` +
				`{"role":"toolResult","toolCallId":"i","toolName":"n","content":[]}]`,
			`[{"role":"assistant","tool_calls":[{"id":"i","type":"function","function":{"name":"n","arguments":"{}"},"index":0},{"id":"null","type":"function","function":{"name":"n","arguments":"7"},"index":0}],"prefix":false},` +
				`{"role":"tool","content":[{"type":"text","text":"(no tool output)"}],"tool_call_id":"i","name":"n"},` +
				`{"role":"tool","content":[{"type":"text","text":"[tool error] No result provided"}],"name":"n"}]`},
		{"tool result id null", `["text"]`,
			`[{"role":"toolResult","toolCallId":null,"toolName":"n","content":[{"type":"text","text":"a","textSignature":7}]}]`,
			`[{"role":"tool","content":[{"type":"text","text":"a"}],"tool_call_id":null,"name":"n"}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := buildLenient(t, tc.input, `{"messages":`+tc.messages+`}`, "")
			capturetest.WantMember(t, body, err, "messages", tc.want)
		})
	}
}

// TestLenientRefusals: where Pi throws reading a member of another type
// the reference refuses with transform.ErrThrows naming the member; where the SDK's
// schema rejects what Pi copied, with ErrOutsideRequest.
func TestLenientRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, input, context, options string
		want                          error
		at                            string
	}{
		{"a message of another role without array content", `["text"]`, `{"messages":[{"role":"custom","content":"x"}]}`, "", transform.ErrThrows, "/context/messages/0/content"},
		{"a message of another role that is a number", `["text"]`, `{"messages":[7]}`, "", transform.ErrThrows, "/context/messages/0/content"},
		{"a null in a message of another role", `["text"]`, `{"messages":[{"role":"custom","content":[null]}]}`, "", transform.ErrThrows, "/context/messages/0/content/0"},
		{"tool result text that is no string", `["text"]`,
			`{"messages":[{"role":"toolResult","toolCallId":"c","toolName":"n","content":[{"type":"text","text":7}]}]}`, "", transform.ErrThrows, "/context/messages/0/content/0/text"},
		{"user content of another type", `["text"]`, `{"messages":[{"role":"user","content":null}]}`, "", transform.ErrThrows, "/context/messages/0/content"},
		{"tool-call id of another model that is an array", `["text"]`,
			`{"messages":[{"role":"assistant","api":"a","provider":"b","model":"c","stopReason":"toolUse","content":[{"type":"toolCall","id":[],"name":"n","arguments":{}}]}]}`, "", transform.ErrThrows, "/context/messages/0/content/0/id"},
		{"an assistant block without a name", `["text"]`,
			`{"messages":[{"role":"assistant",` + same + `,"stopReason":"stop","content":[{"type":"mystery"}]}]}`, "", ErrOutsideRequest, ""},
		{"a tool call id of null", `["text"]`,
			`{"messages":[{"role":"assistant",` + same + `,"stopReason":"stop","content":[{"type":"toolCall","id":null,"name":"n"}]}]}`, "", ErrOutsideRequest, ""},
		{"a tool result id that is a number", `["text"]`,
			`{"messages":[{"role":"custom","content":[],"toolCallId":7}]}`, "", ErrOutsideRequest, ""},
		{"a tool description of null", `["text"]`, `{"messages":[],"tools":[{"name":"n","description":null,"parameters":{}}]}`, "", ErrOutsideRequest, ""},
		{"a prompt mode of another type", `["text"]`, `{"messages":[]}`, `{"promptMode":7}`, ErrOutsideRequest, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := buildLenient(t, tc.input, tc.context, tc.options)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			var pe *jsonv.PathError
			if tc.at != "" && (!errors.As(err, &pe) || pe.Pointer != tc.at) {
				t.Errorf("error %v, want one at %s", err, tc.at)
			}
		})
	}
}

// TestLenientOptions: this API's own options of other types are tested
// for truthiness and mapped as Pi does.
func TestLenientOptions(t *testing.T) {
	for _, tc := range []struct {
		options string
		want    map[string]string
		refusal string
	}{
		{`{"reasoningEffort":"","promptMode":0,"toolChoice":null}`, map[string]string{"reasoning_effort": "", "prompt_mode": "", "tool_choice": ""}, ""},
		{`{"toolChoice":7}`, nil, "Cannot read properties of undefined (reading 'name')"},
		{`{"toolChoice":["auto"]}`, nil, "Cannot read properties of undefined (reading 'name')"},
	} {
		body, err := buildLenient(t, `["text"]`, `{"messages":[]}`, tc.options)
		if tc.refusal != "" {
			if msg, ok := provider.Refusal(err); !ok || msg != tc.refusal {
				t.Errorf("%s: error %v, want Pi's failure %q", tc.options, err, tc.refusal)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for key := range tc.want {
			if got, _ := body.Get(key); !got.IsAbsent() {
				t.Errorf("%s: %s = %s, want none", tc.options, key, got)
			}
		}
	}
}

// TestToolsMappedBeforeToolChoice: Pi maps the tools before the tool
// choice, so tools it cannot map are refused even with a tool choice whose
// mapping fails (what Pi 0.80.2 answered: its map's TypeError).
func TestToolsMappedBeforeToolChoice(t *testing.T) {
	for tools, at := range map[string]string{`"x"`: "/context/tools", `[null]`: "/context/tools/0"} {
		_, err := buildLenient(t, `["text"]`, `{"messages":[],"tools":`+tools+`}`, `{"toolChoice":"tool"}`)
		var pe *jsonv.PathError
		if !errors.As(err, &pe) || pe.Pointer != at {
			t.Errorf("tools %s: error %v, want the tools refused at %s", tools, err, at)
		}
	}
}

// TestErrorOrder: the members written before the messages are checked
// first, yet their errors and the system prompt's come in Pi's order,
// after the messages' (the system message leads the array).
func TestErrorOrder(t *testing.T) {
	const badMessage = `{"role":"custom","content":[],"toolCallId":7}`
	for _, tc := range []struct {
		name, model, context, options, want string
	}{
		{"a message before the temperature", `"m"`, `{"messages":[` + badMessage + `]}`, `{"temperature":"x"}`, "toolCallId"},
		{"a message before the system prompt", `"m"`, `{"messages":[` + badMessage + `],"systemPrompt":7}`, "", "toolCallId"},
		{"the tool choice before the model id", `7`, `{"messages":[]}`, `{"toolChoice":7}`, "reading 'name'"},
		{"the system prompt before the max tokens", `"m"`, `{"messages":[],"systemPrompt":7}`, `{"maxTokens":1.5}`, "/context/systemPrompt"},
		{"the temperature before the prompt mode", `"m"`, `{"messages":[]}`, `{"temperature":"x","promptMode":7}`, "temperature"},
	} {
		model := `{"id":` + tc.model + `,"api":"mistral-conversations","provider":"p","baseUrl":"http://x","input":["text"]}`
		_, err := capturetest.BuildLenient(t, Driver, model, tc.context, tc.options)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one about %s", tc.name, err, tc.want)
		}
	}
}
