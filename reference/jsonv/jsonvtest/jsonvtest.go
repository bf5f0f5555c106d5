// Package jsonvtest holds what tests of JSON values share.
package jsonvtest

import (
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
