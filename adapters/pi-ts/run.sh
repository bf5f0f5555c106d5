#!/usr/bin/env bash
# Start the pi-ts adapter (NDJSON on stdin/stdout) under Node 22.
#
#   run.sh                        Pi 0.80.2 from adapters/pi-ts/node_modules
#   run.sh latest                 the release that `install.sh latest` installed
#   run.sh 0.73.1                 versions/*-0.73.1 (made by `install.sh 0.73.1`)
#   run.sh @mariozechner/0.73.1   versions/mariozechner-0.73.1
#
# It never installs nor asks the registry: run install.sh first. The chosen folder reaches the
# driver as PI_TS_ROOT (a folder with node_modules/ holding the Pi packages).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
spec="${1:-default}"

case "$spec" in
  default) root="$here" ;;
  latest) root="$here/versions/latest" ;;
  @*/*) root="$here/versions/$(echo "${spec%%/*}" | tr -d @)-${spec#*/}" ;;
  *)
    root=""
    for d in "$here"/versions/*-"$spec"; do
      [ -d "$d" ] && root="$d"
    done ;;
esac
if [ -z "$root" ] || [ ! -d "$root/node_modules" ]; then
  echo "pi-ts: Pi '$spec' is not installed; run $here/install.sh $spec" >&2
  exit 2
fi

node="$here/node_modules/node/bin/node"
if [ ! -x "$node" ]; then
  echo "pi-ts: Node 22 is not installed; run $here/install.sh" >&2
  exit 2
fi
# Session cases read dates without an offset as local time: the suite's is UTC.
TZ=UTC PI_TS_ROOT="$(cd "$root" && pwd -P)" exec "$node" "$here/driver.mjs"
