//! A routing policy for [pulsar-rs](https://crates.io/crates/pulsar) that
//! sends every message where the Java client's default router would: a
//! Rust producer and a Java producer that send the same keys to the same
//! topic fill the same partitions.
//!
//! ```no_run
//! use std::sync::Arc;
//!
//! use pulsar::{Pulsar, TokioExecutor, producer::ProducerOptions, routing_policy::RoutingPolicy};
//! use pulsar_routing_pulsar_rs::JavaRoutingPolicy;
//!
//! # async fn run() -> Result<(), pulsar::Error> {
//! let pulsar: Pulsar<_> = Pulsar::builder("pulsar://localhost:6650", TokioExecutor).build().await?;
//! let mut producer = pulsar
//!     .producer()
//!     .with_topic("persistent://public/default/orders")
//!     .with_options(ProducerOptions {
//!         // Java's default producer: JavaStringHash, round robin, batching on.
//!         routing_policy: Some(RoutingPolicy::Custom(Arc::new(JavaRoutingPolicy::default()))),
//!         ..Default::default()
//!     })
//!     .build()
//!     .await?;
//! // Where Java's producer.newMessage().key("é").send() goes.
//! producer.create_message().with_key("é").with_content(b"paid".to_vec()).send_non_blocking().await?.await?;
//! # Ok(())
//! # }
//! ```
//!
//! The routing is the project's core (`pulsar-routing`); this crate only
//! hands it the key Java would see.
//!
//! # What Java would see
//!
//! `partition_key` is a `String`, which Java receives as the same text and
//! hashes as a `String` (pulsar-rs's own round robin hashes it with Murmur3,
//! unmasked, whatever the scheme). A key set with `with_key_bytes` (Base64
//! text and `partition_key_b64_encoded`, pulsar-rs's counterpart of Java's
//! `keyBytes`) is routed by its Base64 text, as Java routes `keyBytes`. The
//! empty key `Some("")` is a key, hashed to partition 0, as Java's
//! `key("")`; `None` is keyless.
//!
//! # Where Rust and Java cannot agree
//!
//! - Lone surrogates: a Java `String` may hold one, a Rust `String`
//!   cannot, so such a key has no pulsar-rs spelling.
//! - The ordering key: Java's routers ignore it (only Key_Shared dispatch
//!   reads it), and so does this policy.
//!
//! # Keyless messages
//!
//! Round robin as `RoundRobinPartitionMessageRouterImpl`: with batching
//! (Java's default), the partition switches every
//! `partition_switch_ms` of wall-clock time (Java's default 10 ms: 10 ×
//! `batchingMaxPublishDelay` of 1 ms), offset by a start index; without, a
//! counter from the start index advances once per keyless message. Java
//! draws the start index uniformly in `[0, n)` when the producer is created;
//! this policy draws it when it routes its first message, with that
//! message's partition count, unless [`JavaRoutingPolicy::start_index`]
//! gives it. Set the batching options to those of the Java producers to
//! match, not to pulsar-rs's own: they only decide how keyless messages are
//! spread. One policy keeps one round-robin state, as one Java producer
//! does: give each producer its own.

use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::sync::{Arc, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

use pulsar::producer::Message;
use pulsar::routing_policy::CustomRoutingPolicy;
pub use pulsar_routing::HashingScheme;
use pulsar_routing::{PartitionCount, RoundRobinRouter, RoutingKey, SinglePartitionRouter};

/// The Java producer's `messageRoutingMode`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Java's default.
    #[default]
    RoundRobinPartition,
    /// Every keyless message to one partition, drawn like the round-robin
    /// start index.
    SinglePartition,
}

/// Unix epoch milliseconds, as Java's `Clock.systemUTC().millis()`.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

enum Router {
    RoundRobin(RoundRobinRouter),
    Single(SinglePartitionRouter),
}

/// A [`CustomRoutingPolicy`] that routes like the Java client. Build it with
/// [`JavaRoutingPolicy::default`] (Java's default producer) and the
/// builder methods.
pub struct JavaRoutingPolicy {
    scheme: HashingScheme,
    mode: Mode,
    batching: bool,
    partition_switch_ms: i64,
    start: Option<i32>,
    clock: Option<Clock>,
    router: OnceLock<Router>,
}

impl Default for JavaRoutingPolicy {
    fn default() -> Self {
        Self {
            scheme: HashingScheme::JavaStringHash,
            mode: Mode::RoundRobinPartition,
            batching: true,
            partition_switch_ms: 10,
            start: None,
            clock: None,
            router: OnceLock::new(),
        }
    }
}

impl fmt::Debug for JavaRoutingPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JavaRoutingPolicy")
            .field("scheme", &self.scheme)
            .field("mode", &self.mode)
            .field("batching", &self.batching)
            .field("partition_switch_ms", &self.partition_switch_ms)
            .field("start", &self.start_index_in_use())
            .finish_non_exhaustive()
    }
}

impl JavaRoutingPolicy {
    /// Java's `hashingScheme`.
    #[must_use]
    pub fn hashing_scheme(mut self, scheme: HashingScheme) -> Self {
        self.scheme = scheme;
        self
    }

    /// Java's `messageRoutingMode`.
    #[must_use]
    pub fn mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// Java's `enableBatching` (default on).
    #[must_use]
    pub fn batching(mut self, enabled: bool) -> Self {
        self.batching = enabled;
        self
    }

    /// The keyless switch interval with batching: Java's
    /// `roundRobinRouterBatchingPartitionSwitchFrequency` ×
    /// `batchingMaxPublishDelay`, in milliseconds (default 10; clamped to at
    /// least 1, as Java does).
    #[must_use]
    pub fn partition_switch_ms(mut self, ms: i64) -> Self {
        self.partition_switch_ms = ms;
        self
    }

    /// The round-robin start index (single partition: the partition),
    /// instead of Java's random draw.
    #[must_use]
    pub fn start_index(mut self, start: i32) -> Self {
        self.start = Some(start);
        self
    }

    /// The clock read for keyless messages with batching, instead of the
    /// system clock.
    #[must_use]
    pub fn clock(mut self, clock: Clock) -> Self {
        self.clock = Some(clock);
        self
    }

    /// The start index in use, `None` before the first message.
    #[must_use]
    pub fn start_index_in_use(&self) -> Option<i32> {
        self.router.get().map(|r| match r {
            Router::RoundRobin(r) => r.start_partition_index(),
            Router::Single(r) => r.partition_index(),
        })
    }

    fn build(&self, n: PartitionCount) -> Router {
        let start = self.start.unwrap_or_else(|| java_start(n));
        match self.mode {
            Mode::RoundRobinPartition => Router::RoundRobin(RoundRobinRouter::new(
                self.scheme,
                start,
                self.batching,
                self.partition_switch_ms,
            )),
            Mode::SinglePartition => Router::Single(SinglePartitionRouter::new(self.scheme, start)),
        }
    }

    /// The partition Java would choose for `message` on a topic of
    /// `num_partitions` partitions; `None` for a count Java refuses (0 or
    /// more than `i32::MAX`), or a single-partition index outside it.
    #[must_use]
    pub fn partition(&self, message: &Message, num_partitions: usize) -> Option<usize> {
        let n = PartitionCount::new(u32::try_from(num_partitions).ok()?).ok()?;
        let key = message
            .partition_key
            .as_deref()
            .map_or(RoutingKey::None, RoutingKey::Key);
        let p = match self.router.get_or_init(|| self.build(n)) {
            Router::RoundRobin(r) => {
                let now = if key == RoutingKey::None && self.batching {
                    self.now_ms()
                } else {
                    0
                };
                r.choose_partition(key, n, now)
            }
            Router::Single(r) => r.choose_partition(key, n).ok()?,
        };
        usize::try_from(p).ok()
    }

    fn now_ms(&self) -> i64 {
        match &self.clock {
            Some(clock) => clock(),
            None => match SystemTime::now().duration_since(UNIX_EPOCH) {
                Ok(d) => i64::try_from(d.as_millis()).unwrap_or(i64::MAX),
                Err(e) => i64::try_from(e.duration().as_millis()).map_or(i64::MIN, |ms| -ms),
            },
        }
    }
}

/// Java's `ThreadLocalRandom.current().nextInt(n)`: uniform in `[0, n)`.
/// std's randomly keyed hasher is the random source, so the crate needs no
/// RNG of its own; the modulo bias of 64 random bits is below 2^-32.
fn java_start(n: PartitionCount) -> i32 {
    let bits = RandomState::new().build_hasher().finish();
    i32::try_from(bits % u64::from(n.get())).unwrap_or(0)
}

impl CustomRoutingPolicy for JavaRoutingPolicy {
    /// pulsar-rs indexes its producers with the answer and has no way to fail
    /// a send from here, so a message Java would refuse goes to partition 0.
    fn route(&self, message: &Message, num_producers: usize) -> usize {
        self.partition(message, num_producers).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests;
