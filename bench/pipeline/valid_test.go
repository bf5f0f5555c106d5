package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/piconform/piconform/reference/dialect"
)

// BenchmarkBuildVsValid runs the pipeline (Build) and encoding/json.Valid
// over the same transcript in turns, one of each an iteration, so that both
// see the same load, and reports each one's wall and CPU time and the
// ratios, in each dialect: build/valid-cpu is the issue-32 target (at most
// 1). CPU time is the process's, every thread, so the collector's work on
// Build's garbage counts against Build.
//
//	go test ./bench/pipeline -run '^$' -bench BuildVsValid -count 6 | benchstat -
func BenchmarkBuildVsValid(b *testing.B) {
	for _, d := range dialect.All() {
		for _, name := range []string{"anthropic", "openai-completions", "openai-responses", "google"} {
			target, _ := TargetNamed(name)
			p, err := target.PrepareIn(d)
			if err != nil {
				b.Fatal(err)
			}
			for _, n := range []int{1000, 10000} {
				buildVsValid(b, fmt.Sprintf("dialect=%s/%s/%d", d, name, n), p, Session(n))
			}
		}
	}
}

func buildVsValid(b *testing.B, name string, p *Prepared, data []byte) {
	b.Run(name, func(b *testing.B) {
		var buildWall, validWall time.Duration
		var buildCPU, validCPU int64
		for b.Loop() {
			t0, c0 := time.Now(), processCPU()
			if !json.Valid(data) {
				b.Fatal("the transcript is not valid JSON")
			}
			t1, c1 := time.Now(), processCPU()
			if err := p.Build(bytes.NewReader(data), io.Discard); err != nil {
				b.Fatal(err)
			}
			t2, c2 := time.Now(), processCPU()
			validWall, buildWall = validWall+t1.Sub(t0), buildWall+t2.Sub(t1)
			validCPU, buildCPU = validCPU+c1-c0, buildCPU+c2-c1
		}
		k := float64(b.N)
		b.ReportMetric(float64(validWall.Nanoseconds())/k, "valid-ns/op")
		b.ReportMetric(float64(buildWall.Nanoseconds())/k, "build-ns/op")
		b.ReportMetric(float64(buildWall)/float64(validWall), "build/valid-wall")
		if validCPU > 0 {
			b.ReportMetric(float64(validCPU)/k, "valid-cpu-ns/op")
			b.ReportMetric(float64(buildCPU)/k, "build-cpu-ns/op")
			b.ReportMetric(float64(buildCPU)/float64(validCPU), "build/valid-cpu")
		}
	})
}
