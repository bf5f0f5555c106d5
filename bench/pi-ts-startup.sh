#!/usr/bin/env bash
# Start-up cost of one pi-ts adapter process: start, hello, bye, exit. Target: under 2 s wall and
# well under 1 s of CPU on the project's 2-core machines (each of --jobs N processes pays it).
#
#   bench/pi-ts-startup.sh            # Pi 0.80.2, 5 runs
#   RUNS=10 bench/pi-ts-startup.sh latest
#
# Prints one line per run (wall, user and system seconds) and the slowest. A measure, not a test:
# the load of the machine shows in it, so note the load average (printed first) with the numbers.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${RUNS:-5}"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
TIMEFORMAT='%R %U %S'
worst=0
for i in $(seq "$runs"); do
  t=$( { time (printf '{"type":"hello","protocol":1}\n{"type":"bye"}\n' |
    adapters/pi-ts/run.sh "$@" >/dev/null 2>&1) ; } 2>&1 )
  read -r wall user sys <<<"$t"
  echo "run $i: ${wall}s wall, ${user}s user, ${sys}s sys"
  worst=$(awk -v a="$worst" -v b="$wall" 'BEGIN { print (b > a) ? b : a }')
done
echo "slowest: ${worst}s wall"
