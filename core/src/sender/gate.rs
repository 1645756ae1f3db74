//! The readiness gate itself: `NetworkClient.ready` for one node and the
//! in-place filter of `Sender.sendProducerData`, with the events that move
//! the state along.

use core::fmt;

use super::config::SenderConfig;
use super::connection::{
    ConnectionEvent, ConnectionState, InvalidTransition, Jitter, NodeConnection,
};
use super::counters::SenderCounters;
use super::in_flight::InFlight;
use super::metadata::MetadataState;

/// A Kafka broker id (`Node.id()`, a Java `int`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub i32);

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What the client keeps per node: the connection and the requests in
/// flight on it. The caller owns the storage (a slice of these).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NodeState {
    id: NodeId,
    connection: NodeConnection,
    in_flight: InFlight,
}

impl NodeState {
    /// A node never connected to.
    #[must_use]
    pub const fn new(id: NodeId) -> Self {
        Self {
            id,
            connection: NodeConnection::new(),
            in_flight: InFlight::new(),
        }
    }

    /// The node's id.
    #[must_use]
    pub const fn id(&self) -> NodeId {
        self.id
    }

    /// The connection.
    #[must_use]
    pub const fn connection(&self) -> &NodeConnection {
        &self.connection
    }

    /// The requests in flight.
    #[must_use]
    pub const fn in_flight(&self) -> InFlight {
        self.in_flight
    }
}

/// The first check a node failed, in the gate's order (connection, then
/// requests in flight, then metadata), or `Ready`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Reason {
    /// Every check passed: a ready batch for this node is sent.
    Ready = 0,
    /// Not connected and allowed to connect: the client initiates a
    /// connect now (`ready` does, and moves the node to `CONNECTING`).
    InitiateConnect = 1,
    /// Not connected and within the reconnect backoff (`isBlackedOut`).
    ReconnectBackoff = 2,
    /// The connection is being opened or authenticated.
    Connecting = 3,
    /// Connected, but the broker throttles the client.
    Throttled = 4,
    /// `max.in.flight.requests.per.connection` requests are unanswered.
    InFlightFull = 5,
    /// A metadata refresh is due: produce requests wait for it.
    MetadataDue = 6,
    /// The node is not in the caller's storage.
    UnknownNode = 7,
}

impl Reason {
    /// Every reason, in order of their numbers.
    pub const ALL: [Self; 8] = [
        Self::Ready,
        Self::InitiateConnect,
        Self::ReconnectBackoff,
        Self::Connecting,
        Self::Throttled,
        Self::InFlightFull,
        Self::MetadataDue,
        Self::UnknownNode,
    ];

    /// A snake_case name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Ready => "ready",
            Self::InitiateConnect => "initiate_connect",
            Self::ReconnectBackoff => "reconnect_backoff",
            Self::Connecting => "connecting",
            Self::Throttled => "throttled",
            Self::InFlightFull => "in_flight_full",
            Self::MetadataDue => "metadata_due",
            Self::UnknownNode => "unknown_node",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The gate's answer for one node, with the details behind it: why a ready
/// batch did or did not leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Readiness {
    /// The node.
    pub node: NodeId,
    /// Ready, or the first check that failed.
    pub reason: Reason,
    /// The connection state when checked.
    pub state: ConnectionState,
    /// Requests in flight on the connection.
    pub in_flight: u32,
    /// `max.in.flight.requests.per.connection`.
    pub max_in_flight: u32,
    /// The metadata's age (the `metadata-age` metric, in ms).
    pub metadata_age_ms: u64,
    /// A metadata refresh was requested (rather than the metadata having
    /// expired).
    pub metadata_update_requested: bool,
    /// The reconnect backoff left (`ReconnectBackoff`), or the throttle
    /// left (`Throttled`); 0 otherwise.
    pub backoff_remaining_ms: u64,
}

impl Readiness {
    /// True when the node passed every check.
    #[must_use]
    pub const fn is_ready(&self) -> bool {
        matches!(self.reason, Reason::Ready)
    }
}

impl fmt::Display for Readiness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let node = self.node;
        match self.reason {
            Reason::Ready => write!(
                f,
                "node {node} ready (in flight {}/{})",
                self.in_flight, self.max_in_flight
            ),
            Reason::InitiateConnect => write!(
                f,
                "node {node} not ready: {}, initiating a connect",
                self.state
            ),
            Reason::ReconnectBackoff => write!(
                f,
                "node {node} not ready: {}, reconnect backoff {} ms remaining",
                self.state, self.backoff_remaining_ms
            ),
            Reason::Connecting => write!(f, "node {node} not ready: connection {}", self.state),
            Reason::Throttled => write!(
                f,
                "node {node} not ready: throttled by the broker for {} ms",
                self.backoff_remaining_ms
            ),
            Reason::InFlightFull => write!(
                f,
                "node {node} not ready: in flight {}/{}",
                self.in_flight, self.max_in_flight
            ),
            Reason::MetadataDue => write!(
                f,
                "node {node} not ready: metadata update due (age {} ms, {})",
                self.metadata_age_ms,
                if self.metadata_update_requested {
                    "refresh requested"
                } else {
                    "metadata.max.age.ms expired"
                }
            ),
            Reason::UnknownNode => write!(f, "node {node} not ready: unknown node"),
        }
    }
}

/// How a produce request ended, as far as the gate cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ProduceOutcome {
    /// Acknowledged.
    Success = 0,
    /// `NOT_LEADER_OR_FOLLOWER` (an `InvalidMetadataException`): the
    /// batch is retried and the producer forces a metadata refresh.
    NotLeaderOrFollower = 1,
    /// Any other error: the batch is retried or failed; the metadata is
    /// left alone.
    OtherError = 2,
}

impl ProduceOutcome {
    /// Every outcome, in order of their numbers.
    pub const ALL: [Self; 3] = [Self::Success, Self::NotLeaderOrFollower, Self::OtherError];

    /// True for the errors after which the producer refreshes metadata.
    #[must_use]
    pub const fn invalidates_metadata(self) -> bool {
        matches!(self, Self::NotLeaderOrFollower)
    }
}

/// A gate operation that could not be applied; nothing changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SenderError {
    /// The node is not in the storage.
    UnknownNode(NodeId),
    /// The same node id appears twice in the storage.
    DuplicateNode(NodeId),
    /// A send to a node that is not ready, with the reason.
    NotReady(Readiness),
    /// A response from a node with no request in flight.
    NoRequestInFlight(NodeId),
    /// A connection event that does not apply in the node's state.
    InvalidTransition(NodeId, InvalidTransition),
}

impl fmt::Display for SenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownNode(id) => write!(f, "unknown node {id}"),
            Self::DuplicateNode(id) => write!(f, "node {id} is listed twice"),
            Self::NotReady(r) => write!(f, "cannot send: {r}"),
            Self::NoRequestInFlight(id) => {
                write!(
                    f,
                    "a response from node {id}, which has no request in flight"
                )
            }
            Self::InvalidTransition(id, t) => write!(f, "node {id}: {t}"),
        }
    }
}

impl core::error::Error for SenderError {}

/// Checks that no node id appears twice.
///
/// # Errors
/// [`SenderError::DuplicateNode`] for the first repeated id.
pub fn check_nodes(nodes: &[NodeState]) -> Result<(), SenderError> {
    for (i, n) in nodes.iter().enumerate() {
        if nodes
            .get(..i)
            .is_some_and(|before| before.iter().any(|b| b.id == n.id))
        {
            return Err(SenderError::DuplicateNode(n.id));
        }
    }
    Ok(())
}

fn find(nodes: &[NodeState], id: NodeId) -> Option<&NodeState> {
    nodes.iter().find(|n| n.id == id)
}

fn find_mut(nodes: &mut [NodeState], id: NodeId) -> Result<&mut NodeState, SenderError> {
    nodes
        .iter_mut()
        .find(|n| n.id == id)
        .ok_or(SenderError::UnknownNode(id))
}

/// The sans-IO readiness gate of the Kafka producer's sender thread: the
/// configuration, the metadata bookkeeping and the counters. The per-node
/// state lives in the caller's `&mut [NodeState]`, passed to each call.
///
/// Time is the caller's `now_ms`, and the random jitter of every backoff is
/// the caller's [`Jitter`], so any trace replays exactly.
///
/// ```
/// use pulsar_routing::sender::{
///     ConnectionEvent, Jitter, NodeId, NodeState, ProduceOutcome, Reason, SenderConfig, SenderGate,
/// };
///
/// let mut gate = SenderGate::new(SenderConfig::default());
/// let mut nodes = [NodeState::new(NodeId(1))];
/// gate.metadata_fetch_started();
/// gate.metadata_updated(0, Jitter::NONE);
///
/// // Not connected: `ready` initiates the connect.
/// assert_eq!(gate.ready(&mut nodes, NodeId(1), 0).reason, Reason::InitiateConnect);
/// assert_eq!(gate.ready(&mut nodes, NodeId(1), 1).reason, Reason::Connecting);
/// gate.connection_event(&mut nodes, NodeId(1), ConnectionEvent::Connected, 2, Jitter::NONE)?;
/// gate.connection_event(&mut nodes, NodeId(1), ConnectionEvent::Authenticated, 3, Jitter::NONE)?;
/// assert!(gate.ready(&mut nodes, NodeId(1), 4).is_ready());
///
/// // Five requests fill the connection.
/// for _ in 0..5 {
///     gate.send(&mut nodes, NodeId(1), 5)?;
/// }
/// let r = gate.ready(&mut nodes, NodeId(1), 6);
/// assert_eq!(r.reason, Reason::InFlightFull);
/// assert_eq!(r.to_string(), "node 1 not ready: in flight 5/5");
///
/// // NOT_LEADER_OR_FOLLOWER forces a metadata refresh, which pauses sends.
/// gate.response(&mut nodes, NodeId(1), ProduceOutcome::NotLeaderOrFollower)?;
/// assert_eq!(gate.ready(&mut nodes, NodeId(1), 200).reason, Reason::MetadataDue);
/// # Ok::<(), pulsar_routing::sender::SenderError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SenderGate {
    config: SenderConfig,
    metadata: MetadataState,
    connection_creation_total: u64,
}

impl SenderGate {
    /// A gate for a just-built producer: the metadata is bootstrapped (an
    /// update is due) and no connection exists.
    #[must_use]
    pub const fn new(config: SenderConfig) -> Self {
        Self {
            config,
            metadata: MetadataState::new(),
            connection_creation_total: 0,
        }
    }

    /// A gate starting from the given metadata state.
    #[must_use]
    pub const fn with_metadata(config: SenderConfig, metadata: MetadataState) -> Self {
        Self {
            config,
            metadata,
            connection_creation_total: 0,
        }
    }

    /// The configuration.
    #[must_use]
    pub const fn config(&self) -> &SenderConfig {
        &self.config
    }

    /// The metadata bookkeeping.
    #[must_use]
    pub const fn metadata(&self) -> &MetadataState {
        &self.metadata
    }

    /// The readiness of `node` at `now_ms`, without side effects.
    #[must_use]
    pub fn check(&self, node: &NodeState, now_ms: u64) -> Readiness {
        let conn = &node.connection;
        let mut r = Readiness {
            node: node.id,
            reason: Reason::Ready,
            state: conn.state(),
            in_flight: node.in_flight.count(),
            max_in_flight: self.config.max_in_flight(),
            metadata_age_ms: self.metadata.age_ms(now_ms),
            metadata_update_requested: self.metadata.update_requested(),
            backoff_remaining_ms: 0,
        };
        r.reason = match conn.state() {
            ConnectionState::NotConnected => {
                r.backoff_remaining_ms = conn.backoff_remaining_ms(now_ms);
                if r.backoff_remaining_ms == 0 {
                    Reason::InitiateConnect
                } else {
                    Reason::ReconnectBackoff
                }
            }
            ConnectionState::Connecting | ConnectionState::Authenticating => Reason::Connecting,
            ConnectionState::Ready if !conn.is_ready(now_ms) => {
                r.backoff_remaining_ms = conn.throttle_remaining_ms(now_ms);
                Reason::Throttled
            }
            ConnectionState::Ready => {
                if !node.in_flight.can_send_more(self.config.max_in_flight()) {
                    Reason::InFlightFull
                } else if self.metadata.is_update_due(now_ms, &self.config) {
                    Reason::MetadataDue
                } else {
                    Reason::Ready
                }
            }
        };
        r
    }

    /// `NetworkClient.ready(node, now)`: the node's readiness, and when it
    /// is [`Reason::InitiateConnect`] the connect is started (the node
    /// moves to `CONNECTING`; the caller opens the socket and reports
    /// `Connected` or `Disconnected`). An unknown node gives
    /// [`Reason::UnknownNode`].
    pub fn ready(&self, nodes: &mut [NodeState], id: NodeId, now_ms: u64) -> Readiness {
        let Ok(node) = find_mut(nodes, id) else {
            return self.unknown(id, now_ms);
        };
        let r = self.check(node, now_ms);
        if r.reason == Reason::InitiateConnect {
            // Cannot fail: InitiateConnect means can_connect(now).
            let _ = node.connection.apply(
                ConnectionEvent::Connect,
                now_ms,
                Jitter::NONE,
                self.config.reconnect_backoff(),
            );
        }
        r
    }

    fn unknown(&self, id: NodeId, now_ms: u64) -> Readiness {
        Readiness {
            node: id,
            reason: Reason::UnknownNode,
            state: ConnectionState::NotConnected,
            in_flight: 0,
            max_in_flight: self.config.max_in_flight(),
            metadata_age_ms: self.metadata.age_ms(now_ms),
            metadata_update_requested: self.metadata.update_requested(),
            backoff_remaining_ms: 0,
        }
    }

    /// The filter of `Sender.sendProducerData`: calls [`ready`](Self::ready)
    /// for each of `candidates`, keeps the ready ones at the front in their
    /// order, and returns how many were kept. `report` hears every node's
    /// readiness, kept or removed.
    pub fn filter_ready(
        &self,
        nodes: &mut [NodeState],
        candidates: &mut [NodeId],
        now_ms: u64,
        mut report: impl FnMut(&Readiness),
    ) -> usize {
        let mut kept = 0usize;
        for i in 0..candidates.len() {
            let Some(&id) = candidates.get(i) else { break };
            let r = self.ready(nodes, id, now_ms);
            report(&r);
            if r.is_ready() {
                if let Some(slot) = candidates.get_mut(kept) {
                    *slot = id;
                }
                kept = kept.saturating_add(1);
            }
        }
        kept
    }

    /// A connection event on a node. A disconnect (or failed
    /// authentication) fails every request in flight on it and requests a
    /// metadata refresh, as `NetworkClient.handleDisconnections` does; an
    /// established TCP connection counts in `connection-creation-total`.
    ///
    /// # Errors
    /// [`SenderError::UnknownNode`], or [`SenderError::InvalidTransition`]
    /// when the event does not apply in the node's state.
    pub fn connection_event(
        &mut self,
        nodes: &mut [NodeState],
        id: NodeId,
        event: ConnectionEvent,
        now_ms: u64,
        jitter: Jitter,
    ) -> Result<(), SenderError> {
        let node = find_mut(nodes, id)?;
        node.connection
            .apply(event, now_ms, jitter, self.config.reconnect_backoff())
            .map_err(|t| SenderError::InvalidTransition(id, t))?;
        match event {
            ConnectionEvent::Connected => {
                self.connection_creation_total = self.connection_creation_total.saturating_add(1);
            }
            ConnectionEvent::Disconnected | ConnectionEvent::AuthenticationFailed => {
                node.in_flight.clear();
                self.metadata.request_update();
            }
            ConnectionEvent::Connect | ConnectionEvent::Authenticated => {}
        }
        Ok(())
    }

    /// The broker throttles the node until `until_ms`.
    ///
    /// # Errors
    /// [`SenderError::UnknownNode`].
    pub fn throttle(
        &mut self,
        nodes: &mut [NodeState],
        id: NodeId,
        until_ms: u64,
    ) -> Result<(), SenderError> {
        find_mut(nodes, id)?.connection.throttle(until_ms);
        Ok(())
    }

    /// Sends a produce request to the node, which must pass the gate: its
    /// in-flight count grows by one.
    ///
    /// # Errors
    /// [`SenderError::NotReady`] with the reason (nothing is sent), or
    /// [`SenderError::UnknownNode`].
    pub fn send(
        &mut self,
        nodes: &mut [NodeState],
        id: NodeId,
        now_ms: u64,
    ) -> Result<Readiness, SenderError> {
        let node = find_mut(nodes, id)?;
        let r = self.check(node, now_ms);
        if !r.is_ready() {
            return Err(SenderError::NotReady(r));
        }
        node.in_flight.sent();
        Ok(r)
    }

    /// The node answered a produce request. An error that invalidates the
    /// metadata (`NOT_LEADER_OR_FOLLOWER`) requests a refresh.
    ///
    /// # Errors
    /// [`SenderError::UnknownNode`] or [`SenderError::NoRequestInFlight`].
    pub fn response(
        &mut self,
        nodes: &mut [NodeState],
        id: NodeId,
        outcome: ProduceOutcome,
    ) -> Result<(), SenderError> {
        let node = find_mut(nodes, id)?;
        if !node.in_flight.completed() {
            return Err(SenderError::NoRequestInFlight(id));
        }
        if outcome.invalidates_metadata() {
            self.metadata.request_update();
        }
        Ok(())
    }

    /// `metadata.requestUpdate()`: force a refresh.
    pub fn request_metadata_update(&mut self) {
        self.metadata.request_update();
    }

    /// A metadata request went out; sends resume while it is in flight.
    pub fn metadata_fetch_started(&mut self) {
        self.metadata.fetch_started();
    }

    /// The metadata response arrived.
    pub fn metadata_updated(&mut self, now_ms: u64, jitter: Jitter) {
        self.metadata.update_succeeded(now_ms, jitter, &self.config);
    }

    /// The metadata request failed.
    pub fn metadata_failed(&mut self, now_ms: u64, jitter: Jitter) {
        self.metadata.update_failed(now_ms, jitter, &self.config);
    }

    /// `metadata.timeToNextUpdate(now)`.
    #[must_use]
    pub fn time_to_next_metadata_update(&self, now_ms: u64) -> u64 {
        self.metadata.time_to_next_update(now_ms, &self.config)
    }

    /// `isUpdateDue(now)`: while true no produce request is sent.
    #[must_use]
    pub fn is_metadata_update_due(&self, now_ms: u64) -> bool {
        self.metadata.is_update_due(now_ms, &self.config)
    }

    /// The producer metrics, from the gate and the nodes.
    #[must_use]
    pub fn counters(&self, nodes: &[NodeState], now_ms: u64) -> SenderCounters {
        let mut c = SenderCounters {
            connection_creation_total: self.connection_creation_total,
            metadata_age_ms: self.metadata.age_ms(now_ms),
            ..SenderCounters::default()
        };
        for n in nodes {
            if n.connection.state() != ConnectionState::NotConnected {
                c.connection_count = c.connection_count.saturating_add(1);
            }
            c.in_flight_requests_count = c
                .in_flight_requests_count
                .saturating_add(u64::from(n.in_flight.count()));
        }
        c
    }

    /// The readiness of a node looked up by id, without side effects.
    #[must_use]
    pub fn check_id(&self, nodes: &[NodeState], id: NodeId, now_ms: u64) -> Readiness {
        match find(nodes, id) {
            Some(node) => self.check(node, now_ms),
            None => self.unknown(id, now_ms),
        }
    }
}
