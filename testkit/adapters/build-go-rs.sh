#!/usr/bin/env bash
# Builds what testkit/tests/test_adapter_go_rs.py needs:
#   testkit/.build/go-adapter-sender  pulsar-client-go v0.19.0 with the
#       javarouter of clients/go (cgo over libpulsar_routing, which
#       scripts/install.sh puts into testkit/.build/prefix);
#   testkit/.build/rs-adapter-sender  pulsar-rs with the JavaRoutingPolicy
#       of clients/pulsar-rs (its own cargo workspace and Cargo.lock).
# Then runs the adapters' own checks: gofmt, go vet and go test (with the
# Example functions) in clients/go; cargo fmt --check, clippy -D warnings
# and cargo test (with the doc test) in clients/pulsar-rs. SKIP_CHECKS=1
# only builds. Idempotent: go and cargo rebuild only what changed.
#
# Needs go >= 1.24 (GO=..., else /usr/local/go/bin/go or PATH's), cargo,
# pkg-config, a C compiler and protoc (the pulsar crate compiles its
# protobuf definitions at build time; Debian: protobuf-compiler, which
# this script installs with apt-get when it runs as root and protoc is
# missing). Downloads, once: pulsar-client-go and its dependencies from
# the Go module proxy, the pulsar crate and its dependencies from
# crates.io; each is printed as it is fetched.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
log() { printf '==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

if [ -z "${GO:-}" ]; then
    if [ -x /usr/local/go/bin/go ]; then GO=/usr/local/go/bin/go; else GO="$(command -v go || true)"; fi
fi
[ -n "$GO" ] && [ -x "$GO" ] || die "go not found (set GO=)"
if ! command -v protoc >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        log "installing protoc (Debian's protobuf-compiler)"
        apt-get install -y -q protobuf-compiler >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q protobuf-compiler >/dev/null; }
    else
        die "protoc not found (Debian: apt-get install protobuf-compiler)"
    fi
fi

out="$root/testkit/.build"
prefix="$out/prefix"
mkdir -p "$out"
log "libpulsar_routing into $prefix (scripts/install.sh)"
scripts/install.sh "$prefix" >/dev/null

log "Go adapter (clients/go)"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
export CGO_ENABLED=1
export CGO_LDFLAGS="-Wl,-rpath,$prefix/lib"
export GOTOOLCHAIN=local GOTELEMETRY=off
cd "$root/clients/go"
# -x prints a "# get" line for each module actually fetched, nothing when cached.
GOFLAGS=-mod=readonly "$GO" mod download -x 2>&1 | grep -E '^# get .*: 200|error' || true
GOFLAGS="-mod=readonly -buildvcs=false" "$GO" build -o "$out/go-adapter-sender" ./internal/wiresender ||
    die "the Go adapter sender does not build"
if [ "${SKIP_CHECKS:-0}" != 1 ]; then
    unformatted="$(gofmt -l .)"
    [ -z "$unformatted" ] || die "not gofmt-formatted: $unformatted"
    GOFLAGS=-mod=readonly "$GO" vet ./...
    GOFLAGS=-mod=readonly "$GO" test -count=1 ./...
fi

log "pulsar-rs adapter (clients/pulsar-rs)"
cd "$root/clients/pulsar-rs"
# The crate's own target directory: its dependencies (tokio, prost, ...)
# never mix with the core workspace's.
cargo fetch --locked 2>&1 | grep -E 'Downloaded|error' || true
cargo build --locked --quiet --release --example wire_sender
cp target/release/examples/wire_sender "$out/rs-adapter-sender"
if [ "${SKIP_CHECKS:-0}" != 1 ]; then
    cargo fmt --check
    cargo clippy --locked --quiet --release --all-targets -- -D warnings
    cargo test --locked --quiet --release
fi
log "built $out/go-adapter-sender and $out/rs-adapter-sender"
