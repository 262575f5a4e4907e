#!/usr/bin/env python3
"""What GLib's GBookmarkFile does under the load markport's concurrency test puts
on `markport desktop add`: 8 processes, each registering 50 times into one file
by load + g_bookmark_file_add_application + save (GLib takes no lock).
Prints how many of the 400 registrations the file ends with.
Needs libglib2.0-0. Usage: scripts/glib-concurrency.py [WORKERS] [EACH]"""
import ctypes, multiprocessing, os, sys, tempfile

glib = ctypes.CDLL("libglib-2.0.so.0")
glib.g_bookmark_file_new.restype = ctypes.c_void_p
glib.g_bookmark_file_load_from_file.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
glib.g_bookmark_file_to_file.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
glib.g_bookmark_file_add_application.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
glib.g_bookmark_file_set_mime_type.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p]
glib.g_bookmark_file_get_uris.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t)]
glib.g_bookmark_file_get_uris.restype = ctypes.POINTER(ctypes.c_char_p)
glib.g_bookmark_file_get_application_info.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
    ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
glib.g_bookmark_file_get_applications.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t), ctypes.c_void_p]
glib.g_bookmark_file_get_applications.restype = ctypes.POINTER(ctypes.c_char_p)
glib.g_bookmark_file_free.argtypes = [ctypes.c_void_p]

def worker(args):
    path, w, each = args
    for i in range(each):
        uri = b"file:///shared/doc.txt" if i % 10 == 0 else b"file:///w%d/doc%d.txt" % (w, i % 25)
        bf = glib.g_bookmark_file_new()
        glib.g_bookmark_file_load_from_file(bf, path, None)  # a missing file is an empty one
        glib.g_bookmark_file_set_mime_type(bf, uri, b"text/plain")
        glib.g_bookmark_file_add_application(bf, uri, b"app%d" % w, b"app %u")
        glib.g_bookmark_file_to_file(bf, path, None)
        glib.g_bookmark_file_free(bf)

def main():
    workers = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    each = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "recently-used.xbel").encode()
        with multiprocessing.Pool(workers) as p:
            p.map(worker, [(path, w, each) for w in range(workers)])
        bf = glib.g_bookmark_file_new()
        glib.g_bookmark_file_load_from_file(bf, path, None)
        n = ctypes.c_size_t()
        uris = glib.g_bookmark_file_get_uris(bf, ctypes.byref(n))
        total = 0
        for k in range(n.value):
            m = ctypes.c_size_t()
            apps = glib.g_bookmark_file_get_applications(bf, uris[k], ctypes.byref(m), None)
            for j in range(m.value):
                count = ctypes.c_uint()
                glib.g_bookmark_file_get_application_info(bf, uris[k], apps[j], None, ctypes.byref(count), None, None)
                total += count.value
        print(f"GLib: {total} of {workers * each} registrations survive ({n.value} items of {workers * 25 + 1})")

if __name__ == "__main__":
    main()
