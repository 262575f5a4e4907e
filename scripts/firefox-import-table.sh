#!/bin/sh
# Prints the table "What Firefox's HTML import changes" of
# docs/formats/netscape.md from a measurement with a real Firefox:
# tests/tests/firefox_live_html_import.rs writes every corpus sample (and,
# when ../shared is beside the checkout, every peer input of the loss-truth
# test) with `--to netscape`, has firefox-esr import each file
# (tests/peers/firefox_bookmarks.py --html) and compares Firefox's JSON backup
# with markport's HTML, node by node. The same test fails when the doc's
# table and the measurement disagree. The last column is written by hand.
# Needs firefox-esr and Python 3. Usage: scripts/firefox-import-table.sh
set -eu
cd "$(dirname "$0")/.."
cargo test -q -p markport-tests --test firefox_live_html_import -- --nocapture 2>&1 \
    | sed -n 's/^TABLE| //p'
