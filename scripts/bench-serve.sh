#!/usr/bin/env bash
# `markport serve`'s API against the command line on the same file: a
# generated Netscape file of N bookmarks (default 100,000) converted to
# XBEL by `markport convert` and by POST /api/convert (the file back as the
# download, and as the JSON answer with the report), best of RUNS each.
# The target (issue 32): the API within 2x the command line's time. The
# server's peak memory is its VmHWM after all the runs. Everything talks to
# 127.0.0.1 only.
# Usage: scripts/bench-serve.sh [N_BOOKMARKS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
runs=${2:-3}
work=$(mktemp -d)
server=
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
cargo build -q --release -p markport-cli
cargo build -q --release -p markport-netscape --example generate-netscape
# shellcheck source=timing.sh
source scripts/timing.sh
bin=target/release/markport
target/release/examples/generate-netscape "$n" > "$work/big.html"
size=$(stat -c %s "$work/big.html")

# A fresh server for each way of asking, so its peak memory (VmHWM) is
# that way's.
start() {
    # A 1 GB upload's conversion reserves 3 GB and 128 MiB (serve's README).
    "$bin" serve --max-size 1G --memory-limit 4G > "$work/url" 2>/dev/null &
    server=$!
    for _ in $(seq 100); do [ -s "$work/url" ] && break; sleep 0.05; done
    # The page and its API are under the token: http://127.0.0.1:PORT/TOKEN/
    url=$(head -1 "$work/url")
    # `best` times a command, not a shell function: curl's whole line.
    api=(curl -sS --fail -o "$work/api.out"
         -F "file=@$work/big.html" -F to=xbel "${url}api/convert")
}
stop() {
    peak=$(awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$server/status")
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=
    rm -f "$work/url"
}

read -r cli_t cli_m < <(best "$bin" convert "$work/big.html" --to xbel -o "$work/cli.xbel")
start
read -r dl_t _ < <(best "${api[@]}")
cmp -s "$work/api.out" "$work/cli.xbel" || { echo "the API's download differs from convert's output" >&2; exit 1; }
stop
dl_m=$peak
start
read -r json_t _ < <(best "${api[@]}" -H "Accept: application/json")
stop
json_m=$peak

printf 'input: %s bookmarks, %.1f MB (Netscape HTML) -> xbel, best of %s\n' "$n" "$(echo "$size / 1000000" | bc -l)" "$runs"
printf '%-34s %8s %10s\n' "" "seconds" "peak MB"
printf '%-34s %8s %10s\n' "markport convert -o FILE" "$cli_t" "$cli_m"
printf '%-34s %8s %10s\n' "POST /api/convert (download)" "$dl_t" "$dl_m*"
printf '%-34s %8s %10s\n' "POST /api/convert (JSON + report)" "$json_t" "$json_m*"
echo "* the server's peak over its $runs requests (VmHWM), a fresh server for each way"
awk -v a="$dl_t" -v b="$json_t" -v c="$cli_t" 'BEGIN{printf "API / command line: %.2fx (download), %.2fx (JSON); the target is at most 2x\n", a / c, b / c}'
