package compare_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/reference/jsonv"
)

// BenchmarkDiffs times the comparison of two transcripts that differ by
// one message in the middle (the ends align at once), and of two whose
// elements all differ, as large as the aligner still compares pairwise (the
// worst the alignment costs), against the same arrays of one length
// (compared by index, as before alignment).
func BenchmarkDiffs(b *testing.B) {
	msg := func(i int) string {
		return fmt.Sprintf(`{"role":"user","content":[{"type":"text","text":"message %d"}],"timestamp":%d}`, i, i)
	}
	array := func(n, from int, insert bool) jsonv.Value {
		var parts []string
		for i := range n {
			if insert && i == n/2 {
				parts = append(parts, msg(-1))
			}
			parts = append(parts, msg(from+i))
		}
		v, err := jsonv.Parse([]byte("[" + strings.Join(parts, ",") + "]"))
		if err != nil {
			b.Fatal(err)
		}
		return v
	}
	rules := compare.Rules{Redactions: []compare.Redaction{{Path: "/*/timestamp", As: "number"}}}
	for _, bc := range []struct {
		name      string
		want, got jsonv.Value
		diffs     int
	}{
		{"10k messages, one more", array(10000, 0, false), array(10000, 0, true), 1},
		{"10k messages, same length", array(10000, 0, false), array(10000, 0, false), 0},
		{"63 messages all differ, one more", array(63, 0, false), array(63, 1000, true), 64},
		{"63 messages all differ, same length", array(63, 0, false), array(63, 1000, false), 63},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if d := compare.Diffs(bc.want, bc.got, rules); len(d) != bc.diffs {
					b.Fatalf("%d differences, want %d", len(d), bc.diffs)
				}
			}
		})
	}
}
