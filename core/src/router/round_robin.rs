//! `RoundRobinPartitionMessageRouterImpl`, the Java client's default router.

use core::sync::atomic::{AtomicI32, Ordering};

use super::{MessageRouter, RouteError};
use crate::partition_count::PartitionCount;
use crate::routing_key::{HashingScheme, RoutingKey};

/// Java's default router.
///
/// - A keyed message goes to `hash(key) % n`.
/// - With batching, a keyless message goes to
///   `signSafeMod(now_ms / partition_switch_ms + start, n)`: every producer
///   switches partition on the same wall-clock boundaries, offset by its start.
/// - Without batching, a keyless message takes the next value of a wrapping
///   32-bit counter that starts at `start`. At the wrap from `i32::MAX` to
///   `i32::MIN` the sequence skips or repeats a partition when `n` does not
///   divide 2^32, exactly as in Java.
///
/// The counter is atomic, so one router can be shared between threads.
/// Java picks `start` at random in `[0, n)` when the producer is created; pass
/// your own random number. With `lazyStartPartitionedProducers` in Shared
/// access mode, Java routes one empty message at creation, which consumes
/// one counter value: call [`RoundRobinRouter::choose_partition`] once with
/// [`RoutingKey::None`] to reproduce that.
///
/// ```
/// use pulsar_routing::{HashingScheme, PartitionCount, RoundRobinRouter, RoutingKey};
/// let n = PartitionCount::new(3)?;
/// let router = RoundRobinRouter::without_batching(HashingScheme::JavaStringHash, 2147483645);
/// let picks: Vec<u32> = (0..6).map(|_| router.choose_partition(RoutingKey::None, n, 0)).collect();
/// assert_eq!(picks, [2, 0, 1, 1, 2, 0]);
/// # Ok::<(), pulsar_routing::PartitionCountError>(())
/// ```
#[derive(Debug)]
pub struct RoundRobinRouter {
    scheme: HashingScheme,
    start_partition_index: i32,
    /// `Some(ms)` when batching is enabled; always at least 1.
    partition_switch_ms: Option<i64>,
    counter: AtomicI32,
}

impl RoundRobinRouter {
    /// Java's constructor: `RoundRobinPartitionMessageRouterImpl(scheme,
    /// startPtnIdx, isBatchingEnabled, partitionSwitchMs)`.
    /// `partition_switch_ms` is clamped to at least 1, as Java does.
    #[must_use]
    pub const fn new(
        scheme: HashingScheme,
        start_partition_index: i32,
        batching_enabled: bool,
        partition_switch_ms: i64,
    ) -> Self {
        let switch = if partition_switch_ms < 1 {
            1
        } else {
            partition_switch_ms
        };
        Self {
            scheme,
            start_partition_index,
            partition_switch_ms: if batching_enabled { Some(switch) } else { None },
            counter: AtomicI32::new(start_partition_index),
        }
    }

    /// A router for a producer with batching enabled (Java's default
    /// configuration switches every 10 ms; see
    /// [`partition_switch_ms`](super::partition_switch_ms)).
    #[must_use]
    pub const fn with_batching(
        scheme: HashingScheme,
        start_partition_index: i32,
        partition_switch_ms: i64,
    ) -> Self {
        Self::new(scheme, start_partition_index, true, partition_switch_ms)
    }

    /// A router for a producer with batching disabled.
    #[must_use]
    pub const fn without_batching(scheme: HashingScheme, start_partition_index: i32) -> Self {
        Self::new(scheme, start_partition_index, false, 1)
    }

    /// Chooses the partition; `now_ms` (Unix epoch milliseconds) is read only
    /// for a keyless message with batching enabled.
    #[must_use]
    #[inline]
    pub fn choose_partition(
        &self,
        key: RoutingKey<'_>,
        num_partitions: PartitionCount,
        now_ms: i64,
    ) -> u32 {
        if let Some(hash) = key.hash(self.scheme) {
            return num_partitions.reduce(hash);
        }
        match self.partition_switch_ms {
            Some(switch_ms) => {
                // Java's long arithmetic: `switch_ms >= 1`, so the division
                // cannot trap, and the sum wraps like Java's.
                let slot = (now_ms / switch_ms).wrapping_add(i64::from(self.start_partition_index));
                num_partitions.sign_safe_mod(slot)
            }
            None => num_partitions.sign_safe_mod_i32(self.counter.fetch_add(1, Ordering::Relaxed)),
        }
    }

    /// The hashing scheme for keyed messages.
    #[must_use]
    pub const fn scheme(&self) -> HashingScheme {
        self.scheme
    }

    /// The start index the router was built with.
    #[must_use]
    pub const fn start_partition_index(&self) -> i32 {
        self.start_partition_index
    }

    /// The switch interval in milliseconds when batching is enabled.
    #[must_use]
    pub const fn partition_switch_ms(&self) -> Option<i64> {
        self.partition_switch_ms
    }
}

impl Clone for RoundRobinRouter {
    /// The clone continues the counter from where this router is now.
    fn clone(&self) -> Self {
        Self {
            scheme: self.scheme,
            start_partition_index: self.start_partition_index,
            partition_switch_ms: self.partition_switch_ms,
            counter: AtomicI32::new(self.counter.load(Ordering::Relaxed)),
        }
    }
}

impl MessageRouter for RoundRobinRouter {
    fn route(
        &self,
        key: RoutingKey<'_>,
        num_partitions: PartitionCount,
        now_ms: i64,
    ) -> Result<u32, RouteError> {
        Ok(self.choose_partition(key, num_partitions, now_ms))
    }
}
