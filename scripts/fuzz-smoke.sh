#!/usr/bin/env bash
# Builds the cargo-fuzz targets in fuzz/ once, fuzzes each one briefly, and
# fails if any of them finds a crash (a failed check, a panic, a hang or an
# out-of-memory).
#
#   scripts/fuzz-smoke.sh                          every target, 15 s each
#   FUZZ_SECONDS=600 scripts/fuzz-smoke.sh routers one target, for longer
#
# The targets (`cargo fuzz list`): murmur3_streaming, java_lossy_utf8,
# routers and batch (producer to partition); topic_name, bundle_range and
# bundle_split (topic to bundle); key_shared_selectors and
# exclusive_ranges (Key_Shared, key to consumer); profiles (the other
# Pulsar clients), kafka (Kafka's partitioners) and key_counts (the
# planner's key counter). The default of 15 s each keeps the fourteen of
# them under about 5 minutes on a busy 2-core machine, a cold build (about
# 80 s) included.
#
# Environment:
#   FUZZ_SECONDS    time per target (default 15)
#   FUZZ_SANITIZER  cargo fuzz --sanitizer (default none, see below)
#
# Needs cargo-fuzz (scripts/setup.sh installs it). Only stable Rust is
# assumed: RUSTC_BOOTSTRAP=1 lets it pass the nightly-only coverage flags.
# The corpus grows in fuzz/corpus/<target>/ and crashing inputs are kept in
# fuzz/artifacts/<target>/; both are git-ignored. Replay a crash with
#   RUSTC_BOOTSTRAP=1 cargo fuzz run -s none <target> fuzz/artifacts/<target>/<file>
set -euo pipefail
cd "$(dirname "$0")/.."

export RUSTC_BOOTSTRAP=1
seconds=${FUZZ_SECONDS:-15}
# The core forbids unsafe code, so AddressSanitizer has nothing to add to
# the panics the targets already turn every violated check into, and the
# uninstrumented build runs several times more inputs in the same time.
sanitizer=${FUZZ_SANITIZER:-none}
# Release code, as users run it, but with overflow checks: an arithmetic
# overflow in the core is a bug even where it would wrap harmlessly.
build_flags=(--sanitizer "$sanitizer" --release --debug-assertions)

if [ $# -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo fuzz list)
fi

# Hand-picked starting points for the decoder: the cases where the JDK's
# replacement rules differ from Rust's, and truncations at the end of input.
# Other targets start from libFuzzer's empty input; their structured inputs
# make any bytes meaningful.
seed_corpus() {
    local target=$1 dir=fuzz/corpus/$1
    mkdir -p "$dir"
    [ "$target" = java_lossy_utf8 ] || return 0
    local -A seeds=(
        [ascii]='user-42'
        [multibyte]='h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80'
        [surrogate]='\xed\xa0\x80!'
        [surrogate-truncated]='a\xed\xa0'
        [overlong]='\xc0\xaf\xe0\x80\xaf\xf0\x80\x80\xaf'
        [truncated-4]='\xf0\x9f\x98'
        [above-max]='\xf4\x90\x80\x80\xf5\xff'
        [literal-replacement]='\xef\xbf\xbd\xff'
    )
    local name
    for name in "${!seeds[@]}"; do
        [ -e "$dir/seed-$name" ] || printf '%b' "${seeds[$name]}" >"$dir/seed-$name"
    done
}

cargo fuzz build "${build_flags[@]}"

failed=()
for target in "${targets[@]}"; do
    seed_corpus "$target"
    echo "==> fuzzing $target for ${seconds}s"
    # -timeout: one input taking 10 s is a hang, and a hang is a failure.
    if ! cargo fuzz run "${build_flags[@]}" "$target" -- \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1; then
        failed+=("$target")
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz smoke FAILED: ${failed[*]} (inputs in fuzz/artifacts/)" >&2
    exit 1
fi
echo "fuzz smoke passed: ${targets[*]}, ${seconds}s each"
