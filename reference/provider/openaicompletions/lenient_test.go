package openaicompletions

import (
	"errors"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/transform"
)

// buildLenient sends a context of members of other types for a reasoning model
// with the given input kinds, of provider "p" unless input names another
// after the kinds (capturetest.BuildLenient).
func buildLenient(t *testing.T, input, context, options string) (jsonv.Value, error) {
	t.Helper()
	model := `{"id":"m","api":"openai-completions","baseUrl":"http://x","reasoning":true,"input":` + withProvider(input) + `}`
	return capturetest.BuildLenient(t, Driver, model, context, options)
}

// withProvider adds provider "p" to input unless it names one.
func withProvider(input string) string {
	if strings.Contains(input, `"provider"`) {
		return input
	}
	return input + `,"provider":"p"`
}

// ids is an array of n one-digit numbers, as JSON.
func ids(n int) string { return "[" + strings.TrimSuffix(strings.Repeat("1,", n), ",") + "]" }

// same marks an assistant message as the model's own.
const same = `"api":"openai-completions","provider":"p","model":"m"`

// TestLenientMessages: members of other types reach the body as Pi's
// convertMessages writes them (wire.openai-completions.lenient).
func TestLenientMessages(t *testing.T) {
	for _, tc := range []struct {
		name, input, messages, want string
	}{
		{"user element that is no block is an image of undefined", `["text","image"]`,
			`[{"role":"user","content":[7,{"type":"image","data":7,"mimeType":"image/png"}]}]`,
			`[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:undefined;base64,undefined"}},{"type":"image_url","image_url":{"url":"data:image/png;base64,7"}}]}]`},
		{"user text block with another member of another type", `["text"]`,
			`[{"role":"user","content":[{"type":"text","text":"a","textSignature":7}]}]`,
			`[{"role":"user","content":[{"type":"text","text":"a"}]}]`},
		{"tool call id, name and arguments as they are", `["text"]`,
			`[{"role":"assistant",` + same + `,"stopReason":"toolUse","content":[{"type":"toolCall","id":null,"name":7,"arguments":"x"},{"type":"mystery"}]},` +
				`{"role":"toolResult","toolCallId":null,"toolName":"t","content":[{"type":"text","text":null},{"type":"text","text":"a"},{"type":"text","text":[1,[2]]}]}]`,
			`[{"role":"assistant","content":null,"tool_calls":[{"id":null,"type":"function","function":{"name":7,"arguments":"\"x\""}}]},` +
				`{"role":"tool","content":"\na\n1,2","tool_call_id":null}]`},
		{"tool call without id or arguments", `["text"]`,
			`[{"role":"assistant",` + same + `,"stopReason":"toolUse","content":[{"type":"toolCall","name":"n"}]},{"role":"toolResult","toolName":"n","content":[]}]`,
			`[{"role":"assistant","content":null,"tool_calls":[{"type":"function","function":{"name":"n"}}]},{"role":"tool","content":"(see attached image)"}]`},
		{"thought signature parsed from its String() form", `["text"]`,
			`[{"role":"assistant",` + same + `,"stopReason":"toolUse","content":[{"type":"toolCall","id":"c","name":"n","arguments":{},"thoughtSignature":7},{"type":"toolCall","id":"d","name":"n","arguments":{},"thoughtSignature":{}}]}]`,
			`[{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"n","arguments":"{}"}},{"id":"d","type":"function","function":{"name":"n","arguments":"{}"}}],"reasoning_details":[7]},` +
				`{"role":"tool","content":"No result provided","tool_call_id":"c"},{"role":"tool","content":"No result provided","tool_call_id":"d"}]`},
		{"thinking signature that is an array names its String() form", `["text"]`,
			`[{"role":"assistant",` + same + `,"stopReason":"stop","content":[{"type":"thinking","thinking":"t","thinkingSignature":["r","s"]},{"type":"text","text":"a"}]},` +
				`{"role":"assistant",` + same + `,"stopReason":"stop","content":[{"type":"thinking","thinking":"t","thinkingSignature":[]},{"type":"text","text":"b"}]},` +
				`{"role":"assistant",` + same + `,"stopReason":"stop","content":[{"type":"thinking","thinking":"t","thinkingSignature":7},{"type":"text","text":"c"}]}]`,
			`[{"role":"assistant","content":"a","r,s":"t"},{"role":"assistant","content":"b"},{"role":"assistant","content":"c"}]`},
		{"opencode-go renames only the string signature reasoning", `["text"],"provider":"opencode-go"`,
			`[{"role":"assistant","api":"openai-completions","provider":"opencode-go","model":"m","stopReason":"stop","content":[{"type":"thinking","thinking":"t","thinkingSignature":["reasoning"]},{"type":"text","text":"a"}]},` +
				`{"role":"assistant","api":"openai-completions","provider":"opencode-go","model":"m","stopReason":"stop","content":[{"type":"thinking","thinking":"u","thinkingSignature":"reasoning"},{"type":"text","text":"b"}]}]`,
			`[{"role":"assistant","content":"a","reasoning":"t"},{"role":"assistant","content":"b","reasoning_content":"u"}]`},
		{"assistant of another model whose provider is a number", `["text"]`,
			`[{"role":"assistant","api":"openai-completions","provider":7,"model":"m","stopReason":"stop","content":[{"type":"thinking","thinking":"t","thinkingSignature":"sig"}]}]`,
			`[{"role":"assistant","content":"t"}]`},
		{"tool result of a string for a model without images", `["text"]`,
			`[{"role":"toolResult","toolCallId":"c","toolName":"n","content":"ab"}]`,
			`[{"role":"tool","content":"(see attached image)","tool_call_id":"c"}]`},
		{"text of another type in a dropped assistant", `["text"]`,
			`[{"role":"assistant",` + same + `,"stopReason":"error","content":[{"type":"text","text":7},[null]]}]`,
			`[]`},
		{"foreign image in a tool result", `["text","image"]`,
			`[{"role":"toolResult","toolCallId":"c","toolName":"n","content":[{"type":"image","data":null}]}]`,
			`[{"role":"tool","content":"(see attached image)","tool_call_id":"c"},{"role":"user","content":[{"type":"text","text":"Attached image(s) from tool result:"},{"type":"image_url","image_url":{"url":"data:undefined;base64,null"}}]}]`},
		{"array id of another model", `["text"]`,
			`[{"role":"assistant","api":"a","provider":"b","model":"c","stopReason":"toolUse","content":[{"type":"toolCall","id":[],"name":"n","arguments":{}}]}]`,
			`[{"role":"assistant","content":null,"tool_calls":[{"id":[],"type":"function","function":{"name":"n","arguments":"{}"}}]},{"role":"tool","content":"No result provided","tool_call_id":[]}]`},
		{"array id longer than 40 of another model, for provider openai", `["text"],"provider":"openai"`,
			`[{"role":"assistant","api":"a","provider":"b","model":"c","stopReason":"toolUse","content":[{"type":"toolCall","id":` + ids(41) + `,"name":"n","arguments":{}}]}]`,
			`[{"role":"assistant","content":null,"tool_calls":[{"id":` + ids(40) + `,"type":"function","function":{"name":"n","arguments":"{}"}}]},{"role":"tool","content":"No result provided","tool_call_id":` + ids(40) + `}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := buildLenient(t, tc.input, `{"messages":`+tc.messages+`}`, "")
			capturetest.WantMember(t, body, err, "messages", tc.want)
		})
	}
}

// TestLenientThrows: where Pi throws reading a member of another type, the
// reference refuses the context with transform.ErrThrows naming the member.
func TestLenientThrows(t *testing.T) {
	for _, tc := range []struct {
		name, input, messages, at string
	}{
		{"user content of another type", `["text"]`, `[{"role":"user","content":7}]`, "/context/messages/0/content"},
		{"null in user content", `["text","image"]`, `[{"role":"user","content":["a",null]}]`, "/context/messages/0/content/1"},
		{"user text that is no string", `["text"]`, `[{"role":"user","content":[{"type":"text","text":null}]}]`, "/context/messages/0/content/0/text"},
		{"assistant text that is no string", `["text"]`,
			`[{"role":"assistant",` + same + `,"stopReason":"stop","content":[{"type":"text","text":7}]}]`, "/context/messages/0/content/0/text"},
		{"spliced assistant text that is no string", `["text"]`,
			`[{"role":"assistant",` + same + `,"stopReason":"stop","content":[[{"type":"text","text":{}}]]}]`, "/context/messages/0/content/0/0/text"},
		{"redacted thinking of the same model that is no string", `["text"]`,
			`[{"role":"assistant",` + same + `,"stopReason":"stop","content":[{"type":"thinking","thinking":null,"redacted":true}]}]`, "/context/messages/0/content/0/thinking"},
		{"truthy thinking of another model", `["text"]`,
			`[{"role":"assistant","api":"a","provider":"b","model":"c","stopReason":"stop","content":[{"type":"thinking","thinking":7}]}]`, "/context/messages/0/content/0/thinking"},
		{"tool-call id of another model that is a number", `["text"]`,
			`[{"role":"assistant","api":"a","provider":"b","model":"c","stopReason":"toolUse","content":[{"type":"toolCall","id":7,"name":"n","arguments":{}}]}]`, "/context/messages/0/content/0/id"},
		{"tool-call id of another model that is an array holding |", `["text"]`,
			`[{"role":"assistant","api":"a","provider":"b","model":"c","stopReason":"toolUse","content":[{"type":"toolCall","id":["|"],"name":"n","arguments":{}}]}]`, "/context/messages/0/content/0/id"},
		{"tool result content of a string for a model with images", `["text","image"]`,
			`[{"role":"toolResult","toolCallId":"c","toolName":"n","content":"ab"}]`, "/context/messages/0/content"},
		{"tool result content of null", `["text"]`,
			`[{"role":"toolResult","toolCallId":"c","toolName":"n","content":null}]`, "/context/messages/0/content"},
		{"null in tool result content", `["text","image"]`,
			`[{"role":"toolResult","toolCallId":"c","toolName":"n","content":[null]}]`, "/context/messages/0/content/0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := buildLenient(t, tc.input, `{"messages":`+tc.messages+`}`, "")
			var pe *jsonv.PathError
			if !errors.Is(err, transform.ErrThrows) || !errors.As(err, &pe) || pe.Pointer != tc.at {
				t.Errorf("error %v, want transform.ErrThrows at %s", err, tc.at)
			}
		})
	}
}

// TestLenientToolsAndOptions: tool members and this API's own options of
// other types are copied, tested and looked up as Pi does.
func TestLenientToolsAndOptions(t *testing.T) {
	for _, tc := range []struct {
		name, model, context, options string
		want                          map[string]string
	}{
		{"tool members as they are", `["text"]`, `{"messages":[],"tools":[{"name":7,"description":null}]}`, `{"toolChoice":7}`,
			map[string]string{"tools": `[{"type":"function","function":{"name":7,"description":null,"strict":false}}]`, "tool_choice": `7`}},
		{"falsy tool choice is left out", `["text"]`, `{"messages":[]}`, `{"toolChoice":0}`,
			map[string]string{"tool_choice": ``}},
		{"effort of another type copied as it is", `["text"]`, `{"messages":[]}`, `{"reasoningEffort":7}`,
			map[string]string{"reasoning_effort": `7`}},
		{"falsy effort is off", `["text"]`, `{"messages":[]}`, `{"reasoningEffort":""}`,
			map[string]string{"reasoning_effort": ``}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := buildLenient(t, tc.model, tc.context, tc.options)
			if err != nil {
				t.Fatal(err)
			}
			for key, want := range tc.want {
				capturetest.CheckMember(t, body, []string{key}, want)
			}
		})
	}
}

// TestChatTemplateEffort: a falsy effort that is not undefined resolves a
// chat-template member the level map leaves out to itself.
func TestChatTemplateEffort(t *testing.T) {
	model := &ai.Model{Reasoning: true}
	c := compat{v: map[string]jsonv.Value{"chatTemplateKwargs": jsonv.ObjectValue(jsonv.Member{Key: "effort", Value: jsonv.ObjectValue()})}}
	for _, tc := range []struct {
		effort jsonv.Value
		want   string
	}{
		{jsonv.Value{}, ""},
		{jsonv.NullValue(), `{"effort":null}`},
		{jsonv.StringValue(""), `{"effort":""}`},
		{jsonv.NumberValue("7"), `{"effort":7}`},
	} {
		got := chatTemplateKwargs(false, model, tc.effort, c.get("chatTemplateKwargs"), jsonv.Value{})
		if s := got.String(); got.IsAbsent() && tc.want != "" || !got.IsAbsent() && s != tc.want {
			t.Errorf("effort %s: kwargs %s, want %s", tc.effort, got, tc.want)
		}
	}
}

// TestErrorsAfterTheMessageChecks: Pi checks every message before the SDK's
// timeout and the system prompt can fail, and both fail before any
// message is converted (provider.Steps.Pending); the system prompt, which
// Pi sanitizes as it builds the body, fails before the timeout, which the
// SDK checks as it makes the request (checked against pi-ai 0.80.2).
func TestErrorsAfterTheMessageChecks(t *testing.T) {
	badText := `{"role":"assistant",` + same + `,"stopReason":"stop","content":[{"type":"text","text":7}]}`
	for _, tc := range []struct {
		name, context, options, want string
	}{
		{"system prompt", `{"systemPrompt":7,"messages":[{"role":"user","content":"a"}]}`, `{}`, "/context/systemPrompt"},
		{"system prompt without messages", `{"systemPrompt":7,"messages":[]}`, `{}`, "/context/systemPrompt"},
		{"a message check first", `{"systemPrompt":7,"messages":[{"role":"user","content":"a"},` + badText + `]}`, `{}`, "/context/messages/1"},
		{"timeout", `{"messages":[{"role":"user","content":"a"}]}`, `{"timeoutMs":1.5}`, "timeout must be an integer"},
		{"the system prompt before the timeout", `{"systemPrompt":7,"messages":[]}`, `{"timeoutMs":1.5}`, "/context/systemPrompt"},
		{"a message check before the timeout", `{"messages":[` + badText + `]}`, `{"timeoutMs":1.5}`, "/context/messages/0"},
		{"the retry count before the timeout", `{"messages":[{"role":"user","content":"a"}]}`, `{"timeoutMs":1.5,"maxRetries":{"toString":"x"}}`, "Cannot convert object to primitive value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := buildLenient(t, `["text"]`, tc.context, tc.options)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want one naming %q", err, tc.want)
			}
		})
	}
}
