package provider_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/provider"
)

// TestWireContext16: a 1.6 call's context as the API reads it after
// normalizeContext and collapseSystemMessages (SHR16-01). Expected values
// printed by pi-ai 1.6.0's normalizeContext, collapseSystemMessages,
// getSystemMessageText and getCurrentTools under Node 22.
func TestWireContext16(t *testing.T) {
	const (
		u   = `{"role":"user","content":"hi","timestamp":1}`
		t1  = `{"name":"a","description":"A","parameters":{}}`
		t2  = `{"name":"b","description":"B","parameters":{}}`
		t1b = `{"name":"a","description":"A2","parameters":{}}`
	)
	for _, tc := range []struct {
		name, ctx string
		prompt    string // "" with noPrompt: none
		noPrompt  bool
		tools     string
		messages  string
		throws    string
	}{
		{name: "prompt", ctx: `{"systemPrompt":"SYS","messages":[` + u + `]}`, prompt: "SYS", tools: `[]`, messages: `[` + u + `]`},
		{name: "tools only: an empty prompt", ctx: `{"systemPrompt":"","tools":[` + t1 + `],"messages":[` + u + `]}`, prompt: "", tools: `[` + t1 + `]`, messages: `[` + u + `]`},
		{name: "neither", ctx: `{"messages":[` + u + `]}`, noPrompt: true, tools: `[]`, messages: `[` + u + `]`},
		{name: "a tool named twice: the last, in the first place", ctx: `{"systemPrompt":"SYS","tools":[` + t1 + `,` + t2 + `,` + t1b + `],"messages":[` + u + `]}`,
			prompt: "SYS", tools: `[` + t1b + `,` + t2 + `]`, messages: `[` + u + `]`},
		{name: "a later system message folds in", ctx: `{"systemPrompt":"SYS","messages":[` + u + `,{"role":"system","content":"more","toolsAdded":[` + t2 + `],"timestamp":5},` + u + `]}`,
			prompt: "SYS\n\nmore", tools: `[` + t2 + `]`, messages: `[` + u + `,` + u + `]`},
		{name: "blocks, sections, removals", ctx: `{"systemPrompt":"SYS","tools":[` + t1 + `,` + t2 + `],"messages":[{"role":"system","content":[{"type":"text","text":"x"},{"type":"image"},{"type":"text","text":"y"}],"sections":{"s1":"one","s2":"two"},"toolsRemoved":[{"name":"a"}],"timestamp":7},{"role":"system","content":"","sections":{"s1":null,"s3":""}},` + u + `]}`,
			prompt: "SYS\n\nx\ny\n\ntwo", tools: `[` + t2 + `]`, messages: `[` + u + `]`},
		{name: "no timestamp, no tools: no prompt", ctx: `{"messages":[{"role":"system","content":"no timestamp"},` + u + `]}`, noPrompt: true, tools: `[]`, messages: `[` + u + `]`},
		{name: "the first timestamp that is not null", ctx: `{"messages":[{"role":"system","content":"ts","timestamp":null},{"role":"system","content":"ts2","timestamp":3},` + u + `]}`,
			prompt: "ts\n\nts2", tools: `[]`, messages: `[` + u + `]`},
		{name: "sections of other types", ctx: `{"systemPrompt":"SYS","messages":[{"role":"system","content":"","sections":{"n":5,"a":[1,2],"e":[]},"timestamp":1}]}`, prompt: "SYS\n\n1,2", tools: `[]`, messages: `[]`},
		{name: "a prompt with no length", ctx: `{"systemPrompt":42,"tools":[],"messages":[` + u + `]}`, noPrompt: true, tools: `[]`, messages: `[` + u + `]`},
		{name: "a prompt of no text blocks", ctx: `{"systemPrompt":["a"],"messages":[` + u + `]}`, prompt: "", tools: `[]`, messages: `[` + u + `]`},
		{name: "a null message", ctx: `{"systemPrompt":"SYS","messages":[null]}`, throws: "Cannot read properties of null (reading 'role')"},
		{name: "content of no text", ctx: `{"systemPrompt":"SYS","messages":[{"role":"system","content":5,"timestamp":1}]}`, throws: "content.filter is not a function"},
		{name: "tools not iterable", ctx: `{"systemPrompt":"SYS","messages":[{"role":"system","content":"","toolsAdded":5,"timestamp":1}]}`, throws: "number 5 is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{name: "a null tool", ctx: `{"systemPrompt":"SYS","messages":[{"role":"system","content":"","toolsAdded":[null],"timestamp":1}]}`, throws: "Cannot read properties of null (reading 'name')"},
		{name: "a null prompt", ctx: `{"systemPrompt":null,"messages":[` + u + `]}`, throws: "null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := jsonv.ParseString(tc.ctx)
			if err != nil {
				t.Fatal(err)
			}
			d := provider.Driver{LenientContext: true}
			c, err := d.WireContext(dialect.V1_6, &ai.Model{}, v, "/context")
			if tc.throws != "" {
				if err == nil || !strings.Contains(err.Error(), tc.throws) {
					t.Fatalf("err = %v, want %q", err, tc.throws)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			prompt := c.SystemPromptValue()
			if prompt.IsAbsent() != tc.noPrompt || prompt.Str() != tc.prompt {
				t.Errorf("prompt = %s, want %q (none: %v)", prompt, tc.prompt, tc.noPrompt)
			}
			if diff := cmp.Diff(tc.tools, jsonv.ArrayOf(c.Tools).String()); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.messages, ai.MessagesJSON(c.Messages).String()); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWireContextKeeps: with compat.supportsMidConvoSystemMessages an API
// that allows it keeps a later system message in place; one that always
// folds (Google, Bedrock) does not; 0.80 reads the context as it is.
func TestWireContextKeeps(t *testing.T) {
	const ctx = `{"systemPrompt":"SYS","messages":[{"role":"user","content":"hi","timestamp":1},{"role":"system","content":"more","timestamp":5}]}`
	v, err := jsonv.ParseString(ctx)
	if err != nil {
		t.Fatal(err)
	}
	compat, _ := jsonv.ParseString(`{"supportsMidConvoSystemMessages":true}`)
	for _, tc := range []struct {
		name   string
		d      dialect.Dialect
		folds  bool
		compat jsonv.Value
		prompt string
		roles  string
	}{
		{"0.80: as written", dialect.V0_80, false, compat, "SYS", "user,system"},
		{"1.6 without the flag: folded", dialect.V1_6, false, jsonv.Value{}, "SYS\n\nmore", "user"},
		{"1.6 with the flag: kept", dialect.V1_6, false, compat, "SYS", "user,system"},
		{"1.6 an API that folds", dialect.V1_6, true, compat, "SYS\n\nmore", "user"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := provider.Driver{LenientContext: true, FoldsSystemMessages: tc.folds}
			c, err := d.WireContext(tc.d, &ai.Model{Compat: tc.compat}, v, "/context")
			if err != nil {
				t.Fatal(err)
			}
			var roles []string
			for _, m := range c.Messages {
				roles = append(roles, m.Role())
			}
			if got := c.SystemPromptValue().Str(); got != tc.prompt || strings.Join(roles, ",") != tc.roles {
				t.Errorf("prompt %q, roles %v; want %q, %s", got, roles, tc.prompt, tc.roles)
			}
		})
	}
}

// TestSystemMessageUpdate: a kept later system message as Pi 1.6
// words it; expected values printed by pi-ai 1.6.0's
// renderSystemMessageUpdate under Node 22.
func TestSystemMessageUpdate(t *testing.T) {
	for _, tc := range []struct{ msg, want string }{
		{`{"content":"Now brief.","sections":{"tone":"Dry.","old":null}}`, "Now brief.\n\nUpdated system prompt section \"tone\":\n\nDry.\n\nRemoved system prompt section \"old\"."},
		{`{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`, "a\nb"},
		{`{"content":"","sections":{"x":""}}`, "Updated system prompt section \"x\":\n\n"},
		{`{"content":"","sections":{"n":5}}`, "Updated system prompt section \"n\":\n\n5"},
	} {
		v, err := jsonv.ParseString(tc.msg)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ai.DecodeSystemMessage(jsonv.ObjectValue(append([]jsonv.Member{{Key: "role", Value: jsonv.StringValue(ai.RoleSystem)}}, v.Members()...)...), "")
		if err != nil {
			t.Fatal(err)
		}
		got, err := provider.SystemMessageUpdate(m, "")
		if err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.msg, got, err, tc.want)
		}
	}
	// A section with a toString of its own cannot be written: Pi throws.
	m := &ai.SystemMessage{Content: ai.StringContent(""), Sections: jsonv.ObjectValue(jsonv.Member{Key: "x", Value: jsonv.ObjectValue(jsonv.Member{Key: "toString", Value: jsonv.NumberValue("1")})})}
	_, err := provider.SystemMessageUpdate(m, "/m")
	jsonvtest.ErrorAt(t, err, "/m/sections/x")
}

// TestCopilotTally: X-Initiator reads the last message of what the API
// resolved. In 1.6 the transcript's leading system message (a prompt or
// tools, no other message after it) is that last message; 0.80 sees only
// the caller's messages. Checked against pi-ai 0.80.2 and 1.6.0 by the
// wire cases *-github-copilot-system-prompt-only.
func TestCopilotTally(t *testing.T) {
	for _, tc := range []struct {
		name      string
		d         dialect.Dialect
		ctx, want string
	}{
		{"0.80: a prompt alone", dialect.V0_80, `{"systemPrompt":"SYS","messages":[]}`, "user"},
		{"1.6: a prompt alone", dialect.V1_6, `{"systemPrompt":"SYS","messages":[]}`, "agent"},
		{"1.6: tools alone", dialect.V1_6, `{"systemPrompt":"","tools":[{"name":"a","description":"A","parameters":{}}],"messages":[]}`, "agent"},
		{"1.6: nothing at all", dialect.V1_6, `{"messages":[]}`, "user"},
		{"1.6: a system message without a timestamp leads nothing", dialect.V1_6, `{"messages":[{"role":"system","content":"x"}]}`, "user"},
		{"1.6: a prompt, then a user message", dialect.V1_6, `{"systemPrompt":"SYS","messages":[{"role":"user","content":"hi","timestamp":1}]}`, "user"},
		{"1.6: a prompt, then an assistant message", dialect.V1_6, `{"systemPrompt":"SYS","messages":[{"role":"assistant","content":[],"timestamp":1}]}`, "agent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := jsonv.ParseString(tc.ctx)
			if err != nil {
				t.Fatal(err)
			}
			d := provider.Driver{LenientContext: true}
			c, err := d.WireContext(tc.d, &ai.Model{}, v, "/context")
			if err != nil {
				t.Fatal(err)
			}
			tally := provider.CopilotTally(tc.d, c)
			for _, m := range c.Messages {
				tally.See(m)
			}
			got := ""
			for _, h := range tally.Headers() {
				if h.Name == "X-Initiator" {
					got = *h.Value
				}
			}
			if got != tc.want {
				t.Errorf("X-Initiator = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestWireContextFillsContent: in 1.6 the messages an API converts have
// had null or absent content made [] (transformMessages does it first),
// for a driver that reads them leniently and one that does not; 0.80 hands
// them on as written, and an assistant without content is refused.
func TestWireContextFillsContent(t *testing.T) {
	const ctx = `{"messages":[{"role":"user","content":null,"timestamp":1},` +
		`{"role":"assistant","stopReason":"stop","api":"a","provider":"p","model":"m","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"timestamp":2},` +
		`{"role":"toolResult","toolCallId":"c","toolName":"t","content":null,"isError":false,"timestamp":3}]}`
	v, err := jsonv.ParseString(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		d       dialect.Dialect
		lenient bool
		empty   bool // every message's content is []
		fails   bool
	}{
		{"1.6 lenient", dialect.V1_6, true, true, false},
		{"1.6 strict", dialect.V1_6, false, true, false},
		{"0.80 lenient: refused", dialect.V0_80, true, false, true},
		{"0.80 strict: refused", dialect.V0_80, false, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := provider.Driver{LenientContext: tc.lenient}
			c, err := d.WireContext(tc.d, &ai.Model{}, v, "/context")
			if tc.fails {
				if err == nil {
					t.Fatal("no error, want the null content refused")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Messages) != 3 {
				t.Fatalf("%d messages, want 3", len(c.Messages))
			}
			for i, m := range c.Messages {
				content, _ := m.JSON().Get("content")
				if got := content.String() == "[]"; got != tc.empty {
					t.Errorf("message %d: content %s, want [] %v", i, content, tc.empty)
				}
			}
		})
	}
}
