package run_test

import (
	"context"
	"fmt"
	"testing"
	"testing/fstest"
	"time"

	"github.com/piconform/piconform/harness/golden"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/suite"
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
		out, err := golden.Produce(c, nil)
		if err != nil {
			tb.Fatal(err)
		}
		fsys[c.GoldenPath()] = &fstest.MapFile{Data: golden.Encode(out)}
	}
	return s.Cases
}
