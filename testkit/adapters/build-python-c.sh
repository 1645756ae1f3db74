#!/usr/bin/env bash
# Builds what testkit/tests/test_adapter_python_c.py needs: the Python
# client (pulsar-client, pinned in py/requirements-dev.txt, a test
# dependency only) in the project's venv, and testkit/.build/c-sender, a C
# program that sends through the libpulsar of that wheel with the router of
# include/pulsar_routing_libpulsar.h, linked against the static
# libpulsar_routing. Idempotent: a second run installs and compiles only
# what changed. Prints the paths the test reads (it finds them by itself
# too).
#
# Needs the venv (scripts/setup.sh; PYTHON=... for another), cargo and a C
# compiler (CC=..., default cc). Downloads, once: the pulsar-client wheel
# from PyPI.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
python="${PYTHON:-$root/.venv/bin/python}"
cc="${CC:-cc}"
log() { printf '==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
[ -x "$python" ] || die "$python not found; run scripts/setup.sh or set PYTHON="

pin="$(grep -E '^pulsar-client==' py/requirements-dev.txt)" || die "py/requirements-dev.txt pins no pulsar-client"
if [ "$("$python" -c 'import importlib.metadata as m; print("pulsar-client==" + m.version("pulsar-client"))' 2>/dev/null)" != "$pin" ]; then
    log "installing $pin into the venv"
    "$python" -m pip install --quiet --disable-pip-version-check "$pin"
fi

# The wheel carries libpulsar (the C++ client, C API exported) but no headers.
libpulsar="$("$python" - <<'PY'
import glob, os, pulsar
libs = os.path.join(os.path.dirname(os.path.dirname(pulsar.__file__)), "pulsar_client.libs")
found = sorted(glob.glob(os.path.join(libs, "libpulsar-*.so*")))
print(found[0] if found else "")
PY
)"
[ -n "$libpulsar" ] || die "no libpulsar in the installed pulsar-client wheel"

log "libpulsar_routing (release, static)"
cargo build --locked --quiet --release -p pulsar-routing-ffi
target_dir="$(cargo metadata --locked --format-version 1 --no-deps |
    "$python" -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
static="$target_dir/release/libpulsar_routing.a"

out="$root/testkit/.build"
mkdir -p "$out"
headers=(testkit/adapters/libpulsar_c_decls.h include/pulsar_routing_libpulsar.h include/pulsar_routing.h)
# c_sender.c -> c-sender (the wire sender), c_router_check.c -> c-router-check,
# c_bench.c -> c-bench (run by bench_python_c.py).
for name in c_sender c_router_check c_bench; do
    binary="$out/${name//_/-}"
    stale=false
    [ -x "$binary" ] || stale=true
    for f in "testkit/adapters/$name.c" "${headers[@]}" "$static"; do
        [ "$f" -nt "$binary" ] && stale=true
    done
    if $stale; then
        log "compiling $binary"
        "$cc" -std=c11 -O2 -Wall -Wextra -Wpedantic -Werror -I include -I testkit/adapters \
            "testkit/adapters/$name.c" -o "$binary" \
            "$static" "$libpulsar" -Wl,-rpath,"$(dirname "$libpulsar")" \
            -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
    fi
done
echo "TESTKIT_C_SENDER=$out/c-sender"
echo "TESTKIT_C_ROUTER_CHECK=$out/c-router-check"
echo "TESTKIT_LIBPULSAR=$libpulsar"
echo "TESTKIT_PULSAR_ROUTING_STATIC=$static"
