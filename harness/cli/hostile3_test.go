package cli_test

import (
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
