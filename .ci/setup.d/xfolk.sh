# xFolk: the live peers that read a published page.
# - HTML::Microformats (Perl), through ../shared/tools/xfolk_peer.py: finds the
#   xFolk entries and their url, title, tags and descriptions.
# - mf2py (PyPI): finds the same entries as mf2 h-entry items.
# - feedparser (PyPI): parses the Atom feed of a published site.
# - Debian's chromium: renders the page headless (DOM, filter, screenshot).
apt-get install -y -qq libhtml-microformats-perl chromium >/dev/null
python3 -m pip install -q --disable-pip-version-check mf2py feedparser
