//! The table of lookups in flight: Java's
//! `InProgressDeduplicationDecoratorLookupService`.

use core::marker::PhantomData;

use super::error::CoalesceError;

/// One lookup in flight in a [`LookupCoalescer`]'s slot: its key and how
/// many callers wait for it. (Not the Kafka sender's
/// [`sender::InFlight`](crate::sender::InFlight), which counts produce
/// requests on a connection.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InFlightLookup<K> {
    /// The lookup's key.
    pub key: K,
    /// Callers waiting, the one that started it included (at least 1).
    pub waiters: u32,
}

/// The outcome of [`LookupCoalescer::join`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Joined {
    /// No such lookup was in flight: the caller starts it.
    Leader {
        /// The slot that holds it.
        slot: usize,
    },
    /// The same lookup is in flight: the caller waits for its result.
    Follower {
        /// The slot that holds it.
        slot: usize,
        /// Waiters now, this one included.
        waiters: u32,
    },
}

impl Joined {
    /// The slot.
    #[must_use]
    pub const fn slot(self) -> usize {
        match self {
            Self::Leader { slot } | Self::Follower { slot, .. } => slot,
        }
    }

    /// Whether the caller must start the lookup.
    #[must_use]
    pub const fn is_leader(self) -> bool {
        matches!(self, Self::Leader { .. })
    }
}

/// A lookup's key in Java's decorator: the topic and the lookup
/// properties, compared as a map (the order of the properties does not
/// matter). Exact: two keys are the same lookup only if they are equal,
/// never by a hash alone.
#[derive(Clone, Copy, Debug, Eq)]
pub struct LookupKey<'a> {
    /// `TopicName.toString()`.
    pub topic: &'a str,
    /// The lookup properties, without repeated names.
    pub properties: &'a [(&'a str, &'a str)],
}

impl PartialEq for LookupKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        // Map equality without a heap: same size, and every entry of each
        // side is in the other.
        self.topic == other.topic
            && self.properties.len() == other.properties.len()
            && self.properties.iter().all(|p| other.properties.contains(p))
            && other.properties.iter().all(|p| self.properties.contains(p))
    }
}

/// A partitioned-metadata request's key in Java's decorator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MetadataKey<'a> {
    /// The topic.
    pub topic: &'a str,
    /// `metadataAutoCreationEnabled`.
    pub metadata_auto_creation: bool,
    /// `useFallbackForNonPIP344Brokers`.
    pub use_fallback_for_non_pip344: bool,
}

/// Concurrent requests for the same key share one lookup; the entry goes
/// when the lookup completes (this is not a cache).
///
/// The slots are the caller's storage `S` (`&mut [Option<InFlightLookup<K>>]`,
/// an array, or a `Vec`), so the capacity is bounded: with every slot
/// taken, a new key fails with [`CoalesceError::TableFull`]. The type is
/// `Send` when `K` and `S` are and is changed only through `&mut`; share
/// it between threads behind a lock (the C and Python bindings do).
///
/// ```
/// use pulsar_routing::lookup::{InFlightLookup, LookupCoalescer, LookupKey};
///
/// let mut slots: [Option<InFlightLookup<LookupKey>>; 4] = [None; 4];
/// let mut table = LookupCoalescer::new(&mut slots[..]);
/// let key = LookupKey { topic: "persistent://t/ns/a", properties: &[] };
/// assert!(table.join(key)?.is_leader());
/// assert!(!table.join(key)?.is_leader());
/// // Both callers get the one result.
/// assert_eq!(table.complete(&key), Some(2));
/// assert!(table.is_empty());
/// # Ok::<(), pulsar_routing::lookup::CoalesceError>(())
/// ```
#[derive(Debug)]
pub struct LookupCoalescer<K, S> {
    slots: S,
    len: usize,
    _key: PhantomData<K>,
}

impl<K: PartialEq, S: AsRef<[Option<InFlightLookup<K>>]> + AsMut<[Option<InFlightLookup<K>>]>>
    LookupCoalescer<K, S>
{
    /// A table over `slots`; whatever they hold is discarded.
    pub fn new(mut slots: S) -> Self {
        for s in slots.as_mut() {
            *s = None;
        }
        Self {
            slots,
            len: 0,
            _key: PhantomData,
        }
    }

    /// Joins the lookup for `key`, starting it if none is in flight.
    pub fn join(&mut self, key: K) -> Result<Joined, CoalesceError> {
        if let Some(slot) = self.find(&key) {
            let entry = self
                .slots
                .as_mut()
                .get_mut(slot)
                .and_then(Option::as_mut)
                .ok_or(CoalesceError::TooManyWaiters)?;
            entry.waiters = entry
                .waiters
                .checked_add(1)
                .ok_or(CoalesceError::TooManyWaiters)?;
            return Ok(Joined::Follower {
                slot,
                waiters: entry.waiters,
            });
        }
        let capacity = self.capacity();
        let (slot, free) = self
            .slots
            .as_mut()
            .iter_mut()
            .enumerate()
            .find(|(_, s)| s.is_none())
            .ok_or(CoalesceError::TableFull { capacity })?;
        *free = Some(InFlightLookup { key, waiters: 1 });
        self.len += 1;
        Ok(Joined::Leader { slot })
    }

    /// The lookup for `key` completed: removes it and returns how many
    /// callers to complete with its result, or `None` if it was not in
    /// flight.
    pub fn complete(&mut self, key: &K) -> Option<u32> {
        let slot = self.find(key)?;
        let entry = self.slots.as_mut().get_mut(slot)?.take()?;
        self.len = self.len.saturating_sub(1);
        Some(entry.waiters)
    }

    /// The slot of `key`'s lookup, if one is in flight.
    #[must_use]
    pub fn find(&self, key: &K) -> Option<usize> {
        self.slots
            .as_ref()
            .iter()
            .position(|s| s.as_ref().is_some_and(|e| e.key == *key))
    }

    /// The lookup in `slot`, if any.
    #[must_use]
    pub fn get(&self, slot: usize) -> Option<&InFlightLookup<K>> {
        self.slots.as_ref().get(slot)?.as_ref()
    }

    /// Lookups in flight.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether none is in flight.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of slots.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.slots.as_ref().len()
    }
}
