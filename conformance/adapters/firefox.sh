#!/bin/sh
# A real Firefox (firefox-esr, headless, a throw-away profile) imports IN
# and exports OUT with its own code (BookmarkHTMLUtils, BookmarkJSONUtils),
# through the shared peer driver tools/firefox_bookmarks.py (beside the
# checkout in CI: $MARKPORT_SHARED, default ../shared).
# Usage: firefox.sh html IN OUT   (--from netscape --to netscape)
#        firefox.sh json IN OUT   (--from firefox --to firefox)
set -eu
shared=${MARKPORT_SHARED:-$(dirname "$0")/../../../shared}
driver=$shared/tools/firefox_bookmarks.py
case $1 in
html) exec python3 "$driver" "$2" --html "$3" >/dev/null ;;
json) exec python3 "$driver" "$2" --from-json --json "$3" >/dev/null ;;
*) echo "usage: firefox.sh html|json IN OUT" >&2; exit 2 ;;
esac
