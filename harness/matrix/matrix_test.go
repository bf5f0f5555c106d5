package matrix_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sebdah/goldie/v2"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/matrix"
	"github.com/piconform/piconform/harness/report"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/subject"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/spec/schemastest"
)

func read(t *testing.T, files ...string) []*matrix.Report {
	t.Helper()
	var out []*matrix.Report
	for _, f := range files {
		r, err := matrix.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r...)
	}
	return out
}

func merge(t *testing.T, files ...string) *matrix.Matrix {
	t.Helper()
	m, err := matrix.Merge(read(t, files...))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRender compares both renderings with goldens under testdata/golden
// (go test ./harness/matrix -update rewrites them; review the diff).
func TestRender(t *testing.T) {
	tests := []struct {
		name  string
		files []string
	}{
		{"reference-only", []string{"reference.jsonl"}},
		{"reference-port-shards", []string{"reference.jsonl", "port.jsonl", "shards/1of2.jsonl", "shards/2of2.jsonl"}},
	}
	g := goldie.New(t, goldie.WithFixtureDir(filepath.Join("testdata", "golden")), goldie.WithNameSuffix(""))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := merge(t, tc.files...)
			g.Assert(t, tc.name+".md", matrix.Markdown(m))
			page, err := matrix.HTML(m)
			if err != nil {
				t.Fatal(err)
			}
			g.Assert(t, tc.name+".html", page)
		})
	}
}

// cellCounts flattens a row into "column: passed/failed/skipped [failing ids]".
func cellCounts(r *matrix.Row) map[string]string {
	out := map[string]string{}
	put := func(key string, c *matrix.Cell) {
		var ids []string
		for _, f := range c.Failures {
			ids = append(ids, f.ID)
		}
		out[key] = fmt.Sprintf("%d/%d/%d %v", c.Passed, c.Failed, c.Skipped, ids)
	}
	put("all", r.Total)
	for k, c := range r.ByKind {
		put("kind "+k, c)
	}
	for f, c := range r.ByFamily {
		put("rules "+f, c)
	}
	return out
}

func TestShardsMergeIntoOneRow(t *testing.T) {
	whole := merge(t, "shards/whole.jsonl")
	// 2of2 repeats a case of 1of2 with the same outcome: it counts once.
	sharded := merge(t, "shards/1of2.jsonl", "shards/2of2.jsonl")
	if len(sharded.Rows) != 1 {
		t.Fatalf("%d rows, want one for both shards of go-pi 0.4.0", len(sharded.Rows))
	}
	if diff := cmp.Diff([]string{"1of2.jsonl", "2of2.jsonl"}, sharded.Rows[0].Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(cellCounts(whole.Rows[0]), cellCounts(sharded.Rows[0])); diff != "" {
		t.Errorf("shards count differently from the whole run (-whole +shards):\n%s", diff)
	}
	if diff := cmp.Diff(whole.Groups, sharded.Groups); diff != "" {
		t.Errorf("rule families (-whole +shards):\n%s", diff)
	}
	want := map[string]string{
		"all":                           "3/2/1 [convert/order wire/anthropic-error]",
		"kind convert":                  "1/1/0 [convert/order]",
		"kind sanitize":                 "1/0/0 []",
		"kind wire":                     "1/1/1 [wire/anthropic-error]",
		"rules convert":                 "0/1/0 [convert/order]",
		"rules convert.bash":            "1/0/0 []",
		"rules san":                     "1/0/0 []",
		"rules wire.anthropic":          "1/1/0 [wire/anthropic-error]",
		"rules wire.openai-completions": "0/0/1 []",
		"rules wire.stream":             "1/1/1 [wire/anthropic-error]",
	}
	if diff := cmp.Diff(want, cellCounts(whole.Rows[0])); diff != "" {
		t.Errorf("counts of the whole run (-want +got):\n%s", diff)
	}
}

func TestShardsThatDisagreeAreAnInputError(t *testing.T) {
	_, err := matrix.Merge(read(t, "shards/1of2.jsonl", "shards/conflict.jsonl"))
	want := "testdata/shards/conflict.jsonl:2: case convert/order is pass here but fail in testdata/shards/1of2.jsonl:3, " +
		"a report of the same implementation and version (go-pi 0.4.0); shards of one run must agree"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v\nwant %s", err, want)
	}
}

func TestDifferentVersionsAreDifferentRows(t *testing.T) {
	m := merge(t, "reference.jsonl", "port.jsonl", "shards/whole.jsonl")
	var got []string
	for _, r := range m.Rows {
		got = append(got, r.Implementation.Label())
	}
	if diff := cmp.Diff([]string{"piconform-reference 0.80.2", "go-pi 0.3.0", "go-pi 0.4.0"}, got); diff != "" {
		t.Errorf("rows, in the order given (-want +got):\n%s", diff)
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct{ file, want string }{
		{"missing.jsonl", "testdata/bad/missing.jsonl: no such file or directory"},
		{"empty.jsonl", "testdata/bad/empty.jsonl: not a piconform report: empty"},
		{"notjson.jsonl", "testdata/bad/notjson.jsonl:1: not a piconform report: not JSON: invalid character 'h' looking for beginning of value"},
		{"noheader.jsonl", "testdata/bad/noheader.jsonl:1: not a piconform report: the first line is not a header"},
		{"schema2.jsonl", "testdata/bad/schema2.jsonl:1: report schema version 2 is unknown to this piconform, which reads versions 1 to 1"},
		{"noname.jsonl", "testdata/bad/noname.jsonl:1: /implementation/name: missing; the header must name the implementation"},
		{"nofooter.jsonl", "testdata/bad/nofooter.jsonl:2: the report ends without a footer: the run was cut short or the file is truncated"},
		{"badoutcome.jsonl", `testdata/bad/badoutcome.jsonl:2: /outcome: "flaky" is not an outcome (case convert/order)`},
		{"badrules.jsonl", "testdata/bad/badrules.jsonl:2: /rules: a JSON number where the report format wants another type"},
		{"array.jsonl", "testdata/bad/array.jsonl:1: not a piconform report: the line is a JSON array, not an object"},
		{"badjson.jsonl", "testdata/bad/badjson.jsonl:2: not JSON: unexpected end of JSON input"},
		{"count.jsonl", "testdata/bad/count.jsonl:1: the header announces 2 cases but the report has 1"},
		{"dupcase.jsonl", "testdata/bad/dupcase.jsonl:3: case convert/order is also on line 2"},
		{"afterfooter.jsonl", `testdata/bad/afterfooter.jsonl:4: a "case" line after the footer (line 3)`},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			_, err := matrix.ReadFile(filepath.Join("testdata", "bad", tc.file))
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != tc.want {
				t.Errorf("error:\n%s\nwant:\n%s", err, tc.want)
			}
		})
	}
}

// The HTML page must be inert and self-contained whatever the reports say:
// the port's report holds markup, a script tag and terminal escapes.
func TestOutputsAreInertAndSelfContained(t *testing.T) {
	m := merge(t, "port.jsonl")
	page, err := matrix.HTML(m)
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	for _, bad := range []string{"<script", "<b>", "</code><b>", "\x1b", "<link", " src=", `href="http`, "@import", "url("} {
		if strings.Contains(html, bad) {
			t.Errorf("the HTML page holds %q", bad)
		}
	}
	for _, want := range []string{`http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"`,
		"&lt;script&gt;", `\x1b[31mred`} {
		if !strings.Contains(html, want) {
			t.Errorf("the HTML page lacks %q", want)
		}
	}
	md := string(matrix.Markdown(m))
	unescaped := strings.NewReplacer(`\<`, "", `\[`, "", `\]`, "", `\(`, "").Replace(md)
	for _, bad := range []string{"<script", "[link](", "\x1b", "\nsecond line"} {
		if strings.Contains(unescaped, bad) {
			t.Errorf("the Markdown holds %q", bad)
		}
	}
	if !strings.Contains(md, `\<script\>`) {
		t.Error("the Markdown does not escape the script tag")
	}
}

// The reader reads what report.JSONLines writes: rules and the first
// differing path of a failure.
func TestReadsWhatRunWrites(t *testing.T) {
	c := func(id string, rules ...string) *suite.Case {
		kind, _, _ := strings.Cut(id, "/")
		return &suite.Case{ID: id, Kind: kind, Rules: rules}
	}
	sum := &run.Summary{
		Implementation: subject.Implementation{Name: "fake", Version: "1.0", Language: "go"},
		Started:        time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Counts:         map[run.Outcome]int{run.Pass: 1, run.Fail: 1},
		Results: []run.Result{
			{Case: c("convert/a", "convert.order", "msg.strings"), Outcome: run.Pass},
			{Case: c("cost/b", "msg.cost"), Outcome: run.Fail, Message: "differs", Mismatch: &compare.Mismatch{Path: "/usage/cost/total"}},
		},
	}
	// A run of two dialects writes two reports, one after the other.
	sum16 := *sum
	sum16.Dialect, sum16.Profile = dialect.V1_6, "typed"
	reps, err := matrix.Read("r.jsonl", bytes.NewReader(report.JSONLines(sum, &sum16)))
	if err != nil {
		t.Fatal(err)
	}
	want := []*matrix.Report{}
	for i, d := range []string{"0.80", "1.6"} {
		at := 4 * i // the header, two cases and the footer of the report before
		profile := ""
		if d == "1.6" {
			profile = "typed"
		}
		want = append(want, &matrix.Report{File: "r.jsonl", Implementation: matrix.Implementation{Name: "fake", Version: "1.0", Language: "go", Dialect: d, Profile: profile},
			Piconform: report.Version, Started: "2026-01-02T03:04:05.000Z",
			Cases: []matrix.Case{
				{ID: "convert/a", Kind: "convert", Rules: []string{"convert.order", "msg.strings"}, Outcome: "pass", File: "r.jsonl", Line: at + 2},
				{ID: "cost/b", Kind: "cost", Rules: []string{"msg.cost"}, Outcome: "fail", Message: "differs",
					Diffs: []matrix.Diff{{Path: "/usage/cost/total"}}, File: "r.jsonl", Line: at + 3},
			}})
	}
	if diff := cmp.Diff(want, reps, cmpopts.IgnoreUnexported(matrix.Case{})); diff != "" {
		t.Errorf("read (-want +got):\n%s", diff)
	}
}

// TestMarkdownForCI: the Markdown names its version and date, names no
// folder, links to the HTML page when there is one (and then holds no
// failure list), and fits GitHub's 1 MiB step summary however many
// failures the reports hold.
func TestMarkdownForCI(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join("testdata", "port.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	reps, err := matrix.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	m, err := matrix.Merge(reps)
	if err != nil {
		t.Fatal(err)
	}
	m.Version, m.Generated = "v1.2.3", time.Date(2026, 12, 6, 10, 30, 0, 0, time.UTC)
	md := string(matrix.Markdown(m))
	if strings.Contains(md, filepath.Dir(abs)) {
		t.Errorf("the Markdown names the folder %s:\n%s", filepath.Dir(abs), md)
	}
	if !strings.Contains(md, "Made by piconform v1.2.3, 2026-12-06 10:30 UTC.") {
		t.Errorf("the Markdown does not name its version and date:\n%s", md)
	}
	page, err := matrix.HTML(m)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(page, []byte(filepath.Dir(abs))) || !bytes.Contains(page, []byte("Made by piconform v1.2.3, 2026-12-06 10:30 UTC.")) {
		t.Errorf("the HTML names a folder or lacks its version and date")
	}

	m.HTML = "matrix.html"
	md = string(matrix.Markdown(m))
	if !strings.Contains(md, "details: [matrix.html](matrix.html)") || !strings.Contains(md, "](matrix.html#") || strings.Contains(md, "](#") {
		t.Errorf("the Markdown does not link its details to the HTML:\n%s", md)
	}
	if strings.Contains(md, "By rule family:") {
		t.Errorf("the Markdown holds failure lists the HTML has:\n%s", md)
	}

	// Many failing cases with long differences: the lists are cut.
	var big []*matrix.Report
	for n := range 4 {
		rep := &matrix.Report{File: fmt.Sprintf("r%d.jsonl", n), Implementation: matrix.Implementation{Name: "big", Version: fmt.Sprint(n)}}
		for i := range 3000 {
			c := matrix.Case{ID: fmt.Sprintf("wire/case-%04d", i), Kind: "wire", Rules: []string{"wire.request"}, Outcome: "fail", Message: strings.Repeat("m", 400)}
			for j := range 20 {
				c.Diffs = append(c.Diffs, matrix.Diff{Path: fmt.Sprintf("/events/%d/delta", j), Want: `"` + strings.Repeat("w", 200) + `"`, Got: `"g"`})
			}
			rep.Cases = append(rep.Cases, c)
		}
		big = append(big, rep)
	}
	bm, err := matrix.Merge(big)
	if err != nil {
		t.Fatal(err)
	}
	out := matrix.Markdown(bm)
	if len(out) > matrix.MaxMarkdown {
		t.Errorf("%d bytes, over %d", len(out), matrix.MaxMarkdown)
	}
	if !bytes.Contains(out, []byte("Left out to keep this document under GitHub's 1 MiB")) {
		t.Error("the cut is not said")
	}
}

func TestFamily(t *testing.T) {
	for rule, want := range map[string]string{
		"convert.bash.exit-code": "convert.bash", "convert.order": "convert", "wire.stream.order": "wire.stream", "solo": "solo",
	} {
		if got := matrix.Family(rule); got != want {
			t.Errorf("Family(%q) = %q, want %q", rule, got, want)
		}
	}
}

// The report files under testdata are real reports: every line of the
// readable ones matches spec/schemas/report.schema.json.
func TestTestdataMatchesTheReportSchema(t *testing.T) {
	schema := reportSchema(t)
	files, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	shards, _ := filepath.Glob(filepath.Join("testdata", "shards", "*.jsonl"))
	files = append(files, shards...)
	if len(files) < 5 {
		t.Fatalf("only %d report files under testdata", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(l))
			if err != nil {
				t.Fatalf("%s:%d: %v", f, i+1, err)
			}
			if err := schema.Validate(doc); err != nil {
				t.Errorf("%s:%d does not match report.schema.json: %v", f, i+1, err)
			}
		}
	}
}

func reportSchema(t *testing.T) *jsonschema.Schema {
	return schemastest.Compile(t, "report.schema.json")
}
