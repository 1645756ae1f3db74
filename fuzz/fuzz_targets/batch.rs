//! Batch routing over Arrow-style offsets, on arbitrary bytes and offsets:
//!
//! - offsets are accepted exactly when they are non-empty, never decrease
//!   and stay within the data, and a refusal names the first bad offset;
//! - an accepted batch routes every key as the one-key path does (Murmur3
//!   over the raw bytes, JavaStringHash over the text), in the core's
//!   lanes and in the owned crate's AVX2 lanes alike;
//! - JavaStringHash refuses exactly the batches with a key that is not
//!   UTF-8, names the first one, and then writes nothing.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use pulsar_routing::batch::{BatchError, KeyOffsets, partitions_for_keys};
use pulsar_routing::{HashingScheme, PartitionCount, murmur3_32, partition_for_key};

/// Untouched output entries hold this, so a write on refusal shows.
const UNWRITTEN: u32 = u32::MAX;

#[derive(Arbitrary, Debug)]
struct Input {
    data: Vec<u8>,
    /// Key lengths, so that most inputs are valid batches.
    lengths: Vec<u8>,
    /// Offsets taken as they are, for the refusals.
    raw_offsets: Option<Vec<u16>>,
    start: u8,
    count: u32,
    java: bool,
}

/// What the offsets' checks must say, worked out the plain way.
fn expected_check(data: &[u8], offsets: &[usize]) -> Result<(), BatchError> {
    let Some(&first) = offsets.first() else {
        return Err(BatchError::NoOffsets);
    };
    if first > data.len() {
        return Err(BatchError::OffsetPastEnd { index: 0 });
    }
    for i in 1..offsets.len() {
        if offsets[i] < offsets[i - 1] {
            return Err(BatchError::OffsetDecreases { index: i });
        }
        if offsets[i] > data.len() {
            return Err(BatchError::OffsetPastEnd { index: i });
        }
    }
    Ok(())
}

fuzz_target!(|input: Input| {
    let offsets: Vec<usize> = match &input.raw_offsets {
        Some(raw) => raw.iter().map(|&o| usize::from(o)).collect(),
        None => {
            let mut at = usize::from(input.start);
            let mut offsets = vec![at];
            for &len in &input.lengths {
                at += usize::from(len);
                offsets.push(at);
            }
            offsets
        }
    };
    let data = &input.data;
    let checked = KeyOffsets::new(data, &offsets);
    assert_eq!(checked.map(|_| ()), expected_check(data, &offsets));
    let (Ok(keys), Ok(n)) = (checked, PartitionCount::new(input.count)) else {
        return;
    };
    let scheme = if input.java {
        HashingScheme::JavaStringHash
    } else {
        HashingScheme::Murmur3_32Hash
    };
    let first_bad = (0..keys.len()).find(|&i| std::str::from_utf8(keys.get(i).unwrap()).is_err());
    assert_eq!(keys.first_invalid_utf8(), first_bad);

    let mut core_out = vec![UNWRITTEN; keys.len()];
    let mut owned_out = vec![UNWRITTEN; keys.len()];
    let core = partitions_for_keys(keys, n, scheme, &mut core_out);
    let owned = pulsar_routing_owned::batch::partitions_for_keys(keys, n, scheme, &mut owned_out);
    assert_eq!(core, owned);
    match (scheme, first_bad) {
        (HashingScheme::JavaStringHash, Some(index)) => {
            assert_eq!(core, Err(BatchError::InvalidUtf8 { index }));
            assert!(core_out.iter().chain(&owned_out).all(|&p| p == UNWRITTEN));
        }
        _ => {
            assert_eq!(core, Ok(()));
            assert_eq!(core_out, owned_out);
            for (i, &p) in core_out.iter().enumerate() {
                let key = keys.get(i).unwrap();
                let expected = match scheme {
                    HashingScheme::Murmur3_32Hash => murmur3_32(key) % n.get(),
                    HashingScheme::JavaStringHash => {
                        partition_for_key(std::str::from_utf8(key).unwrap(), n, scheme)
                    }
                };
                assert_eq!(p, expected, "key {i}: {key:?}");
            }
        }
    }
    // A wrong-sized output is refused before anything is written.
    let mut short = vec![UNWRITTEN; keys.len() + 1];
    assert_eq!(
        partitions_for_keys(keys, n, scheme, &mut short),
        Err(BatchError::OutputLength {
            keys: keys.len(),
            output: keys.len() + 1
        })
    );
    assert!(short.iter().all(|&p| p == UNWRITTEN));
});
