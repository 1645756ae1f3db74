//! Apache Pulsar's routing functions, byte-for-byte as the Java client and
//! broker compute them, with no heap, no clock and no randomness.
//!
//! **Producer to partition** (the crate root):
//!
//! - the hashes: [`murmur3_32`] (and its streaming [`Murmur3Hasher`]),
//!   [`java_string_hash`] (`String.hashCode()` over UTF-16, with Java's own
//!   lossy UTF-8 decoding in [`java_lossy_utf8`]), and [`crc32`], the
//!   broker's bundle hash;
//! - Java's [`sign_safe_mod`] and a validated [`PartitionCount`] whose
//!   reduction needs no divide;
//! - routing keys as the Java producer sets them ([`RoutingKey`]);
//! - many keys in one call: [`batch`];
//! - the routers: [`RoundRobinRouter`], [`SinglePartitionRouter`] and
//!   [`CustomRouter`], with Java's selection rules and error messages.
//!
//! **Topic to bundle**: [`topic_name`] parses every form of topic name the
//! broker accepts (Pulsar 4.2's rules by default, an older 4.x line's and
//! 5.0's as options) and hashes the canonical name without building it;
//! [`bundles`] maps that hash to a namespace bundle, and splits bundles
//! with the broker's four algorithms.
//!
//! **Key_Shared subscription to consumer**: [`key_shared`].
//!
//! **Topic lookup** (which broker serves a topic): [`lookup`].
//!
//! **Other clients**: [`profiles`] reproduces how the Go, C++, Python,
//! pulsar-rs and DotPulsar clients route a key (they disagree with Java),
//! and [`kafka`] the Kafka Java client's and librdkafka's partitioners.
//!
//! ```
//! use pulsar_routing::{HashingScheme, PartitionCount, RoutingKey, RoundRobinRouter};
//!
//! let partitions = PartitionCount::new(12)?;
//! let router = RoundRobinRouter::with_batching(HashingScheme::JavaStringHash, 5, 10);
//! // A keyed message: the hash of its key, whatever the time.
//! let p = router.choose_partition(RoutingKey::Key("user-42"), partitions, 0);
//! assert_eq!(p, pulsar_routing::java_string_hash("user-42") % 12);
//! // A keyless one: the 10 ms time slot, offset by the start index.
//! assert_eq!(router.choose_partition(RoutingKey::None, partitions, 1_000), (100 + 5) % 12);
//! # Ok::<(), pulsar_routing::PartitionCountError>(())
//! ```
//!
//! # Cargo features
//!
//! - `std` (off): lets the CRC-32 dependency pick a SIMD kernel at run time.
//!   Results are identical without it; the crate is `no_std` either way and
//!   never allocates.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "std")]
extern crate std;

mod base64;
pub mod batch;
pub mod bundles;
mod crc32;
mod java_number;
mod java_string_hash;
pub mod kafka;
pub mod key_shared;
pub mod lookup;
mod murmur3;
mod names;
mod partition_count;
pub mod profiles;
pub mod router;
mod routing_key;
pub mod sender;
mod sign_safe_mod;
pub mod topic_name;
mod unicode_digit;

pub use base64::{base64_len, encode_base64};
pub use crc32::{Crc32, crc32, crc32_const};
pub use java_string_hash::{
    JavaLossyUtf8, java_lossy_utf8, java_string_hash, java_string_hash_bytes,
    java_string_hash_utf16, java_string_hashcode, java_string_hashcode_bytes,
    java_string_hashcode_utf16,
};
pub use murmur3::{Murmur3Hasher, murmur3_32, murmur3_32_raw};
pub use partition_count::{PartitionCount, PartitionCountError};
pub use router::{
    CustomRouter, MessageRouter, MessageRoutingMode, RoundRobinRouter, RouteError,
    RoutingConfigError, SinglePartitionRouter, check_partition, partition_switch_ms,
    resolve_routing_mode,
};
pub use routing_key::{
    HashingScheme, RoutingKey, UnknownHashingScheme, partition_for_key, partition_for_key_bytes,
};
pub use sign_safe_mod::{DivisionByZero, sign_safe_mod};
pub use topic_name::{
    TopicDomain, TopicName, TopicNameError, TopicNameRules, UnknownTopicNameRules,
    get_partition_index,
};

/// The README's Rust examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
