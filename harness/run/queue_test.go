package run

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestQueue: every case is handed out exactly once, whatever order the
// workers ask in, and a worker takes its own share in order first.
func TestQueue(t *testing.T) {
	for _, tt := range []struct{ n, workers int }{{0, 1}, {1, 1}, {5, 1}, {5, 2}, {7, 3}, {2, 8}, {100, 8}} {
		t.Run(fmt.Sprintf("%d cases, %d workers", tt.n, tt.workers), func(t *testing.T) {
			for seed := range uint64(20) {
				q := newQueue(tt.n, tt.workers)
				rng := rand.New(rand.NewPCG(seed, 1))
				seen := make([]int, tt.n)
				done := make([]bool, tt.workers)
				for left := tt.workers; left > 0; {
					w := rng.IntN(tt.workers)
					if done[w] {
						continue
					}
					i, ok := q.take(w)
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
// steals the back half of the largest share left.
func TestQueueShares(t *testing.T) {
	q := newQueue(10, 2)
	var got []int
	for {
		i, ok := q.take(0)
		if !ok {
			break
		}
		got = append(got, i)
		if i == 4 {
			j, _ := q.take(1) // worker 1 has begun its share
			got = append(got, -j)
		}
	}
	want := fmt.Sprint([]int{0, 1, 2, 3, 4, -5, 8, 9, 7, 6})
	if fmt.Sprint(got) != want {
		t.Errorf("takes %v, want %v", got, want)
	}
}
