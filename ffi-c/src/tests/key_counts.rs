//! Key counts through the C ABI: sums per distinct key, byte order, the
//! batch against single adds, keyless rows, refused weights and offsets
//! that add nothing, output buffers checked before anything is written,
//! and NULLs. Expected values are summed by hand from the rows.

use core::ptr::{null, null_mut};

use pulsar_routing_owned::key_counts::KeyCountsError;

use super::api::last_error as last_message;
use crate::error::pulsar_routing_status as S;
use crate::key_counts::*;

/// Counts freed on drop.
struct Counts(*mut pulsar_routing_key_counts);

impl Counts {
    fn new() -> Self {
        let mut raw = null_mut();
        // SAFETY: a live out-parameter.
        assert_eq!(unsafe { pulsar_routing_key_counts_new(&mut raw) }, S::Ok);
        assert!(!raw.is_null());
        Self(raw)
    }

    fn add(&self, key: &[u8], weight: f64) -> S {
        // SAFETY: live counts, a live key of `key.len()` bytes.
        unsafe { pulsar_routing_key_counts_add(self.0, key.as_ptr(), key.len(), weight) }
    }

    fn add_keyless(&self, weight: f64) -> S {
        // SAFETY: live counts.
        unsafe { pulsar_routing_key_counts_add_keyless(self.0, weight) }
    }

    fn add_batch(&self, data: &[u8], offsets: &[usize], weights: Option<&[f64]>) -> S {
        let count = offsets.len() - 1;
        if let Some(w) = weights {
            assert_eq!(w.len(), count);
        }
        let weights = weights.map_or(null(), <[f64]>::as_ptr);
        // SAFETY: `offsets` holds count + 1 offsets into `data`, or the
        // call refuses them before reading past them; `weights` is NULL or
        // holds `count` weights.
        unsafe {
            pulsar_routing_key_counts_add_batch(
                self.0,
                data.as_ptr(),
                offsets.as_ptr(),
                count,
                weights,
            )
        }
    }

    fn len(&self) -> usize {
        let mut n = usize::MAX;
        // SAFETY: live counts and out-parameter.
        let status = unsafe { pulsar_routing_key_counts_len(self.0, &mut n) };
        assert_eq!(status, S::Ok);
        n
    }

    fn rows(&self) -> u64 {
        let mut n = u64::MAX;
        // SAFETY: live counts and out-parameter.
        let status = unsafe { pulsar_routing_key_counts_rows(self.0, &mut n) };
        assert_eq!(status, S::Ok);
        n
    }

    fn total_key_bytes(&self) -> usize {
        let mut n = usize::MAX;
        // SAFETY: live counts and out-parameter.
        let status = unsafe { pulsar_routing_key_counts_total_key_bytes(self.0, &mut n) };
        assert_eq!(status, S::Ok);
        n
    }

    fn keyless(&self) -> Option<f64> {
        let (mut weight, mut present) = (-1.0, true);
        // SAFETY: live counts and out-parameters.
        let status =
            unsafe { pulsar_routing_key_counts_keyless_weight(self.0, &mut weight, &mut present) };
        assert_eq!(status, S::Ok);
        if !present {
            assert_eq!(weight, 0.0, "no keyless row gives weight 0");
        }
        present.then_some(weight)
    }

    /// The sorted keys and weights, read back from the Arrow layout.
    fn sorted(&self) -> Vec<(Vec<u8>, f64)> {
        let mut data = vec![0u8; self.total_key_bytes()];
        let mut offsets = vec![u64::MAX; self.len() + 1];
        let mut weights = vec![-1.0; self.len()];
        // SAFETY: live counts and buffers of the lengths given.
        let status = unsafe {
            pulsar_routing_key_counts_write_sorted(
                self.0,
                data.as_mut_ptr(),
                data.len(),
                offsets.as_mut_ptr(),
                offsets.len(),
                weights.as_mut_ptr(),
                weights.len(),
            )
        };
        assert_eq!(status, S::Ok);
        assert_eq!(offsets[0], 0);
        (0..weights.len())
            .map(|i| {
                let key = &data[offsets[i] as usize..offsets[i + 1] as usize];
                (key.to_vec(), weights[i])
            })
            .collect()
    }
}

impl Drop for Counts {
    fn drop(&mut self) {
        // SAFETY: counts from `_new`, freed once.
        unsafe { pulsar_routing_key_counts_free(self.0) }
    }
}

fn owned(key: &str, weight: f64) -> (Vec<u8>, f64) {
    (key.as_bytes().to_vec(), weight)
}

#[test]
fn sums_per_key_in_byte_order() {
    let counts = Counts::new();
    assert_eq!(counts.sorted(), []);
    assert_eq!(
        (counts.len(), counts.rows(), counts.keyless()),
        (0, 0, None)
    );
    for (key, weight) in [
        ("pear", 1.0),
        ("apple", 2.0),
        ("", 0.5),
        ("pea", 4.0),
        ("apple", 0.25),
    ] {
        assert_eq!(counts.add(key.as_bytes(), weight), S::Ok);
    }
    // apple 2 + 0.25; "" before every key, "pea" before "pear" (a prefix
    // sorts first).
    assert_eq!(
        counts.sorted(),
        [
            owned("", 0.5),
            owned("apple", 2.25),
            owned("pea", 4.0),
            owned("pear", 1.0)
        ]
    );
    assert_eq!((counts.len(), counts.rows()), (4, 5));
    // "pear" + "apple" + "" + "pea": each distinct key's bytes once.
    assert_eq!(counts.total_key_bytes(), 12);
    assert_eq!(counts.keyless(), None);
    assert_eq!(counts.add_keyless(0.0), S::Ok);
    assert_eq!(counts.keyless(), Some(0.0));
    assert_eq!(counts.add_keyless(3.0), S::Ok);
    assert_eq!(
        (counts.keyless(), counts.rows(), counts.len()),
        (Some(3.0), 7, 4)
    );
}

#[test]
fn bytes_are_compared_as_bytes() {
    let counts = Counts::new();
    // 0xff sorts after every ASCII byte; "\xc3\xa9" (é) between them.
    for key in [&b"\xff"[..], b"z", b"\xc3\xa9", b"\xff", b"\x00", b"z\x00"] {
        assert_eq!(counts.add(key, 1.0), S::Ok);
    }
    assert_eq!(
        counts.sorted(),
        [
            (b"\x00".to_vec(), 1.0),
            (b"z".to_vec(), 1.0),
            (b"z\x00".to_vec(), 1.0),
            (b"\xc3\xa9".to_vec(), 1.0),
            (b"\xff".to_vec(), 2.0),
        ]
    );
}

#[test]
fn a_batch_counts_as_single_adds_do() {
    // A column slice: "xx" is before the first key.
    let data = b"xxbaab";
    let offsets = [2, 3, 4, 4, 5, 6];
    let batch = Counts::new();
    assert_eq!(batch.add_batch(data, &offsets, None), S::Ok);
    // b, a, "", a, b at weight 1 each.
    assert_eq!(
        batch.sorted(),
        [owned("", 1.0), owned("a", 2.0), owned("b", 2.0)]
    );
    assert_eq!(
        batch.add_batch(data, &offsets, Some(&[1.0, 2.0, 3.0, 4.0, 5.0])),
        S::Ok
    );
    let single = Counts::new();
    for (key, weight) in [("b", 1.0), ("a", 2.0), ("", 3.0), ("a", 4.0), ("b", 5.0)] {
        assert_eq!(single.add(key.as_bytes(), 1.0), S::Ok);
        assert_eq!(single.add(key.as_bytes(), weight), S::Ok);
    }
    assert_eq!(batch.sorted(), single.sorted());
    assert_eq!(batch.rows(), 10);
    // An empty batch reads offsets[0] only and adds nothing.
    assert_eq!(batch.add_batch(b"", &[0], None), S::Ok);
    assert_eq!(batch.rows(), 10);
}

#[test]
fn refused_calls_add_nothing_and_name_the_culprit() {
    let counts = Counts::new();
    for bad in [-1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert_eq!(counts.add(b"a", bad), S::KeyCountsInvalidWeight);
        assert_eq!(counts.add_keyless(bad), S::KeyCountsInvalidWeight);
    }
    assert_eq!(
        last_message(S::KeyCountsInvalidWeight),
        KeyCountsError::InvalidWeight { index: 0 }.to_string()
    );
    assert_eq!(
        counts.add_batch(b"abc", &[0, 1, 2, 3], Some(&[1.0, 1.0, -0.5])),
        S::KeyCountsInvalidWeight
    );
    assert_eq!(
        last_message(S::KeyCountsInvalidWeight),
        "weight 2 is not a finite number of at least 0"
    );
    assert_eq!(
        counts.add_batch(b"abc", &[0, 2, 1, 3], None),
        S::BatchOffsetDecreases
    );
    assert_eq!(
        last_message(S::BatchOffsetDecreases),
        "key offset 2 is smaller than the offset before it"
    );
    assert_eq!(
        counts.add_batch(b"abc", &[0, 4, 2, 3], None),
        S::BatchOffsetPastEnd
    );
    // Offsets are checked before weights.
    assert_eq!(
        counts.add_batch(b"abc", &[0, 2, 1, 3], Some(&[-1.0, 1.0, 1.0])),
        S::BatchOffsetDecreases
    );
    assert_eq!(
        (counts.len(), counts.rows(), counts.keyless()),
        (0, 0, None)
    );
    // -0.0 is at least 0.
    assert_eq!(counts.add(b"a", -0.0), S::Ok);
    assert_eq!(counts.sorted(), [owned("a", 0.0)]);
}

#[test]
fn output_lengths_are_checked_before_writing() {
    let counts = Counts::new();
    assert_eq!(counts.add(b"ab", 1.0), S::Ok);
    assert_eq!(counts.add(b"c", 2.0), S::Ok);
    let mut data = [7u8; 4];
    let mut offsets = [7u64; 4];
    let mut weights = [7.0; 3];
    // Exactly 3 bytes, 3 offsets and 2 weights.
    for (d, o, w) in [
        (4, 3, 2),
        (3, 4, 2),
        (3, 3, 3),
        (2, 3, 2),
        (3, 2, 2),
        (3, 3, 1),
    ] {
        // SAFETY: the buffers hold at least the lengths given.
        let status = unsafe {
            pulsar_routing_key_counts_write_sorted(
                counts.0,
                data.as_mut_ptr(),
                d,
                offsets.as_mut_ptr(),
                o,
                weights.as_mut_ptr(),
                w,
            )
        };
        assert_eq!(status, S::KeyCountsOutputLength, "{d} {o} {w}");
    }
    assert_eq!(
        last_message(S::KeyCountsOutputLength),
        KeyCountsError::OutputLength.to_string()
    );
    assert_eq!((data, offsets, weights), ([7; 4], [7; 4], [7.0; 3]));
    assert_eq!(counts.sorted(), [owned("ab", 1.0), owned("c", 2.0)]);
}

#[test]
fn nulls() {
    let counts = Counts::new();
    let c = counts.0;
    let (mut n, mut rows, mut weight, mut present) = (7usize, 7u64, 7.0, true);
    let mut offset = 7u64;
    // SAFETY: every pointer is NULL or a live local at least as long as
    // the call reads; `usize::MAX` keys are refused before any read.
    unsafe {
        assert_eq!(pulsar_routing_key_counts_new(null_mut()), S::NullParameter);
        pulsar_routing_key_counts_free(null_mut());
        assert_eq!(
            pulsar_routing_key_counts_add(null_mut(), b"a".as_ptr(), 1, 1.0),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_key_counts_add(c, null(), 0, 1.0),
            S::NullParameter
        );
        // NULL wins over a bad weight.
        assert_eq!(
            pulsar_routing_key_counts_add(c, null(), 0, -1.0),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_key_counts_add_keyless(null_mut(), 1.0),
            S::NullParameter
        );
        let offsets = [0usize, 1];
        let f = pulsar_routing_key_counts_add_batch;
        for count in [0, 1] {
            assert_eq!(
                f(null_mut(), b"a".as_ptr(), offsets.as_ptr(), count, null()),
                S::NullParameter
            );
            assert_eq!(
                f(c, null(), offsets.as_ptr(), count, null()),
                S::NullParameter
            );
            assert_eq!(f(c, b"a".as_ptr(), null(), count, null()), S::NullParameter);
        }
        assert_eq!(
            f(c, b"a".as_ptr(), offsets.as_ptr(), usize::MAX, null()),
            S::BatchNoOffsets
        );
        assert_eq!(
            pulsar_routing_key_counts_len(null(), &mut n),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_key_counts_len(c, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_key_counts_rows(null(), &mut rows),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_key_counts_rows(c, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_key_counts_total_key_bytes(null(), &mut n),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_key_counts_total_key_bytes(c, null_mut()),
            S::NullParameter
        );
        let kw = pulsar_routing_key_counts_keyless_weight;
        assert_eq!(kw(null(), &mut weight, &mut present), S::NullParameter);
        assert_eq!(kw(c, null_mut(), &mut present), S::NullParameter);
        assert_eq!(kw(c, &mut weight, null_mut()), S::NullParameter);
        assert_eq!((n, rows, weight, present), (7, 7, 7.0, true));

        // Empty counts: no bytes, one offset, no weight; data may be NULL
        // then, the others not.
        let ws = pulsar_routing_key_counts_write_sorted;
        let w: *mut f64 = &mut weight;
        assert_eq!(ws(c, null_mut(), 0, &mut offset, 1, w, 0), S::Ok);
        assert_eq!(offset, 0);
        assert_eq!(
            ws(null(), null_mut(), 0, &mut offset, 1, w, 0),
            S::NullParameter
        );
        assert_eq!(ws(c, null_mut(), 1, &mut offset, 1, w, 0), S::NullParameter);
        assert_eq!(ws(c, null_mut(), 0, null_mut(), 1, w, 0), S::NullParameter);
        assert_eq!(
            ws(c, null_mut(), 0, &mut offset, 1, null_mut(), 0),
            S::NullParameter
        );
    }
    assert_eq!(counts.add(b"", 1.0), S::Ok);
    // Only the empty key: still no bytes, so data may still be NULL.
    let mut offsets = [7u64; 2];
    let mut weights = [7.0];
    // SAFETY: live counts and buffers of the lengths given.
    let status = unsafe {
        pulsar_routing_key_counts_write_sorted(
            c,
            null_mut(),
            0,
            offsets.as_mut_ptr(),
            2,
            weights.as_mut_ptr(),
            1,
        )
    };
    assert_eq!((status, offsets, weights), (S::Ok, [0, 0], [1.0]));
}

#[test]
fn statuses_read_as_the_owned_errors() {
    use crate::error::pulsar_routing_status_message;
    use core::ffi::CStr;
    let message = |s: S| {
        // SAFETY: the function returns a static NUL-terminated string.
        unsafe { CStr::from_ptr(pulsar_routing_status_message(s as u32)) }
            .to_str()
            .unwrap()
            .to_owned()
    };
    for (error, status) in [
        (
            KeyCountsError::InvalidWeight { index: 3 },
            S::KeyCountsInvalidWeight,
        ),
        (
            KeyCountsError::WeightsLength {
                keys: 2,
                weights: 1,
            },
            S::KeyCountsWeightsLength,
        ),
        (KeyCountsError::TooManyKeys, S::KeyCountsTooManyKeys),
        (KeyCountsError::KeyTooLong, S::KeyCountsKeyTooLong),
        (KeyCountsError::OutputLength, S::KeyCountsOutputLength),
    ] {
        assert_eq!(S::from(error), status);
    }
    assert_eq!(
        message(S::KeyCountsTooManyKeys),
        KeyCountsError::TooManyKeys.to_string()
    );
    assert_eq!(
        message(S::KeyCountsOutputLength),
        KeyCountsError::OutputLength.to_string()
    );
}
