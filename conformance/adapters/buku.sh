#!/bin/sh
# buku (https://github.com/jarun/buku): import a bookmark file into a fresh
# database, export it again. buku picks the format by extension on both
# sides (.html Netscape/Firefox HTML, .xbel XBEL, .md Markdown, ...).
# Usage: buku.sh IN OUT
# The database lives beside OUT (a private directory of the run), never in
# the user's own ~/.local/share/buku.
set -eu
in=$1
out=$2
data=$(dirname "$out")/buku-data
mkdir -p "$data"
export XDG_DATA_HOME="$data" HOME="$data"
# --tacit answers buku's questions (auto-tags, folder names as tags) with
# their defaults; standard input is empty.
buku --nostdin --tacit --np -i "$in" </dev/null >/dev/null
buku --nostdin --tacit --np -e "$out" </dev/null >/dev/null
