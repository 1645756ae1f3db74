//! Key_Shared selectors that own their storage and grow it: one type over
//! the three broker selectors, and one growth policy, for every binding.
//!
//! The core's selectors work in storage the caller sizes, and fail an add
//! that does not fit with a capacity error. [`Selector`] holds its storage
//! in a `Vec<u32>` and, on such an error, moves into bigger storage (the
//! core's `grow`) and adds again, so an add fails only for the broker's
//! reasons, or when the room needed no longer fits 32-bit capacities (the
//! capacity error is then returned), or when memory runs out
//! ([`Error::OutOfMemory`], never an abort). [`Selector::reserve`] makes
//! room ahead of time, so that later adds allocate nothing.
//!
//! Two checks the bindings would otherwise each write: [`Selector::ring_of`]
//! finds the consistent-hashing ring a consumer's points and name index
//! come from, and [`key_hash_range`] checks a key hash range given as a
//! binding's integers.

use core::fmt;
use core::ops::Deref;

use pulsar_routing::key_shared::{
    AnySelector, AssignError, AutoSplitConfig, Capacity, ConfigError, ConsistentHashingConfig,
    ConsistentHashingSelector, ConsumerId, ExclusiveConfig, ExclusiveMode, HashRange, Impact,
    KeyHashRange, SelectorConfig, SelectorKind,
};

/// The room a selector made by [`Selector::auto_split`],
/// [`Selector::consistent_hashing`] or [`Selector::exclusive`] starts with:
/// 16 consumers, 64 bytes of name each, 64 declared ranges.
pub const INITIAL_CAPACITY: Capacity = Capacity {
    max_consumers: 16,
    name_bytes: 16 * 64,
    max_ranges: 64,
};

/// Why a selector operation failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// The broker refuses the consumer (or the id is already in), or the
    /// room it needs does not fit 32-bit capacities.
    Assign(AssignError),
    /// The selector cannot be built or sized so.
    Config(ConfigError),
    /// The storage could not be allocated; the selector is unchanged.
    OutOfMemory,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Assign(e) => e.fmt(f),
            Self::Config(e) => e.fmt(f),
            Self::OutOfMemory => f.write_str("memory allocation failed"),
        }
    }
}

impl std::error::Error for Error {}

impl From<AssignError> for Error {
    fn from(e: AssignError) -> Self {
        Self::Assign(e)
    }
}

impl From<ConfigError> for Error {
    fn from(e: ConfigError) -> Self {
        Self::Config(e)
    }
}

/// The key hash range `[start, end]` from bounds as a binding reads them
/// (C's `int`s, Python's ints), checked as the core checks a range.
///
/// # Errors
/// [`ConfigError::RangeEndBeforeStart`] when `end < start`, else
/// [`ConfigError::KeyHashRangeTooLarge`] for a negative start, or a range
/// the core refuses as too large.
pub fn key_hash_range(start: i64, end: i64) -> Result<KeyHashRange, ConfigError> {
    if end < start {
        return Err(ConfigError::RangeEndBeforeStart);
    }
    match (u32::try_from(start), u32::try_from(end)) {
        (Ok(start), Ok(end)) => KeyHashRange::new(start, end),
        _ => Err(ConfigError::KeyHashRangeTooLarge),
    }
}

/// Why [`Selector::ring_of`] has no ring for a consumer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RingError {
    /// The selector is not a consistent-hashing one: no consumer has ring
    /// points or a name index.
    WrongKind,
    /// The consumer is not in the selector.
    NotFound,
}

impl fmt::Display for RingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::WrongKind => "not a consistent-hashing selector",
            Self::NotFound => "no such consumer",
        })
    }
}

impl std::error::Error for RingError {}

/// A Key_Shared selector of any kind in storage that grows on demand.
///
/// Reading (select, snapshots, consumers, the last impact, kind-specific
/// queries) goes through [`AnySelector`], which it dereferences to; adding,
/// removing and reserving go through its own methods, which grow.
///
/// ```
/// use pulsar_routing::key_shared::{ExclusiveMode, HashRange};
/// use pulsar_routing_owned::key_shared::{INITIAL_CAPACITY, Selector};
/// let mut sel = Selector::exclusive(ExclusiveMode::Current)?;
/// // Far more consumers than the initial room: the storage grows.
/// for id in 0..100u16 {
///     let start = i32::from(id) * 10;
///     sel.add(id.into(), b"", Some(&[HashRange::new(start, start + 9)]))?;
/// }
/// assert!(sel.capacity().max_consumers > INITIAL_CAPACITY.max_consumers);
/// let impact = sel.remove(7);
/// assert_eq!(impact.removed().collect::<Vec<_>>(), [(7, HashRange::new(70, 79))]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Selector {
    inner: AnySelector<Vec<u32>>,
}

impl Deref for Selector {
    type Target = AnySelector<Vec<u32>>;

    fn deref(&self) -> &Self::Target {
        &self.inner
    }
}

/// `words` zeroed words, or [`Error::OutOfMemory`].
fn storage(words: usize) -> Result<Vec<u32>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(words).map_err(|_| Error::OutOfMemory)?;
    v.resize(words, 0);
    Ok(v)
}

/// A capacity at least doubled and at least `need` more, or `None` when it
/// would not fit 32 bits.
fn bigger(current: u32, need: usize) -> Option<u32> {
    let need = u32::try_from(need).ok()?;
    let doubled = current.checked_mul(2)?.max(1);
    Some(doubled.max(current.checked_add(need)?))
}

/// The growth policy: the room after an add failed with `err`, for a
/// consumer with a name of `name_len` bytes (0 where names do not count)
/// and `ranges` declared ranges; `None` when `err` is not about room or no
/// bigger room fits 32 bits.
fn grown(room: Capacity, err: &AssignError, name_len: usize, ranges: usize) -> Option<Capacity> {
    let mut room = room;
    match err {
        AssignError::ConsumerCapacity { .. } => {
            room.max_consumers = bigger(room.max_consumers, 1)?;
            // Names grow with consumers, so a growing crowd does not stop
            // once more for the names.
            if name_len > 0 || room.name_bytes > 0 {
                room.name_bytes = bigger(room.name_bytes, name_len)?;
            }
        }
        AssignError::NameCapacity => room.name_bytes = bigger(room.name_bytes, name_len)?,
        AssignError::RangeCapacity { .. } => room.max_ranges = bigger(room.max_ranges, ranges)?,
        _ => return None,
    }
    Some(room)
}

impl Selector {
    /// An empty selector with the config's rules, starting with the
    /// config's room (a pre-allocation: it grows past it as needed).
    ///
    /// # Errors
    /// The config's errors, and [`Error::OutOfMemory`].
    pub fn new(config: SelectorConfig) -> Result<Self, Error> {
        let words = storage(config.storage_words()?)?;
        Ok(Self {
            inner: AnySelector::new(config, words)?,
        })
    }

    /// An AutoSplit selector with Java's `range_size` and the
    /// [`INITIAL_CAPACITY`].
    ///
    /// # Errors
    /// Java's range size errors, and [`Error::OutOfMemory`].
    pub fn auto_split(range_size: i32) -> Result<Self, Error> {
        let config = AutoSplitConfig::new(0).with_range_size(range_size);
        Self::new(SelectorConfig::AutoSplit(config).with_capacity(INITIAL_CAPACITY))
    }

    /// A consistent-hashing selector with `points` ring points per consumer
    /// and slots `[1, range_max]`, and the [`INITIAL_CAPACITY`].
    ///
    /// # Errors
    /// The key hash range errors, and [`Error::OutOfMemory`].
    pub fn consistent_hashing(points: u32, range_max: u32) -> Result<Self, Error> {
        let config = ConsistentHashingConfig::new(0)
            .with_points(points)
            .with_range_max(range_max);
        Self::new(SelectorConfig::ConsistentHashing(config).with_capacity(INITIAL_CAPACITY))
    }

    /// An exclusive (sticky ranges) selector with the given rules and the
    /// [`INITIAL_CAPACITY`].
    ///
    /// # Errors
    /// [`Error::OutOfMemory`].
    pub fn exclusive(mode: ExclusiveMode) -> Result<Self, Error> {
        let config = ExclusiveConfig::new(0, 0).with_mode(mode);
        Self::new(SelectorConfig::Exclusive(config).with_capacity(INITIAL_CAPACITY))
    }

    /// The consistent-hashing selector within, for the ring points and name
    /// index of `consumer`, which it holds.
    ///
    /// # Errors
    /// [`RingError::WrongKind`] for another kind of selector, then
    /// [`RingError::NotFound`] when the consumer is not in it.
    pub fn ring_of(
        &self,
        consumer: ConsumerId,
    ) -> Result<&ConsistentHashingSelector<Vec<u32>>, RingError> {
        let AnySelector::ConsistentHashing(ring) = &self.inner else {
            return Err(RingError::WrongKind);
        };
        if ring.contains(consumer) {
            Ok(ring)
        } else {
            Err(RingError::NotFound)
        }
    }

    /// The room it has now.
    #[must_use]
    pub fn capacity(&self) -> Capacity {
        self.inner.config().capacity()
    }

    /// Adds a consumer (see [`AnySelector::add`]) and returns what moved,
    /// growing the storage as often as the add needs. The core checks all
    /// the broker checks before it looks for room, so an add retried in
    /// bigger storage fails or succeeds as the broker's would.
    ///
    /// # Errors
    /// The broker's [`AssignError`]s and [`AssignError::DuplicateConsumer`];
    /// a capacity error only when the room needed does not fit 32 bits;
    /// [`Error::OutOfMemory`]. Nothing changes on error but the last impact,
    /// which is emptied.
    pub fn add(
        &mut self,
        consumer: ConsumerId,
        name: &[u8],
        ranges: Option<&[HashRange]>,
    ) -> Result<Impact<'_>, Error> {
        let name_len = match self.inner.kind() {
            SelectorKind::ConsistentHashing => name.len(),
            _ => 0,
        };
        loop {
            let Err(err) = self.inner.add(consumer, name, ranges).map(|_| ()) else {
                return Ok(self.inner.last_impact());
            };
            let Some(room) = grown(
                self.capacity(),
                &err,
                name_len,
                ranges.map_or(0, <[_]>::len),
            ) else {
                return Err(err.into());
            };
            match self.grow_to(room) {
                Ok(()) => {}
                Err(Error::Config(ConfigError::CapacityTooLarge)) => return Err(err.into()),
                Err(e) => return Err(e),
            }
        }
    }

    /// Removes a consumer and returns what moved; an unknown consumer is a
    /// no-op with an empty impact.
    pub fn remove(&mut self, consumer: ConsumerId) -> Impact<'_> {
        self.inner.remove(consumer)
    }

    /// Makes room for at least `capacity` (each field the kind uses; the
    /// room never shrinks), keeping the consumers, history and last impact.
    /// Allocates nothing when the room is already there.
    ///
    /// # Errors
    /// [`ConfigError::CapacityTooLarge`] and [`Error::OutOfMemory`]; the
    /// selector is then unchanged.
    pub fn reserve(&mut self, capacity: Capacity) -> Result<(), Error> {
        let now = self.capacity();
        self.grow_to(Capacity {
            max_consumers: now.max_consumers.max(capacity.max_consumers),
            name_bytes: now.name_bytes.max(capacity.name_bytes),
            max_ranges: now.max_ranges.max(capacity.max_ranges),
        })
    }

    /// Moves into storage with room `room` (not smaller than now); a no-op
    /// when the config does not change.
    fn grow_to(&mut self, room: Capacity) -> Result<(), Error> {
        let config = self.inner.config();
        let bigger = config.with_capacity(room);
        if bigger != config {
            let words = storage(bigger.storage_words()?)?;
            self.inner = self.inner.grow(bigger, words)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_doubles_and_covers_the_need() {
        assert_eq!(bigger(0, 1), Some(1));
        assert_eq!(bigger(16, 1), Some(32));
        assert_eq!(bigger(64, 500), Some(564));
        assert_eq!(bigger(u32::MAX / 2 + 1, 1), None);
    }

    #[test]
    fn every_kind_grows_past_its_initial_room() {
        let many = INITIAL_CAPACITY.max_consumers + 10;
        let mut sels = [
            Selector::auto_split(65536).unwrap(),
            Selector::consistent_hashing(10, 65535).unwrap(),
            Selector::exclusive(ExclusiveMode::Current).unwrap(),
        ];
        for sel in &mut sels {
            for id in 0..many {
                let start = i32::try_from(id).unwrap() * 100;
                let name = format!("consumer-{id}-{}", "x".repeat(100));
                let ranges = [HashRange::new(start, start + 49)];
                sel.add(id.into(), name.as_bytes(), Some(&ranges)).unwrap();
            }
            assert_eq!(sel.len(), many as usize);
            assert!(sel.capacity().max_consumers >= many);
        }
        // One consumer declaring more ranges than the initial room.
        let sel = &mut sels[2];
        let ranges: Vec<_> = (0..200)
            .map(|i| HashRange::new(60_000 + 2 * i, 60_000 + 2 * i))
            .collect();
        let impact = sel.add(9999, b"", Some(&ranges)).unwrap();
        let added: Vec<_> = impact.added().collect();
        assert_eq!(added, ranges.iter().map(|&r| (9999, r)).collect::<Vec<_>>());
    }

    #[test]
    fn reserve_is_a_pre_allocation() {
        let mut sel = Selector::exclusive(ExclusiveMode::LegacyPre24730).unwrap();
        sel.add(
            1,
            b"",
            Some(&[HashRange::new(0, 10), HashRange::new(20, 30)]),
        )
        .unwrap();
        let want = Capacity {
            max_consumers: 100,
            name_bytes: 5,
            max_ranges: 1000,
        };
        sel.reserve(want).unwrap();
        assert_eq!(
            sel.capacity(),
            Capacity {
                name_bytes: 0,
                ..want
            }
        );
        // Nothing moved but the storage: the last impact is the add's.
        let added: Vec<_> = sel.last_impact().added().collect();
        assert_eq!(added, [(1, HashRange::new(0, 30))]);
        assert_eq!(
            sel.reserve(Capacity {
                max_consumers: u32::MAX,
                ..want
            }),
            Err(Error::Config(ConfigError::CapacityTooLarge))
        );
        assert_eq!(sel.capacity().max_consumers, 100);
    }

    #[test]
    fn key_hash_ranges_from_wide_bounds() {
        assert_eq!(
            key_hash_range(1, 65535),
            Ok(KeyHashRange::CONSISTENT_HASHING)
        );
        assert_eq!(key_hash_range(1, 0), Err(ConfigError::RangeEndBeforeStart));
        assert_eq!(
            key_hash_range(-1, -5),
            Err(ConfigError::RangeEndBeforeStart)
        );
        assert_eq!(
            key_hash_range(-1, 5),
            Err(ConfigError::KeyHashRangeTooLarge)
        );
        assert_eq!(
            key_hash_range(0, i64::from(i32::MAX)),
            Err(ConfigError::KeyHashRangeTooLarge)
        );
        assert_eq!(
            key_hash_range(1, 1 << 40),
            Err(ConfigError::KeyHashRangeTooLarge)
        );
    }

    #[test]
    fn only_a_ring_member_has_a_ring() {
        let mut ring = Selector::consistent_hashing(3, 65535).unwrap();
        ring.add(4, b"c", None).unwrap();
        assert_eq!(ring.ring_of(4).unwrap().consumer_points(4).count(), 3);
        assert_eq!(ring.ring_of(5).unwrap_err(), RingError::NotFound);
        let split = Selector::auto_split(65536).unwrap();
        assert_eq!(split.ring_of(4).unwrap_err(), RingError::WrongKind);
    }

    #[test]
    fn the_broker_errors_pass_through() {
        let mut sel = Selector::exclusive(ExclusiveMode::Current).unwrap();
        sel.add(1, b"", Some(&[HashRange::new(0, 10)])).unwrap();
        let err = sel.add(2, b"", Some(&[HashRange::new(5, 20)])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Range conflict with consumer Consumer{consumerId=1}"
        );
        assert!(sel.last_impact().is_empty());
        assert_eq!(Error::OutOfMemory.to_string(), "memory allocation failed");
    }
}
