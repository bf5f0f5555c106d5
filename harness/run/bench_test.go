package run_test

import (
	"context"
	"fmt"
	"testing"
	"testing/fstest"
	"time"

	"github.com/piconform/piconform"
	"github.com/piconform/piconform/harness/golden"
	"github.com/piconform/piconform/harness/kinds"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/harness/wire"
	"github.com/piconform/piconform/reference/dialect"
)

// BenchmarkJobs runs 48 cases against adapter processes that each take
// 20 ms to answer, with 1, 2, 4 and 8 processes. The answers wait rather
// than compute, so the runner alone decides the speed-up: a run with N jobs
// should take about 1/N of the time of one (ns/op), process start-up aside.
// A runner that serializes cases (a lock held across a case, a shared
// fixture) shows here as jobs that do not pay.
func BenchmarkJobs(b *testing.B) {
	cases := slowSuite(b, 48)
	for _, jobs := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			opts, _ := processOpts(b, "slow-answer", 10*time.Second, 5)
			opts.Jobs = jobs
			for b.Loop() {
				s := run.Run(context.Background(), cases, ids(cases), opts)
				if !s.OK() {
					b.Fatalf("counts %v", s.Counts)
				}
			}
			b.ReportMetric(float64(len(cases)), "cases/op")
		})
	}
}

// slowSuite makes n sanitize cases.
func slowSuite(tb testing.TB, n int) []*suite.Case {
	tb.Helper()
	fsys := fstest.MapFS{}
	for i := range n {
		id := fmt.Sprintf("sanitize/n-%03d", i)
		fsys["fixtures/"+id+".json"] = &fstest.MapFile{Data: fmt.Appendf(nil,
			`{"id":%q,"kind":"sanitize","description":"Case %d.","rules":["san.surrogates"],"input":{"text":"text %d \ud83d"}}`, id, i, i)}
	}
	s, err := suite.Load("bench", fsys, "")
	if err != nil {
		tb.Fatal(err)
	}
	for _, c := range s.Cases {
		out, err := golden.Produce(c, dialect.V0_80, nil)
		if err != nil {
			tb.Fatal(err)
		}
		fsys[c.GoldenPath(dialect.V0_80)] = &fstest.MapFile{Data: golden.Encode(out)}
	}
	return s.Cases
}

// BenchmarkRunnerPerCase is the runner's own cost a case: every built-in
// case but the wire ones (whose loopback servers want real requests)
// against one adapter process that answers each at once, with the
// reference. The adapter's work is its process's CPU, not this one's, so
// cpu-ms/case is the runner's: the frames both ways, the comparison with
// the golden, the summary. Target: at most 0.5 ms of CPU a case.
func BenchmarkRunnerPerCase(b *testing.B) {
	s, err := kinds.Load("builtin", piconform.Builtin(), "")
	if err != nil {
		b.Fatal(err)
	}
	var cases []*suite.Case
	for _, c := range s.Cases {
		if c.Kind != wire.Kind {
			cases = append(cases, c)
		}
	}
	opts, _ := processOpts(b, "answer", 30*time.Second, 5)
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		if sum := run.Run(context.Background(), cases, ids(cases), opts); !sum.OK() {
			b.Fatalf("counts %v", sum.Counts)
		}
	}
	if used := processCPU() - cpu; used > 0 {
		b.ReportMetric(float64(used.Microseconds())/1e3/float64(b.N*len(cases)), "cpu-ms/case")
	}
	b.ReportMetric(float64(len(cases)), "cases/op")
}
