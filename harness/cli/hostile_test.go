package cli_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/piconform/piconform"
	"github.com/piconform/piconform/harness/cli"
)

// wireSuite copies the built-in wire case name (and the model presets)
// into a new suite folder, with its text replaced by text.
func wireSuite(t *testing.T, name, text string) string {
	t.Helper()
	dir := t.TempDir()
	for _, p := range []string{"fixtures/models.json", "fixtures/wire/" + name + ".json"} {
		data, err := fs.ReadFile(piconform.Builtin(), p)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, p), strings.Replace(string(data), `"content": "Hello"`, `"content": "`+text+`"`, 1))
	}
	return dir
}

// TestUpdateAllOrNothing: when update refuses one recording, it writes no
// file at all, not even the goldens of the cases that worked, and says
// which case was refused and why.
func TestUpdateAllOrNothing(t *testing.T) {
	t.Parallel()
	dir := wireSuite(t, "anthropic-auth-header-only", "my key is sk-ant-api03-abcdefghijklmnop")
	good, _ := copySuite(t, "sanitize")
	if err := os.CopyFS(dir, os.DirFS(good)); err != nil {
		t.Fatal(err)
	}
	r := pic(t, nil, "update", "--suite", dir)
	expectCode(t, r, cli.ExitUsageOrData)
	for _, want := range []string{"wire/anthropic-auth-header-only", "looks like a credential", "nothing written"} {
		if !strings.Contains(r.stdout+r.stderr, want) {
			t.Errorf("output does not say %q:\n%s%s", want, r.stdout, r.stderr)
		}
	}
	for _, d := range []string{"golden", "cassettes"} {
		if _, err := os.Stat(filepath.Join(dir, d)); err == nil {
			t.Errorf("update wrote into %s/ though a recording was refused", d)
		}
	}
}

// TestUpdateStaysInSuite: update refuses to write through a symlinked
// golden/ or cassettes/ folder that leads outside the suite, and writes
// nothing there or anywhere else.
func TestUpdateStaysInSuite(t *testing.T) {
	t.Parallel()
	for _, link := range []string{"golden", "cassettes", "golden/wire", "cassettes/wire"} {
		t.Run(link, func(t *testing.T) {
			dir := wireSuite(t, "anthropic-auth-header-only", "Hello")
			outside := t.TempDir()
			os.MkdirAll(filepath.Dir(filepath.Join(dir, link)), 0o755)
			if err := os.Symlink(outside, filepath.Join(dir, link)); err != nil {
				t.Skip(err)
			}
			r := pic(t, nil, "update", "--suite", dir)
			expectCode(t, r, cli.ExitUsageOrData)
			if !strings.Contains(r.stderr, "leads outside the suite") {
				t.Errorf("stderr does not say why:\n%s", r.stderr)
			}
			if entries, _ := os.ReadDir(outside); len(entries) > 0 {
				t.Errorf("update wrote outside the suite: %v", entries)
			}
			if _, err := os.Stat(filepath.Join(dir, "golden", "wire")); err == nil && link != "golden" && link != "golden/wire" {
				t.Error("update wrote a golden though another target was refused")
			}
		})
	}
}

// TestTempLogsRemoved: a run with --impl and no --log-dir removes the log
// folder it made when the run conforms.
func TestTempLogsRemoved(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	args := []string{"run", "--kind", "sanitize", "--impl", fakeImpl(t, "none")}
	expectCode(t, pic(t, nil, args...), cli.ExitOK, args...)
	if left, _ := filepath.Glob(filepath.Join(tmp, "piconform-logs-*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// TestOutputPathsCheckedFirst: an output path that cannot be written is a
// usage error before anything runs (nothing on stdout), not after the run.
func TestOutputPathsCheckedFirst(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "file")
	writeFile(t, file, "x")
	for _, flag := range []string{"--json", "--junit", "--markdown", "--write-expect"} {
		for _, p := range []string{t.TempDir(), filepath.Join(file, "report")} {
			args := []string{"run", "--kind", "sanitize", flag, p}
			r := pic(t, nil, args...)
			expectCode(t, r, cli.ExitUsageOrData, args...)
			if r.stdout != "" || !strings.Contains(r.stderr, p) {
				t.Errorf("piconform %s: stdout %q, stderr %q; want nothing run and the path named", strings.Join(args, " "), r.stdout, r.stderr)
			}
		}
	}
}

// TestListEscapes: list prints a case description's terminal escapes
// (ESC, OSC, BEL, CR) and line breaks escaped, one case a line.
func TestListEscapes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "fixtures", "sanitize", "evil.json"), `{"id": "sanitize/evil", "kind": "sanitize",
  "description": "\u001b]0;owned\u0007\u001b[2J\rgone\nnext\u009b31m", "rules": ["san.other-untouched"], "input": {"text": "x"}}`)
	r := pic(t, nil, "list", "--no-builtin", "--suite", dir)
	expectCode(t, r, cli.ExitOK)
	want := "sanitize/evil\tsan.other-untouched\t" + `\x1b]0;owned\x07\x1b[2J\x0dgone\nnext\u009b31m` + "\n"
	if r.stdout != want {
		t.Errorf("list:\n%q\nwant\n%q", r.stdout, want)
	}
}

// TestBadDurations: a deadline of zero or less is a usage error, not a run
// where every case times out.
func TestBadDurations(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"run", "--timeout", "-1s"},
		{"run", "--timeout", "0s"},
		{"run", "--start-timeout", "-5m"},
		{"run", "--start-timeout", "0"},
	} {
		r := pic(t, nil, args...)
		if r.code != cli.ExitUsageOrData || !strings.Contains(r.stderr, "must be positive") || r.stdout != "" {
			t.Errorf("piconform %s: exit %d, stdout %q, stderr %q; want exit 2 and no run", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
}
