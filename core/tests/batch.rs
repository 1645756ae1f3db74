//! Batch routing (`batch::partitions_for_keys`, eight Murmur3 keys side by
//! side) gives every key the partition the one-key path gives it: on the
//! golden rows, and on random batches of random keys.

#[path = "common/batch_keys.rs"]
mod batch_keys;
mod common;

use batch_keys::{byte_keys, counts, route, text_keys};
use common::{golden, int, text, unhex};
use proptest::prelude::*;
use pulsar_routing::batch::partitions_for_keys;
use pulsar_routing::{HashingScheme, PartitionCount, murmur3_32, partition_for_key};

fn batch<K: AsRef<[u8]>>(keys: &[K], n: PartitionCount, scheme: HashingScheme) -> Vec<u32> {
    route(partitions_for_keys, keys, n, scheme)
}

#[test]
fn golden_keyed_rows_through_the_batch() {
    let rows = golden("routing");
    let keyed: Vec<_> = rows.iter().filter(|r| text(r, "kind") == "keyed").collect();
    assert!(!keyed.is_empty());
    // One batch per (scheme, count), in file order, so that the lanes see
    // the golden keys side by side.
    let mut groups = std::collections::BTreeMap::<(String, i64), Vec<_>>::new();
    for row in keyed {
        let key = (text(row, "scheme").to_owned(), int(row, "num_partitions"));
        groups.entry(key).or_default().push(row);
    }
    for ((scheme, count), rows) in groups {
        let scheme: HashingScheme = scheme.parse().expect("known scheme");
        let n = PartitionCount::from_i64(count).expect("valid count");
        let keys: Vec<Vec<u8>> = rows
            .iter()
            .map(|r| unhex(text(r, "key_utf8_hex")))
            .collect();
        let got = batch(&keys, n, scheme);
        for (row, p) in rows.iter().zip(got) {
            assert_eq!(i64::from(p), int(row, "partition"), "{row}");
        }
    }
}

#[test]
fn golden_hash_rows_through_the_batch() {
    // With the largest count, a 31-bit hash h routes to h, or to 0 for
    // h = 2^31 - 1: the batch must reproduce every golden Murmur3 hash.
    let rows = golden("hash");
    let keys: Vec<Vec<u8>> = rows.iter().map(|r| unhex(text(r, "key_hex"))).collect();
    let n = PartitionCount::new(PartitionCount::MAX).expect("valid count");
    let got = batch(&keys, n, HashingScheme::Murmur3_32Hash);
    for (row, p) in rows.iter().zip(got) {
        let hash = int(row, "murmur3_32");
        assert_eq!(i64::from(p), hash % i64::from(PartitionCount::MAX), "{row}");
    }
}

proptest! {
    #[test]
    fn murmur3_batch_matches_one_key_at_a_time(keys in byte_keys(), n in counts()) {
        let got = batch(&keys, n, HashingScheme::Murmur3_32Hash);
        for (key, p) in keys.iter().zip(got) {
            prop_assert_eq!(p, n.reduce(murmur3_32(key)), "{} bytes", key.len());
        }
    }

    #[test]
    fn java_batch_matches_one_key_at_a_time(
        keys in text_keys(),
        n in counts(),
    ) {
        let got = batch(&keys, n, HashingScheme::JavaStringHash);
        for (key, p) in keys.iter().zip(got) {
            prop_assert_eq!(p, partition_for_key(key, n, HashingScheme::JavaStringHash));
        }
    }
}
