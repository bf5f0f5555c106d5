package suite_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

const goodCase = `{
  "id": "convert/good",
  "kind": "convert",
  "description": "A good case.",
  "rules": ["convert.order", "msg.user"],
  "input": {"messages": []},
  "redact": [{"path": "/messages/*/timestamp", "as": "number"}],
  "futureMember": true
}
`

// writeSuite lays files out in a temporary folder and returns it.
func writeSuite(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func load(t *testing.T, files map[string]string) (*suite.Suite, string, error) {
	t.Helper()
	dir := writeSuite(t, files)
	s, err := suite.Load(dir, os.DirFS(dir), dir)
	return s, dir, err
}

func TestLoadGood(t *testing.T) {
	s, dir, err := load(t, map[string]string{
		"fixtures/convert/good.json":  goodCase,
		"fixtures/convert/README.md":  "not a case",
		"fixtures/sanitize/a-1.json":  strings.NewReplacer("convert/good", "sanitize/a-1", `"convert"`, `"sanitize"`).Replace(goodCase),
		"golden/convert/good.json":    `{"messages":[]}`,
		"golden/sanitize/a-1.json":    `{"text":""}`,
		"golden/convert/orphan.json":  `{}`,
		"golden/notes.txt":            "ignored",
		"fixtures/convert/skip.json~": "editor backup",
	})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	var ids []string
	for _, c := range s.Cases {
		ids = append(ids, c.ID)
	}
	if diff := cmp.Diff([]string{"convert/good", "sanitize/a-1"}, ids); diff != "" {
		t.Errorf("case ids (-want +got):\n%s", diff)
	}
	c := s.Cases[0]
	if c.Kind != "convert" || c.Description != "A good case." || c.Suite != s {
		t.Errorf("case = %+v", c)
	}
	if diff := cmp.Diff([]string{"convert.order", "msg.user"}, c.Rules); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	if c.Input.String() != `{"messages":[]}` || len(c.Redactions) != 1 {
		t.Errorf("input %s, redactions %v", c.Input, c.Redactions)
	}
	if want := filepath.Join(dir, "fixtures/convert/good.json"); c.File != want {
		t.Errorf("File = %q, want %q", c.File, want)
	}
	if got, _ := c.Raw.Get("futureMember"); !got.Bool() {
		t.Errorf("Raw lost the unknown member: %s", c.Raw)
	}
	if c.GoldenPath(dialect.V0_80) != "golden/convert/good.json" {
		t.Errorf("GoldenPath = %q", c.GoldenPath(dialect.V0_80))
	}
	g, err := c.ReadGolden(dialect.V0_80)
	if err != nil || g.String() != `{"messages":[]}` {
		t.Errorf("ReadGolden = %s, %v", g, err)
	}
	orphans, err := s.Orphans()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{filepath.Join(dir, "golden/convert/orphan.json")}, orphans); diff != "" {
		t.Errorf("orphans (-want +got):\n%s", diff)
	}
}

func TestReadGoldenErrors(t *testing.T) {
	s, dir, err := load(t, map[string]string{
		"fixtures/convert/good.json": goodCase,
		"fixtures/convert/bad.json":  strings.Replace(goodCase, "convert/good", "convert/bad", 1),
		"golden/convert/bad.json":    "{\n  \"messages\": [,]\n}\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Cases[1].ReadGolden(dialect.V0_80) // convert/good: no golden
	want := filepath.Join(dir, "golden/convert/good.json") + " (case convert/good): no golden; run `piconform update` to create it"
	if err == nil || err.Error() != want {
		t.Errorf("missing golden: %v\nwant %s", err, want)
	}
	_, err = s.Cases[0].ReadGolden(dialect.V0_80) // convert/bad: malformed
	want = filepath.Join(dir, "golden/convert/bad.json") + ":2:16 (case convert/bad): /messages/0: "
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("malformed golden: %v\nwant %s…", err, want)
	}
}

// TestLoadErrors: every problem names the file, the line and column of a
// syntax error, the case id when it is known, and the JSON Pointer.
func TestLoadErrors(t *testing.T) {
	set := func(old, new string) string { return strings.Replace(goodCase, old, new, 1) }
	const file = "fixtures/convert/good.json"
	for _, tc := range []struct {
		name, content string
		want          string // after the file name
	}{
		{"malformed json", "{\n  \"id\": \"convert/good\",\n  \"kind\": convert\n}\n",
			`:3:11: /kind: unexpected 'c', want a JSON value`},
		{"truncated", `{"id": "convert/good"`, `:1:22: /: unexpected end of input, want ',' or '}'`},
		{"trailing garbage", goodCase + "x", `:10:1: /: unexpected 'x' after the value`},
		{"invalid utf-8", set("A good case.", "A \xff case."), `:4:21: /description: invalid UTF-8 in string`},
		{"not an object", `[]`, `: /: want an object, got array`},
		{"missing id", set(`"id": "convert/good",`, ""), `: /id: missing required string`},
		{"id not a string", set(`"convert/good"`, `7`), `: /id: want string, got number`},
		{"bad id pattern", set(`"convert/good"`, `"Convert/Good"`), ` (case Convert/Good): /id: id "Convert/Good" is not kind/name in [a-z0-9-]`},
		{"id not matching path", set(`"convert/good"`, `"convert/other"`), ` (case convert/other): /id: id "convert/other" does not match the file's path "convert/good"`},
		{"kind not matching folder", set(`"kind": "convert"`, `"kind": "normalize"`), ` (case convert/good): /kind: kind "normalize" does not match the folder of id "convert/good"`},
		{"kind prefix only", set(`"kind": "convert"`, `"kind": "conv"`), ` (case convert/good): /kind: kind "conv" does not match the folder of id "convert/good"`},
		{"missing kind", set(`"kind": "convert",`, ""), ` (case convert/good): /kind: missing required string`},
		{"empty description", set(`"A good case."`, `""`), ` (case convert/good): /description: the description is empty`},
		{"blank description", set(`"A good case."`, `" \n\t "`), ` (case convert/good): /description: the description is empty`},
		{"no rules", set(`["convert.order", "msg.user"]`, `[]`), ` (case convert/good): /rules: a case must cite at least one rule`},
		{"rules not an array", set(`["convert.order", "msg.user"]`, `"convert.order"`), ` (case convert/good): /rules: want array, got string`},
		{"bad rule id", set(`"msg.user"`, `"Msg.User"`), ` (case convert/good): /rules/1: want a rule id like convert.bash.exit-code, got "Msg.User"`},
		{"rule without dot", set(`"msg.user"`, `"msg"`), ` (case convert/good): /rules/1: want a rule id like convert.bash.exit-code, got "msg"`},
		{"rule not a string", set(`"msg.user"`, `1`), ` (case convert/good): /rules/1: want a rule id like convert.bash.exit-code, got 1`},
		{"rule cited twice", set(`"msg.user"`, `"convert.order"`), ` (case convert/good): /rules/1: rule convert.order is cited twice`},
		{"input missing", set(`"input": {"messages": []},`, ""), ` (case convert/good): /input: missing required object`},
		{"input not an object", set(`{"messages": []}`, `[]`), ` (case convert/good): /input: want object, got array`},
		{"redact not an array", set(`[{"path": "/messages/*/timestamp", "as": "number"}]`, `{}`), ` (case convert/good): /redact: want array, got object`},
		{"redact path relative", set(`"/messages/*/timestamp"`, `"messages"`), ` (case convert/good): /redact/0/path: want a JSON Pointer starting with /, got "messages"`},
		{"redact bad type", set(`"as": "number"`, `"as": "integer"`), ` (case convert/good): /redact/0/as: want one of `},
		{"redact missing as", set(`, "as": "number"`, ``), ` (case convert/good): /redact/0/as: missing required string`},
		{"a key named twice", set(`{"messages": []}`, `{"messages": [], "messages": [1]}`), `: /input: the key "messages" is named twice in one object: each key must be named once`},
		{"redact entry not an object", set(`[{"path": "/messages/*/timestamp", "as": "number"}]`, `["/x"]`), ` (case convert/good): /redact/0: want an object, got string`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, dir, err := load(t, map[string]string{
				file:                           tc.content,
				"fixtures/convert/fine-1.json": strings.Replace(goodCase, "convert/good", "convert/fine-1", 1),
			})
			if err == nil {
				t.Fatal("no error")
			}
			want := filepath.Join(dir, file) + tc.want
			if got := err.Error(); got != want && !(strings.HasSuffix(tc.want, " ") && strings.HasPrefix(got, want)) {
				t.Errorf("error:\n got %s\nwant %s", got, want)
			}
			var se *suite.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %T is not a *suite.Error", err)
			}
			if se.File != filepath.Join(dir, file) {
				t.Errorf("File = %q", se.File)
			}
			var pe *jsonv.PathError
			var syn *jsonv.SyntaxError
			if !errors.As(err, &pe) && !errors.As(err, &syn) {
				t.Errorf("error does not carry a JSON path: %v", err)
			}
			// The other case still loads.
			if s == nil || len(s.Cases) != 1 || s.Cases[0].ID != "convert/fine-1" {
				t.Errorf("the good case was not loaded next to the bad one: %+v", s)
			}
		})
	}
}

func TestLoadReportsEveryProblem(t *testing.T) {
	_, dir, err := load(t, map[string]string{
		"fixtures/convert/a.json": `{`,
		"fixtures/convert/b.json": strings.Replace(goodCase, `"convert/good"`, `"convert/x"`, 1),
		"fixtures/cost/c.json":    strings.Replace(goodCase, `"convert/good"`, `"cost/c"`, 1),
	})
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{
		filepath.Join(dir, "fixtures/convert/a.json") + ":1:2: ",
		filepath.Join(dir, "fixtures/convert/b.json") + " (case convert/x): /id: ",
		filepath.Join(dir, "fixtures/cost/c.json") + " (case cost/c): /kind: ",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the errors do not mention %q:\n%s", want, msg)
		}
	}
	if n := strings.Count(msg, "\n") + 1; n != 3 {
		t.Errorf("%d errors, want 3:\n%s", n, msg)
	}
}

func TestLoadMapFS(t *testing.T) {
	fsys := fstest.MapFS{
		"fixtures/convert/good.json": {Data: []byte(goodCase)},
		"fixtures/convert/bad.json":  {Data: []byte(`{"id":1}`)},
	}
	s, err := suite.Load("builtin", fsys, "")
	if err == nil || err.Error() != "fixtures/convert/bad.json: /id: want string, got number" {
		t.Errorf("Load error = %v", err)
	}
	if len(s.Cases) != 1 || s.Cases[0].File != "fixtures/convert/good.json" {
		t.Errorf("cases = %+v", s.Cases)
	}
	if _, err := suite.Load("empty", fstest.MapFS{}, ""); err == nil || !strings.HasPrefix(err.Error(), "empty: ") {
		t.Errorf("Load without fixtures/ = %v", err)
	}
}

// dupFS lists every entry of a folder twice, the only way two case files
// can claim one id.
type dupFS struct{ fstest.MapFS }

func (d dupFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := d.MapFS.ReadDir(name)
	if err != nil {
		return nil, err
	}
	var out []fs.DirEntry
	for _, e := range entries {
		out = append(out, e)
		if !e.IsDir() {
			out = append(out, e)
		}
	}
	return out, nil
}

func TestLoadDuplicateIDs(t *testing.T) {
	fsys := dupFS{fstest.MapFS{"fixtures/convert/good.json": {Data: []byte(goodCase)}}}
	_, err := suite.Load("dup", fsys, "")
	want := "fixtures/convert/good.json (case convert/good): id already used by fixtures/convert/good.json"
	if err == nil || err.Error() != want {
		t.Errorf("Load = %v, want %s", err, want)
	}
}

const specSnippet = "# Spec\n" +
	"#### 1.1 Scope\n" +
	"### msg.roles: The Message layer has exactly three roles\n" +
	"text\n" +
	"### Not a rule heading\n" +
	"### msg: no dot, no rule\n" +
	"### Msg.Roles: capitals, no rule\n" +
	"### convert.bash.exit-code:   A non-zero exit code is reported\n" +
	"#### convert.deeper: four hashes, no rule\n" +
	"###\tnorm.x2.y-z:tabs and no space\n" +
	"```\n### in.code: even in a fence\n```\n"

func TestReadRules(t *testing.T) {
	fsys := fstest.MapFS{"spec/SPEC.md": {Data: []byte(specSnippet)}}
	rules, err := suite.ReadRules(fsys, "spec/SPEC.md")
	if err != nil {
		t.Fatal(err)
	}
	want := []suite.Rule{
		{ID: "msg.roles", Title: "The Message layer has exactly three roles", File: "spec/SPEC.md", Line: 3},
		{ID: "convert.bash.exit-code", Title: "A non-zero exit code is reported", File: "spec/SPEC.md", Line: 8},
		{ID: "norm.x2.y-z", Title: "tabs and no space", File: "spec/SPEC.md", Line: 10},
		{ID: "in.code", Title: "even in a fence", File: "spec/SPEC.md", Line: 12},
	}
	if diff := cmp.Diff(want, rules); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	fsys["spec/SPEC.md"] = &fstest.MapFile{Data: []byte(specSnippet + "\n### msg.roles: again\n")}
	_, err = suite.ReadRules(fsys, "spec/SPEC.md")
	if err == nil || err.Error() != "spec/SPEC.md:15: rule msg.roles is already defined on line 3" {
		t.Errorf("duplicate rule: %v", err)
	}
	if _, err := suite.ReadRules(fsys, "spec/NOPE.md"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing spec: %v", err)
	}
}

func TestReadSpec(t *testing.T) {
	fsys := fstest.MapFS{
		"spec/SPEC.md":           {Data: []byte("### msg.roles: a\n")},
		"spec/wire-anthropic.md": {Data: []byte("intro\n### wire.anthropic.x: b\n")},
		"spec/schemas/x.md":      {Data: []byte("### not.read: deeper folders are not spec files\n")},
	}
	rules, err := suite.ReadSpec(fsys)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range rules {
		ids = append(ids, r.File+":"+r.ID)
	}
	if diff := cmp.Diff([]string{"spec/SPEC.md:msg.roles", "spec/wire-anthropic.md:wire.anthropic.x"}, ids); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	fsys["spec/wire-anthropic.md"] = &fstest.MapFile{Data: []byte("\n### msg.roles: twice\n")}
	if _, err := suite.ReadSpec(fsys); err == nil || err.Error() != "spec/wire-anthropic.md:2: rule msg.roles is already defined in spec/SPEC.md:1" {
		t.Errorf("duplicate across files: %v", err)
	}
	if _, err := suite.ReadSpec(fstest.MapFS{}); err == nil {
		t.Error("no spec files: no error")
	}
}

func TestCoverage(t *testing.T) {
	rules := []suite.Rule{{ID: "a.one"}, {ID: "a.two"}, {ID: "b.three"}}
	cases := []*suite.Case{
		{ID: "k/1", Rules: []string{"a.one", "z.unknown"}},
		{ID: "k/2", Rules: []string{"a.one", "b.three"}},
		{ID: "k/3", Rules: []string{"y.unknown", "z.unknown"}},
	}
	rep := suite.Coverage(rules, cases)
	want := suite.CoverageReport{
		Rules: []suite.RuleCoverage{
			{Rule: suite.Rule{ID: "a.one"}, Cases: []string{"k/1", "k/2"}},
			{Rule: suite.Rule{ID: "a.two"}},
			{Rule: suite.Rule{ID: "b.three"}, Cases: []string{"k/2"}},
		},
		Unknown: []suite.UnknownRule{
			{Rule: "y.unknown", Cases: []string{"k/3"}},
			{Rule: "z.unknown", Cases: []string{"k/1", "k/3"}},
		},
	}
	if diff := cmp.Diff(want, rep); diff != "" {
		t.Errorf("coverage (-want +got):\n%s", diff)
	}
	if rep := suite.Coverage(nil, nil); len(rep.Rules)+len(rep.Unknown) != 0 {
		t.Errorf("empty coverage = %+v", rep)
	}
}

// TestBuiltinSpecAndSuite: the repository's own spec and cases load, and
// every cited rule is defined.
func TestBuiltinSpecAndSuite(t *testing.T) {
	root := filepath.Join("..", "..")
	fsys := os.DirFS(root)
	rules, err := suite.ReadSpec(fsys)
	if err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load("repo", fsys, "")
	if err != nil {
		t.Fatal(err)
	}
	rep := suite.Coverage(rules, s.Cases)
	for _, u := range rep.Unknown {
		t.Errorf("rule %s cited by %v is not in the spec", u.Rule, u.Cases)
	}
	for _, id := range []string{"msg.roles", "agent.registry", "pipeline.order", "pipeline.per-request", "pipeline.errors", "input.strict", "san.surrogates"} {
		found := false
		for _, r := range rules {
			found = found || r.ID == id
		}
		if !found {
			t.Errorf("the spec does not define %s", id)
		}
	}
}
