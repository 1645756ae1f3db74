//! The Kafka producer's sender readiness gate with its node table, and the
//! names and numbers of the gate's events, for every binding.
//!
//! The core's [`sender::SenderGate`](CoreGate) borrows the per-node state
//! on every call, so a binding would keep a node table beside it and pass
//! it each time. [`SenderGate`] owns the table, so the C ABI and Python
//! hold one value and make the same calls in the same order.

use core::fmt;
use core::ops::{Deref, DerefMut};

use pulsar_routing::sender::{
    ConnectionEvent, Jitter, NodeId, NodeState, ProduceOutcome, Readiness, SenderConfig,
    SenderCounters, SenderError, SenderGate as CoreGate, check_nodes,
};

/// A metadata event that moves the gate's metadata bookkeeping on; its
/// number is its place in [`MetadataEvent::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MetadataEvent {
    /// `metadata.requestUpdate()`: force a refresh.
    RequestUpdate = 0,
    /// A metadata request went out (sends resume while it is in flight).
    FetchStarted = 1,
    /// The metadata response arrived.
    Updated = 2,
    /// The metadata request failed (the refresh backoff grows).
    Failed = 3,
}

impl MetadataEvent {
    /// The four events, in order of their numbers.
    pub const ALL: [Self; 4] = [
        Self::RequestUpdate,
        Self::FetchStarted,
        Self::Updated,
        Self::Failed,
    ];
}

/// A name that names no event or outcome; its text lists the names that
/// do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    what: &'static str,
    name: String,
    expected: &'static str,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} {:?}: expected {}",
            self.what, self.name, self.expected
        )
    }
}

impl std::error::Error for UnknownName {}

/// The connection event named `name` (its [`ConnectionEvent::name`]).
///
/// # Errors
/// [`UnknownName`] for any other text.
pub fn connection_event(name: &str) -> Result<ConnectionEvent, UnknownName> {
    ConnectionEvent::ALL
        .into_iter()
        .find(|e| e.name() == name)
        .ok_or_else(|| UnknownName {
            what: "connection event",
            name: name.into(),
            expected: "\"connect\", \"connected\", \"authenticated\", \"disconnected\" or \"authentication_failed\"",
        })
}

/// The produce outcome named `name`: `"success"`,
/// `"not_leader_or_follower"` (also as Kafka's error name,
/// `"NOT_LEADER_OR_FOLLOWER"`) or `"other_error"`.
///
/// # Errors
/// [`UnknownName`] for any other text.
pub fn produce_outcome(name: &str) -> Result<ProduceOutcome, UnknownName> {
    match name {
        "success" => Ok(ProduceOutcome::Success),
        "not_leader_or_follower" | "NOT_LEADER_OR_FOLLOWER" => {
            Ok(ProduceOutcome::NotLeaderOrFollower)
        }
        "other_error" => Ok(ProduceOutcome::OtherError),
        _ => Err(UnknownName {
            what: "produce outcome",
            name: name.into(),
            expected: "\"success\", \"not_leader_or_follower\" or \"other_error\"",
        }),
    }
}

/// The core's gate and the state of each of its nodes, held together.
///
/// Reading the configuration and the metadata timing, and the metadata
/// events, go through the core gate, which it dereferences to; everything
/// that reads or changes a node goes through its own methods.
///
/// ```
/// use pulsar_routing::sender::{ConnectionEvent, Jitter, NodeId, SenderConfig};
/// use pulsar_routing_owned::sender::SenderGate;
/// let mut gate = SenderGate::new(SenderConfig::default(), [1, 2])?;
/// assert_eq!(gate.ready(NodeId(1), 0).reason.name(), "initiate_connect");
/// gate.connection_event(NodeId(1), ConnectionEvent::Connected, 0, Jitter::default())?;
/// assert_eq!(gate.node(NodeId(1))?.connection().state().name(), "AUTHENTICATING");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct SenderGate {
    gate: CoreGate,
    nodes: Vec<NodeState>,
}

impl Deref for SenderGate {
    type Target = CoreGate;

    fn deref(&self) -> &CoreGate {
        &self.gate
    }
}

impl DerefMut for SenderGate {
    fn deref_mut(&mut self) -> &mut CoreGate {
        &mut self.gate
    }
}

impl SenderGate {
    /// A gate for a just-built producer over the nodes `ids`: no
    /// connection yet, and the metadata bootstrapped (an update is due).
    ///
    /// # Errors
    /// [`SenderError::DuplicateNode`] when an id comes twice.
    pub fn new(
        config: SenderConfig,
        ids: impl IntoIterator<Item = i32>,
    ) -> Result<Self, SenderError> {
        let nodes: Vec<NodeState> = ids
            .into_iter()
            .map(|id| NodeState::new(NodeId(id)))
            .collect();
        check_nodes(&nodes)?;
        Ok(Self {
            gate: CoreGate::new(config),
            nodes,
        })
    }

    /// The nodes, in the order they were given.
    #[must_use]
    pub fn nodes(&self) -> &[NodeState] {
        &self.nodes
    }

    /// One node's state.
    ///
    /// # Errors
    /// [`SenderError::UnknownNode`].
    pub fn node(&self, id: NodeId) -> Result<&NodeState, SenderError> {
        self.nodes
            .iter()
            .find(|n| n.id() == id)
            .ok_or(SenderError::UnknownNode(id))
    }

    /// `NetworkClient.ready(node, now)` (see the core's `ready`).
    pub fn ready(&mut self, id: NodeId, now_ms: u64) -> Readiness {
        self.gate.ready(&mut self.nodes, id, now_ms)
    }

    /// The readiness without side effects.
    #[must_use]
    pub fn check(&self, id: NodeId, now_ms: u64) -> Readiness {
        self.gate.check_id(&self.nodes, id, now_ms)
    }

    /// The filter of `Sender.sendProducerData` over node ids as the
    /// bindings hold them: [`ready`](Self::ready) for each of `candidates`,
    /// the ready ones moved to the front in their order; returns how many
    /// were kept. `report` hears every node's readiness, in the order
    /// given.
    pub fn filter_ready(
        &mut self,
        candidates: &mut [i32],
        now_ms: u64,
        mut report: impl FnMut(&Readiness),
    ) -> usize {
        let mut kept = 0usize;
        for i in 0..candidates.len() {
            let Some(&id) = candidates.get(i) else { break };
            let r = self.ready(NodeId(id), now_ms);
            report(&r);
            if r.is_ready() {
                if let Some(slot) = candidates.get_mut(kept) {
                    *slot = id;
                }
                kept += 1;
            }
        }
        kept
    }

    /// A connection event on a node (see the core's `connection_event`).
    ///
    /// # Errors
    /// [`SenderError::UnknownNode`] and [`SenderError::InvalidTransition`].
    pub fn connection_event(
        &mut self,
        id: NodeId,
        event: ConnectionEvent,
        now_ms: u64,
        jitter: Jitter,
    ) -> Result<(), SenderError> {
        self.gate
            .connection_event(&mut self.nodes, id, event, now_ms, jitter)
    }

    /// The broker throttles the node until `until_ms`.
    ///
    /// # Errors
    /// [`SenderError::UnknownNode`].
    pub fn throttle(&mut self, id: NodeId, until_ms: u64) -> Result<(), SenderError> {
        self.gate.throttle(&mut self.nodes, id, until_ms)
    }

    /// Sends a produce request to the node, which must pass the gate.
    ///
    /// # Errors
    /// [`SenderError::NotReady`] (nothing is sent) and
    /// [`SenderError::UnknownNode`].
    pub fn send(&mut self, id: NodeId, now_ms: u64) -> Result<Readiness, SenderError> {
        self.gate.send(&mut self.nodes, id, now_ms)
    }

    /// The node answered a produce request.
    ///
    /// # Errors
    /// [`SenderError::UnknownNode`] and [`SenderError::NoRequestInFlight`].
    pub fn response(&mut self, id: NodeId, outcome: ProduceOutcome) -> Result<(), SenderError> {
        self.gate.response(&mut self.nodes, id, outcome)
    }

    /// A metadata event; `now_ms` and `jitter` are read by
    /// [`MetadataEvent::Updated`] and [`MetadataEvent::Failed`] only.
    pub fn metadata_event(&mut self, event: MetadataEvent, now_ms: u64, jitter: Jitter) {
        match event {
            MetadataEvent::RequestUpdate => self.gate.request_metadata_update(),
            MetadataEvent::FetchStarted => self.gate.metadata_fetch_started(),
            MetadataEvent::Updated => self.gate.metadata_updated(now_ms, jitter),
            MetadataEvent::Failed => self.gate.metadata_failed(now_ms, jitter),
        }
    }

    /// The producer metrics over every node.
    #[must_use]
    pub fn counters(&self, now_ms: u64) -> SenderCounters {
        self.gate.counters(&self.nodes, now_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers() {
        assert_eq!(
            connection_event("authentication_failed"),
            Ok(ConnectionEvent::AuthenticationFailed)
        );
        assert_eq!(
            produce_outcome("NOT_LEADER_OR_FOLLOWER"),
            Ok(ProduceOutcome::NotLeaderOrFollower)
        );
        assert_eq!(
            produce_outcome("oops").unwrap_err().to_string(),
            "unknown produce outcome \"oops\": expected \"success\", \"not_leader_or_follower\" or \"other_error\""
        );
        assert!(connection_event("Connect").is_err());
        for (code, event) in (0..).zip(MetadataEvent::ALL) {
            assert_eq!(event as u32, code);
        }
    }

    #[test]
    fn duplicate_and_unknown_nodes() {
        let config = SenderConfig::default();
        assert_eq!(
            SenderGate::new(config, [3, 1, 3]).unwrap_err(),
            SenderError::DuplicateNode(NodeId(3))
        );
        let mut gate = SenderGate::new(config, [1]).unwrap();
        assert_eq!(
            gate.node(NodeId(2)),
            Err(SenderError::UnknownNode(NodeId(2)))
        );
        assert_eq!(gate.check(NodeId(2), 0).reason.name(), "unknown_node");
        assert_eq!(
            gate.throttle(NodeId(2), 10),
            Err(SenderError::UnknownNode(NodeId(2)))
        );
    }

    #[test]
    fn filter_keeps_the_ready_nodes_in_order() {
        let mut gate = SenderGate::new(SenderConfig::default(), [1, 2, 3]).unwrap();
        for id in [1, 3] {
            let id = NodeId(id);
            gate.ready(id, 0);
            for e in [ConnectionEvent::Connected, ConnectionEvent::Authenticated] {
                gate.connection_event(id, e, 0, Jitter::default()).unwrap();
            }
        }
        gate.metadata_event(MetadataEvent::Updated, 0, Jitter::default());
        let mut ids = [3, 2, 9, 1];
        let mut reasons = Vec::new();
        let kept = gate.filter_ready(&mut ids, 1, |r| reasons.push(r.reason.name()));
        assert_eq!(ids.get(..kept), Some(&[3, 1][..]));
        assert_eq!(
            reasons,
            ["ready", "initiate_connect", "unknown_node", "ready"]
        );
        assert_eq!(gate.counters(1).connection_creation_total, 2);
    }
}
