#!/usr/bin/env bash
# Runs piconform's benchmarks and keeps the result for comparison with benchstat:
#   bench/run.sh                  # writes bench/results/<date>-<commit>.txt
#   benchstat old.txt new.txt     # go install golang.org/x/perf/cmd/benchstat@latest
# Targets (2-core machine): BenchmarkBuiltinSuite under 1.5 s/op; BenchmarkRunnerPerCase (harness/run) at
# most 0.5 cpu-ms/case; no benchmark regresses by more than 10% in time or allocations without a reason in
# the commit message. BenchmarkJobs (harness/run): jobs=N about 1/N of jobs=1 while N is small next to the
# 48 cases, process start-up aside. BenchmarkBuild (bench/pipeline) is the Go side of bench/pipeline/compare,
# which times the reference against the real Pi on Node (see docs/speed.md and bench/README.md). BenchmarkDiffs
# (harness/compare): the aligner's worst case (63 x 64 differing elements) under 20 ms/op and 12 MB/op.
# bench/pi-ts-startup.sh measures one pi-ts process's start-up and exit: under 2 s.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/results
out="bench/results/$(date +%Y%m%d)-$(git rev-parse --short HEAD).txt"
go test -run '^$' -bench . -benchmem -count "${COUNT:-6}" ./... | tee "$out"
echo "wrote $out" >&2
