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
	"runtime/debug"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/printable"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/subject"
	"github.com/piconform/piconform/reference/jsonv"
)

// Version of piconform written into reports: the version the build names
// (go install …@v1.2.3 writes it into the binary), else the commit it was
// built from, else "devel". A release build may set it at link time:
//
//	go build -ldflags "-X github.com/piconform/piconform/harness/report.version=v1.2.3" ./cmd/piconform
var Version = buildVersion(version, readBuildInfo)

// version is set at link time (-ldflags -X); empty otherwise.
var version string

func readBuildInfo() (*debug.BuildInfo, bool) { return debug.ReadBuildInfo() }

// buildVersion is the version of a binary: the one set at link time, else
// the module's version from the build, else devel and the commit.
func buildVersion(linked string, read func() (*debug.BuildInfo, bool)) string {
	if linked != "" {
		return linked
	}
	info, ok := read()
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	v := "devel+" + rev[:min(12, len(rev))]
	if dirty {
		v += "-dirty"
	}
	return v
}

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
	Profile        string `json:"profile,omitempty"`
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
	// WantClipped and GotClipped are set for a side too long to show
	// whole: the length of its JSON text, whose start the side then
	// holds as a string.
	WantClipped int `json:"want_clipped,omitempty"`
	GotClipped  int `json:"got_clipped,omitempty"`
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
	Interrupted           bool             `json:"interrupted,omitempty"`
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
		Replay(&JSONSink{W: &b}, s)
	}
	return b.Bytes()
}

// caseLineOf is the case line of a result.
func caseLineOf(r run.Result) caseLine {
	l := caseLine{Type: "case", ID: r.Case.ID, Kind: r.Case.Kind, Rules: r.Case.Rules, Outcome: string(r.Outcome), ExpectedFailure: r.Expected != nil && r.Outcome != run.Pass,
		UnexpectedPass: r.UnexpectedPass(), Message: r.Message, Link: r.Link, DurationMS: r.Duration.Milliseconds()}
	if r.Mismatch != nil {
		l.Path = r.Mismatch.Path
	}
	shown, rest := shownDiffs(r)
	for _, d := range shown {
		d = d.Bounded()
		l.Diffs = append(l.Diffs, diffLine{Path: d.Path, Want: rawJSON(d.Want), Got: rawJSON(d.Got), WantClipped: d.WantBytes, GotClipped: d.GotBytes})
	}
	if len(shown) > 0 {
		l.Path = shown[0].Path
		l.Diff = compare.FormatDiffs(diffsOf(r), MaxDiffs)
	}
	l.DiffsOmitted, l.Notes = rest, r.Notes
	return l
}

// footerOf is the footer line of a run.
func footerOf(s *run.Summary) footer {
	f := footer{Type: "footer", Counts: map[string]int{}, ExpectedFailures: s.ExpectedFailures, UnexpectedPasses: []string{},
		UnmatchedExpectations: []unmatchedEntry{}, StartFailures: []startFailure{}, Broken: s.Broken, Interrupted: s.Interrupted,
		ExitCode: ExitCode(s), DurationMS: s.Duration.Milliseconds()}
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
	return f
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

// Terminal writes the human report of a finished run, as TerminalSink
// writes it while the run goes.
func Terminal(w io.Writer, s *run.Summary, st Style, verbose bool) {
	Replay(&TerminalSink{W: w, Style: st, Verbose: verbose}, s)
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

// MaxMarkdown bounds the Markdown a run writes: GitHub refuses a step
// summary over 1 MiB. Past it the differences of the remaining failing
// cases are left out (the table still lists every one).
const MaxMarkdown = 1<<20 - 16<<10

// Markdown renders a summary for a CI step summary.
func Markdown(sums ...*run.Summary) []byte {
	var b bytes.Buffer
	for i, s := range sums {
		if i > 0 {
			b.WriteString("\n")
		}
		// Each summary gets its share of what is left.
		markdown(&b, s, b.Len()+(MaxMarkdown-b.Len())/(len(sums)-i))
	}
	return b.Bytes()
}

func markdown(b *bytes.Buffer, s *run.Summary, limit int) {
	impl := s.Implementation
	verdict := "✅ conforms"
	switch {
	case s.Interrupted:
		verdict = "⚠️ interrupted (no verdict)"
	case !s.OK():
		verdict = "❌ does not conform"
	}
	fmt.Fprintf(b, "## piconform: %s, dialect %s — %s\n\n", mdCode(strings.TrimSpace(impl.Name+" "+impl.Version)), s.Dialect, verdict)
	fmt.Fprintf(b, "piconform %s, %s UTC, %d %s", mdCell(Version), s.Started.UTC().Format("2006-01-02 15:04"), len(s.Results), plural(len(s.Results), "case", "cases"))
	if s.Profile != "" {
		fmt.Fprintf(b, ", profile `%s`", s.Profile)
	}
	b.WriteString(".\n\n")
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
	if causes := Causes(failed); len(causes) > 0 {
		b.WriteString("\n### Failures by cause\n\n| cases | cause |\n|---:|---|\n")
		for i, c := range causes {
			if i == 30 {
				fmt.Fprintf(b, "| | … and %d more |\n", len(causes)-i)
				break
			}
			fmt.Fprintf(b, "| %d | %s |\n", len(c.Cases), mdCode(c.What))
		}
	}
	if len(failed) > 0 {
		b.WriteString("\n### Failures\n\n| case | outcome | where | message |\n|---|---|---|---|\n")
		// The table takes up to half of what is left, the differences the rest.
		tableLimit := b.Len() + (limit-b.Len())/2
		for i, r := range failed {
			if b.Len() > tableLimit {
				fmt.Fprintf(b, "\n… and %d more failing %s, left out to keep this summary under GitHub's 1 MiB; the JSON report (--json) lists them.\n",
					len(failed)-i, plural(len(failed)-i, "case", "cases"))
				break
			}
			where := ""
			if r.Mismatch != nil {
				where = mdCode(r.Mismatch.Path)
			}
			fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", r.Case.ID, r.Outcome, where, mdCell(r.Message))
		}
		left := 0
		for _, r := range failed {
			shown, rest := shownDiffs(r)
			if len(shown) == 0 && len(r.Notes) == 0 {
				continue
			}
			if left > 0 {
				left++
				continue
			}
			var c bytes.Buffer
			fmt.Fprintf(&c, "\n#### `%s`\n", r.Case.ID)
			if len(shown) > 0 {
				c.WriteString("\n| path | want | got |\n|---|---|---|\n")
				for _, d := range shown {
					fmt.Fprintf(&c, "| %s | %s | %s |\n", mdCode(d.Path), mdValue(d.Want, d.ShowWant), mdValue(d.Got, d.ShowGot))
				}
				if rest > 0 {
					fmt.Fprintf(&c, "\n… and %d more %s.\n", rest, plural(rest, "difference", "differences"))
				}
			}
			for _, n := range r.Notes {
				fmt.Fprintf(&c, "\n- note: %s", mdCell(n))
			}
			if len(r.Notes) > 0 {
				c.WriteString("\n")
			}
			if b.Len()+c.Len() > limit-4096 {
				left++
				continue
			}
			b.Write(c.Bytes())
		}
		if left > 0 {
			fmt.Fprintf(b, "\n… the differences of %d more failing %s are left out to keep this summary under GitHub's 1 MiB; the JSON report (--json) holds them.\n",
				left, plural(left, "case", "cases"))
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

// mdValue is one side of a difference in a table cell (show gives its
// text); absent when not there.
func mdValue(v jsonv.Value, show func() string) string {
	if v.IsAbsent() {
		return "*absent*"
	}
	return mdCode(show())
}

// mdCode is text in a code cell: HTML, so that backticks and pipes cannot
// break the table.
func mdCode(s string) string {
	if len(s) > 800 {
		s = s[:800] // a cheap cut first; the exact one follows
	}
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
	if len(s) > 800 {
		s = s[:800]
	}
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

// totals are the counts and time JUnit's readers take from a test suite
// and from the root.
type totals struct {
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	Skipped  int    `xml:"skipped,attr"`
	Time     string `xml:"time,attr"`
}

func (t *totals) add(o totals) {
	t.Tests, t.Failures, t.Errors, t.Skipped = t.Tests+o.Tests, t.Failures+o.Failures, t.Errors+o.Errors, t.Skipped+o.Skipped
}

type testsuite struct {
	Name string `xml:"name,attr"`
	totals
	Timestamp  string      `xml:"timestamp,attr"`
	Hostname   string      `xml:"hostname,attr,omitempty"`
	Properties *properties `xml:"properties"`
	Cases      []testcase  `xml:"testcase"`

	seconds float64
}
type testsuites struct {
	XMLName xml.Name `xml:"testsuites"`
	Name    string   `xml:"name,attr"`
	totals
	Suites []*testsuite `xml:"testsuite"`
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
// implementation, the dialect and the profile. The root and every suite
// carry their totals and time (seconds), every suite the time its run
// began (timestamp, UTC), every case its time and class name.
func JUnit(sums ...*run.Summary) []byte {
	var out testsuites
	var wall time.Duration
	for _, s := range sums {
		wall += s.Duration
		out.Name = "piconform " + printable.String(s.Implementation.Name)
		for _, f := range s.StartFailures {
			out.SystemErr += printable.String(startFailureText(f)) + "\n"
		}
		// Class names carry the dialect when a run checks several, so
		// each case stays one test per dialect.
		class, suffix := "piconform.", ""
		if len(sums) > 1 {
			class = "piconform." + strings.ReplaceAll(s.Dialect.String(), ".", "_") + "."
			suffix = " (dialect " + s.Dialect.String() + ")"
		}
		props := []property{{"piconform.version", Version}, {"implementation.name", printable.String(s.Implementation.Name)},
			{"implementation.version", printable.String(s.Implementation.Version)}, {"implementation.language", printable.String(s.Implementation.Language)},
			{"dialect", s.Dialect.String()}, {"dialect.release", s.Dialect.Release()}}
		if s.Profile != "" {
			props = append(props, property{"profile", s.Profile})
		}
		junitSuites(&out, s, class, suffix, props)
	}
	for _, ts := range out.Suites {
		ts.Time = seconds(ts.seconds)
		out.add(ts.totals)
	}
	out.Time = seconds(wall.Seconds())
	data, _ := xml.MarshalIndent(out, "", "  ")
	return append([]byte(xml.Header), append(data, '\n')...)
}

func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }

func junitSuites(out *testsuites, s *run.Summary, class, suffix string, props []property) {
	byKind := map[string]*testsuite{}
	host, _ := os.Hostname()
	for _, r := range s.Results {
		ts := byKind[r.Case.Kind]
		if ts == nil {
			ts = &testsuite{Name: r.Case.Kind + suffix, Properties: &properties{props},
				Timestamp: s.Started.UTC().Format("2006-01-02T15:04:05"), Hostname: host}
			byKind[r.Case.Kind] = ts
			out.Suites = append(out.Suites, ts)
		}
		tc := testcase{Name: r.Case.ID, Classname: class + r.Case.Kind, Time: seconds(r.Duration.Seconds())}
		ts.seconds += r.Duration.Seconds()
		ts.Tests++
		message := printable.String(r.Message)
		body := message
		if diffs := diffsOf(r); len(diffs) > 0 {
			body += "\n\ndiff (-want +got):\n" + printable.String(compare.FormatDiffs(diffs, MaxDiffs))
		}
		for _, n := range r.Notes {
			tc.SystemOut += "note: " + printable.String(n) + "\n"
		}
		switch {
		case r.Outcome == run.Pass:
		case r.Outcome == run.Skip || r.Expected != nil:
			msg := message
			if r.Expected != nil {
				msg = "expected failure: " + printable.String(r.Expected.Reason)
			}
			tc.Skipped = &skipped{Message: msg}
			ts.Skipped++
		case r.Outcome == run.Fail:
			tc.Failure = &failure{Message: message, Type: string(r.Outcome), Body: body}
			ts.Failures++
		default:
			tc.Error = &failure{Message: message, Type: string(r.Outcome), Body: body}
			ts.Errors++
		}
		ts.Cases = append(ts.Cases, tc)
	}
}
