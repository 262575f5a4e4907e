#!/usr/bin/env bash
# The one convert pipeline's time and peak memory on N and 2N bookmarks
# (default 100,000): a generated Netscape file converted to XBEL into a file,
# to standard output, and to standard output with --fail-on-loss (the
# output held until the decision); and a live Firefox places.sqlite (most
# bookmarks in the database, the newest in its -wal, as a running Firefox
# keeps it) converted by its path, which makes a private copy of both.
# Peak memory is compared with the input's size (target: at most 3x).
# Usage: scripts/bench-convert.sh [N_BOOKMARKS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p markport-cli
cargo build -q --release -p markport-netscape --example generate-netscape
# shellcheck source=timing.sh
source scripts/timing.sh

# A places database of $1 bookmarks with the last tenth still in its -wal;
# the writer is left holding it open (as Firefox does) until $2 exists.
places() {
    python3 - "$1" "$2" "$3" <<'PY'
import os, sqlite3, sys, time
n, path, done = int(sys.argv[1]), sys.argv[2], sys.argv[3]
db = sqlite3.connect(path, isolation_level=None)
db.executescript("""
PRAGMA journal_mode = WAL; PRAGMA locking_mode = EXCLUSIVE; PRAGMA wal_autocheckpoint = 0;
CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url LONGVARCHAR, title LONGVARCHAR,
  last_visit_date INTEGER, guid TEXT);
CREATE TABLE moz_bookmarks (id INTEGER PRIMARY KEY, type INTEGER, fk INTEGER DEFAULT NULL,
  parent INTEGER, position INTEGER, title LONGVARCHAR, keyword_id INTEGER, folder_type TEXT,
  dateAdded INTEGER, lastModified INTEGER, guid TEXT);
CREATE TABLE moz_keywords (id INTEGER PRIMARY KEY, keyword TEXT UNIQUE, place_id INTEGER, post_data TEXT);
CREATE TABLE moz_anno_attributes (id INTEGER PRIMARY KEY, name VARCHAR(32) UNIQUE NOT NULL);
CREATE TABLE moz_items_annos (id INTEGER PRIMARY KEY, item_id INTEGER NOT NULL,
  anno_attribute_id INTEGER, content LONGVARCHAR);
CREATE TABLE moz_annos (id INTEGER PRIMARY KEY, place_id INTEGER NOT NULL,
  anno_attribute_id INTEGER, content LONGVARCHAR);
""")
t0 = 1700000000000000
roots = [(1, 0, 0, "", "root________"), (2, 1, 0, "menu", "menu________"),
         (3, 1, 1, "toolbar", "toolbar_____"), (4, 1, 2, "tags", "tags________"),
         (5, 1, 3, "unfiled", "unfiled_____"), (6, 1, 4, "mobile", "mobile______")]
for r in roots:
    db.execute("INSERT INTO moz_bookmarks (id, type, parent, position, title, dateAdded, lastModified, guid) VALUES (?, 2, ?, ?, ?, ?, ?, ?)",
               (r[0], r[1], r[2], r[3], t0, t0, r[4]))
def add(lo, hi):
    db.execute("BEGIN")
    for i in range(lo, hi):
        db.execute("INSERT INTO moz_places (id, url, title) VALUES (?, ?, ?)",
                   (i + 1, f"https://example.org/{i}/some/path?q={i}", f"Page {i}"))
        db.execute("INSERT INTO moz_bookmarks (type, fk, parent, position, title, dateAdded, lastModified, guid) VALUES (1, ?, 5, ?, ?, ?, ?, ?)",
                   (i + 1, i, f"Bookmark number {i}", t0 + i, t0 + i, f"g{i:011d}"))
    db.execute("COMMIT")
old = n - n // 10
add(0, old)
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
add(old, n)
open(done + ".ready", "w").close()
while not os.path.exists(done):
    time.sleep(0.1)
db.close()
PY
}

row() { # label seconds peak-MB input-bytes
    printf '%-52s %7.3f s %6d MB peak %5.2fx the input\n' "$1" "$2" "$3" \
        "$(awk -v m="$3" -v s="$4" 'BEGIN{print m * 1048576 / s}')"
}

for k in "$n" "$((2 * n))"; do
    target/release/examples/generate-netscape "$k" > "$work/big.html"
    size=$(stat -c %s "$work/big.html")
    echo "$k bookmarks: Netscape $((size / 1048576)) MiB"
    read -r t m <<<"$(best target/release/markport convert "$work/big.html" --to xbel -o "$work/out.xbel")"
    row "  netscape -> xbel, into a file" "$t" "$m" "$size"
    read -r t m <<<"$(best target/release/markport convert "$work/big.html" --to xbel)"
    row "  netscape -> xbel, to standard output" "$t" "$m" "$size"
    read -r t m <<<"$(best target/release/markport convert "$work/big.html" --to xbel --fail-on-loss)"
    row "  netscape -> xbel, standard output, --fail-on-loss" "$t" "$m" "$size"

    mkdir -p "$work/profile"
    rm -f "$work/profile/"* "$work/done"*
    places "$k" "$work/profile/places.sqlite" "$work/done" &
    writer=$!
    while [ ! -e "$work/done.ready" ]; do sleep 0.1; done
    psize=$(( $(stat -c %s "$work/profile/places.sqlite") + $(stat -c %s "$work/profile/places.sqlite-wal") ))
    echo "$k bookmarks: places.sqlite and -wal $((psize / 1048576)) MiB"
    read -r t m <<<"$(best target/release/markport convert "$work/profile/places.sqlite" --to xbel -o "$work/places.xbel")"
    row "  live places.sqlite -> xbel, into a file" "$t" "$m" "$psize"
    target/release/markport info "$work/profile/places.sqlite" | sed -n 2p
    touch "$work/done"
    wait "$writer"
done
