package ai_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/wtf8"
)

// parse parses JSON text a test wrote, or fails the test.
var parse = jsonvtest.Parse

const usageJSON = `{"input":1200,"output":340,"cacheRead":800,"cacheWrite":0,"totalTokens":2340,` +
	`"cost":{"input":0.0036,"output":0.0051,"cacheRead":0.00024,"cacheWrite":0,"total":0.00894}}`

// TestMessageRoundTrip: decoding and encoding keeps every member, unknown
// ones included (msg.passthrough), for every role and block type.
func TestMessageRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		role     string
	}{
		{"user string", `{"role":"user","content":"hello","timestamp":1767225600000}`, ai.RoleUser},
		{"user no timestamp", `{"role":"user","content":""}`, ai.RoleUser},
		{"user empty array", `{"role":"user","content":[]}`, ai.RoleUser},
		{"user blocks + extras", `{"role":"user","content":[{"type":"text","text":"look","textSignature":"s","x":1},` +
			`{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png","detail":"high"}],"timestamp":1,"extra":"keep","nested":{"a":[1,null]}}`, ai.RoleUser},
		{"user lone surrogates", `{"role":"user","content":[{"type":"text","text":"\ud83d x \udc00"}],"timestamp":-0}`, ai.RoleUser},
		{"user duplicate unknown members", `{"role":"user","content":"x","":0,"":{},"k":1,"k":[2]}`, ai.RoleUser},
		{"block duplicate unknown members", `{"role":"user","content":[{"type":"text","text":"a","z":1,"z":2}]}`, ai.RoleUser},
		{"user big numbers", `{"role":"user","content":"x","timestamp":12345678901234567890,"n":1e400}`, ai.RoleUser},
		{"assistant all blocks", `{"role":"assistant","content":[` +
			`{"type":"thinking","thinking":"hmm","thinkingSignature":"sig"},` +
			`{"type":"thinking","thinking":"","thinkingSignature":"ENC==","redacted":true},` +
			`{"type":"thinking","thinking":"t","redacted":false,"unknown":{"k":"v"}},` +
			`{"type":"text","text":"I'll run ls.","textSignature":"{\"v\":1}"},` +
			`{"type":"toolCall","id":"toolu_01","name":"bash","arguments":{"command":"ls","n":1.50,"deep":{"a":[true]}},"thoughtSignature":"ts","z":0},` +
			`{"type":"image","data":"AAAA","mimeType":"image/jpeg"}],` +
			`"api":"anthropic-messages","provider":"anthropic","model":"claude","responseModel":"claude-x","responseId":"msg_1",` +
			`"usage":` + usageJSON + `,"stopReason":"toolUse","timestamp":1767225601000,"vendor":{"x":1}}`, ai.RoleAssistant},
		{"assistant error", `{"role":"assistant","content":[],"api":"a","provider":"p","model":"m",` +
			`"usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"cacheWrite1h":0,"totalTokens":0,"extraUsage":1,` +
			`"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0,"currency":"USD"}},` +
			`"stopReason":"error","errorMessage":"boom","diagnostics":[{"type":"retry","timestamp":5,"error":{"message":"m","code":429}},7]}`, ai.RoleAssistant},
		{"assistant odd stop reason", `{"role":"assistant","content":[],"api":"a","provider":"p","model":"m","usage":` + usageJSON + `,"stopReason":"weird"}`, ai.RoleAssistant},
		{"tool result", `{"role":"toolResult","toolCallId":"tc_001","toolName":"read","content":[{"type":"text","text":"import x"}],` +
			`"details":{"lines":1},"isError":false,"timestamp":1767225602000}`, ai.RoleToolResult},
		{"tool result null details", `{"role":"toolResult","toolCallId":"t","toolName":"n","content":[{"type":"image","data":"d","mimeType":"image/png"}],"details":null,"isError":true,"why":"x"}`, ai.RoleToolResult},
		{"tool result string details", `{"role":"toolResult","toolCallId":"","toolName":"","content":[],"details":"s","isError":false}`, ai.RoleToolResult},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := parse(t, tc.in)
			m, err := ai.DecodeMessage(in, "/m")
			if err != nil {
				t.Fatal(err)
			}
			if m.Role() != tc.role {
				t.Errorf("Role() = %q, want %q", m.Role(), tc.role)
			}
			out := m.JSON()
			if !jsonv.Equal(in, out) {
				t.Errorf("round trip changed the message:\n in: %s\nout: %s", in, out)
			}
			// Encoding is stable: decoding the output gives the same output again.
			m2, err := ai.DecodeMessage(out, "")
			if err != nil {
				t.Fatal(err)
			}
			if got := m2.JSON().String(); got != out.String() {
				t.Errorf("second round trip:\n%s\n%s", out, got)
			}
		})
	}
}

func TestDecodedFields(t *testing.T) {
	m, err := ai.DecodeMessage(parse(t, `{"role":"assistant","content":[{"type":"thinking","thinking":"","redacted":true},`+
		`{"type":"toolCall","id":"i","name":"n","arguments":{"a":1}}],"api":"x","provider":"p","model":"m","usage":`+usageJSON+`,"stopReason":"stop","timestamp":7,"q":1}`), "")
	if err != nil {
		t.Fatal(err)
	}
	a := m.(*ai.AssistantMessage)
	if a.API != "x" || a.Provider != "p" || a.Model != "m" || a.StopReason != "stop" || a.Timestamp.Literal() != "7" {
		t.Errorf("assistant fields: %+v", a)
	}
	if len(a.Extra) != 1 || a.Extra[0].Key != "q" {
		t.Errorf("Extra = %v", a.Extra)
	}
	th := a.Content[0].(*ai.ThinkingBlock)
	if !th.IsRedacted() || th.BlockType() != "thinking" {
		t.Errorf("thinking block: %+v", th)
	}
	if (&ai.ThinkingBlock{}).IsRedacted() {
		t.Error("a block without redacted is redacted")
	}
	f := false
	if (&ai.ThinkingBlock{Redacted: &f}).IsRedacted() {
		t.Error("redacted:false is redacted")
	}
	tc := a.Content[1].(*ai.ToolCallBlock)
	if tc.BlockType() != "toolCall" || tc.Arguments.String() != `{"a":1}` {
		t.Errorf("tool call: %+v", tc)
	}
	if a.Usage.Input.Literal() != "1200" || a.Usage.Cost.Total.Literal() != "0.00894" || !a.Usage.CacheWrite1h.IsAbsent() {
		t.Errorf("usage: %+v", a.Usage)
	}
	u, err := ai.DecodeMessage(parse(t, `{"role":"user","content":"s"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	um := u.(*ai.UserMessage)
	if !um.Content.IsString || um.Content.Text != "s" || !um.Timestamp.IsAbsent() {
		t.Errorf("user: %+v", um)
	}
	// String content and one text block are different contents.
	if ai.StringContent("x").JSON().String() == ai.BlockContent(&ai.TextBlock{Text: "x"}).JSON().String() {
		t.Error("string content encodes like array content")
	}
	if got := ai.BlockContent().JSON().String(); got != "[]" {
		t.Errorf("BlockContent() = %s, want []", got)
	}
}

// TestStrictErrors: input.strict, with the exact JSON Pointer and message.
func TestStrictErrors(t *testing.T) {
	asst := func(members string) string {
		return `[{"role":"assistant","content":[],"api":"a","provider":"p","model":"m","usage":` + usageJSON + `,"stopReason":"stop"` + members + `}]`
	}
	tr := func(members string) string {
		return `[{"role":"toolResult","toolCallId":"t","toolName":"n","isError":false` + members + `}]`
	}
	for _, tc := range []struct {
		name, in, want string
	}{
		{"not an array", `{"role":"user"}`, `/messages: want an array of messages, got object`},
		{"absent", ``, `/messages: want an array of messages, got absent`},
		{"message null", `[null]`, `/messages/0: want an object, got null`},
		{"message string", `[{"role":"user","content":"a"},"user"]`, `/messages/1: want an object, got string`},
		{"missing role", `[{"content":"x"}]`, `/messages/0/role: missing required string`},
		{"non-string role", `[{"role":1,"content":"x"}]`, `/messages/0/role: want string, got number`},
		{"null role", `[{"role":null}]`, `/messages/0/role: want string, got null`},
		{"unknown role", `[{"role":"system","content":"s"}]`, `/messages/0/role: unknown role "system", want user, assistant or toolResult`},
		{"role case", `[{"role":"User","content":"s"}]`, `/messages/0/role: unknown role "User", want user, assistant or toolResult`},
		{"custom role", `[{"role":"bashExecution"}]`, `/messages/0/role: unknown role "bashExecution", want user, assistant or toolResult`},
		{"user content missing", `[{"role":"user"}]`, `/messages/0/content: missing required content`},
		{"user content number", `[{"role":"user","content":42}]`, `/messages/0/content: want a string or an array of blocks, got number`},
		{"user content object", `[{"role":"user","content":{"type":"text","text":"x"}}]`, `/messages/0/content: want a string or an array of blocks, got object`},
		{"user content null", `[{"role":"user","content":null}]`, `/messages/0/content: want a string or an array of blocks, got null`},
		{"unknown block type", `[{"role":"user","content":[{"type":"text","text":"a"},{"type":"video","url":"u"}]}]`, `/messages/0/content/1/type: unknown block type "video"`},
		{"block type missing", `[{"role":"user","content":[{"text":"a"}]}]`, `/messages/0/content/0/type: missing required string`},
		{"block type number", `[{"role":"user","content":[{"type":1}]}]`, `/messages/0/content/0/type: want string, got number`},
		{"block not object", `[{"role":"user","content":["hi"]}]`, `/messages/0/content/0: want an object, got string`},
		{"toolCall in user", `[{"role":"user","content":[{"type":"toolCall","id":"i","name":"n","arguments":{}}]}]`, `/messages/0/content/0/type: a "toolCall" block is not allowed here`},
		{"thinking in user", `[{"role":"user","content":[{"type":"thinking","thinking":"t"}]}]`, `/messages/0/content/0/type: a "thinking" block is not allowed here`},
		{"thinking in tool result", tr(`,"content":[{"type":"thinking","thinking":"t"}]`), `/messages/0/content/0/type: a "thinking" block is not allowed here`},
		{"text missing", `[{"role":"user","content":[{"type":"text"}]}]`, `/messages/0/content/0/text: missing required string`},
		{"text number", `[{"role":"user","content":[{"type":"text","text":5}]}]`, `/messages/0/content/0/text: want string, got number`},
		{"textSignature null", `[{"role":"user","content":[{"type":"text","text":"","textSignature":null}]}]`, `/messages/0/content/0/textSignature: want string, got null`},
		{"image missing mimeType", `[{"role":"user","content":[{"type":"image","data":"d"}]}]`, `/messages/0/content/0/mimeType: missing required string`},
		{"assistant content string", `[{"role":"assistant","content":"hi","api":"a","provider":"p","model":"m","usage":` + usageJSON + `,"stopReason":"stop"}]`, `/messages/0/content: want array, got string`},
		{"arguments array", asst(`,"x":[{"type":"toolCall","id":"i","name":"n","arguments":[]}]`), ""}, // the block sits in an unknown member: fine
		{"arguments array in content", strings.Replace(asst(""), `"content":[]`, `"content":[{"type":"toolCall","id":"i","name":"n","arguments":[]}]`, 1), `/messages/0/content/0/arguments: want object, got array`},
		{"arguments string", strings.Replace(asst(""), `"content":[]`, `"content":[{"type":"toolCall","id":"i","name":"n","arguments":"{}"}]`, 1), `/messages/0/content/0/arguments: want object, got string`},
		{"arguments missing", strings.Replace(asst(""), `"content":[]`, `"content":[{"type":"text","text":""},{"type":"toolCall","id":"i","name":"n"}]`, 1), `/messages/0/content/1/arguments: missing required object`},
		{"redacted string", strings.Replace(asst(""), `"content":[]`, `"content":[{"type":"thinking","thinking":"","redacted":"yes"}]`, 1), `/messages/0/content/0/redacted: want boolean, got string`},
		{"api missing", `[{"role":"assistant","content":[],"provider":"p","model":"m","usage":` + usageJSON + `,"stopReason":"stop"}]`, `/messages/0/api: missing required string`},
		{"stopReason number", strings.Replace(asst(""), `"stopReason":"stop"`, `"stopReason":1`, 1), `/messages/0/stopReason: want string, got number`},
		{"errorMessage null", asst(`,"errorMessage":null`), `/messages/0/errorMessage: want string, got null`},
		{"diagnostics object", asst(`,"diagnostics":{}`), `/messages/0/diagnostics: want array, got object`},
		{"responseId number", asst(`,"responseId":1`), `/messages/0/responseId: want string, got number`},
		{"duplicate: the last counts", tr(`,"content":[],"toolName":7`), `/messages/0/toolName: want string, got number`},
		{"tool result content string", tr(`,"content":"x"`), `/messages/0/content: want array, got string`},
		{"toolCallId number", `[{"role":"toolResult","toolCallId":1,"toolName":"n","content":[],"isError":false}]`, `/messages/0/toolCallId: want string, got number`},
		{"second message", `[{"role":"user","content":"a"},{"role":"user","content":[{"type":"image","data":"d","mimeType":7}]}]`, `/messages/1/content/0/mimeType: want string, got number`},
		{"key with slash", `[{"role":"user","content":"x","timestamp":1},{"role":"user","content":[{"type":"text","text":{"a/b":1}}]}]`, `/messages/1/content/0/text: want string, got object`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var in jsonv.Value
			if tc.in != "" {
				in = parse(t, tc.in)
			}
			_, err := ai.DecodeMessages(in, "/messages")
			if tc.want == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			var pe *jsonv.PathError
			if !errors.As(err, &pe) {
				t.Errorf("error %T is not a *jsonv.PathError", err)
			}
			if err.Error() != tc.want {
				t.Errorf("error:\n got %s\nwant %s", err, tc.want)
			}
		})
	}
}

func TestImageAllowed(t *testing.T) {
	for _, in := range []string{
		`[{"role":"user","content":[{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}]}]`,
		`[{"role":"toolResult","toolCallId":"t","toolName":"n","content":[{"type":"image","data":"d","mimeType":"image/png"}],"isError":false}]`,
		`[{"role":"assistant","content":[{"type":"image","data":"d","mimeType":"image/png"}],"api":"a","provider":"p","model":"m","usage":` + usageJSON + `,"stopReason":"stop"}]`,
	} {
		if _, err := ai.DecodeMessages(parse(t, in), ""); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}

func TestDecodeMessagesAllowForeign(t *testing.T) {
	in := parse(t, `[{"role":"notification","text":"saved"},{"role":"user","content":"q"},{"role":"system","content":"s"},{"text":"x"},{"role":7},5,[],{"role":"user","content":7}]`)
	msgs, err := ai.DecodeMessagesAllowForeign(in, "/messages")
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 8 {
		t.Fatalf("got %d messages", len(msgs))
	}
	f, ok := msgs[0].(*ai.ForeignMessage)
	if !ok || f.Role() != "notification" {
		t.Fatalf("msgs[0] = %#v", msgs[0])
	}
	if !jsonv.Equal(ai.MessagesJSON(msgs), in) {
		t.Errorf("foreign messages not carried as written: %s", ai.MessagesJSON(msgs))
	}
	// Still strict about null and the three roles.
	for in, want := range map[string]string{
		`[{"role":"assistant","content":7}]`:   `/messages/0/content: want array, got number`,
		`[{"role":"custom","content":7},null]`: `/messages/1: want an object, got null`,
	} {
		_, err := ai.DecodeMessagesAllowForeign(parse(t, in), "/messages")
		if err == nil || err.Error() != want {
			t.Errorf("%s: error %v, want %s", in, err, want)
		}
	}
	// The strict decoder refuses them.
	if _, err := ai.DecodeMessages(in, "/messages"); err == nil {
		t.Error("DecodeMessages accepted a foreign role")
	}
}

const modelJSON = `{"id":"claude-sonnet-4-5","name":"Claude Sonnet 4.5","api":"anthropic-messages","provider":"anthropic",` +
	`"baseUrl":"https://api.anthropic.com","reasoning":true,"input":["text","image"],` +
	`"cost":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75},"contextWindow":200000,"maxTokens":64000}`

func TestModel(t *testing.T) {
	for _, in := range []string{
		modelJSON,
		strings.Replace(modelJSON, `"maxTokens":64000`, `"maxTokens":64000,"headers":{"x":"y"},"compat":{},"thinkingLevelMap":{"high":null},"extra":[1]`, 1),
		strings.Replace(modelJSON, `"cacheWrite":3.75}`, `"cacheWrite":3.75,"tier":"x"}`, 1),
	} {
		v := parse(t, in)
		m, err := ai.DecodeModel(v, "/model")
		if err != nil {
			t.Fatal(err)
		}
		if !jsonv.Equal(v, m.JSON()) {
			t.Errorf("model round trip:\n in: %s\nout: %s", v, m.JSON())
		}
	}
	m, _ := ai.DecodeModel(parse(t, modelJSON), "")
	if !m.AcceptsImages() {
		t.Error("AcceptsImages = false")
	}
	m, _ = ai.DecodeModel(parse(t, strings.Replace(modelJSON, `["text","image"]`, `["text","Image"]`, 1)), "")
	if m.AcceptsImages() {
		t.Error("AcceptsImages with \"Image\"")
	}
	for _, tc := range []struct{ old, new, want string }{
		{`"id":"claude-sonnet-4-5",`, ``, `/model/id: missing required string`},
		{`"reasoning":true`, `"reasoning":"true"`, `/model/reasoning: want boolean, got string`},
		{`["text","image"]`, `["text",1]`, `/model/input/1: want a string, got number`},
		{`["text","image"]`, `"text"`, `/model/input: want array, got string`},
		{`"cacheRead":0.3,`, ``, `/model/cost/cacheRead: missing required number`},
		{`"output":15`, `"output":"15"`, `/model/cost/output: want number, got string`},
		{`"maxTokens":64000`, `"maxTokens":64000,"headers":[]`, `/model/headers: want object, got array`},
		{`"contextWindow":200000`, `"contextWindow":null`, `/model/contextWindow: want number, got null`},
	} {
		_, err := ai.DecodeModel(parse(t, strings.Replace(modelJSON, tc.old, tc.new, 1)), "/model")
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s→%s: error %v, want %s", tc.old, tc.new, err, tc.want)
		}
	}
}

func TestContext(t *testing.T) {
	for _, in := range []string{
		`{"messages":[]}`,
		`{"systemPrompt":"","messages":[{"role":"user","content":"q"}],"tools":[]}`,
		`{"systemPrompt":"s","messages":[],"tools":[{"name":"read","description":"d","parameters":{"type":"object"},"label":"L"}],"x":1}`,
	} {
		v := parse(t, in)
		c, err := ai.DecodeContext(v, "/context")
		if err != nil {
			t.Fatal(err)
		}
		if !jsonv.Equal(v, c.JSON()) {
			t.Errorf("context round trip:\n in: %s\nout: %s", v, c.JSON())
		}
	}
	// Tools absent and tools empty are different.
	empty := &ai.Context{Messages: []ai.Message{}, HasTools: true}
	if got := empty.JSON().String(); got != `{"messages":[],"tools":[]}` {
		t.Errorf("empty tools = %s", got)
	}
	none := &ai.Context{Messages: []ai.Message{}}
	if got := none.JSON().String(); got != `{"messages":[]}` {
		t.Errorf("no tools = %s", got)
	}
	for in, want := range map[string]string{
		`{}`:                                      `/context/messages: want an array of messages, got absent`,
		`{"messages":[],"tools":{}}`:              `/context/tools: want array, got object`,
		`{"messages":[],"tools":[{}]}`:            `/context/tools/0/name: missing required string`,
		`{"messages":[],"systemPrompt":1}`:        `/context/systemPrompt: want string, got number`,
		`{"messages":[{"role":"bashExecution"}]}`: `/context/messages/0/role: unknown role "bashExecution", want user, assistant or toolResult`,
		`{"messages":[],"tools":[{"name":"n","description":"d","parameters":"{}"}]}`: `/context/tools/0/parameters: want object, got string`,
	} {
		_, err := ai.DecodeContext(parse(t, in), "/context")
		if err == nil || err.Error() != want {
			t.Errorf("%s: error %v, want %s", in, err, want)
		}
	}
}

// TestLenientMembers: input.lenient, members no step reads or that are read
// as JavaScript reads them keep whatever they hold, and encode back as
// written.
func TestLenientMembers(t *testing.T) {
	for _, in := range []string{
		`[{"role":"user","content":"x","timestamp":null}]`,
		`[{"role":"user","content":"x","timestamp":"1"}]`,
		`[{"role":"assistant","content":[],"api":"a","provider":"p","model":"m","stopReason":"stop"}]`,
		`[{"role":"assistant","content":[],"api":"a","provider":"p","model":"m","usage":null,"stopReason":"stop"}]`,
		`[{"role":"assistant","content":[],"api":"a","provider":"p","model":"m","usage":{"input":"1","cost":[]},"stopReason":"stop"}]`,
		`[{"role":"assistant","content":[],"api":"a","provider":"p","model":"m","usage":{"input":null,"cost":{"total":"0"}},"stopReason":"stop"}]`,
		`[{"role":"toolResult","toolCallId":"t","toolName":"n","content":[],"isError":"false"}]`,
		`[{"role":"toolResult","toolCallId":"t","toolName":"n","content":[]}]`,
	} {
		v := parse(t, in)
		msgs, err := ai.DecodeMessages(v, "/messages")
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if got := ai.MessagesJSON(msgs); !jsonv.Equal(got, v) {
			t.Errorf("round trip:\n got %s\nwant %s", got, v)
		}
	}
}

func costInput(t *testing.T, usage string) (*ai.Model, ai.Usage) {
	t.Helper()
	m, err := ai.DecodeModel(parse(t, modelJSON), "/model")
	if err != nil {
		t.Fatal(err)
	}
	return m, ai.DecodeUsage(parse(t, usage), "/usage")
}

// TestCalculateCostNoNumber: a count with no number form throws where Pi's
// calculateCost converts it, after the costs it wrote before (Node 22).
func TestCalculateCostNoNumber(t *testing.T) {
	const bad = `{"toString":1}`
	const stale = `{"input":9,"output":9,"cacheRead":9,"cacheWrite":9,"total":9}`
	for _, tc := range []struct{ member, wantCost string }{
		{"cacheWrite", stale},
		{"cacheWrite1h", stale},
		{"input", stale},
		{"output", `{"input":0.003,"output":9,"cacheRead":9,"cacheWrite":9,"total":9}`},
		{"cacheRead", `{"input":0.003,"output":0.007500000000000001,"cacheRead":9,"cacheWrite":9,"total":9}`},
	} {
		usage := `{"input":1000,"output":500,"cacheRead":2000,"cacheWrite":400,"cacheWrite1h":100,"totalTokens":3900,"cost":` + stale + `}`
		usage = strings.Replace(usage, `"`+tc.member+`":`, `"`+tc.member+`":`+bad+`,"was":`, 1)
		m, u := costInput(t, usage)
		if _, err := ai.CalculateCost(m, &u); !errors.Is(err, jsonv.ErrNoPrimitive) {
			t.Errorf("%s: err = %v, want jsonv.ErrNoPrimitive", tc.member, err)
		}
		if diff := cmp.Diff(tc.wantCost, u.Cost.JSON().String()); diff != "" {
			t.Errorf("%s: cost written (-want +got):\n%s", tc.member, diff)
		}
	}
}

// TestCalculateCost: msg.cost, expected literals printed by the real
// calculateCost of pi-ai 0.80.2 under Node 22.
func TestCalculateCost(t *testing.T) {
	const stale = `"cost":{"input":9,"output":9,"cacheRead":9,"cacheWrite":9,"total":9}`
	for _, tc := range []struct {
		name, usage, wantCost string
	}{
		{"spec example", `{"input":1000,"output":500,"cacheRead":2000,"cacheWrite":400,"cacheWrite1h":100,"totalTokens":3900,` + stale + `}`,
			`{"input":0.003,"output":0.007500000000000001,"cacheRead":0.0006,"cacheWrite":0.001725,"total":0.012825}`},
		{"without cacheWrite1h", `{"input":1000,"output":500,"cacheRead":2000,"cacheWrite":400,"totalTokens":3900,` + stale + `}`,
			`{"input":0.003,"output":0.007500000000000001,"cacheRead":0.0006,"cacheWrite":0.0015,"total":0.0126}`},
		{"cacheWrite1h zero", `{"input":1000,"output":500,"cacheRead":2000,"cacheWrite":400,"cacheWrite1h":0,"totalTokens":3900,` + stale + `}`,
			`{"input":0.003,"output":0.007500000000000001,"cacheRead":0.0006,"cacheWrite":0.0015,"total":0.0126}`},
		{"negative short write, no clamping", `{"input":1000,"output":500,"cacheRead":2000,"cacheWrite":400,"cacheWrite1h":500,"totalTokens":3900,` + stale + `}`,
			`{"input":0.003,"output":0.007500000000000001,"cacheRead":0.0006,"cacheWrite":0.002625,"total":0.013725000000000001}`},
		{"odd counts", `{"input":123457,"output":7,"cacheRead":0,"cacheWrite":0,"totalTokens":1,` + stale + `}`,
			`{"input":0.370371,"output":0.000105,"cacheRead":0,"cacheWrite":0,"total":0.370476}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, u := costInput(t, tc.usage)
			before := u.JSON()
			got, err := ai.CalculateCost(m, &u)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantCost, got.JSON().String()); diff != "" {
				t.Errorf("cost literals (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantCost, u.Cost.JSON().String()); diff != "" {
				t.Errorf("usage.Cost not written (-want +got):\n%s", diff)
			}
			// Everything but the cost stays: totalTokens and cacheWrite1h included.
			for _, k := range []string{"input", "output", "cacheRead", "cacheWrite", "cacheWrite1h", "totalTokens"} {
				b, okB := before.Get(k)
				a, okA := u.JSON().Get(k)
				if okA != okB || (okA && b.Literal() != a.Literal()) {
					t.Errorf("%s changed: %v → %v", k, b, a)
				}
			}
		})
	}
	// Another model, another price list (Node 22: the same digits).
	m, err := ai.DecodeModel(parse(t, strings.Replace(modelJSON, `{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75}`,
		`{"input":0.1,"output":0.7,"cacheRead":0.01,"cacheWrite":1.25}`, 1)), "")
	if err != nil {
		t.Fatal(err)
	}
	_, u := costInput(t, `{"input":333,"output":777,"cacheRead":12345,"cacheWrite":999,"cacheWrite1h":333,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0,"note":"kept"}}`)
	ai.CalculateCost(m, &u)
	if got, want := u.Cost.JSON().String(), `{"input":0.0000333,"output":0.0005438999999999999,"cacheRead":0.00012345,"cacheWrite":0.0008991,"total":0.00159975,"note":"kept"}`; got != want {
		t.Errorf("cost = %s, want %s", got, want)
	}
	// Infinity and NaN are written as null, as JSON.stringify does.
	m, _ = ai.DecodeModel(parse(t, strings.Replace(modelJSON, `{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75}`,
		`{"input":1e308,"output":0,"cacheRead":0,"cacheWrite":0}`, 1)), "")
	_, u = costInput(t, `{"input":1e308,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`)
	ai.CalculateCost(m, &u)
	if got, want := u.Cost.JSON().String(), `{"input":null,"output":0,"cacheRead":0,"cacheWrite":null,"total":null}`; got != want {
		t.Errorf("overflowing cost = %s, want %s", got, want)
	}
	// A wire model without a cost has no prices: an error, the usage untouched.
	for _, cost := range []string{`"cost":null,`, ``} {
		wm, err := ai.DecodeWireModel(parse(t, `{"id":"m","api":"a","provider":"p","input":["text"],`+cost+`"baseUrl":""}`), "/model")
		if err != nil {
			t.Fatal(err)
		}
		_, u = costInput(t, `{"input":5,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":5,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`)
		before := u.JSON().String()
		if _, err := ai.CalculateCost(wm, &u); !errors.Is(err, ai.ErrNoPrices) {
			t.Errorf("cost %q: err = %v, want ErrNoPrices", cost, err)
		}
		if got := u.JSON().String(); got != before {
			t.Errorf("cost %q: usage = %s, want it untouched: %s", cost, got, before)
		}
		if got, want := wm.Cost.Null, cost != ""; got != want {
			t.Errorf("cost %q: Null = %v, want %v", cost, got, want)
		}
		// Pi subtracts the cache writes before it reads a price.
		_, u = costInput(t, `{"input":5,"output":0,"cacheRead":0,"cacheWrite":{"toString":1},"totalTokens":5,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`)
		if _, err := ai.CalculateCost(wm, &u); !errors.Is(err, jsonv.ErrNoPrimitive) {
			t.Errorf("cost %q, cacheWrite with no number form: err = %v, want jsonv.ErrNoPrimitive", cost, err)
		}
	}
}

func TestZeroUsage(t *testing.T) {
	want := `{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`
	if got := ai.ZeroUsage().JSON().String(); got != want {
		t.Errorf("ZeroUsage = %s", got)
	}
}

func TestSanitizeSurrogates(t *testing.T) {
	hi, lo := wtf8.FromUTF16([]uint16{0xD83D}), wtf8.FromUTF16([]uint16{0xDE48})
	for in, want := range map[string]string{
		"Hello " + hi + lo + " World": "Hello 🙈 World",
		"Text " + hi + " here":        "Text  here",
		"Text " + lo + " here":        "Text  here",
		lo + hi:                       "",
		hi + hi + lo:                  "🙈",
		"ab" + hi:                     "ab",
		lo + "ab":                     "ab",
		"":                            "",
		"\x00\ufeff\ufffd\r\n\u2028":  "\x00\ufeff\ufffd\r\n\u2028",
	} {
		if got := ai.SanitizeSurrogates(in); got != want {
			t.Errorf("SanitizeSurrogates(%q) = %q, want %q", in, got, want)
		}
	}
}
