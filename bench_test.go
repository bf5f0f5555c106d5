package piconform_test

import (
	"context"
	"testing"

	"github.com/piconform/piconform/harness/golden"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/subject"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/harness/wire"
	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// BenchmarkBuiltinSuite is the main job's cost: every built-in case through
// the in-process reference, compared with its golden (wire cases included,
// with their loopback servers, reached in memory as `piconform run` reaches
// them). Target: under 1.5 s/op on the project's 2-core machines; see
// bench/README.md.
func BenchmarkBuiltinSuite(b *testing.B) {
	s := loadBuiltin(b)
	var cases []*suite.Case
	var ids []string
	for _, c := range s.Cases {
		if c.HoldsIn(dialect.V0_80) {
			cases, ids = append(cases, c), append(ids, c.ID)
		}
	}
	opts := run.Options{
		NewSubject: func(int) subject.Subject {
			return &subject.Reference{Options: conformance.Options{HTTPClient: wire.InProcess}}
		},
		Fixtures: golden.Fixtures(dialect.V0_80),
	}
	b.ReportAllocs()
	for b.Loop() {
		sum := run.Run(context.Background(), cases, ids, opts)
		if !sum.OK() {
			b.Fatalf("the built-in suite does not pass: %v", sum.Counts)
		}
	}
	b.ReportMetric(float64(len(cases)), "cases/op")
}

// BenchmarkParseEncode reads and re-encodes every case file: the lossless
// JSON layer every case goes through several times.
func BenchmarkParseEncode(b *testing.B) {
	s := loadBuiltin(b)
	var inputs [][]byte
	for _, c := range s.Cases {
		inputs = append(inputs, c.Input.AppendJSON(nil))
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, in := range inputs {
			v, err := jsonv.Parse(in)
			if err != nil {
				b.Fatal(err)
			}
			_ = v.AppendJSON(nil)
		}
	}
}
