//! One interface over the three selectors, so a caller holding "a
//! selector" never matches on its kind to select, add, remove, read its
//! snapshot or grow it.

use super::{
    AssignError, Assignment, AutoSplitConfig, AutoSplitSelector, ConfigError,
    ConsistentHashingConfig, ConsistentHashingSelector, ConsumerId, ExclusiveConfig,
    ExclusiveSelector, HashRange, Impact, KeyHashRange, SelectorKind, StickyKey,
};

/// What a selector's storage has room for. Each kind uses some of the
/// fields: `max_consumers` all of them, `name_bytes` consistent hashing,
/// `max_ranges` the exclusive selector; the others read as 0 and are
/// ignored when set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Capacity {
    /// Consumers.
    pub max_consumers: u32,
    /// Bytes of the live consumers' names (consistent hashing).
    pub name_bytes: u32,
    /// Declared ranges, over all consumers (exclusive).
    pub max_ranges: u32,
}

/// The config of any selector kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SelectorConfig {
    /// An [`AutoSplitSelector`].
    AutoSplit(AutoSplitConfig),
    /// A [`ConsistentHashingSelector`].
    ConsistentHashing(ConsistentHashingConfig),
    /// An [`ExclusiveSelector`].
    Exclusive(ExclusiveConfig),
}

impl SelectorConfig {
    /// The kind of selector it configures.
    #[must_use]
    pub const fn kind(&self) -> SelectorKind {
        match self {
            Self::AutoSplit(_) => SelectorKind::AutoSplit,
            Self::ConsistentHashing(_) => SelectorKind::ConsistentHashing,
            Self::Exclusive(_) => SelectorKind::Exclusive,
        }
    }

    /// The words of storage the selector needs.
    ///
    /// # Errors
    /// The kind's `storage_words` errors.
    pub fn storage_words(&self) -> Result<usize, ConfigError> {
        match self {
            Self::AutoSplit(c) => c.storage_words(),
            Self::ConsistentHashing(c) => c.storage_words(),
            Self::Exclusive(c) => c.storage_words(),
        }
    }

    /// The room it gives (0 for the fields the kind does not use).
    #[must_use]
    pub const fn capacity(&self) -> Capacity {
        match self {
            Self::AutoSplit(c) => Capacity {
                max_consumers: c.max_consumers,
                name_bytes: 0,
                max_ranges: 0,
            },
            Self::ConsistentHashing(c) => Capacity {
                max_consumers: c.max_consumers,
                name_bytes: c.name_bytes,
                max_ranges: 0,
            },
            Self::Exclusive(c) => Capacity {
                max_consumers: c.max_consumers,
                name_bytes: 0,
                max_ranges: c.max_ranges,
            },
        }
    }

    /// The same rules with the room of `capacity` (the fields the kind
    /// uses).
    #[must_use]
    pub const fn with_capacity(self, capacity: Capacity) -> Self {
        match self {
            Self::AutoSplit(c) => Self::AutoSplit(AutoSplitConfig {
                max_consumers: capacity.max_consumers,
                ..c
            }),
            Self::ConsistentHashing(c) => Self::ConsistentHashing(ConsistentHashingConfig {
                max_consumers: capacity.max_consumers,
                name_bytes: capacity.name_bytes,
                ..c
            }),
            Self::Exclusive(c) => Self::Exclusive(ExclusiveConfig {
                max_consumers: capacity.max_consumers,
                max_ranges: capacity.max_ranges,
                ..c
            }),
        }
    }
}

/// Any of the three selectors, in storage `S`: every operation they share,
/// without matching on the kind.
///
/// [`AnySelector::add`] takes what any kind may need, a name and declared
/// ranges, and each kind reads its part: AutoSplit neither, consistent
/// hashing the name, exclusive the ranges (`None`: no `KeySharedMeta`).
/// Every add and remove returns an [`Impact`], the exclusive selector's
/// included (see [`ExclusiveSelector`]).
///
/// ```
/// use pulsar_routing::key_shared::{AnySelector, ExclusiveConfig, HashRange, SelectorConfig};
/// let config = SelectorConfig::Exclusive(ExclusiveConfig::new(4, 16));
/// let mut sel = AnySelector::new(config, vec![0u32; config.storage_words()?])?;
/// let impact = sel.add(1, b"", Some(&[HashRange::new(0, 99)]))?;
/// assert_eq!(impact.added().collect::<Vec<_>>(), [(1, HashRange::new(0, 99))]);
/// assert_eq!(sel.select(50), Some(1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub enum AnySelector<S> {
    /// An [`AutoSplitSelector`].
    AutoSplit(AutoSplitSelector<S>),
    /// A [`ConsistentHashingSelector`].
    ConsistentHashing(ConsistentHashingSelector<S>),
    /// An [`ExclusiveSelector`].
    Exclusive(ExclusiveSelector<S>),
}

/// Calls the same method on whichever selector `$self` holds.
macro_rules! each {
    ($self:expr, $sel:ident => $body:expr) => {
        match $self {
            AnySelector::AutoSplit($sel) => $body,
            AnySelector::ConsistentHashing($sel) => $body,
            AnySelector::Exclusive($sel) => $body,
        }
    };
}

/// The same, for a method returning a different iterator type per kind.
macro_rules! each_iter {
    ($self:expr, $sel:ident => $body:expr) => {
        match $self {
            AnySelector::AutoSplit($sel) => OneOf::A($body),
            AnySelector::ConsistentHashing($sel) => OneOf::B($body),
            AnySelector::Exclusive($sel) => OneOf::C($body),
        }
    };
}

impl<S: AsRef<[u32]> + AsMut<[u32]>> AnySelector<S> {
    /// An empty selector of the config's kind, working in `storage`.
    ///
    /// # Errors
    /// The kind's constructor errors.
    pub fn new(config: SelectorConfig, storage: S) -> Result<Self, ConfigError> {
        Ok(match config {
            SelectorConfig::AutoSplit(c) => Self::AutoSplit(AutoSplitSelector::new(c, storage)?),
            SelectorConfig::ConsistentHashing(c) => {
                Self::ConsistentHashing(ConsistentHashingSelector::new(c, storage)?)
            }
            SelectorConfig::Exclusive(c) => Self::Exclusive(ExclusiveSelector::new(c, storage)?),
        })
    }

    /// Its config: rules and room.
    #[must_use]
    pub fn config(&self) -> SelectorConfig {
        match self {
            Self::AutoSplit(s) => SelectorConfig::AutoSplit(s.config()),
            Self::ConsistentHashing(s) => SelectorConfig::ConsistentHashing(*s.config()),
            Self::Exclusive(s) => SelectorConfig::Exclusive(*s.config()),
        }
    }

    /// Its kind.
    #[must_use]
    pub fn kind(&self) -> SelectorKind {
        self.config().kind()
    }

    /// The slots it hashes sticky keys into.
    #[must_use]
    pub fn key_hash_range(&self) -> KeyHashRange {
        each!(self, s => s.key_hash_range())
    }

    /// The number of consumers.
    #[must_use]
    pub fn len(&self) -> usize {
        each!(self, s => s.len())
    }

    /// True without consumers.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `consumer` is in the selector.
    #[must_use]
    pub fn contains(&self, consumer: ConsumerId) -> bool {
        each!(self, s => s.contains(consumer))
    }

    /// Adds a consumer and returns what moved. `name` matters to consistent
    /// hashing only, `ranges` to the exclusive selector only.
    ///
    /// # Errors
    /// The kind's `add` errors. Nothing changes on error but the last
    /// impact, which is emptied.
    pub fn add(
        &mut self,
        consumer: ConsumerId,
        name: &[u8],
        ranges: Option<&[HashRange]>,
    ) -> Result<Impact<'_>, AssignError> {
        match self {
            Self::AutoSplit(s) => s.add(consumer),
            Self::ConsistentHashing(s) => s.add(consumer, name),
            Self::Exclusive(s) => s.add(consumer, ranges),
        }
    }

    /// Removes a consumer and returns what moved; an unknown consumer is a
    /// no-op with an empty impact.
    pub fn remove(&mut self, consumer: ConsumerId) -> Impact<'_> {
        each!(self, s => s.remove(consumer))
    }

    /// The impact of the last add or remove.
    #[must_use]
    pub fn last_impact(&self) -> Impact<'_> {
        each!(self, s => s.last_impact())
    }

    /// The consumer of a slot.
    #[must_use]
    #[inline]
    pub fn select(&self, slot: u32) -> Option<ConsumerId> {
        each!(self, s => s.select(slot))
    }

    /// The consumer of a sticky key.
    #[must_use]
    #[inline]
    pub fn select_key(&self, key: &StickyKey<'_>) -> Option<ConsumerId> {
        each!(self, s => s.select_key(key))
    }

    /// The snapshot, as the broker reports it, in slot order.
    pub fn assignments(&self) -> impl Iterator<Item = Assignment> + '_ {
        each_iter!(self, s => s.assignments())
    }

    /// Each consumer's ranges as the broker's stats report them, in slot
    /// order.
    pub fn consumer_ranges(&self) -> impl Iterator<Item = Assignment> + '_ {
        each_iter!(self, s => s.consumer_ranges())
    }

    /// The consumers, in no particular order.
    pub fn consumers(&self) -> impl Iterator<Item = ConsumerId> + '_ {
        each_iter!(self, s => s.consumers())
    }

    /// The same selector in new storage sized by `config` (same kind and
    /// rules, room at least as large): see each kind's `grow`.
    ///
    /// # Errors
    /// [`ConfigError::CannotGrowInto`] for another kind; the kind's `grow`
    /// errors.
    pub fn grow<T: AsRef<[u32]> + AsMut<[u32]>>(
        &self,
        config: SelectorConfig,
        storage: T,
    ) -> Result<AnySelector<T>, ConfigError> {
        Ok(match (self, config) {
            (Self::AutoSplit(s), SelectorConfig::AutoSplit(c)) => {
                AnySelector::AutoSplit(s.grow(c, storage)?)
            }
            (Self::ConsistentHashing(s), SelectorConfig::ConsistentHashing(c)) => {
                AnySelector::ConsistentHashing(s.grow(c, storage)?)
            }
            (Self::Exclusive(s), SelectorConfig::Exclusive(c)) => {
                AnySelector::Exclusive(s.grow(c, storage)?)
            }
            _ => return Err(ConfigError::CannotGrowInto),
        })
    }

    /// Gives the storage back.
    pub fn into_storage(self) -> S {
        each!(self, s => s.into_storage())
    }
}

/// One of three iterators with the same item.
enum OneOf<A, B, C> {
    A(A),
    B(B),
    C(C),
}

impl<T, A, B, C> Iterator for OneOf<A, B, C>
where
    A: Iterator<Item = T>,
    B: Iterator<Item = T>,
    C: Iterator<Item = T>,
{
    type Item = T;

    fn next(&mut self) -> Option<T> {
        match self {
            Self::A(i) => i.next(),
            Self::B(i) => i.next(),
            Self::C(i) => i.next(),
        }
    }
}
