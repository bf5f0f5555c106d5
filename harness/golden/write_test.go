package golden

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/piconform/piconform/harness/atomicfile"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/jsonv"
)

func diskSuite(t *testing.T) *suite.Suite {
	t.Helper()
	dir := t.TempDir()
	return &suite.Suite{Name: dir, Dir: dir, FS: os.DirFS(dir)}
}

func tempsIn(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && atomicfile.IsTemp(d.Name()) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// An update is all or nothing: a write that fails midway, or a signal
// before the commit, leaves every file as it was and no temporary file.
func TestWriteAllOrNothing(t *testing.T) {
	s := diskSuite(t)
	// golden/blocked is a file, so nothing can be written under it.
	if err := os.MkdirAll(filepath.Join(s.Dir, "golden"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Dir, "golden", "blocked"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ok := Change{Files: Files{Write: "golden/a/x.json", Bytes: []byte("{}\n")}}
	blocked := Change{Files: Files{Write: "golden/blocked/y.json", Bytes: []byte("{}\n")}}
	if err := Write(context.Background(), s, nil, []Change{ok, blocked}, nil); err == nil || !strings.Contains(err.Error(), "nothing written") {
		t.Errorf("Write = %v, want nothing written", err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Write(cancelled, s, nil, []Change{ok}, nil); err == nil {
		t.Error("Write after a signal succeeded")
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "golden", "a", "x.json")); err == nil {
		t.Error("golden/a/x.json written")
	}
	if temps := tempsIn(t, s.Dir); len(temps) > 0 {
		t.Errorf("left behind: %v", temps)
	}
	// Left alone, it writes.
	if err := Write(context.Background(), s, nil, []Change{ok}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "golden", "a", "x.json")); err != nil {
		t.Error(err)
	}
}

func TestStaleTemps(t *testing.T) {
	s := diskSuite(t)
	stale := filepath.Join(s.Dir, "golden", "wire", ".x.json.tmp-42")
	for _, p := range []string{stale, filepath.Join(s.Dir, "golden", "wire", "x.json")} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := StaleTemps(s)
	if err != nil || len(got) != 1 || got[0] != stale {
		t.Errorf("StaleTemps = %v, %v; want [%s]", got, err, stale)
	}
}

// An output a run could not read back is refused, naming the case file.
func TestCheckSize(t *testing.T) {
	c := &suite.Case{ID: "convert/x", File: "fixtures/convert/x.json"}
	defer func(n int) { maxGoldenBytes = n }(maxGoldenBytes)
	maxGoldenBytes = 1 << 10
	nested := jsonv.StringValue("")
	for range 40 {
		nested = jsonv.ArrayValue(nested) // small as JSON, large indented
	}
	if err := checkSize(c, jsonv.ObjectValue(jsonv.Member{Key: "messages", Value: nested})); err == nil || !strings.Contains(err.Error(), "fixtures/convert/x.json (case convert/x): its golden would be") {
		t.Errorf("deep output: %v", err)
	}
	maxGoldenBytes = suite.MaxFileBytes
	huge := jsonv.ObjectValue(jsonv.Member{Key: "text", Value: jsonv.StringValue(strings.Repeat("a", 16<<20))})
	if err := checkSize(c, huge); err == nil || !strings.Contains(err.Error(), "no adapter could answer it") {
		t.Errorf("output over a frame: %v", err)
	}
	if err := checkSize(c, jsonv.ObjectValue()); err != nil {
		t.Errorf("small output: %v", err)
	}
}
