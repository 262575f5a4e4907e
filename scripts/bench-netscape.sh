#!/usr/bin/env bash
# Generate a 100,000-bookmark Netscape HTML file (folders, tags, descriptions,
# entities, non-ASCII titles, favicons up to 20 KB), then time on that same
# file: markport reading it (info), converting it to XBEL and back to
# Netscape, and two parsers from the package registries: bookmarks-parser
# (PyPI) and bookmarks-parser (npm). Best of N runs each; prints MB/s, peak
# memory and the ratios. The peers are installed into target/bench-tools.
# markport's output is synced to disk before it replaces the destination
# (what a crash must not lose); the peers do not sync, so the Chrome-shaped
# conversion is also timed with its output on tmpfs, where syncing is free.
# Usage: scripts/bench-netscape.sh [N_BOOKMARKS] [RUNS]
# SKIP_PARSERS=1 leaves out the two slow parsers (minutes per run).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
runs=${2:-3}
tools=target/bench-tools
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p markport-cli
cargo build -q --release -p markport-netscape --example generate-netscape
target/release/examples/generate-netscape "$n" > "$work/big.html"
target/release/examples/generate-netscape "$n" chrome > "$work/chrome.html"
size=$(stat -c %s "$work/big.html")
chrome_size=$(stat -c %s "$work/chrome.html")

mkdir -p "$tools"
[ -x "$tools/py/bin/python" ] || python3 -m venv "$tools/py"
"$tools/py/bin/python" -c 'import bookmarks_parser' 2>/dev/null || "$tools/py/bin/pip" install -q bookmarks-parser
[ -x "$tools/py/bin/bookmarks-converter" ] || "$tools/py/bin/pip" install -q bookmarks-converter
if [ ! -d "$tools/node/node_modules/bookmarks-parser" ]; then
    (cd "$tools" && mkdir -p node && cd node && npm init -y >/dev/null && npm install --silent bookmarks-parser >/dev/null)
fi
cat > "$work/peer.py" <<'PY'
import sys, bookmarks_parser
tree = bookmarks_parser.parse(sys.argv[1])
todo, n = list(tree), 0
while todo:
    x = todo.pop()
    n += x.get("type") == "bookmark"
    todo.extend(x.get("children", []))
assert n > 0
PY
cat > "$work/peer.js" <<'JS'
const parse = require(process.argv[3] + "/node_modules/bookmarks-parser");
parse(require("fs").readFileSync(process.argv[2], "utf8"), (err, res) => {
  if (err) { console.error(err); process.exit(1); }
  let n = 0; const todo = [...res.bookmarks];
  while (todo.length) { const x = todo.pop(); if (x.type === "bookmark") n++; if (x.children) todo.push(...x.children); }
  if (n === 0) process.exit(1);
});
JS
# shellcheck source=timing.sh
source scripts/timing.sh
mb=$(awk -v s="$size" 'BEGIN{print s / 1048576}')
row() { # label seconds rss
    printf '%-44s %8.3f s %8.1f MB/s %6d MB peak\n' "$1" "$2" "$(awk -v m="$mb" -v t="$2" 'BEGIN{print m / t}')" "$3"
}
read -r info info_m <<<"$(best target/release/markport info "$work/big.html")"
read -r toxbel toxbel_m <<<"$(best target/release/markport convert "$work/big.html" --to xbel -o "$work/out.xbel")"
read -r tons tons_m <<<"$(best target/release/markport convert "$work/big.html" --to netscape -o "$work/out.html")"
if [ -z "${SKIP_PARSERS:-}" ]; then
    read -r py py_m <<<"$(best "$tools/py/bin/python" "$work/peer.py" "$work/big.html")"
    read -r js js_m <<<"$(best node "$work/peer.js" "$work/big.html" "$PWD/$tools/node")"
fi
read -r cx cx_m <<<"$(best target/release/markport convert "$work/chrome.html" --to xbel -o "$work/chrome.xbel")"
shm=""
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    shm=$(mktemp -d /dev/shm/markport-bench.XXXXXX)
    trap 'rm -rf "$work" "$shm"' EXIT
    read -r cxs cxs_m <<<"$(best target/release/markport convert "$work/chrome.html" --to xbel -o "$shm/chrome.xbel")"
fi
read -r bc bc_m <<<"$(best "$tools/py/bin/bookmarks-converter" -i "$work/chrome.html" -I chrome/html -O chrome/json -o "$work/chrome.json")"
printf 'file: %d bookmarks, %.1f MiB (MB below is MiB too)\n' "$n" "$mb"
row "markport info (read only)" "$info" "$info_m"
row "markport convert --to xbel" "$toxbel" "$toxbel_m"
row "markport convert --to netscape" "$tons" "$tons_m"
if [ -z "${SKIP_PARSERS:-}" ]; then
    row "bookmarks-parser (PyPI) parse" "$py" "$py_m"
    row "bookmarks-parser (npm) parse" "$js" "$js_m"
fi
printf 'Chrome-shaped file: %.1f MiB\n' "$(awk -v s="$chrome_size" 'BEGIN{print s / 1048576}')"
cmb=$(awk -v s="$chrome_size" 'BEGIN{print s / 1048576}')
printf '%-44s %8.3f s %8.1f MB/s %6d MB peak\n' "markport convert --to xbel" "$cx" "$(awk -v m="$cmb" -v t="$cx" 'BEGIN{print m / t}')" "$cx_m"
if [ -n "$shm" ]; then
    printf '%-44s %8.3f s %8.1f MB/s %6d MB peak\n' "markport convert --to xbel, output on tmpfs" "$cxs" "$(awk -v m="$cmb" -v t="$cxs" 'BEGIN{print m / t}')" "$cxs_m"
fi
printf '%-44s %8.3f s %8.1f MB/s %6d MB peak\n' "bookmarks-converter chrome/html -> chrome/json" "$bc" "$(awk -v m="$cmb" -v t="$bc" 'BEGIN{print m / t}')" "$bc_m"
printf 'bookmarks-converter / markport convert --to xbel: %.0fx (target 30x)\n' "$(awk -v a="$bc" -v b="$cx" 'BEGIN{print a / b}')"
if [ -n "$shm" ]; then
    printf 'bookmarks-converter / markport convert --to xbel, output on tmpfs: %.0fx\n' "$(awk -v a="$bc" -v b="$cxs" 'BEGIN{print a / b}')"
fi
if [ -z "${SKIP_PARSERS:-}" ]; then
    printf 'bookmarks-parser (PyPI) / markport info: %.0fx\n' "$(awk -v a="$py" -v b="$info" 'BEGIN{print a / b}')"
    printf 'bookmarks-parser (npm)  / markport info: %.0fx\n' "$(awk -v a="$js" -v b="$info" 'BEGIN{print a / b}')"
fi
for pair in "info:$info_m" "convert --to xbel:$toxbel_m" "convert --to netscape:$tons_m"; do
    printf 'markport %s peak memory / file size: %.2fx\n' "${pair%%:*}" "$(awk -v m="${pair##*:}" -v f="$mb" 'BEGIN{print m / f}')"
done
