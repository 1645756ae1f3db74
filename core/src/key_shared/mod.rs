//! Key_Shared subscriptions: the third routing layer, message key to
//! consumer, as the Pulsar broker (master / 4.x) computes it.
//!
//! A message's *sticky key* ([`StickyKey`]) is hashed into a *slot*
//! ([`KeyHashRange::slot`]); the subscription's selector maps slots to
//! consumers. The broker has three selectors:
//!
//! | mode | selector | slots |
//! |---|---|---|
//! | `AUTO_SPLIT` (default broker settings) | [`ConsistentHashingSelector`] | `[1, 65535]` |
//! | `AUTO_SPLIT`, `subscriptionKeySharedUseConsistentHashing=false` | [`AutoSplitSelector`] | `[0, 65535]` (0 read as 1) |
//! | `STICKY` | [`ExclusiveSelector`] | `[0, 65535]` (0 read as 1) |
//!
//! Every selector reports its assignments as the broker does (ordered
//! `(start, end, consumer)` triples, [`Assignment`]), the per-consumer merged
//! ranges of the broker's stats, and the [`Impact`] of each add and remove:
//! the ranges each consumer lost and gained, which is what the broker's
//! draining-hash ordering guard acts on (the broker computes none for the
//! exclusive selector; this one reports what moved). [`AnySelector`] is
//! any of the three behind one interface.
//! The client-side check of sticky ranges is [`validate_sticky_ranges`].
//!
//! # Storage
//!
//! Nothing here allocates. A selector works in one caller-provided buffer of
//! `u32` words, any `S: AsRef<[u32]> + AsMut<[u32]>` (a `Vec<u32>`, a boxed
//! slice, an array, or `&mut [u32]`), whose length comes from its config's
//! `storage_words()`. Running out of room is an error
//! ([`AssignError::ConsumerCapacity`] and friends), never a panic, and a
//! failed operation changes nothing.
//!
//! Consumers are plain integer ids ([`ConsumerId`]); the broker identifies
//! them by instance, and these ids stand for the instances.
//!
//! ```
//! use pulsar_routing::key_shared::{
//!     ConsistentHashingConfig, ConsistentHashingSelector, KeyHashRange, StickyKey,
//! };
//!
//! let config = ConsistentHashingConfig::new(16);
//! let mut selector = ConsistentHashingSelector::new(config, vec![0u32; config.storage_words()?])?;
//! selector.add(1, "consumer-a")?;
//! let impact = selector.add(2, "consumer-b")?;
//! // Only the new consumer gains; consumer 1 loses exactly what 2 gains.
//! assert!(impact.added().all(|(consumer, _)| consumer == 2));
//! assert!(impact.removed().all(|(consumer, _)| consumer == 1));
//!
//! let slot = KeyHashRange::CONSISTENT_HASHING.slot(&StickyKey::Key(b"order-17"));
//! let owner = selector.select(slot);
//! assert!(owner == Some(1) || owner == Some(2));
//! assert_eq!(owner, selector.select_key(&StickyKey::Key(b"order-17")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod auto_split;
mod consistent_hashing;
mod error;
mod exclusive;
mod impact;
mod policy;
mod selector;
mod slot;
mod snapshot;
mod sticky_key;
mod storage;

pub use auto_split::{AutoSplitConfig, AutoSplitSelector};
pub use consistent_hashing::{
    ConsistentHashingConfig, ConsistentHashingSelector, DEFAULT_POINTS, ring_point,
};
pub use error::{AssignError, ConfigError};
pub use exclusive::{ExclusiveConfig, ExclusiveMode, ExclusiveSelector};
pub use impact::{Impact, ImpactRanges};
pub use policy::{DEFAULT_HASH_RANGE_SIZE, KeySharedPolicyError, validate_sticky_ranges};
pub use selector::{AnySelector, Capacity, SelectorConfig};
pub use slot::{KeyHashRange, SelectorKind, UnknownSelectorKind};
pub use snapshot::{Assignment, HashRange};
pub use sticky_key::{InvalidBase64, MessageKeys, NONE_KEY, StickyKey};

/// A consumer, as the caller numbers them (the broker's `consumerId` is a
/// Java `long`; any 64-bit value works here).
pub type ConsumerId = u64;
