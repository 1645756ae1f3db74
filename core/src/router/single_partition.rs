//! `SinglePartitionMessageRouterImpl`.

use super::{MessageRouter, RouteError, check_partition};
use crate::partition_count::PartitionCount;
use crate::routing_key::{HashingScheme, RoutingKey};

/// Keyed messages by hash, as every router; keyless messages always to one
/// fixed partition, which Java picks at random in `[0, n)` when the producer
/// is created.
///
/// ```
/// use pulsar_routing::{HashingScheme, PartitionCount, RoutingKey, SinglePartitionRouter};
/// let router = SinglePartitionRouter::new(HashingScheme::JavaStringHash, 3);
/// assert_eq!(router.choose_partition(RoutingKey::None, PartitionCount::new(5)?), Ok(3));
/// assert!(router.choose_partition(RoutingKey::None, PartitionCount::new(2)?).is_err());
/// # Ok::<(), pulsar_routing::PartitionCountError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SinglePartitionRouter {
    scheme: HashingScheme,
    partition_index: i32,
}

impl SinglePartitionRouter {
    /// Java's constructor: `SinglePartitionMessageRouterImpl(partitionIndex, scheme)`.
    #[must_use]
    pub const fn new(scheme: HashingScheme, partition_index: i32) -> Self {
        Self {
            scheme,
            partition_index,
        }
    }

    /// Chooses the partition.
    ///
    /// # Errors
    /// [`RouteError::IllegalPartitionIndex`] when a keyless message would go
    /// to a fixed index outside `[0, n)`, which is where the Java producer
    /// fails the send.
    #[inline]
    pub fn choose_partition(
        &self,
        key: RoutingKey<'_>,
        num_partitions: PartitionCount,
    ) -> Result<u32, RouteError> {
        match key.hash(self.scheme) {
            Some(hash) => Ok(num_partitions.reduce(hash)),
            None => check_partition(self.partition_index as i64, num_partitions),
        }
    }

    /// The hashing scheme for keyed messages.
    #[must_use]
    pub const fn scheme(&self) -> HashingScheme {
        self.scheme
    }

    /// The fixed partition for keyless messages.
    #[must_use]
    pub const fn partition_index(&self) -> i32 {
        self.partition_index
    }
}

impl MessageRouter for SinglePartitionRouter {
    fn route(
        &self,
        key: RoutingKey<'_>,
        num_partitions: PartitionCount,
        _now_ms: i64,
    ) -> Result<u32, RouteError> {
        self.choose_partition(key, num_partitions)
    }
}
