//! The C -O3 baseline (`benches/c/murmur3_baseline.c`, built by
//! `benches/build.rs`): MurmurHash3 x86_32 masked to 31 bits, then the
//! hardware `%`, one key per call or a plain loop over many keys in
//! Arrow's layout. Every call crosses into C, so the compiler cannot
//! inline it into the measurement loop, just as a C caller's function
//! would not be.

use std::num::NonZeroU32;

mod ffi {
    unsafe extern "C" {
        pub fn baseline_partition_for_key(key: *const u8, len: usize, n: u32) -> u32;
        pub fn baseline_partition_for_key_shaped(
            key: *const u8,
            len: usize,
            n: i64,
            scheme: u32,
            out: *mut u32,
        ) -> u32;
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
#[inline]
#[must_use]
pub fn partition_for_key(key: &[u8], n: NonZeroU32) -> u32 {
    // SAFETY: `key` is `key.len()` readable bytes, and the C function only
    // reads them; `n` is not zero.
    unsafe { ffi::baseline_partition_for_key(key.as_ptr(), key.len(), n.get()) }
}

/// [`partition_for_key`] with the C ABI's signature, in C: a status (0 for
/// success), the partition through an out-parameter, and the ABI's checks
/// of the pointers, the scheme (1, Murmur3) and the count. `None` if the C
/// function refused the arguments.
#[inline]
#[must_use]
pub fn partition_for_key_shaped(key: &[u8], n: i64) -> Option<u32> {
    let mut out = 0;
    // SAFETY: `key` is `key.len()` readable bytes, which the C function
    // only reads, and `out` is a writable `uint32_t`.
    let status = unsafe {
        ffi::baseline_partition_for_key_shaped(key.as_ptr(), key.len(), n, 1, &raw mut out)
    };
    (status == 0).then_some(out)
}

/// Keys in Arrow's layout, key `i` being `data[offsets[i]..offsets[i + 1]]`,
/// checked once so that the C loop can run over them unchecked, as a C
/// caller's loop over its own keys would.
#[derive(Clone, Copy, Debug)]
pub struct Keys<'a> {
    data: &'a [u8],
    offsets: &'a [usize],
}

impl<'a> Keys<'a> {
    /// The keys, or `None` if there is no offset or an offset decreases or
    /// points past `data`.
    #[must_use]
    pub fn new(data: &'a [u8], offsets: &'a [usize]) -> Option<Self> {
        let in_bounds = offsets.windows(2).all(|w| w[0] <= w[1])
            && offsets.last().is_some_and(|&end| end <= data.len());
        in_bounds.then_some(Self { data, offsets })
    }

    /// [`partition_for_key`] of every key, in a plain C loop, written to
    /// `out`.
    ///
    /// # Panics
    /// If `out` does not hold one entry per key.
    #[inline]
    pub fn partitions_for_keys(&self, n: NonZeroU32, out: &mut [u32]) {
        assert_eq!(self.offsets.len(), out.len() + 1, "one entry per key");
        // SAFETY: every key lies within `data` (checked by `new`),
        // `offsets` has `out.len() + 1` entries, `out` has room for
        // `out.len()` results, and `n` is not zero.
        unsafe {
            ffi::baseline_partitions_for_keys(
                self.data.as_ptr(),
                self.offsets.as_ptr(),
                out.len(),
                n.get(),
                out.as_mut_ptr(),
            );
        }
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
        let twelve = NonZeroU32::new(12).unwrap();
        Keys::new(&data, &offsets)
            .unwrap()
            .partitions_for_keys(twelve, &mut out);
        for (i, w) in offsets.windows(2).enumerate() {
            let key = &data[w[0]..w[1]];
            let ours = n.reduce(pulsar_routing::murmur3_32(key));
            assert_eq!(partition_for_key(key, twelve), ours, "{} bytes", key.len());
            assert_eq!(partition_for_key_shaped(key, 12), Some(ours));
            assert_eq!(out[i], ours, "{} bytes, in the loop", key.len());
        }
    }

    #[test]
    fn the_shaped_function_refuses_what_the_abi_refuses() {
        for n in [0, -1, i64::from(i32::MAX) + 1] {
            assert_eq!(partition_for_key_shaped(b"k", n), None, "count {n}");
        }
        assert!(partition_for_key_shaped(b"k", i64::from(i32::MAX)).is_some());
    }

    #[test]
    fn keys_out_of_bounds_are_refused() {
        assert!(Keys::new(b"abc", &[]).is_none());
        assert!(Keys::new(b"abc", &[0, 4]).is_none());
        assert!(Keys::new(b"abc", &[2, 1]).is_none());
        assert!(Keys::new(b"abc", &[0, 1, 3]).is_some());
    }
}
