// Package jsonvtest holds what tests of JSON values share.
package jsonvtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
)

// Parse parses JSON text a test wrote, or fails the test.
func Parse(t testing.TB, s string) jsonv.Value {
	t.Helper()
	v, err := jsonv.Parse([]byte(s))
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return v
}

// AddFiles seeds the fuzz test f with the files matching patterns, such as
// the suite's case files and goldens.
func AddFiles(f *testing.F, patterns ...string) {
	f.Helper()
	for _, pattern := range patterns {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
}
