package report_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/report"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/subject"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

func diffResult(id string, diffs ...compare.Diff) run.Result {
	m := compare.NewMismatch(diffs)
	return run.Result{Case: mkCase(id, "wire.request"), Outcome: run.Fail, Message: m.Error(), Mismatch: m, Diffs: diffs}
}

func TestCauses(t *testing.T) {
	strict := func(i int) compare.Diff {
		return compare.Diff{Path: fmt.Sprintf("/requests/0/body/tools/%d/strict", i), Want: jsonv.BoolValue(true)}
	}
	tests := []struct {
		name    string
		results []run.Result
		want    []report.Cause
	}{
		{"one systematic bug, however deep it first shows", []run.Result{
			diffResult("wire/a", compare.Diff{Path: "/requests/0/body/model", Want: jsonv.StringValue("x"), Got: jsonv.StringValue("y")}, strict(0), strict(1)),
			diffResult("wire/b", strict(3)),
			diffResult("wire/c", strict(0), compare.Diff{Path: "/events/4/partial", Got: jsonv.NullValue()}),
		}, []report.Cause{
			{What: "/requests/*/body/tools/*/strict missing", Cases: []string{"wire/a", "wire/b", "wire/c"}},
			{What: "/requests/*/body/model differs", Cases: []string{"wire/a"}},
			{What: "/events/*/partial unexpected", Cases: []string{"wire/c"}},
		}},
		{"broken cases by outcome and message, numbers aside", []run.Result{
			{Case: mkCase("cost/a"), Outcome: run.Timeout, Message: "no answer (10s)"},
			{Case: mkCase("cost/b"), Outcome: run.Timeout, Message: "no answer (12s)\nmore"},
			{Case: mkCase("cost/c"), Outcome: run.Crash, Message: "exit status 2"},
		}, []report.Cause{
			{What: "timeout: no answer (Ns)", Cases: []string{"cost/a", "cost/b"}},
			{What: "crash: exit status N", Cases: []string{"cost/c"}},
		}},
		{"a failure without paths is its message", []run.Result{
			{Case: mkCase("wire/x"), Outcome: run.Fail, Message: "events out of order"},
		}, []report.Cause{{What: "fail: events out of order", Cases: []string{"wire/x"}}}},
		{"nothing failed", nil, []report.Cause{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := report.Causes(tt.results)
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") })); diff != "" {
				t.Errorf("Causes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPathPattern(t *testing.T) {
	for in, want := range map[string]string{
		"":                           "/",
		"/body/tools/0/strict":       "/body/tools/*/strict",
		"/requests/12/headers/x-1":   "/requests/*/headers/x-1",
		"/events/3/message/usage/10": "/events/*/message/usage/*",
		"/a1/b":                      "/a1/b",
	} {
		if got := report.PathPattern(in); got != want {
			t.Errorf("PathPattern(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestJSONSinkStreams: the header is written before any case, each case
// line as its case ends, and the cases that never ran at the end.
func TestJSONSinkStreams(t *testing.T) {
	s := summary(t)
	s.Profile = "typed"
	var b bytes.Buffer
	sink := &report.JSONSink{W: &b}
	lines := func() int { return strings.Count(b.String(), "\n") }

	sink.Begin(report.HeadOf(s))
	if lines() != 1 || !strings.Contains(b.String(), `"type":"header"`) || !strings.Contains(b.String(), `"profile":"typed"`) {
		t.Fatalf("after Begin:\n%s", b.String())
	}
	sink.Case(s.Results[1], 1, len(s.Results))
	if lines() != 2 || !strings.Contains(b.String(), `"id":"convert/fail"`) {
		t.Fatalf("after one case:\n%s", b.String())
	}
	sink.End(s) // the other results never reached Case (an interrupted run)
	got := validateLines(t, reportSchema(t), b.Bytes())
	if len(got) != len(s.Results)+2 || got[len(got)-1]["type"] != "footer" {
		t.Fatalf("%d lines for %d cases", len(got), len(s.Results))
	}
	seen := map[any]int{}
	for _, l := range got[1 : len(got)-1] {
		seen[l["id"]]++
	}
	for _, r := range s.Results {
		if seen[r.Case.ID] != 1 {
			t.Errorf("case %s written %d times", r.Case.ID, seen[r.Case.ID])
		}
	}
}

// TestTerminalSinkStreams: the header, each failure and progress appear as
// the run goes, and the end groups the failures and names the command that
// records them.
func TestTerminalSinkStreams(t *testing.T) {
	s := summary(t)
	var b bytes.Buffer
	sink := &report.TerminalSink{W: &b, ProgressEvery: time.Nanosecond, Suite: "built-in",
		WriteExpect: func(d dialect.Dialect) string {
			return "piconform run --dialect " + d.String() + " --write-expect expected.txt"
		}}
	sink.Begin(report.HeadOf(s))
	if want := fmt.Sprintf("suite: built-in\npiconform %s: fake 1.0 (go), dialect 0.80 (Pi 0.80.2), 9 cases\n", report.Version); b.String() != want {
		t.Fatalf("header %q, want %q", b.String(), want)
	}
	b.Reset()
	sink.Case(s.Results[0], 1, 9) // a pass: nothing
	sink.Case(s.Results[1], 2, 9)
	if want := "FAIL convert/fail: /messages/0/content: want \"a\", got \"b\"\n"; b.String() != want {
		t.Fatalf("failure line %q, want %q", b.String(), want)
	}
	b.Reset()
	sink.Case(s.Results[4], 3, 9) // an expected failure: nothing without -v
	if b.Len() != 0 {
		t.Errorf("an expected failure printed %q", b.String())
	}
	time.Sleep(time.Millisecond)
	sink.Progress(report.Progress{Done: 3, Total: 9, Failing: 1, Elapsed: 12 * time.Second,
		Running: []report.Running{{ID: "cost/error", For: 11 * time.Second}, {ID: "cost/skip", For: time.Second}}})
	if want := "… 3/9 cases done, 1 failing, 12s; running cost/error (11s) and 1 more\n"; b.String() != want {
		t.Errorf("progress line %q, want %q", b.String(), want)
	}
	b.Reset()
	sink.End(s)
	for _, want := range []string{
		"Failures by cause (5 failing cases):",
		"Failing cases:\n  convert/fail cost/error",
		"To record them as expected failures (with the paths each differs at):\n  piconform run --dialect 0.80 --write-expect expected.txt\n",
		"does not conform",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the end lacks %q:\n%s", want, b.String())
		}
	}
}

// TestProgressEvery: without a status terminal a progress line is written
// at most once per ProgressEvery.
func TestProgressEvery(t *testing.T) {
	var b bytes.Buffer
	sink := &report.TerminalSink{W: &b, ProgressEvery: time.Hour}
	sink.Begin(report.Head{Cases: 1})
	b.Reset()
	sink.Progress(report.Progress{Done: 0, Total: 1})
	if b.Len() != 0 {
		t.Errorf("a progress line before ProgressEvery: %q", b.String())
	}
}

func TestAnnotations(t *testing.T) {
	s := summary(t)
	var b bytes.Buffer
	report.Replay(&report.TerminalSink{W: &b, GitHub: true}, s)
	var got []string
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "::") {
			got = append(got, l)
		}
	}
	want := []string{
		"::error file=fixtures/convert/fail.json,title=convert/fail::/messages/0/content: want \"a\", got \"b\"%0A%0Adiff (-want +got):%0A/messages/0/content%0A  - \"a\"%0A  + \"b\"",
		"::error file=fixtures/cost/error.json,title=cost/error::TypeError: " + strings.Repeat("😀", 80) + " | pipes \\x1b[31m and \\x00 control \\xed\\xa0\\xbd surrogate",
		"::error file=fixtures/normalize/crash.json,title=normalize/crash::the implementation exited: exit status 3",
		"::error file=fixtures/normalize/timeout.json,title=normalize/timeout::no answer before the deadline",
		"::error file=fixtures/sanitize/protocol.json,title=sanitize/protocol::not a JSON frame: <html>",
		"::error file=fixtures/sanitize/unexpected-pass.json,title=sanitize/unexpected-pass::passes, but line 2 of the expectations file says it fails; remove the entry",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("annotations (-want +got):\n%s", diff)
	}

	// A property's own separators are escaped.
	odd := run.Result{Case: mkCase("wire/a"), Outcome: run.Error, Message: "100% broken\r\nsecond"}
	odd.Case.File = "dir,with:odd/fixtures/wire/a.json"
	b.Reset()
	report.Replay(&report.TerminalSink{W: &b, GitHub: true}, runSummary(t, []run.Result{odd}, nil, []string{"wire/a"}))
	if want := "::error file=dir%2Cwith%3Aodd/fixtures/wire/a.json,title=wire/a::100%25 broken\\x0d%0Asecond\n"; !strings.Contains(b.String(), want) {
		t.Errorf("escaped annotation missing %q:\n%s", want, b.String())
	}
}

// TestLiveTicks: Live calls Progress on its own while cases run, naming the
// case in flight, and stops at End.
func TestLiveTicks(t *testing.T) {
	rec := &recorder{}
	l := &report.Live{Sinks: []report.Sink{rec}, Tick: 5 * time.Millisecond}
	c := mkCase("wire/slow")
	l.Begin(report.Head{Cases: 1})
	l.Started(c)
	deadline := time.Now().Add(5 * time.Second)
	for {
		rec.mu.Lock()
		n := len(rec.progress)
		var last report.Progress
		if n > 0 {
			last = rec.progress[n-1]
		}
		rec.mu.Unlock()
		if n >= 2 {
			if len(last.Running) != 1 || last.Running[0].ID != "wire/slow" || last.Total != 1 {
				t.Errorf("progress %+v", last)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no progress within 5 s")
		}
		time.Sleep(time.Millisecond)
	}
	r := run.Result{Case: c, Outcome: run.Fail, Message: "x"}
	l.Done(1, 1, r)
	s := runSummary(t, []run.Result{r}, nil, []string{"wire/slow"})
	l.End(s)
	rec.mu.Lock()
	n := len(rec.progress)
	rec.mu.Unlock()
	time.Sleep(20 * time.Millisecond)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.progress) != n {
		t.Error("Progress called after End")
	}
	if rec.cases != 1 || !rec.ended {
		t.Errorf("cases %d, ended %v", rec.cases, rec.ended)
	}
}

type recorder struct {
	mu       sync.Mutex
	progress []report.Progress
	cases    int
	ended    bool
}

func (r *recorder) Begin(report.Head) {}
func (r *recorder) Case(run.Result, int, int) {
	r.mu.Lock()
	r.cases++
	r.mu.Unlock()
}
func (r *recorder) Progress(p report.Progress) {
	r.mu.Lock()
	r.progress = append(r.progress, p)
	r.mu.Unlock()
}
func (r *recorder) End(*run.Summary) {
	r.mu.Lock()
	r.ended = true
	r.mu.Unlock()
}

// TestJUnitTotalsAndTimes: the attributes JUnit's readers look for.
func TestJUnitTotalsAndTimes(t *testing.T) {
	s := summary(t)
	s.Profile = "typed"
	var doc struct {
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Skipped  int    `xml:"skipped,attr"`
		Time     string `xml:"time,attr"`
		Suites   []struct {
			Name       string `xml:"name,attr"`
			Time       string `xml:"time,attr"`
			Timestamp  string `xml:"timestamp,attr"`
			Properties []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
			Cases []struct {
				Classname string `xml:"classname,attr"`
				Time      string `xml:"time,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(report.JUnit(s), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Tests != 9 || doc.Failures != 1 || doc.Errors != 4 || doc.Skipped != 2 || doc.Time != "1.500" {
		t.Errorf("totals tests=%d failures=%d errors=%d skipped=%d time=%s", doc.Tests, doc.Failures, doc.Errors, doc.Skipped, doc.Time)
	}
	for _, ts := range doc.Suites {
		if ts.Timestamp != "2026-01-02T03:04:05" || ts.Time == "" {
			t.Errorf("suite %s: timestamp %q, time %q", ts.Name, ts.Timestamp, ts.Time)
		}
		props := map[string]string{}
		for _, p := range ts.Properties {
			props[p.Name] = p.Value
		}
		want := map[string]string{"piconform.version": report.Version, "implementation.name": "fake", "implementation.version": "1.0",
			"implementation.language": "go", "dialect": "0.80", "dialect.release": "0.80.2", "profile": "typed"}
		if diff := cmp.Diff(want, props); diff != "" {
			t.Errorf("suite %s properties (-want +got):\n%s", ts.Name, diff)
		}
		for _, c := range ts.Cases {
			if c.Classname != "piconform."+ts.Name || c.Time == "" {
				t.Errorf("suite %s: case classname %q, time %q", ts.Name, c.Classname, c.Time)
			}
		}
	}
}

// TestMarkdownFitsStepSummary: a run with thousands of failing cases with
// long differences still fits GitHub's 1 MiB step summary.
func TestMarkdownFitsStepSummary(t *testing.T) {
	var results []run.Result
	var ids []string
	long := jsonv.StringValue(strings.Repeat("x", 300))
	for i := range 3000 {
		id := fmt.Sprintf("wire/case-%04d", i)
		var diffs []compare.Diff
		for j := range 25 {
			diffs = append(diffs, compare.Diff{Path: fmt.Sprintf("/events/%d/delta", j), Want: long, Got: jsonv.StringValue("y")})
		}
		results = append(results, diffResult(id, diffs...))
		ids = append(ids, id)
	}
	s := runSummary(t, results, nil, ids)
	s.Implementation = subject.Implementation{Name: "big", Version: "1"}
	for _, sums := range [][]*run.Summary{{s}, {s, s}} {
		md := report.Markdown(sums...)
		if len(md) > report.MaxMarkdown {
			t.Errorf("%d summaries: %d bytes, over %d", len(sums), len(md), report.MaxMarkdown)
		}
		for _, want := range []string{"are left out to keep this summary under GitHub's 1 MiB", "| 3000 | <code>/events/*/delta differs</code> |",
			"piconform " + report.Version + ", 2026-01-02 03:04 UTC, 3000 cases."} {
			if !bytes.Contains(md, []byte(want)) {
				t.Errorf("%d summaries: the Markdown lacks %q", len(sums), want)
			}
		}
	}
}
