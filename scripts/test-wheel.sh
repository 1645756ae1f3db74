#!/usr/bin/env bash
# The package as people install it: builds the wheel with maturin, installs
# it into clean venvs (python3 -m venv, nothing from requirements-dev) with
# the install lines of py/README.md, and runs the README's commands from
# there:
#
#   * `pip install pulsar-routing` alone: the demo runs, and a file analysis
#     stops with one error line naming the extra it needs;
#   * `pip install 'pulsar-routing[plan]'`: the demo, every `pulsar-routing
#     plan` command of py/README.md on generated files, a file analysis in
#     exact and in sketch counting, --plot and --json;
#   * `pip install 'pulsar-routing[dask]'`: a file analysis with --dask local
#     gives the single-machine report, plus where it ran.
#
# Run after scripts/setup.sh (it uses .venv's maturin). The release build
# shares its artifacts with `maturin develop --release` (scripts/setup.sh,
# scripts/test-python.sh), so after those it only links and packs.
#
#   WHEEL_PROFILE=dev   build with cargo's dev profile instead: the same
#                       code, unoptimised; quicker to build, slower to run
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
profile=${WHEEL_PROFILE:-release}
work=$repo/target/wheel-test
readme=$repo/py/README.md

started=$SECONDS
step() { printf '\n--> [%ss] %s\n' "$((SECONDS - started))" "$*"; }
fail() { echo "test-wheel: $*" >&2; exit 1; }

[ -x .venv/bin/maturin ] || fail "no .venv with maturin here; run scripts/setup.sh first"

# The README's install lines are the ones tested: take them from it.
install_line() { # extra ('' for none)
    local pattern
    if [ -z "$1" ]; then pattern="^pip install pulsar-routing\$"; else pattern="^pip install 'pulsar-routing\\[$1\\]'\$"; fi
    grep -m1 -E "$pattern" "$readme" || fail "py/README.md has no line matching: $pattern"
}
base_line=$(install_line "")
plan_line=$(install_line plan)
dask_line=$(install_line dask)

rm -rf "$work"
mkdir -p "$work/dist" "$work/run"

step "building the wheel (maturin build, $profile profile)"
if [ "$profile" = release ]; then
    (cd py && ../.venv/bin/maturin build --release --interpreter "$repo/.venv/bin/python" --out "$work/dist" --quiet)
else
    (cd py && ../.venv/bin/maturin build --profile "$profile" --interpreter "$repo/.venv/bin/python" --out "$work/dist" --quiet)
fi
wheels=("$work"/dist/*.whl)
[ ${#wheels[@]} -eq 1 ] || fail "expected one wheel, found: ${wheels[*]}"
wheel=${wheels[0]}
echo "$(basename "$wheel")"

# `pip install 'pulsar-routing[plan]'` with the wheel in the package's place.
pip_install() { # venv line
    local venv=$1 line=$2 spec
    spec=${line#pip install }
    spec=${spec//\'/}
    spec=${spec/pulsar-routing/$wheel}
    echo "$line  (as: pip install ${spec/$work\//})"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$spec"
}

fresh_venv() { # dir
    python3 -m venv --clear "$1"
}

cd "$work/run"

step "base install: $base_line"
fresh_venv "$work/base"
pip_install "$work/base" "$base_line"
"$work/base/bin/pulsar-routing" demo > demo-base.txt
grep -q "Key skew" demo-base.txt || fail "the demo printed no skew report"
echo "demo: ok"
"$work/base/bin/pulsar-routing" --version

step "plan install: $plan_line"
fresh_venv "$work/plan"
pip_install "$work/plan" "$plan_line"
py=$work/plan/bin/python
bin=$work/plan/bin

# The files py/README.md's commands name, and a data set of several files.
"$py" - <<'EOF'
import csv
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

rng = np.random.default_rng(11)
users = rng.zipf(1.3, 200_000) % 40_000
keys = [f"user-{u}" for u in users.tolist()]
weights = rng.integers(1, 9, len(keys)).astype(np.float64)
pq.write_table(pa.table({"k": keys, "w": weights}), "keys.parquet", row_group_size=50_000)
with open("keys.csv", "w", newline="") as f:
    out = csv.writer(f)
    out.writerow(["k", "w"])
    out.writerows(zip(keys[:50_000], weights[:50_000].astype(int).tolist()))
with open("keys.txt", "w") as f:
    f.write("\n".join(keys[:50_000]) + "\n")
with open("topics.csv", "w", newline="") as f:
    out = csv.writer(f)
    out.writerow(["topic", "partitions"])
    out.writerows([f"persistent://acme/shop/topic-{i}", 1 + i % 8] for i in range(300))
for i in range(3):
    part = slice(i * 60_000, (i + 1) * 60_000)
    pq.write_table(pa.table({"k": keys[part], "w": weights[part]}), f"part-{i}.parquet", row_group_size=20_000)
EOF

step "the base install names the extra a file analysis needs"
if "$work/base/bin/pulsar-routing" plan skew --file keys.parquet --key-column k 2> base-error.txt; then
    fail "plan skew --file ran without pyarrow"
fi
cat base-error.txt
grep -q "pip install 'pulsar-routing\[plan\]'" base-error.txt || fail "the error does not name pulsar-routing[plan]"

step "demo --json --plot (the base install ran the text demo)"
"$bin/pulsar-routing" demo --json --plot demo.png > demo.json 2> /dev/null
"$py" -c 'import json, sys; json.load(open("demo.json")); sys.exit(open("demo.png", "rb").read(8) != b"\x89PNG\r\n\x1a\n")'
echo "demo --json --plot: ok"

# Runs the `pulsar-routing plan` commands of py/README.md that match (or,
# with -v, do not match) a pattern. The pulsar-admin ones read files of a
# live cluster (testdata/admin has their shapes; tests/test_plan_admin.py
# runs them), and a tcp:// scheduler is not here: those are left out.
readme_commands() { # grep-flags pattern
    local count=0 line
    while IFS= read -r line; do
        line=${line%%  #*}
        case $line in *admin*|*tcp://*) continue ;; esac
        echo "\$ $line"
        (PATH=$bin:$PATH; eval "$line") > out.txt 2> err.txt || { cat err.txt >&2; fail "failed: $line"; }
        count=$((count + 1))
    done < <(grep -E '^pulsar-routing plan ' "$readme" | grep "$1" -e "$2")
    echo "$count commands: ok"
}

step "every 'pulsar-routing plan' command of py/README.md (but --dask)"
readme_commands -v --dask

step "a file analysis in exact and in sketch counting, --plot and --json"
"$bin/pulsar-routing" plan skew --file keys.parquet --key-column k --weight-column w -n 12 16 > exact.txt
grep -q "exact counting" exact.txt || fail "plan skew did not count exactly"
"$bin/pulsar-routing" plan skew --file keys.parquet --key-column k --weight-column w -n 12 16 \
    --max-distinct 1000 > sketch.txt
grep -q "sketch counting" sketch.txt || fail "plan skew --max-distinct 1000 did not sketch"
"$bin/pulsar-routing" plan skew --file keys.parquet --key-column k -n 12 --plot skew.png --json > skew.json
"$bin/pulsar-routing" plan drift --file keys.parquet --key-column k --from 12 --to 16 --max-distinct 1000 --json > drift.json
"$py" - <<'EOF'
import json

skew = json.load(open("skew.json"))
assert "exact counting" in skew["sample"], skew["sample"]
assert open("skew.png", "rb").read(8) == b"\x89PNG\r\n\x1a\n"
drift = json.load(open("drift.json"))
assert drift["counting"] == "sketch" and drift["moved_key_share_low"] <= drift["moved_key_share_high"]
print("exact, sketch, --plot, --json: ok")
EOF

step "dask install: $dask_line"
pip_install "$work/plan" "$dask_line"
readme_commands -F --dask
args=(plan drift --file 'part-*.parquet' --key-column k --weight-column w --from 12 --to 16 --json)
"$bin/pulsar-routing" "${args[@]}" > single.json
"$bin/pulsar-routing" "${args[@]}" --dask local --dask-workers 2 > dask.json
"$py" - <<'EOF'
import json

single, dask = json.load(open("single.json")), json.load(open("dask.json"))
engine = dask.pop("engine")
assert dask == single, "the Dask run differs from the single-machine run"
assert engine["workers"] == 2 and engine["files"] == 3 and engine["input_partitions"] == 3, engine
print(f"--dask local: the single-machine report; {engine}")
EOF

printf '\nThe wheel works as installed (%ss).\n' "$((SECONDS - started))"
