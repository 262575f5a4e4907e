#!/usr/bin/env bash
# `markport publish` on the generated N-bookmark Netscape file: publish time and
# peak memory (best of RUNS), the site's size, and headless Chromium's load time
# (--dump-dom, minus the same browser loading about:blank) of index.html, of the
# largest page and of today's single page (`--to xfolk`), in the same run.
# Needs chromium. Usage: scripts/bench-publish.sh [N] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p markport-cli
cargo build -q --release -p markport-netscape --example generate-netscape
target/release/examples/generate-netscape "$n" > "$work/gen.html"
# shellcheck source=timing.sh
source scripts/timing.sh
read -r pt pm <<<"$(best target/release/markport publish "$work/gen.html" -o "$work/site")"
target/release/markport convert "$work/gen.html" --to xfolk -o "$work/single.html" 2>/dev/null
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
load() {
    local s e
    s=$(date +%s.%N)
    timeout 600 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$work/profile" \
        --dump-dom "$1" >/dev/null 2>&1
    e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" 'BEGIN{print e - s}'
}
blank=$(load about:blank)
largest=$(find "$work/site" -name '*.html' -printf '%s %p\n' | sort -n | tail -1 | cut -d' ' -f2-)
printf 'input: %d bookmarks, %.1f MB\n' "$n" "$(awk -v s="$(stat -c %s "$work/gen.html")" 'BEGIN{print s/1048576}')"
printf '%-34s %8.2f s %6d MB peak\n' "markport publish" "$pt" "$pm"
printf 'site: %d files, %.1f MB (largest page %.2f MB, search.json %.1f MB)\n' \
    "$(find "$work/site" -type f | wc -l)" \
    "$(find "$work/site" -type f -printf '%s\n' | awk '{s+=$1} END{print s/1048576}')" \
    "$(awk -v s="$(stat -c %s "$largest")" 'BEGIN{print s/1048576}')" \
    "$(awk -v s="$(stat -c %s "$work/site/search.json")" 'BEGIN{print s/1048576}')"
for page in "$work/site/index.html" "$largest" "$work/single.html"; do
    t=$(load "file://$page")
    printf 'Chromium load %-22s %8.2f s (minus about:blank %.2f s)\n' \
        "${page#"$work"/}" "$(awk -v t="$t" -v b="$blank" 'BEGIN{print t - b}')" "$blank"
done
