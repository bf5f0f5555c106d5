package ai_test

import (
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
)

// TestCurrentTools: replaying the tool lists of a transcript's system
// messages as pi-ai 1.6's getCurrentTools does.
func TestCurrentTools(t *testing.T) {
	for _, tc := range []struct {
		name, msgs, want string
		err              string // the pointer of the error, "" for none
	}{
		{"none", `[]`, `[]`, ""},
		{"added in order", `[{"role":"system","toolsAdded":[{"name":"a"},{"name":"b"}]}]`, `[{"name":"a"},{"name":"b"}]`, ""},
		{"a redeclaration keeps its place", `[{"role":"system","toolsAdded":[{"name":"a","v":1},{"name":"b"}]},{"role":"system","toolsAdded":[{"name":"a","v":2}]}]`,
			`[{"name":"a","v":2},{"name":"b"}]`, ""},
		{"removed then added moves to the end", `[{"role":"system","toolsAdded":[{"name":"a"},{"name":"b"}]},{"role":"system","toolsRemoved":[{"name":"a"}],"toolsAdded":[{"name":"a","v":3}]}]`,
			`[{"name":"b"},{"name":"a","v":3}]`, ""},
		{"null lists are none", `[{"role":"system","toolsAdded":null,"toolsRemoved":null}]`, `[]`, ""},
		{"a string list is its characters, of no name", `[{"role":"system","toolsAdded":"ab"}]`, `["b"]`, ""},
		{"numbers and strings are different names", `[{"role":"system","toolsAdded":[{"name":1},{"name":"1"},{"name":1.0}]}]`, `[{"name":1.0},{"name":"1"}]`, ""},
		{"object names never meet", `[{"role":"system","toolsAdded":[{"name":{}},{"name":{}}]}]`, `[{"name":{}},{"name":{}}]`, ""},
		{"a number list throws", `[{"role":"user","content":"u"},{"role":"system","toolsAdded":5}]`, ``, "/messages/1/toolsAdded"},
		{"a null tool throws", `[{"role":"system","toolsRemoved":[{"name":"a"},null]}]`, ``, "/messages/0/toolsRemoved/1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The system messages and, for the errors, their places.
			var systems []*ai.SystemMessage
			var places []string
			for i, e := range parse(t, tc.msgs).Elems() {
				m, err := ai.DecodeMessageIn(dialect.V1_6, e, "")
				if err != nil {
					t.Fatal(err)
				}
				if s, ok := m.(*ai.SystemMessage); ok {
					systems = append(systems, s)
					places = append(places, jsonv.Index("/messages", i))
				}
			}
			got, err := ai.CurrentTools(systems, func(i int) string { return places[i] })
			if tc.err != "" {
				jsonvtest.ErrorAt(t, err, tc.err)
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
