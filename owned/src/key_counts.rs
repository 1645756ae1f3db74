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
use hashbrown::HashTable;
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
    /// Indices into `ends` and `weights`, found by the key's hash.
    table: HashTable<u32>,
    /// Every distinct key's bytes, in the order they were first seen.
    bytes: Vec<u8>,
    /// Where each key ends in `bytes` (key `i` starts where `i - 1` ends).
    ends: Vec<usize>,
    weights: Vec<f64>,
    keyless: Option<f64>,
    rows: u64,
    // Fixed, not random: the same keys give the same table on every run,
    // which keeps memory use and timings reproducible.
    hasher: FixedState,
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
    /// distinct keys.
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
    /// [`KeyCountsError::TooManyKeys`] past 2^32 - 1 distinct keys, when the
    /// keys before it have been added.
    pub fn add_batch(
        &mut self,
        keys: KeyOffsets<'_>,
        weights: Option<&[f64]>,
    ) -> Result<(), KeyCountsError> {
        match weights {
            None => keys.iter().try_for_each(|key| self.add_checked(key, 1.0)),
            Some(weights) => {
                if weights.len() != keys.len() {
                    return Err(KeyCountsError::WeightsLength {
                        keys: keys.len(),
                        weights: weights.len(),
                    });
                }
                for (index, &weight) in weights.iter().enumerate() {
                    check_weight(weight, index)?;
                }
                keys.iter()
                    .zip(weights)
                    .try_for_each(|(key, &weight)| self.add_checked(key, weight))
            }
        }
    }

    /// Adds a row whose weight has been checked.
    fn add_checked(&mut self, key: &[u8], weight: f64) -> Result<(), KeyCountsError> {
        let hash = self.hasher.hash_one(key);
        let Self {
            table,
            bytes,
            ends,
            weights,
            hasher,
            ..
        } = self;
        let key_of = |i: u32| key_at(bytes, ends, i as usize);
        let found = table.find(hash, |&i| key_of(i) == key).copied();
        match found {
            Some(i) => {
                if let Some(sum) = weights.get_mut(i as usize) {
                    *sum += weight;
                }
            }
            None => {
                let index = u32::try_from(ends.len())
                    .ok()
                    .filter(|&i| i != u32::MAX)
                    .ok_or(KeyCountsError::TooManyKeys)?;
                table.insert_unique(hash, index, |&i| {
                    hasher.hash_one(key_at(bytes, ends, i as usize))
                });
                bytes.extend_from_slice(key);
                ends.push(bytes.len());
                weights.push(weight);
            }
        }
        self.rows += 1;
        Ok(())
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
        self.order().into_iter().map(|i| {
            let i = i as usize;
            (
                key_at(&self.bytes, &self.ends, i),
                self.weights.get(i).copied().unwrap_or_default(),
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
        if data.len() != self.bytes.len()
            || offsets.len() != self.len() + 1
            || weights.len() != self.len()
        {
            return Err(KeyCountsError::OutputLength);
        }
        let mut at = 0;
        if let Some(first) = offsets.first_mut() {
            *first = 0;
        }
        // The lengths were checked above, so every `get_mut` finds its slot.
        for (i, (key, weight)) in self.sorted().enumerate() {
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

    /// The indices of the keys in byte order.
    ///
    /// Each key's first eight bytes, zero-padded and read big-endian, order
    /// the keys as their bytes do up to ties, and integers compare in one
    /// instruction; only ties compare bytes.
    fn order(&self) -> Vec<u32> {
        let prefix = |i: u32| {
            let key = key_at(&self.bytes, &self.ends, i as usize);
            let mut word = [0u8; 8];
            let n = key.len().min(8);
            word[..n].copy_from_slice(&key[..n]);
            u64::from_be_bytes(word)
        };
        let mut keyed: Vec<(u64, u32)> = (0..self.ends.len() as u32)
            .map(|i| (prefix(i), i))
            .collect();
        keyed.sort_unstable_by(|&(pa, a), &(pb, b)| {
            pa.cmp(&pb).then_with(|| {
                key_at(&self.bytes, &self.ends, a as usize).cmp(key_at(
                    &self.bytes,
                    &self.ends,
                    b as usize,
                ))
            })
        });
        keyed.into_iter().map(|(_, i)| i).collect()
    }
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

    proptest! {
        #[test]
        fn agrees_with_a_btreemap(
            rows in proptest::collection::vec(
                (proptest::collection::vec(0u8..4, 0..12), 0u32..5),
                0..400,
            )
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
            prop_assert_eq!(ours, theirs);
            prop_assert_eq!(counts.rows(), rows.len() as u64);
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
