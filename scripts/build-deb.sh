#!/usr/bin/env bash
# The .deb of the markport command (cargo-deb): the release binary, its
# manual pages and its shell completions. Prints the package's path.
# Then, on a clean machine: `dpkg -i` it, `markport --version`, and
# `markport serve` answering a request (scripts/deb-smoke.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-deb >/dev/null || { echo "cargo-deb is missing: cargo install cargo-deb --locked" >&2; exit 2; }
cargo build -q --release -p markport-cli
assets=target/release/deb
rm -rf "$assets"
mkdir -p "$assets/man" "$assets/completions"
target/release/markport man --dir "$assets/man"
target/release/markport completions bash > "$assets/completions/markport"
target/release/markport completions zsh > "$assets/completions/_markport"
target/release/markport completions fish > "$assets/completions/markport.fish"
cargo deb -q -p markport-cli --no-build --strip
