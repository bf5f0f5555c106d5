package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/printable"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/subject"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/dialect"
)

// Head is what a report says before any case has run.
type Head struct {
	Implementation subject.Implementation
	Dialect        dialect.Dialect
	// Cases is how many cases the run selected.
	Cases int
	// Profile names the profile the run used ("" for none).
	Profile string
	Started time.Time
}

// HeadOf is the head of a finished run.
func HeadOf(s *run.Summary) Head {
	return Head{Implementation: s.Implementation, Dialect: s.Dialect, Cases: len(s.Results), Profile: s.Profile, Started: s.Started}
}

// Progress is where a run stands, for the lines it prints as it goes.
type Progress struct {
	Done, Total int
	// Failing counts the cases so far that make the run fail.
	Failing int
	Elapsed time.Duration
	// Running are the cases in flight, the longest-running first.
	Running []Running
}

// Running is a case in flight and how long it has been.
type Running struct {
	ID  string
	For time.Duration
}

// Sink receives a run as it goes: Begin once, Case after each case (in the
// order they end, one call at a time), Progress now and then, End once
// with the summary (whose results include the cases that never ran, which
// Case did not see).
type Sink interface {
	Begin(h Head)
	Case(r run.Result, done, total int)
	Progress(p Progress)
	End(s *run.Summary)
}

// Live hands a run's events to its sinks, one call at a time, and calls
// their Progress every Tick until End.
type Live struct {
	Sinks []Sink
	// Tick is how often Progress is called; 0 means every second.
	Tick time.Duration

	mu      sync.Mutex
	started time.Time
	running map[*suite.Case]time.Time
	done    int
	total   int
	failing int
	stop    chan struct{}
	stopped chan struct{}
}

// Begin starts the run: it calls every sink's Begin and starts the ticker.
func (l *Live) Begin(h Head) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.started, l.total, l.done, l.failing = time.Now(), h.Cases, 0, 0
	l.running = map[*suite.Case]time.Time{}
	for _, s := range l.Sinks {
		s.Begin(h)
	}
	tick := l.Tick
	if tick <= 0 {
		tick = time.Second
	}
	l.stop, l.stopped = make(chan struct{}), make(chan struct{})
	go func(stop, stopped chan struct{}) {
		defer close(stopped)
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				l.mu.Lock()
				p := l.progress()
				for _, s := range l.Sinks {
					s.Progress(p)
				}
				l.mu.Unlock()
			}
		}
	}(l.stop, l.stopped)
}

// Started notes that a case was sent (run.Options.Started).
func (l *Live) Started(c *suite.Case) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.running != nil {
		l.running[c] = time.Now()
	}
}

// Done hands a finished case to the sinks (run.Options.Progress).
func (l *Live) Done(done, total int, r run.Result) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.running, r.Case)
	l.done = done
	if r.NeedsAttention() {
		l.failing++
	}
	for _, s := range l.Sinks {
		s.Case(r, done, total)
	}
}

// End stops the ticker and hands the summary to the sinks.
func (l *Live) End(s *run.Summary) {
	if l.stop != nil {
		close(l.stop)
		<-l.stopped
		l.stop = nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, sk := range l.Sinks {
		sk.End(s)
	}
}

func (l *Live) progress() Progress {
	now := time.Now()
	p := Progress{Done: l.done, Total: l.total, Failing: l.failing, Elapsed: now.Sub(l.started)}
	for c, t := range l.running {
		p.Running = append(p.Running, Running{ID: c.ID, For: now.Sub(t)})
	}
	slices.SortFunc(p.Running, func(a, b Running) int {
		if a.For != b.For {
			return int(b.For - a.For)
		}
		return strings.Compare(a.ID, b.ID)
	})
	return p
}

// Replay hands a finished run to a sink as if it were going on.
func Replay(sk Sink, s *run.Summary) {
	sk.Begin(HeadOf(s))
	for i, r := range s.Results {
		sk.Case(r, i+1, len(s.Results))
	}
	sk.End(s)
}

// JSONSink writes the JSON-lines report as the run goes, as go test -json
// does: the header at once, a case line as each case ends, and at the end
// the lines of the cases that never ran and the footer.
type JSONSink struct {
	W       io.Writer
	written map[*suite.Case]bool
	head    Head
	err     error
}

// Err is the first error writing to W; the lines after it are not written.
func (j *JSONSink) Err() error { return j.err }

func (j *JSONSink) write(v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	if j.err == nil {
		_, j.err = j.W.Write(printable.JSON(b.Bytes())) // one write a line, so a reader never sees half of one
	}
}

func (j *JSONSink) Begin(h Head) {
	j.written, j.head = map[*suite.Case]bool{}, h
	j.write(header{Type: "header", Schema: SchemaVersion, Piconform: Version, Implementation: headerImplementation(h.Implementation),
		Dialect: h.Dialect.String(), Profile: h.Profile, Started: h.Started.UTC().Format("2006-01-02T15:04:05.000Z"), Cases: h.Cases})
}

func (j *JSONSink) Case(r run.Result, _, _ int) {
	j.written[r.Case] = true
	j.write(caseLineOf(r))
}

func (j *JSONSink) Progress(Progress) {}

func (j *JSONSink) End(s *run.Summary) {
	for _, r := range s.Results {
		if !j.written[r.Case] {
			j.Case(r, 0, 0)
		}
	}
	j.write(footerOf(s))
}

// TerminalSink writes the human report as the run goes: a header, one line
// for each case that needs attention as it ends (with -v every case, with
// its diff), a progress line now and then, and at the end the failures
// grouped by cause, the failing case ids, the command that records them as
// expected failures, the counts and the verdict.
type TerminalSink struct {
	W       io.Writer
	Style   Style
	Verbose bool
	// Suite says which suites the run reads, for the header; "" leaves it out.
	Suite string
	// GitHub writes a GitHub Actions error annotation for each case that
	// makes the run fail (GITHUB_ACTIONS=true).
	GitHub bool
	// Status, when set, is a terminal that shows a status line, redrawn
	// at each case and each tick, instead of progress lines in W.
	Status *os.File
	// ProgressEvery is how often a progress line is written to W when
	// there is no Status terminal; 0 means every 10 s.
	ProgressEvery time.Duration
	// WriteExpect is the command that records the failures of a run of
	// dialect d as expected failures; nil leaves it out.
	WriteExpect func(d dialect.Dialect) string

	statusShown  bool
	lastProgress time.Time
	head         Head
}

// BlockPrefix starts each line after the first of a text an
// implementation wrote (a message, a note) in the terminal report, so that
// no such line passes for the report's own (printable.Block).
const BlockPrefix = "    | "

// Details is how many failing cases the end of a run shows in full when
// not verbose.
const Details = 3

func (t *TerminalSink) clearStatus() {
	if t.statusShown {
		fmt.Fprint(t.Status, "\r\x1b[K")
		t.statusShown = false
	}
}

func (t *TerminalSink) Begin(h Head) {
	t.head, t.lastProgress = h, time.Now()
	t.clearStatus()
	if t.Suite != "" {
		fmt.Fprintf(t.W, "suite: %s\n", t.Suite)
	}
	fmt.Fprintln(t.W, headLine(h))
}

// headLine names the tool, the subject, the dialect and the case count.
func headLine(h Head) string {
	impl := h.Implementation
	name := strings.TrimSpace(impl.Name + " " + impl.Version)
	if impl.Language != "" {
		name += " (" + impl.Language + ")"
	}
	line := fmt.Sprintf("piconform %s: %s, dialect %s (Pi %s), %d %s", Version, printable.Line(name), h.Dialect, h.Dialect.Release(), h.Cases, plural(h.Cases, "case", "cases"))
	if h.Profile != "" {
		line += ", profile " + h.Profile
	}
	return line
}

func (t *TerminalSink) Case(r run.Result, done, total int) {
	t.clearStatus()
	st := t.Style
	switch {
	case r.UnexpectedPass():
		fmt.Fprintf(t.W, "%s %s: passes, but line %d of the expectations file says it fails; remove the entry\n",
			st.paint("33;1", "UNEXPECTED PASS"), r.Case.ID, r.Expected.Line)
	case r.NeedsAttention() || t.Verbose:
		tag := strings.ToUpper(string(r.Outcome))
		if r.Expected != nil {
			tag = "X" + tag
		}
		fmt.Fprintf(t.W, "%s %s", st.paint(outcomeColor[r.Outcome], tag), r.Case.ID)
		if r.Message != "" {
			msg := r.Message
			if !t.Verbose {
				msg = oneLine(msg, 200)
			}
			fmt.Fprintf(t.W, ": %s", printable.Block(msg, BlockPrefix))
		}
		fmt.Fprintln(t.W)
		if t.Verbose {
			writeDetails(t.W, r)
		}
	}
	if t.GitHub && r.NeedsAttention() {
		fmt.Fprintln(t.W, annotation(r))
	}
	if t.Status != nil {
		t.drawStatus(Progress{Done: done, Total: total})
	}
}

// writeDetails writes what explains a case: the expectation it matched,
// its file and diff, its notes.
func writeDetails(w io.Writer, r run.Result) {
	if r.Expected != nil && !r.UnexpectedPass() {
		fmt.Fprintf(w, "    expected failure: %s\n", printable.Block(r.Expected.Reason, BlockPrefix))
		return
	}
	if diffs := diffsOf(r); len(diffs) > 0 {
		fmt.Fprintf(w, "    %s\n", r.Case.File)
		fmt.Fprintf(w, "    diff (-want +got):\n%s", indent(printable.String(compare.FormatDiffs(diffs, MaxDiffs)), "      "))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "    note: %s\n", printable.Block(n, BlockPrefix))
	}
}

func (t *TerminalSink) Progress(p Progress) {
	if t.Status != nil {
		t.drawStatus(p)
		return
	}
	every := t.ProgressEvery
	if every <= 0 {
		every = 10 * time.Second
	}
	if time.Since(t.lastProgress) < every {
		return
	}
	t.lastProgress = time.Now()
	fmt.Fprintln(t.W, progressLine(p))
}

func (t *TerminalSink) drawStatus(p Progress) {
	line := progressLine(p)
	if p.Elapsed == 0 {
		line = fmt.Sprintf("… %d/%d cases", p.Done, p.Total)
	}
	fmt.Fprintf(t.Status, "\r\x1b[K%s", clipRunes(line, 120))
	t.statusShown = true
}

// progressLine says where a run stands, and which case has run longest.
func progressLine(p Progress) string {
	s := fmt.Sprintf("… %d/%d cases done, %d failing, %s", p.Done, p.Total, p.Failing, p.Elapsed.Round(time.Second))
	if len(p.Running) > 0 {
		r := p.Running[0]
		s += fmt.Sprintf("; running %s (%s)", r.ID, r.For.Round(time.Second))
		if n := len(p.Running) - 1; n > 0 {
			s += fmt.Sprintf(" and %d more", n)
		}
	}
	return s
}

func (t *TerminalSink) End(s *run.Summary) {
	t.clearStatus()
	st := t.Style
	w := t.W
	failed := s.Failed()
	if causes := Causes(failed); len(causes) > 0 {
		fmt.Fprintf(w, "\nFailures by cause (%d failing %s):\n", len(failed), plural(len(failed), "case", "cases"))
		writeCauses(w, causes, 15)
		ids := make([]string, len(failed))
		for i, r := range failed {
			ids[i] = r.Case.ID
		}
		fmt.Fprintf(w, "\nFailing cases:\n%s", wrapWords(ids, 100, "  "))
		if !t.Verbose {
			n := min(Details, len(failed))
			fmt.Fprintf(w, "\nThe first %d in full (-v shows every case as it ends; --json FILE keeps every diff):\n", n)
			for _, r := range failed[:n] {
				fmt.Fprintf(w, "%s %s: %s\n", st.paint(outcomeColor[r.Outcome], strings.ToUpper(string(r.Outcome))), r.Case.ID, printable.Block(r.Message, BlockPrefix))
				writeDetails(w, r)
			}
		}
		if t.WriteExpect != nil && !s.Interrupted {
			fmt.Fprintf(w, "\nTo record them as expected failures (with the paths each differs at):\n  %s\n", t.WriteExpect(s.Dialect))
		}
	}
	if n := notedCases(s); n > 0 && !t.Verbose {
		fmt.Fprintf(w, "%s %d passing %s with notes (identity headers that differ; not failures): -v or --json lists them\n",
			st.paint("36", "NOTE"), n, plural(n, "case", "cases"))
	}
	for _, r := range s.UnexpectedPasses {
		fmt.Fprintf(w, "%s %s\n", st.paint("33;1", "UNEXPECTED PASS"), r.Case.ID)
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
	profile := ""
	if s.Profile != "" {
		profile = ", profile " + s.Profile
	}
	fmt.Fprintf(w, "\n%d %s, dialect %s%s: %s (%.1fs)\n", len(s.Results), plural(len(s.Results), "case", "cases"), s.Dialect, profile, strings.Join(parts, ", "), s.Duration.Seconds())
	for _, f := range s.StartFailures {
		fmt.Fprintln(w, st.paint("33", printable.Line(startFailureText(f))))
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

// writeCauses writes at most limit causes, one a line, and counts the rest.
func writeCauses(w io.Writer, causes []Cause, limit int) {
	width := len(fmt.Sprint(len(causes[0].Cases)))
	for i, c := range causes {
		if i == limit {
			fmt.Fprintf(w, "  … and %d more %s\n", len(causes)-limit, plural(len(causes)-limit, "cause", "causes"))
			break
		}
		fmt.Fprintf(w, "  %*d %s: %s\n", width, len(c.Cases), plural(len(c.Cases), "case", "cases"), printable.Line(c.What))
	}
}

// wrapWords lays words out on lines of at most width bytes, each line
// starting with prefix.
func wrapWords(words []string, width int, prefix string) string {
	var b strings.Builder
	line := prefix
	for _, wd := range words {
		if len(line) > len(prefix) && len(line)+1+len(wd) > width {
			b.WriteString(line + "\n")
			line = prefix
		}
		if len(line) > len(prefix) {
			line += " "
		}
		line += wd
	}
	if len(line) > len(prefix) {
		b.WriteString(line + "\n")
	}
	return b.String()
}

// oneLine is the first line of s, cut to at most n characters.
func oneLine(s string, n int) string {
	first, _, more := strings.Cut(s, "\n")
	first = clipRunes(first, n)
	if more && !strings.HasSuffix(first, "…") {
		first += " …"
	}
	return first
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Annotation escapes, as GitHub's workflow commands read them: the message
// and the properties.
var (
	annotationData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	annotationProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// annotation is the GitHub Actions workflow command that marks a case that
// fails the run as an error on its case file.
func annotation(r run.Result) string {
	msg := printable.String(r.Message)
	if r.UnexpectedPass() {
		msg = fmt.Sprintf("passes, but line %d of the expectations file says it fails; remove the entry", r.Expected.Line)
	} else if diffs := diffsOf(r); len(diffs) > 0 {
		msg += "\n\ndiff (-want +got):\n" + printable.String(compare.FormatDiffs(diffs, MaxDiffs))
	}
	return fmt.Sprintf("::error file=%s,title=%s::%s", annotationProperty.Replace(r.Case.File),
		annotationProperty.Replace(r.Case.ID), annotationData.Replace(strings.TrimRight(msg, "\n")))
}
