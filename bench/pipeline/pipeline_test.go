package pipeline

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/piconform/piconform/reference/dialect"
)

// TestSessionIsDeterministic: the same size gives the same bytes, which
// both pipelines then read.
func TestSessionIsDeterministic(t *testing.T) {
	a, b := Session(200), Session(200)
	if !bytes.Equal(a, b) {
		t.Fatal("two sessions of 200 messages differ")
	}
}

// TestEveryTargetBuilds runs each target's pipeline once on a small session
// of each generator.
func TestEveryTargetBuilds(t *testing.T) {
	for _, data := range [][]byte{Session(200), Mixed(200, 1)} {
		everyTargetBuilds(t, data)
	}
	if !bytes.Equal(Mixed(100, 3), Mixed(100, 3)) || bytes.Equal(Mixed(100, 3), Mixed(100, 4)) {
		t.Error("Mixed is not a function of its size and seed alone")
	}
}

func everyTargetBuilds(t *testing.T, data []byte) {
	for _, d := range dialect.All() {
		for _, target := range Targets {
			p, err := target.PrepareIn(d)
			if err != nil {
				t.Fatalf("%s: %v", target.Name, err)
			}
			var body bytes.Buffer
			err = p.Build(bytes.NewReader(data), &body)
			if err != nil || body.Len() < len(data)/2 {
				t.Errorf("%s, dialect %s: %d body bytes for %d input bytes, %v", target.Name, d, body.Len(), len(data), err)
			}
		}
	}
}

// BenchmarkBuild is the Go side of compare, for benchstat and profiles:
//
//	go test ./bench/pipeline -run '^$' -bench 'Build/anthropic/10000' -cpuprofile cpu.out
func BenchmarkBuild(b *testing.B) {
	for _, target := range Targets {
		for _, n := range []int{1000, 10000} {
			data := Session(n)
			p, err := target.Prepare()
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/%d", target.Name, n), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					if err := p.Build(bytes.NewReader(data), io.Discard); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
