#!/usr/bin/env bash
# Checks the C library from C and C++:
#   1. builds the ffi crate (libpulsar_routing.so and .a, debug profile);
#   2. checks that include/pulsar_routing.h is up to date;
#   3. runs ffi-c/tests/golden.c over every Java golden vector (Key_Shared
#      included), and the multi-threaded test (a shared round-robin router,
#      a shared Key_Shared selector), with AddressSanitizer and UBSan;
#   4. runs the golden test again under valgrind, linked statically, since
#      the sanitizers do not see into the Rust code (skipped without
#      valgrind); it replays one Key_Shared scenario in 25, to stay fast;
#   5. compiles and runs every ```c block of README.md and ffi-c/README.md, against the
#      shared and the static library;
#   6. compiles the header as C++17;
#   7. runs ffi-c/tests/librdkafka.c, which compares librdkafka's exported
#      rd_kafka_msg_partitioner_* functions with ours (needs librdkafka-dev,
#      which scripts/install-system-deps.sh installs; skipped with a message
#      if its header is missing).
#
# Runnable from any directory. The Rust tests of the crate run with
# `cargo test --workspace`, not here. Needs cargo, cbindgen (see
# scripts/setup.sh), python3, gcc and g++; CC and CXX override the compilers.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

CC="${CC:-gcc}"
CXX="${CXX:-g++}"
# What `rustc --print native-static-libs` lists for the static library on
# Linux with glibc; ffi-c/README.md documents the same list.
NATIVE_STATIC_LIBS=(-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc)
CFLAGS=(-std=c11 -Wall -Wextra -Wpedantic -Werror -g -I include)
SANITIZE=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

log() { printf '==> %s\n' "$*"; }

log "building pulsar-routing-ffi"
cargo build --locked --quiet -p pulsar-routing-ffi
# Cargo decides where the library lands (CARGO_TARGET_DIR, config); ask it.
target_dir="$(cargo metadata --locked --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
lib_dir="$target_dir/debug"
work="$target_dir/ffi-c-tests"
rm -rf "$work"
mkdir -p "$work"
for lib in libpulsar_routing.so libpulsar_routing.a; do
    if [ ! -f "$lib_dir/$lib" ]; then
        echo "error: $lib_dir/$lib was not built" >&2
        exit 1
    fi
done
link_shared=(-L "$lib_dir" -l:libpulsar_routing.so -Wl,-rpath,"$lib_dir")
link_static=("$lib_dir/libpulsar_routing.a" "${NATIVE_STATIC_LIBS[@]}")

log "checking include/pulsar_routing.h"
scripts/gen-header.sh --check

log "golden vectors through the C API (ASan + UBSan)"
python3 ffi-c/tests/golden_to_tsv.py "$work/golden.tsv" "$work/golden-sample.tsv"
"$CC" "${CFLAGS[@]}" "${SANITIZE[@]}" ffi-c/tests/golden.c -o "$work/golden" "${link_shared[@]}"
"$work/golden" "$work/golden.tsv"

log "a round-robin router and a Key_Shared selector shared by threads (ASan + UBSan)"
"$CC" "${CFLAGS[@]}" "${SANITIZE[@]}" -pthread ffi-c/tests/threads.c -o "$work/threads" \
    "${link_shared[@]}"
"$work/threads"

if command -v valgrind >/dev/null 2>&1; then
    log "golden vectors under valgrind (static library, no sanitizers; 1/25 of Key_Shared)"
    "$CC" "${CFLAGS[@]}" ffi-c/tests/golden.c -o "$work/golden-static" "${link_static[@]}"
    valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
        "$work/golden-static" "$work/golden-sample.tsv"
else
    log "valgrind not found: skipping the valgrind run"
fi

log "README examples"
python3 - "$work" README.md ffi-c/README.md <<'EOF'
import re, sys
work, readmes = sys.argv[1], sys.argv[2:]
for n, readme in enumerate(readmes):
    text = open(readme, encoding="utf-8").read()
    blocks = re.findall(r"^```c\n(.*?)^```$", text, flags=re.S | re.M)
    if not blocks:
        sys.exit(f"{readme} has no ```c block")
    for i, block in enumerate(blocks, 1):
        with open(f"{work}/readme_{n}_{i}.c", "w", encoding="utf-8") as out:
            out.write(block)
EOF
examples=("$work"/readme_*.c)
for example in "${examples[@]}"; do
    name="$(basename "$example" .c)"
    "$CC" "${CFLAGS[@]}" "$example" -o "$work/$name-shared" "${link_shared[@]}"
    "$CC" "${CFLAGS[@]}" "$example" -o "$work/$name-static" "${link_static[@]}"
    for binary in "$work/$name-shared" "$work/$name-static"; do
        printf '%s: ' "$(basename "$binary")"
        "$binary"
    done
done

log "the header as C++17"
"$CXX" -std=c++17 -Wall -Wextra -Wpedantic -Werror -I include -c ffi-c/tests/header.cpp \
    -o "$work/header.o"

log "librdkafka's partitioners against ours (ASan + UBSan)"
rdkafka_tested=false
if printf '#include <librdkafka/rdkafka.h>\n' | "$CC" -E -x c - >/dev/null 2>&1; then
    # librdkafka's own threads keep allocations until exit: no leak check.
    "$CC" "${CFLAGS[@]}" "${SANITIZE[@]}" ffi-c/tests/librdkafka.c -o "$work/librdkafka" \
        "${link_shared[@]}" -lrdkafka
    ASAN_OPTIONS="detect_leaks=0" "$work/librdkafka"
    rdkafka_tested=true
else
    log "SKIPPED: librdkafka-dev is not installed (scripts/install-system-deps.sh installs it)"
fi

log "C checks passed (${#examples[@]} README example(s); librdkafka tested: $rdkafka_tested)"
