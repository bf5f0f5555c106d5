package run_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/harness/expect"
	"github.com/piconform/piconform/harness/golden"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/subject"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/harness/wire"
	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/dialect"
)

// The in-test suite: a few sanitize cases and one cost case, with goldens
// made by the reference the way `piconform update` makes them.
const (
	idCost  = "cost/output-only"
	idASCII = "sanitize/ascii"
	idLone  = "sanitize/lone-high"
	idPair  = "sanitize/pair"
	idBig   = "sanitize/big"
)

var fixtureFiles = map[string]string{
	idCost: `{"id":"cost/output-only","kind":"cost","description":"Only output tokens.","rules":["msg.cost"],
	  "input":{"model":{"id":"gpt-5","name":"GPT-5","api":"openai-responses","provider":"openai","baseUrl":"https://api.openai.com/v1",
	    "reasoning":true,"input":["text","image"],"cost":{"input":1.25,"output":10,"cacheRead":0.125,"cacheWrite":0},
	    "contextWindow":400000,"maxTokens":128000},
	   "usage":{"input":0,"output":4096,"cacheRead":0,"cacheWrite":0,"totalTokens":4096,
	    "cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}}}`,
	idASCII: `{"id":"sanitize/ascii","kind":"sanitize","description":"ASCII is unchanged.","rules":["san.surrogates"],"input":{"text":"plain text"}}`,
	idLone:  `{"id":"sanitize/lone-high","kind":"sanitize","description":"A lone high surrogate goes.","rules":["san.surrogates"],"input":{"text":"Text \ud83d here"}}`,
	idPair:  `{"id":"sanitize/pair","kind":"sanitize","description":"A pair stays.","rules":["san.surrogates"],"input":{"text":"smile \ud83d\ude00"}}`,
}

// testSuite loads the in-test suite; with big, it adds a case whose input is
// larger than a pipe's buffer.
func testSuite(t testing.TB, big bool) []*suite.Case {
	t.Helper()
	fsys := fstest.MapFS{}
	for id, data := range fixtureFiles {
		fsys["fixtures/"+id+".json"] = &fstest.MapFile{Data: []byte(data)}
	}
	if big {
		text := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB
		fsys["fixtures/"+idBig+".json"] = &fstest.MapFile{Data: fmt.Appendf(nil,
			`{"id":%q,"kind":"sanitize","description":"A large input.","rules":["san.surrogates"],"input":{"text":%q}}`, idBig, text)}
	}
	s, err := suite.Load("test", fsys, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range s.Cases {
		out, err := golden.Produce(c, dialect.V0_80, nil)
		if err != nil {
			t.Fatal(err)
		}
		fsys[c.GoldenPath(dialect.V0_80)] = &fstest.MapFile{Data: golden.Encode(out)}
	}
	return s.Cases
}

func ids(cases []*suite.Case) []string {
	out := make([]string, len(cases))
	for i, c := range cases {
		out[i] = c.ID
	}
	return out
}

// runGuarded runs the cases and fails the test, instead of hanging it, when
// the run does not finish within limit.
func runGuarded(t *testing.T, limit time.Duration, cases []*suite.Case, opts run.Options) *run.Summary {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan *run.Summary, 1)
	go func() { done <- run.Run(ctx, cases, ids(cases), opts) }()
	select {
	case s := <-done:
		return s
	case <-time.After(limit):
		cancel()
		t.Fatalf("the run did not finish within %v: the runner hangs", limit)
		return nil
	}
}

// processOpts runs the fake adapter with behaviour b, one log file per worker.
func processOpts(t testing.TB, b string, timeout time.Duration, maxRestarts int) (run.Options, string) {
	t.Helper()
	logDir := t.TempDir()
	cmd := fakeCommand(t, b)
	var mu sync.Mutex
	var files []*subject.Log
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, f := range files {
			f.Close()
		}
	})
	return run.Options{
		Timeout:     timeout,
		MaxRestarts: maxRestarts,
		NewSubject: func(w int) subject.Subject {
			f, err := subject.LogFile(filepath.Join(logDir, fmt.Sprintf("impl-%d.log", w+1)))
			if err != nil {
				t.Error(err)
				return &subject.Process{Command: cmd, StartTimeout: 20 * time.Second}
			}
			mu.Lock()
			files = append(files, f)
			mu.Unlock()
			return &subject.Process{Command: cmd, Log: f, StartTimeout: 20 * time.Second}
		},
	}, logDir
}

type want struct {
	outcome run.Outcome
	msg     string // a substring of the message, if not empty
}

// checkResults compares every case's outcome with wants (default: pass) and
// checks the summary's bookkeeping.
func checkResults(t *testing.T, s *run.Summary, cases []*suite.Case, wants map[string]want) {
	t.Helper()
	if len(s.Results) != len(cases) {
		t.Fatalf("%d results for %d cases", len(s.Results), len(cases))
	}
	total := 0
	for _, n := range s.Counts {
		total += n
	}
	if total != len(cases) {
		t.Errorf("counts %v add up to %d, want %d", s.Counts, total, len(cases))
	}
	for i, r := range s.Results {
		if r.Case != cases[i] {
			t.Errorf("result %d is for %v, want %s", i, r.Case, cases[i].ID)
			continue
		}
		w, ok := wants[r.Case.ID]
		if !ok {
			w = want{outcome: run.Pass}
		}
		if r.Outcome != w.outcome {
			t.Errorf("%s: outcome %s (%s), want %s", r.Case.ID, r.Outcome, r.Message, w.outcome)
		} else if w.msg != "" && !strings.Contains(r.Message, w.msg) {
			t.Errorf("%s: message %q, want it to contain %q", r.Case.ID, r.Message, w.msg)
		}
		if r.Outcome != run.Pass && r.Outcome != run.Fail && r.Message == "" {
			t.Errorf("%s: outcome %s without a message", r.Case.ID, r.Outcome)
		}
	}
}

// TestFakeImplementations runs the in-test suite against fake adapters that
// misbehave in every way the protocol names. Each run must finish in bounded
// time and classify every case.
func TestFakeImplementations(t *testing.T) {
	t.Parallel()
	const short = time.Second            // the other cases of a run must answer within it, even on a loaded machine
	const brief = 100 * time.Millisecond // for runs where every case is to time out or never be sent
	tests := []struct {
		name      string
		behaviour string
		big       bool
		only      []string // run only these cases
		timeout   time.Duration
		restarts  int
		hello     time.Duration // StartTimeout, if not the default
		wants     map[string]want
		broken    bool
		implName  string // the hello the summary keeps; "" for none
		check     func(t *testing.T, s *run.Summary, logDir string)
	}{{
		name: "correct adapter passes", behaviour: "ok", implName: "fake-ok",
	}, {
		name: "crash on one case, later cases run after a restart", behaviour: "crash:" + idLone,
		wants: map[string]want{idLone: {run.Crash, "the implementation "}},
	}, {
		name: "crash on start", behaviour: "crash-start",
		wants: map[string]want{
			idCost: {run.Crash, "not sent: the implementation did not start (6 attempts; last: the implementation exited"}, idASCII: {run.Crash, "did not start"},
			idLone: {run.Crash, "did not start"}, idPair: {run.Crash, "did not start"},
		},
		broken: true,
		check: func(t *testing.T, s *run.Summary, _ string) {
			if len(s.StartFailures) != 6 || s.StartFailures[0].Worker != 1 || s.StartFailures[0].Outcome != "crash" {
				t.Errorf("start failures %+v, want 6 crashes of worker 1", s.StartFailures)
			}
		},
	}, {
		name: "hang on one case is a timeout for it only", behaviour: "hang:" + idLone, timeout: short,
		wants: map[string]want{idLone: {run.Timeout, "deadline"}},
	}, {
		// No process ever says hello, so the start deadline can be brief.
		name: "hang before hello", behaviour: "hang-start", restarts: 1, hello: brief,
		// Start-up is not a case: no case is charged with a timeout.
		wants: map[string]want{
			idCost:  {run.Crash, "not sent: the implementation did not start (2 attempts; last: no hello within the start deadline of 100ms"},
			idASCII: {run.Crash, "not sent: the implementation did not start"},
			idLone:  {run.Crash, "not sent: the implementation did not start"},
			idPair:  {run.Crash, "not sent: the implementation did not start"},
		},
		broken: true,
		check: func(t *testing.T, s *run.Summary, _ string) {
			if len(s.StartFailures) != 2 || s.StartFailures[1].Outcome != "timeout" {
				t.Errorf("start failures %+v, want 2 timeouts", s.StartFailures)
			}
		},
	}, {
		name: "garbage instead of an answer", behaviour: "garbage:" + idLone,
		wants: map[string]want{idLone: {run.Protocol, "not a JSON frame"}},
	}, {
		name: "garbage instead of hello", behaviour: "garbage-hello",
		wants: map[string]want{
			idCost: {run.Protocol, "not a JSON frame"}, idASCII: {run.Protocol, "not a JSON frame"},
			idLone: {run.Protocol, "not a JSON frame"}, idPair: {run.Protocol, "not a JSON frame"},
		},
		broken: true,
	}, {
		name: "JSON that is not an object", behaviour: "not-object:" + idLone,
		wants: map[string]want{idLone: {run.Protocol, "JSON object"}},
	}, {
		name: "wrong seq", behaviour: "wrong-seq:" + idLone,
		wants: map[string]want{idLone: {run.Protocol, "seq"}},
	}, {
		name: "result without output", behaviour: "no-output:" + idLone,
		wants: map[string]want{idLone: {run.Protocol, "output"}},
	}, {
		name: "unknown answer type", behaviour: "bad-type:" + idLone,
		wants: map[string]want{idLone: {run.Protocol, "want result, skip or error"}},
	}, {
		name: "a line longer than MaxFrameBytes", behaviour: "flood:" + idLone,
		wants: map[string]want{idLone: {run.Protocol, "longer than"}},
	}, {
		name: "an endless line", behaviour: "flood-forever:" + idLone,
		wants: map[string]want{idLone: {run.Protocol, "longer than"}},
	}, {
		name: "endless small frames", behaviour: "flood-lines:" + idLone,
		wants: map[string]want{idLone: {run.Protocol, "want result, skip or error"}},
	}, {
		name: "every case floods", behaviour: "flood-lines", restarts: 10,
		wants: map[string]want{
			idCost: {run.Protocol, ""}, idASCII: {run.Protocol, ""}, idLone: {run.Protocol, ""}, idPair: {run.Protocol, ""},
		},
		broken: true,
	}, {
		name: "a lot of stderr goes to the log", behaviour: "stderr",
		check: func(t *testing.T, s *run.Summary, logDir string) {
			st, err := os.Stat(filepath.Join(logDir, "impl-1.log"))
			if err != nil {
				t.Fatal(err)
			}
			if want := int64(len(s.Results)) << 20; st.Size() < want {
				t.Errorf("the log holds %d bytes, want at least %d", st.Size(), want)
			}
			for _, r := range s.Results {
				if strings.Contains(r.Message, "noise") {
					t.Errorf("%s: stderr leaked into the message %q", r.Case.ID, r.Message)
				}
			}
		},
	}, {
		name: "skip", behaviour: "skip:" + idLone,
		wants: map[string]want{idLone: {run.Skip, "not implemented yet"}},
		check: func(t *testing.T, s *run.Summary, _ string) {
			for _, r := range s.Results {
				if r.Case.ID == idLone && r.Link != "https://example.com/issue/1" {
					t.Errorf("skip link %q", r.Link)
				}
			}
		},
	}, {
		name: "error", behaviour: "error:" + idLone,
		wants: map[string]want{idLone: {run.Error, "TypeError"}},
	}, {
		name: "wrong output fails with a path", behaviour: "wrong-output:" + idLone,
		wants: map[string]want{idLone: {run.Fail, "/text"}},
		check: func(t *testing.T, s *run.Summary, _ string) {
			for _, r := range s.Results {
				if r.Case.ID == idLone && (r.Mismatch == nil || r.Mismatch.Path != "/text") {
					t.Errorf("mismatch %+v, want one at /text", r.Mismatch)
				}
			}
		},
	}, {
		name: "an answer too many breaks the next case", behaviour: "twice:" + idASCII,
		wants: map[string]want{idLone: {run.Protocol, "seq"}},
	}, {
		name: "wrong protocol version", behaviour: "bad-protocol",
		wants: map[string]want{
			idCost: {run.Protocol, "protocol"}, idASCII: {run.Protocol, "protocol"},
			idLone: {run.Protocol, "protocol"}, idPair: {run.Protocol, "protocol"},
		},
		broken: true,
	}, {
		name: "hello with no kinds skips every case", behaviour: "no-kinds", implName: "fake-no-kinds",
		wants: map[string]want{
			idCost: {run.Skip, "kind"}, idASCII: {run.Skip, "kind"}, idLone: {run.Skip, "kind"}, idPair: {run.Skip, "kind"},
		},
	}, {
		name: "kinds not listed are skipped", behaviour: "sanitize-only",
		wants: map[string]want{idCost: {run.Skip, `"cost"`}},
	}, {
		name: "every case errors: the adapter looks broken", behaviour: "error-all",
		wants: map[string]want{
			idCost: {run.Error, ""}, idASCII: {run.Error, ""}, idLone: {run.Error, ""}, idPair: {run.Error, ""},
		},
		broken: true,
	}, {
		// The big input cannot fit the pipe: the write itself must time out.
		// Every case times out, so the deadline can be brief.
		name: "an adapter that does not read its input times out", behaviour: "deaf", big: true, timeout: brief,
		only:   []string{idASCII, idBig},
		wants:  map[string]want{idBig: {run.Timeout, "did not read"}, idASCII: {run.Timeout, "deadline"}},
		broken: true,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cases := testSuite(t, tt.big)
			if tt.only != nil {
				cases = slices.DeleteFunc(cases, func(c *suite.Case) bool { return !slices.Contains(tt.only, c.ID) })
			}
			timeout := tt.timeout
			if timeout == 0 {
				timeout = 10 * time.Second
			}
			restarts := tt.restarts
			if restarts == 0 {
				restarts = 5
			}
			opts, logDir := processOpts(t, tt.behaviour, timeout, restarts)
			if tt.hello != 0 {
				mk := opts.NewSubject
				opts.NewSubject = func(w int) subject.Subject {
					p := mk(w).(*subject.Process)
					p.StartTimeout = tt.hello
					return p
				}
			}
			start := time.Now()
			s := runGuarded(t, time.Minute, cases, opts)
			checkResults(t, s, cases, tt.wants)
			if s.Broken != tt.broken {
				t.Errorf("Broken = %v, want %v (counts %v)", s.Broken, tt.broken, s.Counts)
			}
			if tt.implName != "" && s.Implementation.Name != tt.implName {
				t.Errorf("implementation %q, want %q", s.Implementation.Name, tt.implName)
			}
			if tt.check != nil {
				tt.check(t, s, logDir)
			}
			t.Logf("%v", time.Since(start).Round(time.Millisecond))
		})
	}
}

// TestMaxRestarts: past the cap, the remaining cases are crashes that were
// never sent, and the run ends at once.
func TestMaxRestarts(t *testing.T) {
	t.Parallel()
	cases := testSuite(t, false)
	opts, _ := processOpts(t, "crash-always", 10*time.Second, 1)
	start := time.Now()
	s := runGuarded(t, time.Minute, cases, opts)
	checkResults(t, s, cases, map[string]want{
		cases[0].ID: {run.Crash, "the implementation "},
		cases[1].ID: {run.Crash, "the implementation "},
		cases[2].ID: {run.Crash, "not sent"},
		cases[3].ID: {run.Crash, "not sent"},
	})
	if !s.Broken {
		t.Error("not Broken")
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestJobs: several processes give the same results as one.
func TestJobs(t *testing.T) {
	t.Parallel()
	for _, b := range []string{"ok", "crash:" + idLone, "error:" + idCost} {
		t.Run(b, func(t *testing.T) {
			t.Parallel()
			cases := testSuite(t, false)
			var outcomes [2][]run.Outcome
			for i, jobs := range []int{1, 3} {
				opts, _ := processOpts(t, b, 10*time.Second, 5)
				opts.Jobs = jobs
				var mu sync.Mutex
				calls, last := 0, 0
				opts.Progress = func(done, total int, r run.Result) {
					mu.Lock()
					defer mu.Unlock()
					calls++
					last = done
					if total != len(cases) {
						t.Errorf("progress total %d, want %d", total, len(cases))
					}
				}
				s := runGuarded(t, time.Minute, cases, opts)
				if calls != len(cases) || last != len(cases) {
					t.Errorf("jobs %d: progress called %d times, last done %d; want %d", jobs, calls, last, len(cases))
				}
				for _, r := range s.Results {
					outcomes[i] = append(outcomes[i], r.Outcome)
				}
			}
			if fmt.Sprint(outcomes[0]) != fmt.Sprint(outcomes[1]) {
				t.Errorf("jobs 1 gave %v, jobs 3 gave %v", outcomes[0], outcomes[1])
			}
		})
	}
}

// TestReferenceSubject runs the in-process reference with expectations.
func TestReferenceSubject(t *testing.T) {
	t.Parallel()
	cases := testSuite(t, false)
	ref := func(int) subject.Subject {
		return &subject.Reference{Options: conformance.Options{HTTPClient: wire.InProcess}}
	}

	s := runGuarded(t, time.Minute, cases, run.Options{NewSubject: ref, Jobs: 2})
	checkResults(t, s, cases, nil)
	if !s.OK() || s.Broken || s.Implementation.Name != "piconform-reference" {
		t.Errorf("OK %v, Broken %v, implementation %+v", s.OK(), s.Broken, s.Implementation)
	}

	// An expectation for a passing case is an unexpected pass; one for no
	// case of the suite is stale.
	exp, err := expect.Parse("exp.txt", []byte("sanitize/pair  # said to fail\nnone/such  # stale\n"))
	if err != nil {
		t.Fatal(err)
	}
	s = runGuarded(t, time.Minute, cases, run.Options{NewSubject: ref, Expect: exp})
	if s.OK() {
		t.Error("OK with an unexpected pass and a stale entry")
	}
	if len(s.UnexpectedPasses) != 1 || s.UnexpectedPasses[0].Case.ID != idPair {
		t.Errorf("unexpected passes %v", s.UnexpectedPasses)
	}
	if len(s.Unmatched) != 1 || s.Unmatched[0].Pattern != "none/such" {
		t.Errorf("unmatched %v", s.Unmatched)
	}
}

// TestExpectedFailures: failures an entry covers do not fail the run.
func TestExpectedFailures(t *testing.T) {
	t.Parallel()
	cases := testSuite(t, false)
	opts, _ := processOpts(t, "wrong-output:"+idLone, 10*time.Second, 5)
	exp, err := expect.Parse("exp.txt", []byte("sanitize/lone-*  # surrogates are replaced, not removed\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts.Expect = exp
	s := runGuarded(t, time.Minute, cases, opts)
	checkResults(t, s, cases, map[string]want{idLone: {run.Fail, ""}})
	if !s.OK() || s.ExpectedFailures != 1 || len(s.Failed()) != 0 {
		t.Errorf("OK %v, expected failures %d, failed %v", s.OK(), s.ExpectedFailures, s.Failed())
	}
	if r := s.Results[2]; r.Expected == nil || r.Expected.Line != 1 {
		t.Errorf("result %s: Expected %+v", r.Case.ID, r.Expected)
	}
}

// TestInterrupted: a cancelled run still gives every case an outcome.
func TestInterrupted(t *testing.T) {
	t.Parallel()
	cases := testSuite(t, false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan *run.Summary, 1)
	go func() {
		done <- run.Run(ctx, cases, ids(cases), run.Options{NewSubject: func(int) subject.Subject {
			return &subject.Reference{Options: conformance.Options{HTTPClient: wire.InProcess}}
		}})
	}()
	select {
	case s := <-done:
		if len(s.Results) != len(cases) {
			t.Fatalf("%d results", len(s.Results))
		}
		for _, r := range s.Results {
			if r.Case == nil || r.Outcome == "" {
				t.Errorf("a result without a case or outcome: %+v", r)
			}
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a cancelled run hangs")
	}
}

// TestNoCases: an empty selection is a conforming run of nothing.
func TestNoCases(t *testing.T) {
	t.Parallel()
	s := runGuarded(t, 10*time.Second, nil, run.Options{NewSubject: func(int) subject.Subject {
		return &subject.Reference{Options: conformance.Options{HTTPClient: wire.InProcess}}
	}})
	if len(s.Results) != 0 || !s.OK() || s.Broken {
		t.Errorf("results %v, OK %v, Broken %v", s.Results, s.OK(), s.Broken)
	}
}

// TestPinnedExpectedFailures: an entry naming paths covers a failure at
// those paths only; a difference elsewhere, or another outcome, fails the
// run and the message names what the entry leaves out.
func TestPinnedExpectedFailures(t *testing.T) {
	t.Parallel()
	cases := testSuite(t, false)
	tests := []struct {
		name, behaviour, entry string
		ok                     bool
		unpinned               []string
		message                string
	}{
		{"pinned path", "wrong-output:" + idLone, "sanitize/lone-*  /text  # replaced", true, nil, ""},
		{"pinned by a glob", "wrong-output:" + idLone, "sanitize/lone-*  /**  # anything", true, nil, ""},
		{"another path", "wrong-output:" + idLone, "sanitize/lone-*  /other,/text/x  # elsewhere", false, []string{"/text"}, "new difference at /text, which the expected-failure entry at exp.txt:1 does not name"},
		{"another outcome", "hang:" + idLone, "sanitize/lone-*  /text  # replaced", false, nil, "cover only a failure (outcome fail), not timeout"},
		{"whole case covers a timeout", "hang:" + idLone, "sanitize/lone-*  # hangs", true, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			timeout := 10 * time.Second
			if strings.HasPrefix(tt.behaviour, "hang:") {
				timeout = time.Second // the other cases must answer within it, even on a loaded machine
			}
			opts, _ := processOpts(t, tt.behaviour, timeout, 5)
			exp, err := expect.Parse("exp.txt", []byte(tt.entry+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			opts.Expect = exp
			s := runGuarded(t, time.Minute, cases, opts)
			if s.OK() != tt.ok {
				t.Errorf("OK %v, want %v; failed %+v", s.OK(), tt.ok, s.Failed())
			}
			var r run.Result
			for _, x := range s.Results {
				if x.Case.ID == idLone {
					r = x
				}
			}
			if tt.ok != (r.Expected != nil) {
				t.Errorf("Expected %+v", r.Expected)
			}
			if d := cmp.Diff(tt.unpinned, r.Unpinned); d != "" {
				t.Errorf("Unpinned (-want +got):\n%s", d)
			}
			if !strings.Contains(r.Message, tt.message) {
				t.Errorf("message %q, want it to contain %q", r.Message, tt.message)
			}
		})
	}
}

// TestStartFailureChargesNoCase: a process that misses its start deadline
// holds no case up: the case runs in a process that started, and the run
// conforms, with the failed start on record.
func TestStartFailureChargesNoCase(t *testing.T) {
	t.Parallel()
	cases := testSuite(t, false)
	for _, jobs := range []int{1, 2} {
		t.Run(fmt.Sprintf("jobs %d", jobs), func(t *testing.T) {
			t.Parallel()
			mark := filepath.Join(t.TempDir(), "started")
			opts, _ := processOpts(t, "hang-first-start:"+mark, 10*time.Second, 5)
			opts.Jobs = jobs
			mk := opts.NewSubject
			opts.NewSubject = func(w int) subject.Subject {
				p := mk(w).(*subject.Process)
				p.StartTimeout = time.Second
				return p
			}
			s := runGuarded(t, time.Minute, cases, opts)
			checkResults(t, s, cases, nil)
			if !s.OK() || len(s.StartFailures) != 1 || !strings.Contains(s.StartFailures[0].Message, "no hello within the start deadline of 1s") {
				t.Errorf("OK %v, start failures %+v", s.OK(), s.StartFailures)
			}
		})
	}
}

// TestCaseDeadlineStartsAfterHello: a process slower to start than the case
// deadline (but within its start deadline) times out no case.
func TestCaseDeadlineStartsAfterHello(t *testing.T) {
	t.Parallel()
	cases := testSuite(t, false)
	opts, _ := processOpts(t, "slow-start", time.Second, 5)
	s := runGuarded(t, time.Minute, cases, opts)
	checkResults(t, s, cases, nil)
	if !s.OK() || len(s.StartFailures) != 0 {
		t.Errorf("OK %v, start failures %+v", s.OK(), s.StartFailures)
	}
}

// TestFirstUseTimeout: the first case of each kind in a process may take
// the longer first-use deadline (an adapter loading that kind's code); the
// cases after it have the case deadline.
func TestFirstUseTimeout(t *testing.T) {
	t.Parallel()
	cases := testSuite(t, false)
	t.Run("without", func(t *testing.T) {
		t.Parallel()
		// One case is enough to see its first answer miss the deadline.
		opts, _ := processOpts(t, "slow-first-answer", time.Second, 5)
		s := runGuarded(t, time.Minute, cases[:1], opts)
		checkResults(t, s, cases[:1], map[string]want{cases[0].ID: {run.Timeout, "deadline"}})
	})
	t.Run("with", func(t *testing.T) {
		t.Parallel()
		opts, _ := processOpts(t, "slow-first-answer", time.Second, 5)
		opts.FirstUseTimeout = 10 * time.Second
		s := runGuarded(t, time.Minute, cases, opts)
		checkResults(t, s, cases, nil)
	})
}
