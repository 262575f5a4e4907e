# Desktop bookmarks: the real GLib (GBookmarkFile) through
# ../shared/tools/glib_bookmarks.py, which loads libglib-2.0 with ctypes.
apt-get install -y -qq libglib2.0-0 python3 >/dev/null
