# Desktop bookmarks: the real GLib (GBookmarkFile) through
# the project's driver tests/peers/glib_bookmarks.py, which loads libglib-2.0
# with ctypes (tests/tests/desktop_glib_live.rs).
apt-get install -y -qq libglib2.0-0 python3 >/dev/null
