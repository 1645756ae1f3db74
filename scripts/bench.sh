#!/usr/bin/env bash
# Runs the criterion benchmarks (benches/) and prints the ratio table of
# pulsar-routing against its baselines at the end.
#
#   scripts/bench.sh                    criterion's defaults (3 s warm-up, 5 s
#                                       measurement): about 7 minutes on a
#                                       2-core machine, plus the first build
#   scripts/bench.sh --quick            0.5 s warm-up and 1.5 s measurement per
#                                       benchmark: about 2.5 minutes once built
#   scripts/bench.sh -- topic_bundle_40b
#                                       one group: topic to bundle, then the
#                                       paired check of its 1.2x goal,
#                                       about 2 minutes
#   scripts/bench.sh -- key_shared_consistent_32b
#                                       Key_Shared key to consumer, then the
#                                       paired check of its 1.3x goal
#   scripts/bench.sh -- goal            only the paired goal checks (the
#                                       other benches measure nothing then):
#                                       about 1.5 minutes once built
#   scripts/bench.sh -- keyed_vs_c      keyed Murmur3 routing (core, C ABI,
#                                       batch) against C -O3, then its goals
#   scripts/bench.sh -- kafka_vs_pulsar_32b
#                                       Kafka murmur2 vs Pulsar Murmur3_32
#   BENCH_QUICK=1 scripts/bench.sh      the same as --quick
#   scripts/bench.sh [--quick] [--] ARGS...
#                                       ARGS go to criterion, e.g. a filter
#                                       (`-- murmur3_32`) or `--save-baseline`
#
# Works from any directory; results land in the workspace's target/criterion.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=${BENCH_QUICK:-0}
criterion_args=()
while [ $# -gt 0 ]; do
    case $1 in
        --quick) quick=1 ;;
        --)
            shift
            criterion_args+=("$@")
            break
            ;;
        *) criterion_args+=("$1") ;;
    esac
    shift
done
if [ "$quick" = 1 ]; then
    criterion_args=(--warm-up-time 0.5 --measurement-time 1.5 "${criterion_args[@]}")
fi

# Each bench binary prints its own table (and topic_bundle and key_shared
# their goal verdicts) as it finishes; they are printed again together at
# the end so that the summary is not lost in the scroll.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# keyed_vs_c calls the C ABI through its shared library, which no cargo
# dependency can build (the crate has no Rust library); the bench profile
# shares the release directory, where the bench's build script finds it.
cargo build --release -p pulsar-routing-ffi
cargo bench -p pulsar-routing-benches -- "${criterion_args[@]}" | tee "$log"

echo
echo "==================== summary ===================="
awk '/^(ratio table|goal:)/ { show = 1 } show && /^$/ { show = 0 } show' "$log"
