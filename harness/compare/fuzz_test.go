package compare_test

import (
	"testing"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/reference/jsonv"
)

// FuzzCompare: comparing any two JSON documents neither panics nor takes
// more than linear work per number (1e999999 included); a document equals
// itself; two documents differ exactly when Diffs lists a path, both ways,
// and Check agrees.
func FuzzCompare(f *testing.F) {
	for _, s := range [][2]string{
		{`{"a":1,"b":[1,2]}`, `{"b":[1,2.0],"a":1e0}`},
		{`[1e999999,"\ud83d"]`, `[10e999998,"\ud83d"]`},
		{`{"a":{"b":null}}`, `{"a":{}}`},
		{`"x"`, `1`},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		va, errA := jsonv.Parse([]byte(a))
		vb, errB := jsonv.Parse([]byte(b))
		if errA != nil || errB != nil {
			return
		}
		if d := compare.Diffs(va, va, compare.Rules{}); len(d) > 0 {
			t.Fatalf("%s differs from itself at %s", a, d[0].Path)
		}
		d := compare.Diffs(va, vb, compare.Rules{})
		if m := compare.Check(va, vb, compare.Rules{}); (m == nil) != (len(d) == 0) {
			t.Fatalf("Check and Diffs disagree on %s and %s", a, b)
		}
		// How many differences there are may depend on the direction (the
		// alignment of arrays of two lengths breaks ties in want's favour),
		// whether there are any may not.
		if back := compare.Diffs(vb, va, compare.Rules{}); (len(back) == 0) != (len(d) == 0) {
			t.Fatalf("%s vs %s: %d differences one way, %d the other", a, b, len(d), len(back))
		}
	})
}
