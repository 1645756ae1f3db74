#!/usr/bin/env bash
# The differential test against the real Java classes (reference/PROTOCOL.md):
#
#   scripts/differential.sh [--cases N] [--seed S] [--only AREA] [--java-cmd CMD] [...]
#
# Generates N random requests from seed S (a new seed each run unless given,
# printed first), asks the Java program over Pulsar 4.2.4
# (scripts/reference-java.sh) and this project's Rust answerer
# (reference/ours, through the core; 1 in 10 cases also through the C ABI
# and the Python package), and compares answers and errors. A disagreement
# is shrunk and printed with its seed. Ends with
# `differential: N/N cases agree with Java 4.2.4 (seed S)`; exits 1 on any
# disagreement. `--help` lists every option (reference/differential/).
#
# The Java program's stderr (its own logging) goes to
# target/differential-java.log. --java-cmd CMD replaces the Java program (e.g. our own answerer, to test
# the driver itself). Needs cargo and the .venv of scripts/setup.sh.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

java_cmd=""
pass=()
while [ "$#" -gt 0 ]; do
    case "$1" in
        --java-cmd) java_cmd="$2"; shift 2 ;;
        --java-cmd=*) java_cmd="${1#*=}"; shift ;;
        *) pass+=("$1"); shift ;;
    esac
done

# Release: the answerer spends far longer answering a long run than the
# optimised build takes, and check.sh's other steps build it anyway.
cargo build --locked --release --quiet -p pulsar-routing-reference -p pulsar-routing-ffi
target_dir="$(cargo metadata --locked --format-version 1 --no-deps |
    .venv/bin/python -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
ours="$target_dir/release/pulsar-routing-reference"
lib="$target_dir/release/libpulsar_routing.so"

if [ -z "$java_cmd" ]; then
    java_cmd="scripts/reference-java.sh"
fi
# Once an exception is thrown often enough, HotSpot's JIT throws a shared
# instance without a message; Java's real messages are what is compared.
export JAVA_TOOL_OPTIONS="-XX:-OmitStackTraceInFastThrow${JAVA_TOOL_OPTIONS:+ $JAVA_TOOL_OPTIONS}"

PYTHONPATH="$root/reference${PYTHONPATH:+:$PYTHONPATH}" exec .venv/bin/python -m differential \
    --java-cmd "$java_cmd" \
    --java-log "$target_dir/differential-java.log" \
    --ours-cmd "$ours${DIFFERENTIAL_OURS_ARGS:+ $DIFFERENTIAL_OURS_ARGS}" \
    --c-cmd "$ours --via c --lib $lib" \
    "${pass[@]+"${pass[@]}"}"
