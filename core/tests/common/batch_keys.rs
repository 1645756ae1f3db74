//! Random batches, and a batch routed in one call, for the batch-routing
//! tests of the core
//! (`core/tests/batch.rs`) and of `pulsar-routing-owned`
//! (`owned/tests/batch.rs`, which includes this file by path).

#![allow(dead_code)]

use proptest::prelude::*;
use pulsar_routing::batch::{BatchError, KeyOffsets};
use pulsar_routing::{HashingScheme, PartitionCount};

/// Keys laid out as a batch: the bytes and `keys.len() + 1` offsets.
pub fn layout<K: AsRef<[u8]>>(keys: &[K]) -> (Vec<u8>, Vec<usize>) {
    let mut data = Vec::new();
    let mut offsets = vec![0];
    for key in keys {
        data.extend_from_slice(key.as_ref());
        offsets.push(data.len());
    }
    (data, offsets)
}

/// A batch routing function: the core's, or the owned crate's.
pub type BatchFn =
    fn(KeyOffsets<'_>, PartitionCount, HashingScheme, &mut [u32]) -> Result<(), BatchError>;

/// The partitions `f` gives `keys`, laid out as one batch.
pub fn route<K: AsRef<[u8]>>(
    f: BatchFn,
    keys: &[K],
    n: PartitionCount,
    scheme: HashingScheme,
) -> Vec<u32> {
    let (data, offsets) = layout(keys);
    let mut out = vec![u32::MAX; keys.len()];
    let keys = KeyOffsets::new(&data, &offsets).expect("offsets in order");
    f(keys, n, scheme, &mut out).expect("one slot per key");
    out
}

/// Small counts (many keys per partition) and any valid count.
pub fn counts() -> impl Strategy<Value = PartitionCount> {
    prop_oneof![1u32..=64, 1..=PartitionCount::MAX]
        .prop_map(|n| PartitionCount::new(n).expect("in range"))
}

/// Keys of random lengths up to 300 bytes, or all of one random length,
/// or of nearly one length: lanes that share all their blocks, some of
/// them, or few, with every tail length.
pub fn byte_keys() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop_oneof![
        prop::collection::vec(prop::collection::vec(any::<u8>(), 0..=300), 0..40),
        (0usize..=300, 0usize..40).prop_flat_map(|(len, count)| {
            prop::collection::vec(prop::collection::vec(any::<u8>(), len), count)
        }),
        (0usize..=290, 0usize..40).prop_flat_map(|(len, count)| {
            prop::collection::vec(prop::collection::vec(any::<u8>(), len..len + 10), count)
        }),
    ]
}

/// Text keys for the scheme that hashes UTF-16 units.
pub fn text_keys() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(".{0,40}", 0..40)
}
