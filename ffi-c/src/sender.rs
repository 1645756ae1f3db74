//! The Kafka producer's sender readiness gate (why a ready batch did not
//! leave: connection, requests in flight, metadata) and the Pulsar
//! producer's pending queue, sans-IO: the caller reports every event and
//! the time, and supplies the random draw of each backoff's jitter.
//!
//! Only `pulsar_routing_sender_gate_new` allocates (the gate and its node
//! table); every other function allocates nothing.

use pulsar_routing_core::sender::{
    ConnectionEvent, ConnectionState, Jitter, MaxPendingMessagesNegative, NodeId, PendingQueue,
    ProduceOutcome, QueueFull, Readiness, Reason, SenderConfig, SenderConfigError, SenderCounters,
    SenderError, required_max_pending_messages,
};
use pulsar_routing_owned::sender::{MetadataEvent, SenderGate};

use crate::error::{enum_from_c, pulsar_routing_status, status_from};
use crate::ffi::{BoxCastable, free_box, to_boxed_mut_ptr, write_display};
use crate::key_shared::put;

/// A connection state: one of the `PULSAR_ROUTING_CONNECTION_STATE_*`
/// values.
pub type pulsar_routing_connection_state = u32;
/// No connection (never opened, or closed and backing off).
pub const PULSAR_ROUTING_CONNECTION_STATE_NOT_CONNECTED: pulsar_routing_connection_state = 0;
/// The TCP connection is being opened.
pub const PULSAR_ROUTING_CONNECTION_STATE_CONNECTING: pulsar_routing_connection_state = 1;
/// Connected; API versions and authentication are running.
pub const PULSAR_ROUTING_CONNECTION_STATE_AUTHENTICATING: pulsar_routing_connection_state = 2;
/// Requests may be sent.
pub const PULSAR_ROUTING_CONNECTION_STATE_READY: pulsar_routing_connection_state = 3;

/// A connection event: one of the `PULSAR_ROUTING_CONNECTION_EVENT_*`
/// values.
pub type pulsar_routing_connection_event = u32;
/// A connect starts: `NOT_CONNECTED -> CONNECTING` (the gate's `ready`
/// does this itself when it answers `INITIATE_CONNECT`).
pub const PULSAR_ROUTING_CONNECTION_EVENT_CONNECT: pulsar_routing_connection_event = 0;
/// The TCP connect finished: `CONNECTING -> AUTHENTICATING`.
pub const PULSAR_ROUTING_CONNECTION_EVENT_CONNECTED: pulsar_routing_connection_event = 1;
/// Authentication succeeded: `AUTHENTICATING -> READY`.
pub const PULSAR_ROUTING_CONNECTION_EVENT_AUTHENTICATED: pulsar_routing_connection_event = 2;
/// The connection failed or closed: `-> NOT_CONNECTED`, with backoff.
pub const PULSAR_ROUTING_CONNECTION_EVENT_DISCONNECTED: pulsar_routing_connection_event = 3;
/// Authentication failed: `-> NOT_CONNECTED`, with backoff.
pub const PULSAR_ROUTING_CONNECTION_EVENT_AUTHENTICATION_FAILED: pulsar_routing_connection_event =
    4;

/// How a produce request ended: one of the `PULSAR_ROUTING_PRODUCE_OUTCOME_*`
/// values.
pub type pulsar_routing_produce_outcome = u32;
/// Acknowledged.
pub const PULSAR_ROUTING_PRODUCE_OUTCOME_SUCCESS: pulsar_routing_produce_outcome = 0;
/// `NOT_LEADER_OR_FOLLOWER`: forces a metadata refresh.
pub const PULSAR_ROUTING_PRODUCE_OUTCOME_NOT_LEADER_OR_FOLLOWER: pulsar_routing_produce_outcome = 1;
/// Any other error; the metadata is left alone.
pub const PULSAR_ROUTING_PRODUCE_OUTCOME_OTHER_ERROR: pulsar_routing_produce_outcome = 2;

/// Why a node is (not) ready: one of the `PULSAR_ROUTING_READINESS_*`
/// values. The checks run in the order connection, in flight, metadata.
pub type pulsar_routing_readiness_reason = u32;
/// Every check passed.
pub const PULSAR_ROUTING_READINESS_READY: pulsar_routing_readiness_reason = 0;
/// Not connected and allowed to connect: a connect is initiated.
pub const PULSAR_ROUTING_READINESS_INITIATE_CONNECT: pulsar_routing_readiness_reason = 1;
/// Not connected, within the reconnect backoff.
pub const PULSAR_ROUTING_READINESS_RECONNECT_BACKOFF: pulsar_routing_readiness_reason = 2;
/// Connecting or authenticating.
pub const PULSAR_ROUTING_READINESS_CONNECTING: pulsar_routing_readiness_reason = 3;
/// Connected but throttled by the broker.
pub const PULSAR_ROUTING_READINESS_THROTTLED: pulsar_routing_readiness_reason = 4;
/// `max.in.flight.requests.per.connection` requests are unanswered.
pub const PULSAR_ROUTING_READINESS_IN_FLIGHT_FULL: pulsar_routing_readiness_reason = 5;
/// A metadata refresh is due; produce requests wait for it.
pub const PULSAR_ROUTING_READINESS_METADATA_DUE: pulsar_routing_readiness_reason = 6;
/// The node is not one of the gate's nodes.
pub const PULSAR_ROUTING_READINESS_UNKNOWN_NODE: pulsar_routing_readiness_reason = 7;

/// The producer settings of a gate. Fill it with
/// `pulsar_routing_sender_config_default` (Kafka's defaults), then change
/// fields.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct pulsar_routing_sender_config {
    /// `max.in.flight.requests.per.connection` (default 5, at least 1; at
    /// most 5 with idempotence).
    pub max_in_flight: i64,
    /// `enable.idempotence` (default true).
    pub enable_idempotence: bool,
    /// `reconnect.backoff.ms` (default 50).
    pub reconnect_backoff_ms: u64,
    /// `reconnect.backoff.max.ms` (default 1000).
    pub reconnect_backoff_max_ms: u64,
    /// `metadata.max.age.ms` (default 300000).
    pub metadata_max_age_ms: u64,
    /// `retry.backoff.ms`, the first metadata refresh backoff (default 100).
    pub retry_backoff_ms: u64,
    /// `retry.backoff.max.ms` (default 1000).
    pub retry_backoff_max_ms: u64,
}

/// A node's readiness and the details behind it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct pulsar_routing_readiness {
    /// The node id.
    pub node: i32,
    /// A `PULSAR_ROUTING_READINESS_*` value.
    pub reason: pulsar_routing_readiness_reason,
    /// A `PULSAR_ROUTING_CONNECTION_STATE_*` value.
    pub state: pulsar_routing_connection_state,
    /// Requests in flight on the node's connection.
    pub in_flight: u32,
    /// `max.in.flight.requests.per.connection`.
    pub max_in_flight: u32,
    /// The metadata's age in milliseconds.
    pub metadata_age_ms: u64,
    /// A metadata refresh was requested (rather than expired).
    pub metadata_update_requested: bool,
    /// The reconnect backoff (`RECONNECT_BACKOFF`) or throttle
    /// (`THROTTLED`) left, in milliseconds; 0 otherwise.
    pub backoff_remaining_ms: u64,
}

/// The producer metrics a gate answers.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct pulsar_routing_sender_counters {
    /// `connection-count`: connections open or opening.
    pub connection_count: u64,
    /// `connection-creation-total`: TCP connections established.
    pub connection_creation_total: u64,
    /// Requests in flight over all nodes (`requests-in-flight`).
    pub in_flight_requests_count: u64,
    /// `metadata-age`, in milliseconds.
    pub metadata_age_ms: u64,
}

/// A readiness gate and its node table: opaque, from
/// `pulsar_routing_sender_gate_new`.
///
/// A gate is not thread-safe: one thread at a time (every call that
/// changes it takes a non-const pointer).
pub struct pulsar_routing_sender_gate {
    _private: [u8; 0],
}

impl BoxCastable for pulsar_routing_sender_gate {
    type RustType = SenderGate;
}

/// A Pulsar producer's pending-message queue (`maxPendingMessages`,
/// `blockIfQueueFull`): caller-allocated, opaque; initialise it with
/// `pulsar_routing_pending_queue_init`. It holds no pointers, so it may be
/// copied; one queue must not be used by two threads at once.
#[repr(C)]
pub struct pulsar_routing_pending_queue {
    _opaque: [u64; 2],
}

inline_castable!(pulsar_routing_pending_queue => PendingQueue);

fn readiness_to_c(r: &Readiness) -> pulsar_routing_readiness {
    pulsar_routing_readiness {
        node: r.node.0,
        reason: r.reason as u32,
        state: r.state as u32,
        in_flight: r.in_flight,
        max_in_flight: r.max_in_flight,
        metadata_age_ms: r.metadata_age_ms,
        metadata_update_requested: r.metadata_update_requested,
        backoff_remaining_ms: r.backoff_remaining_ms,
    }
}

fn readiness_from_c(r: &pulsar_routing_readiness) -> Option<Readiness> {
    let unknown = pulsar_routing_status::SenderUnknownValue;
    Some(Readiness {
        node: NodeId(r.node),
        reason: enum_from_c(&Reason::ALL, r.reason, unknown).ok()?,
        state: enum_from_c(&ConnectionState::ALL, r.state, unknown).ok()?,
        in_flight: r.in_flight,
        max_in_flight: r.max_in_flight,
        metadata_age_ms: r.metadata_age_ms,
        metadata_update_requested: r.metadata_update_requested,
        backoff_remaining_ms: r.backoff_remaining_ms,
    })
}

fn counters_to_c(c: SenderCounters) -> pulsar_routing_sender_counters {
    pulsar_routing_sender_counters {
        connection_count: c.connection_count,
        connection_creation_total: c.connection_creation_total,
        in_flight_requests_count: c.in_flight_requests_count,
        metadata_age_ms: c.metadata_age_ms,
    }
}

status_from! {
    SenderConfigError {
        SenderConfigError::MaxInFlightTooSmall(_) => Self::SenderMaxInFlightTooSmall,
        SenderConfigError::MaxInFlightTooLargeForIdempotence(_) => Self::SenderMaxInFlightTooLargeForIdempotence,
        _ => Self::Panic,
    }
    MaxPendingMessagesNegative { _ => Self::MaxPendingMessagesNegative }
    QueueFull {
        QueueFull::WouldBlock => Self::ProducerQueueWouldBlock,
        QueueFull::WouldFail => Self::ProducerQueueIsFull,
    }
    SenderError {
        SenderError::UnknownNode(_) => Self::SenderUnknownNode,
        SenderError::DuplicateNode(_) => Self::SenderDuplicateNode,
        SenderError::NotReady(_) => Self::SenderNotReady,
        SenderError::NoRequestInFlight(_) => Self::SenderNoRequestInFlight,
        SenderError::InvalidTransition(..) => Self::SenderInvalidTransition,
        _ => Self::Panic,
    }
}

/// Writes Kafka's defaults: idempotence on, 5 in flight,
/// reconnect backoff 50 to 1000 ms, metadata max age 300000 ms, retry
/// backoff 100 to 1000 ms.
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
///
/// # Safety
/// `config_out` must be valid for writing a `pulsar_routing_sender_config`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_sender_config_default(
    config_out: *mut pulsar_routing_sender_config,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(config_out);
        let d = SenderConfig::default();
        put(out, pulsar_routing_sender_config {
            max_in_flight: i64::from(d.max_in_flight()),
            enable_idempotence: d.idempotence(),
            reconnect_backoff_ms: d.reconnect_backoff().initial_ms(),
            reconnect_backoff_max_ms: d.reconnect_backoff().max_ms(),
            metadata_max_age_ms: d.metadata_max_age_ms(),
            retry_backoff_ms: d.refresh_backoff().initial_ms(),
            retry_backoff_max_ms: d.refresh_backoff().max_ms(),
        })
    }
}

/// Creates a gate for a just-built producer over the nodes `node_ids`:
/// no connection yet, and the metadata bootstrapped (an update is due).
///
/// - `config`: the settings, checked as `KafkaProducer` checks them.
/// - `node_ids`, `num_nodes`: the broker ids, all distinct; `node_ids` must
///   not be NULL, even when `num_nodes` is 0.
/// - `gate_out`: on success, receives the gate, which the caller owns and
///   must release with `pulsar_routing_sender_gate_free`.
///
/// Returns `OK`, `NULL_PARAMETER`, `SENDER_MAX_IN_FLIGHT_TOO_SMALL`,
/// `SENDER_MAX_IN_FLIGHT_TOO_LARGE_FOR_IDEMPOTENCE` or
/// `SENDER_DUPLICATE_NODE`. Thread-safe. Allocates the gate.
///
/// # Safety
/// `config` must point to a `pulsar_routing_sender_config`, `node_ids` to
/// `num_nodes` `int32_t`s, and `gate_out` be valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_sender_gate_new(
    config: *const pulsar_routing_sender_config,
    node_ids: *const i32,
    num_nodes: usize,
    gate_out: *mut *mut pulsar_routing_sender_gate,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `config`.
        let Some(config) = (unsafe { config.as_ref() }) else {
            return pulsar_routing_status::NullParameter;
        };
        let ids = try_slice!(node_ids, num_nodes);
        let out = try_out!(gate_out);
        let core_config = try_ok!(SenderConfig::new(config.max_in_flight, config.enable_idempotence))
            .with_reconnect_backoff(config.reconnect_backoff_ms, config.reconnect_backoff_max_ms)
            .with_metadata_max_age(config.metadata_max_age_ms)
            .with_retry_backoff(config.retry_backoff_ms, config.retry_backoff_max_ms);
        put(out, to_boxed_mut_ptr(try_ok!(SenderGate::new(core_config, ids.iter().copied()))))
    }
}

/// Releases a gate. NULL is a no-op.
///
/// # Safety
/// `gate` must be NULL or a gate from `pulsar_routing_sender_gate_new` that
/// has not been freed and that no other thread uses.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_sender_gate_free(gate: *mut pulsar_routing_sender_gate) {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `gate`.
        unsafe { free_box(gate) }
    }
}

/// `NetworkClient.ready(node, now)`: the node's readiness. When the answer
/// is `PULSAR_ROUTING_READINESS_INITIATE_CONNECT` the node moves to
/// `CONNECTING`: open the socket, then report `CONNECTED` or
/// `DISCONNECTED`. An unknown node answers `UNKNOWN_NODE` (not a failure).
///
/// Returns `OK` or `NULL_PARAMETER`. Not thread-safe for one gate;
/// allocates nothing.
///
/// # Safety
/// `gate` must be a live gate used by no other thread, and
/// `readiness_out` valid for writing a `pulsar_routing_readiness`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_sender_gate_ready(
    gate: *mut pulsar_routing_sender_gate,
    node: i32,
    now_ms: u64,
    readiness_out: *mut pulsar_routing_readiness,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let g = try_box_mut!(gate);
        let out = try_out!(readiness_out);
        put(out, readiness_to_c(&g.ready(NodeId(node), now_ms)))
    }
}

/// The node's readiness without side effects (no connect is initiated).
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe while no thread changes
/// the gate; allocates nothing.
///
/// # Safety
/// `gate` must be a live gate, and `readiness_out` valid for writing a
/// `pulsar_routing_readiness`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_sender_gate_check(
    gate: *const pulsar_routing_sender_gate,
    node: i32,
    now_ms: u64,
    readiness_out: *mut pulsar_routing_readiness,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let g = try_box_ref!(gate);
        let out = try_out!(readiness_out);
        put(out, readiness_to_c(&g.check(NodeId(node), now_ms)))
    }
}

/// The filter of `Sender.sendProducerData`: runs
/// `pulsar_routing_sender_gate_ready` on each of `nodes`, moves the ready
/// ones to the front in their order, and writes how many to `*kept_out`.
/// `readiness_out[i]` receives the readiness of the `i`-th node as given.
///
/// - `nodes`, `num_nodes`: the candidate node ids, rewritten in place;
/// - `readiness_out`: an array of `num_nodes` entries.
///
/// Neither array may be NULL, even when `num_nodes` is 0. Returns `OK` or
/// `NULL_PARAMETER`. Not thread-safe for one gate; allocates nothing.
///
/// # Safety
/// `gate` must be a live gate used by no other thread, `nodes` valid for
/// reading and writing `num_nodes` `int32_t`s, `readiness_out` for
/// writing `num_nodes` readiness records, and `kept_out` for a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_sender_gate_filter_ready(
    gate: *mut pulsar_routing_sender_gate,
    nodes: *mut i32,
    num_nodes: usize,
    now_ms: u64,
    readiness_out: *mut pulsar_routing_readiness,
    kept_out: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let g = try_box_mut!(gate);
        let ids = try_slice_mut!(nodes, num_nodes);
        let reasons = try_out_buf!(readiness_out, num_nodes);
        let kept_out = try_out!(kept_out);
        let mut reasons = reasons.prefix(num_nodes).iter_mut();
        // Ready nodes are compacted in place, as Java's iterator.remove.
        let kept = g.filter_ready(ids, now_ms, |r| {
            if let Some(slot) = reasons.next() {
                *slot = readiness_to_c(r);
            }
        });
        put(kept_out, kept)
    }
}

/// Reports a connection event on a node.
///
/// - `event`: a `PULSAR_ROUTING_CONNECTION_EVENT_*` value.
/// - `jitter_unit`: a uniform random draw in `[0, 1)` for the ±20% jitter
///   of the next reconnect backoff (0.5 is no jitter); used by the
///   failures and `AUTHENTICATED`.
///
/// A disconnect fails the node's requests in flight and requests a
/// metadata refresh. Returns `OK`, `NULL_PARAMETER`,
/// `SENDER_UNKNOWN_VALUE` (not an event), `SENDER_UNKNOWN_NODE` or
/// `SENDER_INVALID_TRANSITION` (the event does not apply in the node's
/// state; nothing changes). Not thread-safe for one gate; allocates
/// nothing.
///
/// # Safety
/// `gate` must be a live gate used by no other thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_sender_gate_connection_event(
    gate: *mut pulsar_routing_sender_gate,
    node: i32,
    event: pulsar_routing_connection_event,
    now_ms: u64,
    jitter_unit: f64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let g = try_box_mut!(gate);
        let unknown = pulsar_routing_status::SenderUnknownValue;
        let event = try_ok!(enum_from_c(&ConnectionEvent::ALL, event, unknown));
        try_ok!(g.connection_event(NodeId(node), event, now_ms, Jitter::from_unit(jitter_unit)));
        pulsar_routing_status::Ok
    }
}

/// The broker throttles the node until `until_ms`.
///
/// Returns `OK`, `NULL_PARAMETER` or `SENDER_UNKNOWN_NODE`. Not
/// thread-safe for one gate; allocates nothing.
///
/// # Safety
/// `gate` must be a live gate used by no other thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_sender_gate_throttle(
    gate: *mut pulsar_routing_sender_gate,
    node: i32,
    until_ms: u64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let g = try_box_mut!(gate);
        try_ok!(g.throttle(NodeId(node), until_ms));
        pulsar_routing_status::Ok
    }
}

/// Sends a produce request to the node, which must pass the gate; its
/// in-flight count grows by one. On `SENDER_NOT_READY` nothing is sent:
/// `pulsar_routing_sender_gate_check` tells why.
///
/// Returns `OK`, `NULL_PARAMETER`, `SENDER_UNKNOWN_NODE` or
/// `SENDER_NOT_READY`. Not thread-safe for one gate; allocates nothing.
///
/// # Safety
/// `gate` must be a live gate used by no other thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_sender_gate_send(
    gate: *mut pulsar_routing_sender_gate,
    node: i32,
    now_ms: u64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let g = try_box_mut!(gate);
        try_ok!(g.send(NodeId(node), now_ms));
        pulsar_routing_status::Ok
    }
}

/// The node answered a produce request.
///
/// - `outcome`: a `PULSAR_ROUTING_PRODUCE_OUTCOME_*` value;
///   `NOT_LEADER_OR_FOLLOWER` requests a metadata refresh.
///
/// Returns `OK`, `NULL_PARAMETER`, `SENDER_UNKNOWN_VALUE`,
/// `SENDER_UNKNOWN_NODE` or `SENDER_NO_REQUEST_IN_FLIGHT`. Not thread-safe
/// for one gate; allocates nothing.
///
/// # Safety
/// `gate` must be a live gate used by no other thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_sender_gate_response(
    gate: *mut pulsar_routing_sender_gate,
    node: i32,
    outcome: pulsar_routing_produce_outcome,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let g = try_box_mut!(gate);
        let unknown = pulsar_routing_status::SenderUnknownValue;
        let outcome = try_ok!(enum_from_c(&ProduceOutcome::ALL, outcome, unknown));
        try_ok!(g.response(NodeId(node), outcome));
        pulsar_routing_status::Ok
    }
}

/// A metadata event: the gate's metadata bookkeeping moves on.
/// One of the `PULSAR_ROUTING_METADATA_EVENT_*` values. (The Pulsar
/// partitioned-metadata lookup has its own events:
/// `pulsar_routing_partitioned_metadata_event`.)
pub type pulsar_routing_metadata_event = u32;
/// `metadata.requestUpdate()`: force a refresh.
pub const PULSAR_ROUTING_METADATA_EVENT_REQUEST_UPDATE: pulsar_routing_metadata_event = 0;
/// A metadata request went out (sends resume while it is in flight).
pub const PULSAR_ROUTING_METADATA_EVENT_FETCH_STARTED: pulsar_routing_metadata_event = 1;
/// The metadata response arrived.
pub const PULSAR_ROUTING_METADATA_EVENT_UPDATED: pulsar_routing_metadata_event = 2;
/// The metadata request failed (the refresh backoff grows).
pub const PULSAR_ROUTING_METADATA_EVENT_FAILED: pulsar_routing_metadata_event = 3;

// The codes are the events' numbers, their places in `MetadataEvent::ALL`.
const _: () = assert!(
    MetadataEvent::RequestUpdate as u32 == PULSAR_ROUTING_METADATA_EVENT_REQUEST_UPDATE
        && MetadataEvent::FetchStarted as u32 == PULSAR_ROUTING_METADATA_EVENT_FETCH_STARTED
        && MetadataEvent::Updated as u32 == PULSAR_ROUTING_METADATA_EVENT_UPDATED
        && MetadataEvent::Failed as u32 == PULSAR_ROUTING_METADATA_EVENT_FAILED
);

/// Reports a metadata event.
///
/// - `event`: a `PULSAR_ROUTING_METADATA_EVENT_*` value.
/// - `now_ms`, `jitter_unit`: the time, and a uniform random draw in
///   `[0, 1)` for the refresh backoff's jitter (0.5 is none); read by
///   `UPDATED` and `FAILED` only.
///
/// Returns `OK`, `NULL_PARAMETER` or `SENDER_UNKNOWN_VALUE`. Not
/// thread-safe for one gate; allocates nothing.
///
/// # Safety
/// `gate` must be a live gate used by no other thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_sender_gate_metadata_event(
    gate: *mut pulsar_routing_sender_gate,
    event: pulsar_routing_metadata_event,
    now_ms: u64,
    jitter_unit: f64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let g = try_box_mut!(gate);
        let unknown = pulsar_routing_status::SenderUnknownValue;
        let event = try_ok!(enum_from_c(&MetadataEvent::ALL, event, unknown));
        g.metadata_event(event, now_ms, Jitter::from_unit(jitter_unit));
        pulsar_routing_status::Ok
    }
}

/// `metadata.timeToNextUpdate(now)`: 0 when a refresh is due (or a fetch
/// is in flight and the refresh is otherwise due).
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe while no thread changes
/// the gate; allocates nothing.
///
/// # Safety
/// `gate` must be a live gate, and `ms_out` valid for writing a `uint64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_sender_gate_time_to_next_metadata_update(
    gate: *const pulsar_routing_sender_gate,
    now_ms: u64,
    ms_out: *mut u64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let g = try_box_ref!(gate);
        put(try_out!(ms_out), g.time_to_next_metadata_update(now_ms))
    }
}

/// The producer metrics: `connection-count`, `connection-creation-total`,
/// the requests in flight and `metadata-age` (in ms).
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe while no thread changes
/// the gate; allocates nothing.
///
/// # Safety
/// `gate` must be a live gate, and `counters_out` valid for writing a
/// `pulsar_routing_sender_counters`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_sender_gate_counters(
    gate: *const pulsar_routing_sender_gate,
    now_ms: u64,
    counters_out: *mut pulsar_routing_sender_counters,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let g = try_box_ref!(gate);
        put(try_out!(counters_out), counters_to_c(g.counters(now_ms)))
    }
}

/// Writes a readiness as text, such as
/// `node 1 not ready: in flight 5/5` (UTF-8, no NUL terminator).
///
/// - `buf`, `len`: the output buffer; `written` receives the text's length,
///   or on `BUFFER_TOO_SMALL` the length needed.
///
/// Returns `OK`, `NULL_PARAMETER`, `SENDER_UNKNOWN_VALUE` (a reason or
/// state out of range) or `BUFFER_TOO_SMALL`. Thread-safe; allocates
/// nothing.
///
/// # Safety
/// `readiness` must point to a `pulsar_routing_readiness`, `buf` be valid
/// for writing `len` bytes and `written` for a `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_readiness_message(
    readiness: *const pulsar_routing_readiness,
    buf: *mut u8,
    len: usize,
    written: *mut usize,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        // SAFETY: the caller's contract on `readiness`.
        let Some(readiness) = (unsafe { readiness.as_ref() }) else {
            return pulsar_routing_status::NullParameter;
        };
        let buf = try_out_buf!(buf, len);
        let written = try_out!(written);
        let Some(r) = readiness_from_c(readiness) else {
            return pulsar_routing_status::SenderUnknownValue;
        };
        write_display(r, buf, written)
    }
}

/// Initialises a Pulsar producer's empty pending queue.
///
/// - `max_pending_messages`: `maxPendingMessages`; 0 is no limit (the
///   default since Pulsar 2.10; older clients used 1000).
/// - `block_if_queue_full`: `blockIfQueueFull` (default false).
///
/// Returns `OK`, `NULL_PARAMETER` or `MAX_PENDING_MESSAGES_NEGATIVE`.
/// Thread-safe; allocates nothing.
///
/// # Safety
/// `queue` must be valid for writing a `pulsar_routing_pending_queue`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_pending_queue_init(
    queue: *mut pulsar_routing_pending_queue,
    max_pending_messages: i64,
    block_if_queue_full: bool,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        if queue.is_null() {
            return pulsar_routing_status::NullParameter;
        }
        let q = try_ok!(PendingQueue::new(max_pending_messages, block_if_queue_full));
        // SAFETY: non-NULL, and the caller's contract makes it writable.
        unsafe { crate::ffi::inline_init(queue, q) };
        pulsar_routing_status::Ok
    }
}

/// `ProducerImpl.canEnqueueRequest`: one more message enters the queue,
/// or, when it holds `maxPendingMessages`, the status says what the send
/// would do: `PRODUCER_QUEUE_IS_FULL` (fails at once, Java's
/// `ProducerQueueIsFullError`) or `PRODUCER_QUEUE_WOULD_BLOCK`
/// (`blockIfQueueFull`); the queue is then unchanged.
///
/// Returns `OK`, `NULL_PARAMETER`, `PRODUCER_QUEUE_IS_FULL` or
/// `PRODUCER_QUEUE_WOULD_BLOCK`. Not thread-safe for one queue; allocates
/// nothing.
///
/// # Safety
/// `queue` must be initialised by `pulsar_routing_pending_queue_init` and
/// used by no other thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_pending_queue_try_enqueue(
    queue: *mut pulsar_routing_pending_queue,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let q = try_inline_mut!(queue);
        try_ok!(q.try_enqueue());
        pulsar_routing_status::Ok
    }
}

/// `n` pending messages were acknowledged or failed; their permits return
/// (more than are pending empties the queue).
///
/// Returns `OK` or `NULL_PARAMETER`. Not thread-safe for one queue;
/// allocates nothing.
///
/// # Safety
/// `queue` must be initialised by `pulsar_routing_pending_queue_init` and
/// used by no other thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_pending_queue_complete(
    queue: *mut pulsar_routing_pending_queue,
    n: u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let q = try_inline_mut!(queue);
        q.complete(n);
        pulsar_routing_status::Ok
    }
}

/// The number of messages in the queue.
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe while no thread changes
/// the queue; allocates nothing.
///
/// # Safety
/// `queue` must be initialised by `pulsar_routing_pending_queue_init`, and
/// `pending_out` valid for writing a `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_pending_queue_pending(
    queue: *const pulsar_routing_pending_queue,
    pending_out: *mut u32,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let q = try_inline_ref!(queue);
        put(try_out!(pending_out), q.pending())
    }
}

/// The smallest `maxPendingMessages` that absorbs a reconnect without
/// blocking or failing sends:
/// `ceil(peak_rate_per_sec * reconnect_window_ms / 1000)`, saturating at
/// `UINT64_MAX`.
///
/// Returns `OK` or `NULL_PARAMETER`. Thread-safe; allocates nothing.
///
/// # Safety
/// `messages_out` must be valid for writing a `uint64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pulsar_routing_required_max_pending_messages(
    peak_rate_per_sec: u64,
    reconnect_window_ms: u64,
    messages_out: *mut u64,
) -> pulsar_routing_status {
    ffi_panic_boundary! {
        let out = try_out!(messages_out);
        put(out, required_max_pending_messages(peak_rate_per_sec, reconnect_window_ms))
    }
}
