# Browsers: a real Firefox (Debian's firefox-esr, headless) through the
# project's own driver, tests/peers/firefox_bookmarks.py, restores markport's Firefox backups
# and writes its own for markport to read (tests/tests/firefox_live.rs).
command -v firefox-esr >/dev/null 2>&1 || apt-get install -y -qq firefox-esr >/dev/null
