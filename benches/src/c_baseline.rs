//! The C -O3 baseline (`benches/c/murmur3_baseline.c`, built by
//! `benches/build.rs`): MurmurHash3 x86_32 masked to 31 bits, then the
//! hardware `%`, one key per call or a plain loop over many keys in
//! Arrow's layout. Every call crosses into C, so the compiler cannot
//! inline it into the measurement loop, just as a C caller's function
//! would not be.

mod ffi {
    unsafe extern "C" {
        pub fn baseline_partition_for_key(key: *const u8, len: usize, n: u32) -> u32;
        pub fn baseline_partitions_for_keys(
            data: *const u8,
            offsets: *const usize,
            count: usize,
            n: u32,
            out: *mut u32,
        );
    }
}

/// `(murmur3_x86_32(key) & 0x7fffffff) % n`, computed in C.
///
/// # Panics
/// If `n` is 0 (C would divide by zero).
#[inline]
#[must_use]
pub fn partition_for_key(key: &[u8], n: u32) -> u32 {
    assert!(n > 0, "the C baseline divides by n");
    // SAFETY: `key` is `key.len()` readable bytes, and the C function only
    // reads them; `n` is not zero.
    unsafe { ffi::baseline_partition_for_key(key.as_ptr(), key.len(), n) }
}

/// [`partition_for_key`] of every key `data[offsets[i]..offsets[i + 1]]`,
/// in a plain C loop, written to `out`.
///
/// # Panics
/// If `n` is 0, `out` does not hold one entry per key, or an offset
/// decreases or points past `data`.
#[inline]
pub fn partitions_for_keys(data: &[u8], offsets: &[usize], n: u32, out: &mut [u32]) {
    assert!(n > 0, "the C baseline divides by n");
    assert_eq!(offsets.len(), out.len() + 1, "one more offset than keys");
    assert!(
        offsets.windows(2).all(|w| w[0] <= w[1]) && offsets.last() <= Some(&data.len()),
        "offsets within the data"
    );
    // SAFETY: every key lies within `data` (checked above), `offsets` has
    // `out.len() + 1` entries, `out` has room for `out.len()` results, and
    // `n` is not zero.
    unsafe {
        ffi::baseline_partitions_for_keys(
            data.as_ptr(),
            offsets.as_ptr(),
            out.len(),
            n,
            out.as_mut_ptr(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_core() {
        let n = pulsar_routing::PartitionCount::new(12).expect("a valid count");
        let data = crate::pseudo_random_bytes(300, 3);
        let mut offsets = vec![0];
        for len in 0..24 {
            offsets.push(offsets.last().unwrap() + len);
        }
        let mut out = vec![0; offsets.len() - 1];
        partitions_for_keys(&data, &offsets, 12, &mut out);
        for (i, w) in offsets.windows(2).enumerate() {
            let key = &data[w[0]..w[1]];
            let ours = n.reduce(pulsar_routing::murmur3_32(key));
            assert_eq!(partition_for_key(key, 12), ours, "{} bytes", key.len());
            assert_eq!(out[i], ours, "{} bytes, in the loop", key.len());
        }
    }
}
