//! The `dotpulsar` profile: apache/pulsar-dotpulsar's
//! `RoundRobinPartitionRouter` (the default) and `SinglePartitionRouter`.

use super::error::ProfileRouteError;
use super::message::ProfileMessage;
use super::profile::ClientProfile;
use crate::murmur3::murmur3_32_raw;
use crate::partition_count::PartitionCount;

/// DotPulsar's keyed routing: `(int)(MurmurHash3.Hash32(keyBytes, 0) %
/// numberOfPartitions)`, unmasked, over the key's bytes (a byte key is
/// hashed decoded, not as the Base64 text Java hashes). An empty key is no
/// key. `None` for a keyless message.
pub(crate) fn dotpulsar_keyed_partition(
    message: &ProfileMessage<'_>,
    num_partitions: PartitionCount,
) -> Option<u32> {
    let key = message.key.bytes().filter(|k| !k.is_empty())?;
    // `uint % int` is computed in `long`, so it is the unsigned remainder.
    Some(num_partitions.reduce(murmur3_32_raw(key)))
}

/// A DotPulsar producer's router.
///
/// ```
/// use pulsar_routing::PartitionCount;
/// use pulsar_routing::profiles::{DotPulsarRouter, ProfileMessage};
/// let n = PartitionCount::new(3)?;
/// let mut router = DotPulsarRouter::round_robin();
/// let msg = ProfileMessage::keyless(0);
/// assert_eq!((router.route(&msg, n), router.route(&msg, n)), (Ok(0), Ok(1)));
/// // After 2^31 keyless messages the int counter is negative: so is the partition.
/// let mut old = DotPulsarRouter::RoundRobin { counter: i32::MAX };
/// assert!(old.route(&msg, n).is_err());
/// # Ok::<(), pulsar_routing::PartitionCountError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DotPulsarRouter {
    /// `RoundRobinPartitionRouter`: keyless messages take
    /// `Interlocked.Increment(ref counter) % n`.
    RoundRobin {
        /// The last counter value (-1 for a new router).
        counter: i32,
    },
    /// `SinglePartitionRouter`: keyless messages go to `partition`, drawn
    /// with `new Random().Next(0, n)` on first use, or given.
    SinglePartition {
        /// The fixed partition.
        partition: i32,
    },
}

impl DotPulsarRouter {
    /// A new `RoundRobinPartitionRouter`: its counter starts at -1, so the
    /// first keyless message goes to partition 0.
    #[must_use]
    pub const fn round_robin() -> Self {
        Self::RoundRobin { counter: -1 }
    }

    /// Routes `message`.
    ///
    /// # Errors
    /// [`ProfileRouteError::IllegalPartition`] for a negative partition
    /// (the counter wrapped past `int.MaxValue`) or a single partition
    /// outside `[0, n)`.
    pub fn route(
        &mut self,
        message: &ProfileMessage<'_>,
        num_partitions: PartitionCount,
    ) -> Result<u32, ProfileRouteError> {
        if let Some(p) = dotpulsar_keyed_partition(message, num_partitions) {
            return Ok(p);
        }
        let partition = match self {
            Self::RoundRobin { counter } => {
                *counter = counter.wrapping_add(1);
                // C#'s `%` truncates toward zero: a negative counter gives
                // a negative partition. `n <= i32::MAX`, so it cannot trap.
                counter.wrapping_rem(num_partitions.get() as i32)
            }
            Self::SinglePartition { partition } => *partition,
        };
        u32::try_from(partition)
            .ok()
            .filter(|&p| p < num_partitions.get())
            .ok_or(ProfileRouteError::IllegalPartition {
                profile: ClientProfile::DotPulsar,
                partition: i64::from(partition),
            })
    }
}
