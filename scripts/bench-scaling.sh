#!/usr/bin/env bash
# Scaling check for every reader: for each hostile input shape, generate it
# at size N and 2N, time `markport info` on both (best of RUNS), and print
# the ratio. A linear reader shows about 2.0; 4.0 is quadratic. Peak memory
# (MB) of both runs and the 2N run's peak as a multiple of its file's size
# follow (a tiny file costs the process about 5 MB). A benchmark, not a
# test: nothing fails on a bad ratio, read the table.
# JSON inputs are made by converting the Netscape ones with markport itself.
# Times under ~0.1 s are noise; use N of 40000 or more to judge a ratio.
# Shapes named refused-* are refused by the reader (exit 2): their row times
# the refusal, which must not grow with what the file claims.
# Usage: scripts/bench-scaling.sh [N] [RUNS]   (FORMATS="xfolk json" to pick;
# BIN=path/to/markport to measure another build, e.g. the one before a change)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20000}
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${BIN:-}" ]; then cargo build -q --release -p markport; fi
bin=${BIN:-target/release/markport}
source scripts/timing.sh

# gen FORMAT SHAPE SIZE FILE: one hostile input.
gen() {
    python3 - "$1" "$2" "$3" "$4" <<'EOF'
import sys
fmt, shape, n, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
o = []
w = o.append
if fmt == "xbel" or fmt == "desktop":
    ns = ' xmlns:bookmark="http://www.freedesktop.org/standards/desktop-bookmarks" xmlns:mime="http://www.freedesktop.org/standards/shared-mime-info"'
    w('<?xml version="1.0" encoding="UTF-8"?>\n<xbel version="1.0"%s>\n' % ns)
    meta = ('<info><metadata owner="http://freedesktop.org"><mime:mime-type type="text/plain"/>'
            '<bookmark:applications><bookmark:application name="a" exec="a %u" modified="2024-01-01T00:00:00Z" count="1"/>'
            '</bookmark:applications></metadata></info>')
    added = ' added="2024-01-01T00:00:00Z" modified="2024-01-01T00:00:00Z" visited="2024-01-01T00:00:00Z"'
    if shape == "deep":  # desktop files have no folders; nesting is XBEL's
        w('<folder><title>f</title>' * n + '<bookmark href="file:///x"/>' + '</folder>' * n)
    elif shape == "long-line":
        for i in range(n):
            w('<bookmark href="file:///f%d"%s><title>t%d</title>%s</bookmark>' % (i, added, i, meta if fmt == "desktop" else ""))
    elif shape == "many-attributes":
        w('<bookmark href="file:///x"%s%s/>' % (added, "".join(' x%d="v"' % i for i in range(n))))
    elif shape == "many-warnings":
        for i in range(n):
            w('<bookmark href="file:///f%d" added="bad%d" modified="bad" visited="bad">%s</bookmark>' % (i, i, meta if fmt == "desktop" else ""))
    elif shape == "huge-title":
        w('<bookmark href="file:///x"%s><title>%s</title>%s</bookmark>' % (added, "t&amp;" * n * 50, meta if fmt == "desktop" else ""))
    elif shape == "many-aliases":
        w('<bookmark href="file:///x" id="b1"/>' + '<alias ref="b1"/>' * n)
    w('</xbel>\n')
elif fmt == "netscape":
    w('<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n<DL><p>\n')
    if shape == "deep":
        w('<DT><H3>f</H3><DL><p>\n' * n + '<DT><A HREF="x">x</A>\n' + '</DL><p>\n' * n)
    elif shape == "long-line":
        w("".join('<DT><A HREF="h%d" ADD_DATE="1700000000">t%d</A><DD>d' % (i, i) for i in range(n)))
    elif shape == "many-attributes":
        w('<DT><A HREF="x"%s>x</A>\n' % "".join(' X%d="v"' % i for i in range(n)))
    elif shape == "many-warnings":
        w("".join('<DT><A HREF="h%d" ADD_DATE="bad%d">t</A>' % (i, i) for i in range(n)))
    elif shape == "huge-title":
        w('<DT><A HREF="x">%s</A>\n' % ("t&amp;" * n * 50))
    elif shape == "many-aliases":
        w('<DT><A HREF="x" ALIASID="1">t</A>\n' + '<DT><A HREF="x" ALIASOF="1">t</A>\n' * n)
    w('</DL><p>\n')
elif fmt == "xfolk":
    w('<!DOCTYPE html><html><head><title>x</title></head><body>\n')
    if shape == "deep":
        w("".join('<div class="xfolkentry"><a class="taggedlink" href="http://e/%d">t%d</a>' % (i, i) for i in range(n)) + '</div>' * n)
    elif shape == "deep-descriptions":
        w('<div class="xfolkentry"><a class="taggedlink" href="http://e/">t</a>'
          + "".join('<div class="description">d%d' % i for i in range(n)) + '</div>' * n + '</div>')
    elif shape == "deep-plain":
        w('<div class="xfolkentry"><a class="taggedlink" href="http://e/">t</a></div>' + '<div>' * n + '</div>' * n)
    elif shape == "long-line":
        w("".join('<div class="xfolkentry"><a class="taggedlink" href="http://e/%d">t%d</a><p class="description">d</p></div>' % (i, i) for i in range(n)))
    elif shape == "many-attributes":
        w('<div class="xfolkentry"><a class="taggedlink" href="http://e/"%s>t</a></div>' % "".join(' x%d="v"' % i for i in range(n)))
    elif shape == "many-warnings":
        w("".join('<div class="xfolkentry"><a class="taggedlink" href="http://e/%d">t</a><time datetime="bad%d">x</time></div>' % (i, i) for i in range(n)))
    elif shape == "huge-title":
        w('<div class="xfolkentry"><a class="taggedlink" href="http://e/">%s</a></div>' % ("t&amp; " * n * 50))
    w('</body></html>\n')
elif fmt == "instapaper":
    w('URL,Title,Selection,Folder,Timestamp,Tags\n' if shape == "tags" else 'URL,Title,Selection,Folder,Timestamp\n')
    if shape == "many-folders":
        w("".join('https://e/%d,t%d,,folder %d,1700000000\n' % (i, i, i) for i in range(n)))
    elif shape == "deep-folder-path":
        w('https://e/,t,,%s,1700000000\n' % "/".join(["f"] * n))
    elif shape == "tags":
        w("".join('https://e/%d,t%d,,Work/Reading,1700000000,"[""a"",""b %d""]"\n' % (i, i, i) for i in range(n)))
elif fmt == "pocket" and shape.startswith(("zip-", "refused-bomb")):
    import zipfile
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        if shape == "zip-parts":  # the export as mailed: parts of 10,000 rows
            for p in range((n + 9999) // 10000):
                rows = range(p * 10000, min(n, (p + 1) * 10000))
                z.writestr("part_%06d.csv" % p, "title,url,time_added,cursor,tags,status\n"
                           + "".join('t%d,https://e/%d,1700000000,c%d,a|b,unread\n' % (i, i, i) for i in rows))
        elif shape == "zip-many-parts":  # N/10 parts of 10 rows (under the 10,000 entries allowed up to N = 100,000)
            for p in range(n // 10):
                z.writestr("part_%06d.csv" % p, "title,url,time_added,cursor,tags,status\n"
                           + "".join('t%d,https://e/%d,1700000000,c,a,unread\n' % (i, i) for i in range(p * 10, p * 10 + 10)))
        else:  # a bomb: refused once it inflates past its first MiB, whatever its size
            z.writestr("part_000000.csv", "title,url,time_added\n" + "a" * (n * 1000))
    sys.exit(0)
elif fmt == "pocket":
    if shape == "many-statuses":
        w('title,url,time_added,tags,status\n')
        w("".join('t%d,https://e/%d,1700000000,a|b,status%d\n' % (i, i, i) for i in range(n)))
    elif shape == "future-columns":  # 900 columns Pocket never wrote, kept on every row
        w('title,url,time_added,' + ",".join("x%d" % c for c in range(900)) + '\n')
        w("".join('t%d,https://e/%d,1700000000,' % (i, i) + ",".join(["v"] * 900) + '\n' for i in range(n // 100)))
    elif shape == "refused-wide":  # 5 N columns: refused at the 1,001st
        w('title,url,time_added,' + ",".join("x%d" % c for c in range(5 * n)) + '\n')
elif fmt == "raindrop":
    w('id,title,note,excerpt,url,folder,tags,created,cover,highlights,favorite\n')
    if shape == "many-folders":
        w("".join('%d,t%d,n,e,https://e/%d,top %d/sub %d,"a, b",2024-03-01T10:20:30Z,,,false\n' % (i, i, i, i % 1000, i) for i in range(n)))
    elif shape == "deep-folder-path":
        w('1,t,n,e,https://e/,%s,,2024-03-01T10:20:30Z,,,\n' % "/".join(["f"] * n))
    elif shape == "refused-huge-field":  # one note of 2,000 N bytes, over the 16 MiB a field may hold from N = 8,400
        w('1,t,"%s",e,https://e/,f,,2024-03-01T10:20:30Z,,,\n' % ("n" * (2000 * n)))
elif fmt == "linkwarden":
    link = '{"name": "t%d", "url": "https://e/%d", "description": "d", "createdAt": "2024-01-15T10:21:30.000Z", "tags": [%s]}'
    if shape == "many-links":
        w('{"collections": [{"name": "c", "isPublic": false, "links": [%s]}]}' % ",".join(link % (i, i, '{"name": "a"}') for i in range(n)))
    elif shape == "many-tags":  # one link, n tags
        w('{"collections": [{"name": "c", "links": [%s]}]}' % (link % (0, 0, ",".join('{"name": "t%d"}' % i for i in range(n)))))
    elif shape == "many-collections":
        w('{"collections": [%s]}' % ",".join('{"name": "c%d", "links": [%s]}' % (i, link % (i, i, "")) for i in range(n)))
elif fmt == "karakeep":
    mark = '{"createdAt": %d, "title": "t%d", "tags": ["a"], "lists": ["l%d"], "content": {"type": "link", "url": "https://e/%d"}}'
    if shape == "deep-lists":  # a chain of n nested lists, children first
        lists = ",".join('{"id": "l%d", "name": "L%d", "parentId": "l%d"}' % (i, i, i + 1) for i in range(n))
        w('{"bookmarks": [%s], "lists": [%s, {"id": "l%d", "name": "top"}]}' % (mark % (1, 0, 0, 0), lists, n))
    elif shape == "many-bookmarks":
        w('{"bookmarks": [%s], "lists": [{"id": "l0", "name": "L"}]}' % ",".join(mark % (1700000000 + i, i, 0, i) for i in range(n)))
    elif shape == "many-warnings":  # text notes and bad dates
        w('{"bookmarks": [%s]}' % ",".join('{"createdAt": "bad%d", "content": {"type": "link", "url": "https://e/%d"}}, {"createdAt": 1, "content": {"type": "text", "text": "x"}}' % (i, i) for i in range(n)))
elif fmt == "wallabag":
    entry = '{"is_archived": 0, "is_starred": 1, "tags": ["a"], "id": %d, "title": "t%d", "url": "https://e/%d", "content": "<p>article %d</p>", "created_at": "2023-01-12T10:44:39+01:00"%s}'
    if shape == "long-line":
        w("[%s]" % ",".join(entry % (i, i, i, i, "") for i in range(n)))
    elif shape == "many-keys":  # one entry, n keys each given twice
        w("[%s]" % (entry % (0, 0, 0, 0, "".join(', "k%d": 1, "k%d": 2' % (i, i) for i in range(n)))))
    elif shape == "huge-content":
        w("[%s]" % (entry % (0, 0, 0, 0, ', "content": "%s"' % ("x" * n * 50))))
elif fmt == "omnivore":
    if shape == "long-line":
        w("[%s]" % ",".join('{"id": "%d", "slug": "s%d", "title": "t%d", "url": "https://e/%d", "state": "Succeeded", "labels": ["a", "b"], "savedAt": "2024-01-15T10:21:30.000Z"}' % (i, i, i, i) for i in range(n)))
    elif shape == "many-labels":
        w('[{"slug": "s", "url": "https://e/", "savedAt": "2024-01-15T10:21:30.000Z", "labels": [%s]}]' % ",".join('"l%d"' % i for i in range(n)))
elif fmt == "buku":  # an SQLite database on buku's schema, written here and done
    import sqlite3
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE bookmarks (id integer PRIMARY KEY, URL text NOT NULL UNIQUE, metadata text default '', "
               "tags text default ',', desc text default '', flags integer default 0)")
    if shape == "many-rows":
        db.executemany("INSERT INTO bookmarks VALUES (?, ?, ?, ?, ?, ?)",
                       ((i + 1, "https://e/%d" % i, "t%d" % i, ",a,b%d," % i, "d%d" % i, i % 2) for i in range(n)))
    elif shape == "many-tags":  # one bookmark, n tags
        db.execute("INSERT INTO bookmarks VALUES (1, 'https://e/', 't', ?, '', 0)", ("," + ",".join("t%d" % i for i in range(n)) + ",",))
    elif shape == "huge-title":
        db.execute("INSERT INTO bookmarks VALUES (1, 'https://e/', ?, ',', ?, 0)", ("t" * n * 50, "d" * n * 50))
    elif shape == "many-warnings":  # flag bits buku does not define
        db.executemany("INSERT INTO bookmarks VALUES (?, ?, '', ',', '', 6)", ((i + 1, "https://e/%d" % i) for i in range(n)))
    db.commit()
    db.close()
    sys.exit(0)
elif fmt == "csv":
    if shape == "many-columns":  # one row of n columns, all kept as extra
        w("url," + ",".join("c%d" % i for i in range(n)) + "\n")
        w("https://e/," + ",".join(str(i) for i in range(n)) + "\n")
    elif shape == "huge-field":  # one quoted field of n * 50 bytes
        w('url,note\nhttps://e/,"%s"\n' % ("x,\"\"" * (n * 12)))
    elif shape == "deep-path":  # a folder path n folders deep
        w("url,folder\nhttps://e/,%s\n" % "/".join(["f"] * n))
    elif shape == "many-warnings":  # a date and a flag not understood per row
        w("url,title,created,private\n")
        w("".join("https://e/%d,t%d,bad%d,maybe\n" % (i, i, i) for i in range(n)))
    elif shape == "past-header":  # 20 cells past the header on every row
        w("url,title\n")
        w("".join("https://e/%d,t%d,%s\n" % (i, i, ",".join("a" * 20)) for i in range(n)))
    elif shape == "extra-cells":  # 20 named extra columns, a short cell each
        w("url,title," + ",".join("c%d" % j for j in range(20)) + "\n")
        w("".join("https://e/%d,t%d,%s\n" % (i, i, ",".join("a" * 20)) for i in range(n)))
    elif shape == "distinct-paths":  # every row a path of 20 parts of its own
        w("url,folder\n")
        w("".join("https://e/%d,%s\n" % (i, "/".join("p%d" % i for _ in range(20))) for i in range(n)))
elif fmt == "urls":
    if shape == "long-line":  # one line with a title of n * 50 bytes
        w("https://e/ " + "t" * (n * 50))
    elif shape == "many-warnings":  # n lines that are not URLs
        w("".join("  word%d title\n" % i for i in range(n)))
    elif shape == "onetab":
        w("".join("https://e/%d | t%d | x\r\n" % (i, i) for i in range(n)))
elif fmt == "chromium":
    def node(i):
        return ('{"date_added": "13300000000000000", "date_last_used": "0", "guid": "00000000-0000-4000-8000-%012d", '
                '"id": "%d", "meta_info": {"power_bookmark_meta": ""}, "name": "Title of bookmark %d", '
                '"type": "url", "url": "https://example.com/path/%d?q=%d"}' % (i, i + 10, i, i, i * 7))
    def root(name, children):
        return ('"%s": {"children": [%s], "date_added": "13300000000000000", "date_modified": "0", '
                '"id": "%d", "name": "%s", "type": "folder"}' % (name, children, len(name), name))
    bar = ""
    if shape == "real":  # Chromium's own layout: folders of 100 bookmarks
        bar = ", ".join('{"children": [%s], "date_added": "13300000000000000", "date_modified": "0", "id": "%d", "name": "Folder %d", "type": "folder"}'
                        % (", ".join(node(f * 100 + i) for i in range(100)), 10**9 + f, f) for f in range(n // 100))
    elif shape == "deep-folders":
        bar = '{"children": [' * n + node(0) + ']}' * n
    elif shape == "many-keys":  # one bookmark with n keys of its own, each given twice
        bar = node(0)[:-1] + "".join(', "k%d": "v", "k%d": "w"' % (i, i) for i in range(n)) + "}"
    top = '"checksum": "", '
    if shape == "nested-brackets":  # a value of the file's own, 100 levels per N
        top += '"sync_metadata": %s%s, ' % ("[" * (100 * n), "]" * (100 * n))
    elif shape == "nested-objects":
        top += '"sync_metadata": %s1%s, ' % ('{"k":' * (20 * n), "}" * (20 * n))
    text = '{%s"roots": {%s, %s, %s}, "version": 1}' % (top, root("bookmark_bar", bar), root("other", ""), root("synced", ""))
    if shape == "real":  # indented as Chromium writes it (3 spaces a level)
        import json
        text = json.dumps(json.loads(text), indent=3, ensure_ascii=False)
    w(text)
elif fmt == "safari":
    import plistlib, struct
    class Bp:  # a binary plist by hand: 4-byte references, 8-byte offsets
        def __init__(self): self.objs = []
        def add(self, b): self.objs.append(b); return len(self.objs) - 1
        def head(self, marker, count):
            return bytes([marker | count]) if count < 15 else bytes([marker | 15, 0x12]) + struct.pack(">I", count)
        def string(self, t): return self.add(self.head(0x50, len(t)) + t.encode())
        def array(self, items): return self.add(self.head(0xA0, len(items)) + b"".join(struct.pack(">I", r) for r in items))
        def dict_bytes(self, pairs):
            return self.head(0xD0, len(pairs)) + b"".join(struct.pack(">I", k) for k, _ in pairs) + b"".join(struct.pack(">I", v) for _, v in pairs)
        def dict(self, pairs): return self.add(self.dict_bytes(pairs))
        def finish(self, root):
            out, offs = bytearray(b"bplist00"), []
            for o in self.objs:
                offs.append(len(out)); out += o
            table = len(out)
            out += b"".join(struct.pack(">Q", x) for x in offs)
            out += bytes(6) + bytes([8, 4]) + struct.pack(">QQQ", len(self.objs), root, table)
            return bytes(out)
    def leaf(i):
        return {"WebBookmarkType": "WebBookmarkTypeLeaf", "URLString": "https://example.org/%d/page" % i,
                "URIDictionary": {"title": "Page %d" % i}, "WebBookmarkUUID": "%08X-0000-4000-8000-000000000000" % i}
    def store(children):
        return {"Children": children, "WebBookmarkType": "WebBookmarkTypeList", "WebBookmarkFileVersion": 1}
    if shape == "real":  # Safari's own encoding: binary, folders of 100
        bar = [{"WebBookmarkType": "WebBookmarkTypeList", "Title": "F%d" % f,
                "Children": [leaf(f * 100 + i) for i in range(100)]} for f in range(n // 100)]
        data = plistlib.dumps(store([{"WebBookmarkType": "WebBookmarkTypeList", "Title": "BookmarksBar", "Children": bar}]),
                              fmt=plistlib.FMT_BINARY)
    elif shape == "deep":  # n nested lists, XML
        data = ('<plist version="1.0"><dict><key>Children</key><array>'
                + '<dict><key>WebBookmarkType</key><string>WebBookmarkTypeList</string><key>Children</key><array>' * n
                + '<dict><key>WebBookmarkType</key><string>WebBookmarkTypeLeaf</string><key>URLString</key><string>x</string></dict>'
                + '</array></dict>' * n + '</array></dict></plist>').encode()
    elif shape in ("deep-binary", "cycle", "shared"):
        b = Bp()
        ch, ty, url, title = b.string("Children"), b.string("WebBookmarkType"), b.string("URLString"), b.string("Title")
        lst, lf = b.string("WebBookmarkTypeList"), b.string("WebBookmarkTypeLeaf")
        if shape == "deep-binary":  # n nested lists
            node = b.dict([(ty, lf), (url, b.string("https://example.org/"))])
            for _ in range(n):
                node = b.dict([(ch, b.array([node])), (ty, lst)])
            data = b.finish(b.dict([(ch, b.array([node])), (ty, lst)]))
        else:  # n leaves, then a cycle (the bar holds the top) or 2^64 shared values
            leaves = [b.dict([(ty, lf), (url, b.string("https://example.org/%d" % i))]) for i in range(n)]
            if shape == "shared":
                a = b.string("x")
                for _ in range(64):
                    a = b.array([a, a])
                leaves.append(b.dict([(ty, lf), (url, b.string("https://example.org/")), (b.string("Bomb"), a)]))
            top = b.add(b"")  # the top dictionary, filled in below
            bar = b.dict([(ch, b.array(leaves + ([top] if shape == "cycle" else []))), (ty, lst), (title, b.string("BookmarksBar"))])
            b.objs[top] = b.dict_bytes([(ch, b.array([bar])), (ty, lst)])
            data = b.finish(top)
    elif shape == "many-keys":  # one leaf with n keys of its own, XML
        data = ('<plist version="1.0"><dict><key>Children</key><array><dict><key>WebBookmarkType</key><string>WebBookmarkTypeLeaf</string>'
                + "".join('<key>k%d</key><integer>%d</integer>' % (i, i) for i in range(n))
                + '</dict></array></dict></plist>').encode()
    open(path, "wb").write(data)
elif fmt == "favorites":  # a directory of link files, not one file
    import os
    os.makedirs(path)
    def link(d, name, i, extra=""):
        with open(os.path.join(d, name), "w", newline="") as f:
            f.write("[InternetShortcut]\r\nURL=https://e.example/%d\r\nModified=C0A4AC5D2C1FCE0187\r\n%s" % (i, extra))
    if shape == "many-files":  # n links in one directory
        for i in range(n):
            link(path, "t%d.url" % i, i)
    elif shape == "folders":  # folders of 100 links, as people keep them
        for f in range(n // 100):
            d = os.path.join(path, "Folder %d" % f)
            os.mkdir(d)
            for i in range(100):
                link(d, "t%d.url" % i, f * 100 + i)
    elif shape == "many-warnings":  # n files that are not links, each warned about
        for i in range(n):
            open(os.path.join(path, "note%d.txt" % i), "w").write("x")
    elif shape == "deep":  # as deep as PATH_MAX lets a path-based walk go
        d = path
        for i in range(min(n, 1800)):
            d = os.path.join(d, "d")
        os.makedirs(d)
        link(d, "deep.url", 0)
    elif shape == "long-lines":  # one link file of n/20 KiB (1 MiB at most is read)
        link(path, "big.url", 0, "X=%s\r\n" % ("v" * min(n * 50, (1 << 20) - 200)))
    sys.exit(0)
open(path, "w").write("".join(o))
EOF
}

shapes() {
    case $1 in
        xbel) echo deep long-line many-attributes many-warnings huge-title many-aliases ;;
        desktop) echo long-line many-attributes many-warnings huge-title ;;
        netscape) echo deep long-line many-attributes many-warnings huge-title many-aliases ;;
        xfolk) echo deep deep-descriptions deep-plain long-line many-attributes many-warnings huge-title ;;
        json) echo deep long-line many-attributes huge-title many-aliases ;;
        instapaper) echo many-folders deep-folder-path tags ;;
        pocket) echo many-statuses zip-parts zip-many-parts future-columns refused-wide refused-bomb ;;
        raindrop) echo many-folders deep-folder-path refused-huge-field ;;
        chromium) echo real deep-folders many-keys nested-brackets nested-objects ;;
        # cycle and shared are refused (exit 2) after reading N leaves.
        safari) echo real deep deep-binary many-keys cycle shared ;;
        buku) echo many-rows many-tags huge-title many-warnings ;;
        linkwarden) echo many-links many-tags many-collections ;;
        karakeep) echo deep-lists many-bookmarks many-warnings ;;
        wallabag) echo long-line many-keys huge-content ;;
        omnivore) echo long-line many-labels ;;
        csv) echo many-columns huge-field deep-path many-warnings past-header extra-cells distinct-paths ;;
        urls) echo long-line many-warnings onetab ;;
        favorites) echo many-files folders many-warnings deep long-lines ;;
    esac
}

printf '%-10s %-18s %9s %9s %6s %7s %7s %7s\n' reader shape "N s" "2N s" ratio "N MB" "2N MB" "x file"
for fmt in ${FORMATS:-xbel desktop netscape xfolk json instapaper pocket raindrop chromium safari buku linkwarden karakeep wallabag omnivore csv urls favorites}; do
    for shape in $(shapes "$fmt"); do
        times=()
        mems=()
        for size in "$n" "$((2 * n))"; do
            f="$work/$fmt-$shape-$size"
            if [ "$fmt" = json ]; then
                gen netscape "$shape" "$size" "$f.html"
                "$bin" convert --from netscape --to json -o "$f" "$f.html" >/dev/null 2>&1
            else
                gen "$fmt" "$shape" "$size" "$f"
            fi
            case $shape in
                refused-* | cycle | shared)
                    # A shape the reader refuses: the time to say so, exit 2.
                    read -r t m < <(best sh -c '"$0" info --from "$1" "$2"; test $? -eq 2' "$bin" "$fmt" "$f") ;;
                *) read -r t m < <(best "$bin" info --from "$fmt" "$f") ;;
            esac
            times+=("$t")
            mems+=("$m")
        done
        ratio=$(awk -v a="${times[0]}" -v b="${times[1]}" 'BEGIN{ if (a < 0.01) a = 0.01; printf "%.1f", b / a }')
        # A favorites tree is a directory: its size is its files' bytes.
        bytes=$(if [ -d "$f" ]; then du -sb "$f" | cut -f1; else stat -c %s "$f"; fi)
        per=$(awk -v m="${mems[1]}" -v s="$bytes" 'BEGIN{ printf "%.1f", m * 1048576 / s }')
        printf '%-10s %-18s %9s %9s %6s %7s %7s %7s\n' "$fmt" "$shape" "${times[0]}" "${times[1]}" "$ratio" "${mems[0]}" "${mems[1]}" "$per"
    done
done

# The migration operations on their hostile shapes (docs/operations.md):
# one link N times with distinct tags, through `convert --dedupe` and through
# `merge` (the copies split between two files); one bookmark with N/5 tags
# through `--tags-as-folders=all`; `diff` of N bookmarks against the same
# with the roots reordered and the links rewritten. Time and peak memory at
# N and 2N. OPERATIONS="dedupe merge tags-as-folders-all diff" picks (empty: none).
gen_ops() {
    python3 - "$1" "$2" "$3" <<'EOF2'
import sys
shape, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
o = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n<DL><p>\n']
if shape == "same-link":
    o += ['<DT><A HREF="https://example.org/" TAGS="t%d">x</A>\n' % i for i in range(n)]
elif shape in ("roots", "roots-rewritten"):
    # N links in two roots; the second file has the roots the other way
    # round and every host upper-cased, plus one more link (so diff pairs
    # folders by path and bookmarks by the link's WHATWG form).
    names = ["Toolbar", "Menu"] if shape == "roots" else ["Menu", "Toolbar"]
    host = "example.org" if shape == "roots" else "EXAMPLE.org"
    for name in names:
        o.append('<DT><H3>%s</H3>\n<DL><p>\n' % name)
        o += ['<DT><A HREF="https://%s/%s/%d">t%d</A>\n' % (host, name, i, i) for i in range(n // 2)]
        o.append('</DL><p>\n')
    if shape == "roots-rewritten":
        o.append('<DT><A HREF="https://new.example/">new</A>\n')
elif shape == "many-tags":
    o.append('<DT><A HREF="https://example.org/" TAGS="%s">x</A>\n' % ",".join("t%d" % i for i in range(n)))
o.append('</DL><p>\n')
open(path, "w").write("".join(o))
EOF2
}

printf '\n%-20s %9s %9s %6s %9s %9s\n' operation "N s" "2N s" ratio "N MB" "2N MB"
for op in ${OPERATIONS-dedupe merge tags-as-folders-all diff}; do
    times=()
    mems=()
    for size in "$n" "$((2 * n))"; do
        f="$work/ops-$op-$size.html"
        case $op in
            dedupe)
                gen_ops same-link "$size" "$f"
                read -r t m < <(best "$bin" convert --dedupe --to json -o "$work/out.json" "$f") ;;
            merge)
                gen_ops same-link "$((size / 2))" "$f"
                cp "$f" "$f.2.html"
                read -r t m < <(best "$bin" merge "$f" "$f.2.html" -o "$work/out.json") ;;
            tags-as-folders-all)
                gen_ops many-tags "$((size / 5))" "$f"
                read -r t m < <(best "$bin" convert --tags-as-folders=all --to json -o "$work/out.json" "$f") ;;
            diff)
                gen_ops roots "$size" "$f"
                gen_ops roots-rewritten "$size" "$f.2.html"
                # diff exits 1 when the files differ, as they do here.
                read -r t m < <(best sh -c '"$0" diff "$1" "$2"; test $? -eq 1' "$bin" "$f" "$f.2.html") ;;
        esac
        times+=("$t")
        mems+=("$m")
    done
    ratio=$(awk -v a="${times[0]}" -v b="${times[1]}" 'BEGIN{ if (a < 0.01) a = 0.01; printf "%.1f", b / a }')
    printf '%-20s %9s %9s %6s %9s %9s\n' "$op" "${times[0]}" "${times[1]}" "$ratio" "${mems[0]}" "${mems[1]}"
done
