#!/usr/bin/env bash
# Publish a generated 100,000-bookmark collection as one xFolk page
# (`convert --to xfolk`), then time markport reading that page back (`info`),
# best of N runs, and print MB/s (decimal, as the target is stated), peak
# memory and both against their targets.
# Usage: scripts/bench-xfolk.sh [N_BOOKMARKS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
runs=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p markport-cli
cargo build -q --release -p markport-xbel --example generate-xbel
target/release/examples/generate-xbel "$n" > "$work/big.xbel"
target/release/markport convert -q "$work/big.xbel" --to xfolk -o "$work/page.html" 2>/dev/null
size=$(stat -c %s "$work/page.html")
# shellcheck source=timing.sh
source scripts/timing.sh
read -r info info_m <<<"$(best target/release/markport info "$work/page.html")"
mb=$(awk -v s="$size" 'BEGIN{print s / 1000000}')
printf 'page: %d entries, %.1f MB\n' "$n" "$mb"
printf '%-44s %8.3f s %8.1f MB/s %6d MiB peak\n' "markport info (xFolk read)" "$info" "$(awk -v m="$mb" -v t="$info" 'BEGIN{print m / t}')" "$info_m"
printf 'xFolk read: %.1f MB/s (target 60 MB/s)\n' "$(awk -v m="$mb" -v t="$info" 'BEGIN{print m / t}')"
printf 'peak memory / page size: %.2fx (target 3x)\n' "$(awk -v m="$info_m" -v s="$size" 'BEGIN{print m * 1048576 / s}')"
