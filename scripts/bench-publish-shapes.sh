#!/usr/bin/env bash
# `markport publish` on the shapes that stress its names (issue 21): folder
# titles and tags that all fold to one slug (each needs a `_N`), many
# distinct tags (a directory each, two levels deep), and links hiding a
# scheme behind control characters. For each, N and 2N: best wall time of
# RUNS and peak memory, and the ratio (2.0 is linear, 4.0 quadratic).
# Each run publishes into a new directory (replacing a site is measured by
# scripts/bench-publish.sh). A benchmark, not a test: read the table.
# The site is written to $TMPDIR: TMPDIR=/dev/shm leaves the disk out.
# Usage: scripts/bench-publish-shapes.sh [N] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20000}
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p markport-cli
bin=target/release/markport
# shellcheck source=timing.sh
source scripts/timing.sh

# gen SHAPE SIZE FILE: a Netscape file of SIZE bookmarks.
gen() {
    python3 - "$1" "$2" "$3" <<'PY'
import sys
shape, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
# Symbols (not letters or digits): every pair makes a distinct title or tag
# whose slug is the same.
sym = [chr(c) for c in range(0x2190, 0x2400)]
def odd(i):
    return sym[i % len(sym)] + sym[(i // len(sym)) % len(sym)] + sym[i // len(sym) ** 2]
o = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n']
w = o.append
for i in range(n):
    if shape == "folders-one-fold":
        # Σ, σ and ς fold to one letter: one slug for every folder.
        w('<DT><H3>%s%s</H3><DL><p><DT><A HREF="https://e.example/%d">b</A></DL><p>\n'
          % ("Σσς"[i % 3], odd(i), i))
    elif shape == "tags-one-slug":
        w('<DT><A HREF="https://e.example/%d" TAGS="x%s">b</A>\n' % (i, odd(i)))
    elif shape == "tags-distinct":
        w('<DT><A HREF="https://e.example/%d" TAGS="Tag%d,tag%d">b</A>\n' % (i, i, i))
    elif shape == "script-links":
        w('<DT><A HREF="java&#1;script:alert(%d)" TAGS="t">b</A>\n' % i)
w('</DL><p>\n')
open(path, "w").write("".join(o))
PY
}

printf '%-18s %9s %9s %6s %9s %9s\n' shape "N s" "2N s" ratio "N MB" "2N MB"
for shape in folders-one-fold tags-one-slug tags-distinct script-links; do
    times=()
    mems=()
    for size in "$n" "$((2 * n))"; do
        gen "$shape" "$size" "$work/in.html"
        # Into a new directory each run, removed untimed: removing a big
        # old site is the file system's time (seconds with online discard).
        bt=999999 bm=0
        for _ in $(seq "$runs"); do
            rm -rf "$work/site"
            read -r t m < <(runs=1 best "$bin" publish -q "$work/in.html" -o "$work/site")
            bt=$(awk -v a="$t" -v b="$bt" 'BEGIN{print (a < b) ? a : b}')
            bm=$((m > bm ? m : bm))
        done
        times+=("$bt")
        mems+=("$bm")
    done
    ratio=$(awk -v a="${times[0]}" -v b="${times[1]}" 'BEGIN{ if (a < 0.01) a = 0.01; printf "%.1f", b / a }')
    printf '%-18s %9s %9s %6s %9s %9s\n' "$shape" "${times[0]}" "${times[1]}" "$ratio" "${mems[0]}" "${mems[1]}"
done
