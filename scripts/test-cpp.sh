#!/usr/bin/env bash
# Checks the installed C library the way C and C++ users consume it:
#   1. scripts/install.sh into a temporary prefix (release build), then
#      the installed tree's layout;
#   2. ffi-c/tests/cpp/wrapper_test.cpp, the test of the C++17 wrapper
#      include/pulsar_routing.hpp (every wrapped type, over the Java golden
#      vectors), compiled with g++ -std=c++17 -Wall -Wextra -Werror and
#      ASan + UBSan, with the flags `pkg-config --cflags --libs` gives;
#   3. a C program linked statically with `pkg-config --static --libs`;
#   4. examples/cmake, configured with find_package(PulsarRouting) against
#      the prefix, against the shared and the static library;
#   5. every ```cpp block of README.md, against the prefix.
#
# Runnable from any directory. Needs cargo, python3, g++, pkg-config and
# cmake (scripts/install-system-deps.sh installs the last two). CXX and CC
# override the compilers.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

CC="${CC:-gcc}"
CXX="${CXX:-g++}"
CXXFLAGS=(-std=c++17 -Wall -Wextra -Wpedantic -Werror -g)
SANITIZE=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

log() { printf '==> %s\n' "$*"; }

for tool in pkg-config cmake; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "error: $tool not found; run scripts/install-system-deps.sh" >&2
        exit 1
    fi
done

target_dir="$(cargo metadata --locked --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
work="$target_dir/cpp-tests"
prefix="$work/prefix"
rm -rf "$work"
mkdir -p "$work"

log "scripts/install.sh into a temporary prefix"
scripts/install.sh "$prefix"
for file in include/pulsar_routing.h include/pulsar_routing.hpp lib/libpulsar_routing.so \
    lib/libpulsar_routing.a lib/pkgconfig/pulsar_routing.pc \
    lib/cmake/PulsarRouting/PulsarRoutingConfig.cmake \
    lib/cmake/PulsarRouting/PulsarRoutingConfigVersion.cmake; do
    if [ ! -f "$prefix/$file" ]; then
        echo "error: the install has no $file" >&2
        exit 1
    fi
done
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
cargo_version="$(cargo metadata --locked --format-version 1 --no-deps | python3 -c '
import json, sys
print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "pulsar-routing-ffi"))')"
if [ "$(pkg-config --modversion pulsar_routing)" != "$cargo_version" ]; then
    echo "error: pulsar_routing.pc says $(pkg-config --modversion pulsar_routing)," \
        "Cargo.toml $cargo_version" >&2
    exit 1
fi
read -r -a pc_cflags <<<"$(pkg-config --cflags pulsar_routing)"
read -r -a pc_libs <<<"$(pkg-config --libs pulsar_routing)"
# Libs.private, without the library itself (linked statically below).
read -r -a pc_static <<<"$(pkg-config --static --libs pulsar_routing | sed 's/ -lpulsar_routing / /')"
lib_dir="$(pkg-config --variable=libdir pulsar_routing)"
log "pkg-config: ${pc_cflags[*]} ${pc_libs[*]}"

log "the C++ wrapper (g++ -std=c++17 -Werror, ASan + UBSan)"
python3 ffi-c/tests/cpp/golden_to_tsv.py testdata/golden "$work"
"$CXX" "${CXXFLAGS[@]}" "${SANITIZE[@]}" -pthread "${pc_cflags[@]}" \
    ffi-c/tests/cpp/wrapper_test.cpp -o "$work/wrapper_test" "${pc_libs[@]}" \
    -Wl,-rpath,"$lib_dir"
"$work/wrapper_test" "$work"

log "a C program linked statically through pkg-config --static"
cat >"$work/static.c" <<'C'
#include <stdio.h>
#include <string.h>

#include "pulsar_routing.h"

int main(void) {
    uint32_t partition = 0;
    if (pulsar_routing_partition_for_key((const uint8_t *)"user-42", 7, 12,
                                         PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING,
                                         &partition) != PULSAR_ROUTING_STATUS_OK ||
        strcmp(pulsar_routing_version(), "@VERSION@") != 0) {
        return 1;
    }
    /* The packed macro of the installed header is Cargo's version too. */
    if (PULSAR_ROUTING_VERSION_NUMBER != ((@MAJOR@ << 16) | (@MINOR@ << 8) | @PATCH@)) {
        fprintf(stderr, "PULSAR_ROUTING_VERSION_NUMBER is not Cargo's @VERSION@\n");
        return 1;
    }
    printf("static: partition %u\n", (unsigned)partition);
    return 0;
}
C
IFS=. read -r major minor patch <<<"$cargo_version"
sed -i -e "s/@VERSION@/$cargo_version/g" -e "s/@MAJOR@/$major/" -e "s/@MINOR@/$minor/" \
    -e "s/@PATCH@/$patch/" "$work/static.c"
# -Wl,-Bstatic around the library alone: the system libraries stay shared.
"$CC" -std=c11 -Wall -Wextra -Werror "${pc_cflags[@]}" "$work/static.c" -o "$work/static" \
    -Wl,-Bstatic -lpulsar_routing -Wl,-Bdynamic "${pc_static[@]}"
if ldd "$work/static" | grep -q pulsar_routing; then
    echo "error: the static build links libpulsar_routing.so" >&2
    exit 1
fi
"$work/static"

for kind in shared static; do
    log "examples/cmake: find_package(PulsarRouting), $kind library"
    static=OFF
    [ "$kind" = static ] && static=ON
    cmake -S examples/cmake -B "$work/cmake-$kind" -DCMAKE_PREFIX_PATH="$prefix" \
        -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_C_COMPILER="$CC" -DPULSAR_ROUTING_STATIC="$static" \
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" >"$work/cmake-$kind.log" ||
        { cat "$work/cmake-$kind.log"; exit 1; }
    cmake --build "$work/cmake-$kind" >>"$work/cmake-$kind.log" ||
        { cat "$work/cmake-$kind.log"; exit 1; }
    "$work/cmake-$kind/route" user-42 12
done

log "README C++ examples"
python3 - "$work" README.md <<'PY'
import re, sys
work, readme = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
blocks = re.findall(r"^```cpp\n(.*?)^```$", text, flags=re.S | re.M)
if not blocks:
    sys.exit(f"{readme} has no ```cpp block")
for i, block in enumerate(blocks, 1):
    with open(f"{work}/readme_{i}.cpp", "w", encoding="utf-8") as out:
        out.write(block)
PY
for example in "$work"/readme_*.cpp; do
    name="$(basename "$example" .cpp)"
    "$CXX" "${CXXFLAGS[@]}" "${SANITIZE[@]}" "${pc_cflags[@]}" "$example" -o "$work/$name" \
        "${pc_libs[@]}" -Wl,-rpath,"$lib_dir"
    printf '%s: ' "$name"
    "$work/$name"
done

log "C++ and install checks passed"
