//! Sticky key to slot: the hash reduced into a selector's key hash range
//! (`StickyKeyConsumerSelectorUtils.makeStickyKeyHash`).

use core::fmt;
use core::str::FromStr;

use super::StickyKey;
use super::error::ConfigError;
use crate::murmur3::{POSITIVE_MASK, murmur3_32};
use crate::partition_count::PartitionCount;

/// A selector's inclusive range of slots, `[start, end]`: a key's slot is
/// `murmur3_31(key) % (end - start + 1) + start`, and 0 becomes 1 (0 means
/// "no hash" in the broker).
///
/// The same key gets a different slot under different selectors, so the
/// range is always an argument; each selector also hands out its own
/// ([`KeyHashRange::EXCLUSIVE`] for [`super::ExclusiveSelector`], ...).
///
/// ```
/// use pulsar_routing::key_shared::KeyHashRange;
/// use pulsar_routing::murmur3_32;
/// let m = murmur3_32(b"NONE_KEY");
/// assert_eq!(KeyHashRange::AUTO_SPLIT.slot_of(b"NONE_KEY"), m % 65536);
/// assert_eq!(KeyHashRange::CONSISTENT_HASHING.slot_of(b"NONE_KEY"), m % 65535 + 1);
/// // The empty key hashes to 0, which no selector produces.
/// assert_eq!(KeyHashRange::AUTO_SPLIT.slot_of(b""), 1);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyHashRange {
    start: u32,
    end: u32,
    size: PartitionCount,
}

const fn count(n: u32) -> PartitionCount {
    match PartitionCount::new(n) {
        Ok(c) => c,
        Err(_) => PartitionCount::ONE,
    }
}

impl KeyHashRange {
    /// `[0, 65535]`, modulus 65536: the AutoSplit selector (range size 65536).
    pub const AUTO_SPLIT: Self = Self {
        start: 0,
        end: 65535,
        size: count(65536),
    };

    /// `[0, 65535]`, modulus 65536: the Exclusive (sticky) selector.
    pub const EXCLUSIVE: Self = Self::AUTO_SPLIT;

    /// `[1, 65535]`, modulus 65535: consistent hashing with the default
    /// (PIP-379) dispatcher.
    pub const CONSISTENT_HASHING: Self = Self {
        start: 1,
        end: 65535,
        size: count(65535),
    };

    /// `[1, 2147483646]`: consistent hashing as the Classic persistent
    /// dispatcher (`subscriptionKeySharedUseClassicPersistentImplementation`)
    /// builds it.
    pub const CLASSIC_CONSISTENT_HASHING: Self = Self {
        start: 1,
        end: 2_147_483_646,
        size: count(2_147_483_646),
    };

    /// The range `[start, end]`.
    ///
    /// # Errors
    /// [`ConfigError::RangeEndBeforeStart`] when `end < start`;
    /// [`ConfigError::KeyHashRangeTooLarge`] when `end` is above
    /// `Integer.MAX_VALUE` or the range holds more than `2^31 - 1` slots.
    pub const fn new(start: u32, end: u32) -> Result<Self, ConfigError> {
        if end < start {
            return Err(ConfigError::RangeEndBeforeStart);
        }
        if end > i32::MAX as u32 {
            return Err(ConfigError::KeyHashRangeTooLarge);
        }
        match PartitionCount::new(end - start + 1) {
            Ok(size) => Ok(Self { start, end, size }),
            Err(_) => Err(ConfigError::KeyHashRangeTooLarge),
        }
    }

    /// The first slot.
    #[must_use]
    pub const fn start(self) -> u32 {
        self.start
    }

    /// The last slot.
    #[must_use]
    pub const fn end(self) -> u32 {
        self.end
    }

    /// The number of slots, the modulus.
    #[must_use]
    pub const fn size(self) -> u32 {
        self.size.get()
    }

    /// The slot of a key whose 31-bit Murmur3 is `murmur3_31` (bit 31 is
    /// cleared first, as `makeHash` does).
    #[must_use]
    #[inline]
    pub const fn reduce(self, murmur3_31: u32) -> u32 {
        let slot = self.offset(murmur3_31) + self.start;
        if slot == 0 { 1 } else { slot }
    }

    /// `murmur3_31 % size`, the slot's distance from `start` before 0 is
    /// moved to 1. Selectors whose range starts at 1 add 1 and are done,
    /// one step shorter than [`KeyHashRange::reduce`] on the hot path.
    #[must_use]
    #[inline]
    pub(crate) const fn offset(self, murmur3_31: u32) -> u32 {
        self.offset_of_31_bits(murmur3_31 & POSITIVE_MASK)
    }

    /// [`KeyHashRange::offset`] of a hash whose bit 31 is already clear, as
    /// [`StickyKey::murmur3`]'s is: one step less on the hot path. With bit
    /// 31 set the fold could return the modulus itself, so callers must
    /// only pass 31-bit hashes (crate-private for that reason).
    #[inline]
    pub(crate) const fn offset_of_31_bits(self, h: u32) -> u32 {
        // Every message takes this path, and consistent hashing's default
        // range has an exact reduction shorter than the general multiply:
        // for 65535 = 2^16 - 1 the high half folds onto the low one
        // (2^16 = 1 mod 65535); with `h < 2^31` the sum stays below twice
        // the modulus, so one subtraction finishes it. The branch is on the
        // selector's fixed range, so it is always predicted. (65536, the
        // other default, keeps the general multiply: a second shortcut
        // branch measured slower for consistent hashing, the hot path.)
        if self.size.get() == 65535 {
            let folded = (h & 0xffff) + (h >> 16);
            if folded >= 65535 {
                folded - 65535
            } else {
                folded
            }
        } else {
            self.size.reduce(h)
        }
    }

    /// The slot of a sticky key.
    #[must_use]
    #[inline]
    pub fn slot(self, key: &StickyKey<'_>) -> u32 {
        self.reduce(key.murmur3())
    }

    /// The slot of raw key bytes.
    #[must_use]
    #[inline]
    pub const fn slot_of(self, key: &[u8]) -> u32 {
        self.reduce(murmur3_32(key))
    }
}

impl fmt::Debug for KeyHashRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KeyHashRange[{}, {}]", self.start, self.end)
    }
}

/// Java's `Range.toString()` of the key hash range: `[start, end]`.
impl fmt::Display for KeyHashRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.start, self.end)
    }
}

/// The three broker selectors, by the names the C and Python APIs use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SelectorKind {
    /// `"auto_split"`: [`super::AutoSplitSelector`].
    AutoSplit,
    /// `"consistent_hashing"`: [`super::ConsistentHashingSelector`].
    ConsistentHashing,
    /// `"exclusive"`: [`super::ExclusiveSelector`].
    Exclusive,
}

impl SelectorKind {
    /// The short name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        crate::names::str_of(self.c_name())
    }

    /// [`SelectorKind::name`] as a C string.
    #[must_use]
    pub const fn c_name(self) -> &'static core::ffi::CStr {
        match self {
            Self::AutoSplit => c"auto_split",
            Self::ConsistentHashing => c"consistent_hashing",
            Self::Exclusive => c"exclusive",
        }
    }

    /// The selector's key hash range with the broker's default settings.
    #[must_use]
    pub const fn key_hash_range(self) -> KeyHashRange {
        match self {
            Self::AutoSplit => KeyHashRange::AUTO_SPLIT,
            Self::ConsistentHashing => KeyHashRange::CONSISTENT_HASHING,
            Self::Exclusive => KeyHashRange::EXCLUSIVE,
        }
    }
}

impl fmt::Display for SelectorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SelectorKind {
    type Err = UnknownSelectorKind;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto_split" => Ok(Self::AutoSplit),
            "consistent_hashing" => Ok(Self::ConsistentHashing),
            "exclusive" => Ok(Self::Exclusive),
            _ => Err(UnknownSelectorKind),
        }
    }
}

/// The text did not name a [`SelectorKind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnknownSelectorKind;

impl fmt::Display for UnknownSelectorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "unknown selector: expected \"auto_split\", \"consistent_hashing\" or \"exclusive\"",
        )
    }
}

impl core::error::Error for UnknownSelectorKind {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(KeyHashRange::new(0, 65535), Ok(KeyHashRange::AUTO_SPLIT));
        assert_eq!(
            KeyHashRange::new(1, 2_147_483_646),
            Ok(KeyHashRange::CLASSIC_CONSISTENT_HASHING)
        );
        assert_eq!(
            KeyHashRange::new(2, 1),
            Err(ConfigError::RangeEndBeforeStart)
        );
        assert_eq!(
            KeyHashRange::new(0, i32::MAX as u32),
            Err(ConfigError::KeyHashRangeTooLarge)
        );
        let r = KeyHashRange::new(1, i32::MAX as u32).unwrap();
        assert_eq!(r.reduce(u32::MAX), 1);
        assert_eq!(r.reduce(i32::MAX as u32 - 1), i32::MAX as u32);
        assert_eq!(KeyHashRange::CONSISTENT_HASHING.reduce(65534), 65535);
        assert_eq!(KeyHashRange::CONSISTENT_HASHING.reduce(65535), 1);
        assert_eq!(KeyHashRange::AUTO_SPLIT.reduce(65536), 1);
        // The fold's edges: sums just below, at and above the modulus, and
        // the largest 31-bit hash.
        for h in [
            0,
            65534,
            65535,
            65536,
            131_069,
            131_070,
            131_071,
            0x7fff_ffff,
            u32::MAX,
        ] {
            let expected = (h & 0x7fff_ffff) % 65535 + 1;
            assert_eq!(KeyHashRange::CONSISTENT_HASHING.reduce(h), expected, "{h}");
        }
    }
}
