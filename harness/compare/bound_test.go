package compare_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/reference/jsonv"
)

// TestBounded: a side whose JSON text is over MaxValueBytes is held as
// the start of that text and its length; a path over MaxPathBytes is cut;
// what fits is kept as it is, and bounding twice changes nothing.
func TestBounded(t *testing.T) {
	t.Parallel()
	digits := "1" + strings.Repeat("2", 1<<20)
	long := strings.Repeat("é", 3000) // 6000 bytes
	type shown struct {
		Path, Want, Got     string
		WantBytes, GotBytes int
	}
	tests := []struct {
		name string
		d    compare.Diff
		want shown
	}{
		{"small sides kept", compare.Diff{Path: "/a", Want: jsonv.StringValue("x"), Got: jsonv.NumberValue("1")},
			shown{Path: "/a", Want: `"x"`, Got: "1"}},
		{"absent side", compare.Diff{Path: "/a", Want: jsonv.NumberValue("1")},
			shown{Path: "/a", Want: "1", Got: "absent"}},
		{"a number of a million digits", compare.Diff{Path: "/text", Want: jsonv.StringValue("hi"), Got: jsonv.NumberValue(digits)},
			shown{Path: "/text", Want: `"hi"`, Got: digits[:compare.MaxValueBytes] + "… (1048577 bytes of JSON in all)", GotBytes: len(digits)}},
		{"a long string, cut between characters", compare.Diff{Path: "/s", Want: jsonv.StringValue(long)},
			shown{Path: "/s", Want: `"` + strings.Repeat("é", (compare.MaxValueBytes-1)/2) + "… (6002 bytes of JSON in all)", Got: "absent", WantBytes: 6002}},
		{"a deep object", compare.Diff{Path: "/o", Got: jsonv.ObjectValue(jsonv.Member{Key: "k", Value: jsonv.ArrayValue(jsonv.StringValue(strings.Repeat("a", 5000)))})},
			shown{Path: "/o", Want: "absent", Got: `{"k":["` + strings.Repeat("a", compare.MaxValueBytes-7) + "… (5010 bytes of JSON in all)", GotBytes: 5010}},
		{"a long path", compare.Diff{Path: "/" + strings.Repeat("k", 5000), Want: jsonv.NullValue()},
			shown{Path: "/" + strings.Repeat("k", compare.MaxPathBytes-1) + "…", Want: "null", Got: "absent"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.d.Bounded()
			got := shown{Path: b.Path, Want: b.ShowWant(), Got: b.ShowGot(), WantBytes: b.WantBytes, GotBytes: b.GotBytes}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Bounded (-want +got):\n%s", diff)
			}
			again := b.Bounded()
			if diff := cmp.Diff(got, shown{Path: again.Path, Want: again.ShowWant(), Got: again.ShowGot(), WantBytes: again.WantBytes, GotBytes: again.GotBytes}); diff != "" {
				t.Errorf("bounding twice changes it (-once +twice):\n%s", diff)
			}
		})
	}
}

// TestCheckBoundsWhatItHolds: the mismatch of an output holding a number
// of a million digits holds, and says, a few KiB of it.
func TestCheckBoundsWhatItHolds(t *testing.T) {
	t.Parallel()
	digits := "1" + strings.Repeat("2", 1<<20)
	got := jsonv.ObjectValue(jsonv.Member{Key: "text", Value: jsonv.NumberValue(digits)})
	m := compare.Check(jsonv.ObjectValue(jsonv.Member{Key: "text", Value: jsonv.StringValue("hi")}), got, compare.Rules{})
	if m == nil {
		t.Fatal("no mismatch")
	}
	for name, s := range map[string]string{"Error": m.Error(), "Diff": m.Diff, "Got": m.Got, "FormatDiffs": compare.FormatDiffs(m.Diffs, 20)} {
		if len(s) > 2*compare.MaxValueBytes {
			t.Errorf("%s is %d bytes", name, len(s))
		}
		if !strings.Contains(s, "(1048577 bytes of JSON in all)") {
			t.Errorf("%s does not say how long the value is: %.200s", name, s)
		}
	}
	if n := len(m.Diffs[0].Got.Str()); n > compare.MaxValueBytes+len("…") {
		t.Errorf("the diff holds %d bytes of the value", n)
	}
}
