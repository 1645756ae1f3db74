//! Many keys routed in one call, laid out as Arrow lays out a string column:
//! one byte buffer and `count + 1` offsets, key `i` being
//! `data[offsets[i]..offsets[i + 1]]`.
//!
//! That layout is what C++ (`std::string_view` arrays), Go (one cgo call
//! for a whole slice) and Arrow callers can hand over without copying, and
//! it lets the loop hash several keys at once.
//!
//! Every check runs before the first partition is written, so a batch with
//! a bad key writes nothing, and the error says which key is bad.

use core::fmt;

use crate::java_string_hash::java_string_hash;
pub use crate::murmur3::LANES;
use crate::murmur3::{murmur3_32, murmur3_32_lanes_from};
use crate::partition_count::PartitionCount;
use crate::routing_key::HashingScheme;

/// Keys in one buffer, delimited by offsets (Arrow's string layout),
/// checked once so that every key is in bounds.
///
/// ```
/// use pulsar_routing::batch::KeyOffsets;
/// let keys = KeyOffsets::new(b"abcde", &[0, 2, 2, 5])?;
/// assert_eq!(keys.len(), 3);
/// assert_eq!(keys.get(2), Some(&b"cde"[..]));
/// # Ok::<(), pulsar_routing::batch::BatchError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyOffsets<'a> {
    data: &'a [u8],
    offsets: &'a [usize],
}

impl<'a> KeyOffsets<'a> {
    /// Checks that `offsets` is non-empty, never decreases and never points
    /// past `data`.
    ///
    /// # Errors
    /// [`BatchError::NoOffsets`], [`BatchError::OffsetDecreases`] or
    /// [`BatchError::OffsetPastEnd`].
    pub fn new(data: &'a [u8], offsets: &'a [usize]) -> Result<Self, BatchError> {
        let Some((&first, _)) = offsets.split_first() else {
            return Err(BatchError::NoOffsets);
        };
        // One pass with no early exit, which the compiler vectorises: in
        // order and the last in bounds means every one is in bounds. Only
        // a bad batch pays for the search below, which names the culprit.
        let next = offsets.get(1..).unwrap_or_default();
        let decreases = offsets
            .iter()
            .zip(next)
            .fold(0u8, |bad, (offset, next)| bad | u8::from(offset > next));
        if decreases == 0 && offsets.last().is_some_and(|&last| last <= data.len()) {
            return Ok(Self { data, offsets });
        }
        if first > data.len() {
            return Err(BatchError::OffsetPastEnd { index: 0 });
        }
        for (i, pair) in offsets.windows(2).enumerate() {
            if pair[1] < pair[0] {
                return Err(BatchError::OffsetDecreases { index: i + 1 });
            }
            if pair[1] > data.len() {
                return Err(BatchError::OffsetPastEnd { index: i + 1 });
            }
        }
        Ok(Self { data, offsets })
    }

    /// The number of keys (one less than the number of offsets).
    #[must_use]
    pub const fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Whether there is no key.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Key `i`, or `None` past the end.
    #[must_use]
    #[inline]
    pub fn get(&self, i: usize) -> Option<&'a [u8]> {
        let start = *self.offsets.get(i)?;
        let end = *self.offsets.get(i + 1)?;
        self.data.get(start..end)
    }

    /// Every key, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &'a [u8]> + '_ {
        // `new` checked every pair, so the fallback is never taken.
        self.offsets
            .windows(2)
            .map(|pair| self.data.get(pair[0]..pair[1]).unwrap_or_default())
    }

    /// The index of the first key that is not valid UTF-8, if any.
    ///
    /// The bytes the keys span are checked in one pass, then each offset
    /// must fall on a character boundary: together that is the same as
    /// checking every key on its own, at the speed of one long check.
    #[must_use]
    pub fn first_invalid_utf8(&self) -> Option<usize> {
        let start = self.offsets[0];
        let spanned = &self.data[start..self.offsets[self.offsets.len() - 1]];
        // The longest valid prefix of what the keys span.
        let text = match core::str::from_utf8(spanned) {
            Ok(text) => text,
            Err(e) => core::str::from_utf8(&spanned[..e.valid_up_to()]).unwrap_or_default(),
        };
        // Each key starts where the one before it ended, so it is valid when
        // it ends on a character boundary of the valid prefix; the first key
        // that ends past the prefix holds the first bad byte.
        self.offsets[1..].iter().position(|&offset| {
            let end = offset - start;
            end > text.len() || !text.is_char_boundary(end)
        })
    }
}

/// Why a batch was refused. Nothing is written when a batch is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BatchError {
    /// There must be one more offset than keys, so at least one.
    NoOffsets,
    /// `offsets[index]` is smaller than the offset before it.
    OffsetDecreases {
        /// The offending offset's position.
        index: usize,
    },
    /// `offsets[index]` points past the end of the data.
    OffsetPastEnd {
        /// The offending offset's position.
        index: usize,
    },
    /// The output holds a different number of entries than there are keys.
    OutputLength {
        /// The number of keys.
        keys: usize,
        /// The output's length.
        output: usize,
    },
    /// Key `index` is not valid UTF-8, and the scheme hashes text (a Java
    /// `String` cannot hold such bytes).
    InvalidUtf8 {
        /// The first bad key.
        index: usize,
    },
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::NoOffsets => {
                f.write_str("key offsets are empty: a batch of n keys needs n + 1 offsets")
            }
            Self::OffsetDecreases { index } => {
                write!(f, "key offset {index} is smaller than the offset before it")
            }
            Self::OffsetPastEnd { index } => {
                write!(f, "key offset {index} points past the end of the key data")
            }
            Self::OutputLength { keys, output } => {
                write!(f, "{keys} keys need {keys} output entries, got {output}")
            }
            Self::InvalidUtf8 { index } => write!(f, "key {index} is not valid UTF-8"),
        }
    }
}

impl core::error::Error for BatchError {}

/// The partition of every key, as [`crate::partition_for_key`] computes it
/// one key at a time, written to `out` (one entry per key).
///
/// [`HashingScheme::Murmur3_32Hash`] hashes the bytes as they are: valid
/// UTF-8 or not, the answer is the one the C++ client gives for the same
/// `std::string`. [`HashingScheme::JavaStringHash`] hashes UTF-16 code
/// units, so it needs text, and refuses the batch at the first key that is
/// not UTF-8.
///
/// ```
/// use pulsar_routing::batch::{KeyOffsets, partitions_for_keys};
/// use pulsar_routing::{HashingScheme, PartitionCount, partition_for_key};
/// let n = PartitionCount::new(12)?;
/// let keys = KeyOffsets::new(b"user-1user-22", &[0, 6, 13])?;
/// let mut out = [0; 2];
/// partitions_for_keys(keys, n, HashingScheme::Murmur3_32Hash, &mut out)?;
/// assert_eq!(out[1], partition_for_key("user-22", n, HashingScheme::Murmur3_32Hash));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Murmur3 keys are hashed eight at a time, side by side (see
/// [`partitions_for_keys_inline`] for the vector instructions that allow).
///
/// # Errors
/// [`BatchError::OutputLength`] when `out` does not hold one entry per key,
/// and [`BatchError::InvalidUtf8`] as above. `out` is untouched then.
pub fn partitions_for_keys(
    keys: KeyOffsets<'_>,
    num_partitions: PartitionCount,
    scheme: HashingScheme,
    out: &mut [u32],
) -> Result<(), BatchError> {
    partitions_for_keys_inline(keys, num_partitions, scheme, out)
}

/// [`partitions_for_keys`], always inlined into its caller.
///
/// The core is built for the baseline instruction set of its target
/// (SSE2 on x86-64), where the eight Murmur3 lanes get little from vector
/// instructions. A caller that can check the processor at run time
/// compiles this function into one with `#[target_feature(enable =
/// "avx2")]` and gets the lanes as 256-bit vectors; that is what
/// `pulsar_routing_owned::batch::partitions_for_keys` does. The answers are
/// the same whatever the instruction set.
///
/// # Errors
/// As [`partitions_for_keys`].
#[inline(always)]
pub fn partitions_for_keys_inline(
    keys: KeyOffsets<'_>,
    num_partitions: PartitionCount,
    scheme: HashingScheme,
    out: &mut [u32],
) -> Result<(), BatchError> {
    if out.len() != keys.len() {
        return Err(BatchError::OutputLength {
            keys: keys.len(),
            output: out.len(),
        });
    }
    match scheme {
        HashingScheme::Murmur3_32Hash => murmur3_partitions(keys, num_partitions, out),
        HashingScheme::JavaStringHash => {
            if let Some(index) = keys.first_invalid_utf8() {
                return Err(BatchError::InvalidUtf8 { index });
            }
            for (slot, key) in out.iter_mut().zip(keys.iter()) {
                // Every key was checked above, so the fallback is never taken.
                let text = core::str::from_utf8(key).unwrap_or_default();
                *slot = num_partitions.reduce(java_string_hash(text));
            }
        }
    }
    Ok(())
}

/// Murmur3 routing of every key into `out` (one entry per key): whole
/// groups of [`LANES`] keys side by side, the rest one at a time.
#[inline(always)]
fn murmur3_partitions(keys: KeyOffsets<'_>, n: PartitionCount, out: &mut [u32]) {
    murmur3_partitions_lanes(keys, n, out, |_| LaneStart::Prefix {
        state: [0; LANES],
        blocks: 0,
    });
}

/// One partition count as a batch divides by it: 31-bit hashes reduced with
/// one multiplication and a shift, which vector instructions do for many
/// lanes at once (32-bit lanes with 64-bit products), with the remainders
/// exactly those of `%` and of [`PartitionCount::reduce`].
///
/// A count that is a power of two is a mask. Any other count `n` has
/// `s = floor(log2 n)` and `m = floor(2^(32+s) / n) + 1`, below 2^32 because
/// `n > 2^s`; then `q = (h * m) >> (32 + s)` is `h / n` for every `h` below
/// 2^31. Write `m * n = 2^(32+s) + e` with `0 < e <= n <= 2^(s+1)`, and
/// `h = q n + r`: `h m / 2^(32+s) = q + (r + h e / 2^(32+s)) / n`, where
/// `h e < 2^31 * 2^(s+1) = 2^(32+s)` keeps the added term below 1. The
/// product `h * m` is below 2^63.
///
/// ```
/// use pulsar_routing::batch::Divisor;
/// use pulsar_routing::PartitionCount;
/// let d = Divisor::new(PartitionCount::new(12)?);
/// assert_eq!(d.reduce(1_234_567), 1_234_567 % 12);
/// # Ok::<(), pulsar_routing::PartitionCountError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Divisor {
    n: u32,
    /// `n - 1` when `n` is a power of two.
    mask: Option<u32>,
    magic: u32,
    shift: u32,
}

impl Divisor {
    /// The divisor of `n`.
    #[must_use]
    pub const fn new(n: PartitionCount) -> Self {
        let n = n.get();
        if n.is_power_of_two() {
            return Self {
                n,
                mask: Some(n - 1),
                magic: 0,
                shift: 0,
            };
        }
        // A count is 1 to 2^31 - 1, so `s` is at most 30 and the shift
        // stays below 64; the fallbacks are never taken.
        let s = match core::num::NonZeroU32::new(n) {
            Some(n) => n.ilog2(),
            None => 0,
        };
        // Not a power of two, so `n > 2^s` and the quotient is below 2^32.
        let magic = match 1u64.wrapping_shl(32 + s).checked_div(n as u64) {
            Some(q) => q as u32 + 1,
            None => 0,
        };
        Self {
            n,
            mask: None,
            magic,
            shift: 32 + s,
        }
    }

    /// The partition count.
    #[must_use]
    pub const fn n(self) -> u32 {
        self.n
    }

    /// `n - 1` when the count is a power of two, which [`Self::reduce`]
    /// applies as a mask; `None` otherwise.
    #[must_use]
    pub const fn mask(self) -> Option<u32> {
        self.mask
    }

    /// The multiplier `m` (unused for a power of two).
    #[must_use]
    pub const fn magic(self) -> u32 {
        self.magic
    }

    /// The shift `32 + s` (unused for a power of two).
    #[must_use]
    pub const fn shift(self) -> u32 {
        self.shift
    }

    /// `h % n` for a 31-bit `h` (a [`crate::murmur3_32`] hash); the high
    /// bit of `h` is ignored.
    #[must_use]
    #[inline(always)]
    pub const fn reduce(self, h: u32) -> u32 {
        let h = h & 0x7fff_ffff;
        match self.mask {
            Some(mask) => h & mask,
            None => {
                let q = ((h as u64 * self.magic as u64).wrapping_shr(self.shift)) as u32;
                // `q * n` is at most `h`: neither operation wraps.
                h.wrapping_sub(q.wrapping_mul(self.n))
            }
        }
    }
}

/// What a [`murmur3_partitions_for_keys_with`] hook did with a group of
/// [`LANES`] keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneStart {
    /// Each lane's Murmur3 state after the first `blocks` 4-byte blocks
    /// of its key (every key of the group has that many); the core hashes
    /// the rest. `Prefix { state: [0; LANES], blocks: 0 }` leaves it all
    /// to the core.
    Prefix {
        /// Each lane's running hash.
        state: [u32; LANES],
        /// How many blocks of every key `state` holds.
        blocks: usize,
    },
    /// The partition of every key of the group: its hash reduced by the
    /// hook with the batch's [`Divisor`] (a hook with vector instructions
    /// divides eight hashes at once).
    Partitions([u32; LANES]),
}

/// Murmur3 routing of every key into `out`, as [`partitions_for_keys`]
/// gives it, with each group of [`LANES`] keys first handed to `hook`,
/// which hashes a prefix of the keys (the core hashes the rest and
/// reduces) or routes them all ([`LaneStart`]). This is the door for vector code the
/// core cannot hold (it needs `unsafe` and run-time CPU detection):
/// `pulsar_routing_owned::batch` uses it.
///
/// Keys after the last whole group are hashed one at a time, without
/// `hook`.
///
/// # Errors
/// [`BatchError::OutputLength`] when `out` does not hold one entry per key;
/// `out` is untouched then. A wrong `hook` gives wrong partitions, but
/// never a panic.
#[inline(always)]
pub fn murmur3_partitions_for_keys_with(
    keys: KeyOffsets<'_>,
    num_partitions: PartitionCount,
    out: &mut [u32],
    hook: impl FnMut(&[&[u8]; LANES]) -> LaneStart,
) -> Result<(), BatchError> {
    if out.len() != keys.len() {
        return Err(BatchError::OutputLength {
            keys: keys.len(),
            output: out.len(),
        });
    }
    murmur3_partitions_lanes(keys, num_partitions, out, hook);
    Ok(())
}

#[inline(always)]
fn murmur3_partitions_lanes(
    keys: KeyOffsets<'_>,
    n: PartitionCount,
    out: &mut [u32],
    mut hook: impl FnMut(&[&[u8]; LANES]) -> LaneStart,
) {
    let data = keys.data;
    // Eight lanes reduce with multiplications the compiler can put in
    // vectors, where `PartitionCount::reduce` needs 128-bit products.
    let divisor = Divisor::new(n);
    let mut groups = out.chunks_exact_mut(LANES);
    // Each group's LANES + 1 offsets; as many as there are whole groups.
    let bounds = keys.offsets.windows(LANES + 1).step_by(LANES);
    for (slots, bounds) in (&mut groups).zip(bounds) {
        // `KeyOffsets::new` checked every pair: the fallback is never taken.
        let group: [&[u8]; LANES] =
            core::array::from_fn(|i| data.get(bounds[i]..bounds[i + 1]).unwrap_or_default());
        match hook(&group) {
            LaneStart::Prefix { state, blocks } => {
                let hashes = murmur3_32_lanes_from(state, group, blocks);
                for (slot, hash) in slots.iter_mut().zip(hashes) {
                    *slot = divisor.reduce(hash);
                }
            }
            LaneStart::Partitions(partitions) => slots.copy_from_slice(&partitions),
        }
    }
    let rest = groups.into_remainder();
    let done = keys.len() - rest.len();
    for (slot, key) in rest.iter_mut().zip(keys.iter().skip(done)) {
        *slot = n.reduce(murmur3_32(key));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partition_for_key;

    fn n(count: u32) -> PartitionCount {
        PartitionCount::new(count).unwrap()
    }

    #[test]
    fn the_divisor_gives_percent() {
        let max = i32::MAX as u32;
        let mut counts = [1, 3, 12, 1000, max - 1, max].to_vec();
        for bit in 1..31 {
            counts.extend([(1u32 << bit) - 1, 1 << bit, (1 << bit) + 1]);
        }
        let mut state = 0x2545_f491_u32;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state & max
        };
        for _ in 0..100 {
            counts.push(next().max(1));
        }
        for count in counts {
            let d = Divisor::new(n(count));
            let mut hashes = [0, 1, max, count - 1, count, (max / count) * count].to_vec();
            hashes.extend((0..2000).map(|_| next()));
            for h in hashes {
                assert_eq!(d.reduce(h), h % count, "{h} % {count}");
                assert_eq!(d.reduce(h), n(count).reduce(h));
            }
        }
    }

    #[test]
    fn offsets_are_checked() {
        assert_eq!(KeyOffsets::new(b"ab", &[]), Err(BatchError::NoOffsets));
        assert_eq!(
            KeyOffsets::new(b"ab", &[3]),
            Err(BatchError::OffsetPastEnd { index: 0 })
        );
        assert_eq!(
            KeyOffsets::new(b"ab", &[0, 2, 1]),
            Err(BatchError::OffsetDecreases { index: 2 })
        );
        assert_eq!(
            KeyOffsets::new(b"ab", &[0, 1, 3]),
            Err(BatchError::OffsetPastEnd { index: 2 })
        );
        let empty = KeyOffsets::new(b"", &[0]).unwrap();
        assert!(empty.is_empty());
        partitions_for_keys(empty, n(3), HashingScheme::JavaStringHash, &mut []).unwrap();
    }

    #[test]
    fn agrees_with_one_key_at_a_time() {
        let data = "k1 héllo user-42  \u{1F600}x".as_bytes();
        // Every split at a character boundary, including empty keys.
        let offsets = [0, 2, 3, 9, 10, 17, 17, 19, 23, data.len()];
        let keys = KeyOffsets::new(data, &offsets).unwrap();
        for scheme in [HashingScheme::JavaStringHash, HashingScheme::Murmur3_32Hash] {
            for count in [1, 7, 12, 1000, PartitionCount::MAX] {
                let mut out = [u32::MAX; 9];
                partitions_for_keys(keys, n(count), scheme, &mut out).unwrap();
                for (i, &p) in out.iter().enumerate() {
                    let key = core::str::from_utf8(keys.get(i).unwrap()).unwrap();
                    assert_eq!(p, partition_for_key(key, n(count), scheme), "{key:?}");
                }
            }
        }
    }

    #[test]
    fn invalid_utf8_is_refused_only_where_text_is_hashed() {
        // "é" split between two keys: each key alone is invalid.
        let data = "aé".as_bytes();
        let keys = KeyOffsets::new(data, &[0, 1, 2, 3]).unwrap();
        assert_eq!(keys.first_invalid_utf8(), Some(1));
        let mut out = [7; 3];
        assert_eq!(
            partitions_for_keys(keys, n(5), HashingScheme::JavaStringHash, &mut out),
            Err(BatchError::InvalidUtf8 { index: 1 })
        );
        assert_eq!(out, [7; 3], "a refused batch writes nothing");
        partitions_for_keys(keys, n(5), HashingScheme::Murmur3_32Hash, &mut out).unwrap();
        assert_eq!(out[2], n(5).reduce(murmur3_32(&data[2..3])));

        let bad = KeyOffsets::new(b"ok\xffno", &[0, 2, 3, 5]).unwrap();
        assert_eq!(bad.first_invalid_utf8(), Some(1));
        let shifted = KeyOffsets::new(b"xxok\xff", &[2, 4, 5]).unwrap();
        assert_eq!(shifted.first_invalid_utf8(), Some(1));
        // A split character before a bad byte: the split comes first.
        let split = KeyOffsets::new(b"\xc3\xa9\xff", &[0, 1, 3]).unwrap();
        assert_eq!(split.first_invalid_utf8(), Some(0));
    }

    #[test]
    fn output_must_match_the_keys() {
        let keys = KeyOffsets::new(b"ab", &[0, 1, 2]).unwrap();
        assert_eq!(
            partitions_for_keys(keys, n(2), HashingScheme::Murmur3_32Hash, &mut [0; 3]),
            Err(BatchError::OutputLength { keys: 2, output: 3 })
        );
    }
}
