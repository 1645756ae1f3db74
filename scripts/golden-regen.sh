#!/usr/bin/env bash
# Prints testdata/golden/*.jsonl.gz again with the real Pulsar 4.2.4 classes
# (scripts/reference-java.sh --golden) and compares every row, field by field,
# with the committed ones, which Pulsar master printed.
#
# Per file it prints "NAME: identical/total rows identical" and then each class
# of difference (row kind, field, count, one example). A class listed in
# EXPLAINED below is a documented 4.2.4-vs-master difference (see "Printing
# them again" in testdata/golden/README.md); any other class fails the script.
#
#   scripts/golden-regen.sh [--keep DIR]   (--keep: regenerate into DIR and keep it)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ "${1:-}" == "--keep" && -n "${2:-}" ]]; then
    out="$2"
    mkdir -p "$out"
else
    out="$(mktemp -d)"
    trap 'rm -rf "$out"' EXIT
fi

"$root/scripts/reference-java.sh" --golden "$out" 2>"$out/harness.log" || {
    cat "$out/harness.log" >&2
    exit 1
}

python3 - "$root/testdata/golden" "$out" <<'PY'
import gzip, json, os, sys
from collections import OrderedDict

golden_dir, out_dir = sys.argv[1], sys.argv[2]

def java_fields(row, *leave_out):
    return {k: v for k, v in row.items()
            if k != "impl" and k not in leave_out and not k.startswith(("go_", "cpp_"))}

def explained(file, kind, impl, paths, a, b, by_input):
    """Why 4.2.4 may differ from master in this class of rows, or None.

    Each answer is a section of "Printing them again" in
    testdata/golden/README.md."""
    if file == "hash.jsonl" and paths == ("murmur3_32_raw",):
        return "4.2.4 has no Murmur3_32Hash.makeRawHash"
    if impl in ("master", "v4"):
        other = "v4" if impl == "master" else "master"
        for ident in (identity(a), identity(a, "num_bundles")):
            twin = by_input.get((kind, ident), {}).get(other)
            if twin is not None and java_fields(twin, "num_bundles") == java_fields(b, "num_bundles"):
                return f"the row holds the {impl} build's answer; 4.2.4 answers as the {other} build does"
    if (file == "topics.jsonl" and impl == "master" and a["input"].startswith(("topic://", "segment://"))
            and b.get("error_class") == "java.lang.IllegalArgumentException"):
        return "4.2.4 has no PIP-460 topic:// and segment:// domains"
    return None

def identity(row, *leave_out):
    """What a build-specific row is a row about: its input."""
    return json.dumps([row.get(k) for k in ("input", "topic", "num_bundles") if k not in leave_out])

def kind_of(row):
    return row.get("kind") or row.get("type") or "-"

def diff(a, b, path, out):
    """Paths below which a (committed) and b (4.2.4) differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                out.append(path + k)
            else:
                diff(a[k], b[k], path + k + ".", out)
    elif isinstance(a, list) and isinstance(b, list) and path.endswith("steps."):
        for i in range(max(len(a), len(b))):
            if i >= len(a) or i >= len(b):
                out.append(path[:-1] + "[]")
            else:
                diff(a[i], b[i], path[:-1] + "[].", out)
    elif a != b or type(a) != type(b):
        out.append(path[:-1] if path.endswith(".") else path)

failed = False
for name in sorted(os.listdir(golden_dir)):
    if not name.endswith(".jsonl.gz"):
        continue
    base = name[:-3]
    with gzip.open(os.path.join(golden_dir, name), "rt", encoding="utf-8") as f:
        committed = [json.loads(l) for l in f]
    with open(os.path.join(out_dir, base), encoding="utf-8") as f:
        printed = [json.loads(l) for l in f]
    if len(committed) != len(printed):
        print(f"{base}: {len(printed)} rows printed, {len(committed)} committed")
        failed = True
        continue
    by_input = {}
    for a in committed:
        if a.get("impl") in ("master", "v4"):
            for ident in (identity(a), identity(a, "num_bundles")):
                by_input.setdefault((kind_of(a), ident), {}).setdefault(a["impl"], a)
    classes = OrderedDict()
    same = 0
    for a, b in zip(committed, printed):
        paths = []
        diff(a, b, "", paths)
        if not paths:
            same += 1
            continue
        key = (kind_of(a), a.get("impl"), tuple(sorted(set(paths))))
        c = classes.setdefault(key, [0, a, b])
        c[0] += 1
    print(f"{base}: {same}/{len(committed)} rows identical")
    for (kind, impl, paths), (n, a, b) in classes.items():
        why = explained(base, kind, impl, paths, a, b, by_input)
        if not why:
            failed = True
        impl_text = f" impl={impl}" if impl else ""
        print(f"  {kind}{impl_text} [{', '.join(paths)}]: {n} rows, " + (f"explained: {why}" if why else "UNEXPLAINED"))
        if not why:
            ident = {k: a[k] for k in ("id", "idx", "input", "topic", "key_hex") if k in a}
            print(f"    e.g. {json.dumps(ident)[:200]}")
            print(f"      committed {json.dumps(a)[:400]}")
            print(f"      4.2.4     {json.dumps(b)[:400]}")
sys.exit(1 if failed else 0)
PY
