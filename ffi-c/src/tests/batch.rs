//! The batch call against the single call it must agree with, its checks,
//! and the single call's treatment of bytes that are not UTF-8.

use core::ptr::{null, null_mut};

use crate::batch::pulsar_routing_partitions_for_keys;
use crate::error::pulsar_routing_status as S;
use crate::last_error::pulsar_routing_last_error_message;
use crate::routing_key::*;
use pulsar_routing_core::{PartitionCount, murmur3_32};

const JAVA: pulsar_routing_hashing_scheme = PULSAR_ROUTING_HASHING_SCHEME_JAVA_STRING;
const MURMUR: pulsar_routing_hashing_scheme = PULSAR_ROUTING_HASHING_SCHEME_MURMUR3_32;
const SENTINEL: u32 = 0xdead_beef;

/// The batch call over `data` and `offsets`, into `out` (one entry per key).
fn batch(data: &[u8], offsets: &[usize], n: i64, scheme: u32, out: &mut [u32]) -> S {
    assert_eq!(out.len() + 1, offsets.len());
    // SAFETY: the slices are live and as long as the call reads.
    unsafe {
        pulsar_routing_partitions_for_keys(
            data.as_ptr(),
            offsets.as_ptr(),
            out.len(),
            n,
            scheme,
            out.as_mut_ptr(),
        )
    }
}

fn single(key: &[u8], n: i64, scheme: u32) -> Result<u32, S> {
    let mut out = SENTINEL;
    // SAFETY: the key and the output are live.
    let status =
        unsafe { pulsar_routing_partition_for_key(key.as_ptr(), key.len(), n, scheme, &mut out) };
    if status == S::Ok {
        Ok(out)
    } else {
        Err(status)
    }
}

fn last_message(status: S) -> String {
    let mut buf = [0u8; 256];
    let mut written = 0;
    // SAFETY: the buffer and the length are live locals.
    let s = unsafe {
        pulsar_routing_last_error_message(status as u32, buf.as_mut_ptr(), buf.len(), &mut written)
    };
    assert_eq!(s, S::Ok);
    String::from_utf8(buf[..written].to_vec()).unwrap()
}

#[test]
fn agrees_with_the_single_call() {
    // Text of 0 to 70 bytes, ASCII and not, so that every tail length of the
    // hash and both schemes' decoding are exercised; 3 leading bytes so
    // that the first offset is not 0, as in a sliced Arrow column.
    let mut data = b"xyz".to_vec();
    let mut offsets = vec![3];
    for i in 0..140usize {
        let key: String = (0..i / 2)
            .map(|j| {
                if (i + j) % 5 == 0 {
                    'é'
                } else {
                    char::from(b'a' + (j % 26) as u8)
                }
            })
            .collect();
        data.extend_from_slice(key.as_bytes());
        offsets.push(data.len());
    }
    for scheme in [JAVA, MURMUR] {
        for n in [1, 2, 7, 12, 1000, i64::from(PartitionCount::MAX)] {
            let mut out = vec![SENTINEL; offsets.len() - 1];
            assert_eq!(batch(&data, &offsets, n, scheme, &mut out), S::Ok);
            for (i, &p) in out.iter().enumerate() {
                let key = &data[offsets[i]..offsets[i + 1]];
                assert_eq!(Ok(p), single(key, n, scheme), "key {i}, n {n}");
            }
        }
    }
}

#[test]
fn murmur3_hashes_bytes_that_are_not_utf8() {
    // Each key alone is not UTF-8: "é" split in two, and a lone 0xff.
    let data = "aé"
        .as_bytes()
        .iter()
        .copied()
        .chain([0xff])
        .collect::<Vec<_>>();
    let offsets = [0, 1, 2, 3, 4];
    let mut out = [SENTINEL; 4];
    assert_eq!(batch(&data, &offsets, 12, MURMUR, &mut out), S::Ok);
    for (i, &p) in out.iter().enumerate() {
        let key = &data[offsets[i]..offsets[i + 1]];
        // The C++ client hashes a std::string's bytes as they are.
        assert_eq!(p, (murmur3_32(key) & 0x7fff_ffff) % 12);
        assert_eq!(single(key, 12, MURMUR), Ok(p));
    }

    // JavaStringHash needs text: nothing is written, and the message names
    // the first bad key.
    let mut out = [SENTINEL; 4];
    assert_eq!(batch(&data, &offsets, 12, JAVA, &mut out), S::InvalidUtf8);
    assert_eq!(out, [SENTINEL; 4]);
    assert_eq!(last_message(S::InvalidUtf8), "key 1 is not valid UTF-8");
    assert_eq!(single(&data[3..4], 12, JAVA), Err(S::InvalidUtf8));
    // Before the partition count and the scheme, in parameter order.
    assert_eq!(batch(&data, &offsets, 0, JAVA, &mut out), S::InvalidUtf8);
    assert_eq!(single(&data[3..4], 0, JAVA), Err(S::InvalidUtf8));
    // Under an unknown scheme the bytes are not wrong, the scheme is.
    assert_eq!(single(&data[3..4], 12, 2), Err(S::UnknownHashingScheme));
}

#[test]
fn offsets_are_checked_before_anything_is_written() {
    let data = b"abcdef";
    let mut out = [SENTINEL; 3];
    assert_eq!(
        batch(data, &[0, 4, 2, 6], 12, MURMUR, &mut out),
        S::BatchOffsetDecreases
    );
    assert_eq!(
        last_message(S::BatchOffsetDecreases),
        "key offset 2 is smaller than the offset before it"
    );
    // The last offset ends the data: one above it is past the end.
    assert_eq!(
        batch(data, &[0, 5, 6, 3], 12, MURMUR, &mut out),
        S::BatchOffsetPastEnd
    );
    assert_eq!(
        last_message(S::BatchOffsetPastEnd),
        "key offset 1 points past the end of the key data"
    );
    assert_eq!(out, [SENTINEL; 3]);
    // Offsets before the partition count, in parameter order.
    assert_eq!(
        batch(data, &[0, 4, 2, 6], 0, MURMUR, &mut out),
        S::BatchOffsetDecreases
    );
    assert_eq!(out, [SENTINEL; 3]);
}

#[test]
fn counts_schemes_and_nulls() {
    let data = b"abc";
    let offsets = [0, 1, 3];
    let mut out = [SENTINEL; 2];
    for (n, status) in [
        (0, S::PartitionCountZero),
        (-1, S::PartitionCountNegative),
        (
            i64::from(PartitionCount::MAX) + 1,
            S::PartitionCountTooLarge,
        ),
    ] {
        assert_eq!(batch(data, &offsets, n, MURMUR, &mut out), status);
        assert_eq!(single(b"a", n, MURMUR), Err(status));
    }
    assert_eq!(
        batch(data, &offsets, 3, 2, &mut out),
        S::UnknownHashingScheme
    );
    assert_eq!(out, [SENTINEL; 2]);

    // SAFETY: every pointer is NULL or a live local at least as long as
    // the call reads; `usize::MAX` keys are refused before any read.
    unsafe {
        let (d, o, p) = (data.as_ptr(), offsets.as_ptr(), out.as_mut_ptr());
        let f = pulsar_routing_partitions_for_keys;
        for count in [0, 2] {
            assert_eq!(f(null(), o, count, 3, MURMUR, p), S::NullParameter);
            assert_eq!(f(d, null(), count, 3, MURMUR, p), S::NullParameter);
            assert_eq!(f(d, o, count, 3, MURMUR, null_mut()), S::NullParameter);
        }
        // NULL wins over every other error.
        assert_eq!(f(null(), o, 2, 0, 9, p), S::NullParameter);
        assert_eq!(f(d, o, usize::MAX, 3, MURMUR, p), S::BatchNoOffsets);
        // An empty batch succeeds and writes nothing.
        assert_eq!(f(d, o, 0, 3, MURMUR, p), S::Ok);
        assert_eq!(f(d, o, 0, 3, JAVA, p), S::Ok);
    }
    assert_eq!(out, [SENTINEL; 2]);
}

#[test]
fn the_one_shot_count_is_checked_as_partition_count_is() {
    for n in [
        i64::MIN,
        -1,
        0,
        1,
        12,
        i64::from(PartitionCount::MAX),
        i64::from(PartitionCount::MAX) + 1,
        i64::from(u32::MAX),
        i64::MAX,
    ] {
        assert_eq!(
            one_shot_count(n),
            PartitionCount::from_i64(n).map(PartitionCount::get),
            "{n}"
        );
    }
}
