#!/bin/sh
# Prints the table "What Firefox's restore changes" of docs/formats/firefox.md
# from a measurement with a real Firefox: tests/tests/firefox_live_report.rs
# writes every corpus sample (and, when ../shared is beside the checkout, the
# public Firefox backups of the peer corpus) with `--to firefox`, has
# firefox-esr restore each backup (tests/peers/firefox_bookmarks.py) and
# compares Firefox's own backup with markport's, item by item. The same test
# fails when the doc's table and the measurement disagree.
# Needs firefox-esr and Python 3. Usage: scripts/firefox-restore-table.sh
set -eu
cd "$(dirname "$0")/.."
cargo test -q -p markport-tests --test firefox_live_report -- --nocapture 2>&1 \
    | sed -n 's/^TABLE| //p'
