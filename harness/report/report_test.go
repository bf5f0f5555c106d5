package report_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/expect"
	"github.com/piconform/piconform/harness/report"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/subject"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/spec/schemastest"
)

// Schemas are registered from disk under their $id, as in
// spec/schemastest; nothing is fetched.

func reportSchema(t *testing.T) *jsonschema.Schema {
	return schemastest.Compile(t, "report.schema.json")
}

func mkCase(id string, rules ...string) *suite.Case {
	kind, _, _ := strings.Cut(id, "/")
	return &suite.Case{ID: id, Kind: kind, Rules: rules, File: "fixtures/" + id + ".json"}
}

func mismatch(t *testing.T, want, got string) *compare.Mismatch {
	t.Helper()
	w, err := jsonv.Parse([]byte(want))
	if err != nil {
		t.Fatal(err)
	}
	g, err := jsonv.Parse([]byte(got))
	if err != nil {
		t.Fatal(err)
	}
	m := compare.Compare(w, g, nil)
	if m == nil {
		t.Fatal("no mismatch")
	}
	return m
}

// summary has every outcome, an expected failure, an unexpected pass and a
// stale expectation.
func summary(t *testing.T) *run.Summary {
	t.Helper()
	exp, err := expect.Parse("exp.txt", []byte("cost/expected-fail  # known\nsanitize/unexpected-pass  # was broken\nnone/such  # stale | entry\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := mismatch(t, `{"messages":[{"role":"user","content":"a"}]}`, `{"messages":[{"role":"user","content":"b"}]}`)
	longMsg := "TypeError: " + strings.Repeat("😀", 80) + " | pipes \x1b[31m and \x00 control \xed\xa0\xbd surrogate"
	results := []run.Result{
		{Case: mkCase("convert/pass", "convert.user"), Outcome: run.Pass, Duration: 3 * time.Millisecond},
		{Case: mkCase("convert/fail", "convert.user"), Outcome: run.Fail, Message: m.Error(), Mismatch: m, Duration: time.Millisecond},
		{Case: mkCase("cost/skip", "msg.cost"), Outcome: run.Skip, Message: "not implemented", Link: "https://example.com/1"},
		{Case: mkCase("cost/error", "msg.cost"), Outcome: run.Error, Message: longMsg},
		{Case: mkCase("cost/expected-fail", "msg.cost"), Outcome: run.Fail, Message: "/usage/cost: want 1, got 2"},
		{Case: mkCase("normalize/crash", "norm.x"), Outcome: run.Crash, Message: "the implementation exited: exit status 3"},
		{Case: mkCase("normalize/timeout", "norm.x"), Outcome: run.Timeout, Message: "no answer before the deadline"},
		{Case: mkCase("sanitize/protocol", "san.surrogates"), Outcome: run.Protocol, Message: "not a JSON frame: <html>"},
		{Case: mkCase("sanitize/unexpected-pass", "san.surrogates"), Outcome: run.Pass},
	}
	var ids []string
	for _, r := range results {
		ids = append(ids, r.Case.ID)
	}
	s := runSummary(t, results, exp, ids)
	s.Implementation = subject.Implementation{Name: "fake", Version: "1.0", Language: "go", Kinds: []string{"convert"}, APIs: []string{}}
	return s
}

// runSummary builds a summary of results, tallied as the runner tallies.
func runSummary(t *testing.T, results []run.Result, exp *expect.File, allIDs []string) *run.Summary {
	t.Helper()
	s := &run.Summary{
		Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Duration: 1500 * time.Millisecond,
		Results: results, Counts: map[run.Outcome]int{},
	}
	broke, ran := 0, 0
	for i := range s.Results {
		r := &s.Results[i]
		if e, ok := exp.Match(r.Case.ID); ok && r.Outcome != run.Skip {
			r.Expected = &e
			if r.Outcome == run.Pass {
				s.UnexpectedPasses = append(s.UnexpectedPasses, *r)
			} else {
				s.ExpectedFailures++
			}
		}
		s.Counts[r.Outcome]++
		if r.Outcome != run.Skip {
			ran++
			if r.Outcome != run.Pass && r.Outcome != run.Fail {
				broke++
			}
		}
	}
	s.Broken = ran > 0 && broke == ran
	s.Unmatched = exp.Unmatched(allIDs)
	return s
}

func validateLines(t *testing.T, schema *jsonschema.Schema, data []byte) []map[string]any {
	t.Helper()
	if !bytes.HasSuffix(data, []byte("\n")) {
		t.Error("the report does not end with a newline")
	}
	var lines []map[string]any
	for i, l := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(l))
		if err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", i+1, err, l)
		}
		if err := schema.Validate(doc); err != nil {
			t.Errorf("line %d does not match report.schema.json: %v\n%s", i+1, err, l)
		}
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, m)
	}
	return lines
}

func TestJSONLines(t *testing.T) {
	schema := reportSchema(t)
	s := summary(t)
	lines := validateLines(t, schema, report.JSONLines(s))
	if len(lines) != len(s.Results)+2 {
		t.Fatalf("%d lines for %d cases", len(lines), len(s.Results))
	}
	if lines[0]["type"] != "header" || lines[len(lines)-1]["type"] != "footer" {
		t.Errorf("first %v, last %v", lines[0]["type"], lines[len(lines)-1]["type"])
	}
	if lines[0]["cases"] != float64(len(s.Results)) {
		t.Errorf("header cases %v", lines[0]["cases"])
	}
	byID := map[string]map[string]any{}
	for _, l := range lines[1 : len(lines)-1] {
		if l["type"] != "case" {
			t.Errorf("a middle line of type %v", l["type"])
		}
		byID[l["id"].(string)] = l
	}
	if l := byID["convert/fail"]; l["path"] != "/messages/0/content" || !strings.Contains(l["diff"].(string), `"b"`) {
		t.Errorf("fail line %v", l)
	}
	if l := byID["cost/expected-fail"]; l["expected_failure"] != true || l["outcome"] != "fail" {
		t.Errorf("expected failure line %v", l)
	}
	if l := byID["sanitize/unexpected-pass"]; l["unexpected_pass"] != true || l["expected_failure"] != nil {
		t.Errorf("unexpected pass line %v", l)
	}
	if l := byID["cost/skip"]; l["link"] != "https://example.com/1" {
		t.Errorf("skip line %v", l)
	}
	if l := byID["convert/pass"]; l["duration_ms"] != float64(3) || l["message"] != nil {
		t.Errorf("pass line %v", l)
	}
	footer := lines[len(lines)-1]
	counts := footer["counts"].(map[string]any)
	for _, o := range run.Outcomes {
		if counts[string(o)] != float64(s.Counts[o]) {
			t.Errorf("footer count %s = %v, want %d", o, counts[string(o)], s.Counts[o])
		}
	}
	if footer["exit_code"] != float64(1) || footer["expected_failures"] != float64(1) || footer["broken"] != false {
		t.Errorf("footer %v", footer)
	}
	if up := footer["unexpected_passes"].([]any); len(up) != 1 || up[0] != "sanitize/unexpected-pass" {
		t.Errorf("unexpected passes %v", up)
	}
	if um := footer["unmatched_expectations"].([]any); len(um) != 1 || um[0].(map[string]any)["line"] != float64(3) {
		t.Errorf("unmatched %v", um)
	}
}

// TestJSONLinesEdgeCases: a run of no cases, and a run in which the
// implementation never said hello, still give valid reports.
func TestJSONLinesEdgeCases(t *testing.T) {
	schema := reportSchema(t)
	empty := runSummary(t, nil, nil, nil)
	validateLines(t, schema, report.JSONLines(empty))

	noHello := runSummary(t, []run.Result{
		{Case: mkCase("sanitize/a", "san.x"), Outcome: run.Crash, Message: "starting the implementation: exited"},
	}, nil, []string{"sanitize/a"})
	noHello.Implementation = subject.Implementation{}
	lines := validateLines(t, schema, report.JSONLines(noHello))
	if f := lines[len(lines)-1]; f["broken"] != true || f["exit_code"] != float64(1) {
		t.Errorf("footer %v", f)
	}
}

func TestJUnit(t *testing.T) {
	s := summary(t)
	data := report.JUnit(s)
	if !utf8.Valid(data) {
		t.Error("invalid UTF-8")
	}
	// Well-formed: the decoder reads every token.
	dec := xml.NewDecoder(bytes.NewReader(data))
	for {
		if _, err := dec.Token(); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, data)
		}
	}
	type testcase struct {
		Name    string    `xml:"name,attr"`
		Failure *struct{} `xml:"failure"`
		Error   *struct {
			Type string `xml:"type,attr"`
		} `xml:"error"`
		Skipped *struct {
			Message string `xml:"message,attr"`
		} `xml:"skipped"`
	}
	var doc struct {
		XMLName xml.Name `xml:"testsuites"`
		Suites  []struct {
			Name     string     `xml:"name,attr"`
			Tests    int        `xml:"tests,attr"`
			Failures int        `xml:"failures,attr"`
			Errors   int        `xml:"errors,attr"`
			Skipped  int        `xml:"skipped,attr"`
			Cases    []testcase `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string][4]int{}
	total := 0
	for _, ts := range doc.Suites {
		got[ts.Name] = [4]int{ts.Tests, ts.Failures, ts.Errors, ts.Skipped}
		if len(ts.Cases) != ts.Tests {
			t.Errorf("suite %s: tests=%d but %d testcases", ts.Name, ts.Tests, len(ts.Cases))
		}
		total += len(ts.Cases)
		f, e, sk := 0, 0, 0
		for _, c := range ts.Cases {
			if c.Failure != nil {
				f++
			}
			if c.Error != nil {
				e++
			}
			if c.Skipped != nil {
				sk++
			}
		}
		if f != ts.Failures || e != ts.Errors || sk != ts.Skipped {
			t.Errorf("suite %s: attributes %v, elements %d/%d/%d", ts.Name, got[ts.Name], f, e, sk)
		}
	}
	want := map[string][4]int{
		"convert":   {2, 1, 0, 0},
		"cost":      {3, 0, 1, 2}, // skip, error, expected failure (skipped)
		"normalize": {2, 0, 2, 0},
		"sanitize":  {2, 0, 1, 0},
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("suite %s: tests/failures/errors/skipped = %v, want %v", k, got[k], w)
		}
	}
	if total != len(s.Results) {
		t.Errorf("%d testcases for %d results", total, len(s.Results))
	}
}

func TestMarkdown(t *testing.T) {
	s := summary(t)
	md := string(report.Markdown(s))
	if !utf8.ValidString(md) {
		t.Error("invalid UTF-8")
	}
	for _, want := range []string{
		"## piconform: <code>fake 1.0</code>, dialect 0.80 — ❌ does not conform",
		"| pass | 2 |", "| fail | 2 |", "| error | 1 |", "| expected failures | 1 |",
		"### Failures",
		"| `convert/fail` | fail | <code>/messages/0/content</code> |",
		"| `cost/error` | error |",
		"| `normalize/crash` | crash |",
		"| `normalize/timeout` | timeout |",
		"| `sanitize/protocol` | protocol |",
		"### Unexpected passes", "- `sanitize/unexpected-pass`",
		"### Stale expectations", "- line 3: `none/such` (stale \\| entry)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "`cost/expected-fail`") {
		t.Error("an expected failure is listed among failures")
	}
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "| `cost/error`") && strings.Count(strings.ReplaceAll(l, `\|`, ""), "|") != 5 {
			t.Errorf("a failure row with a broken table: %q", l)
		}
	}

	ok := runSummary(t, []run.Result{{Case: mkCase("sanitize/a", "san.x"), Outcome: run.Pass}}, nil, []string{"sanitize/a"})
	if md := string(report.Markdown(ok)); !strings.Contains(md, "✅ conforms") || strings.Contains(md, "### Failures") {
		t.Errorf("a passing run:\n%s", md)
	}
	broken := runSummary(t, []run.Result{{Case: mkCase("sanitize/a", "san.x"), Outcome: run.Crash, Message: "x"}}, nil, []string{"sanitize/a"})
	if md := string(report.Markdown(broken)); !strings.Contains(md, "adapter itself looks broken") {
		t.Errorf("a broken run:\n%s", md)
	}
}

func TestTerminal(t *testing.T) {
	s := summary(t)
	var plain bytes.Buffer
	report.Terminal(&plain, s, report.Style{Color: false}, false)
	out := plain.String()
	if strings.Contains(out, "\x1b[3") || strings.Contains(out, "\x1b[0m") {
		t.Errorf("escape codes without colour:\n%q", out)
	}
	for _, want := range []string{
		"piconform ", "fake 1.0 (go)",
		"FAIL convert/fail: /messages/0/content", "diff (-want +got):", "fixtures/convert/fail.json",
		"ERROR cost/error", "CRASH normalize/crash", "TIMEOUT normalize/timeout", "PROTOCOL sanitize/protocol",
		"UNEXPECTED PASS sanitize/unexpected-pass", "line 2 of the expectations file",
		"STALE EXPECTATION line 3", "9 cases, dialect 0.80: 2 pass, 2 fail, 1 skip, 1 error, 1 crash, 1 timeout, 1 protocol, 1 expected failures",
		"Failures by cause (5 failing cases):\n  1 case: /messages/*/content differs\n",
		"Failing cases:\n  convert/fail cost/error normalize/crash normalize/timeout sanitize/protocol\n",
		"does not conform",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	for _, quiet := range []string{"convert/pass", "cost/skip"} {
		if strings.Contains(out, quiet+"\n") || strings.Contains(out, quiet+":") {
			t.Errorf("%s is listed without -v", quiet)
		}
	}

	if strings.Contains(out, "XFAIL") {
		t.Errorf("an expected failure is listed without -v:\n%s", out)
	}

	var verbose bytes.Buffer
	report.Terminal(&verbose, s, report.Style{Color: false}, true)
	for _, want := range []string{"PASS convert/pass", "SKIP cost/skip: not implemented", "XFAIL cost/expected-fail", "expected failure: known"} {
		if !strings.Contains(verbose.String(), want) {
			t.Errorf("-v does not list %q:\n%s", want, verbose.String())
		}
	}

	var color bytes.Buffer
	report.Terminal(&color, s, report.Style{Color: true}, false)
	if !strings.Contains(color.String(), "\x1b[31mFAIL\x1b[0m convert/fail") {
		t.Errorf("no colour with Color: true:\n%q", color.String())
	}

	ok := runSummary(t, []run.Result{{Case: mkCase("sanitize/a", "san.x"), Outcome: run.Pass}}, nil, []string{"sanitize/a"})
	var b bytes.Buffer
	report.Terminal(&b, ok, report.Style{}, false)
	if !strings.HasSuffix(b.String(), "\nconforms\n") {
		t.Errorf("a passing run:\n%s", b.String())
	}
	broken := runSummary(t, []run.Result{{Case: mkCase("sanitize/a", "san.x"), Outcome: run.Error, Message: "x"}}, nil, []string{"sanitize/a"})
	b.Reset()
	report.Terminal(&b, broken, report.Style{}, false)
	if !strings.Contains(b.String(), "the adapter itself looks broken") {
		t.Errorf("a broken run:\n%s", b.String())
	}
}

func TestStyleFor(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	t.Setenv("NO_COLOR", "")
	if report.StyleFor(f).Color {
		t.Error("colour for a regular file")
	}
	t.Setenv("NO_COLOR", "1")
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if report.StyleFor(tty).Color {
			t.Error("colour on a terminal with NO_COLOR set")
		}
	}
}

func TestExitCode(t *testing.T) {
	if c := report.ExitCode(summary(t)); c != 1 {
		t.Errorf("ExitCode = %d, want 1", c)
	}
	ok := runSummary(t, []run.Result{{Case: mkCase("sanitize/a", "san.x"), Outcome: run.Skip, Message: "x"}}, nil, []string{"sanitize/a"})
	if c := report.ExitCode(ok); c != 0 {
		t.Errorf("ExitCode = %d, want 0", c)
	}
}

// TestDiffListsInEveryFormat: every format carries the differences with
// path, want and got as JSON, at most report.MaxDiffs plus a count of the
// rest, and the notes.
func TestDiffListsInEveryFormat(t *testing.T) {
	var diffs []compare.Diff
	diffs = append(diffs, compare.Diff{Path: "/requests/0/body/extra", Got: jsonv.NumberValue("30")})
	diffs = append(diffs, compare.Diff{Path: "/requests/0/headers/x-gone", Want: jsonv.StringValue("a|b`c")})
	for i := range 23 {
		diffs = append(diffs, compare.Diff{Path: fmt.Sprintf("/events/%d/delta", i),
			Want: jsonv.ObjectValue(jsonv.Member{Key: "k", Value: jsonv.NumberValue("1.50")}), Got: jsonv.ArrayValue(jsonv.NullValue())})
	}
	m := compare.NewMismatch(diffs)
	note := `/requests/0/headers/user-agent: want "Anthropic/JS 0.91.1", got "Go-http-client/1.1" (identity header: not compared without --strict-identity)`
	results := []run.Result{
		{Case: mkCase("wire/many", "wire.request"), Outcome: run.Fail, Message: m.Error(), Mismatch: m, Diffs: diffs, Notes: []string{note}},
		{Case: mkCase("wire/noted", "wire.request"), Outcome: run.Pass, Notes: []string{note}},
	}
	s := runSummary(t, results, nil, []string{"wire/many", "wire/noted"})
	s.Implementation = subject.Implementation{Name: "fake", Version: "1", Language: "go", Kinds: []string{"wire"}, APIs: []string{}}

	lines := validateLines(t, reportSchema(t), report.JSONLines(s))
	many, noted := lines[1], lines[2]
	got := many["diffs"].([]any)
	if len(got) != report.MaxDiffs || many["diffs_omitted"] != float64(5) || many["path"] != "/requests/0/body/extra" {
		t.Errorf("JSON: %d diffs, omitted %v, path %v", len(got), many["diffs_omitted"], many["path"])
	}
	first, second, third := got[0].(map[string]any), got[1].(map[string]any), got[2].(map[string]any)
	if _, has := first["want"]; has || first["got"] != float64(30) {
		t.Errorf("JSON diff 0: %v", first)
	}
	if _, has := second["got"]; has || second["want"] != "a|b`c" {
		t.Errorf("JSON diff 1: %v", second)
	}
	if w, ok := third["want"].(map[string]any); !ok || w["k"] != 1.5 {
		t.Errorf("JSON diff 2: %v", third)
	}
	if n := noted["notes"].([]any); len(n) != 1 || n[0] != note {
		t.Errorf("JSON notes %v", noted["notes"])
	}

	var term bytes.Buffer
	report.Terminal(&term, s, report.Style{}, false)
	md, junit := string(report.Markdown(s)), string(report.JUnit(s))
	for name, text := range map[string]string{"terminal": term.String(), "markdown": md, "junit": junit} {
		if !strings.Contains(text, "/events/17/delta") || strings.Contains(text, "/events/18/delta") {
			t.Errorf("%s: not capped at %d:\n%s", name, report.MaxDiffs, text)
		}
		if !strings.Contains(text, "5 more differences") {
			t.Errorf("%s: no count of the rest:\n%s", name, text)
		}
		if !strings.Contains(text, "Go-http-client/1.1") {
			t.Errorf("%s: no note:\n%s", name, text)
		}
	}
	if !strings.Contains(term.String(), "/events/0/delta\n        - {\"k\":1.50}\n        + [null]\n") {
		t.Errorf("terminal:\n%s", term.String())
	}
	if !strings.Contains(term.String(), "NOTE 1 passing case with notes") {
		t.Errorf("terminal does not count the noted passing case:\n%s", term.String())
	}
	if !strings.Contains(md, "| <code>/requests/0/headers/x-gone</code> | <code>&#34;a&#124;b`c&#34;</code> | *absent* |") {
		t.Errorf("markdown:\n%s", md)
	}
	if !strings.Contains(junit, "<system-out>note: /requests/0/headers/user-agent") {
		t.Errorf("junit:\n%s", junit)
	}
}

// TestStartFailuresInEveryFormat: a process that did not start is said in
// every report, apart from the cases (none of which it charged).
func TestStartFailuresInEveryFormat(t *testing.T) {
	results := []run.Result{{Case: mkCase("sanitize/a", "san.surrogates"), Outcome: run.Pass}}
	s := runSummary(t, results, nil, []string{"sanitize/a"})
	s.StartFailures = []run.StartFailure{{Worker: 2, Outcome: "timeout", Message: "no hello within the start deadline of 1s"}}

	lines := validateLines(t, reportSchema(t), report.JSONLines(s))
	footer := lines[len(lines)-1]
	sf, _ := footer["start_failures"].([]any)
	if len(sf) != 1 || sf[0].(map[string]any)["worker"] != float64(2) || sf[0].(map[string]any)["outcome"] != "timeout" {
		t.Errorf("JSON footer start_failures = %v", footer["start_failures"])
	}
	var term bytes.Buffer
	report.Terminal(&term, s, report.Style{}, false)
	for name, text := range map[string]string{"terminal": term.String(), "markdown": string(report.Markdown(s)), "junit": string(report.JUnit(s))} {
		if !strings.Contains(text, "implementation process 2 did not start (timeout: no hello within the start deadline of 1s); no case was charged") {
			t.Errorf("%s does not say the process did not start:\n%s", name, text)
		}
	}
}
