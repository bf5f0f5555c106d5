package ai_test

import (
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
)

// TestSystemMessageRoundTrip: a 1.6 system message decodes whatever its
// members hold and encodes back to the same JSON.
func TestSystemMessageRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		isString bool
		verbatim bool
	}{
		{"string", `{"role":"system","content":"You are terse.","timestamp":0}`, true, false},
		{"everything", `{"role":"system","content":"","sections":{"preamble":"P","cwd":null},` +
			`"toolsAdded":[{"name":"read","description":"Read","parameters":{"type":"object"},"label":"Read"}],` +
			`"toolsRemoved":[{"name":"bash"}],"timestamp":1767225600000,"x":[1]}`, true, false},
		{"text blocks", `{"role":"system","content":[{"type":"text","text":"a"},{"type":"text","text":"b","textSignature":"s"}],"timestamp":3}`, false, false},
		{"foreign blocks", `{"role":"system","content":[{"type":"image","data":"d","mimeType":"image/png"},null,[1],{"type":"text","text":5}]}`, false, false},
		{"no content", `{"role":"system","timestamp":1}`, false, true},
		{"null content", `{"role":"system","content":null}`, false, true},
		{"number content", `{"role":"system","content":42,"sections":"s","toolsAdded":{"a":1},"toolsRemoved":7}`, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := parse(t, tc.in)
			m, err := ai.DecodeMessageIn(dialect.V1_6, in, "/m")
			if err != nil {
				t.Fatal(err)
			}
			sm, ok := m.(*ai.SystemMessage)
			if !ok {
				t.Fatalf("decoded a %T, want *ai.SystemMessage", m)
			}
			if sm.Content.IsString != tc.isString || sm.Content.Verbatim != tc.verbatim {
				t.Errorf("content string=%v verbatim=%v, want %v %v", sm.Content.IsString, sm.Content.Verbatim, tc.isString, tc.verbatim)
			}
			if out := m.JSON(); !jsonv.Equal(in, out) {
				t.Errorf("round trip changed the message:\n in: %s\nout: %s", in, out)
			}
		})
	}
}

// TestSystemRoleByDialect: "system" is a Message role in 1.6 only; in 0.80
// it stays a role Pi does not know.
func TestSystemRoleByDialect(t *testing.T) {
	msgs := parse(t, `[{"role":"system","content":"S","timestamp":0},{"role":"user","content":"u"}]`)
	for _, tc := range []struct {
		d        dialect.Dialect
		isRole   bool
		strict   string // the strict decoder's error, "" for none
		foreignT string // the type DecodeMessagesAllowForeignIn makes of the first message
	}{
		{dialect.V0_80, false, `/m/0/role: unknown role "system", want user, assistant or toolResult`, "*ai.ForeignMessage"},
		{dialect.V1_6, true, "", "*ai.SystemMessage"},
	} {
		t.Run(tc.d.String(), func(t *testing.T) {
			if got := ai.IsMessageRoleIn(tc.d, ai.RoleSystem); got != tc.isRole {
				t.Errorf("IsMessageRoleIn = %v, want %v", got, tc.isRole)
			}
			_, err := ai.DecodeMessagesIn(tc.d, msgs, "/m")
			if got := errText(err); got != tc.strict {
				t.Errorf("DecodeMessagesIn error %q, want %q", got, tc.strict)
			}
			all, err := ai.DecodeMessagesAllowForeignIn(tc.d, msgs, "/m")
			if err != nil {
				t.Fatal(err)
			}
			if got := typeName(all[0]); got != tc.foreignT {
				t.Errorf("first message is a %s, want %s", got, tc.foreignT)
			}
			if !jsonv.Equal(ai.MessagesJSON(all), msgs) {
				t.Errorf("messages changed: %s", ai.MessagesJSON(all))
			}
		})
	}
	// The 0.80 functions keep their behaviour.
	if _, err := ai.DecodeMessages(msgs, "/m"); err == nil {
		t.Error("DecodeMessages accepted a system message")
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func typeName(m ai.Message) string {
	switch m.(type) {
	case *ai.SystemMessage:
		return "*ai.SystemMessage"
	case *ai.ForeignMessage:
		return "*ai.ForeignMessage"
	}
	return "other"
}

// TestNormalizeContext: what pi-ai 1.6.0's normalizeContext returns, or
// where it throws, for contexts as written (each checked against Pi).
func TestNormalizeContext(t *testing.T) {
	for _, tc := range []struct {
		name, in, want, err string
	}{
		{"prompt", `{"systemPrompt":"S","messages":[]}`, `{"messages":[{"role":"system","content":"S","timestamp":0}]}`, ""},
		{"prompt and tools, others dropped", `{"systemPrompt":"S","tools":[{"name":"t","description":"d","parameters":{},"label":"L"}],"messages":[{"role":"user","content":"u"}],"extra":1}`,
			`{"messages":[{"role":"system","content":"S","toolsAdded":[{"name":"t","description":"d","parameters":{},"label":"L"}],"timestamp":0},{"role":"user","content":"u"}]}`, ""},
		{"tools only", `{"tools":[{"name":"t"}],"messages":[1]}`, `{"messages":[{"role":"system","content":"","toolsAdded":[{"name":"t"}],"timestamp":0},1]}`, ""},
		{"neither: messages as written", `{"systemPrompt":"","tools":[],"messages":[1]}`, `{"messages":[1]}`, ""},
		{"already a transcript", `{"messages":[{"role":"system","content":"S","timestamp":0}]}`, `{"messages":[{"role":"system","content":"S","timestamp":0}]}`, ""},
		{"neither, messages absent", `{}`, `{}`, ""},
		{"neither, messages a number", `{"systemPrompt":true,"messages":5}`, `{"messages":5}`, ""},
		{"number prompt has no length", `{"systemPrompt":42,"messages":[]}`, `{"messages":[]}`, ""},
		{"number prompt with tools is the content", `{"systemPrompt":42,"messages":[],"tools":[{"name":"t"}]}`,
			`{"messages":[{"role":"system","content":42,"toolsAdded":[{"name":"t"}],"timestamp":0}]}`, ""},
		{"object with a length", `{"systemPrompt":{"length":"2"},"messages":[]}`, `{"messages":[{"role":"system","content":{"length":"2"},"timestamp":0}]}`, ""},
		{"array prompt", `{"systemPrompt":["x"],"messages":[]}`, `{"messages":[{"role":"system","content":["x"],"timestamp":0}]}`, ""},
		{"string tools", `{"tools":"ab","messages":[]}`, `{"messages":[{"role":"system","content":"","toolsAdded":"ab","timestamp":0}]}`, ""},
		{"number tools", `{"tools":5,"messages":[]}`, `{"messages":[]}`, ""},
		{"string messages spread", `{"systemPrompt":"S","messages":"ab"}`, `{"messages":[{"role":"system","content":"S","timestamp":0},"a","b"]}`, ""},
		{"messages absent", `{"systemPrompt":"S"}`, ``, "/c/messages"},
		{"messages null", `{"systemPrompt":"S","messages":null}`, ``, "/c/messages"},
		{"messages object", `{"systemPrompt":"S","messages":{}}`, ``, "/c/messages"},
		{"null prompt", `{"systemPrompt":null,"messages":[]}`, ``, "/c/systemPrompt"},
		{"null tools", `{"tools":null,"messages":[]}`, ``, "/c/tools"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ai.NormalizeContext(parse(t, tc.in), "/c")
			if tc.err != "" {
				jsonvtest.ErrorAt(t, err, tc.err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := parse(t, tc.want); !jsonv.Equal(got.JSON(), want) {
				t.Errorf("got  %s\nwant %s", got.JSON(), want)
			}
		})
	}
}
