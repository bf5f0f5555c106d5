package transform

import (
	"fmt"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
)

// The tests write messages as JSON, the way Pi's own tests and the case files
// do. The target model is provider "p", api "api", id "m"; an assistant is
// written by "same" (that model) or by another model.

func str(s string) string { return jsonv.StringValue(s).String() }

func text(s string) string { return `{"type":"text","text":` + str(s) + `}` }

const img = `{"type":"image","data":"aGk=","mimeType":"image/png"}`

const (
	userPH = `{"type":"text","text":"(image omitted: model does not support images)"}`
	toolPH = `{"type":"text","text":"(tool image omitted: model does not support images)"}`
)

func call(id, name string) string {
	return `{"type":"toolCall","id":` + str(id) + `,"name":` + str(name) + `,"arguments":{}}`
}

func thinking(s string) string { return `{"type":"thinking","thinking":` + str(s) + `}` }

func signed(s, sig string) string {
	return `{"type":"thinking","thinking":` + str(s) + `,"thinkingSignature":` + str(sig) + `}`
}

const zeroUsage = `{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,` +
	`"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`

// by names who wrote an assistant message: provider/api/model.
type by struct{ provider, api, model string }

var (
	same  = by{"p", "api", "m"}
	other = by{"q", "api2", "m2"}
)

func assistant(who by, stop string, blocks ...string) string {
	return fmt.Sprintf(`{"role":"assistant","content":[%s],"api":%s,"provider":%s,"model":%s,"usage":%s,"stopReason":%s,"timestamp":1}`,
		strings.Join(blocks, ","), str(who.api), str(who.provider), str(who.model), zeroUsage, str(stop))
}

func user(blocks ...string) string {
	return `{"role":"user","content":[` + strings.Join(blocks, ",") + `],"timestamp":3}`
}

func result(id string, blocks ...string) string {
	if len(blocks) == 0 {
		blocks = []string{text("r")}
	}
	return `{"role":"toolResult","toolCallId":` + str(id) + `,"toolName":"f","content":[` + strings.Join(blocks, ",") + `],"isError":false,"timestamp":2}`
}

func synthetic(id, name string) string {
	return `{"role":"toolResult","toolCallId":` + str(id) + `,"toolName":` + str(name) +
		`,"content":[{"type":"text","text":"No result provided"}],"isError":true,"timestamp":4242}`
}

func target(input ...string) *ai.Model {
	if input == nil {
		input = []string{"text", "image"}
	}
	return &ai.Model{ID: "m", API: "api", Provider: "p", Input: input}
}

func textOnly() *ai.Model { return target("text") }

func clock4242() jsonv.Value { return jsonv.NumberValue("4242") }

func decode(t *testing.T, msgs []string) []ai.Message {
	t.Helper()
	v, err := jsonv.Parse([]byte("[" + strings.Join(msgs, ",") + "]"))
	if err != nil {
		t.Fatalf("bad test JSON: %v", err)
	}
	out, err := ai.DecodeMessagesAllowForeign(v, "")
	if err != nil {
		t.Fatalf("bad test messages: %v", err)
	}
	return out
}

func mustNormalizer(t *testing.T, replace, with string, maxLength *int) IDNormalizer {
	t.Helper()
	n, err := RegexNormalizer(replace, with, maxLength)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

type ruleCase struct {
	name  string
	model *ai.Model // nil: target()
	norm  IDNormalizer
	in    []string
	want  []string
}

func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			model := c.model
			if model == nil {
				model = target()
			}
			in := decode(t, c.in)
			before := ai.MessagesJSON(in)
			got := ai.MessagesJSON(Messages(in, model, c.norm, clock4242))
			want := ai.MessagesJSON(decode(t, c.want))
			if !jsonv.Equal(got, want) {
				t.Errorf("got  %s\nwant %s", got, want)
			}
			if after := ai.MessagesJSON(in); !jsonv.Equal(before, after) {
				t.Errorf("input changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

func TestImages(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "user runs collapse and an existing placeholder absorbs", model: textOnly(),
			in:   []string{user(img, img, text("t"), img, userPH, img, img)},
			want: []string{user(userPH, text("t"), userPH, userPH)}},
		{name: "generated placeholder then existing one stay two", model: textOnly(),
			in:   []string{user(img, userPH)},
			want: []string{user(userPH, userPH)}},
		{name: "tool result trailing run", model: textOnly(),
			in:   []string{result("t1", text("a"), img, img)},
			want: []string{result("t1", text("a"), toolPH)}},
		{name: "tool placeholder absorbs in a tool result", model: textOnly(),
			in:   []string{result("t1", toolPH, img)},
			want: []string{result("t1", toolPH)}},
		{name: "user placeholder does not absorb after a tool placeholder", model: textOnly(),
			in:   []string{user(toolPH, img)},
			want: []string{user(toolPH, userPH)}},
		{name: "string content untouched", model: textOnly(),
			in:   []string{`{"role":"user","content":"hi","timestamp":3}`},
			want: []string{`{"role":"user","content":"hi","timestamp":3}`}},
		{name: "assistant images untouched", model: textOnly(),
			in:   []string{assistant(same, "stop", img, img)},
			want: []string{assistant(same, "stop", img, img)}},
		{name: "empty input list means no images", model: target([]string{}...),
			in:   []string{user(img)},
			want: []string{user(userPH)}},
		{name: "vision model keeps every image", model: target("text", "image"),
			in:   []string{user(img, img), result("t1", img)},
			want: []string{user(img, img), result("t1", img)}},
		{name: "message fields kept", model: textOnly(),
			in:   []string{`{"role":"toolResult","toolCallId":"t","toolName":"f","content":[` + img + `],"details":{"a":1},"isError":true,"timestamp":2,"x":"y"}`},
			want: []string{`{"role":"toolResult","toolCallId":"t","toolName":"f","content":[` + toolPH + `],"details":{"a":1},"isError":true,"timestamp":2,"x":"y"}`}},
	})
}

func TestSameModel(t *testing.T) {
	sig := `{"type":"text","text":"T","textSignature":"TS"}`
	runRuleCases(t, []ruleCase{
		{name: "all equal", in: []string{assistant(same, "stop", sig)}, want: []string{assistant(same, "stop", sig)}},
		{name: "provider differs", in: []string{assistant(by{"x", "api", "m"}, "stop", sig)}, want: []string{assistant(by{"x", "api", "m"}, "stop", text("T"))}},
		{name: "api differs", in: []string{assistant(by{"p", "x", "m"}, "stop", sig)}, want: []string{assistant(by{"p", "x", "m"}, "stop", text("T"))}},
		{name: "model id differs", in: []string{assistant(by{"p", "api", "x"}, "stop", sig)}, want: []string{assistant(by{"p", "api", "x"}, "stop", text("T"))}},
	})
}

func TestThinking(t *testing.T) {
	redacted := `{"type":"thinking","thinking":"","thinkingSignature":"R","redacted":true}`
	redactedBare := `{"type":"thinking","thinking":"secret","redacted":true}`
	list := []string{thinking("plain"), signed("signed", "S1"), signed("", "S2"), thinking("   "), thinking(""),
		signed("", ""), redacted, redactedBare}
	runRuleCases(t, []ruleCase{
		{name: "list same model", in: []string{assistant(same, "stop", list...)},
			want: []string{assistant(same, "stop", thinking("plain"), signed("signed", "S1"), signed("", "S2"), redacted, redactedBare)}},
		{name: "list cross model", in: []string{assistant(other, "stop", list...)},
			want: []string{assistant(other, "stop", text("plain"), text("signed"))}},
		{name: "cross model text is not trimmed", in: []string{assistant(other, "stop", thinking("  x \n"))},
			want: []string{assistant(other, "stop", text("  x \n"))}},
		{name: "signed whitespace same model kept", in: []string{assistant(same, "stop", signed("  ", "S"))},
			want: []string{assistant(same, "stop", signed("  ", "S"))}},
		{name: "signed whitespace cross model dropped", in: []string{assistant(other, "stop", signed("  ", "S"))},
			want: []string{assistant(other, "stop")}},
		{name: "unsigned whitespace same model dropped", in: []string{assistant(same, "stop", thinking("\u3000\ufeff\u2028"))},
			want: []string{assistant(same, "stop")}},
		{name: "NEL is not white space", in: []string{assistant(other, "stop", thinking("\u0085"))},
			want: []string{assistant(other, "stop", text("\u0085"))}},
		{name: "redacted false is ordinary thinking", in: []string{assistant(other, "stop", `{"type":"thinking","thinking":"t","redacted":false,"thinkingSignature":"S"}`)},
			want: []string{assistant(other, "stop", text("t"))}},
		{name: "same model keeps extra fields", in: []string{assistant(same, "stop", `{"type":"thinking","thinking":"t","x":1}`)},
			want: []string{assistant(same, "stop", `{"type":"thinking","thinking":"t","x":1}`)}},
	})
}

func TestText(t *testing.T) {
	rich := `{"type":"text","text":"T","textSignature":"TS","extra":1}`
	runRuleCases(t, []ruleCase{
		{name: "same model keeps signature and extras", in: []string{assistant(same, "stop", rich)}, want: []string{assistant(same, "stop", rich)}},
		{name: "cross model is a bare text block", in: []string{assistant(other, "stop", rich)}, want: []string{assistant(other, "stop", text("T"))}},
		{name: "cross model empty text kept", in: []string{assistant(other, "stop", text(""))}, want: []string{assistant(other, "stop", text(""))}},
	})
}

func TestToolCalls(t *testing.T) {
	underscore := mustNormalizer(t, "[^a-zA-Z0-9_-]", "_", nil)
	withSig := func(id, sig string) string {
		return `{"type":"toolCall","id":` + str(id) + `,"name":"f","arguments":{"a":1},"thoughtSignature":` + str(sig) + `,"x":true}`
	}
	noSig := func(id string) string {
		return `{"type":"toolCall","id":` + str(id) + `,"name":"f","arguments":{"a":1},"x":true}`
	}
	bySource := func(id string, _ *ai.Model, source *ai.AssistantMessage) string { return id + "@" + source.Model }
	empty := func(string, *ai.Model, *ai.AssistantMessage) string { return "" }
	runRuleCases(t, []ruleCase{
		{name: "cross model drops a truthy thought signature, keeps extras",
			in:   []string{assistant(other, "toolUse", withSig("c|1", "TH")), result("c|1")},
			want: []string{assistant(other, "toolUse", noSig("c|1")), result("c|1")}},
		{name: "cross model keeps an empty thought signature",
			in:   []string{assistant(other, "toolUse", withSig("c1", "")), result("c1")},
			want: []string{assistant(other, "toolUse", withSig("c1", "")), result("c1")}},
		{name: "same model keeps the signature and the raw id", norm: underscore,
			in:   []string{assistant(same, "toolUse", withSig("c|1", "TH")), result("c|1")},
			want: []string{assistant(same, "toolUse", withSig("c|1", "TH")), result("c|1")}},
		{name: "cross model id normalized and its result renamed", norm: underscore,
			in:   []string{assistant(other, "toolUse", call("call|AAAA+/=", "f")), result("call|AAAA+/=")},
			want: []string{assistant(other, "toolUse", call("call_AAAA___", "f")), result("call_AAAA___")}},
		{name: "a result before its assistant keeps the raw id", norm: underscore,
			in:   []string{result("a|b"), assistant(other, "toolUse", call("a|b", "f")), result("a|b")},
			want: []string{result("a|b"), assistant(other, "toolUse", call("a_b", "f")), result("a_b")}},
		{name: "the map survives user messages", norm: underscore,
			in:   []string{assistant(other, "toolUse", call("x|1", "f")), result("x|1"), user(text("u")), result("x|1")},
			want: []string{assistant(other, "toolUse", call("x_1", "f")), result("x_1"), user(text("u")), result("x_1")}},
		{name: "a later cross-model assistant overwrites the entry; the normalizer sees the source", norm: bySource,
			in:   []string{assistant(other, "toolUse", call("c", "f")), assistant(by{"q", "api2", "m3"}, "toolUse", call("c", "f")), result("c")},
			want: []string{assistant(other, "toolUse", call("c@m2", "f")), synthetic("c@m2", "f"), assistant(by{"q", "api2", "m3"}, "toolUse", call("c@m3", "f")), result("c@m3")}},
		{name: "a same-model assistant reusing a raw id gets its result renamed", norm: underscore,
			in: []string{assistant(other, "toolUse", call("dup|1", "f")), result("dup|1"),
				assistant(same, "toolUse", call("dup|1", "f")), result("dup|1")},
			want: []string{assistant(other, "toolUse", call("dup_1", "f")), result("dup_1"),
				assistant(same, "toolUse", call("dup|1", "f")), result("dup_1"), synthetic("dup|1", "f")}},
		{name: "colliding normalized ids are not told apart", norm: underscore,
			in:   []string{assistant(other, "toolUse", call("a|1", "f"), call("a+1", "g")), result("a|1"), result("a+1")},
			want: []string{assistant(other, "toolUse", call("a_1", "f"), call("a_1", "g")), result("a_1"), result("a_1")}},
		{name: "an empty new id renames the call but not the result", norm: empty,
			in:   []string{assistant(other, "toolUse", call("t1", "f")), result("t1")},
			want: []string{assistant(other, "toolUse", call("", "f")), result("t1"), synthetic("", "f")}},
	})
}

func TestSkipErroredAndAborted(t *testing.T) {
	underscore := mustNormalizer(t, "[^a-zA-Z0-9_-]", "_", nil)
	runRuleCases(t, []ruleCase{
		{name: "skipped, results kept",
			in: []string{user(text("a")), assistant(same, "error", call("e1", "f")), result("e1"), user(text("b")),
				assistant(same, "aborted", text("partial")), user(text("c"))},
			want: []string{user(text("a")), result("e1"), user(text("b")), user(text("c"))}},
		{name: "flushes the previous assistant first",
			in:   []string{assistant(same, "toolUse", call("t1", "f")), assistant(same, "error")},
			want: []string{assistant(same, "toolUse", call("t1", "f")), synthetic("t1", "f")}},
		{name: "its calls are not pending",
			in:   []string{assistant(same, "error", call("t1", "f")), user(text("u"))},
			want: []string{user(text("u"))}},
		{name: "its ids are still mapped", norm: underscore,
			in:   []string{assistant(other, "error", call("e|1", "f")), result("e|1")},
			want: []string{result("e_1")}},
	})
}

func TestSyntheticResults(t *testing.T) {
	underscore := mustNormalizer(t, "[^a-zA-Z0-9_-]", "_", nil)
	two := assistant(same, "toolUse", call("t1", "read"), call("t2", "bash"))
	foreign := `{"role":"bashExecution","command":"ls","output":"","exitCode":0,"timestamp":5}`
	runRuleCases(t, []ruleCase{
		{name: "before a user message", in: []string{two, result("t1"), user(text("u"))},
			want: []string{two, result("t1"), synthetic("t2", "bash"), user(text("u"))}},
		{name: "at the end in call order", in: []string{assistant(same, "toolUse", call("a", "f"), call("b", "g"), call("c", "h")), result("c")},
			want: []string{assistant(same, "toolUse", call("a", "f"), call("b", "g"), call("c", "h")), result("c"), synthetic("a", "f"), synthetic("b", "g")}},
		{name: "one per duplicate id", in: []string{assistant(same, "toolUse", call("t1", "f"), call("t1", "f"))},
			want: []string{assistant(same, "toolUse", call("t1", "f"), call("t1", "f")), synthetic("t1", "f"), synthetic("t1", "f")}},
		{name: "before the next assistant", in: []string{assistant(same, "toolUse", call("t1", "f")), assistant(same, "stop", text("x"))},
			want: []string{assistant(same, "toolUse", call("t1", "f")), synthetic("t1", "f"), assistant(same, "stop", text("x"))}},
		{name: "stop reason length still pending", in: []string{assistant(same, "length", call("t1", "f"))},
			want: []string{assistant(same, "length", call("t1", "f")), synthetic("t1", "f")}},
		{name: "a result for another call does not count", in: []string{assistant(same, "toolUse", call("t1", "f")), result("t2"), user(text("u"))},
			want: []string{assistant(same, "toolUse", call("t1", "f")), result("t2"), synthetic("t1", "f"), user(text("u"))}},
		{name: "a result before the assistant does not count", in: []string{result("t1"), assistant(same, "toolUse", call("t1", "f"))},
			want: []string{result("t1"), assistant(same, "toolUse", call("t1", "f")), synthetic("t1", "f")}},
		{name: "a result after an interrupting user message is a duplicate", in: []string{assistant(same, "toolUse", call("t1", "f")), user(text("u")), result("t1")},
			want: []string{assistant(same, "toolUse", call("t1", "f")), synthetic("t1", "f"), user(text("u")), result("t1")}},
		{name: "synthetic ids are normalized", norm: underscore, in: []string{assistant(other, "toolUse", call("t1|x", "f")), user(text("u"))},
			want: []string{assistant(other, "toolUse", call("t1_x", "f")), synthetic("t1_x", "f"), user(text("u"))}},
		{name: "orphans and empty assistants kept", in: []string{assistant(same, "toolUse", call("t2", "f")), result("t1"), result("t2"), assistant(same, "stop")},
			want: []string{assistant(same, "toolUse", call("t2", "f")), result("t1"), result("t2"), assistant(same, "stop")}},
		{name: "foreign roles pass through without a flush", in: []string{assistant(same, "toolUse", call("t1", "f")), foreign, result("t1")},
			want: []string{assistant(same, "toolUse", call("t1", "f")), foreign, result("t1")}},
	})
}

func TestClockIsReadPerSyntheticResult(t *testing.T) {
	n := 0
	tick := func() jsonv.Value { n++; return jsonv.NumberValue(fmt.Sprint(n)) }
	in := decode(t, []string{assistant(same, "toolUse", call("a", "f"), call("b", "f")), user(text("u")), assistant(same, "toolUse", call("c", "f"))})
	out := Messages(in, target(), nil, tick)
	var stamps []string
	for _, m := range out {
		if r, ok := m.(*ai.ToolResultMessage); ok {
			stamps = append(stamps, r.ToolCallID+"="+r.Timestamp.Literal())
			if !r.Details.IsAbsent() {
				t.Errorf("synthetic result has details %s", r.Details)
			}
		}
	}
	if got := strings.Join(stamps, " "); got != "a=1 b=2 c=3" {
		t.Errorf("timestamps %s, want a=1 b=2 c=3", got)
	}
	out = Messages(in, target(), nil, nil)
	if ts := out[1].(*ai.ToolResultMessage).Timestamp; ts.Kind() != jsonv.Number {
		t.Errorf("system clock gave %s", ts)
	}
}

func TestSharingAndCopies(t *testing.T) {
	in := decode(t, []string{
		`{"role":"user","content":"s","timestamp":3}`,
		user(text("u")),
		assistant(same, "toolUse", text("a"), call("t1", "f")),
		result("t1"),
		assistant(other, "toolUse", text("b"), call("t2", "f")),
		result("t2"),
	})
	// A vision model: user and tool results come back as the same objects.
	out := Messages(in, target(), nil, clock4242)
	for _, i := range []int{0, 1, 3, 5} {
		if out[i] != in[i] {
			t.Errorf("vision model: message %d was copied", i)
		}
	}
	sa, oa := out[2].(*ai.AssistantMessage), out[4].(*ai.AssistantMessage)
	if sa == in[2] || oa == in[4] {
		t.Error("assistant messages must always be copies")
	}
	inSame, inOther := in[2].(*ai.AssistantMessage), in[4].(*ai.AssistantMessage)
	if sa.Content[0] != inSame.Content[0] || sa.Content[1] != inSame.Content[1] {
		t.Error("same-model blocks must be shared")
	}
	if oa.Content[0] == inOther.Content[0] {
		t.Error("cross-model text must be a new block")
	}
	if oa.Content[1] != inOther.Content[1] {
		t.Error("an unchanged cross-model tool call must be shared")
	}

	// A text-only model: every tool result is copied, string user content is not.
	out = Messages(in, textOnly(), nil, clock4242)
	if out[0] != in[0] {
		t.Error("string user content must pass through")
	}
	if out[1] == in[1] || out[3] == in[3] || out[5] == in[5] {
		t.Error("array user content and tool results must be copied for a text-only model")
	}
	if out[1].(*ai.UserMessage).Content.Blocks[0] != in[1].(*ai.UserMessage).Content.Blocks[0] {
		t.Error("kept blocks must be shared")
	}

	// The result is a new slice.
	out = Messages(in[:1], target(), nil, clock4242)
	out[0] = nil
	if in[0] == nil {
		t.Error("the output shares the input's backing array")
	}
	if out := Messages(nil, target(), nil, clock4242); out == nil || len(out) != 0 {
		t.Errorf("Messages(nil) = %#v, want an empty slice", out)
	}
}

func TestNormalizerArguments(t *testing.T) {
	model := target()
	in := decode(t, []string{assistant(other, "toolUse", call("c1", "f"), call("c2", "f")), assistant(same, "toolUse", call("c3", "f"))})
	var seen []string
	norm := func(id string, m *ai.Model, source *ai.AssistantMessage) string {
		if m != model {
			t.Error("the normalizer must get the target model")
		}
		if source != in[0] {
			t.Error("the normalizer must get the source assistant")
		}
		seen = append(seen, id)
		return id
	}
	out := Messages(in, model, norm, clock4242)
	if got := strings.Join(seen, ","); got != "c1,c2" {
		t.Errorf("normalizer called for %s, want c1,c2 (never for the same model)", got)
	}
	if out[0].(*ai.AssistantMessage).Content[0] != in[0].(*ai.AssistantMessage).Content[0] {
		t.Error("an id the normalizer kept must leave the block shared")
	}
}

func TestRegexNormalizerExamples(t *testing.T) {
	five, forty := 5, 40
	cases := []struct {
		replace, with string
		max           *int
		id, want      string
	}{
		{"[^a-zA-Z0-9_-]", "_", nil, "call😀", "call__"},
		{"[|]", "_", &five, "abcd😀|x", "abcd\xed\xa0\xbd"}, // a lone high surrogate, in WTF-8
		{`\|.*$`, "", &forty, "call_abc|fc_x", "call_abc"},
	}
	for _, c := range cases {
		got := mustNormalizer(t, c.replace, c.with, c.max)(c.id, nil, nil)
		if got != c.want {
			t.Errorf("/%s/ on %q: got %q, want %q", c.replace, c.id, got, c.want)
		}
	}
}

func TestToolResults(t *testing.T) {
	a, b := &ai.ToolResultMessage{ToolCallID: "a"}, &ai.ToolResultMessage{ToolCallID: "b"}
	u := &ai.UserMessage{}
	for _, tc := range []struct {
		in   []ai.Message
		want int
	}{
		{nil, 0},
		{[]ai.Message{u, a}, 0},
		{[]ai.Message{a, b}, 2},
		{[]ai.Message{a, u, b}, 1},
	} {
		got := ToolResults(tc.in)
		if len(got) != tc.want {
			t.Errorf("ToolResults(%v) has %d results, want %d", tc.in, len(got), tc.want)
		}
		for i, tr := range got {
			if tr != tc.in[i] {
				t.Errorf("ToolResults(%v)[%d] = %v, want the message itself", tc.in, i, tr)
			}
		}
	}
}
