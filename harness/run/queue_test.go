package run

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestQueue: every case is handed out exactly once, whatever order the
// workers ask in, and a worker takes its own share in order first.
func TestQueue(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ n, workers int }{{0, 1}, {1, 1}, {5, 1}, {5, 2}, {7, 3}, {2, 8}, {100, 8}} {
		t.Run(fmt.Sprintf("%d cases, %d workers", tt.n, tt.workers), func(t *testing.T) {
			for seed := range uint64(20) {
				groups := make([]string, tt.n)
				for i := range groups {
					groups[i] = fmt.Sprint(i / 3) // groups of three
				}
				q := newQueue(groups, tt.workers)
				rng := rand.New(rand.NewPCG(seed, 1))
				seen := make([]int, tt.n)
				done := make([]bool, tt.workers)
				for left := tt.workers; left > 0; {
					w := rng.IntN(tt.workers)
					if done[w] {
						continue
					}
					i, ok := q.take(w, map[string]bool{fmt.Sprint(rng.IntN(5)): true})
					if !ok {
						done[w] = true
						left--
						continue
					}
					seen[i]++
				}
				for i, c := range seen {
					if c != 1 {
						t.Fatalf("seed %d: case %d handed out %d times", seed, i, c)
					}
				}
				if q.pending() {
					t.Fatalf("seed %d: pending after every worker is done", seed)
				}
			}
		})
	}
}

// TestQueueShares: a worker takes its own contiguous share in order, then
// steals the last group of another share, preferring a group it has run.
func TestQueueShares(t *testing.T) {
	t.Parallel()
	groups := []string{"a", "a", "a", "a", "b", "b", "c", "c", "c", "d", "d", "d"}
	q := newQueue(groups, 2) // shares [0,6) and [6,12)
	used := map[string]bool{}
	var got []int
	take := func(w int) int {
		i, ok := q.take(w, used)
		if !ok {
			return -1
		}
		return i
	}
	for range 6 {
		got = append(got, take(0))
	}
	// Worker 1 has begun its share; worker 0 steals its last group, d.
	got = append(got, -take(1), take(0), take(0), take(0))
	// Worker 1's share has c left (one group): worker 0 takes its back half.
	got = append(got, take(0))
	want := fmt.Sprint([]int{0, 1, 2, 3, 4, 5, -6, 9, 10, 11, 8})
	if fmt.Sprint(got) != want {
		t.Errorf("takes %v, want %v", got, want)
	}
	// A group the thief has run wins over an equal share of another group.
	q = newQueue([]string{"a", "a", "a", "a", "a", "a", "b", "b", "c"}, 3) // [0,3) [3,6) [6,9)
	used = map[string]bool{"a": true}
	for range 3 {
		take(0)
	}
	if i := take(0); i != 4 {
		t.Errorf("worker 0, which ran group a, stole case %d, want 4 (the back half of the share of a)", i)
	}
	used = map[string]bool{}
	if i := take(0); i != 5 {
		t.Errorf("then took %d, want 5", i)
	}
	if i := take(0); i != 8 {
		t.Errorf("then stole %d, want 8 (the last group of the largest share)", i)
	}
}
