#!/bin/sh
# npm's bookmarks-parser, installed by .ci/setup.d/conformance.sh under
# $MARKPORT_TOOLS/npm (default ~/.cache/markport-tools/npm).
# Usage: bookmarks-parser.sh IN OUT   (with --from netscape --to json)
set -eu
tools=${MARKPORT_TOOLS:-$HOME/.cache/markport-tools}
NODE_PATH="$tools/npm/node_modules" exec node "$(dirname "$0")/bookmarks-parser.js" "$1" "$2"
