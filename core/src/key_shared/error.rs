//! The errors of the selectors, with the broker's messages where it has one.

use core::fmt;

use super::{ConsumerId, HashRange};

/// Why a selector cannot be built. The first three are the messages of the
/// Java constructors' `IllegalArgumentException`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ConfigError {
    /// An AutoSplit range size below 2 (Java's message says "greater than 2",
    /// but 2 is accepted).
    RangeSizeTooSmall,
    /// An AutoSplit range size that is not a power of two.
    RangeSizeNotPowerOfTwo,
    /// A key hash range that ends before it starts (consistent hashing with
    /// a range maximum below 1, as `Range.of(1, max)` throws).
    RangeEndBeforeStart,
    /// A key hash range beyond Java's `int`: its end is above 2147483647 or
    /// it holds more than 2147483647 slots.
    KeyHashRangeTooLarge,
    /// The requested capacity does not fit the 32-bit handles the selectors
    /// use, or the address space.
    CapacityTooLarge,
    /// `grow` was given a config with other rules (points, range, range
    /// size, mode) or a smaller capacity.
    CannotGrowInto,
    /// The storage buffer is shorter than the config's `storage_words()`.
    StorageTooSmall {
        /// The words needed.
        needed: usize,
        /// The words given.
        got: usize,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::RangeSizeTooSmall => f.write_str("range size must greater than 2"),
            Self::RangeSizeNotPowerOfTwo => f.write_str("range size must be nth power with 2"),
            Self::RangeEndBeforeStart => f.write_str("Range end must >= range start."),
            Self::KeyHashRangeTooLarge => f.write_str(
                "key hash range must lie within [0, 2147483647] and hold at most 2147483647 slots",
            ),
            Self::CapacityTooLarge => {
                f.write_str("selector capacity too large for 32-bit handles or this address space")
            }
            Self::CannotGrowInto => f.write_str(
                "a selector can only grow into a config with the same rules and capacities at least as large",
            ),
            Self::StorageTooSmall { needed, got } => {
                write!(
                    f,
                    "selector storage too small: {needed} words needed, {got} given"
                )
            }
        }
    }
}

impl core::error::Error for ConfigError {}

/// Why a consumer cannot be added: the broker's `ConsumerAssignException`
/// messages, plus the limits of caller-provided storage.
///
/// A failed add changes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AssignError {
    /// AutoSplit: every range is down to one slot. `assigned_consumers` is
    /// the number of consumers already assigned.
    NoMoreRange {
        /// The consumers already in the selector.
        assigned_consumers: u32,
    },
    /// Exclusive: the consumer sent no `KeySharedMeta`.
    MissingKeySharedMeta,
    /// Exclusive: the consumer declared no range.
    EmptyRanges,
    /// Exclusive: a declared range with `start > end`.
    StartAfterEnd {
        /// The range, in the message as `[start,end]`.
        range: HashRange,
    },
    /// Exclusive, before PR #24730: a declared range with `start > end`; the
    /// old message does not name it.
    LegacyStartAfterEnd,
    /// Exclusive: two of the consumer's own ranges overlap (neighbours after
    /// sorting by start).
    OwnRangesConflict {
        /// The lower range.
        range: HashRange,
        /// The range after it, which it overlaps.
        next: HashRange,
    },
    /// Exclusive: a declared range overlaps a range of another consumer.
    RangeConflict {
        /// The consumer already holding the range.
        consumer: ConsumerId,
    },
    /// The consumer id is already in the selector. The broker never adds one
    /// instance twice; this crate refuses instead of guessing.
    DuplicateConsumer {
        /// The id.
        consumer: ConsumerId,
    },
    /// Every consumer slot of the storage is in use.
    ConsumerCapacity {
        /// The configured maximum.
        max_consumers: u32,
    },
    /// Consistent hashing: the name storage cannot hold one more name.
    NameCapacity,
    /// Exclusive: the range storage cannot hold the consumer's ranges.
    RangeCapacity {
        /// The configured maximum number of ranges.
        max_ranges: u32,
    },
}

impl AssignError {
    /// `Some("ConsumerAssignException")` for the errors the broker raises,
    /// `None` for this crate's own (duplicates and capacity).
    #[must_use]
    pub const fn java_class(&self) -> Option<&'static str> {
        match self {
            Self::DuplicateConsumer { .. }
            | Self::ConsumerCapacity { .. }
            | Self::NameCapacity
            | Self::RangeCapacity { .. } => None,
            _ => Some("ConsumerAssignException"),
        }
    }
}

impl fmt::Display for AssignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::NoMoreRange { assigned_consumers } => write!(
                f,
                "No more range can assigned to new consumer, assigned consumers {assigned_consumers}"
            ),
            Self::MissingKeySharedMeta => f.write_str("Must specify key shared meta for consumer."),
            Self::EmptyRanges => f.write_str("Ranges for KeyShared policy must not be empty."),
            Self::StartAfterEnd { range } => write!(
                f,
                "Fixed hash range start > end for range: [{},{}]",
                range.start, range.end
            ),
            Self::LegacyStartAfterEnd => f.write_str("Fixed hash range start > end"),
            Self::OwnRangesConflict { range, next } => write!(
                f,
                "Consumer's own ranges conflict: [{},{}] overlaps with [{},{}]",
                range.start, range.end, next.start, next.end
            ),
            // The broker appends `Consumer.toString()`, which names the
            // subscription, id, name and address; only the id is known here.
            Self::RangeConflict { consumer } => {
                write!(
                    f,
                    "Range conflict with consumer Consumer{{consumerId={consumer}}}"
                )
            }
            Self::DuplicateConsumer { consumer } => {
                write!(f, "consumer {consumer} is already in the selector")
            }
            Self::ConsumerCapacity { max_consumers } => write!(
                f,
                "no room for another consumer: the selector's storage holds {max_consumers}"
            ),
            Self::NameCapacity => {
                f.write_str("no room for the consumer's name in the selector's storage")
            }
            Self::RangeCapacity { max_ranges } => write!(
                f,
                "no room for the consumer's ranges: the selector's storage holds {max_ranges}"
            ),
        }
    }
}

impl core::error::Error for AssignError {}
