package cli_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/piconform/piconform/harness/cli"
)

// TestNegativeMaxRestarts: --max-restarts below zero is a usage error
// before anything runs, not a run whose first broken process gives up.
func TestNegativeMaxRestarts(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"-1", "-100"} {
		args := []string{"run", "--kind", "sanitize", "--max-restarts", v}
		r := pic(t, nil, args...)
		if r.code != cli.ExitUsageOrData || r.stdout != "" || !strings.Contains(r.stderr, "--max-restarts") {
			t.Errorf("piconform %s: exit %d, stdout %q, stderr %q; want exit 2, no run, and the flag named", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
	args := []string{"run", "--kind", "sanitize", "--max-restarts", "0"}
	expectCode(t, pic(t, nil, args...), cli.ExitOK, args...)
}

// TestSilentAdapterStartedOnce: an adapter that never says hello is started
// once (the probe before the run) and the run gives up at once with a usage
// error naming --start-timeout: it does not cost another start per restart.
// Counted by the starts the adapter records, not by the time it took.
func TestSilentAdapterStartedOnce(t *testing.T) {
	t.Parallel()
	starts := filepath.Join(t.TempDir(), "starts")
	impl := "echo started >> " + starts + "; exec sleep 60"
	for _, jobs := range []string{"1", "3"} {
		os.Remove(starts)
		args := []string{"run", "--kind", "sanitize", "--jobs", jobs, "--start-timeout", "300ms", "--impl", impl}
		r := pic(t, nil, args...)
		expectCode(t, r, cli.ExitUsageOrData, args...)
		if !strings.Contains(r.stderr, "--start-timeout") || !strings.Contains(r.stderr, "no hello") {
			t.Errorf("stderr does not say no hello came within --start-timeout:\n%s", r.stderr)
		}
		data, _ := os.ReadFile(starts)
		if n := strings.Count(string(data), "started"); n != 1 {
			t.Errorf("--jobs %s: the adapter was started %d times, want once", jobs, n)
		}
		if r.stdout != "" {
			t.Errorf("a run began though the adapter never started:\n%s", r.stdout)
		}
	}
}

// failingWriter fails every write, as a full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestJSONReportWriteError: a JSON report that cannot be written, to a file
// (/dev/full, a device written directly) or to stdout, exits 2 naming
// where, not 0 with the report lost.
func TestJSONReportWriteError(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/full"); err == nil {
		args := []string{"run", "--kind", "sanitize", "--json", "/dev/full"}
		r := pic(t, nil, args...)
		expectCode(t, r, cli.ExitUsageOrData, args...)
		if !strings.Contains(r.stderr, "/dev/full") || !strings.Contains(r.stderr, "no space left") {
			t.Errorf("stderr %q does not name /dev/full and why", r.stderr)
		}
	}
	var stderr strings.Builder
	code := cli.Main([]string{"run", "--kind", "sanitize", "--json", "-"}, cli.Env{Stdin: strings.NewReader(""), Stdout: failingWriter{}, Stderr: &stderr,
		Getenv: func(string) string { return "" }})
	if code != cli.ExitUsageOrData || !strings.Contains(stderr.String(), "writing the JSON report to stdout") {
		t.Errorf("--json - to a full stdout: exit %d, stderr %q; want exit 2 naming stdout", code, stderr.String())
	}
}
