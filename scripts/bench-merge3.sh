#!/usr/bin/env bash
# The three-way merge measured (docs/merge.md, "Measured"): not a test.
#
#   scripts/bench-merge3.sh [RUNS]
#
# 1. Two copies edited apart at random, RUNS seeded runs (default 10,000):
#    each a 1,000-bookmark tree, two copies with random edits, moves,
#    additions and deletions, merged, each copy synced back, a second round;
#    prints the items any ledger left unaccounted and the syncs that did
#    not converge (exit 1 if an item was unaccounted).
# 2. The merge alone on generated trees of 10,000 and 100,000 bookmarks.
# 3. `markport merge --base` end to end on three Netscape files of 10,000
#    and 100,000 bookmarks (a base, two copies with 1% edited apart): wall
#    time and peak memory against the inputs' size.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10000}
cargo build --release -q -p markport-merge3 --examples
cargo build --release -q -p markport-cli
target=${CARGO_TARGET_DIR:-target}/release

echo "== two copies edited apart, $runs runs"
"$target/examples/two_copies" "$runs" 1

echo "== the merge alone"
for n in 10000 100000; do "$target/examples/speed" "$n"; done

echo "== markport merge --base, end to end"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for n in 10000 100000; do
    python3 - "$dir" "$n" <<'PY'
import random, sys
dir, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(n)
folders = [[] for _ in range(max(1, n // 100))]
for i in range(n):
    folders[rng.randrange(len(folders))].append(i)
def write(name, edit):
    out = ["<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n<DL><p>\n"]
    for f, items in enumerate(folders):
        out.append(f"<DT><H3>Folder {f}</H3>\n<DL><p>\n")
        for i in items:
            title, href = edit(i)
            if title is None:
                continue
            out.append(f'<DT><A HREF="{href}" ADD_DATE="1700000000" TAGS="t{i % 50}">{title}</A>\n')
        out.append("</DL><p>\n")
    out.append("</DL><p>\n")
    open(f"{dir}/{name}.html", "w").write("".join(out))
base = lambda i: (f"Page {i}", f"https://site{i % 997}.example/page/{i}")
changed = {k: set(rng.sample(range(n), n // 100)) for k in ("ours", "theirs")}
def side(k, what):
    def edit(i):
        t, h = base(i)
        if i in changed[k]:
            return [(t + " (edited)", h), (t, h + "?v=2"), (None, None)][i % 3]
        return t, h
    return edit
write("base", base)
write("ours", side("ours", 0))
write("theirs", side("theirs", 1))
PY
    size=$(du -cb "$dir"/base.html "$dir"/ours.html "$dir"/theirs.html | tail -1 | cut -f1)
    /usr/bin/time -f "%e %M" -o "$dir/time" "$target/markport" -q merge \
        --base "$dir/base.html" "$dir/ours.html" "$dir/theirs.html" -o "$dir/out.html" || true
    read -r secs kb <"$dir/time"
    echo "$n bookmarks: inputs $((size / 1024)) KiB, merged in $secs s, peak $((kb)) KiB ($(python3 -c "print(round($kb * 1024 / $size, 2))")x the inputs)"
done
