//! The sender readiness gate and the pending queue under arbitrary
//! configurations and sequences of events, responses and times. After
//! every step:
//!
//! - no node has more requests in flight than the maximum, and a node not
//!   `READY` has none;
//! - a send succeeds exactly when the gate said ready just before, and
//!   never while a metadata update is due;
//! - the reconnect backoff never exceeds its maximum;
//! - the pending queue never holds more than `maxPendingMessages`.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use pulsar_routing::sender::{
    ConnectionEvent, ConnectionState, Jitter, NodeId, NodeState, PendingQueue, ProduceOutcome,
    SenderConfig, SenderGate,
};

const MAX_NODES: usize = 4;

#[derive(Arbitrary, Debug)]
enum Step {
    Ready(i8),
    Check(i8),
    Send(i8),
    Response(i8, u8),
    Connection(i8, u8, u32),
    Throttle(i8, u32),
    RequestMetadata,
    FetchStarted,
    Updated(u32),
    Failed(u32),
    Filter(Vec<i8>),
    Advance(u32),
    Enqueue,
    Complete(u32),
}

#[derive(Arbitrary, Debug)]
struct Input {
    max_in_flight: i64,
    idempotence: bool,
    reconnect: (u16, u16),
    retry: (u16, u16),
    max_age: u32,
    node_ids: Vec<i8>,
    start_ms: u64,
    max_pending: i64,
    block: bool,
    steps: Vec<Step>,
}

fuzz_target!(|input: Input| {
    let Ok(config) = SenderConfig::new(input.max_in_flight, input.idempotence) else {
        return;
    };
    let config = config
        .with_reconnect_backoff(u64::from(input.reconnect.0), u64::from(input.reconnect.1))
        .with_retry_backoff(u64::from(input.retry.0), u64::from(input.retry.1))
        .with_metadata_max_age(u64::from(input.max_age));
    let mut nodes: Vec<NodeState> = Vec::new();
    for &id in input.node_ids.iter().take(MAX_NODES) {
        if nodes.iter().all(|n| n.id() != NodeId(i32::from(id))) {
            nodes.push(NodeState::new(NodeId(i32::from(id))));
        }
    }
    let mut gate = SenderGate::new(config);
    let mut queue = PendingQueue::new(input.max_pending, input.block).ok();
    let mut now = input.start_ms;
    let max_backoff = config
        .reconnect_backoff()
        .max_ms()
        .max(config.reconnect_backoff().initial_ms());
    for step in input.steps {
        match step {
            Step::Ready(n) => {
                let r = gate.ready(&mut nodes, NodeId(i32::from(n)), now);
                assert!(!r.is_ready() || !gate.is_metadata_update_due(now));
                let _ = r.to_string();
            }
            Step::Check(n) => {
                let _ = gate.check_id(&nodes, NodeId(i32::from(n)), now).to_string();
            }
            Step::Send(n) => {
                let id = NodeId(i32::from(n));
                let before = gate.check_id(&nodes, id, now);
                let due = gate.is_metadata_update_due(now);
                let sent = gate.send(&mut nodes, id, now);
                assert_eq!(sent.is_ok(), before.is_ready());
                if sent.is_ok() {
                    assert!(!due);
                }
            }
            Step::Response(n, o) => {
                let o = ProduceOutcome::ALL[usize::from(o) % ProduceOutcome::ALL.len()];
                let _ = gate.response(&mut nodes, NodeId(i32::from(n)), o);
            }
            Step::Connection(n, e, j) => {
                let e = ConnectionEvent::ALL[usize::from(e) % ConnectionEvent::ALL.len()];
                let _ = gate.connection_event(
                    &mut nodes,
                    NodeId(i32::from(n)),
                    e,
                    now,
                    Jitter::from_u32(j),
                );
            }
            Step::Throttle(n, t) => {
                let _ = gate.throttle(
                    &mut nodes,
                    NodeId(i32::from(n)),
                    now.saturating_add(u64::from(t)),
                );
            }
            Step::RequestMetadata => gate.request_metadata_update(),
            Step::FetchStarted => gate.metadata_fetch_started(),
            Step::Updated(j) => gate.metadata_updated(now, Jitter::from_u32(j)),
            Step::Failed(j) => gate.metadata_failed(now, Jitter::from_u32(j)),
            Step::Filter(ids) => {
                let mut ids: Vec<NodeId> = ids.into_iter().map(|i| NodeId(i32::from(i))).collect();
                let len = ids.len();
                let mut reports = 0usize;
                let kept = gate.filter_ready(&mut nodes, &mut ids, now, |_| reports += 1);
                assert!(kept <= len);
                assert_eq!(reports, len);
            }
            Step::Advance(d) => now = now.saturating_add(u64::from(d)),
            Step::Enqueue => {
                if let Some(q) = queue.as_mut() {
                    let _ = q.try_enqueue();
                }
            }
            Step::Complete(k) => {
                if let Some(q) = queue.as_mut() {
                    q.complete(k);
                }
            }
        }
        for n in &nodes {
            assert!(n.in_flight().count() <= config.max_in_flight());
            if n.connection().state() != ConnectionState::Ready {
                assert_eq!(n.in_flight().count(), 0);
            }
            assert!(n.connection().reconnect_backoff_ms() <= max_backoff);
        }
        if let Some(q) = queue {
            assert!(q.max_pending_messages() == 0 || q.pending() <= q.max_pending_messages());
        }
        let _ = gate.counters(&nodes, now);
    }
});
