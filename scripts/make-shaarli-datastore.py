#!/usr/bin/env python3
"""Write corpus/shaarli/datastore.php and corpus/shaarli/legacy-datastore.php:
two small Shaarli datastores of made-up bookmarks, in the layout Shaarli's
FileUtils::writeFlatDB writes (`<?php /* ` + base64(gzdeflate(serialize($x)))
+ ` */ ?>`), one of each layout:

- datastore.php: Shaarli >= 0.12, a Shaarli\\Bookmark\\BookmarkArray whose
  protected `bookmarks` are Shaarli\\Bookmark\\Bookmark objects, dates as
  DateTime objects in three kinds of zone (a name, an offset, an
  abbreviation), a sticky bookmark, a private one, a Markdown description,
  a note without a link, and the ids/urls/keys maps Shaarli keeps;
- legacy-datastore.php: the LinkDB layout, an array of arrays keyed by
  link date, `tags` a space-separated string, `linkdate` and `updated` in
  the server's local time (Ymd_His), `private` 0 or 1.

Usage: scripts/make-shaarli-datastore.py [DIR]   (default corpus/shaarli)
"""
import base64
import os
import sys
import zlib


def s(text):
    b = text.encode("utf-8") if isinstance(text, str) else text
    return b's:%d:"%s";' % (len(b), b)


def i(n):
    return b"i:%d;" % n


def b(flag):
    return b"b:%d;" % (1 if flag else 0)


NULL = b"N;"


def array(pairs):
    return b"a:%d:{%s}" % (len(pairs), b"".join(k + v for k, v in pairs))


def obj(cls, props):
    c = cls.encode()
    return b'O:%d:"%s":%d:{%s}' % (len(c), c, len(props), b"".join(s(k) + v for k, v in props))


def protected(name):
    return b"\0*\0" + name.encode()


def datetime(date, kind, zone):
    return obj("DateTime", [(b"date", s(date)), (b"timezone_type", i(kind)), (b"timezone", s(zone))])


def bookmark(id, short, url, title, desc, tags, sticky, created, updated, private, thumb=NULL):
    props = [
        ("id", i(id)),
        ("shortUrl", s(short)),
        ("url", s(url)),
        ("title", s(title)),
        ("description", s(desc)),
        ("tags", array([(i(n), s(t)) for n, t in enumerate(tags)])),
        ("thumbnail", thumb),
        ("sticky", b(sticky)),
        ("created", created),
        ("updated", updated),
        ("private", b(private)),
        ("additionalContent", array([])),
    ]
    return obj("Shaarli\\Bookmark\\Bookmark", [(protected(k), v) for k, v in props])


MODERN = [
    bookmark(3, "Xk2pQw", "https://www.rust-lang.org/", "Rust", "A language *empowering* everyone.\n\n- fast\n- reliable",
             ["lang", "systems"], True, datetime("2020-07-01 12:00:00.125000", 3, "Europe/Paris"),
             datetime("2021-01-15 09:30:00.000000", 3, "Europe/Paris"), False),
    bookmark(2, "b4Tz9A", "https://lwn.net/", "LWN.net", "", ["news", ".private-tag"], False,
             datetime("2019-12-24 23:15:00.000000", 1, "-05:00"), NULL, True,
             s("https://example.org/thumb/lwn.jpg")),
    bookmark(1, "Q0aZrg", "/shaare/Q0aZrg", "A note to self", "Remember the **milk**.", ["todo"], False,
             datetime("2019-06-01 08:00:00.000000", 2, "CEST"), NULL, True),
    bookmark(0, "cE_1Lw", "https://example.org/caf%C3%A9?q=a&b=\"c\"", "Café \"quotes\" & <angles>", "", [], False,
             datetime("2018-03-10 00:00:00.000000", 3, "UTC"), NULL, False),
]

ids = [(i(n), i(k)) for k, n in enumerate([3, 2, 1, 0])]
urls = [(s(u), i(k)) for k, u in enumerate(["https://www.rust-lang.org/", "https://lwn.net/", "/shaare/Q0aZrg",
                                             "https://example.org/caf%C3%A9?q=a&b=\"c\""])]
MODERN_DB = obj("Shaarli\\Bookmark\\BookmarkArray", [
    (protected("bookmarks"), array([(i(k), v) for k, v in enumerate(MODERN)])),
    (protected("ids"), array(ids)),
    (protected("position"), i(0)),
    (protected("keys"), array([])),
    (protected("urls"), array(urls)),
])


def link(linkdate, title, url, desc, private, tags, updated=None):
    pairs = [
        (s("title"), s(title)),
        (s("url"), s(url)),
        (s("description"), s(desc)),
        (s("private"), i(private)),
        (s("linkdate"), s(linkdate)),
        (s("tags"), s(tags)),
    ]
    if updated:
        pairs.append((s("updated"), s(updated)))
    return s(linkdate), array(pairs)


LEGACY_DB = array([
    link("20140212_184455", "Shaarli - sebsauvage.net", "http://sebsauvage.net/wiki/doku.php?id=php:shaarli",
         "Welcome to Shaarli ! This is a bookmark.", 0, "opensource software", "20150101_120000"),
    link("20130915_101010", "My secret stuff", "http://example.org/paste/?8434b27936c09649",
         "Shhhh! I'm a private link only YOU can see.", 1, "secretstuff  private"),
    link("20120101_000000", "Old note", "?AbCdEf", "A note in the old layout", 0, ""),
])


def write(path, value):
    raw = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = raw.compress(value) + raw.flush()
    with open(path, "wb") as f:
        f.write(b"<?php /* " + base64.b64encode(data) + b" */ ?>")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "corpus/shaarli"
    os.makedirs(out, exist_ok=True)
    write(os.path.join(out, "datastore.php"), MODERN_DB)
    write(os.path.join(out, "legacy-datastore.php"), LEGACY_DB)


if __name__ == "__main__":
    main()
