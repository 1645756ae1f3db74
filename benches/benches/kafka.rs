//! Kafka's keyed routing against Pulsar's, for the same 32-byte key
//! (`KEY_32`) and 12 partitions:
//!
//! - `pulsar_murmur3_32`, the baseline: Pulsar's Java client with
//!   `HashingScheme.Murmur3_32Hash`, `partition_for_key(key, n, Murmur3_32Hash)`.
//! - `kafka_partition_for_key`: the Kafka Java client's keyed rule,
//!   `toPositive(murmur2(key)) % n` (`kafka::partition_for_key`).
//! - `librdkafka_murmur2`: librdkafka's `murmur2` partitioner, the same rule.
//! - `kafka_murmur2` and `pulsar_murmur3` (diagnostic): the two hashes alone.
//!
//! The ratio table says how much Kafka's rule costs relative to Pulsar's;
//! there is no goal, the two compute different things.
//!
//! Run:
//! - `scripts/bench.sh` (every bench), or
//! - `cargo bench -p pulsar-routing-benches --bench kafka [-- <criterion args>]`.
//!
//! `cargo test --benches` runs each benchmark once, as a smoke test.

use std::hint::black_box;
use std::time::SystemTime;

use criterion::{Criterion, Throughput};
use pulsar_routing::kafka::{self, LibrdkafkaPartitioner, murmur2};
use pulsar_routing::{HashingScheme, PartitionCount, murmur3_32, partition_for_key};
use pulsar_routing_benches::{Comparison, KEY_32, PARTITIONS, print_ratio_table};

const GROUP: &str = "kafka_vs_pulsar_32b";
const BASELINE: &str = "pulsar_murmur3_32";
const BASELINE_NAME: &str = "Pulsar Murmur3_32 routing";

const fn comparison(label: &'static str, ours: &'static str) -> Comparison {
    Comparison {
        label,
        group: GROUP,
        ours,
        baseline: BASELINE,
        baseline_name: BASELINE_NAME,
    }
}

const COMPARISONS: [Comparison; 4] = [
    comparison(
        "Kafka partition_for_key (murmur2)",
        "kafka_partition_for_key",
    ),
    comparison("librdkafka murmur2 partitioner", "librdkafka_murmur2"),
    comparison("murmur2(key) alone", "kafka_murmur2"),
    comparison("murmur3_32(key) alone", "pulsar_murmur3"),
];

fn bench_kafka(c: &mut Criterion) {
    let n = PartitionCount::new(PARTITIONS).expect("a valid count");
    let key = KEY_32.as_bytes();
    // Both Kafka paths are the same rule; check it before timing it.
    let kafka_partition = kafka::partition_for_key(key, n);
    assert_eq!(kafka_partition, (murmur2(key) & 0x7fff_ffff) % PARTITIONS);
    assert_eq!(
        LibrdkafkaPartitioner::Murmur2.partition_for_key(Some(key), n),
        Some(kafka_partition)
    );
    assert_eq!(
        partition_for_key(KEY_32, n, HashingScheme::Murmur3_32Hash),
        murmur3_32(key) % PARTITIONS
    );

    let mut group = c.benchmark_group(GROUP);
    group.throughput(Throughput::Elements(1));
    group.bench_function(BASELINE, |b| {
        b.iter(|| {
            partition_for_key(
                black_box(KEY_32),
                black_box(n),
                HashingScheme::Murmur3_32Hash,
            )
        });
    });
    group.bench_function("kafka_partition_for_key", |b| {
        b.iter(|| kafka::partition_for_key(black_box(KEY_32).as_bytes(), black_box(n)));
    });
    group.bench_function("librdkafka_murmur2", |b| {
        b.iter(|| {
            LibrdkafkaPartitioner::Murmur2
                .partition_for_key(Some(black_box(KEY_32).as_bytes()), black_box(n))
        });
    });
    group.bench_function("kafka_murmur2", |b| {
        b.iter(|| murmur2(black_box(KEY_32).as_bytes()));
    });
    group.bench_function("pulsar_murmur3", |b| {
        b.iter(|| murmur3_32(black_box(KEY_32).as_bytes()));
    });
    group.finish();
}

fn main() {
    let since = SystemTime::now();
    let mut criterion = Criterion::default().configure_from_args();
    bench_kafka(&mut criterion);
    criterion.final_summary();
    print_ratio_table(&COMPARISONS, since);
}
