#!/usr/bin/env bash
# Scaling check for every reader: for each hostile input shape, generate it
# at size N and 2N, time `markport info` on both (best of RUNS), and print
# the ratio. A linear reader shows about 2.0; 4.0 is quadratic. Peak memory
# (MB) of both runs and the 2N run's peak as a multiple of its file's size
# follow (a tiny file costs the process about 5 MB). A benchmark, not a
# test: nothing fails on a bad ratio, read the table.
# JSON inputs are made by converting the Netscape ones with markport itself.
# Times under ~0.1 s are noise; use N of 40000 or more to judge a ratio.
# Usage: scripts/bench-scaling.sh [N] [RUNS]   (FORMATS="xfolk json" to pick;
# BIN=path/to/markport to measure another build, e.g. the one before a change)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20000}
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${BIN:-}" ]; then cargo build -q --release -p markport-cli; fi
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
    w('URL,Title,Selection,Folder,Timestamp\n')
    if shape == "many-folders":
        w("".join('https://e/%d,t%d,,folder %d,1700000000\n' % (i, i, i) for i in range(n)))
elif fmt == "pocket":
    w('title,url,time_added,tags,status\n')
    if shape == "many-statuses":
        w("".join('t%d,https://e/%d,1700000000,a|b,status%d\n' % (i, i, i) for i in range(n)))
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
        instapaper) echo many-folders ;;
        pocket) echo many-statuses ;;
        chromium) echo real deep-folders many-keys nested-brackets nested-objects ;;
        favorites) echo many-files folders many-warnings deep long-lines ;;
    esac
}

printf '%-10s %-18s %9s %9s %6s %7s %7s %7s\n' reader shape "N s" "2N s" ratio "N MB" "2N MB" "x file"
for fmt in ${FORMATS:-xbel desktop netscape xfolk json instapaper pocket chromium favorites}; do
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
            read -r t m < <(best "$bin" info --from "$fmt" "$f")
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
