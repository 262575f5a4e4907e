#!/usr/bin/env bash
# A markport .deb's smoke test: its `markport --version`, and `markport
# serve` converting a request on 127.0.0.1. With --installed, the binary
# on PATH (after `dpkg -i`); with --dpkg-root, the package installed by
# `dpkg -i` into a throw-away root with its own package database (the
# machine's is not touched; its dependencies, the machine's libc, are
# taken as met); otherwise the package is unpacked into a temporary
# directory and its binary run from there, nothing installed.
# Usage: scripts/deb-smoke.sh PACKAGE.deb [--installed | --dpkg-root]
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$1
work=$(mktemp -d)
server=
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
if [ "${2:-}" = --installed ]; then
    bin=$(command -v markport)
elif [ "${2:-}" = --dpkg-root ]; then
    root=$work/root
    mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
    : > "$root/var/lib/dpkg/status"
    dpkg --root="$root" --force-not-root --force-depends --force-script-chrootless \
        --no-triggers -i "$deb" >/dev/null
    dpkg --root="$root" -s markport | grep -q '^Status: install ok installed'
    bin=$root/usr/bin/markport
else
    dpkg-deb -x "$deb" "$work/root"
    bin=$work/root/usr/bin/markport
fi
dpkg-deb -c "$deb" > "$work/contents"
for want in usr/bin/markport usr/share/man/man1/markport-serve.1 usr/share/bash-completion/completions/markport; do
    grep -q "$want" "$work/contents" || { echo "no $want in $deb" >&2; exit 1; }
done
"$bin" --version
"$bin" serve > "$work/url" 2>/dev/null &
server=$!
for _ in $(seq 100); do [ -s "$work/url" ] && break; sleep 0.05; done
# The address printed is the page under its token: http://127.0.0.1:PORT/TOKEN/
url=$(head -1 "$work/url")
port=${url#http://127.0.0.1:}
port=${port%%/*}
token=${url%/}
token=${token##*/}
curl -sS --fail -F file=@corpus/netscape/firefox.html -F to=xbel \
    "${url}api/convert" -o "$work/out.xbel"
grep -q '<xbel' "$work/out.xbel"
# A program may send the token as a header instead.
curl -sS --fail -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/version" > /dev/null
echo "markport serve from $deb converted a request on 127.0.0.1:$port"
