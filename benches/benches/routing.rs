//! Routing, and the modulo underneath it.
//!
//! - `route_32b_key`: one 32-byte key routed to one of 12 partitions by
//!   `partition_for_key` (both hashing schemes) and by
//!   `RoundRobinRouter::choose_partition`, against the naive "hash, then
//!   `%`" a hand port would write: our `murmur3_32` or the `murmur3` crate
//!   followed by `%`, and a `String.hashCode` loop over UTF-16 units
//!   followed by `%`. Throughput is in routed messages.
//! - `reduce_1024`: `PartitionCount::reduce` against the hardware `%`, and
//!   `PartitionCount::sign_safe_mod_i32` against Java's `signSafeMod`
//!   ported line by line, over a batch of 1024 values. Throughput is in
//!   values.
//!
//! The partition count goes through `black_box` on every iteration: a
//! producer learns it at run time, so the compiler must not see a constant
//! divisor and turn `%` into a multiply.
//!
//! After the measurements it prints a ratio table from the estimates
//! criterion wrote.
//!
//! Run:
//! - `scripts/bench.sh` (every bench; `scripts/bench.sh --quick` takes about
//!   a minute), or
//! - `cargo bench -p pulsar-routing-benches --bench routing [-- <criterion args>]`.
//!
//! `cargo test --benches` runs each benchmark once, as a smoke test.

use std::hint::black_box;
use std::io::Cursor;
use std::time::SystemTime;

use criterion::{Criterion, Throughput};
use pulsar_routing::{
    HashingScheme, PartitionCount, RoundRobinRouter, RoutingKey, murmur3_32, partition_for_key,
};
use pulsar_routing_benches::{
    Comparison, KEY_32, PARTITIONS, naive_java_string_hashcode, naive_sign_safe_mod,
    print_ratio_table, pseudo_random_u32s,
};

const ROUTE: &str = "route_32b_key";
const REDUCE: &str = "reduce_1024";
const BATCH: usize = 1024;

const COMPARISONS: [Comparison; 7] = [
    Comparison {
        label: "partition_for_key/murmur3_32",
        group: ROUTE,
        ours: "partition_for_key_murmur3_32",
        baseline: "murmur3_32_then_mod",
        baseline_name: "murmur3_32(key) % n",
    },
    Comparison {
        label: "partition_for_key/murmur3_32",
        group: ROUTE,
        ours: "partition_for_key_murmur3_32",
        baseline: "murmur3_crate_then_mod",
        baseline_name: "murmur3 crate + %",
    },
    Comparison {
        label: "partition_for_key/java_string",
        group: ROUTE,
        ours: "partition_for_key_java_string",
        baseline: "java_hashcode_loop_then_mod",
        baseline_name: "hashCode loop + %",
    },
    Comparison {
        label: "round_robin/murmur3_32",
        group: ROUTE,
        ours: "round_robin_murmur3_32",
        baseline: "murmur3_32_then_mod",
        baseline_name: "murmur3_32(key) % n",
    },
    Comparison {
        label: "round_robin/java_string",
        group: ROUTE,
        ours: "round_robin_java_string",
        baseline: "java_hashcode_loop_then_mod",
        baseline_name: "hashCode loop + %",
    },
    Comparison {
        label: "reduce x1024",
        group: REDUCE,
        ours: "partition_count_reduce",
        baseline: "hardware_mod",
        baseline_name: "hardware %",
    },
    Comparison {
        label: "sign_safe_mod_i32 x1024",
        group: REDUCE,
        ours: "partition_count_sign_safe_mod_i32",
        baseline: "java_sign_safe_mod",
        baseline_name: "Java signSafeMod port",
    },
];

fn murmur3_crate_then_mod(key: &str, n: u32) -> u32 {
    // Reading from a slice cannot fail; the Result is the crate's API cost.
    let hash = murmur3::murmur3_32(&mut Cursor::new(key.as_bytes()), 0).expect("in-memory read");
    (hash & 0x7fff_ffff) % n
}

fn java_hashcode_loop_then_mod(key: &str, n: u32) -> u32 {
    (naive_java_string_hashcode(key) & i32::MAX) as u32 % n
}

fn bench_route(c: &mut Criterion) {
    let n = PartitionCount::new(PARTITIONS).expect("a valid count");
    let mut group = c.benchmark_group(ROUTE);
    group.throughput(Throughput::Elements(1));
    for scheme in [HashingScheme::Murmur3_32Hash, HashingScheme::JavaStringHash] {
        let naive = match scheme {
            HashingScheme::Murmur3_32Hash => murmur3_32(KEY_32.as_bytes()) % PARTITIONS,
            HashingScheme::JavaStringHash => java_hashcode_loop_then_mod(KEY_32, PARTITIONS),
        };
        // The baselines must pick the same partition, or the ratio compares
        // different work.
        assert_eq!(partition_for_key(KEY_32, n, scheme), naive);
        group.bench_function(format!("partition_for_key_{}", scheme.name()), |b| {
            b.iter(|| partition_for_key(black_box(KEY_32), black_box(n), scheme));
        });

        let router = RoundRobinRouter::with_batching(scheme, 0, 10);
        assert_eq!(
            router.choose_partition(RoutingKey::Key(KEY_32), n, 0),
            naive
        );
        group.bench_function(format!("round_robin_{}", scheme.name()), |b| {
            b.iter(|| router.choose_partition(RoutingKey::Key(black_box(KEY_32)), black_box(n), 0));
        });
    }
    assert_eq!(
        murmur3_crate_then_mod(KEY_32, PARTITIONS),
        murmur3_32(KEY_32.as_bytes()) % PARTITIONS
    );
    group.bench_function("murmur3_32_then_mod", |b| {
        b.iter(|| murmur3_32(black_box(KEY_32).as_bytes()) % black_box(PARTITIONS));
    });
    group.bench_function("murmur3_crate_then_mod", |b| {
        b.iter(|| murmur3_crate_then_mod(black_box(KEY_32), black_box(PARTITIONS)));
    });
    group.bench_function("java_hashcode_loop_then_mod", |b| {
        b.iter(|| java_hashcode_loop_then_mod(black_box(KEY_32), black_box(PARTITIONS)));
    });
    group.finish();
}

fn bench_reduce(c: &mut Criterion) {
    let n = PartitionCount::new(PARTITIONS).expect("a valid count");
    let values = pseudo_random_u32s(BATCH, 1);
    // Reinterpreted, half of them are negative: the wrapped round-robin
    // counter is what `sign_safe_mod_i32` exists for.
    let signed: Vec<i32> = values.iter().map(|&v| v as i32).collect();

    let reduce_sum = |n: PartitionCount, values: &[u32]| {
        values
            .iter()
            .fold(0u32, |acc, &x| acc.wrapping_add(n.reduce(x)))
    };
    let mod_sum =
        |n: u32, values: &[u32]| values.iter().fold(0u32, |acc, &x| acc.wrapping_add(x % n));
    let ssm_sum = |n: PartitionCount, values: &[i32]| {
        values
            .iter()
            .fold(0u32, |acc, &x| acc.wrapping_add(n.sign_safe_mod_i32(x)))
    };
    let java_sum = |n: i32, values: &[i32]| {
        values
            .iter()
            .fold(0i32, |acc, &x| acc.wrapping_add(naive_sign_safe_mod(x, n)))
    };
    assert_eq!(reduce_sum(n, &values), mod_sum(PARTITIONS, &values));
    assert_eq!(
        ssm_sum(n, &signed) as i32,
        java_sum(PARTITIONS as i32, &signed)
    );

    let mut group = c.benchmark_group(REDUCE);
    group.throughput(Throughput::Elements(BATCH as u64));
    group.bench_function("partition_count_reduce", |b| {
        b.iter(|| reduce_sum(black_box(n), black_box(&values)));
    });
    group.bench_function("hardware_mod", |b| {
        b.iter(|| mod_sum(black_box(PARTITIONS), black_box(&values)));
    });
    group.bench_function("partition_count_sign_safe_mod_i32", |b| {
        b.iter(|| ssm_sum(black_box(n), black_box(&signed)));
    });
    group.bench_function("java_sign_safe_mod", |b| {
        b.iter(|| java_sum(black_box(PARTITIONS as i32), black_box(&signed)));
    });
    group.finish();
}

fn main() {
    let since = SystemTime::now();
    let mut criterion = Criterion::default().configure_from_args();
    bench_route(&mut criterion);
    bench_reduce(&mut criterion);
    criterion.final_summary();
    print_ratio_table(&COMPARISONS, since);
}
