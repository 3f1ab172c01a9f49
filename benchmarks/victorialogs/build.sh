#!/usr/bin/env bash
# Builds the VictoriaLogs binary the end-to-end harness races (./quarry bench --victorialogs PATH)
# from the Go module proxy: VictoriaLogs as it shipped in VictoriaMetrics v1.110.0, the version
# issue 23's figures were taken with. Needs Go (1.23 or newer) and the proxy; writes
# benchmarks/target/victoria-logs and prints its path.
set -euo pipefail
version="${1:-v1.110.0}"
here="$(cd "$(dirname "$0")/.." && pwd)"
out="$here/target/victoria-logs"
if [[ -x "$out" ]] && "$out" -version 2>/dev/null | grep -q -- "-$version-"; then
  echo "$out"
  exit 0
fi
command -v go >/dev/null || { echo "build.sh: Go is not installed (apt install golang, or go.dev/dl)" >&2; exit 1; }
module="github.com/VictoriaMetrics/VictoriaMetrics"
dir="$(go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
# the module's go.mod has replace directives, so it must be built as the main module: in a copy
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$dir/." "$work"
chmod -R u+w "$work"
rm -rf "$work/vendor" # the module zip keeps only vendor/modules.txt
mkdir -p "$here/target"
(cd "$work" && CGO_ENABLED=0 go build -mod=mod \
  -ldflags "-X $module/lib/buildinfo.Version=victoria-logs-$version-from-module-proxy" \
  -o "$out" ./app/victoria-logs)
echo "$out"
