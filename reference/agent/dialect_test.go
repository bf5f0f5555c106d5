package agent_test

import (
	"testing"

	"github.com/piconform/piconform/reference/agent"
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
)

// TestSystemRoleByDialect: a registry of 1.6 reads a system message as a
// Message, which convertToLlm and the Agent's default keep (the same
// object); one of 0.80 reads it as an unknown role, which both drop.
func TestSystemRoleByDialect(t *testing.T) {
	const system = `{"role":"system","content":"S","sections":{"a":"A"},"toolsAdded":[{"name":"t"}],"timestamp":0}`
	in := parse(t, `[`+system+`,{"role":"mystery","x":1},{"role":"user","content":"u","timestamp":1}]`)
	for _, tc := range []struct {
		d    dialect.Dialect
		want string
	}{
		{dialect.V0_80, `[{"role":"user","content":"u","timestamp":1}]`},
		{dialect.V1_6, `[` + system + `,{"role":"user","content":"u","timestamp":1}]`},
	} {
		t.Run(tc.d.String(), func(t *testing.T) {
			reg, err := agent.NewRegistry()
			if err != nil {
				t.Fatal(err)
			}
			reg = reg.In(tc.d)
			if reg.Dialect() != tc.d {
				t.Errorf("Dialect() = %v", reg.Dialect())
			}
			msgs, err := reg.DecodeAll(in, "/m")
			if err != nil {
				t.Fatal(err)
			}
			want := parse(t, tc.want)
			llm, err := reg.ConvertToLLM(msgs)
			if err != nil {
				t.Fatal(err)
			}
			if got := ai.MessagesJSON(llm); !jsonv.Equal(got, want) {
				t.Errorf("ConvertToLLM:\ngot  %s\nwant %s", got, want)
			}
			if got := ai.MessagesJSON(agent.DefaultConvertToLLM(msgs)); !jsonv.Equal(got, want) {
				t.Errorf("DefaultConvertToLLM:\ngot  %s\nwant %s", got, want)
			}
			// A clone keeps the message as it was.
			if got := reg.Clone(msgs[0]).JSON(); !jsonv.Equal(got, in.Elems()[0]) {
				t.Errorf("Clone: %s", got)
			}
		})
	}
}

// TestDeclareToolChanges: the system message Pi 1.6's loop appends before a
// request, or none, or where it throws (each checked against Pi 1.6.0).
func TestDeclareToolChanges(t *testing.T) {
	const (
		read    = `{"name":"read","description":"Read.","parameters":{"type":"object"}}`
		readNew = `{"name":"read","description":"Read a file.","parameters":{"type":"object"}}`
		bash    = `{"name":"bash","description":"Run.","parameters":{}}`
		user    = `{"role":"user","content":"u","timestamp":1}`
	)
	sys := func(members string) string { return `{"role":"system","content":"",` + members + `"timestamp":0}` }
	for _, tc := range []struct {
		name, msgs, tools string
		want              string // the appended message, "" for none
		err               string // the error's pointer, "" for none
	}{
		{name: "no tools, none declared", msgs: `[` + user + `]`},
		{name: "tools null", msgs: `[` + user + `]`, tools: `null`},
		{name: "empty tools", msgs: `[` + user + `]`, tools: `[]`},
		{name: "new tools, label dropped", msgs: `[` + user + `]`, tools: `[{"name":"read","label":"R","description":"Read.","parameters":{"type":"object"},"execute":1},` + bash + `]`,
			want: `{"role":"system","content":"","timestamp":9,"toolsAdded":[` + read + `,` + bash + `]}`},
		{name: "constrainedSampling kept, null included", msgs: `[` + user + `]`, tools: `[{"name":"t","parameters":{},"constrainedSampling":null}]`,
			want: `{"role":"system","content":"","timestamp":9,"toolsAdded":[{"name":"t","parameters":{},"constrainedSampling":null}]}`},
		{name: "same declaration: nothing", msgs: `[` + sys(`"toolsAdded":[`+read+`],`) + `,` + user + `]`, tools: `[` + read + `]`},
		{name: "changed is removed and added", msgs: `[` + sys(`"toolsAdded":[`+read+`,`+bash+`],`) + `,` + user + `]`, tools: `[` + readNew + `]`,
			want: `{"role":"system","content":"","timestamp":9,"toolsAdded":[` + readNew + `],"toolsRemoved":[{"name":"read"},{"name":"bash"}]}`},
		{name: "parameter key order counts", msgs: `[` + sys(`"toolsAdded":[{"name":"t","parameters":{"a":1,"b":2}}],`) + `,` + user + `]`,
			tools: `[{"name":"t","parameters":{"b":2,"a":1}}]`,
			want:  `{"role":"system","content":"","timestamp":9,"toolsAdded":[{"name":"t","parameters":{"b":2,"a":1}}],"toolsRemoved":[{"name":"t"}]}`},
		{name: "replayed removals", msgs: `[` + sys(`"toolsAdded":[`+read+`,`+bash+`],`) + `,` + user + `,` + sys(`"toolsRemoved":[{"name":"bash"}],`) + `]`, tools: `[` + read + `]`},
		{name: "all removed", msgs: `[` + sys(`"toolsAdded":[`+read+`],`) + `,` + user + `]`,
			want: `{"role":"system","content":"","timestamp":9,"toolsRemoved":[{"name":"read"}]}`},
		{name: "system messages of 0.80 are unknown", msgs: `[` + user + `]`, tools: `[` + read + `]`,
			want: `{"role":"system","content":"","timestamp":9,"toolsAdded":[` + read + `]}`},
		{name: "null message throws", msgs: `[null,` + user + `]`, err: "/messages/0"},
		{name: "tool without parameters throws", msgs: `[` + user + `]`, tools: `[{"name":"t"}]`, err: "/tools/0"},
		{name: "tool not an object throws", msgs: `[` + user + `]`, tools: `[7]`, err: "/tools/0"},
		{name: "tools not an array throws", msgs: `[` + user + `]`, tools: `{"name":"t"}`, err: "/tools"},
		{name: "tools false throws", msgs: `[` + user + `]`, tools: `false`, err: "/tools"},
		{name: "toolsAdded not iterable throws", msgs: `[` + user + `,` + sys(`"toolsAdded":5,`) + `]`, err: "/messages/1/toolsAdded"},
		{name: "null tool throws", msgs: `[` + sys(`"toolsRemoved":[null],`) + `,` + user + `]`, err: "/messages/0/toolsRemoved/0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg, _ := agent.NewRegistry()
			reg = reg.In(dialect.V1_6)
			raw := parse(t, tc.msgs)
			var msgs []agent.Message
			for _, e := range raw.Elems() {
				if e.Kind() == jsonv.Null {
					msgs = append(msgs, &agent.Unknown{Raw: e})
					continue
				}
				m, err := reg.Decode(e, "")
				if err != nil {
					t.Fatal(err)
				}
				msgs = append(msgs, m)
			}
			var tools jsonv.Value
			if tc.tools != "" {
				tools = parse(t, tc.tools)
			}
			got, err := agent.DeclareToolChanges(msgs, tools, func() jsonv.Value { return jsonv.NumberValue("9") })
			if tc.err != "" {
				jsonvtest.ErrorAt(t, err, tc.err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.want == "" && got != nil:
				t.Errorf("appended %s, want nothing", got.JSON())
			case tc.want != "" && got == nil:
				t.Errorf("appended nothing, want %s", tc.want)
			case tc.want != "" && !jsonv.Equal(got.JSON(), parse(t, tc.want)):
				t.Errorf("got  %s\nwant %s", got.JSON(), tc.want)
			}
		})
	}
}
