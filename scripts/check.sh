#!/usr/bin/env bash
# Every check the project has, in one command: the README's test command and
# what .ci/run calls. Installs what it needs first (scripts/setup.sh).
#
#   FUZZ_SECONDS=N   seconds per fuzz target (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "setup"
scripts/setup.sh

step "rustfmt"
cargo fmt --all -- --check
cargo fmt --manifest-path nostd-check/Cargo.toml -- --check

step "clippy (all targets, fuzz included, warnings are errors)"
cargo clippy --locked --workspace --all-targets -- -D warnings

step "rustdoc (warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --locked --workspace --no-deps --quiet
# The C library's lib shares the core's name, so `cargo doc --workspace`
# skips it (doc = false) and it is documented on its own.
RUSTDOCFLAGS="-D warnings" cargo rustdoc --locked -p pulsar-routing-ffi --lib --quiet

step "Rust tests: core golden vectors, properties, FFI, doc and README examples"
cargo test --locked --workspace

step "benches compile and run once"
cargo test --locked -p pulsar-routing-benches --benches --quiet

step "Kafka murmur2 vectors are what kafka-python computes"
.venv/bin/python core/tests/kafka_python_crosscheck.py --check

step "core links without std or alloc"
scripts/check-nostd.sh

step "C ABI: header freshness, exported symbols, golden vectors through C, NULL arguments, valgrind"
scripts/test-c.sh

step "installed package: C++ wrapper, pkg-config, CMake find_package"
scripts/test-cpp.sh

step "Go package: go vet, golden vectors through cgo"
scripts/test-go.sh

step "Python: stubs, types, golden vectors through Python"
scripts/test-python.sh

# After test-python.sh: its release build is the wheel's, so this only links and packs.
step "the wheel as installed: clean venvs with the README's install lines, the README's commands"
scripts/test-wheel.sh

step "conformance: every scenario agrees in Rust, C, Python and Go"
scripts/conformance.sh

step "differential: the Rust core, the C ABI and Python against the real Java 4.2.4 classes, on fresh random inputs"
scripts/differential.sh

step "golden vectors printed again by the real Java 4.2.4 classes"
scripts/golden-regen.sh

step "on the wire: the real Java and Go producers through the test broker"
scripts/test-wire.sh

step "fuzz smoke runs"
scripts/fuzz-smoke.sh

printf '\nAll checks passed.\n'
