//! Key counts against a `BTreeMap`, on arbitrary keys and weights:
//!
//! - one key at a time and in Arrow-style batches (whose groups are
//!   prefetched) give the same distinct keys, sums, rows and keyless weight
//!   as summing into a map by hand, in the map's (byte) order, whatever the
//!   keys' lengths around the 16 bytes a slot holds and however much the
//!   table grows;
//! - a bad weight is refused, with its index, and adds nothing;
//! - `write_sorted` lays the sorted keys out as Arrow does.
#![no_main]

use std::collections::BTreeMap;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use pulsar_routing::batch::KeyOffsets;
use pulsar_routing_owned::key_counts::{KeyCounts, KeyCountsError};

#[derive(Arbitrary, Debug)]
struct Row {
    /// A key built from a shared stem, so that heads and prefixes tie.
    stem: u8,
    tail: Vec<u8>,
    /// `false` for a keyless row.
    keyed: bool,
    weight: u8,
}

#[derive(Arbitrary, Debug)]
struct Input {
    rows: Vec<Row>,
    /// Where to cut the rows into batches.
    batch: u8,
    /// A weight to try that may be bad.
    odd_weight: f64,
}

fn key_of(row: &Row) -> Vec<u8> {
    let mut key = vec![b'k'; usize::from(row.stem % 24)];
    key.extend_from_slice(&row.tail);
    key
}

fuzz_target!(|input: Input| {
    let mut expected: BTreeMap<Vec<u8>, f64> = BTreeMap::new();
    let mut keyless = None;
    let mut one = KeyCounts::new();
    for row in &input.rows {
        let w = f64::from(row.weight);
        if row.keyed {
            let key = key_of(row);
            one.add(&key, w).unwrap();
            *expected.entry(key).or_default() += w;
        } else {
            one.add_keyless(w).unwrap();
            keyless = Some(keyless.unwrap_or(0.0) + w);
        }
    }
    let want: Vec<(Vec<u8>, f64)> = expected.into_iter().collect();
    let got: Vec<(Vec<u8>, f64)> = one.sorted().map(|(k, w)| (k.to_vec(), w)).collect();
    assert_eq!(got, want);
    assert_eq!(one.keyless_weight(), keyless);
    assert_eq!(one.rows(), input.rows.len() as u64);

    // The keyed rows in batches.
    let keyed: Vec<&Row> = input.rows.iter().filter(|r| r.keyed).collect();
    let mut batched = KeyCounts::new();
    let size = usize::from(input.batch).max(1);
    for chunk in keyed.chunks(size) {
        let keys: Vec<Vec<u8>> = chunk.iter().map(|r| key_of(r)).collect();
        let data: Vec<u8> = keys.concat();
        let mut offsets = vec![0];
        for key in &keys {
            offsets.push(offsets[offsets.len() - 1] + key.len());
        }
        let weights: Vec<f64> = chunk.iter().map(|r| f64::from(r.weight)).collect();
        let batch = KeyOffsets::new(&data, &offsets).unwrap();
        batched.add_batch(batch, Some(&weights)).unwrap();
    }
    let got: Vec<(Vec<u8>, f64)> = batched.sorted().map(|(k, w)| (k.to_vec(), w)).collect();
    assert_eq!(got, want);

    // A possibly bad weight, last in a batch: refused with its index, and
    // nothing of the batch added.
    let odd = input.odd_weight;
    let before: Vec<(Vec<u8>, f64)> = batched.sorted().map(|(k, w)| (k.to_vec(), w)).collect();
    let refused = batched.add_batch(
        KeyOffsets::new(b"xy", &[0, 1, 2]).unwrap(),
        Some(&[1.0, odd]),
    );
    if odd.is_finite() && odd >= 0.0 {
        refused.unwrap();
    } else {
        assert_eq!(refused, Err(KeyCountsError::InvalidWeight { index: 1 }));
        let after: Vec<(Vec<u8>, f64)> = batched.sorted().map(|(k, w)| (k.to_vec(), w)).collect();
        assert_eq!(after, before);
    }

    // Arrow's layout of the one-at-a-time counts.
    let mut data = vec![0; one.total_key_bytes()];
    let mut offsets = vec![0; one.len() + 1];
    let mut weights = vec![0.0; one.len()];
    one.write_sorted(&mut data, &mut offsets, &mut weights)
        .unwrap();
    for (i, (key, w)) in want.iter().enumerate() {
        let (start, end) = (offsets[i] as usize, offsets[i + 1] as usize);
        assert_eq!(&data[start..end], key.as_slice());
        assert_eq!(weights[i], *w);
    }
});
