//! Hash ranges and the assignment snapshots the broker reports.

use core::fmt;

use super::ConsumerId;

/// An inclusive range of hash slots: Java's `Range` (and the wire's
/// `IntRange`), with its `int` bounds.
///
/// The bounds are not checked: a consumer may declare `start > end`, which
/// the selectors reject with Java's messages. Every range a selector reports
/// has `start <= end`.
///
/// ```
/// use pulsar_routing::key_shared::HashRange;
/// let r = HashRange::new(0, 32767);
/// assert_eq!(r.to_string(), "[0, 32767]");
/// assert_eq!(r.len(), 32768);
/// assert!(r.contains(32767) && !r.contains(32768));
/// ```
// `#[repr(C)]` so that C callers can pass their `{start, end}` arrays as is.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HashRange {
    /// The first slot.
    pub start: i32,
    /// The last slot, included.
    pub end: i32,
}

impl HashRange {
    /// The range `[start, end]`.
    #[must_use]
    pub const fn new(start: i32, end: i32) -> Self {
        Self { start, end }
    }

    /// The number of slots, 0 when `start > end`.
    #[must_use]
    pub const fn len(&self) -> u64 {
        if self.start > self.end {
            0
        } else {
            (self.end as i64 - self.start as i64 + 1) as u64
        }
    }

    /// True when `start > end`.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.start > self.end
    }

    /// Whether `slot` is in the range.
    #[must_use]
    pub const fn contains(&self, slot: i64) -> bool {
        self.start as i64 <= slot && slot <= self.end as i64
    }

    /// Java's overlap test, `max(starts) <= min(ends)`, used by both the
    /// broker and the client.
    #[must_use]
    pub const fn overlaps(&self, other: &Self) -> bool {
        let start = if self.start > other.start {
            self.start
        } else {
            other.start
        };
        let end = if self.end < other.end {
            self.end
        } else {
            other.end
        };
        start <= end
    }
}

impl From<(i32, i32)> for HashRange {
    fn from((start, end): (i32, i32)) -> Self {
        Self { start, end }
    }
}

impl From<HashRange> for (i32, i32) {
    fn from(r: HashRange) -> Self {
        (r.start, r.end)
    }
}

/// Java's `Range.toString()`: `[start, end]`.
impl fmt::Display for HashRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.start, self.end)
    }
}

/// One entry of a selector's snapshot: a range and its consumer (Java's
/// `HashRangeAssignment`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Assignment {
    /// The slots.
    pub range: HashRange,
    /// Who receives them.
    pub consumer: ConsumerId,
}

impl Assignment {
    /// `(start, end, consumer)`, the form the golden files and bindings use.
    #[must_use]
    pub const fn as_tuple(&self) -> (i32, i32, ConsumerId) {
        (self.range.start, self.range.end, self.consumer)
    }
}

/// Merges consecutive entries of one consumer whose ranges overlap or touch,
/// as Java's `mergeOverlappingRanges` does per consumer.
///
/// Merging consecutive entries of a sorted, non-overlapping snapshot is the
/// same as Java's per-consumer merge: two ranges of one consumer can only
/// touch when nothing lies between them, so they are neighbours in slot
/// order. The output stays in slot order; grouping by consumer is the
/// caller's (a map in the bindings).
pub(crate) struct Merged<I: Iterator<Item = Assignment>> {
    inner: I,
    pending: Option<Assignment>,
}

impl<I: Iterator<Item = Assignment>> Merged<I> {
    pub(crate) fn new(inner: I) -> Self {
        Self {
            inner,
            pending: None,
        }
    }
}

impl<I: Iterator<Item = Assignment>> Iterator for Merged<I> {
    type Item = Assignment;

    fn next(&mut self) -> Option<Assignment> {
        let mut current = match self.pending.take() {
            Some(a) => a,
            None => self.inner.next()?,
        };
        for next in self.inner.by_ref() {
            let touches = i64::from(current.range.end) >= i64::from(next.range.start) - 1;
            if next.consumer == current.consumer && touches {
                current.range.end = current.range.end.max(next.range.end);
            } else {
                self.pending = Some(next);
                break;
            }
        }
        Some(current)
    }
}
