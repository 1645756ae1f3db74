//! The `pulsar-rs` profile: streamnative/pulsar-rs (crate `pulsar`), whose
//! key routing (since PR #366) uses MurmurHash3 **without** the mask, and
//! whose default (`routing_policy: None`) ignores keys altogether.

use core::fmt;
use core::str::FromStr;

use super::error::ProfileRouteError;
use super::message::{ProfileKey, ProfileMessage};
use super::profile::ClientProfile;
use crate::murmur3::murmur3_32_raw;
use crate::partition_count::PartitionCount;

/// `ProducerOptions::routing_policy`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PulsarRsRoutingPolicy {
    /// `None`, the default: every message, keyed or not, round-robins.
    #[default]
    Unset,
    /// `Some(RoutingPolicy::RoundRobin)`: keys by
    /// `murmur3_32(key, 0) % n`, the rest round-robin.
    RoundRobin,
    /// `Some(RoutingPolicy::Single)`: every message, keyed or not, to one
    /// partition.
    Single,
}

impl PulsarRsRoutingPolicy {
    /// Every policy.
    pub const ALL: [Self; 3] = [Self::Unset, Self::RoundRobin, Self::Single];

    /// `"unset"`, `"round_robin"` or `"single"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Unset => "unset",
            Self::RoundRobin => "round_robin",
            Self::Single => "single",
        }
    }
}

impl fmt::Display for PulsarRsRoutingPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PulsarRsRoutingPolicy {
    type Err = UnknownPulsarRsRoutingPolicy;

    /// Accepts [`PulsarRsRoutingPolicy::name`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or(UnknownPulsarRsRoutingPolicy)
    }
}

/// The text did not name a [`PulsarRsRoutingPolicy`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnknownPulsarRsRoutingPolicy;

impl fmt::Display for UnknownPulsarRsRoutingPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "unknown pulsar-rs routing policy: expected \"unset\", \"round_robin\" or \"single\"",
        )
    }
}

impl core::error::Error for UnknownPulsarRsRoutingPolicy {}

/// pulsar-rs's `partition_key`, an `Option<String>`: `Some("")` is a key.
fn pulsar_rs_key<'a>(key: ProfileKey<'a>) -> Result<Option<&'a str>, ProfileRouteError> {
    match key {
        ProfileKey::None => Ok(None),
        ProfileKey::Str(s) => Ok(Some(s)),
        ProfileKey::Bytes(_) => Err(ProfileRouteError::BytesKeyUnsupported(
            ClientProfile::PulsarRs,
        )),
    }
}

/// pulsar-rs's keyed routing: `None` for a message it does not route by
/// key (no key, or a policy that ignores keys).
pub(crate) fn pulsar_rs_keyed_partition(
    message: &ProfileMessage<'_>,
    policy: PulsarRsRoutingPolicy,
    num_partitions: PartitionCount,
) -> Result<Option<u32>, ProfileRouteError> {
    let key = pulsar_rs_key(message.key)?;
    Ok(match (policy, key) {
        (PulsarRsRoutingPolicy::RoundRobin, Some(key)) => {
            // `compute_partition_index_for_key`: unmasked, `% n as u32`.
            Some(num_partitions.reduce(murmur3_32_raw(key.as_bytes())))
        }
        _ => None,
    })
}

/// A pulsar-rs partitioned producer's choice of partition producer.
///
/// Round robin keeps the index of the last producer used
/// (`last_used_producer_index`, started at a random index): each keyless
/// message takes the next one, wrapping to 0.
///
/// ```
/// use pulsar_routing::PartitionCount;
/// use pulsar_routing::profiles::{ProfileMessage, PulsarRsRouter, PulsarRsRoutingPolicy};
/// let n = PartitionCount::new(3)?;
/// let mut unset = PulsarRsRouter::new(PulsarRsRoutingPolicy::Unset, 1);
/// // The default ignores the key: 2, then 0, whatever the key.
/// assert_eq!(unset.route(&ProfileMessage::keyed("k"), n), Ok(2));
/// assert_eq!(unset.route(&ProfileMessage::keyed("k"), n), Ok(0));
/// # Ok::<(), pulsar_routing::PartitionCountError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PulsarRsRouter {
    policy: PulsarRsRoutingPolicy,
    /// Round robin: the last index used. Single: the fixed index.
    index: u32,
}

impl PulsarRsRouter {
    /// A router with this policy; `start` is the round robin's initial last
    /// used index, or the single partition.
    #[must_use]
    pub const fn new(policy: PulsarRsRoutingPolicy, start: u32) -> Self {
        Self {
            policy,
            index: start,
        }
    }

    /// The routing policy.
    #[must_use]
    pub const fn policy(&self) -> PulsarRsRoutingPolicy {
        self.policy
    }

    /// Routes `message`.
    ///
    /// # Errors
    /// A binary key, or a single partition at or above `n`.
    pub fn route(
        &mut self,
        message: &ProfileMessage<'_>,
        num_partitions: PartitionCount,
    ) -> Result<u32, ProfileRouteError> {
        if let Some(p) = pulsar_rs_keyed_partition(message, self.policy, num_partitions)? {
            return Ok(p);
        }
        match self.policy {
            PulsarRsRoutingPolicy::Single => {
                if self.index < num_partitions.get() {
                    Ok(self.index)
                } else {
                    Err(ProfileRouteError::IllegalPartition {
                        profile: ClientProfile::PulsarRs,
                        partition: i64::from(self.index),
                    })
                }
            }
            PulsarRsRoutingPolicy::Unset | PulsarRsRoutingPolicy::RoundRobin => {
                let next = self.index.wrapping_add(1);
                self.index = if next >= num_partitions.get() {
                    0
                } else {
                    next
                };
                Ok(self.index)
            }
        }
    }
}
