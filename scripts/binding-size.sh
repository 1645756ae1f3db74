#!/usr/bin/env bash
# How thick the bindings are next to the logic they wrap: counted lines of
# ffi-c/src and py/src against core/src and owned/src (the shared std layer
# both bindings call). A counted line is a non-blank line of a `.rs` file
# that does not start, after indentation, with `//` (so doc comments do not
# count); files under a `tests/` folder do not count.
#
#   scripts/binding-size.sh          the totals and the ratios
#   scripts/binding-size.sh -v       and every file, largest first
set -euo pipefail
cd "$(dirname "$0")/.."

count() {
    find "$1" -name '*.rs' -not -path '*/tests/*' -print0 \
        | xargs -0 cat | grep -v '^[[:space:]]*$' | grep -cv '^[[:space:]]*//'
}

if [ "${1:-}" = "-v" ]; then
    for tree in ffi-c/src py/src owned/src core/src; do
        find "$tree" -name '*.rs' -not -path '*/tests/*' -print0 | while IFS= read -r -d '' f; do
            printf '%6d %s\n' "$(grep -v '^[[:space:]]*$' "$f" | grep -cv '^[[:space:]]*//')" "$f"
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
