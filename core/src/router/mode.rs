//! Producer configuration that decides which router is built, with the Java
//! builder's validation and messages.

use core::fmt;

/// Java's `MessageRoutingMode`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MessageRoutingMode {
    /// Keyed by hash, keyless round-robin ([`RoundRobinRouter`](super::RoundRobinRouter)).
    #[default]
    RoundRobinPartition,
    /// Keyed by hash, keyless to one fixed partition
    /// ([`SinglePartitionRouter`](super::SinglePartitionRouter)).
    SinglePartition,
    /// A user-supplied router ([`CustomRouter`](super::CustomRouter)).
    CustomPartition,
}

/// Decides the routing mode from what the producer builder was given, as
/// `ProducerBuilderImpl` does: `mode` is the explicitly set mode, if any, and
/// `custom_router_set` says whether a custom router was supplied.
///
/// # Errors
/// The two inconsistent combinations, with Java's messages.
///
/// ```
/// use pulsar_routing::{MessageRoutingMode, resolve_routing_mode};
/// assert_eq!(resolve_routing_mode(None, false), Ok(MessageRoutingMode::RoundRobinPartition));
/// assert_eq!(resolve_routing_mode(None, true), Ok(MessageRoutingMode::CustomPartition));
/// assert!(resolve_routing_mode(Some(MessageRoutingMode::CustomPartition), false).is_err());
/// ```
pub const fn resolve_routing_mode(
    mode: Option<MessageRoutingMode>,
    custom_router_set: bool,
) -> Result<MessageRoutingMode, RoutingConfigError> {
    match (mode, custom_router_set) {
        (None, false) => Ok(MessageRoutingMode::RoundRobinPartition),
        (None, true) => Ok(MessageRoutingMode::CustomPartition),
        (Some(MessageRoutingMode::CustomPartition), false) => {
            Err(RoutingConfigError::CustomModeWithoutRouter)
        }
        (Some(MessageRoutingMode::CustomPartition), true) => {
            Ok(MessageRoutingMode::CustomPartition)
        }
        (Some(_), true) => Err(RoutingConfigError::RouterWithoutCustomMode),
        (Some(mode), false) => Ok(mode),
    }
}

/// The batching round-robin router's switch interval, from the producer
/// settings `roundRobinRouterBatchingPartitionSwitchFrequency` and
/// `batchingMaxPublishDelay` (in microseconds):
/// `max(1, frequency * delay_us / 1000)`, truncated to whole milliseconds.
///
/// # Errors
/// Java's builder checks, with its messages: the frequency must be at least
/// 1 and the delay at least 1 ms.
///
/// ```
/// use pulsar_routing::partition_switch_ms;
/// assert_eq!(partition_switch_ms(10, 1_000), Ok(10)); // Java's defaults
/// assert_eq!(partition_switch_ms(3, 1_500), Ok(4));   // 4500 us truncates to 4 ms
/// ```
pub const fn partition_switch_ms(
    frequency: i32,
    max_publish_delay_us: i64,
) -> Result<i64, RoutingConfigError> {
    if frequency < 1 {
        return Err(RoutingConfigError::SwitchFrequencyTooSmall);
    }
    if max_publish_delay_us / 1000 < 1 {
        return Err(RoutingConfigError::BatchDelayTooSmall);
    }
    // Java multiplies int by long in long arithmetic, wrapping on overflow.
    let ms = (frequency as i64).wrapping_mul(max_publish_delay_us) / 1000;
    Ok(if ms < 1 { 1 } else { ms })
}

/// An inconsistent producer routing configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RoutingConfigError {
    /// Mode `CustomPartition` without a router.
    CustomModeWithoutRouter,
    /// A custom router with a mode other than `CustomPartition`.
    RouterWithoutCustomMode,
    /// `roundRobinRouterBatchingPartitionSwitchFrequency` below 1.
    SwitchFrequencyTooSmall,
    /// `batchingMaxPublishDelay` below 1 ms.
    BatchDelayTooSmall,
}

impl fmt::Display for RoutingConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::CustomModeWithoutRouter => {
                "When 'messageRoutingMode' is CustomPartition, 'messageRouter' should be set"
            }
            Self::RouterWithoutCustomMode => {
                "When 'messageRouter' is set, 'messageRoutingMode' should be set as CustomPartition"
            }
            Self::SwitchFrequencyTooSmall => {
                "configured value for partition switch frequency must be >= 1"
            }
            Self::BatchDelayTooSmall => "configured value for batch delay must be at least 1ms",
        })
    }
}

impl core::error::Error for RoutingConfigError {}
