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
//! every size. After criterion's runs and the ratio table of its medians,
//! the bench measures each end-to-end size against the baseline once more,
//! interleaved in one loop (`pulsar_routing_benches::paired`), and judges
//! the goal on that: separately measured medians drift with the machine.
//! `-- goal` runs that check alone.
//!
//! Run:
//! - `scripts/bench.sh` (every bench), or
//! - `cargo bench -p pulsar-routing-benches --bench key_shared [-- <criterion args>]`.
//!
//! `cargo test --benches` runs each benchmark once, as a smoke test.

use std::env;
use std::hint::black_box;
use std::time::SystemTime;

use criterion::{BenchmarkId, Criterion, Throughput};
use pulsar_routing::key_shared::{
    ConsistentHashingConfig, ConsistentHashingSelector, KeyHashRange, StickyKey,
};
use pulsar_routing::murmur3_32;
use pulsar_routing_benches::paired;
use pulsar_routing_benches::{Comparison, KEY_32, print_ratio_table};

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

// Both sides are forced inline so that criterion's loop and the paired
// loop run the same code shape for each.

/// The baseline: the key's Murmur3 alone.
#[inline(always)]
fn hash_only() -> u32 {
    murmur3_of(black_box(KEY_32).as_bytes())
}

/// The hash behind a call, as the goal was set: `murmur3_32` is inlined
/// across crates now, and inlined into the measurement loop its cost
/// overlaps the loop's, which no end-to-end lookup can match.
#[inline(never)]
fn murmur3_of(key: &[u8]) -> u32 {
    murmur3_32(key)
}

/// End to end: key to consumer.
#[inline(always)]
fn key_to_consumer(selector: &ConsistentHashingSelector<Vec<u32>>) -> Option<u64> {
    selector.select_key(&StickyKey::Key(black_box(KEY_32).as_bytes()))
}

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
        b.iter(hash_only);
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
            b.iter(|| key_to_consumer(s));
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

/// The goal, measured paired: key to consumer within 1.3 times the key's
/// Murmur3 at every size, each size interleaved with the baseline.
fn check_goal() {
    let selectors: Vec<_> = SIZES.iter().map(|&n| selector(n)).collect();
    let cases = selectors
        .iter()
        .zip(END_TO_END)
        .map(|(selector, c)| (c.label, move || key_to_consumer(selector)));
    paired::check_goal(
        "Key_Shared key to consumer (consistent hashing, 100 points) at most 1.3x murmur3 of the key",
        BASELINE_NAME,
        1.3,
        hash_only,
        cases,
    );
}

fn main() {
    let since = SystemTime::now();
    let mut criterion = Criterion::default().configure_from_args();
    bench_key_shared(&mut criterion);
    criterion.final_summary();
    print_ratio_table(&COMPARISONS, since);
    if paired::goal_check_requested(&env::args().collect::<Vec<_>>(), GROUP) {
        check_goal();
    }
}
