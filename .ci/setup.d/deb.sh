# The .deb (scripts/build-deb.sh, scripts/deb-smoke.sh): cargo-deb to build
# it, curl for the smoke test's request to the installed `markport serve`.
command -v cargo-deb >/dev/null 2>&1 || cargo install cargo-deb --locked --version '^3'
command -v curl >/dev/null 2>&1 || apt-get install -y -qq curl >/dev/null
