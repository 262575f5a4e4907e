# xFolk: the live peers that read a published page.
# - HTML::Microformats (Perl), through the project's driver tests/peers/xfolk_peer.py: finds the
#   xFolk entries and their url, title, tags and descriptions.
# - mf2py (PyPI): finds the same entries as mf2 h-entry items.
# - feedparser (PyPI): parses the Atom feed of a published site.
# - Debian's chromium: renders the page headless (DOM, filter, screenshot); it
#   also loads, writes and re-saves markport's Chromium files through the
#   project's driver tests/peers/chromium_bookmarks.py (chromium_live.rs,
#   chromium_destination.rs).
apt-get install -y -qq libhtml-microformats-perl chromium >/dev/null
python3 -m pip install -q --disable-pip-version-check mf2py feedparser
