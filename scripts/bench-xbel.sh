#!/usr/bin/env bash
# Generate a 100,000-bookmark XBEL file, then time, on that same file:
# markport reading it (convert to JSON and to XBEL) and `xmllint --noout`
# (parsing only), best of N runs each, and print MB/s and ratios.
# Needs xmllint (Debian libxml2-utils). Usage: scripts/bench-xbel.sh [N_BOOKMARKS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
runs=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p markport-cli
cargo build -q --release -p markport-xbel --example generate-xbel
target/release/examples/generate-xbel "$n" > "$work/big.xbel"
size=$(stat -c %s "$work/big.xbel")
best() { # best wall time in seconds of "$@" over $runs runs
    local best=999999
    for _ in $(seq "$runs"); do
        local s e
        s=$(date +%s.%N)
        "$@" >/dev/null 2>"$work/err" || { echo "failed: $* ($(cat "$work/err"))" >&2; exit 1; }
        e=$(date +%s.%N)
        best=$(echo "$e - $s" | bc -l | awk -v b="$best" '{print ($1 < b) ? $1 : b}')
    done
    echo "$best"
}
mp_json=$(best target/release/markport convert "$work/big.xbel" --to json -o "$work/out.json")
mp_xbel=$(best target/release/markport convert "$work/big.xbel" --to xbel -o "$work/out.xbel")
mp_info=$(best target/release/markport info "$work/big.xbel")
xl=$(best xmllint --noout --nonet "$work/big.xbel")
mb=$(echo "$size / 1048576" | bc -l)
printf 'file: %d bookmarks, %.1f MB\n' "$n" "$mb"
printf '%-40s %8.3f s  %7.1f MB/s\n' "markport info (read only)" "$mp_info" "$(echo "$mb / $mp_info" | bc -l)"
printf '%-40s %8.3f s  %7.1f MB/s\n' "markport convert --to xbel (read+write)" "$mp_xbel" "$(echo "$mb / $mp_xbel" | bc -l)"
printf '%-40s %8.3f s  %7.1f MB/s\n' "markport convert --to json" "$mp_json" "$(echo "$mb / $mp_json" | bc -l)"
printf '%-40s %8.3f s  %7.1f MB/s\n' "xmllint --noout (parse only)" "$xl" "$(echo "$mb / $xl" | bc -l)"
printf 'ratio markport info / xmllint --noout: %.2f\n' "$(echo "$mp_info / $xl" | bc -l)"
