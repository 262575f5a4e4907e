#!/usr/bin/env bash
# `markport check` against `markport info` and against itself at N and 2N.
#
# 1. A 100,000-bookmark file in each format with rules (generated as Netscape
#    HTML in 1,000 folders, converted with markport itself): the best time and
#    peak memory of `info` and of `check` on it. The target: check in about
#    the time of info.
# 2. Hostile shapes at N and 2N (deep nesting, one long line, a tag of N
#    attributes, N problems, N ids and aliases, one huge title): `check`'s
#    time and the ratio. A linear check shows about 2.0; 4.0 is quadratic.
# A benchmark, not a test: nothing fails on a bad number, read the tables.
# Usage: scripts/bench-check.sh [N] [RUNS]   (N for part 2; default 50000)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-50000}
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p markport-cli
bin=target/release/markport
source scripts/timing.sh

# check exits 1 when it finds problems; the timing wants 0.
best_check() { best sh -c '"$@" >/dev/null; [ $? -le 1 ]' sh "$bin" check "$@"; }

python3 - "$work/big.html" <<'EOF'
import sys
o = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">\n<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n']
for f in range(1000):
    o.append('    <DT><H3 ADD_DATE="1700000000" LAST_MODIFIED="1700000001">Folder %d</H3>\n    <DL><p>\n' % f)
    for b in range(100):
        i = f * 100 + b
        o.append('        <DT><A HREF="https://example.org/%d/page?q=%d" ADD_DATE="%d" LAST_MODIFIED="%d" TAGS="t%d,u%d">Bookmark number %d, a title</A>\n'
                 % (f, i, 1600000000 + i, 1600000001 + i, i % 50, i % 7, i))
        o.append('        <DD>A description of bookmark %d\n' % i)
    o.append('    </DL><p>\n')
o.append('</DL><p>\n')
open(sys.argv[1], 'w').write(''.join(o))
EOF

printf '%-9s %9s %9s %9s %9s %7s\n' format "MB" "info s" "check s" "info MB" "check MB"
for fmt in netscape xbel desktop chromium firefox; do
    f="$work/big.html"
    if [ "$fmt" != netscape ]; then
        f="$work/big.$fmt"
        "$bin" convert -q --from netscape --to "$fmt" -o "$f" "$work/big.html" >/dev/null 2>&1 || true
    fi
    size=$(awk -v s="$(stat -c %s "$f")" 'BEGIN{printf "%.1f", s / 1e6}')
    read -r ti mi < <(best "$bin" info --from "$fmt" "$f")
    read -r tc mc < <(best_check --from "$fmt" "$f")
    printf '%-9s %9s %9s %9s %9s %7s\n' "$fmt" "$size" "$ti" "$tc" "$mi" "$mc"
done

# gen FORMAT SHAPE SIZE FILE: one hostile input.
gen() {
    python3 - "$1" "$2" "$3" "$4" <<'EOF'
import sys
fmt, shape, n, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
o = []
w = o.append
if fmt in ("xbel", "desktop"):
    w('<?xml version="1.0" encoding="UTF-8"?>\n<xbel version="1.0" xmlns:bookmark="http://www.freedesktop.org/standards/desktop-bookmarks" xmlns:mime="http://www.freedesktop.org/standards/shared-mime-info">\n')
    d = ' added="2024-01-01T00:00:00Z" modified="2024-01-01T00:00:00Z" visited="2024-01-01T00:00:00Z"'
    if shape == "deep":
        w('<folder><title>f</title>' * n + '<bookmark href="file:///x"/>' + '</folder>' * n)
    elif shape == "long-line":
        w("".join('<bookmark href="file:///f%d"%s><title>t%d</title></bookmark>' % (i, d, i) for i in range(n)))
    elif shape == "many-attributes":
        w('<bookmark href="file:///x"%s%s/>' % (d, "".join(' x%d="v"' % i for i in range(n))))
    elif shape == "many-problems":
        w("".join('<bookmark href="file:///f" id="x" added="bad%d"/>\n' % i for i in range(n)))
    elif shape == "many-ids":
        w("".join('<bookmark href="file:///f%d" id="b%d"/><alias ref="b%d"/><alias ref="z%d"/>\n' % (i, i, i, i) for i in range(n)))
    elif shape == "huge-title":
        w('<bookmark href="file:///x"%s><title>%s</title></bookmark>' % (d, "t&amp;" * n * 50))
    w('</xbel>\n')
elif fmt == "netscape":
    w('<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n<DL><p>\n')
    if shape == "deep":
        w('<DT><H3>f</H3><DL><p>\n' * n + '<DT><A HREF="x">x</A>\n' + '</DL><p>\n' * n)
    elif shape == "long-line":
        w("".join('<DT><A HREF="h%d" ADD_DATE="1700000000">t%d</A><DD>d' % (i, i) for i in range(n)))
    elif shape == "many-attributes":
        w('<DT><A HREF="x"%s>x</A>\n' % "".join(' X%d="v" X%d="w"' % (i, i) for i in range(n)))
    elif shape == "many-problems":
        w("".join('<DT><A HREF="h%d" ADD_DATE="bad%d" RATING="1">t</A>\n</DL>\n' % (i, i) for i in range(n)))
    elif shape == "huge-title":
        w('<DT><A HREF="x">%s</A>\n' % ("t&amp;" * n * 50))
    w('</DL><p>\n')
elif fmt == "chromium":
    node = '{"id": "%d", "name": "f", "type": "folder", "date_added": "13350000000000000", "children": ['
    if shape == "deep":
        body = "".join(node % i for i in range(3, n + 3)) + "]}" * n
    elif shape == "many-problems":
        body = node % 3 + ",".join('{"id": "x", "guid": "G", "name": "b", "type": "url", "date_added": 5}' for _ in range(n)) + "]}"
    w('{"checksum": "", "roots": {"bookmark_bar": %s, "other": {"id": "2", "name": "o", "type": "folder", "children": []}}, "version": 1}\n'
      % (node % 1 + body + "]}"))
elif fmt == "firefox":
    c = '{"typeCode": 2, "type": "text/x-moz-place-container", "dateAdded": 1, "children": ['
    if shape == "deep":
        w(c * n + "]}" * n)
    elif shape == "many-problems":
        w(c + ",".join('{"guid": "bad", "typeCode": 1, "type": "text/x-moz-place-container", "dateAdded": "x"}' for _ in range(n)) + "]}")
open(path, "w").write("".join(o))
EOF
}

shapes() {
    case $1 in
        xbel) echo deep long-line many-attributes many-problems many-ids huge-title ;;
        desktop) echo long-line many-attributes many-problems huge-title ;;
        netscape) echo deep long-line many-attributes many-problems huge-title ;;
        chromium | firefox) echo deep many-problems ;;
    esac
}

echo
printf '%-9s %-16s %9s %9s %6s %8s\n' format shape "N s" "2N s" ratio "2N MB"
for fmt in xbel desktop netscape chromium firefox; do
    for shape in $(shapes "$fmt"); do
        times=()
        mem=0
        for size in "$n" "$((2 * n))"; do
            f="$work/$fmt-$shape-$size"
            gen "$fmt" "$shape" "$size" "$f"
            read -r t mem < <(best_check --from "$fmt" "$f")
            times+=("$t")
        done
        ratio=$(awk -v a="${times[0]}" -v b="${times[1]}" 'BEGIN{ if (a < 0.01) a = 0.01; printf "%.1f", b / a }')
        printf '%-9s %-16s %9s %9s %6s %8s\n' "$fmt" "$shape" "${times[0]}" "${times[1]}" "$ratio" "$mem"
    done
done
