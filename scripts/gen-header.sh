#!/usr/bin/env bash
# Regenerates include/pulsar_routing.h from ffi-c/src with cbindgen.
#
#   scripts/gen-header.sh           rewrite the header
#   scripts/gen-header.sh --check   fail if the committed header is stale
#
# Runnable from any directory. Set CBINDGEN to use a cbindgen binary that is
# not on PATH or in the cargo bin directory.
set -euo pipefail

# Other versions format the header differently; keep in step with
# scripts/setup.sh.
CBINDGEN_VERSION=0.29.0

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
header="include/pulsar_routing.h"

usage() {
    echo "usage: $0 [--check]" >&2
    exit 2
}

check=false
case "$#:${1:-}" in
    0:) ;;
    1:--check) check=true ;;
    *) usage ;;
esac

cbindgen="${CBINDGEN:-}"
if [ -z "$cbindgen" ]; then
    if command -v cbindgen >/dev/null 2>&1; then
        cbindgen=cbindgen
    else
        cbindgen="${CARGO_HOME:-$HOME/.cargo}/bin/cbindgen"
    fi
fi
if ! found="$("$cbindgen" --version 2>/dev/null)"; then
    echo "error: cbindgen not found; run scripts/setup.sh (or set CBINDGEN)" >&2
    exit 1
fi
if [ "$found" != "cbindgen $CBINDGEN_VERSION" ]; then
    echo "error: need cbindgen $CBINDGEN_VERSION, found '$found'; run scripts/setup.sh" >&2
    exit 1
fi

cd "$root"
generate() { # output
    "$cbindgen" --config ffi-c/cbindgen.toml --output "$1" ffi-c
}

if ! $check; then
    generate "$header"
    echo "wrote $header"
    exit 0
fi

fresh="$(mktemp)"
trap 'rm -f "$fresh"' EXIT
generate "$fresh"
if ! diff -u --label "$header (committed)" --label "$header (generated)" "$header" "$fresh"; then
    echo "error: $header is stale: run scripts/gen-header.sh and commit the result" >&2
    exit 1
fi
echo "$header is up to date"
