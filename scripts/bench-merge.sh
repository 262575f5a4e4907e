#!/usr/bin/env bash
# Merge 10 generated Netscape files of N bookmarks each (default 100,000)
# into one XBEL file with `markport merge`, and dedupe one of them with
# `markport convert --dedupe`: best wall time of RUNS and peak memory.
# Half of each file's links are shared by all ten files (so they merge),
# half are the file's own. Linear means: ten files take about ten times
# one file's read and write, not more.
# Usage: scripts/bench-merge.sh [N_BOOKMARKS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p markport-cli
cargo build -q --release -p markport-netscape --example generate-netscape
target/release/examples/generate-netscape "$n" > "$work/base.html"
files=()
for i in $(seq 0 9); do
    # Every other link gets a host of this file's own.
    awk -v i="$i" '/HREF="https?:\/\// { if (++k % 2) sub(/HREF="https?:\/\//, "&v" i ".") } { print }' \
        "$work/base.html" > "$work/in$i.html"
    files+=("$work/in$i.html")
done
# shellcheck source=timing.sh
source scripts/timing.sh
total=$(cat "${files[@]}" | wc -c)
read -r one one_m <<<"$(best target/release/markport convert "${files[0]}" --to xbel -o "$work/one.xbel")"
read -r dd dd_m <<<"$(best target/release/markport convert "${files[0]}" --dedupe --to xbel -o "$work/dd.xbel")"
read -r m m_m <<<"$(best target/release/markport merge "${files[@]}" -o "$work/merged.xbel")"
read -r k k_m <<<"$(best target/release/markport merge --keep-duplicates "${files[@]}" -o "$work/all.xbel")"
target/release/markport merge "${files[@]}" -o "$work/merged.xbel" 2>"$work/report"
printf 'inputs: 10 files of %d bookmarks, %.1f MiB in all\n' "$n" "$(awk -v s="$total" 'BEGIN{print s / 1048576}')"
printf '%-46s %8.2f s %6d MB peak\n' "convert one file to xbel" "$one" "$one_m"
printf '%-46s %8.2f s %6d MB peak\n' "convert one file --dedupe to xbel" "$dd" "$dd_m"
printf '%-46s %8.2f s %6d MB peak\n' "merge 10 files to xbel" "$m" "$m_m"
printf '%-46s %8.2f s %6d MB peak\n' "merge 10 files --keep-duplicates to xbel" "$k" "$k_m"
printf 'merge / (10 x one convert): %.2f\n' "$(awk -v a="$m" -v b="$one" 'BEGIN{print a / (10 * b)}')"
grep -E '^[^ ].*bookmarks,' "$work/report" | sed "s|$work/||" | head -3
