#!/usr/bin/env bash
# The Python package's checks: rebuild the extension into .venv, then
# stubtest (the .pyi against the built module), mypy --strict (package,
# tests, bench) and pytest. Runs from any directory; expects the .venv that
# scripts/setup.sh creates.
set -euo pipefail
cd "$(dirname "$0")/.."

venv="$PWD/.venv"
if [ ! -x "$venv/bin/python" ]; then
    echo "error: no .venv here; run scripts/setup.sh first" >&2
    exit 1
fi
export VIRTUAL_ENV="$venv"
export PATH="$venv/bin:$PATH"

step() { printf '\n--> %s\n' "$*"; }

# A no-op when the pins are met (pip only checks then), so a .venv made
# before a pin was added still gets it.
python -m pip install --quiet --disable-pip-version-check -r py/requirements-dev.txt

cd py

step "building the extension (maturin develop --release)"
maturin develop --release --quiet

# The submodules re-export the native names: stubtest checks that what
# mypy sees in each is what it holds at run time.
step "stubtest: _pulsar_routing.pyi and the submodules against the built module"
python -m mypy.stubtest pulsar_routing._pulsar_routing \
    pulsar_routing.{hashes,routers,topics,bundles,key_shared,lookup,sender,profiles,kafka,key_counts,clients}

step "mypy --strict: package, tests, bench"
python -m mypy python/pulsar_routing tests bench

step "pytest"
python -m pytest -q
