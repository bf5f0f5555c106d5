// Package run runs cases against subjects and classifies every outcome.
package run

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/expect"
	"github.com/piconform/piconform/harness/subject"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// Outcome is how one case ended.
type Outcome string

const (
	Pass     Outcome = "pass"
	Fail     Outcome = "fail"
	Skip     Outcome = "skip"
	Error    Outcome = "error"
	Crash    Outcome = "crash"
	Timeout  Outcome = "timeout"
	Protocol Outcome = "protocol"
)

// Outcomes lists every outcome in report order.
var Outcomes = []Outcome{Pass, Fail, Skip, Error, Crash, Timeout, Protocol}

// Result is the end of one case.
type Result struct {
	Case    *suite.Case
	Outcome Outcome
	Message string
	// Mismatch is the first difference and the whole list (Mismatch.Diffs,
	// the same as Diffs); nil when nothing differs at a path.
	Mismatch *compare.Mismatch
	// Diffs is every difference of a failed case, in document order: a
	// wire case's request differences first (paths under /requests/<i>),
	// then the output's (the golden's own pointers). Reports print the
	// first 20 and count the rest.
	Diffs []compare.Diff
	// Notes are observations that do not fail the case, such as an identity
	// header that differs.
	Notes []string
	Link  string // for skips
	// Expected is the expectation entry the case matched, if any.
	Expected *expect.Entry
	// Unpinned are the differing paths that the expected-failure entries
	// of the case do not name, which make it fail.
	Unpinned []string
	Duration time.Duration

	judged bool // the expectations have been applied
}

// DiffPaths are the paths where a failed case differs: those of Diffs, or
// failing that the first difference of Mismatch.
func (r Result) DiffPaths() []string {
	var out []string
	for _, d := range r.Diffs {
		out = append(out, d.Path)
	}
	if len(out) == 0 && r.Mismatch != nil {
		out = append(out, r.Mismatch.Path)
	}
	return out
}

// Passed tells whether the case counts as passing.
func (r Result) Passed() bool { return r.Outcome == Pass || r.Outcome == Skip }

// Fixture prepares harness-side resources for a case (a wire case's
// loopback server) and checks what the subject did with them.
type Fixture interface {
	// Setup returns the input to send, and a function that checks the case
	// after the subject answered; a non-nil error from the check fails it
	// (an error wrapping a *compare.Mismatch shows its diff). The check is
	// called once the subject answered or broke, whatever the outcome, and
	// releases what Setup acquired.
	//
	// ctx is the case's: it ends at the case's deadline, so what the
	// fixture does counts inside it. stop ends the case at once, failing
	// it with the cause: for a problem no answer can mend (a request body
	// over the server's limit), so the run does not wait for the subject.
	Setup(ctx context.Context, c *suite.Case, stop context.CancelCauseFunc) (input jsonv.Value, check func() error, err error)
}

// Findings is implemented by an error a fixture's check returns when it has
// more to say than a failure: notes, and whether it fails the case at all
// (a check that found only notes returns a Findings whose Failed is false).
// The differences themselves come from the *compare.Mismatch it wraps.
type Findings interface {
	Failed() bool
	Notes() []string
}

// OutputChecker is an optional interface of a Fixture: CheckOutput runs
// after the fixture's check and before the output is compared with the
// golden, for checks a plain comparison cannot state (a wire case's event
// grammar). A non-nil error fails the case.
type OutputChecker interface {
	CheckOutput(c *suite.Case, want, got jsonv.Value) error
}

// Options configure a run.
type Options struct {
	// NewSubject makes the subject for one worker.
	NewSubject func(worker int) subject.Subject
	// Jobs is the number of workers, each with its own subject.
	Jobs int
	// Timeout is the deadline of one case.
	Timeout time.Duration
	// FirstUseTimeout, when longer than Timeout, is the deadline of the
	// first case of each kind (and, for wire cases, each API) that a
	// process runs: an adapter may load the code of a kind or provider
	// only when it first needs it, which on a loaded machine can take
	// longer than a case. A process that is restarted starts afresh.
	FirstUseTimeout time.Duration
	// MaxRestarts caps restarts per worker, failed starts included; past it
	// the worker stops and the other workers run the remaining cases. When
	// every worker has stopped, the cases left are reported as crashes
	// without being sent.
	MaxRestarts int
	// Expect lists known failures.
	Expect *expect.File
	// StrictIdentity compares a golden's runtime texts exactly; otherwise
	// they are checked by their pattern (compare.RuntimeText). Identity
	// headers are the wire fixture's to compare (wire.Fixture.StrictIdentity).
	StrictIdentity bool
	// Fixtures by case kind.
	Fixtures map[string]Fixture
	// Dialect is the Pi release line the run checks: the goldens it reads
	// and what each run frame names.
	Dialect dialect.Dialect
	// Profile, when set, leaves out the cases it says a port of its kind
	// need not pass (a typed port and the rules of untyped input): they
	// are skips whose message names the profile.
	Profile *Profile
	// Started is called when a worker sends a case, from that worker; it
	// must be quick and safe for concurrent use.
	Started func(c *suite.Case)
	// Progress is called after each case, from any worker, one call at a
	// time; it must be quick. The result is judged already: Expected is
	// set when an expectation covers it.
	Progress func(done, total int, r Result)
}

// Profile is a documented set of cases a kind of port may leave out.
type Profile struct {
	// Name is what --profile takes and the reports show.
	Name string
	// Skip says why the profile leaves out case c, whose golden for the
	// run's dialect is golden; "" keeps it.
	Skip func(c *suite.Case, golden jsonv.Value) string
}

// Summary is the outcome of a whole run.
type Summary struct {
	Implementation subject.Implementation
	// Dialect is the Pi release line the run checked.
	Dialect dialect.Dialect
	// Profile names the profile the run used ("" for none).
	Profile string
	Results []Result
	Counts  map[Outcome]int
	// ExpectedFailures are cases that failed as the expectations file says.
	ExpectedFailures int
	// UnexpectedPasses are cases that passed though an entry expects a failure.
	UnexpectedPasses []Result
	// Unmatched are expectation entries that match no case of the suite.
	Unmatched []expect.Entry
	// StartFailures are the times a process did not start (crashed, broke
	// the protocol or said no hello before its start deadline). They are
	// not charged to any case: the worker tries again, within MaxRestarts.
	StartFailures []StartFailure
	// Broken is set when no case passed and every case that ran broke
	// (never for an interrupted run).
	Broken bool
	// Interrupted is set when the run was cancelled (Ctrl-C) before every
	// case ran: the cases it did not finish are skips saying so.
	Interrupted bool

	Started  time.Time
	Duration time.Duration
}

// StartFailure is one implementation process that did not start.
type StartFailure struct {
	Worker  int    // 1-based, as the log files are numbered
	Outcome string // crash, timeout or protocol
	Message string
}

// Failed lists the results that make the run fail: anything but pass and
// skip that no expectation covers.
func (s *Summary) Failed() []Result {
	var out []Result
	for _, r := range s.Results {
		if !r.Passed() && r.Expected == nil {
			out = append(out, r)
		}
	}
	return out
}

// OK tells whether the run conforms: no unexpected failure, no unexpected
// pass, and no stale expectation.
func (s *Summary) OK() bool {
	return len(s.Failed()) == 0 && len(s.UnexpectedPasses) == 0 && len(s.Unmatched) == 0
}

// Run runs cases and returns the summary. allIDs are the ids of the whole
// suite before filtering, to find stale expectation entries.
func Run(ctx context.Context, cases []*suite.Case, allIDs []string, opts Options) *Summary {
	if opts.Jobs < 1 {
		opts.Jobs = 1
	}
	if opts.Timeout == 0 {
		opts.Timeout = 10 * time.Second
	}
	sum := &Summary{Started: time.Now(), Counts: map[Outcome]int{}, Dialect: opts.Dialect}
	if opts.Profile != nil {
		sum.Profile = opts.Profile.Name
	}
	results := make([]Result, len(cases))
	workers := min(opts.Jobs, max(len(cases), 1))
	groups := make([]string, len(cases))
	for i, c := range cases {
		groups[i] = caseGroup(c)
	}
	q := newQueue(groups, workers)
	var mu sync.Mutex
	done := 0
	var gaveUp *subject.Failure // why the last worker to stop stopped
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			wk := &worker{opts: opts, subj: opts.NewSubject(w)}
			defer wk.subj.Close()
			for ctx.Err() == nil && q.pending() {
				// A worker starts its process before it takes a case, so a
				// process that does not start holds no case up and charges
				// none: the case goes to a worker that is running.
				if err := wk.ensureStarted(ctx); err != nil {
					if ctx.Err() != nil {
						return
					}
					f := subject.AsFailure(err)
					mu.Lock()
					sum.StartFailures = append(sum.StartFailures, StartFailure{Worker: w + 1, Outcome: f.Outcome, Message: clipText(f.Msg, MaxMessageBytes)})
					if wk.gaveUp != nil {
						gaveUp = wk.gaveUp
					}
					mu.Unlock()
					if wk.gaveUp != nil {
						return
					}
					continue
				}
				if wk.gaveUp != nil {
					mu.Lock()
					gaveUp = wk.gaveUp
					mu.Unlock()
					return
				}
				i, ok := q.take(w, wk.used)
				if !ok {
					return
				}
				r := wk.run(ctx, cases[i])
				judge(&r, opts.Expect)
				results[i] = r // each index is written by one worker only
				mu.Lock()
				if sum.Implementation.Name == "" && wk.impl.Name != "" {
					sum.Implementation = wk.impl
				}
				done++
				if opts.Progress != nil {
					opts.Progress(done, len(cases), r) // one call at a time, in order
				}
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	for i, r := range results {
		if r.Case != nil {
			continue
		}
		switch {
		case ctx.Err() != nil:
			results[i] = Result{Case: cases[i], Outcome: Skip, Message: errInterrupted}
		case gaveUp != nil:
			results[i] = Result{Case: cases[i], Outcome: Outcome(gaveUp.Outcome), Message: gaveUp.Msg}
		default:
			results[i] = Result{Case: cases[i], Outcome: Crash, Message: "not sent: no worker was left to run it"}
		}
		bound(&results[i])
	}
	for i := range results {
		if !results[i].judged {
			judge(&results[i], opts.Expect)
		}
	}
	sum.Results = results
	sum.Interrupted = ctx.Err() != nil && slices.ContainsFunc(results, func(r Result) bool { return r.Message == errInterrupted })
	sum.tally(opts.Expect, allIDs)
	sum.Duration = time.Since(sum.Started)
	return sum
}

// judge sets what the expectations say of one result: the entry that
// covers its failure, or that its pass is unexpected, or, for a failure an
// entry only partly covers, what the entry leaves out (in its message, so
// every report shows it).
func judge(r *Result, exp *expect.File) {
	r.judged = true
	e, ok := exp.Match(r.Case.ID)
	switch {
	case !ok || r.Outcome == Skip:
	case r.Outcome == Pass:
		r.Expected = &e
	default:
		v := exp.Judge(r.Case.ID, string(r.Outcome), r.DiffPaths())
		if v.Expected {
			r.Expected = v.Entry
		} else {
			r.Unpinned = v.Unpinned
			r.Message = v.Why + "\n" + r.Message
		}
	}
}

// UnexpectedPass tells whether r passed though an expectation says it fails.
func (r Result) UnexpectedPass() bool { return r.Outcome == Pass && r.Expected != nil }

// NeedsAttention tells whether r makes the run fail: a failure no
// expectation covers, or an unexpected pass.
func (r Result) NeedsAttention() bool {
	return !r.Passed() && r.Expected == nil || r.UnexpectedPass()
}

func (s *Summary) tally(exp *expect.File, allIDs []string) {
	ran, broke := 0, 0
	expected := map[string][]string{} // the paths of each expected failure
	for i := range s.Results {
		r := &s.Results[i]
		switch {
		case r.UnexpectedPass():
			s.UnexpectedPasses = append(s.UnexpectedPasses, *r)
		case r.Expected != nil:
			s.ExpectedFailures++
			expected[r.Case.ID] = r.DiffPaths()
		}
		s.Counts[r.Outcome]++
		if r.Outcome != Skip {
			ran++
			if r.Outcome != Pass && r.Outcome != Fail {
				broke++
			}
		}
	}
	s.Broken = ran > 0 && broke == ran && !s.Interrupted
	// An entry's path that no longer differs is stale too.
	s.Unmatched = append(exp.Unmatched(allIDs), exp.StalePaths(expected)...)
}

type worker struct {
	opts     Options
	subj     subject.Subject
	impl     subject.Implementation
	started  bool
	restarts int
	used     map[string]bool  // kinds and APIs the running process has answered
	gaveUp   *subject.Failure // set once the worker stops starting its subject
}

func (w *worker) run(ctx context.Context, c *suite.Case) Result {
	start := time.Now()
	r := w.runCase(ctx, c)
	r.Case = c
	r.Duration = time.Since(start)
	bound(&r)
	return r
}

// caseGroup is what a case needs an adapter to have loaded: its kind and,
// for a wire case, its API.
func caseGroup(c *suite.Case) string { return c.Kind + " " + c.API }

// queue hands out case indices. Each worker owns a contiguous share of the
// cases (which are in id order, so grouped by kind and provider API) and
// takes them in order. A worker whose share is done steals the last group
// of another's share, or the back half of it when only one group is left,
// preferring a group it has run already and then the largest share. So
// each process meets few kinds and APIs: an adapter that loads a
// provider's module on first use (pi-ts: up to seconds of CPU each) loads
// each about once per run, not once per process, and --jobs N pays on N
// cores.
type queue struct {
	mu     sync.Mutex
	group  []string // of each case
	lo, hi []int    // worker w's share is [lo[w], hi[w])
}

func newQueue(groups []string, workers int) *queue {
	n := len(groups)
	q := &queue{group: groups, lo: make([]int, workers), hi: make([]int, workers)}
	for w := range workers {
		q.lo[w], q.hi[w] = w*n/workers, (w+1)*n/workers
	}
	return q
}

// take returns worker w's next case; used holds the groups w has run.
func (q *queue) take(w int, used map[string]bool) (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.lo[w] >= q.hi[w] {
		victim, from, bestUsed, bestLeft := -1, 0, false, 0
		for v := range q.lo {
			left := q.hi[v] - q.lo[v]
			if left == 0 {
				continue
			}
			start := q.hi[v] - 1 // where the share's last group begins
			for start > q.lo[v] && q.group[start-1] == q.group[q.hi[v]-1] {
				start--
			}
			if start == q.lo[v] {
				start += left / 2 // one group left: share it
			}
			isUsed := used[q.group[q.hi[v]-1]]
			if victim < 0 || (isUsed && !bestUsed) || (isUsed == bestUsed && left > bestLeft) {
				victim, from, bestUsed, bestLeft = v, start, isUsed, left
			}
		}
		if victim < 0 {
			return 0, false
		}
		q.lo[w], q.hi[w] = from, q.hi[victim]
		q.hi[victim] = from
	}
	q.lo[w]++
	return q.lo[w] - 1, true
}

// pending tells whether a case is left to take.
func (q *queue) pending() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for v := range q.lo {
		if q.lo[v] < q.hi[v] {
			return true
		}
	}
	return false
}

// ensureStarted starts the subject unless it runs. A start that fails
// counts as a restart.
func (w *worker) ensureStarted(ctx context.Context) error {
	if w.started || w.gaveUp != nil {
		return nil
	}
	impl, err := w.subj.Start(ctx)
	if err != nil {
		w.restarted(err)
		if f := subject.AsFailure(err); w.gaveUp != nil {
			// Say why the cases were never sent: the process did not start.
			// A case never sent did not time out, so a start deadline
			// missed makes them crashes.
			outcome := f.Outcome
			if outcome == subject.FailTimeout {
				outcome = subject.FailCrash
			}
			w.gaveUp = &subject.Failure{Outcome: outcome, Final: true,
				Msg: fmt.Sprintf("not sent: the implementation did not start (%d attempts; last: %s)", w.restarts, f.Msg)}
		}
		return err
	}
	w.impl, w.started, w.used = impl, true, map[string]bool{}
	return nil
}

// restarted counts a broken subject; it will be started again on the next case.
func (w *worker) restarted(err error) {
	w.started = false
	w.restarts++
	if f := subject.AsFailure(err); f.Final {
		w.gaveUp = &subject.Failure{Outcome: f.Outcome, Msg: "not sent: " + f.Msg, Final: true}
	} else if w.restarts > w.opts.MaxRestarts {
		w.gaveUp = &subject.Failure{Outcome: subject.FailCrash, Msg: fmt.Sprintf("not sent: the implementation broke %d times (last: %v)", w.restarts, err)}
	}
}

func (w *worker) runCase(ctx context.Context, c *suite.Case) Result {
	if !w.impl.Supports(c.Kind) {
		return Result{Outcome: Skip, Message: fmt.Sprintf("the implementation does not support case kind %q", c.Kind)}
	}
	if c.API != "" && !w.impl.SupportsAPI(c.API) {
		return Result{Outcome: Skip, Message: fmt.Sprintf("the implementation does not support API %q", c.API)}
	}
	want, err := c.ReadGolden(w.opts.Dialect)
	if err != nil {
		return Result{Outcome: Error, Message: err.Error()}
	}
	if p := w.opts.Profile; p != nil {
		if why := p.Skip(c, want); why != "" {
			return Result{Outcome: Skip, Message: "profile " + p.Name + ": " + why}
		}
	}
	if w.opts.Started != nil {
		w.opts.Started(c)
	}
	use := caseGroup(c)
	deadline := w.opts.Timeout
	if !w.used[use] {
		deadline = max(deadline, w.opts.FirstUseTimeout)
	}
	cctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	cctx, cancelCause := context.WithCancelCause(cctx)
	defer cancelCause(nil)
	stop := func(cause error) { cancelCause(&fixtureStop{cause}) }
	input, check := c.Input, func() error { return nil }
	if fx := w.opts.Fixtures[c.Kind]; fx != nil {
		if input, check, err = fx.Setup(cctx, c, stop); err != nil {
			return Result{Outcome: Error, Message: "preparing the case: " + err.Error()}
		}
	}
	checked := false
	defer func() {
		if !checked {
			_ = check() // release the fixture's resources
		}
	}()
	reply, err := w.subj.Run(cctx, subject.Case{ID: c.ID, Kind: c.Kind, Input: input, Dialect: w.opts.Dialect.String()})
	if err != nil && ctx.Err() != nil {
		// Interrupted (Ctrl-C): the implementation did nothing wrong.
		w.started = false
		return Result{Outcome: Skip, Message: errInterrupted}
	}
	var fs *fixtureStop
	if errors.As(context.Cause(cctx), &fs) {
		if err != nil {
			// Stopped mid-case, as at a deadline: start it again.
			w.restarted(fs)
		}
		return Result{Outcome: Fail, Message: fs.Error()}
	}
	if err != nil {
		f := subject.AsFailure(err)
		w.restarted(err)
		msg := f.Msg
		if f.Outcome == subject.FailTimeout {
			msg += fmt.Sprintf(" (%v)", deadline)
		}
		checked = true
		return broken(Result{Outcome: Outcome(f.Outcome), Message: msg}, check())
	}
	w.used[use] = true
	switch reply.Type {
	case subject.ReplySkip:
		return Result{Outcome: Skip, Message: reply.Reason, Link: reply.Link}
	case subject.ReplyError:
		checked = true
		return broken(Result{Outcome: Error, Message: reply.Message}, check())
	}
	checked = true
	return w.verdict(c, want, reply.Output, check())
}

// broken is the result of a case the implementation broke on (an error
// frame, a crash, a timeout), with what the fixture's check found before
// the break: a request that differs is a difference in its own right,
// reported even though there is no output to compare.
func broken(r Result, checkErr error) Result {
	if msg, failed := addFindings(&r, checkErr); failed {
		r.Message += "; " + msg
		r.Mismatch = compare.NewMismatch(r.Diffs)
	}
	return r
}

// addFindings adds what a fixture's check found to r: its notes, and when
// it fails the case, its differences. It returns the check's message and
// whether it fails the case.
func addFindings(r *Result, checkErr error) (string, bool) {
	if checkErr == nil {
		return "", false
	}
	var f Findings
	if errors.As(checkErr, &f) {
		r.Notes = append(r.Notes, f.Notes()...)
		if !f.Failed() {
			return "", false
		}
	}
	var m *compare.Mismatch
	if errors.As(checkErr, &m) {
		r.Diffs = append(r.Diffs, m.Diffs...)
	}
	return checkErr.Error(), true
}

// verdict compares what the subject did with what the case wants: the
// fixture's check (checkErr), the fixture's output checks, and the output
// against the golden. It collects every difference of all three, so that
// a case with a wrong request still has its answer compared.
func (w *worker) verdict(c *suite.Case, golden, got jsonv.Value, checkErr error) Result {
	var r Result
	var msgs []string
	if msg, failed := addFindings(&r, checkErr); failed {
		msgs = append(msgs, msg)
	}
	want, texts, err := compare.SplitGolden(golden)
	if err != nil {
		return Result{Outcome: Error, Message: (&suite.Error{File: c.GoldenFile(w.opts.Dialect), CaseID: c.ID, Err: err}).Error()}
	}
	if oc, ok := w.opts.Fixtures[c.Kind].(OutputChecker); ok {
		if err := oc.CheckOutput(c, want, got); err != nil {
			msgs = append(msgs, err.Error())
		}
	}
	if m := compare.Check(want, got, compare.Rules{Redactions: c.Redactions, JSONTexts: c.JSONTexts, RuntimeTexts: texts, Strict: w.opts.StrictIdentity}); m != nil {
		r.Diffs = append(r.Diffs, m.Diffs...)
		if len(msgs) == 0 {
			msgs = append(msgs, m.Error())
		} else {
			msgs = append(msgs, "the output differs from the golden at "+m.Error())
		}
	}
	if len(msgs) == 0 {
		r.Outcome = Pass
		return r
	}
	r.Outcome, r.Message = Fail, strings.Join(msgs, "; ")
	r.Mismatch = compare.NewMismatch(r.Diffs)
	return r
}

// fixtureStop is the cause of a case its fixture stopped.
type fixtureStop struct{ err error }

func (s *fixtureStop) Error() string { return s.err.Error() }
func (s *fixtureStop) Unwrap() error { return s.err }

// errInterrupted is the message of a case an interrupted run did not finish.
const errInterrupted = "not run: the run was interrupted"

// Filter selects cases.
type Filter struct {
	IDs   []string // globs
	Kinds []string
	Rules []string // globs
	// Shard is "i/n": keep every n-th case starting at the i-th (1-based).
	ShardIndex, ShardCount int
}

// ParseShard reads "i/n".
func ParseShard(s string) (i, n int, err error) {
	if _, err := fmt.Sscanf(s, "%d/%d", &i, &n); err != nil || n < 1 || i < 1 || i > n || fmt.Sprintf("%d/%d", i, n) != s {
		return 0, 0, fmt.Errorf("--shard wants i/n with 1 <= i <= n, got %q", s)
	}
	return i, n, nil
}

// Apply returns the cases the filter keeps, in id order.
func (f Filter) Apply(cases []*suite.Case) []*suite.Case {
	var out []*suite.Case
	for _, c := range cases {
		if len(f.IDs) > 0 && !anyGlob(f.IDs, c.ID) {
			continue
		}
		if len(f.Kinds) > 0 && !slices.Contains(f.Kinds, c.Kind) {
			continue
		}
		if len(f.Rules) > 0 && !slices.ContainsFunc(c.Rules, func(r string) bool { return anyGlob(f.Rules, r) }) {
			continue
		}
		out = append(out, c)
	}
	slices.SortStableFunc(out, func(a, b *suite.Case) int { return strings.Compare(a.ID, b.ID) })
	if f.ShardCount > 1 {
		var shard []*suite.Case
		for i, c := range out {
			if i%f.ShardCount == f.ShardIndex-1 {
				shard = append(shard, c)
			}
		}
		out = shard
	}
	return out
}

func anyGlob(globs []string, s string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, s); ok {
			return true
		}
	}
	return false
}
