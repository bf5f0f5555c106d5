package main

// The example adapter passes the whole built-in suite through the subprocess
// path, as `piconform run --impl` runs it: this test binary re-executes
// itself as the adapter.

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/piconform/piconform"
	"github.com/piconform/piconform/adapterkit"
	"github.com/piconform/piconform/harness/golden"
	"github.com/piconform/piconform/harness/kinds"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/subject"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/harness/wire"
	"github.com/piconform/piconform/reference/dialect"
)

const adapterEnv = "PICONFORM_EXAMPLE_GO_ADAPTER"

func TestMain(m *testing.M) {
	if os.Getenv(adapterEnv) != "" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestSuitePasses(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	command := adapterEnv + "=1 '" + strings.ReplaceAll(exe, "'", `'\''`) + "'"
	s, err := kinds.Load("builtin", piconform.Builtin(), "")
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(s.Cases))
	for i, c := range s.Cases {
		ids[i] = c.ID
	}
	// The adapter follows every dialect: each run's frames name one.
	for _, d := range dialect.All() {
		var cases []*suite.Case
		for _, c := range s.Cases {
			if c.HoldsIn(d) {
				cases = append(cases, c)
			}
		}
		fixtures := golden.Fixtures(d)
		// The adapter answers with the reference, whose reads of a split
		// replay the in-process runs check piece by piece; here only the
		// bytes matter.
		fixtures[wire.Kind].(*wire.Fixture).NoPause = true
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		sum := run.Run(ctx, cases, ids, run.Options{
			Jobs:     2,
			Timeout:  30 * time.Second, // generous: the machine may be loaded
			Fixtures: fixtures,
			Dialect:  d,
			NewSubject: func(int) subject.Subject {
				return &subject.Process{Command: command, Log: os.Stderr, StartTimeout: time.Minute}
			},
		})
		if sum.Implementation.Name != "example-go" || !slices.Equal(sum.Implementation.Dialects, dialect.Names()) {
			t.Errorf("implementation %+v, want example-go's hello with every dialect", sum.Implementation)
		}
		for _, r := range sum.Failed() {
			t.Errorf("dialect %s: %s: %s: %s", d, r.Case.ID, r.Outcome, r.Message)
		}
		if !sum.OK() || sum.Counts[run.Pass] != len(cases) {
			t.Errorf("dialect %s: %d of %d cases passed (%v)", d, sum.Counts[run.Pass], len(cases), sum.Counts)
		}
	}
}

// TestSanitizeKeepsSurrogatePairs: the one kind written out by hand, through
// the kit, with a lone surrogate that encoding/json would have mangled, and
// a text on which Pi throws: the expected failure is a result.
func TestSanitizeKeepsSurrogatePairs(t *testing.T) {
	var out strings.Builder
	in := `{"type":"run","seq":1,"case":{"id":"sanitize/x","kind":"sanitize","input":{"text":"a\ud83d b\ud83d\ude00"}}}` + "\n" +
		`{"type":"run","seq":2,"case":{"id":"sanitize/y","kind":"sanitize","input":{"text":7}}}` + "\n"
	if err := adapterkit.Serve(strings.NewReader(in), &out, adapter()); err != nil {
		t.Fatal(err)
	}
	want := `{"type":"result","seq":1,"output":{"text":"a b😀"}}` + "\n" +
		`{"type":"result","seq":2,"output":{"throws":{"category":"type-error","message":"text is number"}}}` + "\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestREADMEShowsThisAdapter: docs/adapters.md's "A Go adapter" shows this
// file, whole, and it stays under 60 lines.
func TestREADMEShowsThisAdapter(t *testing.T) {
	readme, err := os.ReadFile("../../docs/adapters.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "```go\n// Command example-go")
	block, _, ok2 := strings.Cut(block, "```\n")
	if !ok || !ok2 {
		t.Fatal("docs/adapters.md has no go block starting with the example's package comment")
	}
	if got := "// Command example-go" + block; got != string(src) {
		t.Errorf("docs/adapters.md's example differs from main.go; copy main.go into it")
	}
	if n := strings.Count(string(src), "\n"); n >= 60 {
		t.Errorf("main.go has %d lines; docs/adapters.md promises under 60", n)
	}
}
