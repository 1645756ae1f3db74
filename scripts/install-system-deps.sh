#!/usr/bin/env bash
# Installs the Debian packages the tests need beyond the Rust toolchain,
# Python and gcc/g++:
#   librdkafka-dev  whose exported partitioners ffi-c/tests/librdkafka.c
#                   (scripts/test-c.sh) checks ours against;
#   valgrind        memcheck of the C tests (scripts/test-c.sh);
#   pkg-config, cmake
#                   the installed package's pkg-config file and CMake config
#                   (scripts/test-cpp.sh, scripts/test-go.sh);
#   golang-go       the Go package in go/ (scripts/test-go.sh), only where
#                   no `go` is on PATH: Debian 12 ships Go 1.19, too old for
#                   the pinned pulsar-client-go of the wire tests
#                   (scripts/test-wire.sh), so a newer Go already on the
#                   machine is kept and preferred;
#   libcjson-dev    the JSON reader of the C conformance runner
#                   (ffi-c/tests/conformance.c, scripts/conformance.sh);
#   protobuf-compiler
#                   protoc, which the pulsar crate (pulsar-rs) runs at build
#                   time for the pulsar-rs adapter's wire test
#                   (testkit/adapters/build-go-rs.sh);
#   chromium        a real headless browser that opens the planner's HTML
#                   report (py/tests/test_plan_html.py).
#
# Idempotent and quick: checks each package's file first and only runs
# apt-get for the missing ones. Debian/Ubuntu only; needs root (CI runs as
# root) or sudo when something is missing.
set -euo pipefail

# package, and a file that proves it is installed
packages=(
    "librdkafka-dev /usr/include/librdkafka/rdkafka.h"
    "valgrind /usr/bin/valgrind"
    "pkg-config /usr/bin/pkg-config"
    "cmake /usr/bin/cmake"
    "libcjson-dev /usr/include/cjson/cJSON.h"
    "chromium /usr/bin/chromium"
    "protobuf-compiler /usr/bin/protoc"
)

missing=()
for entry in "${packages[@]}"; do
    read -r package file <<<"$entry"
    if [ ! -e "$file" ]; then
        missing+=("$package")
    fi
done
if ! command -v go >/dev/null 2>&1; then
    missing+=(golang-go)
fi

if [ "${#missing[@]}" -eq 0 ]; then
    echo "system packages already installed (librdkafka-dev, valgrind, pkg-config, cmake, go, libcjson-dev, chromium, protobuf-compiler)"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
else
    echo "error: installing ${missing[*]} needs root or sudo" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update
"${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
echo "installed ${missing[*]}"
