#!/usr/bin/env bash
# How thick the bindings are next to the logic they wrap: counted lines of
# ffi-c/src and py/src against core/src and owned/src (the shared std layer
# both bindings call). A counted line is a non-blank line of a `.rs` file
# that does not start, after indentation, with `//` (so doc comments do not
# count). Tests do not count: neither files under a `tests/` folder nor the
# items marked `#[cfg(test)]` inside a source file (their braces are
# counted to find where they end).
#
#   scripts/binding-size.sh          the totals and the ratios
#   scripts/binding-size.sh -v       and every file, largest first
set -euo pipefail
cd "$(dirname "$0")/.."

# One file's counted lines.
count_file() {
    awk '
        /^[[:space:]]*#\[cfg\(test\)\]/ { skip = 1; depth = 0; opened = 0; next }
        skip {
            line = $0
            o = gsub(/\{/, "", line); c = gsub(/\}/, "", line)
            depth += o - c
            if (o > 0) opened = 1
            if ((opened && depth <= 0) || (!opened && $0 ~ /;[[:space:]]*$/)) skip = 0
            next
        }
        /^[[:space:]]*$/ || /^[[:space:]]*\/\// { next }
        { n++ }
        END { print n + 0 }
    ' "$1"
}

files() {
    find "$1" -name '*.rs' -not -path '*/tests/*' | sort
}

count() {
    local total=0 f
    for f in $(files "$1"); do
        total=$((total + $(count_file "$f")))
    done
    echo "$total"
}

if [ "${1:-}" = "-v" ]; then
    for tree in ffi-c/src py/src owned/src core/src; do
        for f in $(files "$tree"); do
            printf '%6d %s\n' "$(count_file "$f")" "$f"
        done
    done | sort -rn
    echo
fi

ffi=$(count ffi-c/src)
py=$(count py/src)
core=$(count core/src)
owned=$(count owned/src)
printf 'bindings: ffi-c/src %d + py/src %d = %d\n' "$ffi" "$py" $((ffi + py))
printf 'below:    core/src %d + owned/src %d = %d\n' "$core" "$owned" $((core + owned))
awk -v b=$((ffi + py)) -v c="$core" -v o="$owned" 'BEGIN {
    printf "bindings / (core + owned) = %.3f\n", b / (c + o)
    printf "bindings / core alone     = %.3f\n", b / c
}'
