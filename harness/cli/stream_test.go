package cli_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/harness/cli"
)

// TestPipedOutputWhileRunning reads piconform's stdout through a pipe, as
// CI and `| tee` do, while a slow adapter keeps the run going: the header,
// the failure and progress lines arrive before the run ends.
func TestPipedOutputWhileRunning(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ids := sanitizeIDs(t)
	slowCase := ids[len(ids)-1] // the last case, so the failure comes first
	cmd := exec.Command(exe, "run", "--kind", "sanitize", "--timeout", "20s", "--log-dir", t.TempDir(),
		"--impl", fakeImpl(t, "wrong-output:"+failing+";slow:"+slowCase))
	cmd.Env = append(os.Environ(), mainEnv+"=1", progressEnv+"=200ms")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = &bytes.Buffer{}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	type line struct {
		text    string
		running bool // the process had not exited when the line was read
	}
	lines := make(chan line)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			select {
			case <-exited:
				lines <- line{sc.Text(), false}
			default:
				lines <- line{sc.Text(), true}
			}
		}
	}()
	var got []line
	timeout := time.After(time.Minute)
	for done := false; !done; {
		select {
		case l, ok := <-lines:
			if !ok {
				done = true
				break
			}
			got = append(got, l)
		case <-timeout:
			cmd.Process.Kill()
			t.Fatal("no end within a minute")
		}
	}
	err = cmd.Wait()
	close(exited)
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Fatalf("exit %d (%v), want 1; stderr:\n%s", code, err, cmd.Stderr)
	}
	// Each of these must have been read while the slow case still ran:
	// before the line that ends the run.
	seen := map[string]bool{}
	for _, l := range got {
		if strings.HasPrefix(l.text, "Failures by cause") {
			break
		}
		switch {
		case strings.HasPrefix(l.text, "piconform ") && strings.HasSuffix(l.text, fmt.Sprintf(": fake 1 (go), dialect 1.6 (Pi 1.6.0), %d cases", len(ids))):
			seen["header"] = true
		case strings.HasPrefix(l.text, "FAIL "+failing+": /text"):
			seen["failure"] = true
		case strings.HasPrefix(l.text, "… ") && strings.Contains(l.text, "running "+slowCase):
			seen["progress"] = true
		}
	}
	for _, want := range []string{"header", "failure", "progress"} {
		if !seen[want] {
			var text []string
			for _, l := range got {
				text = append(text, l.text)
			}
			t.Errorf("no %s line before the run ended:\n%s", want, strings.Join(text, "\n"))
		}
	}
	if len(got) == 0 || !got[0].running {
		t.Error("the first line was read only after the process exited")
	}
}

// sanitizeIDs are the ids of the built-in sanitize cases, in order.
func sanitizeIDs(t *testing.T) []string {
	t.Helper()
	r := pic(t, nil, "list", "--kind", "sanitize")
	expectCode(t, r, 0)
	var ids []string
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		id, _, _ := strings.Cut(l, "\t")
		ids = append(ids, id)
	}
	return ids
}

// TestCannotStart: a subject that cannot start is exit 2 at once, with one
// clear line and no case run.
func TestCannotStart(t *testing.T) {
	t.Parallel()
	tests := []struct {
		impl string
		want string
	}{
		{"./no-such-adapter", `piconform: --impl ./no-such-adapter cannot start: `},
		{"no-such-adapter --flag", `piconform: --impl 'no-such-adapter --flag' cannot start: `},
		{"sh -c 'echo oops >&2; exit 3'", `piconform: --impl 'sh -c '\''echo oops >&2; exit 3'\''' cannot start: `},
	}
	for _, tt := range tests {
		start := time.Now()
		r := pic(t, nil, "run", "--kind", "sanitize", "--impl", tt.impl, "--log-dir", t.TempDir())
		expectCode(t, r, cli.ExitUsageOrData)
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("%s: took %v", tt.impl, took)
		}
		if strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, tt.want) {
			t.Errorf("%s: stderr %q, want one line starting %q", tt.impl, r.stderr, tt.want)
		}
		if r.stdout != "" {
			t.Errorf("%s: stdout %q", tt.impl, r.stdout)
		}
	}
	// What it wrote to stderr ends the line.
	r := pic(t, nil, "run", "--kind", "sanitize", "--impl", "sh -c 'echo oops >&2; exit 3'")
	if !strings.Contains(r.stderr, "its stderr ends: oops\n") {
		t.Errorf("stderr %q does not end with the adapter's stderr", r.stderr)
	}
}

// TestDashOutputs: every report option takes - for stdout; what people read
// then goes to stderr.
func TestDashOutputs(t *testing.T) {
	t.Parallel()
	for _, flag := range []string{"--json", "--junit", "--markdown", "--write-expect"} {
		t.Run(flag, func(t *testing.T) {
			t.Parallel()
			args := []string{"run", "--kind", "sanitize", "--impl", fakeImpl(t, "wrong-output:"+failing), "--log-dir", t.TempDir(), flag, "-"}
			r := pic(t, nil, args...)
			expectCode(t, r, 1, args...)
			if !strings.Contains(r.stderr, "FAIL "+failing) {
				t.Errorf("stderr lacks the failure:\n%s", r.stderr)
			}
			switch flag {
			case "--json":
				lines := jsonLines(t, r.stdout)
				if n := len(sanitizeIDs(t)); len(lines) != n+2 || lines[0]["type"] != "header" || lines[n+1]["type"] != "footer" {
					t.Errorf("stdout is not the JSON report:\n%s", r.stdout)
				}
			case "--junit":
				var doc struct {
					Tests int `xml:"tests,attr"`
				}
				if err := xml.Unmarshal([]byte(r.stdout), &doc); err != nil || doc.Tests != len(sanitizeIDs(t)) {
					t.Errorf("stdout is not the JUnit report (%v):\n%s", err, r.stdout)
				}
			case "--markdown":
				if !strings.HasPrefix(r.stdout, "## piconform: <code>fake 1</code>, dialect 1.6 — ❌ does not conform\n") {
					t.Errorf("stdout is not the Markdown:\n%s", r.stdout)
				}
			case "--write-expect":
				if !strings.Contains(r.stdout, failing+"  /text  # TODO explain: ") {
					t.Errorf("stdout is not the expectations:\n%s", r.stdout)
				}
			}
		})
	}
	r := pic(t, nil, "run", "--json", "-", "--markdown", "-")
	expectCode(t, r, cli.ExitUsageOrData)
	if !strings.Contains(r.stderr, "only one of --json, --junit, --markdown and --write-expect can write to stdout") {
		t.Errorf("stderr %q", r.stderr)
	}
}

// TestGitHubAnnotations: under GitHub Actions each failing case is an
// error annotation on its case file.
func TestGitHubAnnotations(t *testing.T) {
	t.Parallel()
	args := []string{"run", "--kind", "sanitize", "--impl", fakeImpl(t, "wrong-output:"+failing), "--log-dir", t.TempDir()}
	r := pic(t, map[string]string{"GITHUB_ACTIONS": "true"}, args...)
	expectCode(t, r, 1)
	want := "::error file=fixtures/sanitize/lone-high-removed.json,title=" + failing + "::/text: want "
	if strings.Count(r.stdout, "::error ") != 1 || !strings.Contains(r.stdout, want) {
		t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
	}
	r = pic(t, nil, args...)
	if strings.Contains(r.stdout, "::error") {
		t.Errorf("an annotation outside GitHub Actions:\n%s", r.stdout)
	}
}

// TestFlagsConsistent: serve parses flags like the others, comma lists work
// wherever a flag repeats, and the help names every exit code.
func TestFlagsConsistent(t *testing.T) {
	t.Parallel()
	hello := `{"type":"hello","protocol":1}` + "\n"
	for _, args := range [][]string{{"serve", "--help"}, {"serve", "-h"}, {"serve", "--bogus"}, {"serve", "extra"}} {
		var stdout, stderr bytes.Buffer
		code := cli.Main(args, cli.Env{Stdin: strings.NewReader(hello), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }})
		if stdout.Len() != 0 {
			t.Errorf("%v served: %q", args, stdout.String())
		}
		wantCode := cli.ExitUsageOrData
		if args[1] == "--help" || args[1] == "-h" {
			wantCode = cli.ExitOK
		}
		if code != wantCode || stderr.Len() == 0 {
			t.Errorf("%v: exit %d, want %d; stderr %q", args, code, wantCode, stderr.String())
		}
	}

	one := pic(t, nil, "list", "--kind", "sanitize", "--kind", "cost", "--dialect", "0.80")
	comma := pic(t, nil, "list", "--kind", "sanitize,cost", "--dialect", "0.80")
	expectCode(t, comma, 0)
	if one.stdout != comma.stdout || !strings.Contains(comma.stdout, "sanitize/") || !strings.Contains(comma.stdout, "cost/") {
		t.Errorf("--kind a,b lists\n%s\nwhere --kind a --kind b lists\n%s", comma.stdout, one.stdout)
	}
	cases := pic(t, nil, "list", "--case", failing+",sanitize/bom-kept")
	if n := strings.Count(cases.stdout, "\n"); n != 2 {
		t.Errorf("--case a,b lists %d cases:\n%s", n, cases.stdout)
	}

	help := pic(t, nil, "help")
	if !strings.Contains(help.stdout, "130 interrupted") || !strings.Contains(help.stdout, "comma-separated list") {
		t.Errorf("help:\n%s", help.stdout)
	}
}

// TestListAndCoverageJSON: both commands have a JSON form.
func TestListAndCoverageJSON(t *testing.T) {
	t.Parallel()
	r := pic(t, nil, "list", "--kind", "sanitize", "--json")
	expectCode(t, r, 0)
	lines := jsonLines(t, r.stdout)
	if len(lines) != len(sanitizeIDs(t)) {
		t.Fatalf("%d lines for %d cases", len(lines), len(sanitizeIDs(t)))
	}
	first := lines[0]
	want := map[string]any{"id": "sanitize/ascii-unchanged", "kind": "sanitize", "rules": []any{"san.other-untouched"},
		"file": "fixtures/sanitize/ascii-unchanged.json", "dialects": []any{"0.80", "1.6"}}
	delete(first, "description")
	if diff := cmp.Diff(want, first); diff != "" {
		t.Errorf("list --json line (-want +got):\n%s", diff)
	}

	r = pic(t, nil, "coverage", "--json")
	var cov struct {
		Rules []struct {
			ID     string   `json:"id"`
			Status string   `json:"status"`
			Cases  []string `json:"cases"`
		} `json:"rules"`
		Unknown []any          `json:"unknown"`
		Counts  map[string]int `json:"counts"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &cov); err != nil {
		t.Fatalf("coverage --json: %v\n%s", err, r.stdout)
	}
	if len(cov.Rules) == 0 || cov.Counts["rules"] != len(cov.Rules) || cov.Counts["cases"]+cov.Counts["go-tests"]+cov.Counts["untested"] != len(cov.Rules) {
		t.Errorf("coverage counts %v for %d rules", cov.Counts, len(cov.Rules))
	}
	for _, rc := range cov.Rules {
		if rc.ID == "san.other-untouched" && (rc.Status != "cases" || len(rc.Cases) == 0) {
			t.Errorf("rule %+v", rc)
		}
	}
}

// TestProfileTyped: the typed profile skips the lenient-input cases and the
// cases that pin a JavaScript crash, and the reports say it was used.
func TestProfileTyped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	jsonFile := filepath.Join(dir, "r.jsonl")
	r := pic(t, nil, "run", "--profile", "typed", "--kind", "session,cost", "--dialect", "0.80", "--json", jsonFile, "-v")
	if !strings.Contains(r.stdout, ", profile typed\n") {
		t.Errorf("the header does not name the profile:\n%s", r.stdout)
	}
	for _, want := range []string{
		"SKIP session/throws-null-line: profile typed: the case pins a JavaScript crash (a thrown TypeError)",
		"SKIP cost/counts-other-types: profile typed: the case checks reading input of another type than declared (input.lenient)",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
	data, err := os.ReadFile(jsonFile)
	if err != nil {
		t.Fatal(err)
	}
	if h := jsonLines(t, string(data))[0]; h["profile"] != "typed" {
		t.Errorf("the JSON header %v does not name the profile", h)
	}
	r = pic(t, nil, "run", "--profile", "untyped-js")
	expectCode(t, r, cli.ExitUsageOrData)
	if !strings.Contains(r.stderr, `--profile "untyped-js": unknown profile; known: typed`) {
		t.Errorf("stderr %q", r.stderr)
	}
}
