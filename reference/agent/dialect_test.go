package agent_test

import (
	"testing"

	"github.com/piconform/piconform/reference/agent"
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
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
