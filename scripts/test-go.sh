#!/usr/bin/env bash
# Tests the Go package in go/ (cgo over the C library) the way a Go user
# builds it: scripts/install.sh into a temporary prefix, then pkg-config
# finds pulsar_routing.pc for the package's `#cgo pkg-config` line.
# Runs gofmt, go vet, go test (the Java golden vectors, pulsar-client-go's
# own routing, and the parity gate: every function of ffi-c/symbols.txt has
# a Go API; with cgocheck=2) and the tests that share a handle between
# goroutines under -race; with BENCH=1 also the benchmarks (this
# package's keyed routing against a pure-Go Murmur3 baseline, and the bare
# cgo call), whose ratio README.md quotes.
#
# Nothing is downloaded: the module has no dependencies and runs with
# GOPROXY=off and GOFLAGS=-mod=mod. GOCACHE and GOPATH default to
# directories under the cargo target directory when HOME is unusable.
# Runnable from any directory. Needs cargo, python3, gcc, pkg-config and
# go >= 1.19 (the machine's, or Debian's golang-go: scripts/install-system-deps.sh).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

log() { printf '==> %s\n' "$*"; }

if ! command -v go >/dev/null 2>&1; then
    echo "error: go not found; run scripts/install-system-deps.sh" >&2
    exit 1
fi

target_dir="$(cargo metadata --locked --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
work="$target_dir/go-tests"
prefix="$work/prefix"
rm -rf "$prefix"
mkdir -p "$work"

log "scripts/install.sh into a temporary prefix"
scripts/install.sh "$prefix"

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
export CGO_ENABLED=1
# The test binary finds the shared library without LD_LIBRARY_PATH.
export CGO_LDFLAGS="-Wl,-rpath,$prefix/lib"
export GOPROXY=off
export GOFLAGS=-mod=mod
export GOTOOLCHAIN=local
export GOTELEMETRY=off
# A cache under HOME when HOME is writable, else under the target dir.
if [ -z "${GOCACHE:-}" ] && ! go env GOCACHE >/dev/null 2>&1; then
    export GOCACHE="$target_dir/go-cache"
fi
if [ -z "${GOPATH:-}" ] && { [ -z "${HOME:-}" ] || [ ! -w "${HOME:-/nonexistent}" ]; }; then
    export GOPATH="$target_dir/go-path"
    export GOCACHE="${GOCACHE:-$target_dir/go-cache}"
fi

cd go
log "gofmt"
unformatted="$(gofmt -l .)"
if [ -n "$unformatted" ]; then
    echo "error: not gofmt-formatted: $unformatted" >&2
    exit 1
fi
log "go vet"
go vet ./...
log "go test (golden vectors, like Java; pulsar-client-go's own routing)"
# cgocheck=2 checks every pointer the package hands to C. Go 1.21 moved it
# from a run-time setting (which 1.26 refuses to start with) to a build
# experiment.
if [ "$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')" -ge 21 ]; then
    cgocheck=(env GOEXPERIMENT=cgocheck2)
else
    cgocheck=(env GODEBUG=cgocheck=2)
fi
if ! "${cgocheck[@]}" go test -count=1 -v ./... >"$work/go-test.log" 2>&1; then
    cat "$work/go-test.log"
    exit 1
fi
grep -E '^(--- |ok)|keyed rows|parity:' "$work/go-test.log"
log "go test -race (handles shared by goroutines)"
go test -count=1 -race -run 'SharedByGoroutines|KeysAndRouters|SenderGateScenario|TestProfiles$|BundleLayoutErrors' ./...

if [ "${BENCH:-0}" = 1 ]; then
    log "go test -bench (cgo against pure Go)"
    go test -run '^$' -bench . -benchtime "${BENCHTIME:-1s}" -count "${BENCHCOUNT:-3}" ./...
fi
log "Go checks passed"
