//! The table of lookups in flight: Java's
//! `InProgressDeduplicationDecoratorLookupService`.

use core::hash::{Hash, Hasher};
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
/// properties, compared as a map ([`LookupProperties`]: the order does not
/// matter, and of repeated names the last counts). Exact: two keys are the
/// same lookup only if they are equal, never by a hash alone.
#[derive(Clone, Copy, Debug)]
pub struct LookupKey<'a> {
    /// `TopicName.toString()`.
    pub topic: &'a str,
    /// The lookup properties.
    pub properties: &'a [(&'a str, &'a str)],
}

impl PartialEq for LookupKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.topic == other.topic
            && LookupProperties(self.properties) == LookupProperties(other.properties)
    }
}

impl Eq for LookupKey<'_> {}

impl Hash for LookupKey<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.topic.hash(state);
        LookupProperties(self.properties).hash(state);
    }
}

/// One lookup property, a (name, value) pair however its strings are held:
/// `(&str, &str)` here, `(String, String)` in a binding.
pub trait LookupProperty {
    /// The name.
    fn name(&self) -> &str;
    /// The value.
    fn value(&self) -> &str;
}

impl<N: AsRef<str>, V: AsRef<str>> LookupProperty for (N, V) {
    fn name(&self) -> &str {
        self.0.as_ref()
    }

    fn value(&self) -> &str {
        self.1.as_ref()
    }
}

/// Lookup properties as Java's `Map<String, String>` holds them: the
/// entries in any order, and of repeated names the last one (as if put
/// into a map in order). Equality and `Hash` follow the map, without a
/// heap, so every binding's coalescing key agrees: `[("a", "1"), ("b",
/// "2")]` equals `[("b", "2"), ("a", "1")]` and `[("a", "0"), ("b", "2"),
/// ("a", "1")]`.
///
/// Comparing is quadratic in the number of entries, which lookup
/// properties keep small.
#[derive(Clone, Copy, Debug)]
pub struct LookupProperties<'a, P>(pub &'a [P]);

impl<P: LookupProperty> LookupProperties<'_, P> {
    /// The value of `name`: that of its last entry.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|p| p.name() == name)
            .map(LookupProperty::value)
    }

    /// The entries of the map, in input order: each name once, with its
    /// last value.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.0.iter().enumerate().filter_map(|(i, p)| {
            let later = self.0.get(i + 1..).unwrap_or(&[]);
            let last = !later.iter().any(|q| q.name() == p.name());
            last.then(|| (p.name(), p.value()))
        })
    }

    /// The number of distinct names.
    #[must_use]
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<P: LookupProperty, Q: LookupProperty> PartialEq<LookupProperties<'_, Q>>
    for LookupProperties<'_, P>
{
    fn eq(&self, other: &LookupProperties<'_, Q>) -> bool {
        // Same number of names, and each of ours has the same value there.
        self.len() == other.len() && self.iter().all(|(n, v)| other.get(n) == Some(v))
    }
}

impl<P: LookupProperty> Eq for LookupProperties<'_, P> {}

impl<P: LookupProperty> Hash for LookupProperties<'_, P> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // A sum of the entries' own hashes does not depend on their order.
        let mut sum = 0u64;
        let mut len = 0usize;
        for (n, v) in self.iter() {
            let mut h = Fnv1a::default();
            n.hash(&mut h);
            v.hash(&mut h);
            sum = sum.wrapping_add(h.finish());
            len += 1;
        }
        state.write_usize(len);
        state.write_u64(sum);
    }
}

/// FNV-1a (64 bits): a fixed hash of one entry, the same in every process,
/// so the order-free sum above is deterministic.
struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv1a {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
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
