//! Batch routing with the widest vector instructions the processor has.
//!
//! The core's [`pulsar_routing::batch::partitions_for_keys`] hashes Murmur3
//! keys eight at a time, but the core is compiled for its target's baseline
//! (SSE2 on x86-64) and, being `no_std` and free of `unsafe`, cannot check
//! the processor at run time. This crate can: on x86-64 with AVX2 the same
//! code is compiled for AVX2 (eight keys per 256-bit multiplication), and
//! everywhere else the core's own function runs. The answers are identical
//! either way; only the speed differs.

use pulsar_routing::batch::{BatchError, KeyOffsets};
use pulsar_routing::{HashingScheme, PartitionCount};

pub mod arrow;
pub mod keys;

/// The partition of every key, written to `out` (one entry per key):
/// exactly [`pulsar_routing::batch::partitions_for_keys`], faster where the
/// processor has AVX2.
///
/// ```
/// use pulsar_routing::batch::KeyOffsets;
/// use pulsar_routing::{HashingScheme, PartitionCount, partition_for_key};
/// let n = PartitionCount::new(12)?;
/// let keys = KeyOffsets::new(b"user-1user-22", &[0, 6, 13])?;
/// let mut out = [0; 2];
/// pulsar_routing_owned::batch::partitions_for_keys(keys, n, HashingScheme::Murmur3_32Hash, &mut out)?;
/// assert_eq!(out[1], partition_for_key("user-22", n, HashingScheme::Murmur3_32Hash));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As the core's: [`BatchError::OutputLength`] when `out` does not hold one
/// entry per key, [`BatchError::InvalidUtf8`] for a key that is not UTF-8
/// under a scheme that hashes text. `out` is untouched then.
pub fn partitions_for_keys(
    keys: KeyOffsets<'_>,
    num_partitions: PartitionCount,
    scheme: HashingScheme,
    out: &mut [u32],
) -> Result<(), BatchError> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above, which is the
        // only requirement of a `#[target_feature(enable = "avx2")]` call.
        return unsafe { x86_64::partitions_for_keys_avx2(keys, num_partitions, scheme, out) };
    }
    pulsar_routing::batch::partitions_for_keys(keys, num_partitions, scheme, out)
}

#[cfg(target_arch = "x86_64")]
mod x86_64 {
    use core::arch::x86_64::{
        __m128i, __m256i, _mm_cvtsi32_si128, _mm_loadu_si128, _mm_setzero_si128, _mm256_add_epi32,
        _mm256_and_si256, _mm256_blend_epi32, _mm256_castsi128_si256, _mm256_inserti128_si256,
        _mm256_loadu_si256, _mm256_mul_epu32, _mm256_mullo_epi32, _mm256_or_si256,
        _mm256_set1_epi32, _mm256_set1_epi64x, _mm256_setr_epi32, _mm256_setzero_si256,
        _mm256_slli_epi32, _mm256_slli_epi64, _mm256_srl_epi64, _mm256_srli_epi32,
        _mm256_srli_epi64, _mm256_storeu_si256, _mm256_sub_epi32, _mm256_unpackhi_epi32,
        _mm256_unpackhi_epi64, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64, _mm256_xor_si256,
    };

    use pulsar_routing::batch::{
        Divisor, LANES, LaneStart, murmur3_partitions_for_keys_with, partitions_for_keys_inline,
    };

    use super::{BatchError, HashingScheme, KeyOffsets, PartitionCount};

    /// The core's batch routing compiled for AVX2, each group of eight
    /// Murmur3 keys hashed in vectors by [`group`].
    ///
    /// # Safety
    /// The processor must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn partitions_for_keys_avx2(
        keys: KeyOffsets<'_>,
        num_partitions: PartitionCount,
        scheme: HashingScheme,
        out: &mut [u32],
    ) -> Result<(), BatchError> {
        match scheme {
            HashingScheme::Murmur3_32Hash => {
                let divisor = Divisor::new(num_partitions);
                murmur3_partitions_for_keys_with(keys, num_partitions, out, |keys| {
                    group(keys, &divisor)
                })
            }
            HashingScheme::JavaStringHash => {
                partitions_for_keys_inline(keys, num_partitions, scheme, out)
            }
        }
    }

    /// `h % n` in every lane, each `h` below 2^31, with the multiplier and
    /// shift of the core's [`Divisor`] (where the proof is): even lanes in
    /// the low halves of `vpmuludq`'s 64-bit products, odd lanes shifted
    /// down to get there.
    #[target_feature(enable = "avx2")]
    fn reduce(divisor: &Divisor, h: __m256i) -> __m256i {
        if let Some(mask) = divisor.mask() {
            return _mm256_and_si256(h, _mm256_set1_epi32(mask as i32));
        }
        let magic = _mm256_set1_epi64x(i64::from(divisor.magic()));
        let shift = _mm_cvtsi32_si128(divisor.shift() as i32);
        let even = _mm256_srl_epi64(_mm256_mul_epu32(h, magic), shift);
        let odd = _mm256_srl_epi64(_mm256_mul_epu32(_mm256_srli_epi64::<32>(h), magic), shift);
        let q = _mm256_blend_epi32::<0b1010_1010>(even, _mm256_slli_epi64::<32>(odd));
        _mm256_sub_epi32(
            h,
            _mm256_mullo_epi32(q, _mm256_set1_epi32(divisor.n() as i32)),
        )
    }

    /// A group of eight keys: hashed whole in vectors and divided by the
    /// partition count when the keys have one length (keys of one shape:
    /// ids, UUIDs, fixed-width numbers), otherwise the 16-byte chunks all
    /// of them have, the core doing the rest.
    #[target_feature(enable = "avx2")]
    fn group(keys: &[&[u8]; LANES], divisor: &Divisor) -> LaneStart {
        let len = keys[0].len();
        let (state, blocks) = quads(keys);
        if keys.iter().any(|key| key.len() != len) {
            return LaneStart::Prefix { state, blocks };
        }
        // SAFETY: `state` is 32 readable bytes, the width of an unaligned
        // 256-bit load.
        let mut h = unsafe { _mm256_loadu_si256(state.as_ptr().cast()) };
        for block in blocks..len / 4 {
            let word = |lane: usize| {
                let bytes = keys[lane].get(block * 4..block * 4 + 4).unwrap_or_default();
                // The slice is 4 bytes: every key is `len` long.
                bytes.try_into().map_or(0, i32::from_le_bytes)
            };
            let k = _mm256_setr_epi32(
                word(0),
                word(1),
                word(2),
                word(3),
                word(4),
                word(5),
                word(6),
                word(7),
            );
            h = mix_h(h, k);
        }
        if !len.is_multiple_of(4) {
            let tail = |lane: usize| tail_word(keys[lane], len) as i32;
            let k = _mm256_setr_epi32(
                tail(0),
                tail(1),
                tail(2),
                tail(3),
                tail(4),
                tail(5),
                tail(6),
                tail(7),
            );
            h = _mm256_xor_si256(h, mix_k(k));
        }
        // Murmur3 folds the length in as 32 bits.
        h = _mm256_xor_si256(h, _mm256_set1_epi32(len as u32 as i32));
        h = fmix(h);
        h = _mm256_and_si256(h, _mm256_set1_epi32(i32::MAX));
        let mut partitions = [0u32; LANES];
        // SAFETY: `partitions` is 32 writable bytes, the width of an
        // unaligned 256-bit store.
        unsafe { _mm256_storeu_si256(partitions.as_mut_ptr().cast(), reduce(divisor, h)) };
        LaneStart::Partitions(partitions)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// Every lane of `hashes` divided by `n` at once, against `%` and
        /// the core's scalar reduction.
        fn check(n: u32, hashes: &[u32]) {
            let divisor = Divisor::new(PartitionCount::new(n).unwrap());
            for chunk in hashes.chunks(LANES) {
                let mut lanes = [0u32; LANES];
                lanes[..chunk.len()].copy_from_slice(chunk);
                let mut out = [0u32; LANES];
                // SAFETY: the caller checked that the processor has AVX2;
                // `lanes` and `out` are 32 bytes, the width of the
                // unaligned load and store.
                unsafe {
                    let h = _mm256_loadu_si256(lanes.as_ptr().cast());
                    _mm256_storeu_si256(out.as_mut_ptr().cast(), reduce(&divisor, h));
                }
                for (h, r) in lanes.iter().zip(out) {
                    assert_eq!(r, h % n, "{h} % {n}");
                    assert_eq!(divisor.reduce(*h), r, "{h} % {n}, scalar");
                }
            }
        }

        #[test]
        fn the_remainders_are_percent() {
            if !std::is_x86_feature_detected!("avx2") {
                return;
            }
            let max = i32::MAX as u32;
            let mut counts = vec![
                1,
                2,
                3,
                5,
                7,
                12,
                100,
                1000,
                1 << 30,
                (1 << 30) + 1,
                max - 1,
                max,
            ];
            for bit in 1..31 {
                counts.extend([(1u32 << bit) - 1, 1 << bit, (1 << bit) + 1]);
            }
            let mut state = 0x9e37_79b9_u32;
            let mut next = || {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                state & max
            };
            counts.extend((0..200).map(|_| next().max(1)));
            for n in counts {
                // The edges of the quotients (around multiples of `n` and
                // at the top of the range) and arbitrary hashes.
                let mut hashes = vec![0, 1, max, max - 1, n - 1, n, n.saturating_add(1) & max];
                for k in [1u32, 2, 3, 1000, max / n, max / n - 1] {
                    let at = u64::from(k) * u64::from(n);
                    for h in [at.saturating_sub(1), at, at + 1] {
                        if h <= u64::from(max) {
                            hashes.push(h as u32);
                        }
                    }
                }
                hashes.extend((0..4000).map(|_| next()));
                check(n, &hashes);
            }
        }
    }

    /// The last `len % 4` bytes of `key` (`len` long) as a little-endian
    /// word, unsigned, as Murmur3 folds its tail.
    #[inline]
    fn tail_word(key: &[u8], len: usize) -> u32 {
        let tail = key.get(len / 4 * 4..).unwrap_or_default();
        tail.iter()
            .rev()
            .fold(0, |word, &byte| word << 8 | u32::from(byte))
    }

    /// The Murmur3 state of eight keys after the 16-byte chunks all of
    /// them have, and how many 4-byte blocks that is.
    ///
    /// The core's lanes insert each key's 4-byte word into a vector one at
    /// a time. Here each key's next 16 bytes are loaded at once and the
    /// eight loads are transposed with unpack instructions into four
    /// vectors, one per block, each holding that block of all eight keys.
    #[target_feature(enable = "avx2")]
    fn quads(keys: &[&[u8]; LANES]) -> ([u32; LANES], usize) {
        let mut chunks: [&[[u8; 16]]; LANES] = [&[]; LANES];
        let mut common = usize::MAX;
        for (lane, key) in keys.iter().enumerate() {
            chunks[lane] = key.as_chunks::<16>().0;
            common = common.min(chunks[lane].len());
        }
        for lane in &mut chunks {
            // `common` is at most every lane's length, so every lane keeps
            // exactly `common` chunks and the fallback is never taken.
            *lane = lane.get(..common).unwrap_or_default();
        }
        let load = |lane: &[[u8; 16]], i: usize| -> __m128i {
            match lane.get(i) {
                // SAFETY: `chunk` is 16 readable bytes, the width of an
                // unaligned 128-bit load.
                Some(chunk) => unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) },
                None => _mm_setzero_si128(),
            }
        };
        let mut h = _mm256_setzero_si256();
        for i in 0..common {
            // Lanes 0..4 in the low halves, 4..8 in the high halves.
            let pair = |a: usize| {
                let low = _mm256_castsi128_si256(load(chunks[a], i));
                _mm256_inserti128_si256::<1>(low, load(chunks[a + 4], i))
            };
            let (r0, r1, r2, r3) = (pair(0), pair(1), pair(2), pair(3));
            // A 4x4 transpose of 32-bit words within each half.
            let t0 = _mm256_unpacklo_epi32(r0, r1);
            let t1 = _mm256_unpacklo_epi32(r2, r3);
            let t2 = _mm256_unpackhi_epi32(r0, r1);
            let t3 = _mm256_unpackhi_epi32(r2, r3);
            h = mix_h(h, _mm256_unpacklo_epi64(t0, t1));
            h = mix_h(h, _mm256_unpackhi_epi64(t0, t1));
            h = mix_h(h, _mm256_unpacklo_epi64(t2, t3));
            h = mix_h(h, _mm256_unpackhi_epi64(t2, t3));
        }
        let mut state = [0u32; LANES];
        // SAFETY: `state` is 32 writable bytes, the width of an unaligned
        // 256-bit store.
        unsafe { _mm256_storeu_si256(state.as_mut_ptr().cast(), h) };
        (state, common * 4)
    }

    /// Murmur3's word mix on eight lanes: `rotl(k * c1, 15) * c2`.
    #[target_feature(enable = "avx2")]
    fn mix_k(k: __m256i) -> __m256i {
        let k = _mm256_mullo_epi32(k, _mm256_set1_epi32(0xcc9e_2d51_u32 as i32));
        let k = _mm256_or_si256(_mm256_slli_epi32::<15>(k), _mm256_srli_epi32::<17>(k));
        _mm256_mullo_epi32(k, _mm256_set1_epi32(0x1b87_3593))
    }

    /// Murmur3's finalizer on eight lanes.
    #[target_feature(enable = "avx2")]
    fn fmix(h: __m256i) -> __m256i {
        let h = _mm256_xor_si256(h, _mm256_srli_epi32::<16>(h));
        let h = _mm256_mullo_epi32(h, _mm256_set1_epi32(0x85eb_ca6b_u32 as i32));
        let h = _mm256_xor_si256(h, _mm256_srli_epi32::<13>(h));
        let h = _mm256_mullo_epi32(h, _mm256_set1_epi32(0xc2b2_ae35_u32 as i32));
        _mm256_xor_si256(h, _mm256_srli_epi32::<16>(h))
    }

    /// Murmur3's block step on eight lanes: `h ^= mix_k(k)`, then
    /// `h = rotl(h, 13) * 5 + 0xe6546b64` (the constants of the core's
    /// `murmur3` module, where the scalar step is).
    #[target_feature(enable = "avx2")]
    fn mix_h(h: __m256i, k: __m256i) -> __m256i {
        let h = _mm256_xor_si256(h, mix_k(k));
        let h = _mm256_or_si256(_mm256_slli_epi32::<13>(h), _mm256_srli_epi32::<19>(h));
        let h5 = _mm256_add_epi32(_mm256_slli_epi32::<2>(h), h);
        _mm256_add_epi32(h5, _mm256_set1_epi32(0xe654_6b64_u32 as i32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_core_in_every_lane() {
        // 0..=40-byte keys, so groups of eight mix tail lengths and block
        // counts, and 21 keys leave a remainder after two groups.
        let data: Vec<u8> = (0..2000u32).map(|i| (i * 7 + i / 5) as u8).collect();
        let mut offsets = vec![0];
        for i in 0..21 {
            offsets.push(offsets[i] + (i * 13) % 41);
        }
        let keys = KeyOffsets::new(&data, &offsets).unwrap();
        let n = PartitionCount::new(1_000_003).unwrap();
        let (mut ours, mut core) = ([0; 21], [0; 21]);
        partitions_for_keys(keys, n, HashingScheme::Murmur3_32Hash, &mut ours).unwrap();
        pulsar_routing::batch::partitions_for_keys(
            keys,
            n,
            HashingScheme::Murmur3_32Hash,
            &mut core,
        )
        .unwrap();
        assert_eq!(ours, core);
        for (i, key) in keys.iter().enumerate() {
            assert_eq!(
                ours[i],
                n.reduce(pulsar_routing::murmur3_32(key)),
                "key {i}"
            );
        }
    }
}
