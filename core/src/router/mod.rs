//! Partition routers: which partition of a partitioned topic a message goes
//! to, with the Java client's rules.
//!
//! Every router hashes a keyed message the same way
//! (`signSafeMod(hash(key), n)`); they differ only for keyless messages:
//!
//! | router | keyless message |
//! |---|---|
//! | [`RoundRobinRouter`] (Java's default) | batching: switches every `partition_switch_ms` of wall-clock time; otherwise a shared counter |
//! | [`SinglePartitionRouter`] | always its fixed partition |
//! | [`CustomRouter`] | whatever the user function says, checked to be in range |
//!
//! Time and the random start index are arguments: the core never reads a
//! clock or a random source.

mod custom;
mod mode;
mod round_robin;
mod single_partition;

pub use custom::CustomRouter;
pub use mode::{MessageRoutingMode, RoutingConfigError, partition_switch_ms, resolve_routing_mode};
pub use round_robin::RoundRobinRouter;
pub use single_partition::SinglePartitionRouter;

use core::fmt;

use crate::partition_count::PartitionCount;
use crate::routing_key::RoutingKey;

/// Anything that can choose a partition for a message: the object-safe face
/// of every router, for code that holds `&dyn MessageRouter`.
pub trait MessageRouter {
    /// Chooses the partition of a message with `key` on a topic with
    /// `num_partitions` partitions at time `now_ms` (Unix epoch milliseconds;
    /// only the batching round-robin router reads it).
    ///
    /// # Errors
    /// [`RouteError::IllegalPartitionIndex`] when the router picks a
    /// partition outside `[0, num_partitions)`.
    fn route(
        &self,
        key: RoutingKey<'_>,
        num_partitions: PartitionCount,
        now_ms: i64,
    ) -> Result<u32, RouteError>;
}

/// The check `PartitionedProducerImpl` applies to every router's answer.
///
/// # Errors
/// [`RouteError::IllegalPartitionIndex`] unless `0 <= partition < n`.
pub const fn check_partition(
    partition: i64,
    num_partitions: PartitionCount,
) -> Result<u32, RouteError> {
    if partition >= 0 && partition < num_partitions.get() as i64 {
        Ok(partition as u32)
    } else {
        Err(RouteError::IllegalPartitionIndex(partition))
    }
}

/// Why a message could not be routed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RouteError {
    /// The router chose a partition outside `[0, n)`; Java fails the send
    /// with `IllegalArgumentException` and this message.
    IllegalPartitionIndex(i64),
}

impl fmt::Display for RouteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::IllegalPartitionIndex(p) => {
                write!(
                    f,
                    "Illegal partition index chosen by the message routing policy: {p}"
                )
            }
        }
    }
}

impl core::error::Error for RouteError {}
