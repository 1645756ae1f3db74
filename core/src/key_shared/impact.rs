//! What an add or a remove moved: the broker's `ImpactedConsumersResult`.

use super::storage::{rd, wr};
use super::{ConsumerId, HashRange};

/// Words per stored impact range: id (two words), start, end.
pub(crate) const ENTRY_WORDS: usize = 4;

/// The ranges each consumer lost (`removed`) and gained (`added`) in one
/// add or remove: Java's diff of the snapshots before and after
/// (`ConsumerHashAssignmentsSnapshot.resolveImpactedConsumers`).
///
/// Both lists come in slot order. Filtered to one consumer, a list is that
/// consumer's ranges exactly as Java's map holds them: sorted and merged
/// when overlapping or adjacent.
///
/// In the broker, `removed` ranges of consumers other than the one removed
/// become draining hashes, and `added` ranges that return to their original
/// consumer release them (#24736).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Impact<'a> {
    removed: &'a [u32],
    added: &'a [u32],
}

impl<'a> Impact<'a> {
    pub(crate) const fn new(removed: &'a [u32], added: &'a [u32]) -> Self {
        Self { removed, added }
    }

    /// `(consumer, range)` for every range that left its consumer.
    #[must_use]
    pub fn removed(&self) -> ImpactRanges<'a> {
        ImpactRanges {
            words: self.removed,
        }
    }

    /// `(consumer, range)` for every range that a consumer gained.
    #[must_use]
    pub fn added(&self) -> ImpactRanges<'a> {
        ImpactRanges { words: self.added }
    }

    /// True when nothing moved.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.removed.is_empty() && self.added.is_empty()
    }
}

/// The ranges of one side of an [`Impact`], in slot order.
#[derive(Clone, Copy, Debug)]
pub struct ImpactRanges<'a> {
    words: &'a [u32],
}

impl Iterator for ImpactRanges<'_> {
    type Item = (ConsumerId, HashRange);

    fn next(&mut self) -> Option<Self::Item> {
        let (entry, rest) = self.words.split_first_chunk::<ENTRY_WORDS>()?;
        self.words = rest;
        let [lo, hi, start, end] = *entry;
        Some((
            u64::from(lo) | (u64::from(hi) << 32),
            HashRange::new(start as i32, end as i32),
        ))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.words.len() / ENTRY_WORDS;
        (n, Some(n))
    }
}

impl ExactSizeIterator for ImpactRanges<'_> {}

/// The writers of the two lists of an impact region holding `per_list`
/// entries each.
pub(crate) fn writers(words: &mut [u32], per_list: usize) -> (ImpactWriter<'_>, ImpactWriter<'_>) {
    let mid = (per_list * ENTRY_WORDS).min(words.len());
    let (removed, added) = words.split_at_mut(mid);
    (ImpactWriter::new(removed), ImpactWriter::new(added))
}

/// The two lists of an impact region holding `per_list` entries each, the
/// first `removed` and `added` of them in use.
pub(crate) fn read(words: &[u32], per_list: usize, removed: u32, added: u32) -> Impact<'_> {
    let mid = (per_list * ENTRY_WORDS).min(words.len());
    let (r, a) = words.split_at(mid);
    Impact::new(
        r.get(..removed as usize * ENTRY_WORDS).unwrap_or(&[]),
        a.get(..added as usize * ENTRY_WORDS).unwrap_or(&[]),
    )
}

/// Appends ranges to one list, merging a range into the previous one when it
/// has the same consumer and touches it.
pub(crate) struct ImpactWriter<'a> {
    words: &'a mut [u32],
    len: usize,
}

impl<'a> ImpactWriter<'a> {
    pub(crate) fn new(words: &'a mut [u32]) -> Self {
        Self { words, len: 0 }
    }

    /// The entries written so far.
    pub(crate) fn entries(&self) -> &[u32] {
        self.words.get(..self.len * ENTRY_WORDS).unwrap_or(&[])
    }

    /// The number of entries written.
    pub(crate) const fn len(&self) -> usize {
        self.len
    }

    /// Adds `[start, end]` to `consumer`'s ranges. The layouts reserve room
    /// for the most entries an operation can produce, so a full list (which
    /// would be a bug) drops the range rather than panic.
    pub(crate) fn push(&mut self, consumer: ConsumerId, start: i64, end: i64) {
        if start > end {
            return;
        }
        if let Some(last) = self.len.checked_sub(1) {
            let at = last * ENTRY_WORDS;
            let last_id = u64::from(rd(self.words, at)) | (u64::from(rd(self.words, at + 1)) << 32);
            let last_end = i64::from(rd(self.words, at + 3) as i32);
            if last_id == consumer && last_end + 1 >= start {
                wr(self.words, at + 3, end.max(last_end) as i32 as u32);
                return;
            }
        }
        let at = self.len * ENTRY_WORDS;
        if at + ENTRY_WORDS > self.words.len() {
            return;
        }
        wr(self.words, at, consumer as u32);
        wr(self.words, at + 1, (consumer >> 32) as u32);
        wr(self.words, at + 2, start as i32 as u32);
        wr(self.words, at + 3, end as i32 as u32);
        self.len += 1;
    }
}
