package subject

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogCap: a log keeps at most its limit of an implementation's stderr,
// then one note; every write reports success, so the copy keeps draining
// the pipe.
func TestLogCap(t *testing.T) {
	t.Parallel()
	const note = "\n[piconform: log truncated at 10 bytes; the rest of the implementation's stderr was dropped]\n"
	tests := []struct {
		name   string
		writes []string
		want   string
	}{
		{"under the cap", []string{"abc", "def"}, "abcdef"},
		{"exactly the cap", []string{"0123456789"}, "0123456789"},
		{"one write over", []string{"0123456789ABC"}, "0123456789" + note},
		{"across writes", []string{"012345", "6789AB", "more", "and more"}, "0123456789" + note},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "impl.log")
			l, err := logFile(p, 10)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.writes {
				if n, err := l.Write([]byte(w)); n != len(w) || err != nil {
					t.Errorf("Write(%q) = %d, %v", w, n, err)
				}
			}
			l.Close()
			got, _ := os.ReadFile(p)
			if string(got) != tt.want {
				t.Errorf("log:\n%q\nwant\n%q", got, tt.want)
			}
			if strings.Count(string(got), "truncated") > 1 {
				t.Error("the note is written more than once")
			}
		})
	}
}
