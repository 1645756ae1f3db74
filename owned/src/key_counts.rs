//! Distinct keys and their summed weights: the exact sample a capacity
//! plan starts from.
//!
//! Planning partitions, bundles or consumers from a key log needs each
//! distinct key once, with how much traffic it carries. A log of 20 million
//! rows often holds a few million keys; counting them is most of the work
//! of a plan, so it is done here once for every binding, in a table that
//! stores every key's bytes once, in one arena, and hashes each row once.
//!
//! The keys come back in byte order (as `memcmp` orders them, a shorter
//! key before the longer keys it begins), so that a plan does not depend
//! on the order the rows were read in.

use core::fmt;
use core::hash::BuildHasher;

use foldhash::fast::FixedState;
use pulsar_routing::batch::KeyOffsets;

/// Why [`KeyCounts`] refused a call. Nothing was added then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyCountsError {
    /// A weight is negative, NaN or infinite.
    InvalidWeight {
        /// The position of the row in its batch (0 for a single key).
        index: usize,
    },
    /// `weights` does not hold one weight per key.
    WeightsLength {
        /// The number of keys.
        keys: usize,
        /// The number of weights.
        weights: usize,
    },
    /// More distinct keys than the table can index (2^32 - 1).
    TooManyKeys,
    /// A key of 4 GiB or more.
    KeyTooLong,
    /// An output buffer of [`KeyCounts::write_sorted`] has the wrong length.
    OutputLength,
}

impl fmt::Display for KeyCountsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::InvalidWeight { index } => write!(
                f,
                "weight {index} is not a finite number of at least 0"
            ),
            Self::WeightsLength { keys, weights } => {
                write!(f, "{weights} weights for {keys} keys: give one weight per key")
            }
            Self::TooManyKeys => f.write_str("more than 4294967295 distinct keys"),
            Self::KeyTooLong => f.write_str("a key of 4 GiB or more"),
            Self::OutputLength => f.write_str(
                "the outputs must hold total_key_bytes() bytes, len() + 1 offsets and len() weights",
            ),
        }
    }
}

impl std::error::Error for KeyCountsError {}

/// Distinct keys with their summed weights, and the weight of keyless rows.
///
/// ```
/// use pulsar_routing_owned::key_counts::KeyCounts;
/// let mut counts = KeyCounts::new();
/// for key in ["b", "a", "b"] {
///     counts.add(key.as_bytes(), 1.0)?;
/// }
/// counts.add_keyless(2.0)?;
/// let sorted: Vec<(&[u8], f64)> = counts.sorted().collect();
/// assert_eq!(sorted, [(&b"a"[..], 1.0), (&b"b"[..], 2.0)]);
/// assert_eq!(counts.keyless_weight(), Some(2.0));
/// # Ok::<(), pulsar_routing_owned::key_counts::KeyCountsError>(())
/// ```
#[derive(Clone, Default)]
pub struct KeyCounts {
    /// Open addressing with linear probing: a power-of-two number of
    /// slots (or none yet), at most three quarters of them used.
    slots: Vec<Slot>,
    /// Every distinct key's bytes, in the order they were first seen.
    bytes: Vec<u8>,
    /// Where each key ends in `bytes` (key `i` starts where `i - 1` ends).
    ends: Vec<usize>,
    keyless: Option<f64>,
    rows: u64,
    // Fixed, not random: the same keys give the same table on every run,
    // which keeps memory use and timings reproducible.
    hasher: FixedState,
}

/// A key's entry: its first [`HEAD`] bytes (zero-padded) and length, so
/// that a key of at most [`HEAD`] bytes (most keys: ids, UUIDs, numbers)
/// is found and compared in its slot without reading the arena, and its
/// weight, summed in place. A lookup is then one cache miss, where an
/// index into arrays of ends and weights would be three or four.
#[derive(Clone, Copy)]
struct Slot {
    head: [u8; HEAD],
    /// The key's length, or [`FREE`].
    len: u32,
    /// The key's number, its place in `ends`.
    index: u32,
    weight: f64,
}

/// The key bytes a [`Slot`] holds.
const HEAD: usize = 16;

/// The length of a free slot (no key is that long: see
/// [`KeyCountsError::KeyTooLong`]).
const FREE: u32 = u32::MAX;

const FREE_SLOT: Slot = Slot {
    head: [0; HEAD],
    len: FREE,
    index: 0,
    weight: 0.0,
};

/// Keys hashed, and their slots fetched from memory, before the first of
/// them is looked up, in [`KeyCounts::add_batch`]: a table of millions of
/// keys is far larger than the caches, so every lookup is a cache miss,
/// and a batch waits for a few of them at once instead of one at a time.
const AHEAD: usize = 16;

impl Slot {
    /// The head of `key`: its first [`HEAD`] bytes, zero-padded.
    fn head_of(key: &[u8]) -> [u8; HEAD] {
        let mut head = [0; HEAD];
        let n = key.len().min(HEAD);
        if let (Some(to), Some(from)) = (head.get_mut(..n), key.get(..n)) {
            to.copy_from_slice(from);
        }
        head
    }

    /// Whether this is the slot of `key`, whose head is `head`; the arena
    /// is read only for a key longer than [`HEAD`] whose head matches.
    fn holds(&self, key: &[u8], head: &[u8; HEAD], bytes: &[u8], ends: &[usize]) -> bool {
        self.len as usize == key.len()
            && self.head == *head
            && (key.len() <= HEAD || key_at(bytes, ends, self.index as usize) == key)
    }
}

impl fmt::Debug for KeyCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyCounts")
            .field("len", &self.len())
            .field("rows", &self.rows)
            .field("keyless", &self.keyless)
            .finish_non_exhaustive()
    }
}

impl KeyCounts {
    /// An empty count.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one row: `weight` more for `key`.
    ///
    /// # Errors
    /// [`KeyCountsError::InvalidWeight`] (index 0) for a negative, NaN or
    /// infinite weight; [`KeyCountsError::TooManyKeys`] past 2^32 - 1
    /// distinct keys; [`KeyCountsError::KeyTooLong`] for a key of 4 GiB or
    /// more.
    pub fn add(&mut self, key: &[u8], weight: f64) -> Result<(), KeyCountsError> {
        check_weight(weight, 0)?;
        self.add_checked(key, weight)
    }

    /// Adds one keyless row (a message without a key) of `weight`.
    ///
    /// # Errors
    /// [`KeyCountsError::InvalidWeight`] for a negative, NaN or infinite
    /// weight.
    pub fn add_keyless(&mut self, weight: f64) -> Result<(), KeyCountsError> {
        check_weight(weight, 0)?;
        self.keyless = Some(self.keyless.unwrap_or(0.0) + weight);
        self.rows += 1;
        Ok(())
    }

    /// Adds every key of a batch in Arrow's layout, each with its weight
    /// (`weights[i]` for key `i`) or with weight 1.
    ///
    /// # Errors
    /// [`KeyCountsError::WeightsLength`] when `weights` does not hold one
    /// weight per key, [`KeyCountsError::InvalidWeight`] with the first bad
    /// weight's index; both before anything is added.
    /// [`KeyCountsError::TooManyKeys`] past 2^32 - 1 distinct keys and
    /// [`KeyCountsError::KeyTooLong`] for a key of 4 GiB or more, when the
    /// keys before it have been added.
    pub fn add_batch(
        &mut self,
        keys: KeyOffsets<'_>,
        weights: Option<&[f64]>,
    ) -> Result<(), KeyCountsError> {
        match weights {
            None => self.add_many(keys.iter().map(|key| (key, 1.0))),
            Some(weights) => {
                if weights.len() != keys.len() {
                    return Err(KeyCountsError::WeightsLength {
                        keys: keys.len(),
                        weights: weights.len(),
                    });
                }
                check_weights(weights)?;
                self.add_many(keys.iter().zip(weights.iter().copied()))
            }
        }
    }

    /// Adds a row whose weight has been checked.
    fn add_checked(&mut self, key: &[u8], weight: f64) -> Result<(), KeyCountsError> {
        self.reserve(1);
        let hash = self.hasher.hash_one(key);
        self.add_hashed(key, hash, weight)
    }

    /// Adds rows whose weights have been checked, [`AHEAD`] at a time.
    fn add_many<'k>(
        &mut self,
        rows: impl Iterator<Item = (&'k [u8], f64)>,
    ) -> Result<(), KeyCountsError> {
        let mut rows = rows.peekable();
        while rows.peek().is_some() {
            // Room for the whole group first: growing moves every slot,
            // which would make the fetches below useless.
            self.reserve(AHEAD);
            let mut group = [(&[][..], 0.0, 0u64); AHEAD];
            let mut n = 0;
            for (to, (key, weight)) in group.iter_mut().zip(rows.by_ref()) {
                let hash = self.hasher.hash_one(key);
                prefetch(&self.slots, self.home(hash));
                *to = (key, weight, hash);
                n += 1;
            }
            for &(key, weight, hash) in group.get(..n).unwrap_or_default() {
                self.add_hashed(key, hash, weight)?;
            }
        }
        Ok(())
    }

    /// The slot `hash` starts probing at.
    fn home(&self, hash: u64) -> usize {
        // The slot count is a power of two, or 0 before the first key.
        hash as usize & self.slots.len().wrapping_sub(1)
    }

    /// Adds a row whose weight has been checked, with room for its key.
    fn add_hashed(&mut self, key: &[u8], hash: u64, weight: f64) -> Result<(), KeyCountsError> {
        let head = Slot::head_of(key);
        let mut at = self.home(hash);
        let Self {
            slots, bytes, ends, ..
        } = self;
        let mask = slots.len().wrapping_sub(1);
        // `reserve` keeps a quarter of the slots free, so the probe ends.
        while let Some(slot) = slots.get_mut(at) {
            if slot.len == FREE {
                let index = u32::try_from(ends.len())
                    .ok()
                    .ok_or(KeyCountsError::TooManyKeys)?;
                let len = u32::try_from(key.len())
                    .ok()
                    .filter(|&len| len != FREE)
                    .ok_or(KeyCountsError::KeyTooLong)?;
                *slot = Slot {
                    head,
                    len,
                    index,
                    weight,
                };
                bytes.extend_from_slice(key);
                ends.push(bytes.len());
                break;
            }
            if slot.holds(key, &head, bytes, ends) {
                slot.weight += weight;
                break;
            }
            at = (at + 1) & mask;
        }
        self.rows += 1;
        Ok(())
    }

    /// Makes room for `more` new keys, doubling the slots as often as it
    /// takes to keep a quarter of them free.
    fn reserve(&mut self, more: usize) {
        let needed = self.ends.len().saturating_add(more);
        let mut size = self.slots.len().max(16);
        while needed.saturating_mul(4) > size.saturating_mul(3) {
            size = size.saturating_mul(2);
        }
        if size == self.slots.len() {
            return;
        }
        let old = core::mem::replace(&mut self.slots, vec![FREE_SLOT; size]);
        let mask = size - 1;
        for slot in old.into_iter().filter(|slot| slot.len != FREE) {
            // A short key's bytes are all in its slot: no arena read.
            let mut at = self.hasher.hash_one(self.slot_key(&slot)) as usize & mask;
            while let Some(free) = self.slots.get_mut(at) {
                if free.len == FREE {
                    *free = slot;
                    break;
                }
                at = (at + 1) & mask;
            }
        }
    }

    /// The number of distinct keys (keyless rows not counted).
    #[must_use]
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether no key has been added (keyless rows aside).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The rows added, keyless ones included.
    #[must_use]
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The summed weight of keyless rows, or `None` if there was none.
    #[must_use]
    pub fn keyless_weight(&self) -> Option<f64> {
        self.keyless
    }

    /// The bytes of all distinct keys together.
    #[must_use]
    pub fn total_key_bytes(&self) -> usize {
        self.bytes.len()
    }

    /// The distinct keys and their weights, in byte order.
    pub fn sorted(&self) -> impl ExactSizeIterator<Item = (&[u8], f64)> + '_ {
        self.order().into_iter().map(|slot| {
            (
                key_at(&self.bytes, &self.ends, slot.index as usize),
                slot.weight,
            )
        })
    }

    /// [`Self::sorted`] in Arrow's layout: the keys' bytes one after the
    /// other in `data` ([`Self::total_key_bytes`] long), key `i` being
    /// `data[offsets[i]..offsets[i + 1]]` (`len() + 1` offsets), and its
    /// weight `weights[i]` (`len()` weights).
    ///
    /// # Errors
    /// [`KeyCountsError::OutputLength`] when a buffer has another length;
    /// nothing is written then.
    pub fn write_sorted(
        &self,
        data: &mut [u8],
        offsets: &mut [u64],
        weights: &mut [f64],
    ) -> Result<(), KeyCountsError> {
        self.check_output_lengths(data.len(), offsets.len(), weights.len())?;
        let mut at = 0;
        if let Some(first) = offsets.first_mut() {
            *first = 0;
        }
        // The lengths were checked above, so every `get_mut` finds its
        // place. A short key is copied from its slot, which the sort has
        // just read, rather than from wherever the arena holds it.
        for (i, slot) in self.order().iter().enumerate() {
            let (key, weight) = (self.slot_key(slot), slot.weight);
            let end = at + key.len();
            if let Some(slot) = data.get_mut(at..end) {
                slot.copy_from_slice(key);
            }
            if let Some(offset) = offsets.get_mut(i + 1) {
                *offset = end as u64;
            }
            if let Some(out) = weights.get_mut(i) {
                *out = weight;
            }
            at = end;
        }
        Ok(())
    }

    /// Checks the lengths of [`Self::write_sorted`]'s buffers, for a
    /// binding that must refuse them before it touches their memory.
    ///
    /// # Errors
    /// [`KeyCountsError::OutputLength`] unless `data_len` is
    /// [`Self::total_key_bytes`], `offsets_len` is `len() + 1` and
    /// `weights_len` is `len()`.
    pub fn check_output_lengths(
        &self,
        data_len: usize,
        offsets_len: usize,
        weights_len: usize,
    ) -> Result<(), KeyCountsError> {
        if data_len != self.bytes.len()
            || Some(offsets_len) != self.len().checked_add(1)
            || weights_len != self.len()
        {
            return Err(KeyCountsError::OutputLength);
        }
        Ok(())
    }

    /// [`Self::write_sorted`] into new buffers of the right lengths: the
    /// keys' bytes, their `len() + 1` offsets and their weights.
    #[must_use]
    pub fn sorted_columns(&self) -> (Vec<u8>, Vec<u64>, Vec<f64>) {
        let mut data = vec![0u8; self.total_key_bytes()];
        let mut offsets = vec![0u64; self.len() + 1];
        let mut weights = vec![0.0; self.len()];
        // The buffers have exactly the lengths it checks.
        let written = self.write_sorted(&mut data, &mut offsets, &mut weights);
        debug_assert!(written.is_ok());
        (data, offsets, weights)
    }

    /// The key of `slot`: from the slot itself when it is short.
    fn slot_key<'a>(&'a self, slot: &'a Slot) -> &'a [u8] {
        if slot.len as usize <= HEAD {
            slot.head.get(..slot.len as usize).unwrap_or_default()
        } else {
            key_at(&self.bytes, &self.ends, slot.index as usize)
        }
    }

    /// The slots in their keys' byte order.
    ///
    /// Heads compare as big-endian integers, in one instruction, and order
    /// the keys as their bytes do up to ties. Two keys with one head are
    /// either both longer than the head (their bytes decide) or one is at
    /// most the head long and, zero-padded, equals the other's start: it is
    /// a prefix of the other, padded with zero bytes the other also has,
    /// and the shorter key comes first.
    fn order(&self) -> Vec<Slot> {
        let mut slots: Vec<Slot> = self
            .slots
            .iter()
            .filter(|slot| slot.len != FREE)
            .copied()
            .collect();
        slots.sort_unstable_by(|a, b| {
            let head = |slot: &Slot| u128::from_be_bytes(slot.head);
            head(a).cmp(&head(b)).then_with(|| {
                if a.len as usize > HEAD && b.len as usize > HEAD {
                    let key = |slot: &Slot| key_at(&self.bytes, &self.ends, slot.index as usize);
                    key(a).cmp(key(b))
                } else {
                    a.len.cmp(&b.len)
                }
            })
        });
        slots
    }
}

/// Asks the processor to bring slot `at` into the cache, without waiting
/// for it and without reading it: any index is allowed, a wrong one only
/// wastes the fetch.
#[inline]
fn prefetch(slots: &[Slot], at: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let address = slots.as_ptr().wrapping_add(at).cast::<i8>();
        // SAFETY: a prefetch is a hint that never faults and reads nothing
        // the program can see, so any address is sound; SSE, which it
        // needs, is part of every x86-64 processor.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(address) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slots, at);
}

/// Key `i` of an arena: from the end of key `i - 1` (or 0) to its own end.
fn key_at<'a>(bytes: &'a [u8], ends: &[usize], i: usize) -> &'a [u8] {
    let start = i
        .checked_sub(1)
        .and_then(|j| ends.get(j))
        .copied()
        .unwrap_or(0);
    let end = ends.get(i).copied().unwrap_or(start);
    bytes.get(start..end).unwrap_or_default()
}

/// Checks that every weight is a finite number of at least 0, as
/// [`KeyCounts`] takes them: a binding that reads keys in its own way checks
/// a batch's weights with this before adding any of its rows.
///
/// # Errors
/// [`KeyCountsError::InvalidWeight`] with the first bad weight's index.
pub fn check_weights(weights: &[f64]) -> Result<(), KeyCountsError> {
    weights
        .iter()
        .enumerate()
        .try_for_each(|(index, &weight)| check_weight(weight, index))
}

/// Checks that a batch has one weight per key, when it has weights:
/// `weights` of another length than `keys` are refused.
///
/// # Errors
/// [`KeyCountsError::WeightsLength`] with both lengths.
pub fn check_weights_len(keys: usize, weights: Option<&[f64]>) -> Result<(), KeyCountsError> {
    match weights {
        Some(weights) if weights.len() != keys => Err(KeyCountsError::WeightsLength {
            keys,
            weights: weights.len(),
        }),
        _ => Ok(()),
    }
}

fn check_weight(weight: f64, index: usize) -> Result<(), KeyCountsError> {
    if weight.is_finite() && weight >= 0.0 {
        Ok(())
    } else {
        Err(KeyCountsError::InvalidWeight { index })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;

    /// Short keys over a small alphabet, and keys around the slot's head
    /// length sharing their first 14 to 18 bytes, so that heads tie.
    fn key() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            proptest::collection::vec(0u8..4, 0..12),
            (14usize..=18, proptest::collection::vec(0u8..3, 0..6)).prop_map(|(shared, tail)| {
                let mut key = vec![7u8; shared];
                key.extend(tail);
                key
            }),
        ]
    }

    proptest! {
        #[test]
        fn agrees_with_a_btreemap(
            rows in proptest::collection::vec((key(), 0u32..5), 0..400)
        ) {
            let mut counts = KeyCounts::new();
            let mut expected: BTreeMap<Vec<u8>, f64> = BTreeMap::new();
            for (key, weight) in &rows {
                counts.add(key, f64::from(*weight)).unwrap();
                *expected.entry(key.clone()).or_default() += f64::from(*weight);
            }
            let ours: Vec<(Vec<u8>, f64)> =
                counts.sorted().map(|(k, w)| (k.to_vec(), w)).collect();
            let theirs: Vec<(Vec<u8>, f64)> = expected.into_iter().collect();
            prop_assert_eq!(&ours, &theirs);
            prop_assert_eq!(counts.rows(), rows.len() as u64);
            // The same rows as one batch, counted a group at a time.
            let data: Vec<u8> = rows.iter().flat_map(|(key, _)| key.clone()).collect();
            let mut offsets = vec![0];
            for (key, _) in &rows {
                offsets.push(offsets.last().copied().unwrap_or(0) + key.len());
            }
            let weights: Vec<f64> = rows.iter().map(|&(_, w)| f64::from(w)).collect();
            let mut batch = KeyCounts::new();
            batch
                .add_batch(KeyOffsets::new(&data, &offsets).unwrap(), Some(&weights))
                .unwrap();
            let batched: Vec<(Vec<u8>, f64)> =
                batch.sorted().map(|(k, w)| (k.to_vec(), w)).collect();
            prop_assert_eq!(batched, theirs);
        }
    }

    #[test]
    fn a_batch_counts_as_its_keys_do() {
        let keys = KeyOffsets::new(b"abab", &[0, 1, 2, 3, 4, 4]).unwrap();
        let mut batch = KeyCounts::new();
        batch
            .add_batch(keys, Some(&[1.0, 2.0, 3.0, 4.0, 5.0]))
            .unwrap();
        let mut one_by_one = KeyCounts::new();
        for (key, w) in [("a", 1.0), ("b", 2.0), ("a", 3.0), ("b", 4.0), ("", 5.0)] {
            one_by_one.add(key.as_bytes(), w).unwrap();
        }
        assert!(batch.sorted().eq(one_by_one.sorted()));
        assert_eq!(
            batch.sorted().collect::<Vec<_>>(),
            [(&b""[..], 5.0), (&b"a"[..], 4.0), (&b"b"[..], 6.0)]
        );
    }

    #[test]
    fn bad_weights_add_nothing() {
        let keys = KeyOffsets::new(b"ab", &[0, 1, 2]).unwrap();
        let mut counts = KeyCounts::new();
        assert_eq!(
            counts.add_batch(keys, Some(&[1.0, f64::NAN])),
            Err(KeyCountsError::InvalidWeight { index: 1 })
        );
        assert_eq!(
            counts.add_batch(keys, Some(&[1.0])),
            Err(KeyCountsError::WeightsLength {
                keys: 2,
                weights: 1
            })
        );
        assert_eq!(
            counts.add(b"a", -1.0),
            Err(KeyCountsError::InvalidWeight { index: 0 })
        );
        assert_eq!(
            counts.add_keyless(f64::INFINITY),
            Err(KeyCountsError::InvalidWeight { index: 0 })
        );
        assert!(counts.is_empty());
        assert_eq!((counts.rows(), counts.keyless_weight()), (0, None));
    }

    #[test]
    fn sorted_output_is_arrow_layout() {
        let mut counts = KeyCounts::new();
        for key in ["pear", "apple", "", "pea", "apple"] {
            counts.add(key.as_bytes(), 1.0).unwrap();
        }
        let mut data = vec![0; counts.total_key_bytes()];
        let mut offsets = vec![0; counts.len() + 1];
        let mut weights = vec![0.0; counts.len()];
        counts
            .write_sorted(&mut data, &mut offsets, &mut weights)
            .unwrap();
        assert_eq!(data, b"applepeapear");
        assert_eq!(offsets, [0, 0, 5, 8, 12]);
        assert_eq!(weights, [1.0, 2.0, 1.0, 1.0]);
        assert_eq!(
            counts.write_sorted(&mut data, &mut offsets[1..], &mut weights),
            Err(KeyCountsError::OutputLength)
        );
    }

    #[test]
    fn long_keys_with_one_prefix_sort_by_their_bytes() {
        let mut counts = KeyCounts::new();
        let keys: [&[u8]; 4] = [b"abcdefgh\x00", b"abcdefgh", b"abcdefghz", b"abcdefg"];
        for key in keys {
            counts.add(key, 1.0).unwrap();
        }
        let ours: Vec<&[u8]> = counts.sorted().map(|(k, _)| k).collect();
        let mut theirs = keys.to_vec();
        theirs.sort_unstable();
        assert_eq!(ours, theirs);
    }
}
