//! Why a lookup, or one attempt of it, failed.

use core::fmt;

use super::address::MAX_ADDRESS_LEN;

/// The broker's `ServerError` code from `PulsarApi.proto`, carried by a
/// failed `CommandLookupTopicResponse` or `CommandPartitionedTopicMetadataResponse`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ServerError {
    /// `UnknownError` (0); also what Java assumes when the field is absent.
    UnknownError,
    /// `MetadataError` (1).
    MetadataError,
    /// `PersistenceError` (2).
    PersistenceError,
    /// `AuthenticationError` (3).
    AuthenticationError,
    /// `AuthorizationError` (4).
    AuthorizationError,
    /// `ConsumerBusy` (5).
    ConsumerBusy,
    /// `ServiceNotReady` (6): the broker is not ready, e.g. during a
    /// load-manager leader change. Java maps it to a retriable `LookupException`.
    ServiceNotReady,
    /// `ProducerBlockedQuotaExceededError` (7).
    ProducerBlockedQuotaExceededError,
    /// `ProducerBlockedQuotaExceededException` (8).
    ProducerBlockedQuotaExceededException,
    /// `ChecksumError` (9).
    ChecksumError,
    /// `UnsupportedVersionError` (10).
    UnsupportedVersionError,
    /// `TopicNotFound` (11).
    TopicNotFound,
    /// `SubscriptionNotFound` (12).
    SubscriptionNotFound,
    /// `ConsumerNotFound` (13).
    ConsumerNotFound,
    /// `TooManyRequests` (14): the broker throttled the lookup.
    TooManyRequests,
    /// `TopicTerminatedError` (15).
    TopicTerminatedError,
    /// `ProducerBusy` (16).
    ProducerBusy,
    /// `InvalidTopicName` (17).
    InvalidTopicName,
    /// `IncompatibleSchema` (18).
    IncompatibleSchema,
    /// `ConsumerAssignError` (19).
    ConsumerAssignError,
    /// `TransactionCoordinatorNotFound` (20).
    TransactionCoordinatorNotFound,
    /// `InvalidTxnStatus` (21).
    InvalidTxnStatus,
    /// `NotAllowedError` (22).
    NotAllowedError,
    /// `TransactionConflict` (23).
    TransactionConflict,
    /// `TransactionNotFound` (24).
    TransactionNotFound,
    /// `ProducerFenced` (25).
    ProducerFenced,
}

impl ServerError {
    /// Every value, in the order of their proto codes (0 to 25).
    pub const ALL: [Self; 26] = [
        Self::UnknownError,
        Self::MetadataError,
        Self::PersistenceError,
        Self::AuthenticationError,
        Self::AuthorizationError,
        Self::ConsumerBusy,
        Self::ServiceNotReady,
        Self::ProducerBlockedQuotaExceededError,
        Self::ProducerBlockedQuotaExceededException,
        Self::ChecksumError,
        Self::UnsupportedVersionError,
        Self::TopicNotFound,
        Self::SubscriptionNotFound,
        Self::ConsumerNotFound,
        Self::TooManyRequests,
        Self::TopicTerminatedError,
        Self::ProducerBusy,
        Self::InvalidTopicName,
        Self::IncompatibleSchema,
        Self::ConsumerAssignError,
        Self::TransactionCoordinatorNotFound,
        Self::InvalidTxnStatus,
        Self::NotAllowedError,
        Self::TransactionConflict,
        Self::TransactionNotFound,
        Self::ProducerFenced,
    ];

    /// The value with this proto code, if the code is known.
    #[must_use]
    pub fn from_code(code: i32) -> Option<Self> {
        usize::try_from(code)
            .ok()
            .and_then(|i| Self::ALL.get(i).copied())
    }

    /// The proto code.
    #[must_use]
    pub const fn code(self) -> i32 {
        // Declared in proto order without explicit discriminants.
        self as i32
    }

    /// The value with this proto name (`"ServiceNotReady"`), if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.name() == name)
    }

    /// The proto name, e.g. `"ServiceNotReady"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::UnknownError => "UnknownError",
            Self::MetadataError => "MetadataError",
            Self::PersistenceError => "PersistenceError",
            Self::AuthenticationError => "AuthenticationError",
            Self::AuthorizationError => "AuthorizationError",
            Self::ConsumerBusy => "ConsumerBusy",
            Self::ServiceNotReady => "ServiceNotReady",
            Self::ProducerBlockedQuotaExceededError => "ProducerBlockedQuotaExceededError",
            Self::ProducerBlockedQuotaExceededException => "ProducerBlockedQuotaExceededException",
            Self::ChecksumError => "ChecksumError",
            Self::UnsupportedVersionError => "UnsupportedVersionError",
            Self::TopicNotFound => "TopicNotFound",
            Self::SubscriptionNotFound => "SubscriptionNotFound",
            Self::ConsumerNotFound => "ConsumerNotFound",
            Self::TooManyRequests => "TooManyRequests",
            Self::TopicTerminatedError => "TopicTerminatedError",
            Self::ProducerBusy => "ProducerBusy",
            Self::InvalidTopicName => "InvalidTopicName",
            Self::IncompatibleSchema => "IncompatibleSchema",
            Self::ConsumerAssignError => "ConsumerAssignError",
            Self::TransactionCoordinatorNotFound => "TransactionCoordinatorNotFound",
            Self::InvalidTxnStatus => "InvalidTxnStatus",
            Self::NotAllowedError => "NotAllowedError",
            Self::TransactionConflict => "TransactionConflict",
            Self::TransactionNotFound => "TransactionNotFound",
            Self::ProducerFenced => "ProducerFenced",
        }
    }

    /// Whether the Java client retries after this error.
    ///
    /// `ClientCnx.getPulsarClientException` turns the code into an exception
    /// class and `PulsarClientException.isRetriableError` rejects the
    /// classes that cannot succeed on a second try. The codes that map to
    /// one of those are authorization, a busy producer or consumer, an
    /// incompatible schema, a missing topic (`TopicDoesNotExistException`)
    /// or subscription, a consumer-assign error, `NotAllowed` and a
    /// transaction conflict.
    ///
    /// Everything else is retried with backoff until the deadline:
    /// `ServiceNotReady` during a leader change, `TooManyRequests`,
    /// metadata and persistence errors, a terminated topic, a fenced
    /// producer, authentication (the partitioned-metadata step alone stops
    /// on it), and the codes Java has no class for and maps to the plain
    /// `PulsarClientException` (`UnknownError`, `ChecksumError`,
    /// `UnsupportedVersionError`, `ConsumerNotFound`, the transaction
    /// lookups, and `InvalidTopicName`: its `InvalidTopicNameException`
    /// is only thrown by the client's own name check, never for a broker
    /// code).
    #[must_use]
    pub const fn is_retriable(self) -> bool {
        !matches!(
            self,
            Self::AuthorizationError
                | Self::ConsumerBusy
                | Self::TopicNotFound
                | Self::SubscriptionNotFound
                | Self::ProducerBusy
                | Self::IncompatibleSchema
                | Self::ConsumerAssignError
                | Self::NotAllowedError
                | Self::TransactionConflict
        )
    }
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why one attempt of a lookup failed: one try from the service address,
/// through its redirects, to an answer.
///
/// The driver retries the retriable ones ([`AttemptError::is_retriable`])
/// with backoff until the deadline; the others end the lookup at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AttemptError {
    /// The broker answered `Failed` with this error. Its message, if any,
    /// is kept by the driver (`server_message()`).
    Server(ServerError),
    /// The response was `Failed`, or carried no response type, without an
    /// error code (Java's `LookupException("Empty lookup response")`).
    EmptyResponse,
    /// A `Connect` or `Redirect` response had no broker URL of the kind the
    /// client needs (`brokerServiceUrlTls` with TLS, `brokerServiceUrl`
    /// without).
    MissingBrokerUrl {
        /// Whether the TLS URL was the one missing.
        tls: bool,
    },
    /// More redirects than `maxLookupRedirects` (Java's `LookupException`).
    TooManyRedirects {
        /// The limit.
        limit: u32,
    },
    /// The Go client's fixed limit of 20 lookup responses was reached: the
    /// answer to the request sent after the 20th `Redirect` is not read.
    GoRedirectLimit,
    /// The lookup was redirected back to an address it already asked with
    /// the same authoritative flag, so the brokers would likely answer the
    /// same again. An opt-in diagnostic of this crate (no real client has
    /// one: they redirect until the limit); see [`LookupOptions::detect_redirect_loops`](super::LookupOptions::detect_redirect_loops).
    /// The chain of addresses is the driver's `chain()`.
    RedirectLoop {
        /// The number of hops in the chain, the repeated one included.
        hops: u32,
    },
    /// A broker address is longer than [`MAX_ADDRESS_LEN`] bytes, which a
    /// driver cannot hold without a heap.
    AddressTooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// The connection to the broker could not be made or was lost before
    /// the answer.
    ConnectionFailed,
    /// The request got no answer within the operation timeout.
    RequestTimeout,
    /// The connection's lookup throttle rejected the request (Java's
    /// `TooManyRequestsException` from `ClientCnx.newLookup`).
    TooManyRequests {
        /// Lookups in flight on the connection.
        in_flight: u32,
        /// Lookups waiting in its queue.
        queued: u32,
    },
    /// `metadataAutoCreationEnabled = false` was asked of a broker without
    /// PIP-344 support, and the fallback is off.
    FeatureNotSupported,
}

impl AttemptError {
    /// Whether the Java client tries again after this error (see
    /// [`ServerError::is_retriable`]). The lookup's own failures are
    /// `LookupException`s and connection failures, which Java retries; an
    /// over-long address is this crate's limit, the same on every retry.
    #[must_use]
    pub const fn is_retriable(self) -> bool {
        match self {
            Self::Server(e) => e.is_retriable(),
            Self::AddressTooLong { .. } | Self::FeatureNotSupported => false,
            _ => true,
        }
    }
}

impl fmt::Display for AttemptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Server(e) => write!(f, "the broker failed the lookup with {e}"),
            Self::EmptyResponse => f.write_str("Empty lookup response"),
            Self::MissingBrokerUrl { tls: true } => {
                f.write_str("the lookup response has no brokerServiceUrlTls")
            }
            Self::MissingBrokerUrl { tls: false } => {
                f.write_str("the lookup response has no brokerServiceUrl")
            }
            Self::TooManyRedirects { limit } => write!(f, "Too many redirects: {limit}"),
            Self::GoRedirectLimit => {
                f.write_str("exceeded max number of redirection during topic lookup")
            }
            Self::RedirectLoop { hops } => write!(
                f,
                "Redirect loop: after {hops} hops the lookup came back to an address it already asked with the same authoritative flag"
            ),
            Self::AddressTooLong { len } => write!(
                f,
                "a broker address of {len} bytes is longer than the {MAX_ADDRESS_LEN} bytes a lookup can hold"
            ),
            Self::ConnectionFailed => f.write_str("Connection to the broker failed"),
            Self::RequestTimeout => f.write_str("Lookup request timeout"),
            Self::TooManyRequests { in_flight, queued } => write!(
                f,
                "Requests number out of config: There are {{{in_flight}}} lookup requests outstanding and {{{queued}}} requests pending."
            ),
            Self::FeatureNotSupported => f.write_str(
                "The feature of getting partitions without auto-creation is not supported by the broker. Please upgrade the broker to version that supports PIP-344 to resolve this issue.",
            ),
        }
    }
}

impl core::error::Error for AttemptError {}

/// Why a lookup failed for good.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LookupError {
    /// An attempt failed with an error that is not retried (or retrying is
    /// off).
    Attempt(AttemptError),
    /// The deadline (`lookup_timeout_ms` after `start`) passed before an
    /// answer.
    DeadlineExceeded {
        /// Attempts made.
        attempts: u32,
        /// Milliseconds from `start` to the failure.
        elapsed_ms: u64,
        /// The last attempt's error, if an attempt failed (a lookup still
        /// redirecting at the deadline has none).
        last: Option<AttemptError>,
    },
}

impl LookupError {
    /// The attempt error behind this failure: the error itself, or the last
    /// one before the deadline.
    #[must_use]
    pub const fn attempt_error(self) -> Option<AttemptError> {
        match self {
            Self::Attempt(e) => Some(e),
            Self::DeadlineExceeded { last, .. } => last,
        }
    }
}

impl fmt::Display for LookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Attempt(e) => e.fmt(f),
            Self::DeadlineExceeded {
                attempts,
                elapsed_ms,
                last,
            } => {
                write!(
                    f,
                    "Lookup timed out after {elapsed_ms} ms and {attempts} attempts"
                )?;
                match last {
                    Some(e) => write!(f, "; last error: {e}"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl core::error::Error for LookupError {}

/// An event came when the driver was not waiting for it; nothing changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IgnoredEvent {
    /// `start` was called twice.
    AlreadyStarted,
    /// An event came before `start`.
    NotStarted,
    /// A response or an attempt failure came while no request was out.
    NoRequestOut,
    /// The retry timer fired while no retry was scheduled.
    NoRetryScheduled,
    /// `on_connected` came while the driver was not connecting.
    NotConnecting,
    /// The lookup has already ended.
    Finished,
    /// The retry timer fired before the time of the `RetryAt`: the retry
    /// stays scheduled.
    RetryNotDue,
}

impl fmt::Display for IgnoredEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::AlreadyStarted => "the lookup has already started",
            Self::NotStarted => "the lookup has not started",
            Self::NoRequestOut => "no request is waiting for an answer",
            Self::NoRetryScheduled => "no retry is scheduled",
            Self::NotConnecting => "no connection is being made",
            Self::Finished => "the lookup has already ended",
            Self::RetryNotDue => "the retry timer fired before the retry was due",
        })
    }
}

/// The coalescing table could not take another lookup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CoalesceError {
    /// Every slot holds a lookup in flight.
    TableFull {
        /// The number of slots.
        capacity: usize,
    },
    /// A lookup already has `u32::MAX` waiters.
    TooManyWaiters,
}

impl fmt::Display for CoalesceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::TableFull { capacity } => write!(
                f,
                "the lookup coalescing table is full: {capacity} different lookups are in flight"
            ),
            Self::TooManyWaiters => f.write_str("a lookup in flight has too many waiters"),
        }
    }
}

impl core::error::Error for CoalesceError {}
