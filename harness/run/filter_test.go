package run_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/suite"
)

func filterCases() []*suite.Case {
	mk := func(id string, rules ...string) *suite.Case {
		kind, _, _ := strings.Cut(id, "/")
		return &suite.Case{ID: id, Kind: kind, Rules: rules}
	}
	// Deliberately out of order: Apply sorts by id.
	return []*suite.Case{
		mk("sanitize/b", "san.surrogates"),
		mk("convert/bash-exit", "convert.bash.exit-code", "convert.bash.output"),
		mk("convert/bash-cancelled", "convert.bash.cancelled"),
		mk("normalize/thinking-drop", "norm.thinking.drop"),
		mk("normalize/thinking-keep", "norm.thinking.keep"),
		mk("cost/basic", "msg.cost"),
		mk("sanitize/a", "san.surrogates"),
	}
}

func applied(f run.Filter, cases []*suite.Case) []string {
	return ids(f.Apply(cases))
}

func TestFilter(t *testing.T) {
	t.Parallel()
	cases := filterCases()
	tests := []struct {
		name   string
		filter run.Filter
		want   string
	}{
		{"everything, sorted", run.Filter{}, "convert/bash-cancelled convert/bash-exit cost/basic normalize/thinking-drop normalize/thinking-keep sanitize/a sanitize/b"},
		{"id glob", run.Filter{IDs: []string{"normalize/thinking-*"}}, "normalize/thinking-drop normalize/thinking-keep"},
		{"two id globs", run.Filter{IDs: []string{"cost/*", "sanitize/a"}}, "cost/basic sanitize/a"},
		{"glob does not cross /", run.Filter{IDs: []string{"*"}}, ""},
		{"exact id", run.Filter{IDs: []string{"convert/bash-exit"}}, "convert/bash-exit"},
		{"no match", run.Filter{IDs: []string{"nomatch*"}}, ""},
		{"kind", run.Filter{Kinds: []string{"sanitize", "cost"}}, "cost/basic sanitize/a sanitize/b"},
		{"rule glob", run.Filter{Rules: []string{"convert.bash.*"}}, "convert/bash-cancelled convert/bash-exit"},
		{"rule exact, second of a case's rules", run.Filter{Rules: []string{"convert.bash.output"}}, "convert/bash-exit"},
		{"id and kind", run.Filter{IDs: []string{"*/b*"}, Kinds: []string{"convert"}}, "convert/bash-cancelled convert/bash-exit"},
		{"kind and rule disagree", run.Filter{Kinds: []string{"cost"}, Rules: []string{"san.*"}}, ""},
		{"shard 1/1", run.Filter{ShardIndex: 1, ShardCount: 1}, "convert/bash-cancelled convert/bash-exit cost/basic normalize/thinking-drop normalize/thinking-keep sanitize/a sanitize/b"},
		{"shard 1/3", run.Filter{ShardIndex: 1, ShardCount: 3}, "convert/bash-cancelled normalize/thinking-drop sanitize/b"},
		{"shard 3/3", run.Filter{ShardIndex: 3, ShardCount: 3}, "cost/basic sanitize/a"},
		{"shard after filtering", run.Filter{Kinds: []string{"sanitize"}, ShardIndex: 2, ShardCount: 2}, "sanitize/b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := strings.Join(applied(tt.filter, cases), " "); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
	// Apply does not reorder its input.
	if cases[0].ID != "sanitize/b" {
		t.Error("Apply sorted the caller's slice")
	}
}

// TestShardsPartition: for every n, the shards 1/n..n/n are disjoint and
// together hold every selected case, and their sizes differ by at most one.
func TestShardsPartition(t *testing.T) {
	t.Parallel()
	var cases []*suite.Case
	for i := range 23 {
		cases = append(cases, &suite.Case{ID: fmt.Sprintf("sanitize/c%02d", (i*7)%23), Kind: "sanitize", Rules: []string{"san.x"}})
	}
	all := applied(run.Filter{}, cases)
	for n := 1; n <= 30; n++ {
		seen := map[string]int{}
		var union []string
		minSize, maxSize := len(cases), 0
		for i := 1; i <= n; i++ {
			shard := applied(run.Filter{ShardIndex: i, ShardCount: n}, cases)
			minSize, maxSize = min(minSize, len(shard)), max(maxSize, len(shard))
			for _, id := range shard {
				seen[id]++
				union = append(union, id)
			}
		}
		slices.Sort(union)
		if !slices.Equal(union, all) {
			t.Errorf("n=%d: the union of the shards is %v, want %v", n, union, all)
		}
		for id, k := range seen {
			if k != 1 {
				t.Errorf("n=%d: %s is in %d shards", n, id, k)
			}
		}
		if maxSize-minSize > 1 {
			t.Errorf("n=%d: shard sizes range from %d to %d", n, minSize, maxSize)
		}
	}
}

func TestParseShard(t *testing.T) {
	t.Parallel()
	for s, want := range map[string][2]int{"1/1": {1, 1}, "1/2": {1, 2}, "2/2": {2, 2}, "7/10": {7, 10}} {
		i, n, err := run.ParseShard(s)
		if err != nil || i != want[0] || n != want[1] {
			t.Errorf("ParseShard(%q) = %d, %d, %v; want %v", s, i, n, err, want)
		}
	}
	for _, s := range []string{"", "1", "0/2", "3/2", "1/0", "-1/2", "1/-2", "a/b", "1/2x", "1/2/3", " 1/2", "1 /2", "01/2", "+1/2", "1.5/2"} {
		if i, n, err := run.ParseShard(s); err == nil {
			t.Errorf("ParseShard(%q) = %d, %d, nil; want an error", s, i, n)
		} else if !strings.Contains(err.Error(), "i/n") {
			t.Errorf("ParseShard(%q): error %q does not say the form", s, err)
		}
	}
}
