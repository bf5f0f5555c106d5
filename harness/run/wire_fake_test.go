package run_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/piconform/piconform"
	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/golden"
	"github.com/piconform/piconform/harness/kinds"
	"github.com/piconform/piconform/harness/report"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/harness/wire"
	"github.com/piconform/piconform/reference/dialect"
)

// builtinSuite is the built-in suite, loaded and checked once for the
// package's tests, which only read it.
var builtinSuite = sync.OnceValues(func() (*suite.Suite, error) {
	return kinds.Load("builtin", piconform.Builtin(), "")
})

// builtinWire returns the wire cases of the built-in suite, or those of ids.
func builtinWire(t *testing.T, ids ...string) []*suite.Case {
	t.Helper()
	s, err := builtinSuite()
	if err != nil {
		t.Fatal(err)
	}
	var out []*suite.Case
	for _, c := range s.Cases {
		if c.Kind == wire.Kind && c.HoldsIn(dialect.V0_80) && (len(ids) == 0 || contains(ids, c.ID)) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		t.Fatal("no wire cases")
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// wireOpts runs the fake with the runner's wire fixture.
func wireOpts(t *testing.T, behaviour string, strict bool) run.Options {
	opts, _ := processOpts(t, behaviour, 30*time.Second, 2)
	opts.Jobs, opts.StrictIdentity = 2, strict
	opts.Fixtures = golden.Fixtures(dialect.V0_80)
	opts.Fixtures[wire.Kind].(*wire.Fixture).StrictIdentity = strict
	opts.Fixtures[wire.Kind].(*wire.Fixture).NoPause = true // the fake reads the replay whole
	return opts
}

// TestIdentityIsNotConformance: a port that differs from Pi only in
// user-agent and accept passes every wire case, with notes; under
// --strict-identity it does not.
func TestIdentityIsNotConformance(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs every wire case")
	}
	cases := builtinWire(t)
	s := runGuarded(t, 5*time.Minute, cases, wireOpts(t, "own-client", false))
	noted := 0
	for _, r := range s.Results {
		if r.Outcome != run.Pass {
			t.Errorf("%s: %s: %s", r.Case.ID, r.Outcome, r.Message)
		}
		for _, n := range r.Notes {
			if !strings.HasPrefix(n, "/requests/") || !strings.Contains(n, "/headers/") {
				t.Errorf("%s: note %q", r.Case.ID, n)
			}
		}
		if len(r.Notes) > 0 {
			noted++
		}
	}
	if noted == 0 {
		t.Error("no case has a note on its identity headers")
	}

	strict := builtinWire(t, "wire/anthropic-cache-none", "wire/mistral-minimal-text")
	s = runGuarded(t, time.Minute, strict, wireOpts(t, "own-client", true))
	for _, r := range s.Results {
		if r.Outcome != run.Fail || !hasPath(r.Diffs, "/requests/0/headers/user-agent") || !hasPath(r.Diffs, "/requests/0/headers/accept") {
			t.Errorf("strict: %s: %s %v", r.Case.ID, r.Outcome, r.Diffs)
		}
	}
}

func hasPath(diffs []compare.Diff, p string) bool {
	for _, d := range diffs {
		if d.Path == p {
			return true
		}
	}
	return false
}

// TestEveryDifferenceInOneRun: a port that sends a wrong body and returns
// a wrong answer is told both, in one run, in every report format.
func TestEveryDifferenceInOneRun(t *testing.T) {
	t.Parallel()
	const id = "wire/anthropic-cache-none"
	cases := builtinWire(t, id)
	s := runGuarded(t, time.Minute, cases, wireOpts(t, "wrong-wire:"+id, false))
	r := s.Results[0]
	if r.Outcome != run.Fail {
		t.Fatalf("%s: %s: %s", id, r.Outcome, r.Message)
	}
	var paths []string
	for _, d := range r.Diffs {
		paths = append(paths, d.Path)
	}
	// The request's difference first, then the answer's. Nothing else
	// differs: the request got the recorded response, not an error.
	want := []string{"/requests/0/body/fake_extra", "/message/model"}
	if strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Fatalf("diffs at %v, want %v", paths, want)
	}
	if r.Mismatch == nil || r.Mismatch.Path != want[0] || !strings.Contains(r.Message, "/requests/0/body/fake_extra") || !strings.Contains(r.Message, "/message/model") {
		t.Errorf("mismatch %v, message %q", r.Mismatch, r.Message)
	}

	var term bytes.Buffer
	report.Terminal(&term, s, report.Style{}, false)
	md := string(report.Markdown(s))
	junit := string(report.JUnit(s))
	for name, text := range map[string]string{"terminal": term.String(), "markdown": md, "junit": junit} {
		for _, p := range want {
			if !strings.Contains(text, p) {
				t.Errorf("%s report lacks %s:\n%s", name, p, text)
			}
		}
		for _, bad := range []string{"compare.", "map[string]any", "jsonv."} {
			if strings.Contains(text, bad) {
				t.Errorf("%s report shows Go syntax %q:\n%s", name, bad, text)
			}
		}
	}
	if !strings.Contains(term.String(), "  - \"claude-sonnet-4-5\"\n") || !strings.Contains(term.String(), "  + \"not-the-model\"\n") || !strings.Contains(term.String(), "  + true\n") {
		t.Errorf("terminal diff is not -want +got in JSON:\n%s", term.String())
	}
	if !strings.Contains(md, "| <code>/message/model</code> | <code>&#34;claude-sonnet-4-5&#34;</code> | <code>&#34;not-the-model&#34;</code> |") ||
		!strings.Contains(md, "| <code>/requests/0/body/fake_extra</code> | *absent* | <code>true</code> |") {
		t.Errorf("markdown:\n%s", md)
	}
	if !strings.Contains(junit, "+ &#34;not-the-model&#34;") {
		t.Errorf("junit:\n%s", junit)
	}

	var line struct {
		Type  string `json:"type"`
		Path  string `json:"path"`
		Diffs []struct {
			Path string           `json:"path"`
			Want *json.RawMessage `json:"want"`
			Got  *json.RawMessage `json:"got"`
		} `json:"diffs"`
	}
	for _, l := range bytes.Split(report.JSONLines(s), []byte("\n")) {
		if bytes.Contains(l, []byte(`"type":"case"`)) {
			if err := json.Unmarshal(l, &line); err != nil {
				t.Fatal(err)
			}
		}
	}
	if line.Path != want[0] || len(line.Diffs) != len(want) {
		t.Fatalf("JSON case line %+v", line)
	}
	if d := line.Diffs[0]; d.Path != want[0] || d.Want != nil || d.Got == nil || string(*d.Got) != "true" {
		t.Errorf("JSON diff 0 %s %v %v", d.Path, d.Want, d.Got)
	}
	if d := line.Diffs[1]; d.Want == nil || string(*d.Want) != `"claude-sonnet-4-5"` || string(*d.Got) != `"not-the-model"` {
		t.Errorf("JSON diff 1 %+v", d)
	}
}

// TestRequestDifferencesOfABrokenCase: an implementation that sends a wrong
// request and then answers with an error frame is an ERROR, and the report
// still holds the request's difference, so that an expected-failure entry
// cannot hide it.
func TestRequestDifferencesOfABrokenCase(t *testing.T) {
	t.Parallel()
	const id = "wire/anthropic-cache-none"
	s := runGuarded(t, time.Minute, builtinWire(t, id), wireOpts(t, "wrong-wire-then-error:"+id, false))
	r := s.Results[0]
	if r.Outcome != run.Error {
		t.Fatalf("%s: %s: %s", id, r.Outcome, r.Message)
	}
	if len(r.Diffs) != 1 || r.Diffs[0].Path != "/requests/0/body/fake_extra" {
		t.Errorf("diffs %v, want one at /requests/0/body/fake_extra", r.Diffs)
	}
	if !strings.Contains(r.Message, "TypeError: reading the stream") || !strings.Contains(r.Message, "/requests/0/body/fake_extra") {
		t.Errorf("message %q names neither the error nor the request's difference", r.Message)
	}
}

// TestBodyOverLimitStopsTheCase: a request body over the loopback server's
// limit fails its case at once with the limit named, though the adapter
// then hangs (without the stop the case would time out); the adapter is
// started again and the next case passes.
func TestBodyOverLimitStopsTheCase(t *testing.T) {
	t.Parallel()
	const id, next = "wire/anthropic-cache-none", "wire/mistral-minimal-text"
	tests := []struct{ name, behaviour string }{
		{"announced", "big-body"},
		{"streamed", "big-body-streamed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts := wireOpts(t, tt.behaviour+":"+id, false)
			opts.Jobs, opts.Timeout = 1, 30*time.Second
			opts.Fixtures[wire.Kind].(*wire.Fixture).MaxRequestBytes = 1 << 20
			cases := builtinWire(t, id, next)
			s := runGuarded(t, 2*time.Minute, cases, opts)
			checkResults(t, s, cases, map[string]want{
				id: {run.Fail, "request 1 (POST /big): the request body is over the limit of 1 MiB"},
			})
		})
	}
}
