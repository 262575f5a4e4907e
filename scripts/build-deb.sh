#!/usr/bin/env bash
# The .deb of the markport command (cargo-deb): the binary, its manual
# pages and its shell completions. Prints the package's path.
# Then, on a clean machine: `dpkg -i` it, `markport --version`, and
# `markport serve` answering a request (scripts/deb-smoke.sh).
# Usage: scripts/build-deb.sh [--dev]
#   --dev  package the dev-profile binary (what `cargo test` built: CI's
#          packaging check, without a release build of its own)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-deb >/dev/null || { echo "cargo-deb is missing: cargo install cargo-deb --locked" >&2; exit 2; }
if [ "${1:-}" = --dev ]; then
    profile=dev
    cargo build -q -p markport-cli
else
    profile=release
    cargo build -q --release -p markport-cli
fi
# cargo-deb reads the assets' target/release/ as the profile's own directory.
out=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
dir=$out/$([ "$profile" = dev ] && echo debug || echo release)
assets=$dir/deb
rm -rf "$assets"
mkdir -p "$assets/man" "$assets/completions"
"$dir/markport" man --dir "$assets/man"
"$dir/markport" completions bash > "$assets/completions/markport"
"$dir/markport" completions zsh > "$assets/completions/_markport"
"$dir/markport" completions fish > "$assets/completions/markport.fish"
cargo deb -q -p markport-cli --no-build --strip --profile "$profile"
