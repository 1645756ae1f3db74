//! MurmurHash3 x86_32 with seed 0: Pulsar's `Murmur3_32Hash` scheme.
//!
//! The Java client (`Murmur3Hash32.makeHash`) hashes the UTF-8 bytes of the
//! key and clears bit 31, so [`murmur3_32`] is what routing uses. The raw
//! value ([`murmur3_32_raw`]) is what master's `Murmur3_32Hash.makeRawHash`
//! returns (as an unsigned number here) and what scalable topics split on.

const C1: u32 = 0xcc9e_2d51;
const C2: u32 = 0x1b87_3593;

/// Clears bit 31, as Pulsar does before any modulo, so the value is a
/// non-negative Java `int`.
pub(crate) const POSITIVE_MASK: u32 = 0x7fff_ffff;

#[inline(always)]
const fn mix_k(k: u32) -> u32 {
    k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2)
}

#[inline(always)]
const fn mix_h(h: u32, k: u32) -> u32 {
    (h ^ mix_k(k))
        .rotate_left(13)
        .wrapping_mul(5)
        .wrapping_add(0xe654_6b64)
}

#[inline(always)]
const fn fmix(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

/// Folds a 0..=3 byte tail and the length into `h`. The tail bytes are
/// unsigned, which is where several hand ports of Murmur3 (sign-extending
/// `byte`) go wrong. An empty tail mixes nothing in, as in the reference
/// (mixing in a zero word would give the same hash, at the cost of two
/// multiplications on every key whose length is a multiple of 4).
#[inline(always)]
const fn finish(h: u32, tail: &[u8], total_len: u64) -> u32 {
    let h = if tail.is_empty() {
        h
    } else {
        h ^ mix_k(tail_word(tail))
    };
    // Java folds `len` as an int; the truncation only matters past 4 GiB,
    // which no Java byte array can reach.
    fmix(h ^ (total_len as u32))
}

/// The raw MurmurHash3 x86_32 (seed 0) of `data`, all 32 bits.
///
/// ```
/// assert_eq!(pulsar_routing::murmur3_32_raw(b"k1") as i32, -37330902);
/// ```
#[must_use]
#[inline]
pub const fn murmur3_32_raw(data: &[u8]) -> u32 {
    // Seed 0, no block, no tail, length 0: the finalizer of 0, which is 0.
    // Said outright, the empty key skips the finalizer's multiplications.
    if data.is_empty() {
        return 0;
    }
    let (blocks, tail) = data.as_chunks::<4>();
    let mut h = 0u32;
    // An index bounded by the length (iterators are not `const`): the loop
    // has no bounds check and one exit, like the C loop over `len / 4`.
    let mut i = 0;
    while i < blocks.len() {
        h = mix_h(h, u32::from_le_bytes(blocks[i]));
        i += 1;
    }
    finish(h, tail, data.len() as u64)
}

/// Pulsar's `Murmur3_32Hash`: MurmurHash3 x86_32 (seed 0) masked to 31 bits.
///
/// This is the hash the Java, C++ and Go clients agree on for every key.
///
/// ```
/// assert_eq!(pulsar_routing::murmur3_32(b"hello"), 613153351);
/// assert_eq!(pulsar_routing::murmur3_32(b""), 0);
/// ```
#[must_use]
#[inline]
pub const fn murmur3_32(data: &[u8]) -> u32 {
    murmur3_32_raw(data) & POSITIVE_MASK
}

/// How many keys [`crate::batch::partitions_for_keys`] hashes side by side: eight 32-bit
/// lanes fill a 256-bit vector register.
pub const LANES: usize = 8;

/// [`murmur3_32`] of eight keys at once, in lock-step.
///
/// One key's hash is a chain of dependent multiplications, so a single key
/// leaves most of the processor idle; eight keys hashed as `[u32; 8]`
/// arrays give the compiler eight independent chains, which it turns into
/// vector instructions (one 256-bit multiplication for eight keys where
/// AVX2 is enabled). The blocks all eight keys have are hashed together;
/// a longer key's remaining blocks are hashed on their own, so keys of any
/// lengths give exactly [`murmur3_32`], only the speed-up needs keys of
/// similar lengths.
///
/// Always inlined, so that a caller compiled for a wider instruction set
/// (a `#[target_feature]` function) gets the lanes in that set.
///
/// The first `done` blocks of every key are taken as already folded into
/// `state` (each lane's running hash), so that a caller that hashed a
/// prefix with its own vector code finishes here; `([0; LANES], 0)` hashes
/// everything. The result is only meaningful if every key has `done`
/// blocks and `state` is right.
#[inline(always)]
pub(crate) fn murmur3_32_lanes_from(
    state: [u32; LANES],
    keys: [&[u8]; LANES],
    done: usize,
) -> [u32; LANES] {
    let mut blocks: [&[[u8; 4]]; LANES] = [&[]; LANES];
    let mut common = usize::MAX;
    for lane in 0..LANES {
        let all = keys[lane].as_chunks::<4>().0;
        blocks[lane] = all.get(done..).unwrap_or_default();
        common = common.min(blocks[lane].len());
    }
    let mut own: [&[[u8; 4]]; LANES] = [&[]; LANES];
    for lane in 0..LANES {
        // `common` is at most every lane's length: the fallback is never
        // taken, and every lane holds exactly `common` blocks after it.
        (blocks[lane], own[lane]) = blocks[lane].split_at_checked(common).unwrap_or_default();
    }
    let mut h = state;
    for i in 0..common {
        let mut k = [0u32; LANES];
        for lane in 0..LANES {
            k[lane] = blocks[lane]
                .get(i)
                .map_or(0, |block| u32::from_le_bytes(*block));
        }
        for lane in 0..LANES {
            h[lane] = mix_h(h[lane], k[lane]);
        }
    }
    // The blocks of keys longer than the shortest, one key at a time: rare
    // in a batch of keys of one shape, so one test skips it.
    if own.iter().any(|rest| !rest.is_empty()) {
        for lane in 0..LANES {
            for block in own[lane] {
                h[lane] = mix_h(h[lane], u32::from_le_bytes(*block));
            }
        }
    }
    let mut k = [0u32; LANES];
    let mut len = [0u32; LANES];
    for lane in 0..LANES {
        k[lane] = tail_word_of(keys[lane]);
        // Truncated as in `finish`.
        len[lane] = keys[lane].len() as u32;
    }
    for lane in 0..LANES {
        // An empty tail is the word 0, and mix_k(0) == 0: mixing it in
        // changes nothing, so the lanes need no branch on the tail length.
        h[lane] = fmix(h[lane] ^ mix_k(k[lane]) ^ len[lane]) & POSITIVE_MASK;
    }
    h
}

/// The tail of `key` (its last `len % 4` bytes) as [`tail_word`] gives it,
/// without a branch on the tail's length for keys of 4 bytes or more.
#[inline(always)]
fn tail_word_of(key: &[u8]) -> u32 {
    let tail_bits = (key.len() % 4) * 8;
    match key.last_chunk::<4>() {
        // The tail is the high end of the last four bytes; shifting the
        // 32-bit word by 32 (no tail) in 64 bits leaves 0.
        Some(last) => (u64::from(u32::from_le_bytes(*last)) >> (32 - tail_bits)) as u32,
        // Shorter than a block: the whole key is the tail.
        None => tail_word(key),
    }
}

/// The 0..=3 tail bytes as a little-endian word, unsigned.
#[inline(always)]
const fn tail_word(tail: &[u8]) -> u32 {
    // Three arms and a test rather than four arms: the compiler turns four
    // into a jump table, whose indirect jump costs the shortest keys more
    // than the C baseline's compare chain.
    match *tail {
        [] => 0,
        [a] => a as u32,
        [a, b, ref rest @ ..] => {
            let k = a as u32 | (b as u32) << 8;
            match *rest {
                [c, ..] => k | (c as u32) << 16,
                [] => k,
            }
        }
    }
}

/// [`murmur3_32`] as a call, for callers that must stay small enough to
/// be inlined themselves (the Key_Shared selector's hot path): inlining
/// the hash there made key to consumer 1.8x slower.
#[must_use]
#[inline(never)]
pub(crate) fn murmur3_32_call(data: &[u8]) -> u32 {
    murmur3_32(data)
}

/// Streaming MurmurHash3 x86_32 (seed 0): any chunking of the input gives the
/// same result as [`murmur3_32_raw`] over the concatenation.
///
/// ```
/// use pulsar_routing::{Murmur3Hasher, murmur3_32};
/// let mut h = Murmur3Hasher::new();
/// h.update(b"hel").update(b"lo");
/// assert_eq!(h.finalize(), murmur3_32(b"hello"));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Murmur3Hasher {
    h: u32,
    pending: [u8; 4],
    pending_len: u8,
    total_len: u64,
}

impl Murmur3Hasher {
    /// A hasher with no input yet.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            h: 0,
            pending: [0; 4],
            pending_len: 0,
            total_len: 0,
        }
    }

    /// Feeds more bytes.
    pub fn update(&mut self, mut data: &[u8]) -> &mut Self {
        self.total_len = self.total_len.wrapping_add(data.len() as u64);
        if self.pending_len > 0 {
            let have = usize::from(self.pending_len);
            let take = (4 - have).min(data.len());
            self.pending[have..have + take].copy_from_slice(&data[..take]);
            data = &data[take..];
            self.pending_len += take as u8;
            if self.pending_len < 4 {
                return self;
            }
            self.h = mix_h(self.h, u32::from_le_bytes(self.pending));
            self.pending_len = 0;
        }
        let mut blocks = data.chunks_exact(4);
        for block in &mut blocks {
            // chunks_exact(4) only yields 4-byte slices.
            let word = u32::from_le_bytes([block[0], block[1], block[2], block[3]]);
            self.h = mix_h(self.h, word);
        }
        let tail = blocks.remainder();
        self.pending[..tail.len()].copy_from_slice(tail);
        self.pending_len = tail.len() as u8;
        self
    }

    /// The raw 32-bit hash of everything fed so far; the hasher can go on.
    #[must_use]
    pub const fn finalize_raw(&self) -> u32 {
        let tail = self.pending.split_at(self.pending_len as usize).0;
        finish(self.h, tail, self.total_len)
    }

    /// The 31-bit (Pulsar-masked) hash of everything fed so far.
    #[must_use]
    pub const fn finalize(&self) -> u32 {
        self.finalize_raw() & POSITIVE_MASK
    }
}
