package report_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/piconform/piconform/harness/report"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/subject"
	"github.com/piconform/piconform/harness/suite"
)

// stuck is a subject whose first case waits for the run to be cancelled,
// then fails the way a process does when its context ends.
type stuck struct{ started chan struct{} }

func (s *stuck) Start(context.Context) (subject.Implementation, error) {
	return subject.Implementation{Name: "stuck", Version: "1", Language: "go", Kinds: []string{"sanitize"}}, nil
}

func (s *stuck) Run(ctx context.Context, _ subject.Case) (subject.Reply, error) {
	close(s.started)
	<-ctx.Done()
	return subject.Reply{}, &subject.Failure{Outcome: subject.FailCrash, Msg: "interrupted: " + ctx.Err().Error()}
}

func (s *stuck) Close() error { return nil }

// TestInterruptedRun: Ctrl-C (a cancelled run) makes no case a crash and
// the adapter no broken one: the cases not finished are skips saying so,
// the reports say "interrupted", and the exit code is 130.
func TestInterruptedRun(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, name := range []string{"a", "b", "c"} {
		fsys["fixtures/sanitize/"+name+".json"] = &fstest.MapFile{Data: []byte(`{"id": "sanitize/` + name + `", "kind": "sanitize", "description": "d", "rules": ["san.x"], "input": {"text": "x"}}`)}
		fsys["golden/sanitize/"+name+".json"] = &fstest.MapFile{Data: []byte(`{"text": "x"}`)}
	}
	st, err := suite.Load("t", fsys, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	subj := &stuck{started: make(chan struct{})}
	go func() { <-subj.started; cancel() }()
	s := run.Run(ctx, st.Cases, nil, run.Options{NewSubject: func(int) subject.Subject { return subj }})
	if !s.Interrupted || s.Broken {
		t.Errorf("Interrupted %v, Broken %v; want true, false", s.Interrupted, s.Broken)
	}
	for _, r := range s.Results {
		if r.Outcome != run.Skip || !strings.Contains(r.Message, "interrupted") {
			t.Errorf("%s: %s %q, want a skip saying the run was interrupted", r.Case.ID, r.Outcome, r.Message)
		}
	}
	if code := report.ExitCode(s); code != 130 {
		t.Errorf("exit code %d, want 130", code)
	}
	var term bytes.Buffer
	report.Terminal(&term, s, report.Style{}, false)
	for name, out := range map[string]string{"terminal": term.String(), "markdown": string(report.Markdown(s))} {
		if !strings.Contains(out, "interrupted") || strings.Contains(out, "looks broken") || strings.Contains(out, "CRASH") {
			t.Errorf("the %s report:\n%s\nwant it to say interrupted, and nothing of crashes or a broken adapter", name, out)
		}
	}
}
