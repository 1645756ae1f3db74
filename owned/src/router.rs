//! What the core's routers leave to their caller: the system clock, and
//! the text of an answer the core cannot hold.

use std::time::{SystemTime, UNIX_EPOCH};

use pulsar_routing::{PartitionCount, RoundRobinRouter, RouteError, RoutingKey};

/// Unix epoch milliseconds, what Java's `Clock.systemUTC().millis()` reads.
#[must_use]
pub fn epoch_ms() -> i64 {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(since) => i64::try_from(since.as_millis()).unwrap_or(i64::MAX),
        Err(before) => i64::try_from(before.duration().as_millis()).map_or(i64::MIN, |ms| -ms),
    }
}

/// [`RoundRobinRouter::choose_partition`] at `now_ms`, or when that is not
/// given, at the system clock's time, read only if the router needs it (a
/// keyless message with batching).
#[must_use]
pub fn choose_round_robin(
    router: &RoundRobinRouter,
    key: RoutingKey<'_>,
    n: PartitionCount,
    now_ms: Option<i64>,
) -> u32 {
    let reads_clock = key == RoutingKey::None && router.partition_switch_ms().is_some();
    let now = match now_ms {
        Some(now) => now,
        None if reads_clock => epoch_ms(),
        None => 0,
    };
    router.choose_partition(key, n, now)
}

/// Java's message for a chosen partition the core cannot hold (a value
/// that is not a 64-bit integer), given as text: the core formats
/// `IllegalPartitionIndex(p)` as the fixed text followed by `p`, so the
/// text is taken from there rather than written a second time.
#[must_use]
pub fn illegal_partition_message(value: &str) -> String {
    let probe = RouteError::IllegalPartitionIndex(0).to_string();
    let prefix = probe.strip_suffix('0').unwrap_or(&probe);
    format!("{prefix}{value}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_ends_with_the_value() {
        let message = illegal_partition_message("1.5");
        assert!(message.ends_with(": 1.5"), "{message}");
        assert_eq!(
            illegal_partition_message("7"),
            RouteError::IllegalPartitionIndex(7).to_string()
        );
    }

    #[test]
    fn a_given_time_is_used_and_keyed_messages_ignore_it() {
        let router = RoundRobinRouter::new(Default::default(), 0, true, 10);
        let n = PartitionCount::new(5).unwrap();
        assert_eq!(
            choose_round_robin(&router, RoutingKey::None, n, Some(30)),
            3
        );
        let keyed = router.choose_partition(RoutingKey::Key("k"), n, 0);
        assert_eq!(
            choose_round_robin(&router, RoutingKey::Key("k"), n, None),
            keyed
        );
    }
}
