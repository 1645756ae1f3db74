//! The Kafka producer's sender readiness gate, sans-IO, and its Pulsar
//! counterpart, the producer's pending queue.
//!
//! A batch that the accumulator reports ready leaves only if its node
//! passes three checks (`NetworkClient.ready`, called by
//! `Sender.sendProducerData`), reported in this order:
//!
//! 1. **Connection**: `NOT_CONNECTED -> CONNECTING -> AUTHENTICATING ->
//!    READY`; failures back off `reconnect.backoff.ms` (50) doubling up to
//!    `reconnect.backoff.max.ms` (1000), ±20% jitter. A node that may
//!    connect gets [`Reason::InitiateConnect`].
//! 2. **In flight**: fewer than `max.in.flight.requests.per.connection`
//!    (5) requests unanswered. Idempotence allows at most 5; 1 is strict
//!    ordering.
//! 3. **Metadata**: no refresh due (`metadata.max.age.ms`, 300000, or a
//!    forced one after `NOT_LEADER_OR_FOLLOWER`); while one is due, every
//!    produce request waits so the metadata request goes first.
//!
//! The ready/not-ready answer is the conjunction of the three, as in Java;
//! only the reason reported depends on the order.
//!
//! Nothing here reads a clock or a random source: times are the caller's
//! `now_ms` and the jitter of each backoff is a caller's [`Jitter`]. The
//! per-node state is the caller's `&mut [NodeState]`.
//!
//! ```
//! use pulsar_routing::sender::{Jitter, MetadataState, NodeId, NodeState, Reason, SenderConfig, SenderGate};
//!
//! let config = SenderConfig::default();
//! let gate = SenderGate::with_metadata(config, MetadataState::fresh(0, Jitter::NONE, &config));
//! let mut nodes = [NodeState::new(NodeId(1)), NodeState::new(NodeId(2))];
//! let mut ready = [NodeId(1), NodeId(2), NodeId(3)];
//! let mut why = Vec::new();
//! let kept = gate.filter_ready(&mut nodes, &mut ready, 10, |r| why.push(r.reason));
//! assert_eq!(kept, 0);
//! assert_eq!(why, [Reason::InitiateConnect, Reason::InitiateConnect, Reason::UnknownNode]);
//! ```

mod config;
mod connection;
mod counters;
mod gate;
mod in_flight;
mod metadata;
mod pending_queue;

pub use config::{
    DEFAULT_MAX_IN_FLIGHT, DEFAULT_METADATA_MAX_AGE_MS, DEFAULT_RECONNECT_BACKOFF_MAX_MS,
    DEFAULT_RECONNECT_BACKOFF_MS, DEFAULT_RETRY_BACKOFF_MAX_MS, DEFAULT_RETRY_BACKOFF_MS,
    MAX_IN_FLIGHT_FOR_IDEMPOTENCE, SenderConfig, SenderConfigError,
};
pub use connection::{
    ConnectionEvent, ConnectionState, ExponentialBackoff, InvalidTransition, Jitter, NodeConnection,
};
pub use counters::SenderCounters;
pub use gate::{
    NodeId, NodeState, ProduceOutcome, Readiness, Reason, SenderError, SenderGate, check_nodes,
};
pub use in_flight::InFlight;
pub use metadata::MetadataState;
pub use pending_queue::{
    DEFAULT_MAX_PENDING_MESSAGES, MaxPendingMessagesNegative, PendingQueue, QueueFull,
    required_max_pending_messages,
};
