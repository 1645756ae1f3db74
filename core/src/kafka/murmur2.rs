//! MurmurHash2 as Kafka's Java client computes it (`Utils.murmur2`), which
//! librdkafka's `rd_murmur2` and kafka-python's `murmur2` reproduce.

use core::fmt;

/// The seed Kafka hard-codes: `int seed = 0x9747b28c`.
pub const MURMUR2_SEED: u32 = 0x9747_b28c;

const M: u32 = 0x5bd1_e995;
const R: u32 = 24;

/// Kafka's `Utils.toPositive`: clears bit 31 (`x & 0x7fffffff`), which is
/// not `Math.abs` (that maps `Integer.MIN_VALUE` to itself).
///
/// ```
/// assert_eq!(pulsar_routing::kafka::to_positive(0x8000_0000), 0);
/// ```
#[must_use]
#[inline]
pub const fn to_positive(x: u32) -> u32 {
    x & 0x7fff_ffff
}

/// One 4-byte block: `k *= m; k ^= k >>> r; k *= m; h *= m; h ^= k`.
#[inline(always)]
const fn mix(h: u32, k: u32) -> u32 {
    let mut k = k.wrapping_mul(M);
    k ^= k >> R;
    k = k.wrapping_mul(M);
    h.wrapping_mul(M) ^ k
}

/// The tail (Java's fall-through `switch (length % 4)`) and the final avalanche.
#[inline(always)]
const fn finish(mut h: u32, tail: &[u8]) -> u32 {
    if tail.len() >= 3 {
        h ^= (tail[2] as u32) << 16;
    }
    if tail.len() >= 2 {
        h ^= (tail[1] as u32) << 8;
    }
    if !tail.is_empty() {
        h ^= tail[0] as u32;
        h = h.wrapping_mul(M);
    }
    h ^= h >> 13;
    h = h.wrapping_mul(M);
    h ^ (h >> 15)
}

/// Kafka's `Utils.murmur2(byte[])`: MurmurHash2 (32-bit) with seed
/// [`MURMUR2_SEED`], blocks read little-endian, bytes unsigned. Returned as
/// the unsigned bit pattern of Java's `int`.
///
/// ```
/// use pulsar_routing::kafka::{murmur2, to_positive};
/// // librdkafka's unit test values (rdmurmur2.c), which match Java.
/// assert_eq!(murmur2(b"kafka"), 0xd067_cf64);
/// assert_eq!(to_positive(murmur2(b"giberish123456789")), 257239820);
/// ```
#[must_use]
pub const fn murmur2(data: &[u8]) -> u32 {
    // Java folds `data.length`, an int: no Java array reaches 2^32 bytes.
    let mut h = MURMUR2_SEED ^ (data.len() as u32);
    let mut rest = data;
    while let Some((block, tail)) = rest.split_first_chunk::<4>() {
        h = mix(h, u32::from_le_bytes(*block));
        rest = tail;
    }
    finish(h, rest)
}

/// Streaming [`murmur2`] for a key that arrives in pieces.
///
/// Unlike Murmur3, MurmurHash2 starts from `seed ^ length`, so the total
/// length must be known before the first byte: it is the constructor's
/// argument, and [`Murmur2Hasher::finalize`] refuses to answer if a
/// different number of bytes was fed.
///
/// ```
/// use pulsar_routing::kafka::{Murmur2Hasher, murmur2};
/// let mut h = Murmur2Hasher::new(9);
/// h.update(b"order").update(b"-42");
/// assert!(h.finalize().is_err()); // 8 bytes fed, 9 announced
/// h.update(b"!");
/// assert_eq!(h.finalize(), Ok(murmur2(b"order-42!")));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Murmur2Hasher {
    h: u32,
    pending: [u8; 4],
    pending_len: u8,
    declared_len: u64,
    fed_len: u64,
}

impl Murmur2Hasher {
    /// A hasher for a key of exactly `total_len` bytes.
    #[must_use]
    pub const fn new(total_len: u64) -> Self {
        Self {
            h: MURMUR2_SEED ^ (total_len as u32),
            pending: [0; 4],
            pending_len: 0,
            declared_len: total_len,
            fed_len: 0,
        }
    }

    /// Feeds more bytes.
    pub fn update(&mut self, mut data: &[u8]) -> &mut Self {
        self.fed_len = self.fed_len.wrapping_add(data.len() as u64);
        if self.pending_len > 0 {
            let have = usize::from(self.pending_len);
            let take = (4 - have).min(data.len());
            let (head, rest) = data.split_at(take);
            if let Some(slot) = self.pending.get_mut(have..have + take) {
                slot.copy_from_slice(head);
            }
            data = rest;
            self.pending_len += take as u8;
            if self.pending_len < 4 {
                return self;
            }
            self.h = mix(self.h, u32::from_le_bytes(self.pending));
            self.pending_len = 0;
        }
        let mut blocks = data.chunks_exact(4);
        for block in &mut blocks {
            let mut word = [0u8; 4];
            word.copy_from_slice(block);
            self.h = mix(self.h, u32::from_le_bytes(word));
        }
        let tail = blocks.remainder();
        if let Some(slot) = self.pending.get_mut(..tail.len()) {
            slot.copy_from_slice(tail);
        }
        self.pending_len = tail.len() as u8;
        self
    }

    /// The hash of everything fed so far; the hasher can go on.
    ///
    /// # Errors
    /// [`Murmur2LengthMismatch`] unless exactly the announced number of
    /// bytes was fed: the seed already depends on it.
    pub fn finalize(&self) -> Result<u32, Murmur2LengthMismatch> {
        if self.fed_len != self.declared_len {
            return Err(Murmur2LengthMismatch {
                declared: self.declared_len,
                fed: self.fed_len,
            });
        }
        let tail = self
            .pending
            .get(..usize::from(self.pending_len))
            .unwrap_or(&[]);
        Ok(finish(self.h, tail))
    }
}

/// A [`Murmur2Hasher`] was fed a different number of bytes than announced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Murmur2LengthMismatch {
    /// The length given to [`Murmur2Hasher::new`].
    pub declared: u64,
    /// The number of bytes fed.
    pub fed: u64,
}

impl fmt::Display for Murmur2LengthMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "murmur2 hasher was announced {} bytes but fed {}: MurmurHash2 seeds with the total length",
            self.declared, self.fed
        )
    }
}

impl core::error::Error for Murmur2LengthMismatch {}
