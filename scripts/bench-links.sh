#!/usr/bin/env bash
# `markport links` against the scripted loopback server of markport-links
# (crates/links/examples/loopback.rs). Every request stays on 127.0.0.0/8.
#
# 1. 1,000 links on 10 loopback hosts (127.0.0.1 .. 127.0.0.10) answering
#    each request after 50 ms, 2 at once per host (the default): the bound
#    that limit sets is 100 links per host / 2 x 50 ms = 2.5 s; the target
#    is within 4x (10 s). Best wall time and peak memory of $RUNS runs.
# 2. 10,000 links (1,000 per host, answered at once): a run stopped after
#    5,000 (as an interruption would, its journal kept), the run that goes
#    on (the server counts that it asks only the rest), and a run that
#    takes everything from the state.
# 3. lychee on part 1's server and links, when `lychee` is on PATH (or
#    LYCHEE=/path/to/lychee): `cargo install lychee` to get it.
# A benchmark, not a test: nothing fails on a bad number, read the lines.
# Usage: scripts/bench-links.sh [RUNS]   (PROFILE=dev for a debug build)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
profile=${PROFILE:-release}
work=$(mktemp -d)
server_pid=
cleanup() {
    exec 3>&- 2>/dev/null || true
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
cargo build -q --profile "$profile" -p markport-cli
cargo build -q --profile "$profile" -p markport-links --features loopback-server --example loopback
dir=target/$([ "$profile" = dev ] && echo debug || echo "$profile")
bin=$dir/markport
loopback=$dir/examples/loopback
source scripts/timing.sh

# A port free on 127.0.0.1, used on each of the ten addresses.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
hosts=$(seq 1 10)

# Start the server with DELAY_MS; it runs until fd 3 is closed, then says
# how many requests it got into $work/served.
start_server() {
    rm -f "$work/fifo"
    mkfifo "$work/fifo"
    "$loopback" "$1" $(for h in $hosts; do echo "127.0.0.$h:$port"; done) <"$work/fifo" >"$work/served" 2>/dev/null &
    server_pid=$!
    exec 3>"$work/fifo"
    sleep 0.3
}
stop_server() {
    exec 3>&-
    wait "$server_pid" || true
    server_pid=
    echo "server: $(cat "$work/served")"
}
# links exits 1 when a link fails; the timing wants every link ok.
links_ok() { best sh -c '"$@" >/dev/null' sh "$bin" links "$@"; }

links_file() { # N_PER_HOST FILE
    for i in $(seq 0 $(($1 - 1))); do
        for h in $hosts; do echo "http://127.0.0.$h:$port/ok$i"; done
    done >"$2"
}

echo "== 1,000 links, 10 hosts, 50 ms answers, 2 per host (bound 2.5 s, target < 10 s)"
links_file 100 "$work/k1.txt"
start_server 50
read -r t m < <(links_ok "$work/k1.txt")
echo "markport links: ${t} s, ${m} MB peak, $(awk -v t="$t" 'BEGIN{printf "%.2f", t / 2.5}')x the bound"
read -r t m < <(links_ok "$work/k1.txt" --per-host 4)
echo "markport links --per-host 4: ${t} s (bound 1.25 s)"
lychee=${LYCHEE:-$(command -v lychee || true)}
if [ -n "$lychee" ]; then
    "$lychee" --version
    # lychee's nearest to "2 per host": --host-concurrency (its per-host
    # limit), with its cache off and no retries of a success.
    read -r t m < <(best sh -c '"$@" >/dev/null' sh "$lychee" --no-progress --host-concurrency 2 --max-concurrency 64 "$work/k1.txt")
    echo "lychee --host-concurrency 2: ${t} s, ${m} MB peak"
    # Its default spaces the requests to a host by 50 ms besides the limit.
    read -r t m < <(best sh -c '"$@" >/dev/null' sh "$lychee" --no-progress --host-concurrency 2 --host-request-interval 0ms --max-concurrency 64 "$work/k1.txt")
    echo "lychee --host-concurrency 2 --host-request-interval 0ms: ${t} s, ${m} MB peak"
else
    echo "lychee: not installed (cargo install lychee)"
fi
stop_server

echo "== 10,000 links, 10 hosts, answered at once, resumed from a state file"
links_file 1000 "$work/k10.txt"
start_server 0
state=$work/links.state
/usr/bin/time -f '%e %M' -o "$work/t" "$bin" links "$work/k10.txt" --state "$state" --stop-after 5000 >/dev/null 2>"$work/err" || true
read -r t m < <(tail -1 "$work/t")
echo "stopped after 5,000: ${t} s, $((m / 1024)) MB peak; journal lines: $(wc -l <"$state.journal")"
/usr/bin/time -f '%e %M' -o "$work/t" "$bin" links "$work/k10.txt" --state "$state" >"$work/out" 2>"$work/err"
read -r t m < <(tail -1 "$work/t")
echo "resumed: ${t} s, $((m / 1024)) MB peak: $(tail -1 "$work/out")"
read -r t m < <(links_ok "$work/k10.txt" --state "$state")
echo "all from the state: ${t} s, ${m} MB peak"
if [ -n "$lychee" ]; then
    # lychee's cache (.lycheecache in the working directory) is written at
    # the end of a run: an interrupted run keeps nothing.
    (
        cd "$work"
        /usr/bin/time -f '%e %M' -o "$work/t" "$lychee" --no-progress --cache --host-concurrency 2 --host-request-interval 0ms --max-concurrency 64 k10.txt >/dev/null 2>&1 || true
        read -r t m < <(tail -1 "$work/t")
        echo "lychee --cache, first run: ${t} s, $((m / 1024)) MB peak"
        /usr/bin/time -f '%e %M' -o "$work/t" "$lychee" --no-progress --cache --host-concurrency 2 --host-request-interval 0ms --max-concurrency 64 k10.txt >/dev/null 2>&1 || true
        read -r t m < <(tail -1 "$work/t")
        echo "lychee --cache, all from the cache: ${t} s, $((m / 1024)) MB peak"
    )
fi
stop_server
echo "(markport: 10,000 expected, each link asked once over its three runs: the checks running at the stop finish and are kept; lychee adds 10,000 for its first run)"
