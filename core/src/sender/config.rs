//! The producer settings the gate reads, with Kafka's defaults and the
//! checks `KafkaProducer`'s constructor makes.

use core::fmt;

use super::connection::ExponentialBackoff;

/// `reconnect.backoff.ms`'s default.
pub const DEFAULT_RECONNECT_BACKOFF_MS: u64 = 50;
/// `reconnect.backoff.max.ms`'s default.
pub const DEFAULT_RECONNECT_BACKOFF_MAX_MS: u64 = 1000;
/// `max.in.flight.requests.per.connection`'s default.
pub const DEFAULT_MAX_IN_FLIGHT: u32 = 5;
/// The largest `max.in.flight.requests.per.connection` the idempotent
/// producer accepts (`MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION_FOR_IDEMPOTENCE`).
pub const MAX_IN_FLIGHT_FOR_IDEMPOTENCE: u32 = 5;
/// `metadata.max.age.ms`'s default: five minutes.
pub const DEFAULT_METADATA_MAX_AGE_MS: u64 = 300_000;
/// `retry.backoff.ms`'s default, the first metadata refresh backoff.
pub const DEFAULT_RETRY_BACKOFF_MS: u64 = 100;
/// `retry.backoff.max.ms`'s default (Kafka 3.7+, KIP-580).
pub const DEFAULT_RETRY_BACKOFF_MAX_MS: u64 = 1000;

/// A producer configuration the Java client refuses at build time
/// (`ConfigException`), with its message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SenderConfigError {
    /// `max.in.flight.requests.per.connection` below 1 (`ConfigDef`'s
    /// `atLeast(1)`).
    MaxInFlightTooSmall(i64),
    /// `enable.idempotence=true` with more than 5 requests in flight:
    /// the broker keeps the sequence numbers of only the last 5 batches.
    MaxInFlightTooLargeForIdempotence(i64),
}

impl fmt::Display for SenderConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::MaxInFlightTooSmall(v) => write!(
                f,
                "Invalid value {v} for configuration max.in.flight.requests.per.connection: Value must be at least 1"
            ),
            Self::MaxInFlightTooLargeForIdempotence(v) => write!(
                f,
                "To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is {v}."
            ),
        }
    }
}

impl core::error::Error for SenderConfigError {}

/// The settings of the readiness gate, validated as `ProducerConfig`
/// validates them.
///
/// ```
/// use pulsar_routing::sender::{SenderConfig, SenderConfigError};
///
/// let config = SenderConfig::new(5, true)?;
/// assert_eq!(config.max_in_flight(), 5);
/// // Idempotence caps the requests in flight at 5 ...
/// assert_eq!(SenderConfig::new(6, true), Err(SenderConfigError::MaxInFlightTooLargeForIdempotence(6)));
/// // ... and without it any positive count goes.
/// assert!(SenderConfig::new(6, false).is_ok());
/// # Ok::<(), SenderConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SenderConfig {
    max_in_flight: u32,
    idempotence: bool,
    reconnect_backoff: ExponentialBackoff,
    metadata_max_age_ms: u64,
    refresh_backoff: ExponentialBackoff,
}

impl Default for SenderConfig {
    /// Kafka 3.x's defaults: idempotence on, 5 in flight.
    fn default() -> Self {
        Self {
            max_in_flight: DEFAULT_MAX_IN_FLIGHT,
            idempotence: true,
            reconnect_backoff: ExponentialBackoff::new(
                DEFAULT_RECONNECT_BACKOFF_MS,
                DEFAULT_RECONNECT_BACKOFF_MAX_MS,
            ),
            metadata_max_age_ms: DEFAULT_METADATA_MAX_AGE_MS,
            refresh_backoff: ExponentialBackoff::new(
                DEFAULT_RETRY_BACKOFF_MS,
                DEFAULT_RETRY_BACKOFF_MAX_MS,
            ),
        }
    }
}

impl SenderConfig {
    /// The defaults with `max.in.flight.requests.per.connection` and
    /// `enable.idempotence` set, checked as the Java producer checks them.
    ///
    /// # Errors
    /// [`SenderConfigError`] for a count below 1, or above 5 with
    /// idempotence.
    pub fn new(max_in_flight: i64, enable_idempotence: bool) -> Result<Self, SenderConfigError> {
        let Ok(max) = u32::try_from(max_in_flight) else {
            return Err(if max_in_flight < 1 {
                SenderConfigError::MaxInFlightTooSmall(max_in_flight)
            } else if enable_idempotence {
                SenderConfigError::MaxInFlightTooLargeForIdempotence(max_in_flight)
            } else {
                // Java's int cannot hold more; cap rather than refuse,
                // since the limit is then unreachable anyway.
                return Ok(Self {
                    max_in_flight: u32::MAX,
                    idempotence: false,
                    ..Self::default()
                });
            });
        };
        if max < 1 {
            return Err(SenderConfigError::MaxInFlightTooSmall(max_in_flight));
        }
        if enable_idempotence && max > MAX_IN_FLIGHT_FOR_IDEMPOTENCE {
            return Err(SenderConfigError::MaxInFlightTooLargeForIdempotence(
                max_in_flight,
            ));
        }
        Ok(Self {
            max_in_flight: max,
            idempotence: enable_idempotence,
            ..Self::default()
        })
    }

    /// Sets `reconnect.backoff.ms` and `reconnect.backoff.max.ms`.
    #[must_use]
    pub const fn with_reconnect_backoff(mut self, initial_ms: u64, max_ms: u64) -> Self {
        self.reconnect_backoff = ExponentialBackoff::new(initial_ms, max_ms);
        self
    }

    /// Sets `metadata.max.age.ms`.
    #[must_use]
    pub const fn with_metadata_max_age(mut self, max_age_ms: u64) -> Self {
        self.metadata_max_age_ms = max_age_ms;
        self
    }

    /// Sets `retry.backoff.ms` and `retry.backoff.max.ms`, which pace
    /// metadata refreshes.
    #[must_use]
    pub const fn with_retry_backoff(mut self, initial_ms: u64, max_ms: u64) -> Self {
        self.refresh_backoff = ExponentialBackoff::new(initial_ms, max_ms);
        self
    }

    /// `max.in.flight.requests.per.connection`; 1 is strict ordering.
    #[must_use]
    pub const fn max_in_flight(&self) -> u32 {
        self.max_in_flight
    }

    /// `enable.idempotence`.
    #[must_use]
    pub const fn idempotence(&self) -> bool {
        self.idempotence
    }

    /// True when at most one request is in flight per connection, so a
    /// retried batch can never be overtaken.
    #[must_use]
    pub const fn strict_ordering(&self) -> bool {
        self.max_in_flight == 1
    }

    /// The reconnect backoff (`reconnect.backoff.ms`,
    /// `reconnect.backoff.max.ms`).
    #[must_use]
    pub const fn reconnect_backoff(&self) -> ExponentialBackoff {
        self.reconnect_backoff
    }

    /// `metadata.max.age.ms`.
    #[must_use]
    pub const fn metadata_max_age_ms(&self) -> u64 {
        self.metadata_max_age_ms
    }

    /// The metadata refresh backoff (`retry.backoff.ms`,
    /// `retry.backoff.max.ms`).
    #[must_use]
    pub const fn refresh_backoff(&self) -> ExponentialBackoff {
        self.refresh_backoff
    }
}
