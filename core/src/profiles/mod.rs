//! What every Pulsar client does with a message's key: one named, tested
//! profile per client, so that a fleet mixing clients can be predicted, and
//! a client that embeds this crate can choose to route exactly like Java.
//!
//! No two clients route a key the same way by default:
//!
//! | profile | default hash | key rule | keyless messages |
//! |---|---|---|---|
//! | [`java`](ClientProfile::Java) | `JavaStringHash`: UTF-16 `hashCode & 0x7fffffff` | `key("")` is a key; ordering key ignored; `keyBytes` hashes the Base64 text | time slots (batching) or a counter |
//! | [`go`](ClientProfile::Go) | Go's `JavaStringHash`: UTF-8 bytes, **unmasked** | ordering key first; `""` is no key | switches on count, size or time (`>`) |
//! | [`cpp`](ClientProfile::Cpp) | `BoostHash` of the Boost it was built with (name it) | `""` is a key | switches on count, size or time (`>=`) |
//! | [`python`](ClientProfile::Python) | `BoostHash` of the wheel (Boost 1.82+), not selectable | `str` only; `""` is no key | C++'s router, batching off by default |
//! | [`pulsar-rs`](ClientProfile::PulsarRs) | MurmurHash3, **unmasked** | keys ignored unless `RoutingPolicy::RoundRobin` is set | next partition per message |
//! | [`dotpulsar`](ClientProfile::DotPulsar) | MurmurHash3, **unmasked**, of the decoded bytes | `""` is no key | `int` counter, negative after 2^31 messages |
//!
//! `Murmur3_32Hash` is the only scheme on which Java, Go and C++ agree for
//! every key. pulsar-rs and DotPulsar agree with them only when the
//! partition count is a power of two (the mask then does not matter).
//!
//! The pieces:
//!
//! - [`KeyHash`]: every exact key hash, with the clients' ports
//!   ([`go_java_string_hash`], [`cpp_java_string_hash`]) and C++'s
//!   `BoostHash` for every generation of Boost ([`BoostHashGeneration`]);
//!   a C++ build whose Boost is not named gives [`BoostHashNotReproducible`].
//! - [`ProfileKeying`]: a client's keyed routing, without state, for
//!   comparing clients key by key.
//! - [`ProfileRouter`]: one producer's router with its keyless state
//!   machine, for any client; the per-client routers
//!   ([`GoDefaultRouter`], [`CppRoundRobinRouter`], [`PulsarRsRouter`],
//!   [`DotPulsarRouter`], ...) can also be used directly.
//! - Topic names where clients read partition indexes differently:
//!   [`GoTopicName`] (Go's whole `ParseTopicName`), [`go_partition_index`]
//!   and [`cpp_partition_index`], next to Java's
//!   [`get_partition_index`](crate::get_partition_index).
//!
//! ```
//! use pulsar_routing::PartitionCount;
//! use pulsar_routing::profiles::{
//!     ClientHashingScheme, ClientProfile, ProfileConfig, ProfileKeying, ProfileMessage,
//! };
//! use ClientHashingScheme::{JavaStringHash, Murmur3_32Hash};
//!
//! let n = PartitionCount::new(10)?;
//! let msg = ProfileMessage::keyed("customer-000042");
//! let partition = |profile, scheme| -> Result<Option<u32>, Box<dyn std::error::Error>> {
//!     let config = ProfileConfig::client_default(profile).with_scheme(scheme);
//!     Ok(ProfileKeying::new(profile, &config)?.partition(&msg, n)?)
//! };
//! // Java and Go both default to "JavaStringHash", yet disagree.
//! assert_eq!(partition(ClientProfile::Java, JavaStringHash)?, Some(1));
//! assert_eq!(partition(ClientProfile::Go, JavaStringHash)?, Some(9));
//! // With Murmur3_32Hash, Java, Go, C++ and Python's escape hatch agree...
//! let java = partition(ClientProfile::Java, Murmur3_32Hash)?;
//! for profile in [ClientProfile::Go, ClientProfile::Cpp, ClientProfile::Python] {
//!     assert_eq!(partition(profile, Murmur3_32Hash)?, java);
//! }
//! // ...but not DotPulsar, which does not mask the hash.
//! assert_eq!((java, partition(ClientProfile::DotPulsar, Murmur3_32Hash)?), (Some(4), Some(2)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod config;
mod cpp;
mod cpp_partition_index;
mod dotpulsar;
mod error;
mod go;
mod go_strconv;
mod go_topic_name;
mod hash;
mod java;
mod keying;
mod message;
mod profile;
mod pulsar_rs;
mod python;
mod router;

pub use config::{
    BatchingConfig, ClientHashingScheme, ProfileConfig, ProfileMode, ProfileSeed,
    UnknownClientHashingScheme, UnknownProfileMode,
};
pub use cpp::{
    CppBatching, CppRoundRobinRouter, CppSinglePartitionRouter, cpp_partitioned_producer_check,
    cpp_producer_send,
};
pub use cpp_partition_index::cpp_partition_index;
pub use dotpulsar::DotPulsarRouter;
pub use error::{ProfileConfigError, ProfileRouteError};
pub use go::{GoBatching, GoDefaultRouter, GoSinglePartitionRouter, go_hash};
pub use go_strconv::{GoAtoiError, GoAtoiErrorKind, GoQuoted, go_atoi};
pub use go_topic_name::{
    GoFullName, GoNamespace, GoTopicDomain, GoTopicName, GoTopicNameError, go_partition_index,
};
pub use hash::{
    BoostHashGeneration, BoostHashNotReproducible, CharSignedness, KeyHash, UnknownBoostRelease,
    UnknownKeyHash, boost_hash_1_74_x86_64, boost_hash_1_74_x86_64_raw, cpp_java_string_hash,
    go_java_string_hash,
};
pub use java::{JavaProfileRouter, java_routing_key};
pub use keying::ProfileKeying;
pub use message::{ProfileKey, ProfileMessage};
pub use profile::{ClientProfile, UnknownClientProfile};
pub use pulsar_rs::{PulsarRsRouter, PulsarRsRoutingPolicy, UnknownPulsarRsRoutingPolicy};
pub use python::PythonRouter;
pub use router::{CppRouter, GoRouter, ProfileRouter};
