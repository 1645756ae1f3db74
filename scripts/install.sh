#!/usr/bin/env bash
# Builds the C library in release mode and installs it under PREFIX:
#
#   PREFIX/include/pulsar_routing.h      the C API
#   PREFIX/include/pulsar_routing.hpp    the header-only C++17 wrapper
#   PREFIX/lib/libpulsar_routing.so      shared library (no SONAME)
#   PREFIX/lib/libpulsar_routing.a       static library
#   PREFIX/lib/pkgconfig/pulsar_routing.pc
#   PREFIX/lib/cmake/PulsarRouting/PulsarRoutingConfig.cmake
#   PREFIX/lib/cmake/PulsarRouting/PulsarRoutingConfigVersion.cmake
#
#   scripts/install.sh [PREFIX]     PREFIX defaults to dist/ in the repository
#
# Then `PKG_CONFIG_PATH=PREFIX/lib/pkgconfig pkg-config --libs pulsar_routing`
# and CMake's `find_package(PulsarRouting CONFIG REQUIRED)` (with
# CMAKE_PREFIX_PATH=PREFIX) both work. The pkg-config and CMake files locate
# the tree relative to themselves, so PREFIX can be moved afterwards.
# The version is the crate's (the workspace Cargo.toml). Runnable from any
# directory; PROFILE=debug installs the debug build instead.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# A relative PREFIX is relative to the caller's directory.
prefix="${1:-$root/dist}"
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"
cd "$root"
profile="${PROFILE:-release}"

# Keep in step with NATIVE_STATIC_LIBS in scripts/test-c.sh: what
# `rustc --print native-static-libs` lists on Linux with glibc.
native_static_libs=(-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc)

case "$profile" in
    release) cargo build --locked --quiet --release -p pulsar-routing-ffi ;;
    debug) cargo build --locked --quiet -p pulsar-routing-ffi ;;
    *) echo "error: PROFILE is release or debug, not '$profile'" >&2; exit 2 ;;
esac
metadata="$(cargo metadata --locked --format-version 1 --no-deps)"
read -r target_dir version < <(python3 -c '
import json, sys
m = json.load(sys.stdin)
v = next(p["version"] for p in m["packages"] if p["name"] == "pulsar-routing-ffi")
print(m["target_directory"], v)' <<<"$metadata")
lib_dir="$target_dir/$profile"
IFS=. read -r major minor _ <<<"$version"

mkdir -p "$prefix/include" "$prefix/lib/pkgconfig" "$prefix/lib/cmake/PulsarRouting"
install -m 644 include/pulsar_routing.h include/pulsar_routing.hpp "$prefix/include/"
install -m 755 "$lib_dir/libpulsar_routing.so" "$prefix/lib/"
install -m 644 "$lib_dir/libpulsar_routing.a" "$prefix/lib/"

# Without the -l: "gcc_s;util;..." is how CMake lists plain library names.
cmake_libs="$(printf '%s;' "${native_static_libs[@]#-l}")"
fill() { # template output
    sed -e "s|@VERSION@|$version|g" \
        -e "s|@VERSION_MAJOR@|$major|g" \
        -e "s|@VERSION_MINOR@|$minor|g" \
        -e "s|@NATIVE_STATIC_LIBS@|${native_static_libs[*]}|g" \
        -e "s|@NATIVE_STATIC_LIBS_CMAKE@|${cmake_libs%;}|g" \
        "$1" >"$2"
    if grep -n '@[A-Z_]*@' "$2"; then
        echo "error: $1 has a placeholder install.sh does not fill" >&2
        exit 1
    fi
}
fill ffi-c/pkg/pulsar_routing.pc.in "$prefix/lib/pkgconfig/pulsar_routing.pc"
fill ffi-c/pkg/PulsarRoutingConfig.cmake.in \
    "$prefix/lib/cmake/PulsarRouting/PulsarRoutingConfig.cmake"
fill ffi-c/pkg/PulsarRoutingConfigVersion.cmake.in \
    "$prefix/lib/cmake/PulsarRouting/PulsarRoutingConfigVersion.cmake"

echo "installed pulsar_routing $version ($profile) into $prefix"
