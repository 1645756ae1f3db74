//! The client's check of sticky hash ranges (`KeySharedPolicy.validate()`,
//! called by `ConsumerBuilder.keySharedPolicy(...)`).
//!
//! The broker does not bound-check sticky ranges; the Java client does. C++
//! and Go clients embedding this crate call [`validate_sticky_ranges`]
//! before subscribing to get the same answers.

use core::fmt;

use super::HashRange;

/// `KeySharedPolicy.DEFAULT_HASH_RANGE_SIZE`: slots `[0, 65535]`.
pub const DEFAULT_HASH_RANGE_SIZE: i32 = 65536;

/// Why the Java client rejects a sticky key-shared policy, with its
/// `IllegalArgumentException` messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeySharedPolicyError {
    /// `Range.of(start, end)` with `end < start`, raised while the ranges
    /// are built, before `validate()`.
    RangeEndBeforeStart,
    /// No range.
    EmptyRanges,
    /// A range outside `[0, 65535]`.
    OutOfBounds {
        /// The range.
        range: HashRange,
    },
    /// Two ranges share a slot: the first failing range in order, then the
    /// first range it overlaps.
    Overlap {
        /// The range being checked.
        range: HashRange,
        /// The first other range it overlaps.
        other: HashRange,
    },
}

impl fmt::Display for KeySharedPolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::RangeEndBeforeStart => f.write_str("Range end must >= range start."),
            Self::EmptyRanges => f.write_str("Ranges for KeyShared policy must not be empty."),
            Self::OutOfBounds { range } => {
                write!(f, "Ranges must be [0, 65535] but provided range is {range}")
            }
            Self::Overlap { range, other } => write!(
                f,
                "Ranges for KeyShared policy with overlap between {range} and {other}"
            ),
        }
    }
}

impl core::error::Error for KeySharedPolicyError {}

/// Checks sticky ranges as `KeySharedPolicy.stickyHashRange().ranges(...)`
/// followed by `validate()` does, in Java's order: every range is built
/// (`end < start` fails), then the list must be non-empty, then for each
/// range in order its bounds, then its overlap with each other range.
///
/// The overlap check is O(n²) like Java's; sticky policies hold a handful
/// of ranges.
///
/// ```
/// use pulsar_routing::key_shared::{HashRange, validate_sticky_ranges};
/// assert!(validate_sticky_ranges(&[HashRange::new(0, 32767), HashRange::new(32768, 65535)]).is_ok());
/// let err = validate_sticky_ranges(&[HashRange::new(0, 10), HashRange::new(5, 65536)]).unwrap_err();
/// assert_eq!(err.to_string(), "Ranges for KeyShared policy with overlap between [0, 10] and [5, 65536]");
/// ```
///
/// # Errors
/// The first [`KeySharedPolicyError`] Java raises.
pub fn validate_sticky_ranges(ranges: &[HashRange]) -> Result<(), KeySharedPolicyError> {
    if ranges.iter().any(|r| r.end < r.start) {
        return Err(KeySharedPolicyError::RangeEndBeforeStart);
    }
    if ranges.is_empty() {
        return Err(KeySharedPolicyError::EmptyRanges);
    }
    for (i, range) in ranges.iter().enumerate() {
        if range.start < 0 || range.end >= DEFAULT_HASH_RANGE_SIZE {
            return Err(KeySharedPolicyError::OutOfBounds { range: *range });
        }
        let overlapping = ranges
            .iter()
            .enumerate()
            .find(|&(j, other)| i != j && range.overlaps(other));
        if let Some((_, other)) = overlapping {
            return Err(KeySharedPolicyError::Overlap {
                range: *range,
                other: *other,
            });
        }
    }
    Ok(())
}
