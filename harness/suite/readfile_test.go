//go:build unix

package suite_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/dialect"
)

// TestHostileFiles: a case file or golden that is not a regular file of a
// sane size is an error at once, naming the file: a symlink to /dev/zero
// must not grow without end, a FIFO must not block.
func TestHostileFiles(t *testing.T) {
	tests := []struct {
		name string
		file string // the path made hostile
		make func(t *testing.T, p string)
		want string
	}{
		{"case symlink to /dev/zero", "fixtures/convert/good.json", symlinkTo("/dev/zero"), "not a regular file (a device)"},
		{"case FIFO", "fixtures/convert/x.json", fifo, "not a regular file (a named pipe)"},
		{"case too big", "fixtures/convert/good.json", sparse(suite.MaxFileBytes + 1), "over the limit of 64 MiB"},
		{"presets FIFO", "fixtures/models.json", fifo, "not a regular file (a named pipe)"},
		{"golden symlink to /dev/zero", "golden/convert/good.json", symlinkTo("/dev/zero"), "not a regular file (a device)"},
		{"golden FIFO", "golden/convert/good.json", fifo, "not a regular file (a named pipe)"},
		{"cassette FIFO", "cassettes/convert/good.yaml", fifo, "not a regular file (a named pipe)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeSuite(t, map[string]string{"fixtures/convert/good.json": goodCase, "golden/convert/good.json": "{}"})
			p := filepath.Join(dir, filepath.FromSlash(tt.file))
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.Remove(p)
			tt.make(t, p)
			s, err := suite.Load(dir, os.DirFS(dir), dir)
			if err == nil {
				switch {
				case strings.HasPrefix(tt.file, "golden/"):
					_, err = s.Cases[0].ReadGolden(dialect.V0_80)
				case strings.HasPrefix(tt.file, "cassettes/"):
					_, err = s.Cases[0].ReadCassette(dialect.V0_80)
				}
			}
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), filepath.Join(dir, tt.file)) {
				t.Errorf("error %q, want it to name %s and say %q", err, tt.file, tt.want)
			}
		})
	}
}

func symlinkTo(target string) func(*testing.T, string) {
	return func(t *testing.T, p string) {
		if err := os.Symlink(target, p); err != nil {
			t.Skip(err)
		}
	}
}

func fifo(t *testing.T, p string) {
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip(err)
	}
}

// sparse makes a file of n bytes that takes no disk space.
func sparse(n int64) func(*testing.T, string) {
	return func(t *testing.T, p string) {
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := f.Truncate(n); err != nil {
			t.Fatal(err)
		}
	}
}
