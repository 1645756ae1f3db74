//! The partitioned-metadata step that precedes every producer:
//! `PulsarClientImpl.getPartitionedTopicMetadata` with its retries, and the
//! plan of lookups it leads to.

use core::fmt;

use super::address::{Address, MessageBuf};
use super::backoff::{Backoff, DEFAULT_INITIAL_BACKOFF_MS, DEFAULT_MAX_BACKOFF_MS, Jitter};
use super::driver::DEFAULT_OPERATION_TIMEOUT_MS;
use super::error::{AttemptError, IgnoredEvent, LookupError, ServerError};
use super::explain::WithServerMessage;

/// How a [`PartitionedMetadataLookup`] behaves. `Default` is the Java
/// producer's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MetadataOptions {
    /// `operationTimeoutMs`, 30 s by default.
    pub operation_timeout_ms: u64,
    /// `lookupTimeoutMs`, the time budget of the retries (Java's
    /// `remainingTime`) and half the backoff's mandatory stop; `None` means
    /// the operation timeout.
    pub lookup_timeout_ms: Option<u64>,
    /// `metadataAutoCreationEnabled`: whether the broker may create the
    /// topic's metadata (PIP-344). `true` by default.
    pub metadata_auto_creation: bool,
    /// `useFallbackForNonPIP344Brokers`: with auto-creation off and a
    /// broker without PIP-344, ask with auto-creation on instead of failing
    /// with [`AttemptError::FeatureNotSupported`].
    pub use_fallback_for_non_pip344: bool,
    /// The seed of the backoff's jitter.
    pub jitter_seed: u64,
}

impl Default for MetadataOptions {
    fn default() -> Self {
        Self {
            operation_timeout_ms: DEFAULT_OPERATION_TIMEOUT_MS,
            lookup_timeout_ms: None,
            metadata_auto_creation: true,
            use_fallback_for_non_pip344: false,
            jitter_seed: 0,
        }
    }
}

/// A `CommandPartitionedTopicMetadataResponse`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartitionedMetadataResponse<'r> {
    /// `Success`: the partition count, 0 for a non-partitioned topic.
    Success {
        /// `partitions`.
        partitions: u32,
    },
    /// `Failed`, or no response type (Java's `handlePartitionResponse`
    /// treats both alike).
    Failed {
        /// `error`; without one the attempt fails with
        /// [`AttemptError::EmptyResponse`] ("Empty lookup response").
        error: Option<ServerError>,
        /// `message`.
        message: Option<&'r str>,
    },
}

/// What the embedder must do next for a [`PartitionedMetadataLookup`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetadataAction<'d> {
    /// Connect to the service address (any host of the service URL) and
    /// report `on_connected` with the broker's PIP-344 feature flag, or
    /// `on_connection_failed`.
    Connect {
        /// The service address.
        address: &'d str,
        /// The attempt, from 1.
        attempt: u32,
    },
    /// Send `PARTITIONED_METADATA` on the connection and report
    /// `on_response` (or a failure).
    SendPartitionedMetadata {
        /// `metadata_auto_creation_enabled` to send.
        metadata_auto_creation: bool,
        /// The attempt, from 1.
        attempt: u32,
    },
    /// A retriable failure: call `on_retry_timer` at `at_ms`.
    RetryAt {
        /// When to retry.
        at_ms: u64,
        /// The delay.
        delay_ms: u64,
        /// Why the attempt failed.
        cause: AttemptError,
        /// The attempt that failed.
        attempt: u32,
    },
    /// The metadata arrived: start the producer as planned.
    Done(ProducerStartPlan),
    /// Failed for good.
    Failed(LookupError),
    /// The event was not expected now; nothing changed.
    Ignored(IgnoredEvent),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MState {
    NotStarted,
    Connecting,
    AwaitingResponse,
    WaitingRetry { at_ms: u64 },
    Done(ProducerStartPlan),
    Failed(LookupError),
}

/// `getPartitionedTopicMetadata` as a state machine: one request to any
/// service host (no redirects), retried with the Pulsar backoff (100 ms
/// doubling to 60 s, mandatory stop at twice the lookup timeout) within
/// the time left, except after errors that cannot succeed on a retry:
/// non-retriable ones, authentication and not-found.
///
/// ```
/// use pulsar_routing::lookup::{
///     MetadataAction, MetadataOptions, PartitionedMetadataLookup, PartitionedMetadataResponse,
/// };
///
/// let mut m = PartitionedMetadataLookup::new("pulsar://proxy:6650", MetadataOptions::default())?;
/// assert!(matches!(m.start(0), MetadataAction::Connect { .. }));
/// assert!(matches!(m.on_connected(true, 5), MetadataAction::SendPartitionedMetadata { metadata_auto_creation: true, .. }));
/// let MetadataAction::Done(plan) = m.on_response(&PartitionedMetadataResponse::Success { partitions: 3 }, 9) else { panic!() };
/// assert_eq!(plan.lookup_count(), 3);
/// assert_eq!(plan.topic_for("persistent://t/ns/orders", 2).to_string(), "persistent://t/ns/orders-partition-2");
/// # Ok::<(), pulsar_routing::lookup::AttemptError>(())
/// ```
#[derive(Clone, Debug)]
pub struct PartitionedMetadataLookup {
    options: MetadataOptions,
    service: Address,
    state: MState,
    attempts: u32,
    start_ms: u64,
    deadline_ms: u64,
    backoff: Backoff,
    jitter: Jitter,
    last_error: Option<AttemptError>,
    message: MessageBuf,
}

impl PartitionedMetadataLookup {
    /// A metadata lookup at `service_address`.
    pub fn new(service_address: &str, options: MetadataOptions) -> Result<Self, AttemptError> {
        let service =
            Address::new(service_address).map_err(|len| AttemptError::AddressTooLong { len })?;
        let timeout = options
            .lookup_timeout_ms
            .unwrap_or(options.operation_timeout_ms);
        Ok(Self {
            options,
            service,
            state: MState::NotStarted,
            attempts: 0,
            start_ms: 0,
            deadline_ms: 0,
            backoff: Backoff::new(
                DEFAULT_INITIAL_BACKOFF_MS,
                DEFAULT_MAX_BACKOFF_MS,
                timeout.saturating_mul(2),
            ),
            jitter: Jitter::new(options.jitter_seed),
            last_error: None,
            message: MessageBuf::EMPTY,
        })
    }

    /// Starts at `now_ms`; the deadline is the lookup timeout (by default
    /// the operation timeout) later: Java's time budget is
    /// `conf.getLookupTimeoutMs()`.
    pub fn start(&mut self, now_ms: u64) -> MetadataAction<'_> {
        if self.state != MState::NotStarted {
            return MetadataAction::Ignored(IgnoredEvent::AlreadyStarted);
        }
        self.start_ms = now_ms;
        let timeout = self
            .options
            .lookup_timeout_ms
            .unwrap_or(self.options.operation_timeout_ms);
        self.deadline_ms = now_ms.saturating_add(timeout);
        self.begin_attempt()
    }

    /// The connection is up; `supports_pip344` is the broker's
    /// `supports_get_partitioned_metadata_without_auto_creation` flag.
    pub fn on_connected(&mut self, supports_pip344: bool, now_ms: u64) -> MetadataAction<'_> {
        if self.state != MState::Connecting {
            return MetadataAction::Ignored(self.ignored(IgnoredEvent::NotConnecting));
        }
        let mut auto_creation = self.options.metadata_auto_creation;
        if !auto_creation && !supports_pip344 {
            if self.options.use_fallback_for_non_pip344 {
                auto_creation = true;
            } else {
                return self.attempt_failed(AttemptError::FeatureNotSupported, now_ms);
            }
        }
        self.state = MState::AwaitingResponse;
        MetadataAction::SendPartitionedMetadata {
            metadata_auto_creation: auto_creation,
            attempt: self.attempts,
        }
    }

    /// The broker's answer.
    pub fn on_response(
        &mut self,
        response: &PartitionedMetadataResponse<'_>,
        now_ms: u64,
    ) -> MetadataAction<'_> {
        if self.state != MState::AwaitingResponse {
            return MetadataAction::Ignored(self.ignored(IgnoredEvent::NoRequestOut));
        }
        match *response {
            PartitionedMetadataResponse::Success { partitions } => {
                let plan = ProducerStartPlan { partitions };
                self.state = MState::Done(plan);
                MetadataAction::Done(plan)
            }
            PartitionedMetadataResponse::Failed { error, message } => {
                self.message.set(message.unwrap_or(""));
                let error = error.map_or(AttemptError::EmptyResponse, AttemptError::Server);
                self.attempt_failed(error, now_ms)
            }
        }
    }

    /// The connection failed.
    pub fn on_connection_failed(&mut self, now_ms: u64) -> MetadataAction<'_> {
        self.on_attempt_error(AttemptError::ConnectionFailed, now_ms)
    }

    /// The request or its connection failed in the embedder.
    pub fn on_attempt_error(&mut self, error: AttemptError, now_ms: u64) -> MetadataAction<'_> {
        if !matches!(self.state, MState::Connecting | MState::AwaitingResponse) {
            return MetadataAction::Ignored(self.ignored(IgnoredEvent::NoRequestOut));
        }
        self.attempt_failed(error, now_ms)
    }

    /// The retry timer of a [`MetadataAction::RetryAt`] fired: a new
    /// attempt connects again. Before the `RetryAt`'s `at_ms` it is
    /// [`IgnoredEvent::RetryNotDue`] and the retry stays scheduled.
    pub fn on_retry_timer(&mut self, now_ms: u64) -> MetadataAction<'_> {
        match self.state {
            MState::WaitingRetry { at_ms } if now_ms < at_ms => {
                MetadataAction::Ignored(IgnoredEvent::RetryNotDue)
            }
            MState::WaitingRetry { .. } => self.begin_attempt(),
            _ => MetadataAction::Ignored(self.ignored(IgnoredEvent::NoRetryScheduled)),
        }
    }

    /// The plan, once the metadata arrived.
    #[must_use]
    pub fn plan(&self) -> Option<ProducerStartPlan> {
        match self.state {
            MState::Done(p) => Some(p),
            _ => None,
        }
    }

    /// The error, once failed.
    #[must_use]
    pub fn error(&self) -> Option<LookupError> {
        match self.state {
            MState::Failed(e) => Some(e),
            _ => None,
        }
    }

    /// Whether it ended.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        matches!(self.state, MState::Done(_) | MState::Failed(_))
    }

    /// The failure once failed, else the last attempt's error, with the
    /// broker's message; `None` while no attempt has failed.
    #[must_use]
    pub fn explain_error(&self) -> Option<WithServerMessage<'_>> {
        let error = self.error().or(self.last_error.map(LookupError::Attempt))?;
        Some(error.with_server_message(self.server_message()))
    }

    /// The message of the last `Failed` response, or `""`.
    #[must_use]
    pub fn server_message(&self) -> &str {
        self.message.as_str()
    }

    /// Attempts made.
    #[must_use]
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// The last attempt's error.
    #[must_use]
    pub fn last_attempt_error(&self) -> Option<AttemptError> {
        self.last_error
    }

    fn ignored(&self, otherwise: IgnoredEvent) -> IgnoredEvent {
        match self.state {
            MState::NotStarted => IgnoredEvent::NotStarted,
            MState::Done(_) | MState::Failed(_) => IgnoredEvent::Finished,
            _ => otherwise,
        }
    }

    fn begin_attempt(&mut self) -> MetadataAction<'_> {
        self.attempts = self.attempts.saturating_add(1);
        self.state = MState::Connecting;
        MetadataAction::Connect {
            address: self.service.as_str(),
            attempt: self.attempts,
        }
    }

    fn attempt_failed(&mut self, error: AttemptError, now_ms: u64) -> MetadataAction<'_> {
        self.last_error = Some(error);
        // Java skips the retry for non-retriable errors and, on this path
        // only, for `AuthenticationException` and `NotFoundException` too.
        // No broker code maps to `NotFoundException` (`TopicNotFound` gives
        // `TopicDoesNotExistException`, already non-retriable), so of the
        // broker's errors only authentication is added here.
        let retriable = error.is_retriable()
            && !matches!(
                error,
                AttemptError::Server(ServerError::AuthenticationError)
            );
        if !retriable {
            let e = LookupError::Attempt(error);
            self.state = MState::Failed(e);
            return MetadataAction::Failed(e);
        }
        // Java: nextDelay = min(backoff.next(), remainingTime), and it
        // gives up when that is not positive.
        let remaining = self.deadline_ms.saturating_sub(now_ms);
        let random = self.jitter.next_u32();
        let delay_ms = self.backoff.next(now_ms, random).min(remaining);
        if delay_ms == 0 {
            let e = LookupError::DeadlineExceeded {
                attempts: self.attempts,
                elapsed_ms: now_ms.saturating_sub(self.start_ms),
                last: Some(error),
            };
            self.state = MState::Failed(e);
            return MetadataAction::Failed(e);
        }
        let at_ms = now_ms.saturating_add(delay_ms);
        self.state = MState::WaitingRetry { at_ms };
        MetadataAction::RetryAt {
            at_ms,
            delay_ms,
            cause: error,
            attempt: self.attempts,
        }
    }
}

/// How a producer starts once the partition count is known: one lookup of
/// the topic itself for 0 partitions, otherwise one per
/// `<topic>-partition-<i>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProducerStartPlan {
    /// The partition count from the metadata; 0 for a non-partitioned
    /// topic.
    pub partitions: u32,
}

impl ProducerStartPlan {
    /// Whether the producer is a partitioned one.
    #[must_use]
    pub const fn is_partitioned(self) -> bool {
        self.partitions > 0
    }

    /// The number of topic lookups: `max(1, partitions)`.
    #[must_use]
    pub const fn lookup_count(self) -> u32 {
        if self.partitions == 0 {
            1
        } else {
            self.partitions
        }
    }

    /// The topic of the `i`-th lookup: the topic itself for a
    /// non-partitioned topic, otherwise `<topic>-partition-<i>`.
    #[must_use]
    pub fn topic_for<'t>(self, topic: &'t str, i: u32) -> LookupTopic<'t> {
        LookupTopic {
            topic,
            partition: self.is_partitioned().then_some(i),
        }
    }

    /// The topics to look up, in partition order.
    pub fn topics(self, topic: &str) -> impl Iterator<Item = LookupTopic<'_>> + '_ {
        (0..self.lookup_count()).map(move |i| self.topic_for(topic, i))
    }
}

/// A topic to look up; `Display` writes its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LookupTopic<'t> {
    /// The (partitioned) topic's name.
    pub topic: &'t str,
    /// The partition, for a partitioned topic.
    pub partition: Option<u32>,
}

impl fmt::Display for LookupTopic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.partition {
            None => f.write_str(self.topic),
            Some(i) => write!(f, "{}-partition-{i}", self.topic),
        }
    }
}
