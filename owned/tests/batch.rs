//! `pulsar_routing_owned::batch::partitions_for_keys` (AVX2 where the
//! processor has it) gives every key the partition the core's batch gives
//! it (which `core/tests/batch.rs` checks against the one-key path and the
//! golden rows), for random batches of random keys, and neither touches
//! the heap (counted per thread by `common/counting_alloc.rs`).

use proptest::prelude::*;
use pulsar_routing::batch::KeyOffsets;
use pulsar_routing::{HashingScheme, PartitionCount, murmur3_32};
use pulsar_routing_owned::batch::partitions_for_keys;

#[path = "../../core/tests/common/batch_keys.rs"]
mod batch_keys;

use batch_keys::{byte_keys, counts, layout, route, text_keys};

#[path = "common/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::allocations;

fn batch<K: AsRef<[u8]>>(keys: &[K], n: PartitionCount, scheme: HashingScheme) -> Vec<u32> {
    route(partitions_for_keys, keys, n, scheme)
}

fn core_batch<K: AsRef<[u8]>>(keys: &[K], n: PartitionCount, scheme: HashingScheme) -> Vec<u32> {
    route(pulsar_routing::batch::partitions_for_keys, keys, n, scheme)
}

#[test]
fn batches_do_not_allocate() {
    let keys: Vec<String> = (0..100)
        .map(|i| format!("user-{i:08}/{}", "x".repeat(i % 37)))
        .collect();
    let (data, offsets) = layout(&keys);
    let n = PartitionCount::new(12).expect("valid count");
    let mut out = vec![0; keys.len()];
    let batch = KeyOffsets::new(&data, &offsets).expect("offsets in order");
    for scheme in [HashingScheme::Murmur3_32Hash, HashingScheme::JavaStringHash] {
        let before = allocations();
        for _ in 0..3 {
            partitions_for_keys(batch, n, scheme, &mut out).expect("valid batch");
            pulsar_routing::batch::partitions_for_keys(batch, n, scheme, &mut out)
                .expect("valid batch");
            KeyOffsets::new(&data, &offsets).expect("offsets in order");
        }
        assert_eq!(allocations() - before, 0, "{scheme:?} allocated");
    }
}

#[test]
fn refusals_are_the_cores() {
    let n = PartitionCount::new(3).expect("valid count");
    let keys = KeyOffsets::new(b"ok\xffno", &[0, 2, 3, 5]).expect("offsets in order");
    for scheme in [HashingScheme::Murmur3_32Hash, HashingScheme::JavaStringHash] {
        let (mut out, mut theirs) = ([7; 3], [7; 3]);
        assert_eq!(
            partitions_for_keys(keys, n, scheme, &mut out),
            pulsar_routing::batch::partitions_for_keys(keys, n, scheme, &mut theirs)
        );
        assert_eq!(out, theirs, "{scheme:?}");
        assert_eq!(
            partitions_for_keys(keys, n, scheme, &mut [0; 2]),
            pulsar_routing::batch::partitions_for_keys(keys, n, scheme, &mut [0; 2])
        );
    }
}

proptest! {
    #[test]
    fn same_partitions_as_the_core(keys in byte_keys(), n in counts()) {
        // The core's batch is checked key by key in core/tests/batch.rs.
        let core = core_batch(&keys, n, HashingScheme::Murmur3_32Hash);
        prop_assert_eq!(batch(&keys, n, HashingScheme::Murmur3_32Hash), core);
    }

    #[test]
    fn same_java_partitions_as_the_core(keys in text_keys(), n in counts()) {
        let core = core_batch(&keys, n, HashingScheme::JavaStringHash);
        prop_assert_eq!(batch(&keys, n, HashingScheme::JavaStringHash), core);
    }
}

#[test]
fn some_keys_one_at_a_time() {
    // Uneven and even groups, every tail length, with and without whole
    // 16-byte chunks.
    let keys: Vec<Vec<u8>> = (0..64)
        .map(|i| (0..(i * 7) % 70).map(|b| (b * 31 + i) as u8).collect())
        .collect();
    let n = PartitionCount::new(1_000_003).expect("valid count");
    for (key, p) in keys
        .iter()
        .zip(batch(&keys, n, HashingScheme::Murmur3_32Hash))
    {
        assert_eq!(p, n.reduce(murmur3_32(key)), "{} bytes", key.len());
    }
}
