//! MurmurHash3 x86_32 (Pulsar's `Murmur3_32Hash`): `pulsar_routing::murmur3_32`
//! against the `murmur3` crate 0.5 (`murmur3_32(&mut Cursor, 0)`, masked to
//! 31 bits the way Pulsar masks it), at 16, 32, 64 and 256 bytes, side by side
//! in one process. Throughput is in bytes.
//!
//! After the measurements it prints a ratio table from the estimates
//! criterion wrote.
//!
//! Run:
//! - `scripts/bench.sh` (every bench; `scripts/bench.sh --quick` takes about
//!   a minute), or
//! - `cargo bench -p pulsar-routing-benches --bench murmur3 [-- <criterion args>]`.
//!
//! `cargo test --benches` runs each benchmark once, as a smoke test.

use std::hint::black_box;
use std::io::Cursor;
use std::time::SystemTime;

use criterion::{BenchmarkId, Criterion, Throughput};
use pulsar_routing_benches::{Comparison, print_ratio_table, pseudo_random_bytes};

const SIZES: [usize; 4] = [16, 32, 64, 256];

const COMPARISONS: [Comparison; 4] = [
    comparison("murmur3_32/16B", "pulsar_routing/16", "murmur3_crate/16"),
    comparison("murmur3_32/32B", "pulsar_routing/32", "murmur3_crate/32"),
    comparison("murmur3_32/64B", "pulsar_routing/64", "murmur3_crate/64"),
    comparison("murmur3_32/256B", "pulsar_routing/256", "murmur3_crate/256"),
];

const fn comparison(label: &'static str, ours: &'static str, baseline: &'static str) -> Comparison {
    Comparison {
        label,
        group: "murmur3_32",
        ours,
        baseline,
        baseline_name: "murmur3 crate",
    }
}

fn murmur3_crate(data: &[u8]) -> u32 {
    // Reading from a slice cannot fail; the Result is the crate's API cost.
    murmur3::murmur3_32(&mut Cursor::new(data), 0).expect("in-memory read") & 0x7fff_ffff
}

fn bench_murmur3_32(c: &mut Criterion) {
    let mut group = c.benchmark_group("murmur3_32");
    for size in SIZES {
        let data = pseudo_random_bytes(size, size as u64);
        // A ratio between two functions is only meaningful if they compute
        // the same thing.
        assert_eq!(pulsar_routing::murmur3_32(&data), murmur3_crate(&data));
        group.throughput(Throughput::Bytes(size as u64));
        group.bench_with_input(
            BenchmarkId::new("pulsar_routing", size),
            &data,
            |b, data| {
                b.iter(|| pulsar_routing::murmur3_32(black_box(data)));
            },
        );
        group.bench_with_input(BenchmarkId::new("murmur3_crate", size), &data, |b, data| {
            b.iter(|| murmur3_crate(black_box(data)));
        });
    }
    group.finish();
}

fn main() {
    let since = SystemTime::now();
    let mut criterion = Criterion::default().configure_from_args();
    bench_murmur3_32(&mut criterion);
    criterion.final_summary();
    print_ratio_table(&COMPARISONS, since);
}
