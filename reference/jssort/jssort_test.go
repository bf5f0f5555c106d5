package jssort

import (
	"bufio"
	"encoding/json"
	"errors"
	"math"
	"os"
	"slices"
	"testing"
)

// tagged is a number with its index, so that a test sees where each went.
type tagged struct {
	v     float64
	index int
}

func byDifference(a, b tagged) (float64, error) { return a.v - b.v, nil }

func sortIndices(t *testing.T, values []float64) []int {
	t.Helper()
	xs := make([]tagged, len(values))
	for i, v := range values {
		xs[i] = tagged{v, i}
	}
	if err := Sort(xs, byDifference); err != nil {
		t.Fatal(err)
	}
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = x.index
	}
	return out
}

// TestSort: short arrays (one run, sorted by binary insertion), each order
// printed by Node 22 for (a, b) => a.v - b.v. With NaN, which compares
// equal to everything, the result is no sorted order at all.
func TestSort(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		values []float64
		want   []int
	}{
		{nil, []int{}},
		{[]float64{1}, []int{0}},
		{[]float64{2, 1, 1, 0}, []int{3, 1, 2, 0}},   // stable
		{[]float64{3, nan, 1, 2}, []int{0, 1, 2, 3}}, // NaN "equals" both neighbours: nothing moves
		{[]float64{nan, 3, 1}, []int{0, 2, 1}},       // 1 goes after NaN, before 3
		{[]float64{3, 1, nan, 2}, []int{1, 3, 0, 2}}, // a descending run of two, then insertions
		{[]float64{2, 1, nan, 0}, []int{3, 1, 0, 2}}, // the descending run ends at NaN
		{[]float64{5, 4, 3, nan, 2, 1}, []int{5, 4, 2, 1, 0, 3}},
		{[]float64{1, nan, 0}, []int{0, 1, 2}},
		{[]float64{nan, nan, 1, 0}, []int{0, 1, 3, 2}},
		{[]float64{0, 1, 2, nan, 1, 0}, []int{0, 5, 1, 2, 3, 4}},
	} {
		if got := sortIndices(t, tc.values); !slices.Equal(got, tc.want) {
			t.Errorf("sort %v: got %v, want %v", tc.values, got, tc.want)
		}
	}
}

// TestSortAgainstNode reads testdata/node.jsonl: seeded random arrays, many
// long enough to be merged from runs, most holding NaN, and the order Node
// 22 sorted them into (adapters/pi-ts/gen-sorts.mjs writes it).
func TestSortAgainstNode(t *testing.T) {
	f, err := os.Open("testdata/node.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n, merged := 0, 0
	for sc.Scan() {
		n++
		var row []json.RawMessage
		var values []*float64
		var want []int
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil || len(row) != 2 {
			t.Fatalf("line %d: %v", n, err)
		}
		if err := json.Unmarshal(row[0], &values); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		if err := json.Unmarshal(row[1], &want); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		vs := make([]float64, len(values))
		hasNaN := false
		for i, p := range values {
			vs[i] = math.NaN()
			if p != nil {
				vs[i] = *p
			} else {
				hasNaN = true
			}
		}
		if len(vs) >= 2*shortRun && hasNaN {
			merged++
		}
		if got := sortIndices(t, vs); !slices.Equal(got, want) {
			t.Errorf("line %d (%d values): the order differs from Node's", n, len(vs))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 100 || merged < 20 {
		t.Errorf("testdata/node.jsonl: %d arrays, %d long ones with NaN; want at least 100 and 20", n, merged)
	}
}

// TestSortComparatorThrows: the first error stops the sort and is returned.
func TestSortComparatorThrows(t *testing.T) {
	boom := errors.New("boom")
	for _, n := range []int{2, 10, 300} {
		xs := make([]int, n)
		for i := range xs {
			xs[i] = n - i
		}
		calls := 0
		err := Sort(xs, func(a, b int) (float64, error) {
			calls++
			if calls == n/4+1 {
				return 0, boom
			}
			return float64(a - b), nil
		})
		if !errors.Is(err, boom) || calls != n/4+1 {
			t.Errorf("%d elements: err %v after %d calls, want boom after %d", n, err, calls, n/4+1)
		}
	}
}

// TestMinRunLength: n below 64 is one run; above, a length in [32, 64].
func TestMinRunLength(t *testing.T) {
	for _, tc := range []struct{ n, want int }{{1, 1}, {63, 63}, {64, 32}, {65, 33}, {100, 50}, {127, 64}, {128, 32}, {1000, 63}} {
		if got := minRunLength(tc.n); got != tc.want {
			t.Errorf("minRunLength(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
}
