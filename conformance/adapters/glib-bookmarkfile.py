#!/usr/bin/env python3
"""GLib's GBookmarkFile (the desktop's reader and writer of
recently-used.xbel): load IN with g_bookmark_file_load_from_file and save it
with g_bookmark_file_to_file. Talks to the system libglib-2.0 through ctypes,
so nothing but python3 and GLib is needed.

Usage: glib-bookmarkfile.py IN OUT   (with --from desktop --to desktop)
Exit status 1 with GLib's message when GLib refuses the file.
"""
import ctypes
import ctypes.util
import sys


class GError(ctypes.Structure):
    _fields_ = [("domain", ctypes.c_uint32), ("code", ctypes.c_int), ("message", ctypes.c_char_p)]


def main(src, dst):
    glib = ctypes.CDLL(ctypes.util.find_library("glib-2.0") or "libglib-2.0.so.0")
    glib.g_bookmark_file_new.restype = ctypes.c_void_p
    for name in ("g_bookmark_file_load_from_file", "g_bookmark_file_to_file"):
        fn = getattr(glib, name)
        fn.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.POINTER(GError))]
        fn.restype = ctypes.c_int
    glib.g_bookmark_file_free.argtypes = [ctypes.c_void_p]
    bookmarks = glib.g_bookmark_file_new()
    error = ctypes.POINTER(GError)()
    try:
        for step, path in (("load", src), ("save", dst)):
            fn = glib.g_bookmark_file_load_from_file if step == "load" else glib.g_bookmark_file_to_file
            if not fn(bookmarks, path.encode(), ctypes.byref(error)):
                message = error.contents.message.decode(errors="replace") if error else "unknown error"
                print(f"GLib cannot {step} {path}: {message}", file=sys.stderr)
                return 1
        return 0
    finally:
        glib.g_bookmark_file_free(bookmarks)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
