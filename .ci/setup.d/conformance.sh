# Conformance: the real tools `markport conformance` measures
# (conformance/adapters/, scripts/conformance-results.sh,
# crates/cli/tests/conformance_tools.rs).
# - GLib's GBookmarkFile: python3 + libglib-2.0 through ctypes.
# - bookmarks-converter and buku (PyPI), pinned so results are reproducible.
# - npm's bookmarks-parser, under $MARKPORT_TOOLS/npm (outside the checkout).
# - Shaarli's netscape-bookmark-parser (Debian's php-netscape-bookmark-parser,
#   pinned to Debian 12's version) run by php-cli.
# - A real Firefox: firefox-esr (browsers.sh) through tests/peers/firefox_bookmarks.py.
apt-get install -y -qq libglib2.0-0 python3 perl php-cli php-netscape-bookmark-parser=3.2.0-1 >/dev/null
# The image's Node.js (NodeSource) carries its own npm, which Debian's npm
# package conflicts with: install Debian's only where there is none.
command -v npm >/dev/null 2>&1 || apt-get install -y -qq nodejs npm >/dev/null
python3 -m pip install -q --disable-pip-version-check bookmarks-converter==1.0.3 buku==5.1
MARKPORT_TOOLS=${MARKPORT_TOOLS:-$HOME/.cache/markport-tools}
mkdir -p "$MARKPORT_TOOLS/npm"
[ -d "$MARKPORT_TOOLS/npm/node_modules/bookmarks-parser" ] ||
    npm install -s --no-audit --no-fund --prefix "$MARKPORT_TOOLS/npm" bookmarks-parser@1.5.0 >/dev/null
