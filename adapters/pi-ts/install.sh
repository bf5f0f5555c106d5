#!/usr/bin/env bash
# Install the Pi packages that the pi-ts adapter drives.
#
#   install.sh                        the default: Pi 0.80.2 from package-lock.json (npm ci)
#   install.sh latest                 the newest @earendil-works release (run.sh finds it as "latest")
#   install.sh 0.73.1                 a bare version: @earendil-works if published there, else @mariozechner
#   install.sh 1.6.1                  a version only pi-ai has: the other two at their newest release of
#                                     the same line before it (1.6.0), all of them on pi-ai 1.6.1
#   install.sh @mariozechner/0.73.1   an explicit scope and version
#
# A non-default version goes to versions/<scope>-<version>/ (gitignored), without a lock file.
# The default install is always made as well: it provides the Node 22 binary that run.sh uses.
# The last line on stdout is the folder that holds the installed node_modules; logs go to stderr.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
spec="${1:-default}"

log() { echo "pi-ts install: $*" >&2; }

if [ ! -x "$here/node_modules/node/bin/node" ] || [ ! -d "$here/node_modules/@earendil-works/pi-ai" ]; then
  log "npm ci in $here"
  (cd "$here" && npm ci --no-audit --no-fund >&2)
fi

if [ "$spec" = default ]; then
  echo "$here"
  exit 0
fi

case "$spec" in
  latest)
    # The newest version all three packages have: they are published one
    # by one, so pi-ai's newest may not be there yet for the others.
    scope=@earendil-works
    version="$("$here/node_modules/node/bin/node" -e '
      const lists = process.argv.slice(1).map((s) => JSON.parse(s));
      const cmp = (a, b) => { const x = a.split(/[.-]/), y = b.split(/[.-]/);
        for (let i = 0; i < 3; i++) { const d = Number(x[i]) - Number(y[i]); if (d) return d; }
        return 0; };
      const common = lists[0].filter((v) => /^\d+\.\d+\.\d+$/.test(v) && lists.every((l) => l.includes(v)));
      if (!common.length) process.exit(1);
      console.log(common.sort(cmp).at(-1));
    ' "$(npm view "$scope/pi-ai" versions --json)" "$(npm view "$scope/pi-agent-core" versions --json)" \
      "$(npm view "$scope/pi-coding-agent" versions --json)")" ;;
  @*/*)
    scope="${spec%%/*}"
    version="${spec#*/}" ;;
  *)
    version="$spec"
    if npm view "@earendil-works/pi-ai@$version" version 2>/dev/null | grep -q .; then
      scope=@earendil-works
    else
      scope=@mariozechner   # where Pi was published up to 0.73.1
    fi ;;
esac

# Each package at the version, or, where it has none (Pi publishes pi-ai
# patches alone), at its newest release of the same line before it; an npm
# override then puts every package on that pi-ai.
pick() {
  "$here/node_modules/node/bin/node" -e '
    const [want, list] = [process.argv[1], JSON.parse(process.argv[2])];
    if (list.includes(want)) { console.log(want); process.exit(0); }
    const [a, b, c] = want.split(".").map(Number);
    const same = list.filter((v) => /^\d+\.\d+\.\d+$/.test(v)).map((v) => v.split(".").map(Number))
      .filter(([x, y, z]) => x === a && y === b && z <= c).sort((p, q) => p[2] - q[2]);
    if (!same.length) process.exit(1);
    console.log(same.at(-1).join("."));
  ' "$1" "$(npm view "$scope/$2" versions --json)"
}

dir="$here/versions/${scope#@}-$version"
if [ -f "$dir/.installed" ]; then
  log "already installed in $dir"
else
  log "installing $scope Pi $version into $dir"
  mkdir -p "$dir"
  core="$(pick "$version" pi-agent-core)" || { log "no pi-agent-core of the line of $version"; exit 1; }
  coding="$(pick "$version" pi-coding-agent)" || { log "no pi-coding-agent of the line of $version"; exit 1; }
  [ "$core" = "$version" ] || log "pi-agent-core $core and pi-coding-agent $coding, on pi-ai $version"
  cat > "$dir/package.json" <<JSON
{
  "name": "pi-ts-version-${scope#@}-$version",
  "private": true,
  "type": "module",
  "dependencies": {
    "$scope/pi-ai": "$version",
    "$scope/pi-agent-core": "$core",
    "$scope/pi-coding-agent": "$coding"
  },
  "overrides": {
    "$scope/pi-ai": "$version"
  }
}
JSON
  (cd "$dir" && npm install --no-audit --no-fund >&2)
  touch "$dir/.installed"
fi

if [ "$spec" = latest ]; then
  ln -sfn "$(basename "$dir")" "$here/versions/latest"
fi
echo "$dir"
