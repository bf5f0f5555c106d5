package ai_test

import (
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// TestCurrentTools: replaying the tool lists of a transcript's system
// messages as pi-ai 1.6's getCurrentTools does.
func TestCurrentTools(t *testing.T) {
	for _, tc := range []struct {
		name, msgs, want string
		fails            bool
	}{
		{"none", `[]`, `[]`, false},
		{"added in order", `[{"role":"system","toolsAdded":[{"name":"a"},{"name":"b"}]}]`, `[{"name":"a"},{"name":"b"}]`, false},
		{"a redeclaration keeps its place", `[{"role":"system","toolsAdded":[{"name":"a","v":1},{"name":"b"}]},{"role":"system","toolsAdded":[{"name":"a","v":2}]}]`,
			`[{"name":"a","v":2},{"name":"b"}]`, false},
		{"removed then added moves to the end", `[{"role":"system","toolsAdded":[{"name":"a"},{"name":"b"}]},{"role":"system","toolsRemoved":[{"name":"a"}],"toolsAdded":[{"name":"a","v":3}]}]`,
			`[{"name":"b"},{"name":"a","v":3}]`, false},
		{"null lists are none", `[{"role":"system","toolsAdded":null,"toolsRemoved":null}]`, `[]`, false},
		{"a string list is its characters, of no name", `[{"role":"system","toolsAdded":"ab"}]`, `["b"]`, false},
		{"numbers and strings are different names", `[{"role":"system","toolsAdded":[{"name":1},{"name":"1"},{"name":1.0}]}]`, `[{"name":1.0},{"name":"1"}]`, false},
		{"object names never meet", `[{"role":"system","toolsAdded":[{"name":{}},{"name":{}}]}]`, `[{"name":{}},{"name":{}}]`, false},
		{"a number list throws", `[{"role":"system","toolsAdded":5}]`, ``, true},
		{"a null tool throws", `[{"role":"system","toolsRemoved":[null]}]`, ``, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var systems []*ai.SystemMessage
			for _, e := range parse(t, tc.msgs).Elems() {
				m, err := ai.DecodeMessageIn(dialect.V1_6, e, "")
				if err != nil {
					t.Fatal(err)
				}
				systems = append(systems, m.(*ai.SystemMessage))
			}
			got, err := ai.CurrentTools(systems)
			if tc.fails {
				if err == nil {
					t.Fatalf("got %s, want an error", jsonv.ArrayValue(got...))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g := jsonv.ArrayValue(got...); !jsonv.Equal(g, parse(t, tc.want)) {
				t.Errorf("got %s, want %s", g, tc.want)
			}
		})
	}
}
