#!/usr/bin/env bash
# Installs the system packages the tests need beyond the Rust toolchain:
# librdkafka-dev, whose exported partitioners ffi-c/tests/librdkafka.c
# (run by scripts/test-c.sh) checks ours against.
#
# Idempotent: does nothing when the librdkafka header is already there.
# Debian/Ubuntu only; needs root (CI runs as root) or sudo.
set -euo pipefail

header=/usr/include/librdkafka/rdkafka.h
if [ -f "$header" ]; then
    echo "librdkafka-dev already installed ($header)"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
else
    echo "error: installing librdkafka-dev needs root or sudo" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update
"${sudo[@]}" apt-get install -y librdkafka-dev
echo "installed librdkafka-dev"
