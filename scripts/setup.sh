#!/usr/bin/env bash
# Installs every tool the build and the checks need, on a fresh machine or
# an old one. Idempotent: what is already there at the pinned version is
# kept. Everything goes under the user's cargo home or the repo's .venv.
set -euo pipefail
cd "$(dirname "$0")/.."

CBINDGEN_VERSION=0.29.0
CARGO_FUZZ_VERSION=0.13.2

log() { printf '==> %s\n' "$*"; }

cargo_tool() { # name version [binary]
    local name=$1 version=$2 bin=${3:-$1}
    if "$bin" --version 2>/dev/null | grep -q "$version"; then
        return
    fi
    log "installing $name $version"
    cargo install --locked --quiet "$name" --version "$version"
}

# System libraries the C tests link against (librdkafka, for the Kafka
# partitioner cross-check).
scripts/install-system-deps.sh

cargo_tool cbindgen "$CBINDGEN_VERSION"
# `cargo fuzz --version` prints "cargo-fuzz 0.13.2".
if ! cargo fuzz --version 2>/dev/null | grep -q "$CARGO_FUZZ_VERSION"; then
    log "installing cargo-fuzz $CARGO_FUZZ_VERSION"
    cargo install --locked --quiet cargo-fuzz --version "$CARGO_FUZZ_VERSION"
fi

if [ ! -x .venv/bin/python ]; then
    log "creating .venv"
    python3 -m venv .venv
fi
# pip only checks, and downloads nothing, when the pins are already met.
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r py/requirements-dev.txt

log "building the Python package into .venv"
(cd py && VIRTUAL_ENV="$PWD/../.venv" PATH="$PWD/../.venv/bin:$PATH" \
    maturin develop --release --quiet)
# The real Pulsar 4.2.4 classes the differential test and the golden
# vectors are checked against; the first run fills ~/.m2, later ones build
# offline.
log "building the Java reference harness (reference/java)"
scripts/reference-java.sh --build
log "building the real producers of the wire tests (testkit/java, testkit/go)"
scripts/test-wire.sh --build
log "setup done"
