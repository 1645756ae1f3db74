#!/usr/bin/env bash
# Checks the C library's exported symbols against ffi-c/symbols.txt, the
# committed list of the ABI (sorted, one name a line):
#   - every symbol libpulsar_routing.so exports is in the list, and every
#     name of the list is exported (a removed or renamed function breaks
#     programs linked against an older build);
#   - nothing else leaks: every exported symbol starts with pulsar_routing_
#     (a Rust or C dependency's symbol would clash in the programs that
#     link us);
#   - include/pulsar_routing.h declares exactly the listed functions;
#   - (a warning) every function's comment in the header speaks of its
#     status codes, thread-safety, NULL handling and ownership.
#
#   scripts/check-symbols.sh            check (builds the debug library)
#   scripts/check-symbols.sh --update   rewrite ffi-c/symbols.txt from the
#                                       library, after adding a function
#
# Runnable from any directory. Set PULSAR_ROUTING_SO to check a library
# that is already built instead.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
list=ffi-c/symbols.txt
header=include/pulsar_routing.h

update=false
case "$#:${1:-}" in
    0:) ;;
    1:--update) update=true ;;
    *) echo "usage: $0 [--update]" >&2; exit 2 ;;
esac

so="${PULSAR_ROUTING_SO:-}"
if [ -z "$so" ]; then
    cargo build --locked --quiet -p pulsar-routing-ffi
    target_dir="$(cargo metadata --locked --format-version 1 --no-deps |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
    so="$target_dir/debug/libpulsar_routing.so"
fi

exported="$(mktemp)"
declared="$(mktemp)"
trap 'rm -f "$exported" "$declared"' EXIT
# Defined dynamic symbols only: what the library gives, not what it uses.
nm -D --defined-only "$so" | awk 'NF >= 3 { print $3 }' | LC_ALL=C sort -u >"$exported"

status=0
leaked="$(grep -v '^pulsar_routing_' "$exported" || true)"
if [ -n "$leaked" ]; then
    echo "error: $so exports symbols without the pulsar_routing_ prefix:" >&2
    sed 's/^/  /' <<<"$leaked" >&2
    status=1
fi

if $update; then
    grep '^pulsar_routing_' "$exported" >"$list" || true
    echo "wrote $list ($(wc -l <"$list") symbols)"
    exit "$status"
fi

if ! diff -u --label "$list (committed)" --label "exported by $(basename "$so")" \
    "$list" <(grep '^pulsar_routing_' "$exported" || true); then
    echo "error: the exported symbols changed: if that is intended, run" \
        "scripts/check-symbols.sh --update and commit $list" >&2
    status=1
fi

# A function name followed by "(" at the start of a declaration.
grep -oE '^[A-Za-z_][A-Za-z0-9_ *]*[ *](pulsar_routing_[a-z0-9_]+)\(' "$header" |
    grep -oE 'pulsar_routing_[a-z0-9_]+\($' | tr -d '(' | LC_ALL=C sort -u >"$declared"
if ! diff -u --label "$list" --label "declared in $header" "$list" "$declared"; then
    echo "error: $header and $list disagree: regenerate the header" \
        "(scripts/gen-header.sh) or the list (--update)" >&2
    status=1
fi

# Every function's comment must say which statuses it returns, whether
# it is thread-safe, what NULL does and who owns what (ffi-c/README.md).
# A loose wording check ("as for X" counts): it only warns, since the
# comments live in ffi-c/src; DOC_CHECK=fail makes it an error.
if ! python3 - "$header" <<'EOF'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
rules = {
    "status codes": r"[Rr]eturns|[Aa]s for|Cannot fail|NULL is a no-op",
    "thread-safety": r"[Tt]hread|[Aa]s for|Reads the \w+ only|to itself|[Rr]eentrant",
    "NULL handling": r"NULL|[Aa]s for|Cannot fail",
    "ownership": r"[Aa]llocat|own|static|[Bb]orrow|[Rr]eleases|[Aa]s for|free",
}
declaration = r"/\*((?:(?!\*/).)*)\*/\s*\n([^;{}()]*?)\b(pulsar_routing_\w+)\(([^;]*)\);"
gaps = []
for m in re.finditer(declaration, text, flags=re.S):
    doc, returns, name, args = m.groups()
    missing = [
        what for what, pattern in rules.items()
        if not re.search(pattern, doc)
        and not (what == "NULL handling" and "*" not in args)
        and not (what == "status codes" and "pulsar_routing_status" not in returns)
    ]
    if missing:
        gaps.append(f"  {name}: says nothing about {', '.join(missing)}")
if gaps:
    print("warning: function comments in the header with a gap:", file=sys.stderr)
    print("\n".join(gaps), file=sys.stderr)
    sys.exit(1)
EOF
then
    if [ "${DOC_CHECK:-warn}" = fail ]; then
        status=1
    fi
fi

if [ "$status" -eq 0 ]; then
    echo "exported symbols match $list ($(wc -l <"$list") symbols, none unprefixed)"
fi
exit "$status"
