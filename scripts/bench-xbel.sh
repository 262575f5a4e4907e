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
# shellcheck source=timing.sh
source scripts/timing.sh
mb=$(awk -v s="$size" 'BEGIN{print s / 1048576}')
row() { # label seconds rss
    printf '%-44s %8.3f s %8.1f MB/s %6d MB peak\n' "$1" "$2" "$(awk -v m="$mb" -v t="$2" 'BEGIN{print m / t}')" "$3"
}
read -r info info_m <<<"$(best target/release/markport info "$work/big.xbel")"
read -r json json_m <<<"$(best target/release/markport convert "$work/big.xbel" --to json -o "$work/out.json")"
read -r xbel xbel_m <<<"$(best target/release/markport convert "$work/big.xbel" --to xbel -o "$work/out.xbel")"
read -r xl xl_m <<<"$(best xmllint --noout --nonet "$work/big.xbel")"
printf 'file: %d bookmarks, %.1f MiB (MB below is MiB too)\n' "$n" "$mb"
row "markport info (read only)" "$info" "$info_m"
row "markport convert --to xbel (read+write)" "$xbel" "$xbel_m"
row "markport convert --to json" "$json" "$json_m"
row "xmllint --noout (parse only)" "$xl" "$xl_m"
printf 'xmllint --noout / markport info: %.2fx (target 2x)\n' "$(awk -v a="$xl" -v b="$info" 'BEGIN{print a / b}')"
printf 'markport convert --to xbel peak memory / file size: %.2fx (target 3x)\n' "$(awk -v m="$xbel_m" -v f="$mb" 'BEGIN{print m / f}')"
