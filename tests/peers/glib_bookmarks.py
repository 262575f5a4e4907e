#!/usr/bin/env python3
"""markport's own driver for GLib's GBookmarkFile (desktop bookmarks), through ctypes.

Standard library only; needs libglib-2.0 (Debian: libglib2.0-0). ctypes rather than
python3-gi: older GIRs give GLib.BookmarkFile no constructor.

  glib_bookmarks.py FILE              what GLib loads from FILE, as JSON:
      {"ok": true, "glib": VERSION, "bookmarks": [{"uri", "title", "description",
       "mime_type", "is_private", "applications": [{"name", "exec", "exec_expanded",
       "exec_error", "count"}]}]}
      ("exec" as GLib stores it, read from its own serialisation; "exec_expanded" what
      g_bookmark_file_get_application_info gives). When GLib refuses the file:
      {"ok": false, "error": MESSAGE}, exit status 1.
  glib_bookmarks.py --write OUT SPEC  GLib writes OUT from SPEC.json, {"bookmarks": [{"uri",
      "applications": [{"name", "exec"}]}]}, through g_bookmark_file_set_application_info.
  glib_bookmarks.py --reserialize FILE  GLib loads FILE and prints its own serialisation
      (g_bookmark_file_to_data), for timing GLib's load and write; exit status 1 when
      GLib refuses the file.
  glib_bookmarks.py --version         GLib's version.
"""
import ctypes
import ctypes.util
import html
import json
import re
import sys

glib = ctypes.CDLL(ctypes.util.find_library("glib-2.0") or "libglib-2.0.so.0")


class GError(ctypes.Structure):
    _fields_ = [("domain", ctypes.c_uint32), ("code", ctypes.c_int), ("message", ctypes.c_char_p)]


ERR = ctypes.POINTER(ctypes.POINTER(GError))
P, S, SIZE = ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t)
SIGNATURES = {
    "g_free": (None, [P]),
    "g_strfreev": (None, [P]),
    "g_error_free": (None, [ctypes.POINTER(GError)]),
    "g_date_time_new_now_utc": (P, []),
    "g_date_time_unref": (None, [P]),
    "g_bookmark_file_new": (P, []),
    "g_bookmark_file_free": (None, [P]),
    "g_bookmark_file_load_from_data": (ctypes.c_int, [P, S, ctypes.c_size_t, ERR]),
    "g_bookmark_file_to_data": (P, [P, SIZE, ERR]),
    "g_bookmark_file_to_file": (ctypes.c_int, [P, S, ERR]),
    "g_bookmark_file_get_uris": (P, [P, SIZE]),
    "g_bookmark_file_get_title": (P, [P, S, ERR]),
    "g_bookmark_file_get_description": (P, [P, S, ERR]),
    "g_bookmark_file_get_mime_type": (P, [P, S, ERR]),
    "g_bookmark_file_get_is_private": (ctypes.c_int, [P, S, ERR]),
    "g_bookmark_file_get_applications": (P, [P, S, SIZE, ERR]),
    "g_bookmark_file_get_application_info":
        (ctypes.c_int, [P, S, S, ctypes.POINTER(P), ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(P), ERR]),
    "g_bookmark_file_set_application_info": (ctypes.c_int, [P, S, S, S, ctypes.c_int, P, ERR]),
}
for name, (res, args) in SIGNATURES.items():
    fn = getattr(glib, name)
    fn.restype, fn.argtypes = res, args

VERSION = ".".join(str(ctypes.c_uint.in_dll(glib, f"glib_{part}_version").value)
                   for part in ("major", "minor", "micro"))


def text(raw):
    """A GLib string: UTF-8, but a path may not be; odd bytes as \\xNN."""
    return None if raw is None else raw.decode("utf-8", "backslashreplace")


def owned(ptr):
    """A gchar* the caller owns: its text, then freed."""
    if not ptr:
        return None
    value = ctypes.cast(ptr, S).value
    glib.g_free(ptr)
    return text(value)


def owned_list(ptr):
    """A gchar** the caller owns: its strings, then freed."""
    if not ptr:
        return []
    items, array = [], ctypes.cast(ptr, ctypes.POINTER(S))
    while array[len(items)] is not None:
        items.append(text(array[len(items)]))
    glib.g_strfreev(ptr)
    return items


def failure():
    """A GError slot, and a function that gives its message (None when unset) and frees it."""
    slot = ctypes.POINTER(GError)()

    def message():
        if not slot:
            return None
        m = text(slot.contents.message)
        glib.g_error_free(slot)
        return m
    return ctypes.byref(slot), message


def stored_execs(bookmarks):
    """(uri, application) -> exec as GLib stores it (still shell-quoted), read from the file
    GLib itself would write: its layout puts each element on a line of its own."""
    length = ctypes.c_size_t(0)
    data = owned(glib.g_bookmark_file_to_data(bookmarks, ctypes.byref(length), None)) or ""
    execs, uri = {}, None
    for line in data.split("\n"):
        m = re.match(r'\s*<bookmark href="([^"]*)"', line)
        if m:
            uri = html.unescape(m.group(1))
        m = re.match(r'\s*<bookmark:application name="([^"]*)" exec="([^"]*)"', line)
        if m and uri is not None:
            execs[(uri, html.unescape(m.group(1)))] = html.unescape(m.group(2))
    return execs


def dump(path):
    with open(path, "rb") as f:
        data = f.read()
    bookmarks = glib.g_bookmark_file_new()
    err, message = failure()
    try:
        if not glib.g_bookmark_file_load_from_data(bookmarks, data, len(data), err):
            return {"ok": False, "glib": VERSION, "error": message()}, 1
        execs = stored_execs(bookmarks)
        out = []
        count = ctypes.c_size_t(0)
        for uri in owned_list(glib.g_bookmark_file_get_uris(bookmarks, ctypes.byref(count))):
            u = uri.encode("utf-8", "surrogateescape")
            mime_err, mime_message = failure()
            private_err, private_message = failure()
            item = {
                "uri": uri,
                "title": owned(glib.g_bookmark_file_get_title(bookmarks, u, None)),
                "description": owned(glib.g_bookmark_file_get_description(bookmarks, u, None)),
                "mime_type": owned(glib.g_bookmark_file_get_mime_type(bookmarks, u, mime_err)),
            }
            mime_message()
            private = glib.g_bookmark_file_get_is_private(bookmarks, u, private_err)
            item["is_private"] = None if private_message() else bool(private)
            apps = []
            names = owned_list(glib.g_bookmark_file_get_applications(bookmarks, u, ctypes.byref(count), None))
            for name in names:
                app = {"name": name, "exec": execs.get((uri, name))}
                expanded, times, stamp = P(), ctypes.c_uint(0), P()
                info_err, info_message = failure()
                if glib.g_bookmark_file_get_application_info(bookmarks, u, name.encode(), ctypes.byref(expanded),
                                                             ctypes.byref(times), ctypes.byref(stamp), info_err):
                    app["exec_expanded"] = owned(expanded.value)
                else:
                    app["exec_error"] = info_message()
                    glib.g_bookmark_file_get_application_info(bookmarks, u, name.encode(), None,
                                                              ctypes.byref(times), None, None)
                app["count"] = times.value
                apps.append(app)
            item["applications"] = apps
            out.append(item)
        return {"ok": True, "glib": VERSION, "bookmarks": out}, 0
    finally:
        glib.g_bookmark_file_free(bookmarks)


def write(out_path, spec_path):
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    bookmarks = glib.g_bookmark_file_new()
    try:
        for item in spec.get("bookmarks", []):
            for app in item.get("applications", []):
                stamp = glib.g_date_time_new_now_utc()
                err, message = failure()
                glib.g_bookmark_file_set_application_info(bookmarks, item["uri"].encode(), app["name"].encode(),
                                                          app.get("exec", "").encode(), 1, stamp, err)
                glib.g_date_time_unref(stamp)
                problem = message()
                if problem:
                    print(json.dumps({"ok": False, "uri": item["uri"], "error": problem}), file=sys.stderr)
                    return 1
        err, message = failure()
        if not glib.g_bookmark_file_to_file(bookmarks, out_path.encode(), err):
            print(json.dumps({"ok": False, "error": message()}), file=sys.stderr)
            return 1
        return 0
    finally:
        glib.g_bookmark_file_free(bookmarks)


def reserialize(path):
    with open(path, "rb") as f:
        data = f.read()
    bookmarks = glib.g_bookmark_file_new()
    err, message = failure()
    try:
        if not glib.g_bookmark_file_load_from_data(bookmarks, data, len(data), err):
            print(json.dumps({"ok": False, "error": message()}), file=sys.stderr)
            return 1
        length = ctypes.c_size_t(0)
        out = owned(glib.g_bookmark_file_to_data(bookmarks, ctypes.byref(length), None)) or ""
        sys.stdout.buffer.write(out.encode("utf-8", "surrogateescape"))
        return 0
    finally:
        glib.g_bookmark_file_free(bookmarks)


def main(args):
    if args == ["--version"]:
        print(VERSION)
        return 0
    if len(args) == 2 and args[0] == "--reserialize":
        return reserialize(args[1])
    if len(args) == 3 and args[0] == "--write":
        return write(args[1], args[2])
    if len(args) == 1 and not args[0].startswith("--"):
        result, code = dump(args[0])
        print(json.dumps(result, ensure_ascii=False))
        return code
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
