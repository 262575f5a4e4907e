#!/bin/sh
# A real Firefox (firefox-esr, headless, a throw-away profile) imports IN
# and exports OUT with its own code (BookmarkHTMLUtils, BookmarkJSONUtils),
# through the project's own driver, tests/peers/firefox_bookmarks.py.
# Usage: firefox.sh html IN OUT   (--from netscape --to netscape)
#        firefox.sh json IN OUT   (--from firefox --to firefox)
set -eu
driver=$(dirname "$0")/../../tests/peers/firefox_bookmarks.py
case $1 in
html) exec python3 "$driver" "$2" --html --html-out "$3" >/dev/null ;;
json) exec python3 "$driver" "$2" --json "$3" >/dev/null ;;
*) echo "usage: firefox.sh html|json IN OUT" >&2; exit 2 ;;
esac
