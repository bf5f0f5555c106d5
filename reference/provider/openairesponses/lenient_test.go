package openairesponses

import (
	"errors"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

const (
	visionModel = `{"id":"gpt-5","api":"openai-responses","provider":"openai","baseUrl":"http://h","reasoning":true,"input":["text","image"]}`
	textModel   = `{"id":"gpt-5","api":"openai-responses","provider":"openai","baseUrl":"http://h","reasoning":true,"input":["text"]}`
	// same is the members that make an assistant this model's.
	same  = `"api":"openai-responses","provider":"openai","model":"gpt-5","stopReason":"stop","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`
	other = `"api":"anthropic-messages","provider":"anthropic","model":"claude","stopReason":"stop","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`
)

func TestLenientConversion(t *testing.T) {
	for _, tc := range []struct {
		name, model, messages, want string
	}{
		{"user elements other than text are images", visionModel,
			`[{"role":"user","content":[{"type":"text","text":"a","textSignature":5},{"type":"doc","mimeType":"m","data":7},7,"s",[1],{"type":"image","mimeType":null,"data":{}}]}]`,
			`[{"role":"user","content":[{"type":"input_text","text":"a"},
			{"type":"input_image","detail":"auto","image_url":"data:m;base64,7"},
			{"type":"input_image","detail":"auto","image_url":"data:undefined;base64,undefined"},
			{"type":"input_image","detail":"auto","image_url":"data:undefined;base64,undefined"},
			{"type":"input_image","detail":"auto","image_url":"data:undefined;base64,undefined"},
			{"type":"input_image","detail":"auto","image_url":"data:null;base64,[object Object]"}]}]`},
		{"tool call name and arguments of other types", visionModel,
			`[{"role":"assistant",` + same + `,"content":[{"type":"toolCall","id":"c|fc_1","name":42,"arguments":"x"},{"type":"toolCall","id":"d","arguments":null},{"type":"toolCall","id":"e","name":null}]},
			{"role":"toolResult","toolCallId":"c|fc_1","toolName":1,"content":[]},{"role":"toolResult","toolCallId":"d","content":[]},{"role":"toolResult","toolCallId":"e","content":[]}]`,
			`[{"type":"function_call","id":"fc_1","call_id":"c","name":42,"arguments":"\"x\""},
			{"type":"function_call","call_id":"d","arguments":"null"},
			{"type":"function_call","call_id":"e","name":null},
			{"type":"function_call_output","call_id":"c","output":"(see attached image)"},
			{"type":"function_call_output","call_id":"d","output":"(see attached image)"},
			{"type":"function_call_output","call_id":"e","output":"(see attached image)"}]`},
		{"signatures of other types", visionModel,
			`[{"role":"assistant",` + same + `,"content":[{"type":"thinking","thinking":"","thinkingSignature":1},{"type":"thinking","thinking":"t","thinkingSignature":["{}"]},{"type":"thinking","thinking":"t","thinkingSignature":0},{"type":"text","text":"a","textSignature":0},{"type":"unknown"},{"type":"text","text":"b","textSignature":null}]}]`,
			`[1,{},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"a","annotations":[]}],"status":"completed","id":"msg_pi_0"},
			{"type":"message","role":"assistant","content":[{"type":"output_text","text":"b","annotations":[]}],"status":"completed","id":"msg_pi_0_1"}]`},
		{"a message of another role is counted", visionModel,
			`[{"role":"system","content":"x"},{"role":"assistant",` + same + `,"content":[{"type":"text","text":"a"}]}]`,
			`[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"a","annotations":[]}],"status":"completed","id":"msg_pi_1"}]`},
		{"tool-result elements by type alone", visionModel,
			`[{"role":"toolResult","toolCallId":"c","content":[{"type":"text","text":12},{"type":"text","text":null},{"type":"text","text":[1,[2]]},{"type":"image","data":5},{"type":"other","text":"no"}]}]`,
			`[{"type":"function_call_output","call_id":"c","output":[{"type":"input_text","text":"12\n\n1,2"},{"type":"input_image","detail":"auto","image_url":"data:undefined;base64,5"}]}]`},
		{"tool-result string content for a model without images", textModel,
			`[{"role":"toolResult","toolCallId":"c","content":"ab"}]`,
			`[{"type":"function_call_output","call_id":"c","output":"(see attached image)"}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := capturetest.BuildLenient(t, Driver, tc.model, `{"messages":`+tc.messages+`}`, "")
			capturetest.WantMember(t, body, err, "input", tc.want)
		})
	}
}

func TestLenientThrows(t *testing.T) {
	for _, tc := range []struct {
		name, model, messages string
	}{
		{"user content of another type", visionModel, `[{"role":"user","content":7}]`},
		{"user content missing", visionModel, `[{"role":"user"}]`},
		{"null user element", visionModel, `[{"role":"user","content":[null]}]`},
		{"user text of another type", visionModel, `[{"role":"user","content":[{"type":"text","text":1}]}]`},
		{"null in assistant content of an error", visionModel, `[{"role":"assistant",` + strings.Replace(same, `"stop"`, `"error"`, 1) + `,"content":[null]}]`},
		{"null spliced into assistant content", visionModel, `[{"role":"assistant",` + same + `,"content":[[null]]}]`},
		{"assistant text of another type", visionModel, `[{"role":"assistant",` + same + `,"content":[{"type":"text","text":null}]}]`},
		{"truthy text signature of another type", visionModel, `[{"role":"assistant",` + same + `,"content":[{"type":"text","text":"a","textSignature":1}]}]`},
		{"another model's tool-call id of another type", visionModel, `[{"role":"assistant",` + other + `,"content":[{"type":"toolCall","id":5,"name":"n","arguments":{}}]}]`},
		{"this model's tool-call id of another type", visionModel, `[{"role":"assistant",` + same + `,"content":[{"type":"toolCall","id":["a"],"name":"n","arguments":{}}]}]`},
		{"another model's truthy thinking of another type", visionModel, `[{"role":"assistant",` + other + `,"content":[{"type":"thinking","thinking":7}]}]`},
		{"tool-result content of another type", visionModel, `[{"role":"toolResult","toolCallId":"c","content":"ab"}]`},
		{"tool-result content not iterable without images", textModel, `[{"role":"toolResult","toolCallId":"c","content":7}]`},
		{"null tool-result element", visionModel, `[{"role":"toolResult","toolCallId":"c","content":[null]}]`},
		{"tool-call id of a result of another type", visionModel, `[{"role":"toolResult","toolCallId":7,"content":[]}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := capturetest.BuildLenient(t, Driver, tc.model, `{"messages":`+tc.messages+`}`, "")
			if !errors.Is(err, transform.ErrThrows) {
				t.Errorf("error = %v, want transform.ErrThrows", err)
			}
		})
	}
	// JSON.parse of String({}) fails the request as a signature that is not
	// JSON does: Pi's error message, not a refusal.
	_, err := capturetest.BuildLenient(t, Driver, visionModel, `{"messages":[{"role":"assistant",`+same+`,"content":[{"type":"thinking","thinking":"","thinkingSignature":{}}]}]}`, "")
	var re *stream.RequestError
	if !errors.As(err, &re) {
		t.Errorf("signature {}: error = %v, want a RequestError", err)
	}
}

func TestLenientOptions(t *testing.T) {
	for _, tc := range []struct {
		name, ctx, opts string
		want            map[string]string
	}{
		{"tools copied as they are", `{"messages":[],"tools":[{"name":7,"description":null,"parameters":"x"},{"parameters":{}}]}`, "",
			map[string]string{"tools": `[{"type":"function","name":7,"description":null,"parameters":"x","strict":false},{"type":"function","parameters":{},"strict":false}]`}},
		{"effort and summary of other types", `{"messages":[]}`, `{"reasoningEffort":7,"reasoningSummary":true,"serviceTier":5}`,
			map[string]string{"reasoning": `{"effort":7,"summary":true}`, "service_tier": `5`}},
		{"falsy effort and summary", `{"messages":[]}`, `{"reasoningEffort":0,"reasoningSummary":[],"serviceTier":null}`,
			map[string]string{"reasoning": `{"effort":"medium","summary":[]}`, "service_tier": `null`}},
		{"neither truthy", `{"messages":[]}`, `{"reasoningEffort":false,"reasoningSummary":""}`,
			map[string]string{"reasoning": `{"effort":"none"}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := capturetest.BuildLenient(t, Driver, visionModel, tc.ctx, tc.opts)
			for key, want := range tc.want {
				capturetest.WantMember(t, body, err, key, want)
			}
		})
	}
	// The effort is looked up in the level map by its String().
	model := `{"id":"gpt-5","api":"openai-responses","provider":"openai","baseUrl":"http://h","reasoning":true,"input":["text"],"thinkingLevelMap":{"7":"high"}}`
	body, err := capturetest.BuildLenient(t, Driver, model, `{"messages":[]}`, `{"reasoningEffort":7}`)
	capturetest.WantMember(t, body, err, "reasoning", `{"effort":"high","summary":"auto"}`)
}

// TestThrowOrder: where several parts of a context throw, Pi's first step
// wins (the transform checks over every message, then the system prompt,
// then the messages' conversion in order), whatever message comes first.
func TestThrowOrder(t *testing.T) {
	userThrows := `{"role":"user","content":7}`
	for _, tc := range []struct {
		name, model, ctx, want string
	}{
		{"a later check over the system prompt", textModel,
			`{"systemPrompt":5,"messages":[` + userThrows + `,{"role":"user","content":[null]}]}`, "/context/messages/1/content/0"},
		{"the system prompt over a conversion", visionModel,
			`{"systemPrompt":5,"messages":[` + userThrows + `]}`, "/context/systemPrompt"},
		{"the system prompt without messages", visionModel, `{"systemPrompt":5,"messages":[]}`, "/context/systemPrompt"},
		{"a later check over a conversion", textModel,
			`{"messages":[` + userThrows + `,{"role":"user","content":[null]}]}`, "/context/messages/1/content/0"},
		{"the first conversion", visionModel,
			`{"messages":[{"role":"toolResult","toolCallId":7,"content":[]},` + userThrows + `]}`, "/context/messages/0/toolCallId"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := capturetest.BuildLenient(t, Driver, tc.model, tc.ctx, "")
			if err == nil || !strings.Contains(err.Error(), tc.want+": ") {
				t.Errorf("error = %v, want one at %s", err, tc.want)
			}
		})
	}
}

// TestToolResultSplitOrder: a tool result whose toolCallId is not a string
// and one of whose texts has no string form. 0.80 joins the texts first
// and throws V8's TypeError there; 1.6 splits the toolCallId first and
// throws on that (seen with pi-ai 0.80.2 and 1.6.0: "Cannot convert object
// to primitive value" and "msg.toolCallId.split is not a function or its
// return value is not iterable").
func TestToolResultSplitOrder(t *testing.T) {
	ctx := `{"messages":[{"role":"toolResult","toolCallId":7,"toolName":"read","content":[{"type":"text","text":{"toString":"x"}}],"isError":false,"timestamp":1}]}`
	_, err := capturetest.BuildCallIn(t, Driver, dialect.V0_80, visionModel, ctx, "")
	if msg, ok := provider.Refusal(err); !ok || msg != stream.NoPrimitiveText {
		t.Errorf("0.80: %v, want the text's TypeError", err)
	}
	_, err = capturetest.BuildCallIn(t, Driver, dialect.V1_6, visionModel, ctx, "")
	if err == nil || !strings.Contains(err.Error(), "/context/messages/0/toolCallId: ") {
		t.Errorf("1.6: %v, want the toolCallId's throw", err)
	}
}
