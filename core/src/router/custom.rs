//! Routing by a user function (Java's `MessageRoutingMode.CustomPartition`).

use super::{MessageRouter, RouteError, check_partition};
use crate::partition_count::PartitionCount;
use crate::routing_key::RoutingKey;

/// Wraps a user function `f(key, num_partitions) -> partition` and checks its
/// answer the way the Java producer does, so a bad function gives a typed
/// error instead of a message on a partition that does not exist.
///
/// ```
/// use pulsar_routing::{CustomRouter, PartitionCount, RouteError, RoutingKey};
/// let always_last = CustomRouter::new(|_key: RoutingKey<'_>, n: PartitionCount| i64::from(n.get()) - 1);
/// let n = PartitionCount::new(4)?;
/// assert_eq!(always_last.choose_partition(RoutingKey::Key("k"), n), Ok(3));
///
/// let broken = CustomRouter::new(|_key: RoutingKey<'_>, n: PartitionCount| i64::from(n.get()));
/// assert_eq!(
///     broken.choose_partition(RoutingKey::None, n).unwrap_err().to_string(),
///     "Illegal partition index chosen by the message routing policy: 4",
/// );
/// # Ok::<(), pulsar_routing::PartitionCountError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct CustomRouter<F> {
    choose: F,
}

impl<F> CustomRouter<F>
where
    F: Fn(RoutingKey<'_>, PartitionCount) -> i64,
{
    /// Wraps `choose`.
    pub const fn new(choose: F) -> Self {
        Self { choose }
    }

    /// Calls the function and checks that its answer is in `[0, n)`.
    ///
    /// # Errors
    /// [`RouteError::IllegalPartitionIndex`] otherwise.
    #[inline]
    pub fn choose_partition(
        &self,
        key: RoutingKey<'_>,
        num_partitions: PartitionCount,
    ) -> Result<u32, RouteError> {
        check_partition((self.choose)(key, num_partitions), num_partitions)
    }
}

impl<F> MessageRouter for CustomRouter<F>
where
    F: Fn(RoutingKey<'_>, PartitionCount) -> i64,
{
    fn route(
        &self,
        key: RoutingKey<'_>,
        num_partitions: PartitionCount,
        _now_ms: i64,
    ) -> Result<u32, RouteError> {
        self.choose_partition(key, num_partitions)
    }
}
