//go:build unix

package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/piconform/piconform/harness/cli"
)

// TestHostileInputFiles: a case file, golden or expectations file that is
// a FIFO or a symlink to /dev/zero is an input error at once (exit 2,
// naming it), not a hang or a read without end.
func TestHostileInputFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		file string // made hostile, in a suite holding sanitize/ascii-unchanged
		flag string // the flag that names the file, if not the suite
	}{
		{"case FIFO", "fixtures/sanitize/x.json", ""},
		{"case /dev/zero", "fixtures/sanitize/ascii-unchanged.json", ""},
		{"golden FIFO", "golden/sanitize/ascii-unchanged.json", ""},
		{"golden /dev/zero", "golden/sanitize/ascii-unchanged.json", ""},
		{"expectations FIFO", "expected.txt", "--expect"},
		{"expectations /dev/zero", "expected.txt", "--expect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, p := range []string{"fixtures/sanitize/ascii-unchanged.json", "golden/sanitize/ascii-unchanged.json"} {
				data, err := os.ReadFile(filepath.Join("..", "..", p))
				if err != nil {
					t.Fatal(err)
				}
				writeFile(t, filepath.Join(dir, p), string(data))
			}
			p := filepath.Join(dir, tt.file)
			os.Remove(p)
			var err error
			if strings.HasSuffix(tt.name, "FIFO") {
				err = syscall.Mkfifo(p, 0o644)
			} else {
				err = os.Symlink("/dev/zero", p)
			}
			if err != nil {
				t.Skip(err)
			}
			args := []string{"run", "--no-builtin", "--suite", dir}
			if tt.flag != "" {
				args = append(args, tt.flag, p)
			}
			r := pic(t, nil, args...)
			expectCode(t, r, cli.ExitUsageOrData, args...)
			if !strings.Contains(r.stderr, "not a regular file") || !strings.Contains(r.stderr, filepath.Base(tt.file)) {
				t.Errorf("stderr %q, want it to name %s as not a regular file", r.stderr, tt.file)
			}
		})
	}
}
