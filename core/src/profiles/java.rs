//! The `java` profile: the reference routers of the crate root
//! ([`RoundRobinRouter`], [`SinglePartitionRouter`]), reached through the
//! profile message type.

use super::message::{ProfileKey, ProfileMessage};
use crate::partition_count::PartitionCount;
use crate::router::{RoundRobinRouter, RouteError, SinglePartitionRouter};
use crate::routing_key::{HashingScheme, RoutingKey};

/// The Java producer API call a profile key stands for: `key(s)` for a
/// string, `keyBytes(b)` for bytes. The ordering key is ignored: Java
/// routes by the partition key only.
#[must_use]
pub const fn java_routing_key<'a>(key: ProfileKey<'a>) -> RoutingKey<'a> {
    match key {
        ProfileKey::None => RoutingKey::None,
        ProfileKey::Str(s) => RoutingKey::Key(s),
        ProfileKey::Bytes(b) => RoutingKey::KeyBytes(b),
    }
}

/// Java's keyed routing: the partition of a keyed message, `None` for a
/// keyless one. `key("")` is a key.
pub(crate) fn java_keyed_partition(
    message: &ProfileMessage<'_>,
    scheme: HashingScheme,
    num_partitions: PartitionCount,
) -> Option<u32> {
    java_routing_key(message.key).partition(scheme, num_partitions)
}

/// A Java producer's router.
#[derive(Clone, Debug)]
pub enum JavaProfileRouter {
    /// `RoundRobinPartitionMessageRouterImpl`.
    RoundRobin(RoundRobinRouter),
    /// `SinglePartitionMessageRouterImpl`.
    SinglePartition(SinglePartitionRouter),
}

impl JavaProfileRouter {
    /// The hashing scheme for keyed messages.
    #[must_use]
    pub const fn scheme(&self) -> HashingScheme {
        match self {
            Self::RoundRobin(r) => r.scheme(),
            Self::SinglePartition(r) => r.scheme(),
        }
    }

    /// Routes `message` at `now_ms` (Unix epoch milliseconds).
    ///
    /// # Errors
    /// [`RouteError::IllegalPartitionIndex`] when a single-partition router's
    /// fixed index is not below `num_partitions`.
    ///
    /// ```
    /// use pulsar_routing::{HashingScheme, PartitionCount, RoundRobinRouter};
    /// use pulsar_routing::profiles::{JavaProfileRouter, ProfileMessage};
    /// let router = JavaProfileRouter::RoundRobin(RoundRobinRouter::with_batching(HashingScheme::JavaStringHash, 1, 10));
    /// let n = PartitionCount::new(4)?;
    /// assert_eq!(router.route(&ProfileMessage::keyless(100), n, 25), Ok(3));
    /// # Ok::<(), pulsar_routing::PartitionCountError>(())
    /// ```
    pub fn route(
        &self,
        message: &ProfileMessage<'_>,
        num_partitions: PartitionCount,
        now_ms: i64,
    ) -> Result<u32, RouteError> {
        let key = java_routing_key(message.key);
        match self {
            Self::RoundRobin(r) => Ok(r.choose_partition(key, num_partitions, now_ms)),
            Self::SinglePartition(r) => r.choose_partition(key, num_partitions),
        }
    }
}
