package cli_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/piconform/piconform"
	"github.com/piconform/piconform/harness/kinds"
	"github.com/piconform/piconform/reference/dialect"
)

// noopEnv makes this test binary the no-op adapter of BenchmarkRunnerAllIn:
// "golden" answers every case as it should, "skip" skips every case;
// noopAnswersEnv names the file of noopAnswers.
const noopEnv, noopAnswersEnv = "PICONFORM_BENCH_NOOP_ADAPTER", "PICONFORM_BENCH_NOOP_ANSWERS"

// noopAdapter runs the no-op adapter on stdin and stdout.
func noopAdapter(role string) int {
	answers, err := os.ReadFile(os.Getenv(noopAnswersEnv))
	if err == nil {
		err = serveNoop(os.Stdin, os.Stdout, answers, role == "skip")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "no-op adapter:", err)
		return 1
	}
	return 0
}

// BenchmarkRunnerAllIn is the runner's cost a case, all in: `piconform run`
// over the whole built-in suite in one dialect, as a user starts it (a
// process of its own, in a folder that is not a piconform checkout),
// against a no-op adapter, also a process of its own. cpu-ms/case is the
// CPU time of both processes (user and system, every thread, from start to
// exit) over the cases: piconform's start-up and loading of the suite, the
// frames both ways, the replay servers of the wire cases and their
// streamed answers, the comparisons, the report; and the adapter's reading
// and writing of frames and its requests to the wire cases' servers.
// adapter=golden answers every case as it should, so every case passes;
// adapter=skip skips every case, the runner's cost without comparisons.
// Target (issue 32): at most 0.3 ms of CPU a case.
//
//	go test ./harness/cli -run '^$' -bench RunnerAllIn -benchtime 1x -count 6 | benchstat -
func BenchmarkRunnerAllIn(b *testing.B) {
	s, err := kinds.Load("builtin", piconform.Builtin(), "")
	if err != nil {
		b.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range dialect.All() {
		answers, err := noopAnswers(s.Cases, d)
		if err != nil {
			b.Fatal(err)
		}
		dir := b.TempDir()
		file := filepath.Join(dir, "answers.jsonl")
		if err := os.WriteFile(file, answers, 0o644); err != nil {
			b.Fatal(err)
		}
		n := strings.Count(string(answers), "\n")
		for _, role := range []string{"golden", "skip"} {
			b.Run(fmt.Sprintf("dialect=%s/adapter=%s", d, role), func(b *testing.B) {
				impl := fmt.Sprintf("%s=%s %s=%s %s", noopEnv, role, noopAnswersEnv, shellQuote(file), shellQuote(self))
				var cpu int64
				for b.Loop() {
					cmd := exec.CommandContext(context.Background(), self, "run", "--dialect", d.String(), "--impl", impl)
					cmd.Dir, cmd.Env = dir, append(os.Environ(), mainEnv+"=1")
					out, err := cmd.CombinedOutput()
					if err != nil {
						b.Fatalf("piconform run: %v\n%s", err, lastBytes(out, 4000))
					}
					if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
						// The adapter is piconform's child, waited for
						// before piconform exits: its time is in here.
						cpu += ru.Utime.Nano() + ru.Stime.Nano()
					}
				}
				b.ReportMetric(float64(cpu)/1e6/float64(b.N*n), "cpu-ms/case")
				b.ReportMetric(float64(n), "cases/op")
			})
		}
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// lastBytes is the end of a failed run's output.
func lastBytes(out []byte, n int) string {
	return string(out[max(0, len(out)-n):])
}
