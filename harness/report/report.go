// Package report renders a run's summary: for a terminal, as JSON lines
// (schema: spec/schemas/report.schema.json), as JUnit XML and as Markdown.
package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/printable"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/subject"
	"github.com/piconform/piconform/reference/jsonv"
)

// Version of piconform written into reports.
var Version = "0.1.0"

// SchemaVersion is the version of the JSON report format, written into its
// header so readers (piconform report) can refuse a format they do not know.
// Adding members keeps it; changing or removing one raises it.
const SchemaVersion = 1

// ExitInterrupted is the exit code of an interrupted run: 128 + SIGINT, as
// shells report a command stopped by Ctrl-C.
const ExitInterrupted = 130

// ExitCode is the process exit code for the summaries of a run (one per
// dialect): 0 when each conforms, 1 when one does not, ExitInterrupted when
// the run was interrupted.
func ExitCode(sums ...*run.Summary) int {
	code := 0
	for _, s := range sums {
		if s.Interrupted {
			return ExitInterrupted
		}
		if !s.OK() {
			code = 1
		}
	}
	return code
}

type header struct {
	Type           string `json:"type"`
	Schema         int    `json:"schema"`
	Piconform      string `json:"piconform"`
	Implementation any    `json:"implementation"`
	Dialect        string `json:"dialect"`
	Started        string `json:"started"`
	Cases          int    `json:"cases"`
}

type caseLine struct {
	Type            string     `json:"type"`
	ID              string     `json:"id"`
	Kind            string     `json:"kind"`
	Rules           []string   `json:"rules"`
	Outcome         string     `json:"outcome"`
	ExpectedFailure bool       `json:"expected_failure,omitempty"`
	UnexpectedPass  bool       `json:"unexpected_pass,omitempty"`
	Message         string     `json:"message,omitempty"`
	Path            string     `json:"path,omitempty"`
	Diff            string     `json:"diff,omitempty"`
	Diffs           []diffLine `json:"diffs,omitempty"`
	DiffsOmitted    int        `json:"diffs_omitted,omitempty"`
	Notes           []string   `json:"notes,omitempty"`
	Link            string     `json:"link,omitempty"`
	DurationMS      int64      `json:"duration_ms"`
}

// diffLine is one difference in the JSON report; a side that is not there
// is left out.
type diffLine struct {
	Path string          `json:"path"`
	Want json.RawMessage `json:"want,omitempty"`
	Got  json.RawMessage `json:"got,omitempty"`
}

// MaxDiffs is how many differences of one case a report shows; the rest
// are counted.
const MaxDiffs = 20

// diffsOf is every difference of a result.
func diffsOf(r run.Result) []compare.Diff {
	if len(r.Diffs) > 0 {
		return r.Diffs
	}
	if r.Mismatch != nil {
		return r.Mismatch.Diffs
	}
	return nil
}

// shownDiffs caps a list at MaxDiffs and counts the rest.
func shownDiffs(r run.Result) ([]compare.Diff, int) {
	d := diffsOf(r)
	if len(d) > MaxDiffs {
		return d[:MaxDiffs], len(d) - MaxDiffs
	}
	return d, 0
}

func rawJSON(v jsonv.Value) json.RawMessage {
	if v.IsAbsent() {
		return nil
	}
	return v.AppendJSON(nil)
}

type unmatchedEntry struct {
	Pattern string `json:"pattern"`
	Reason  string `json:"reason"`
	Line    int    `json:"line"`
}

type footer struct {
	Type                  string           `json:"type"`
	Counts                map[string]int   `json:"counts"`
	ExpectedFailures      int              `json:"expected_failures"`
	UnexpectedPasses      []string         `json:"unexpected_passes"`
	UnmatchedExpectations []unmatchedEntry `json:"unmatched_expectations"`
	StartFailures         []startFailure   `json:"start_failures"`
	Broken                bool             `json:"broken"`
	ExitCode              int              `json:"exit_code"`
	DurationMS            int64            `json:"duration_ms"`
}

type startFailure struct {
	Worker  int    `json:"worker"`
	Outcome string `json:"outcome"`
	Message string `json:"message"`
}

// startFailureText says what a process that did not start cost: no case.
func startFailureText(f run.StartFailure) string {
	return fmt.Sprintf("implementation process %d did not start (%s: %s); no case was charged, and it was started again up to --max-restarts times", f.Worker, f.Outcome, f.Message)
}

func unexpectedPass(s *run.Summary, id string) bool {
	for _, r := range s.UnexpectedPasses {
		if r.Case.ID == id {
			return true
		}
	}
	return false
}

// headerImplementation fills what the schema requires when no implementation
// said hello (it never started, or no case ran).
func headerImplementation(impl subject.Implementation) subject.Implementation {
	if impl.Name == "" {
		impl.Name = "unknown"
	}
	if impl.Kinds == nil {
		impl.Kinds = []string{}
	}
	if impl.APIs == nil {
		impl.APIs = []string{}
	}
	return impl
}

// JSONLines renders each summary (one per dialect) as a header line, one
// line per case and a footer line.
func JSONLines(sums ...*run.Summary) []byte {
	var b bytes.Buffer
	for _, s := range sums {
		jsonLines(&b, s)
	}
	return b.Bytes()
}

func jsonLines(b *bytes.Buffer, s *run.Summary) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(header{Type: "header", Schema: SchemaVersion, Piconform: Version, Implementation: headerImplementation(s.Implementation), Dialect: s.Dialect.String(), Started: s.Started.UTC().Format("2006-01-02T15:04:05.000Z"), Cases: len(s.Results)})
	for _, r := range s.Results {
		l := caseLine{Type: "case", ID: r.Case.ID, Kind: r.Case.Kind, Rules: r.Case.Rules, Outcome: string(r.Outcome), ExpectedFailure: r.Expected != nil && r.Outcome != run.Pass,
			UnexpectedPass: unexpectedPass(s, r.Case.ID), Message: r.Message, Link: r.Link, DurationMS: r.Duration.Milliseconds()}
		if r.Mismatch != nil {
			l.Path = r.Mismatch.Path
		}
		shown, rest := shownDiffs(r)
		for _, d := range shown {
			l.Diffs = append(l.Diffs, diffLine{Path: d.Path, Want: rawJSON(d.Want), Got: rawJSON(d.Got)})
		}
		if len(shown) > 0 {
			l.Path = shown[0].Path
			l.Diff = compare.FormatDiffs(diffsOf(r), MaxDiffs)
		}
		l.DiffsOmitted, l.Notes = rest, r.Notes
		_ = enc.Encode(l)
	}
	f := footer{Type: "footer", Counts: map[string]int{}, ExpectedFailures: s.ExpectedFailures, UnexpectedPasses: []string{},
		UnmatchedExpectations: []unmatchedEntry{}, StartFailures: []startFailure{}, Broken: s.Broken, ExitCode: ExitCode(s), DurationMS: s.Duration.Milliseconds()}
	for _, o := range run.Outcomes {
		f.Counts[string(o)] = s.Counts[o]
	}
	for _, r := range s.UnexpectedPasses {
		f.UnexpectedPasses = append(f.UnexpectedPasses, r.Case.ID)
	}
	for _, e := range s.Unmatched {
		f.UnmatchedExpectations = append(f.UnmatchedExpectations, unmatchedEntry{Pattern: e.Pattern, Reason: e.Reason, Line: e.Line})
	}
	for _, sf := range s.StartFailures {
		f.StartFailures = append(f.StartFailures, startFailure{Worker: sf.Worker, Outcome: sf.Outcome, Message: sf.Message})
	}
	_ = enc.Encode(f)
}

// Style says how to paint terminal text.
type Style struct{ Color bool }

// StyleFor colours only a terminal, and never when NO_COLOR is set.
func StyleFor(f *os.File) Style {
	if os.Getenv("NO_COLOR") != "" {
		return Style{}
	}
	st, err := f.Stat()
	return Style{Color: err == nil && st.Mode()&os.ModeCharDevice != 0}
}

func (s Style) paint(code, text string) string {
	if !s.Color {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

var outcomeColor = map[run.Outcome]string{
	run.Pass: "32", run.Fail: "31", run.Skip: "33", run.Error: "35", run.Crash: "31;1", run.Timeout: "31;1", run.Protocol: "31;1",
}

// Terminal writes the human summary: every case that needs attention with
// its reason and diff, then the counts and the verdict.
func Terminal(w io.Writer, s *run.Summary, st Style, verbose bool) {
	impl := s.Implementation
	fmt.Fprintf(w, "piconform %s: %s, dialect %s (Pi %s)\n", Version, printable.String(fmt.Sprintf("%s %s (%s)", impl.Name, impl.Version, impl.Language)), s.Dialect, s.Dialect.Release())
	for _, r := range s.Results {
		needs := !r.Passed() || verbose
		if r.Outcome == run.Skip && !verbose {
			needs = false
		}
		if !needs {
			continue
		}
		tag := strings.ToUpper(string(r.Outcome))
		if r.Expected != nil {
			tag = "X" + tag
		}
		fmt.Fprintf(w, "%s %s", st.paint(outcomeColor[r.Outcome], tag), r.Case.ID)
		if r.Message != "" {
			fmt.Fprintf(w, ": %s", printable.String(r.Message))
		}
		fmt.Fprintln(w)
		if r.Expected != nil {
			fmt.Fprintf(w, "    expected failure: %s\n", printable.String(r.Expected.Reason))
			continue
		}
		if diffs := diffsOf(r); len(diffs) > 0 {
			fmt.Fprintf(w, "    %s\n", r.Case.File)
			fmt.Fprintf(w, "    diff (-want +got):\n%s", indent(printable.String(compare.FormatDiffs(diffs, MaxDiffs)), "      "))
		}
		for _, n := range r.Notes {
			fmt.Fprintf(w, "    note: %s\n", printable.String(n))
		}
	}
	if n := notedCases(s); n > 0 && !verbose {
		fmt.Fprintf(w, "%s %d passing %s with notes (identity headers that differ; not failures): -v or --json lists them\n",
			st.paint("36", "NOTE"), n, plural(n, "case", "cases"))
	}
	for _, r := range s.UnexpectedPasses {
		fmt.Fprintf(w, "%s %s: passes, but line %d of the expectations file says it fails; remove the entry\n",
			st.paint("33;1", "UNEXPECTED PASS"), r.Case.ID, r.Expected.Line)
	}
	for _, e := range s.Unmatched {
		fmt.Fprintf(w, "%s line %d: %q matches no case; remove it\n", st.paint("33;1", "STALE EXPECTATION"), e.Line, e.Pattern)
	}
	var parts []string
	for _, o := range run.Outcomes {
		if n := s.Counts[o]; n > 0 || o == run.Pass || o == run.Fail {
			parts = append(parts, st.paint(outcomeColor[o], fmt.Sprintf("%d %s", n, o)))
		}
	}
	if s.ExpectedFailures > 0 {
		parts = append(parts, fmt.Sprintf("%d expected failures", s.ExpectedFailures))
	}
	fmt.Fprintf(w, "\n%d cases: %s (%.1fs)\n", len(s.Results), strings.Join(parts, ", "), s.Duration.Seconds())
	for _, f := range s.StartFailures {
		fmt.Fprintln(w, st.paint("33", printable.String(startFailureText(f))))
	}
	if s.Broken {
		fmt.Fprintln(w, st.paint("31;1", "Every case that ran broke (error, crash, timeout or protocol violation): the adapter itself looks broken. Check its log."))
	}
	switch {
	case s.Interrupted:
		fmt.Fprintln(w, st.paint("33;1", "interrupted: the cases not finished are skips; no verdict"))
	case s.OK():
		fmt.Fprintln(w, st.paint("32;1", "conforms"))
	default:
		fmt.Fprintln(w, st.paint("31;1", "does not conform"))
	}
}

// notedCases counts the passing cases that have notes, which the terminal
// shows only with -v.
func notedCases(s *run.Summary) int {
	n := 0
	for _, r := range s.Results {
		if r.Passed() && len(r.Notes) > 0 {
			n++
		}
	}
	return n
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func indent(s, prefix string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString(prefix + l)
		}
	}
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	return b.String()
}

// Markdown renders a summary for a CI step summary.
func Markdown(sums ...*run.Summary) []byte {
	var b bytes.Buffer
	for i, s := range sums {
		if i > 0 {
			b.WriteString("\n")
		}
		markdown(&b, s)
	}
	return b.Bytes()
}

func markdown(b *bytes.Buffer, s *run.Summary) {
	impl := s.Implementation
	verdict := "✅ conforms"
	switch {
	case s.Interrupted:
		verdict = "⚠️ interrupted (no verdict)"
	case !s.OK():
		verdict = "❌ does not conform"
	}
	fmt.Fprintf(b, "## piconform: %s %s, dialect %s — %s\n\n", mdCell(impl.Name), mdCell(impl.Version), s.Dialect, verdict)
	b.WriteString("| outcome | cases |\n|---|---:|\n")
	for _, o := range run.Outcomes {
		fmt.Fprintf(b, "| %s | %d |\n", o, s.Counts[o])
	}
	if s.ExpectedFailures > 0 {
		fmt.Fprintf(b, "| expected failures | %d |\n", s.ExpectedFailures)
	}
	if s.Broken {
		b.WriteString("\n**Every case that ran broke: the adapter itself looks broken.**\n")
	}
	if len(s.StartFailures) > 0 {
		b.WriteString("\n### Start-up\n\n")
		for _, f := range s.StartFailures {
			fmt.Fprintf(b, "- %s\n", mdCell(startFailureText(f)))
		}
	}
	failed := s.Failed()
	if len(failed) > 0 {
		b.WriteString("\n### Failures\n\n| case | outcome | where | message |\n|---|---|---|---|\n")
		for _, r := range failed {
			where := ""
			if r.Mismatch != nil {
				where = "`" + r.Mismatch.Path + "`"
			}
			fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", r.Case.ID, r.Outcome, where, mdCell(r.Message))
		}
		for _, r := range failed {
			shown, rest := shownDiffs(r)
			if len(shown) == 0 && len(r.Notes) == 0 {
				continue
			}
			fmt.Fprintf(b, "\n#### `%s`\n", r.Case.ID)
			if len(shown) > 0 {
				b.WriteString("\n| path | want | got |\n|---|---|---|\n")
				for _, d := range shown {
					fmt.Fprintf(b, "| %s | %s | %s |\n", mdCode(d.Path), mdValue(d.Want), mdValue(d.Got))
				}
				if rest > 0 {
					fmt.Fprintf(b, "\n… and %d more %s.\n", rest, plural(rest, "difference", "differences"))
				}
			}
			for _, n := range r.Notes {
				fmt.Fprintf(b, "\n- note: %s", mdCell(n))
			}
			if len(r.Notes) > 0 {
				b.WriteString("\n")
			}
		}
	}
	if len(s.UnexpectedPasses) > 0 {
		b.WriteString("\n### Unexpected passes\n\n")
		for _, r := range s.UnexpectedPasses {
			fmt.Fprintf(b, "- `%s`\n", r.Case.ID)
		}
	}
	if len(s.Unmatched) > 0 {
		b.WriteString("\n### Stale expectations\n\n")
		for _, e := range s.Unmatched {
			fmt.Fprintf(b, "- line %d: `%s` (%s)\n", e.Line, e.Pattern, mdCell(e.Reason))
		}
	}
}

// mdValue is a JSON value in a table cell; absent when not there.
func mdValue(v jsonv.Value) string {
	if v.IsAbsent() {
		return "*absent*"
	}
	return mdCode(v.String())
}

// mdCode is text in a code cell: HTML, so that backticks and pipes cannot
// break the table.
func mdCode(s string) string {
	s = printable.String(s)
	if len(s) > 200 {
		cut := 200
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	s = html.EscapeString(s)
	s = strings.NewReplacer("|", "&#124;", "\n", " ", "\r", " ").Replace(s)
	return "<code>" + s + "</code>"
}

func mdCell(s string) string {
	s = strings.Join(strings.Fields(printable.String(s)), " ")
	if len(s) > 200 {
		cut := 200
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut-- // never split a UTF-8 character
		}
		s = s[:cut] + "…"
	}
	return strings.ReplaceAll(s, "|", `\|`)
}

type failure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}
type skipped struct {
	Message string `xml:"message,attr"`
}
type testcase struct {
	Name      string   `xml:"name,attr"`
	Classname string   `xml:"classname,attr"`
	Time      string   `xml:"time,attr"`
	Failure   *failure `xml:"failure,omitempty"`
	Error     *failure `xml:"error,omitempty"`
	Skipped   *skipped `xml:"skipped,omitempty"`
	// SystemOut carries the notes of a case, failing or not.
	SystemOut string `xml:"system-out,omitempty"`
}
type testsuite struct {
	Name       string      `xml:"name,attr"`
	Properties *properties `xml:"properties"`
	Tests      int         `xml:"tests,attr"`
	Failures   int         `xml:"failures,attr"`
	Errors     int         `xml:"errors,attr"`
	Skipped    int         `xml:"skipped,attr"`
	Cases      []testcase  `xml:"testcase"`
}
type testsuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Name    string       `xml:"name,attr"`
	Suites  []*testsuite `xml:"testsuite"`
	// SystemErr says which processes did not start; no case is charged.
	SystemErr string `xml:"system-err,omitempty"`
}

type property struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type properties struct {
	Property []property `xml:"property"`
}

// JUnit renders the summaries of a run (one per dialect) as JUnit XML, one
// test suite per case kind and dialect, whose properties name the tool, the
// implementation and the dialect.
func JUnit(sums ...*run.Summary) []byte {
	var out testsuites
	for _, s := range sums {
		out.Name = "piconform " + s.Implementation.Name
		for _, f := range s.StartFailures {
			out.SystemErr += startFailureText(f) + "\n"
		}
		// Class names carry the dialect when a run checks several, so
		// each case stays one test per dialect.
		class, suffix := "piconform.", ""
		if len(sums) > 1 {
			class = "piconform." + strings.ReplaceAll(s.Dialect.String(), ".", "_") + "."
			suffix = " (dialect " + s.Dialect.String() + ")"
		}
		props := []property{{"piconform.version", Version}, {"implementation.name", s.Implementation.Name},
			{"implementation.version", s.Implementation.Version}, {"dialect", s.Dialect.String()}, {"dialect.release", s.Dialect.Release()}}
		junitSuites(&out, s, class, suffix, props)
	}
	data, _ := xml.MarshalIndent(out, "", "  ")
	return append([]byte(xml.Header), append(data, '\n')...)
}

func junitSuites(out *testsuites, s *run.Summary, class, suffix string, props []property) {
	byKind := map[string]*testsuite{}
	for _, r := range s.Results {
		ts := byKind[r.Case.Kind]
		if ts == nil {
			ts = &testsuite{Name: r.Case.Kind + suffix, Properties: &properties{props}}
			byKind[r.Case.Kind] = ts
			out.Suites = append(out.Suites, ts)
		}
		tc := testcase{Name: r.Case.ID, Classname: class + r.Case.Kind, Time: fmt.Sprintf("%.3f", r.Duration.Seconds())}
		ts.Tests++
		body := r.Message
		if diffs := diffsOf(r); len(diffs) > 0 {
			body += "\n\ndiff (-want +got):\n" + compare.FormatDiffs(diffs, MaxDiffs)
		}
		for _, n := range r.Notes {
			tc.SystemOut += "note: " + n + "\n"
		}
		switch {
		case r.Outcome == run.Pass:
		case r.Outcome == run.Skip || r.Expected != nil:
			msg := r.Message
			if r.Expected != nil {
				msg = "expected failure: " + r.Expected.Reason
			}
			tc.Skipped = &skipped{Message: msg}
			ts.Skipped++
		case r.Outcome == run.Fail:
			tc.Failure = &failure{Message: r.Message, Type: string(r.Outcome), Body: body}
			ts.Failures++
		default:
			tc.Error = &failure{Message: r.Message, Type: string(r.Outcome), Body: body}
			ts.Errors++
		}
		ts.Cases = append(ts.Cases, tc)
	}
}
