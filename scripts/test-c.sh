#!/usr/bin/env bash
# Checks the C library from C and C++:
#   1. builds the ffi crate (libpulsar_routing.so and .a, debug profile);
#   2. checks that include/pulsar_routing.h is up to date;
#   3. checks the exported symbols against ffi-c/symbols.txt
#      (scripts/check-symbols.sh);
#   4. runs ffi-c/tests/golden.c over every Java golden vector (Key_Shared
#      included), the multi-threaded test (a round-robin router shared by 8
#      threads for a million calls, a shared Key_Shared selector) and
#      ffi-c/tests/null_args.c (every function with NULL and out-of-range
#      arguments), and every other ffi-c/tests/*.c (one per feature, run
#      without arguments), with AddressSanitizer and UBSan; then checks that
#      every exported function is called by a test, with a NULL argument
#      where it takes a pointer (NULL_COVERAGE=warn only lists the missing);
#   5. runs the golden, NULL and per-feature tests again under valgrind
#      memcheck, linked
#      statically, since the sanitizers do not see into the Rust code (after
#      proving that valgrind's exit code does report an error); golden
#      replays one Key_Shared scenario in 25, to stay fast;
#   6. compiles and runs every ```c block of README.md and ffi-c/README.md, against the
#      shared and the static library;
#   7. compiles the header as C++17;
#   8. runs ffi-c/tests/librdkafka.c, which compares librdkafka's exported
#      rd_kafka_msg_partitioner_* functions with ours (needs librdkafka-dev,
#      which scripts/install-system-deps.sh installs; skipped with a message
#      if its header is missing).
#
# Runnable from any directory. The Rust tests of the crate run with
# `cargo test --workspace`, not here. Needs cargo, cbindgen (see
# scripts/setup.sh), python3, gcc, g++ and valgrind; CC and CXX override the
# compilers. The C++ wrapper and the installed package are tested by
# scripts/test-cpp.sh, the Go package by scripts/test-go.sh.
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

log "exported symbols"
PULSAR_ROUTING_SO="$lib_dir/libpulsar_routing.so" scripts/check-symbols.sh

log "golden vectors through the C API (ASan + UBSan)"
python3 ffi-c/tests/golden_to_tsv.py "$work/golden.tsv" "$work/golden-sample.tsv"
"$CC" "${CFLAGS[@]}" "${SANITIZE[@]}" ffi-c/tests/golden.c -o "$work/golden" "${link_shared[@]}"
"$work/golden" "$work/golden.tsv"

log "a round-robin router and a Key_Shared selector shared by threads (ASan + UBSan)"
"$CC" "${CFLAGS[@]}" "${SANITIZE[@]}" -pthread ffi-c/tests/threads.c -o "$work/threads" \
    "${link_shared[@]}"
"$work/threads"

log "every function with NULL and out-of-range arguments (ASan + UBSan)"
"$CC" "${CFLAGS[@]}" "${SANITIZE[@]}" ffi-c/tests/null_args.c -o "$work/null_args" \
    "${link_shared[@]}"
"$work/null_args"

# The other C tests (one per feature, e.g. profiles.c, lookup.c, sender.c):
# each takes no arguments and exits non-zero on a failure.
others=()
for test in ffi-c/tests/*.c; do
    case "$(basename "$test")" in
        golden.c | threads.c | null_args.c | librdkafka.c | conformance.c) ;;
        *) others+=("$test") ;;
    esac
done
for test in "${others[@]}"; do
    name="$(basename "$test" .c)"
    log "ffi-c/tests/$name.c (ASan + UBSan)"
    "$CC" "${CFLAGS[@]}" "${SANITIZE[@]}" -pthread "$test" -o "$work/$name" "${link_shared[@]}"
    "$work/$name"
done

log "every exported function that takes a pointer is called with NULL by a test"
# NULL_COVERAGE=warn reports the uncovered functions without failing.
python3 - "${NULL_COVERAGE:-fail}" include/pulsar_routing.h ffi-c/symbols.txt ffi-c/tests/*.c <<'EOF'
import re, sys
mode = sys.argv.pop(1)
header = open(sys.argv[1], encoding="utf-8").read()
symbols = open(sys.argv[2], encoding="utf-8").read().split()
tests = [open(path, encoding="utf-8").read() for path in sys.argv[3:]]
params = dict(re.findall(r"\b(pulsar_routing_\w+)\(([^;{]*)\);", header))
missing, no_pointer = [], 0
for name in symbols:
    if name not in params:
        missing.append(name + " (not declared in the header)")
    elif "*" not in params[name]:
        # Nothing to pass NULL to: it must still be called somewhere.
        no_pointer += 1
        if not any(re.search(r"\b" + name + r"\s*\(", t) for t in tests):
            missing.append(name)
    else:
        # A call whose argument list holds a NULL, across lines.
        call = re.compile(r"\b" + name + r"\s*\([^;]*?\bNULL\b", re.S)
        if not any(call.search(t) for t in tests):
            missing.append(name)
if missing:
    print("error: no C test calls these exported functions with NULL"
          " (add them to ffi-c/tests/null_args.c or to their own test):", file=sys.stderr)
    for name in missing:
        print("  " + name, file=sys.stderr)
    sys.exit(0 if mode == "warn" else 1)
print(f"all {len(symbols)} exported functions are called by a test,"
      f" with NULL where they take a pointer ({len(symbols) - no_pointer})")
EOF

if ! command -v valgrind >/dev/null 2>&1; then
    echo "error: valgrind not found; run scripts/install-system-deps.sh" >&2
    exit 1
fi
log "valgrind reports errors through its exit code"
printf '#include <stdlib.h>\nint main(void) { int *p = malloc(4); int r = p[1]; free(p); return r & 0; }\n' \
    >"$work/valgrind_canary.c"
"$CC" -g -O0 "$work/valgrind_canary.c" -o "$work/valgrind_canary"
if valgrind -q --error-exitcode=1 "$work/valgrind_canary" 2>/dev/null; then
    echo "error: valgrind did not fail on an invalid read" >&2
    exit 1
fi
VALGRIND=(valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite)
log "golden vectors under valgrind (static library, no sanitizers; 1/25 of Key_Shared)"
"$CC" "${CFLAGS[@]}" ffi-c/tests/golden.c -o "$work/golden-static" "${link_static[@]}"
"${VALGRIND[@]}" "$work/golden-static" "$work/golden-sample.tsv"
log "NULL and out-of-range arguments under valgrind (static library)"
"$CC" "${CFLAGS[@]}" ffi-c/tests/null_args.c -o "$work/null_args-static" "${link_static[@]}"
"${VALGRIND[@]}" "$work/null_args-static"
# The per-feature tests own heap handles (routers, lookups, sender gates):
# valgrind sees the Rust side of their lifetimes, which ASan does not.
for test in "${others[@]}"; do
    name="$(basename "$test" .c)"
    log "ffi-c/tests/$name.c under valgrind (static library)"
    "$CC" "${CFLAGS[@]}" -pthread "$test" -o "$work/$name-static" "${link_static[@]}"
    "${VALGRIND[@]}" "$work/$name-static"
done

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
