package suite_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/dialect"
)

const changesSpec = `# Spec

### a.kept: Holds in every dialect
Text.

### a.changed: Changed in 1.6
Changed in 1.6: the thing now does the other thing.

### a.new: New in 1.6
Since: 1.6

### a.gone: Removed in 1.6
Until: 0.80.
`

func TestReadRulesLifetime(t *testing.T) {
	rules, err := suite.ReadRules(fstest.MapFS{"spec/S.md": {Data: []byte(changesSpec)}}, "spec/S.md")
	if err != nil {
		t.Fatal(err)
	}
	holds := map[string][]bool{}
	for _, r := range rules {
		for _, d := range dialect.All() {
			holds[r.ID] = append(holds[r.ID], r.HoldsIn(d))
		}
	}
	want := map[string][]bool{"a.kept": {true, true}, "a.changed": {true, true}, "a.new": {false, true}, "a.gone": {true, false}}
	if diff := cmp.Diff(want, holds); diff != "" {
		t.Errorf("holds in 0.80, 1.6 (-want +got):\n%s", diff)
	}
	if got := rules[1].Changed[dialect.V1_6]; got != "the thing now does the other thing." {
		t.Errorf("Changed[1.6] = %q", got)
	}
	_, err = suite.ReadRules(fstest.MapFS{"spec/S.md": {Data: []byte("### a.b: T\nSince: 2.0\n")}}, "spec/S.md")
	if err == nil || !strings.Contains(err.Error(), `spec/S.md:2: rule a.b: unknown dialect "2.0"`) {
		t.Errorf("error %v, want one naming the line and the dialect", err)
	}
}

func TestChanges(t *testing.T) {
	rules, err := suite.ReadRules(fstest.MapFS{"spec/S.md": {Data: []byte(changesSpec)}}, "spec/S.md")
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := load(t, map[string]string{
		"fixtures/convert/same.json":        strings.Replace(caseFile("convert/same", ""), `"msg.user"`, `"a.changed"`, 1),
		"fixtures/convert/differs.json":     strings.Replace(caseFile("convert/differs", ""), `"msg.user"`, `"a.changed", "a.kept"`, 1),
		"fixtures/convert/new.json":         strings.Replace(caseFile("convert/new", `, "since": "1.6"`), `"msg.user"`, `"a.new"`, 1),
		"fixtures/convert/unmarked.json":    strings.Replace(caseFile("convert/unmarked", ""), `"msg.user"`, `"a.kept"`, 1),
		"golden/@1.6/convert/differs.json":  `{}`,
		"golden/@1.6/convert/unmarked.json": `{}`,
	})
	if err != nil {
		t.Fatal(err)
	}
	rep := suite.Changes(rules, s.Cases, dialect.V0_80, dialect.V1_6)
	type row struct {
		ID, What, Text string
		Cases          []string
	}
	var got []row
	for _, rc := range rep.Rules {
		got = append(got, row{rc.Rule.ID, rc.What, rc.Text, rc.Cases})
	}
	want := []row{
		{"a.changed", "changed", "the thing now does the other thing.", []string{"convert/differs"}},
		{"a.new", "new", "", []string{"convert/new"}},
		{"a.gone", "removed", "", nil},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"convert/unmarked"}, rep.Unexplained); diff != "" {
		t.Errorf("unexplained (-want +got):\n%s", diff)
	}
}
