//! Key_Shared, message key to consumer, with the broker's default selector
//! (consistent hashing, 100 points per consumer, slots `[1, 65535]`) at 10,
//! 1,000 and 10,000 consumers.
//!
//! - `murmur3_key`, the baseline: `murmur3_32` of the 32-byte key
//!   (`KEY_32`) alone, which any implementation must compute and which is
//!   therefore the floor.
//! - `key_to_slot` (diagnostic): `KeyHashRange::slot` of the key, the hash
//!   and its reduction to `[1, 65535]` without the lookup.
//! - `select/<consumers>`: `ConsistentHashingSelector::select` of a slot
//!   (diagnostic: the lookup alone, one table read).
//! - `key_to_consumer/<consumers>`: `select_key` of the key, end to end:
//!   hash, reduce to a slot, look up the consumer.
//! - `slot_then_select/10000` (diagnostic): the same two steps written
//!   out by the caller, `select(key_hash_range().slot(key))`.
//!
//! The slot and the key go through `black_box` on every iteration.
//!
//! The goal is at most 1.3 times the baseline for the end-to-end lookup at
//! every size; after the ratio table the bench prints whether it is met.
//!
//! Run:
//! - `scripts/bench.sh` (every bench), or
//! - `cargo bench -p pulsar-routing-benches --bench key_shared [-- <criterion args>]`.
//!
//! `cargo test --benches` runs each benchmark once, as a smoke test.

use std::hint::black_box;
use std::time::SystemTime;

use criterion::{BenchmarkId, Criterion, Throughput};
use pulsar_routing::key_shared::{
    ConsistentHashingConfig, ConsistentHashingSelector, KeyHashRange, StickyKey,
};
use pulsar_routing::murmur3_32;
use pulsar_routing_benches::{Comparison, Goal, KEY_32, print_goal_report, print_ratio_table};

const GROUP: &str = "key_shared_consistent_32b";
const BASELINE: &str = "murmur3_key";
const BASELINE_NAME: &str = "murmur3_32(key)";
const SIZES: [u32; 3] = [10, 1_000, 10_000];

const fn comparison(label: &'static str, ours: &'static str) -> Comparison {
    Comparison {
        label,
        group: GROUP,
        ours,
        baseline: BASELINE,
        baseline_name: BASELINE_NAME,
    }
}

const END_TO_END: [Comparison; 3] = [
    comparison("key -> consumer, 10 consumers", "key_to_consumer/10"),
    comparison("key -> consumer, 1000 consumers", "key_to_consumer/1000"),
    comparison("key -> consumer, 10000 consumers", "key_to_consumer/10000"),
];

const COMPARISONS: [Comparison; 8] = [
    comparison("key -> slot (no lookup)", "key_to_slot"),
    comparison("select(slot), 10 consumers", "select/10"),
    comparison("select(slot), 1000 consumers", "select/1000"),
    comparison("select(slot), 10000 consumers", "select/10000"),
    END_TO_END[0],
    END_TO_END[1],
    END_TO_END[2],
    comparison(
        "slot then select, 10000 consumers",
        "slot_then_select/10000",
    ),
];

/// Key to consumer within 1.3 times the key's Murmur3 at every size.
const GOALS: [Goal; 3] = [
    Goal {
        comparison: END_TO_END[0],
        max_ratio: 1.3,
    },
    Goal {
        comparison: END_TO_END[1],
        max_ratio: 1.3,
    },
    Goal {
        comparison: END_TO_END[2],
        max_ratio: 1.3,
    },
];

/// A selector with `consumers` consumers named as the broker's clients
/// name them by default, 100 points each.
fn selector(consumers: u32) -> ConsistentHashingSelector<Vec<u32>> {
    let config = ConsistentHashingConfig::new(consumers);
    let words = config.storage_words().expect("a valid config");
    let mut selector =
        ConsistentHashingSelector::new(config, vec![0u32; words]).expect("enough storage");
    for id in 0..consumers {
        selector
            .add(u64::from(id), format!("consumer-{id:05}"))
            .expect("room for every consumer");
    }
    selector
}

fn bench_key_shared(c: &mut Criterion) {
    let key = StickyKey::Key(KEY_32.as_bytes());
    let slot = KeyHashRange::CONSISTENT_HASHING.slot(&key);
    let selectors: Vec<(u32, ConsistentHashingSelector<Vec<u32>>)> =
        SIZES.iter().map(|&n| (n, selector(n))).collect();
    // Both paths must find the same consumer, or the ratios compare
    // different work.
    for (n, selector) in &selectors {
        let owner = selector.select(slot);
        assert!(owner.is_some(), "{n} consumers, nobody owns slot {slot}");
        assert_eq!(selector.select_key(&key), owner, "{n} consumers");
    }

    let mut group = c.benchmark_group(GROUP);
    group.throughput(Throughput::Elements(1));
    group.bench_function(BASELINE, |b| {
        b.iter(|| murmur3_32(black_box(KEY_32).as_bytes()));
    });
    group.bench_function("key_to_slot", |b| {
        b.iter(|| {
            KeyHashRange::CONSISTENT_HASHING.slot(&StickyKey::Key(black_box(KEY_32).as_bytes()))
        });
    });
    for (n, selector) in &selectors {
        group.bench_with_input(BenchmarkId::new("select", n), selector, |b, s| {
            b.iter(|| s.select(black_box(slot)));
        });
    }
    for (n, selector) in &selectors {
        group.bench_with_input(BenchmarkId::new("key_to_consumer", n), selector, |b, s| {
            b.iter(|| s.select_key(&StickyKey::Key(black_box(KEY_32).as_bytes())));
        });
    }
    if let Some((n, selector)) = selectors.last() {
        group.bench_with_input(BenchmarkId::new("slot_then_select", n), selector, |b, s| {
            b.iter(|| {
                let key = StickyKey::Key(black_box(KEY_32).as_bytes());
                s.select(s.key_hash_range().slot(&key))
            });
        });
    }
    group.finish();
}

fn main() {
    let since = SystemTime::now();
    let mut criterion = Criterion::default().configure_from_args();
    bench_key_shared(&mut criterion);
    criterion.final_summary();
    print_ratio_table(&COMPARISONS, since);
    print_goal_report(
        "Key_Shared key to consumer (consistent hashing, 100 points) at most 1.3x murmur3 of the key",
        &GOALS,
        since,
    );
}
