package anthropic

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/transform"
)

const lenientModel = `{"id":"claude-sonnet-4-5","name":"S","api":"anthropic-messages","provider":"anthropic",
	"baseUrl":"https://api.anthropic.com","reasoning":true,"input":["text","image"],
	"cost":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75},"contextWindow":200000,"maxTokens":64000}`

// same is an assistant of lenientModel, so transform keeps its blocks.
const same = `"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{},"stopReason":"toolUse"`

// TestLenientMembers pins how values of other types than Pi declares reach
// the body (wire.anthropic.lenient): the member named by pick, or an error.
func TestLenientMembers(t *testing.T) {
	for _, tc := range []struct {
		name, ctx, opts string
		pick            []string // path of object keys and array indices into the body
		want            string   // JSON; "" means the member is left out
		throws          bool
	}{
		{name: "tool-call name and id copied as they are",
			ctx:  `{"messages":[{"role":"assistant","content":[{"type":"toolCall","id":7,"name":[1],"arguments":"x"}],` + same + `}]}`,
			pick: []string{"messages", "0", "content", "0"}, want: `{"type":"tool_use","id":7,"name":[1],"input":"x"}`},
		{name: "tool-call name of another type under OAuth",
			ctx:  `{"messages":[{"role":"assistant","content":[{"type":"toolCall","id":"a","name":7,"arguments":{}}],` + same + `}]}`,
			opts: `{"apiKey":"sk-ant-oat-1"}`, throws: true},
		{name: "unknown assistant block skipped",
			ctx:  `{"messages":[{"role":"assistant","content":[{"type":"mystery"},5,"s",[],{"type":"text","text":"hi"}],` + same + `}]}`,
			pick: []string{"messages", "0", "content"}, want: `[{"type":"text","text":"hi"}]`},
		{name: "assistant text null",
			ctx:    `{"messages":[{"role":"assistant","content":[{"type":"text","text":null}],` + same + `}]}`,
			throws: true},
		{name: "null in a dropped assistant",
			ctx:    `{"messages":[{"role":"assistant","content":[null],"api":"x","provider":"y","model":"z","usage":{},"stopReason":"error"}]}`,
			throws: true},
		{name: "redacted thinking sends its signature as it is",
			ctx:  `{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"","thinkingSignature":7,"redacted":1}],` + same + `}]}`,
			pick: []string{"messages", "0", "content", "0"}, want: `{"type":"redacted_thinking","data":7}`},
		{name: "thinking of another type signed for the same model",
			ctx:    `{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":0,"thinkingSignature":"s"}],` + same + `}]}`,
			throws: true},
		{name: "thinking signature falsy of another type is no signature",
			ctx:  `{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"t","thinkingSignature":0}],` + same + `}]}`,
			pick: []string{"messages", "0", "content", "0"}, want: `{"type":"text","text":"t"}`},
		{name: "thinking signature truthy of another type",
			ctx:    `{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"t","thinkingSignature":5}],` + same + `}]}`,
			throws: true},
		{name: "user element not a text is an image of its members",
			ctx:  `{"messages":[{"role":"user","content":[{"type":"image","mimeType":7},"s",{"type":"x","data":true}]}]}`,
			pick: []string{"messages", "0", "content"},
			want: `[{"type":"image","source":{"type":"base64","media_type":7}},{"type":"image","source":{"type":"base64"}},{"type":"image","source":{"type":"base64","data":true},"cache_control":{"type":"ephemeral"}}]`},
		{name: "user text null", ctx: `{"messages":[{"role":"user","content":[{"type":"text","text":null}]}]}`, throws: true},
		{name: "user content neither string nor array", ctx: `{"messages":[{"role":"user","content":5}]}`, throws: true},
		{name: "tool result text joined with String()",
			ctx:  `{"messages":[{"role":"toolResult","toolCallId":5,"toolName":"t","content":[{"type":"text","text":7},{"type":"x"},3,{"type":"text","text":"b"}],"isError":false}]}`,
			pick: []string{"messages", "0", "content", "0"}, want: `{"type":"tool_result","tool_use_id":5,"content":"7\n\n\nb","is_error":false,"cache_control":{"type":"ephemeral"}}`},
		{name: "tool result with an image maps other elements to images",
			ctx:  `{"messages":[{"role":"toolResult","toolCallId":"c","toolName":"t","content":[{"type":"image","data":"d","mimeType":"image/png"},{"type":"x"}],"isError":false}]}`,
			pick: []string{"messages", "0", "content", "0", "content"},
			want: `[{"type":"text","text":"(see attached image)"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"d"}},{"type":"image","source":{"type":"base64"}}]`},
		{name: "tool result content a string", ctx: `{"messages":[{"role":"toolResult","toolCallId":"c","toolName":"t","content":"ab","isError":false}]}`, throws: true},
		{name: "tool name and description copied, schema not an object",
			ctx:  `{"messages":[{"role":"user","content":"hi"}],"tools":[{"name":7,"description":null,"parameters":"s"}]}`,
			pick: []string{"tools", "0"},
			want: `{"name":7,"description":null,"eager_input_streaming":true,"input_schema":{"type":"object","properties":{},"required":[]},"cache_control":{"type":"ephemeral"}}`},
		{name: "tool parameters null", ctx: `{"messages":[],"tools":[{"name":"t","description":"d","parameters":null}]}`, throws: true},
		{name: "truthy tool choice of another type copied",
			ctx: `{"messages":[]}`, opts: `{"toolChoice":7}`, pick: []string{"tool_choice"}, want: `7`},
		{name: "falsy tool choice left out",
			ctx: `{"messages":[]}`, opts: `{"toolChoice":0}`, pick: []string{"tool_choice"}, want: ``},
		{name: "thinking display and budget as they are",
			ctx: `{"messages":[]}`, opts: `{"thinkingEnabled":true,"thinkingDisplay":5,"thinkingBudgetTokens":"9"}`,
			pick: []string{"thinking"}, want: `{"type":"enabled","budget_tokens":"9","display":5}`},
		{name: "null thinking display is the default",
			ctx: `{"messages":[]}`, opts: `{"thinkingEnabled":true,"thinkingDisplay":null,"thinkingBudgetTokens":[]}`,
			pick: []string{"thinking"}, want: `{"type":"enabled","budget_tokens":[],"display":"summarized"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := capturetest.BuildLenient(t, Driver, lenientModel, tc.ctx, tc.opts)
			if tc.throws {
				if !errors.Is(err, transform.ErrThrows) {
					t.Fatalf("error = %v, want transform.ErrThrows", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			capturetest.CheckMember(t, body, tc.pick, tc.want)
		})
	}
}

func TestTruthyOr(t *testing.T) {
	for _, tc := range []struct {
		in   string
		def  bool
		want bool
	}{{`null`, true, true}, {`0`, true, false}, {`""`, true, false}, {`[]`, false, true}, {`"x"`, false, true}} {
		if got := TruthyOr(jsonvtest.Parse(t, tc.in), tc.def); got != tc.want {
			t.Errorf("TruthyOr(%s, %v) = %v, want %v", tc.in, tc.def, got, tc.want)
		}
	}
	if diff := cmp.Diff(true, TruthyOr(jsonv.Value{}, true)); diff != "" {
		t.Errorf("TruthyOr(Absent, true): %s", diff)
	}
}

// TestThinkingIsTrue: thinkingEnabled turns thinking on when truthy, but
// only the boolean true is `=== true` (Pi 1.6's interleaved-thinking
// beta); seen with pi-ai 1.6.0 in wire/anthropic-lenient-thinking-enabled-truthy.
func TestThinkingIsTrue(t *testing.T) {
	for _, tc := range []struct {
		opts   string
		on, is bool
	}{
		{`{"thinkingEnabled":true}`, true, true},
		{`{"thinkingEnabled":1}`, true, false},
		{`{"thinkingEnabled":"x"}`, true, false},
		{`{"thinkingEnabled":{}}`, true, false},
		{`{"thinkingEnabled":false}`, false, false},
		{`{"thinkingEnabled":0}`, false, false},
		{`{}`, false, false},
	} {
		o, err := DecodeOptions(jsonvtest.Parse(t, tc.opts), "/options")
		if err != nil {
			t.Fatal(err)
		}
		on := o.ThinkingEnabled != nil && *o.ThinkingEnabled
		if on != tc.on || o.thinkingIsTrue() != tc.is {
			t.Errorf("%s: on %v, === true %v; want %v, %v", tc.opts, on, o.thinkingIsTrue(), tc.on, tc.is)
		}
	}
}
