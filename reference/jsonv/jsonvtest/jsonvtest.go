// Package jsonvtest holds what tests of JSON values share.
package jsonvtest

import (
	"errors"
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

// ErrorAt checks that err is, or wraps, a *jsonv.PathError at ptr; when it
// is not, it fails the test and returns false.
func ErrorAt(t testing.TB, err error, ptr string) bool {
	t.Helper()
	var pe *jsonv.PathError
	if !errors.As(err, &pe) || pe.Pointer != ptr {
		t.Errorf("error %v, want one at %s", err, ptr)
		return false
	}
	return true
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
