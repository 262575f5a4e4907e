#!/usr/bin/env bash
# Make corpus/buku/buku.db with the real buku (pip install buku; 5.1 made
# the committed file) from made-up bookmarks: tags with capitals and a
# space (buku lowercases and sorts them), a description with a comma and
# one on two lines, a bookmark with no title, tags or description,
# non-ASCII everywhere, two immutable titles, and a deleted bookmark whose
# index buku gives to the last one. buku writes no dates, so the file is
# the same on every run. The expected model beside it is checked by hand:
#   markport convert corpus/buku/buku.db --to json > corpus/buku/buku.expected.json
# Usage: scripts/corpus-buku.sh
set -euo pipefail
cd "$(dirname "$0")/.."
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
b() { XDG_DATA_HOME="$home" HOME="$home" buku --nostdin --np --nc --offline "$@" >/dev/null; }
b -a https://www.rust-lang.org/ "Rust,Systems Programming" --title "Rust Programming Language" \
    -c "A language, empowering everyone" --immutable 1
b -a "https://example.org/no-title?q=a&b=c" --title
b -a https://example.org/deleted --title "Deleted again"
b -a "https://例え.jp/パス" "日本語,reading" --title "Ünïcode – title" -c "two
lines"
b -a https://example.com/locked "later" --title "Locked <title> & more" --immutable 1
XDG_DATA_HOME="$home" HOME="$home" buku --nostdin --np --nc -d 3 --tacit >/dev/null
cp "$home/buku/bookmarks.db" corpus/buku/buku.db
