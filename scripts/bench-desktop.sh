#!/usr/bin/env bash
# A 100,000-item recently-used.xbel (generated, converted to desktop bookmarks by
# markport), read and written back by markport and by GLib's GBookmarkFile
# (the project's driver tests/peers/glib_bookmarks.py --reserialize:
# g_bookmark_file_load_from_data + to_data) on the same file; best of N runs, and the ratio.
# Needs python3 and libglib2.0-0. Usage: scripts/bench-desktop.sh [N] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
runs=${2:-3}
glib=tests/peers/glib_bookmarks.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p markport-cli
cargo build -q --release -p markport-netscape --example generate-netscape
target/release/examples/generate-netscape "$n" > "$work/gen.html"
target/release/markport convert "$work/gen.html" --to desktop -o "$work/big.xbel" 2>/dev/null
size=$(stat -c %s "$work/big.xbel")
# shellcheck source=timing.sh
source scripts/timing.sh
mb=$(awk -v s="$size" 'BEGIN{print s / 1048576}')
read -r mp mp_m <<<"$(best target/release/markport convert "$work/big.xbel" --from desktop --to desktop -o "$work/out.xbel")"
read -r gl gl_m <<<"$(best python3 "$glib" --reserialize "$work/big.xbel")"
printf 'file: %d items, %.1f MB\n' "$n" "$mb"
printf '%-46s %8.3f s %8.1f MB/s %6d MB peak\n' "markport read + write (desktop -> desktop)" "$mp" "$(awk -v m="$mb" -v t="$mp" 'BEGIN{print m/t}')" "$mp_m"
printf '%-46s %8.3f s %8.1f MB/s %6d MB peak\n' "GLib GBookmarkFile load + to_data" "$gl" "$(awk -v m="$mb" -v t="$gl" 'BEGIN{print m/t}')" "$gl_m"
printf 'GLib / markport: %.2f (target 5x)\n' "$(awk -v a="$gl" -v b="$mp" 'BEGIN{print a / b}')"
printf 'markport peak memory / file size: %.2fx (target 3x)\n' "$(awk -v m="$mp_m" -v f="$mb" 'BEGIN{print m / f}')"
