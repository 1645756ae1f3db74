//! The `python` profile: apache/pulsar-client-python, which hands every
//! message to the C++ client's routers, with Python's own key rules and
//! defaults (batching off) in front.

use super::cpp::{CppRoundRobinRouter, CppSinglePartitionRouter, cpp_producer_send};
use super::error::ProfileRouteError;
use super::hash::KeyHash;
use super::message::{ProfileKey, ProfileMessage};
use super::profile::ClientProfile;
use crate::partition_count::PartitionCount;

/// The partition key the C++ client receives from `Producer.send`: only a
/// `str` is accepted, and `if partition_key:` drops the empty string, so
/// `""` is no key (unlike C++, where `setPartitionKey("")` is a key).
///
/// # Errors
/// [`ProfileRouteError::BytesKeyUnsupported`] for a binary key.
pub(crate) fn python_partition_key<'a>(
    key: ProfileKey<'a>,
) -> Result<Option<&'a [u8]>, ProfileRouteError> {
    match key {
        ProfileKey::None | ProfileKey::Str("") => Ok(None),
        ProfileKey::Str(s) => Ok(Some(s.as_bytes())),
        ProfileKey::Bytes(_) => Err(ProfileRouteError::BytesKeyUnsupported(
            ClientProfile::Python,
        )),
    }
}

/// Python's keyed routing: `None` for a keyless message.
pub(crate) fn python_keyed_partition(
    message: &ProfileMessage<'_>,
    hash: KeyHash,
    num_partitions: PartitionCount,
) -> Result<Option<u32>, ProfileRouteError> {
    match python_partition_key(message.key)? {
        Some(key) => {
            let routed = num_partitions.reduce(hash.hash_bytes(key)?) as i32;
            cpp_producer_send(ClientProfile::Python, routed, num_partitions).map(Some)
        }
        None => Ok(None),
    }
}

/// A Python producer's router: the C++ router for its
/// `message_routing_mode`, fed Python's partition key.
///
/// The hash is the C++ default `BoostHash`, which Python cannot change: for
/// the current wheels (pulsar-client 3.6 and later), Boost 1.82 or later
/// ([`KeyHash::CppBoostHash1_82`]); earlier wheels were built with Boost
/// 1.80 ([`KeyHash::CppBoostHash1_62`], or its unsigned-`char` variant on
/// ARM). The escape hatch is a
/// `message_router` callable (pulsar-client 3.8+) that routes keys with
/// `Murmur3_32Hash`, the one scheme every client shares: build this router
/// with [`KeyHash::Murmur3_32`] to model it. Keyless messages then go
/// wherever that callable sends them; this router keeps modelling the
/// built-in C++ router for them.
///
/// ```
/// use pulsar_routing::PartitionCount;
/// use pulsar_routing::profiles::{CppRoundRobinRouter, KeyHash, ProfileMessage, PythonRouter};
/// let n = PartitionCount::new(3)?;
/// let mut default = PythonRouter::RoundRobin(CppRoundRobinRouter::new(KeyHash::CppBoostHash, None, 0, 0));
/// assert!(default.route(&ProfileMessage::keyed("k"), n, 0).is_err());
/// assert_eq!(default.route(&ProfileMessage::keyed(""), n, 0), Ok(0)); // "" is no key
/// let mut hatch = PythonRouter::RoundRobin(CppRoundRobinRouter::new(KeyHash::Murmur3_32, None, 0, 0));
/// assert_eq!(hatch.route(&ProfileMessage::keyed("k"), n, 0), Ok(pulsar_routing::murmur3_32(b"k") % 3));
/// # Ok::<(), pulsar_routing::PartitionCountError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PythonRouter {
    /// `PartitionsRoutingMode.RoundRobinDistribution`, the default.
    RoundRobin(CppRoundRobinRouter),
    /// `PartitionsRoutingMode.UseSinglePartition`.
    SinglePartition(CppSinglePartitionRouter),
}

impl PythonRouter {
    /// Routes `message` at `now_ms` (Unix epoch milliseconds), including
    /// the C++ producer's check of the answer.
    ///
    /// # Errors
    /// A binary key, an unknown `BoostHash`, or a partition the producer
    /// rejects.
    pub fn route(
        &mut self,
        message: &ProfileMessage<'_>,
        num_partitions: PartitionCount,
        now_ms: i64,
    ) -> Result<u32, ProfileRouteError> {
        let key = python_partition_key(message.key)?;
        let partition = match self {
            Self::RoundRobin(router) => {
                router.choose_partition(key, message.payload_len, num_partitions, now_ms)? as i32
            }
            Self::SinglePartition(router) => router.choose_partition(key, num_partitions)?,
        };
        cpp_producer_send(ClientProfile::Python, partition, num_partitions)
    }
}
