//! The sender readiness gate: the failure stories of the issue replayed
//! step by step, and the invariants under arbitrary event sequences.

use proptest::prelude::*;
use pulsar_routing::sender::{
    ConnectionEvent as Ev, ConnectionState, ExponentialBackoff, Jitter, MetadataState, NodeId,
    NodeState, PendingQueue, ProduceOutcome, QueueFull, Reason, SenderConfig, SenderConfigError,
    SenderError, SenderGate, required_max_pending_messages,
};

const N1: NodeId = NodeId(1);

/// A gate with fresh metadata at t=0 and node 1 connected and ready at
/// t=3.
fn connected_gate(config: SenderConfig) -> (SenderGate, [NodeState; 1]) {
    let mut gate =
        SenderGate::with_metadata(config, MetadataState::fresh(0, Jitter::NONE, &config));
    let mut nodes = [NodeState::new(N1)];
    assert_eq!(
        gate.ready(&mut nodes, N1, 1).reason,
        Reason::InitiateConnect
    );
    gate.connection_event(&mut nodes, N1, Ev::Connected, 2, Jitter::NONE)
        .unwrap();
    gate.connection_event(&mut nodes, N1, Ev::Authenticated, 3, Jitter::NONE)
        .unwrap();
    (gate, nodes)
}

#[test]
fn defaults_are_kafkas() {
    let c = SenderConfig::default();
    assert_eq!(c.max_in_flight(), 5);
    assert!(c.idempotence());
    assert_eq!(c.reconnect_backoff(), ExponentialBackoff::new(50, 1000));
    assert_eq!(c.metadata_max_age_ms(), 300_000);
    assert_eq!(c.refresh_backoff(), ExponentialBackoff::new(100, 1000));
}

#[test]
fn config_errors_use_kafkas_wording() {
    let e = SenderConfig::new(6, true).unwrap_err();
    assert_eq!(
        e.to_string(),
        "To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is 6."
    );
    assert_eq!(
        SenderConfig::new(0, false).unwrap_err(),
        SenderConfigError::MaxInFlightTooSmall(0)
    );
    assert_eq!(
        SenderConfig::new(0, true).unwrap_err().to_string(),
        "Invalid value 0 for configuration max.in.flight.requests.per.connection: Value must be at least 1"
    );
    assert!(SenderConfig::new(1, true).unwrap().strict_ordering());
    assert_eq!(SenderConfig::new(100, false).unwrap().max_in_flight(), 100);
}

#[test]
fn reconnect_backoff_doubles_to_the_cap_with_caller_jitter() {
    let b = ExponentialBackoff::new(50, 1000);
    let none: Vec<u64> = (0..8).map(|a| b.backoff(a, Jitter::NONE)).collect();
    assert_eq!(none, [50, 100, 200, 400, 800, 1000, 1000, 1000]);
    // ±20%: the draw 0 is 0.8, the draw just under 1 is almost 1.2.
    assert_eq!(b.backoff(2, Jitter::from_unit(0.0)), 160);
    assert_eq!(b.backoff(2, Jitter::from_unit(0.5)), 200);
    assert_eq!(b.backoff(2, Jitter::MAX), 240);
    assert_eq!(b.backoff(10, Jitter::MAX), 1000);
    assert_eq!(b.backoff(u32::MAX, Jitter::MIN), 800);
    // initial >= max: constant and without jitter, as Java's expMax == 0.
    assert_eq!(
        ExponentialBackoff::new(2000, 1000).backoff(3, Jitter::MAX),
        1000
    );
    assert_eq!(Jitter::from_unit(f64::NAN), Jitter::NONE);
}

#[test]
fn connection_failures_back_off_and_success_resets() {
    let config = SenderConfig::default();
    let mut gate =
        SenderGate::with_metadata(config, MetadataState::fresh(0, Jitter::NONE, &config));
    let mut nodes = [NodeState::new(N1)];
    let mut now = 0;
    for (attempt, backoff) in [50u64, 100, 200, 400, 800, 1000, 1000]
        .into_iter()
        .enumerate()
    {
        let r = gate.ready(&mut nodes, N1, now);
        assert_eq!(r.reason, Reason::InitiateConnect, "attempt {attempt}");
        gate.connection_event(&mut nodes, N1, Ev::Disconnected, now, Jitter::NONE)
            .unwrap();
        let r = gate.ready(&mut nodes, N1, now + 1);
        assert_eq!(r.reason, Reason::ReconnectBackoff);
        assert_eq!(r.state, ConnectionState::NotConnected);
        assert_eq!(r.backoff_remaining_ms, backoff - 1);
        assert_eq!(
            r.to_string(),
            format!(
                "node 1 not ready: NOT_CONNECTED, reconnect backoff {} ms remaining",
                backoff - 1
            )
        );
        now += backoff;
    }
    assert_eq!(nodes[0].connection().failed_attempts(), 7);
    assert_eq!(
        gate.ready(&mut nodes, N1, now).reason,
        Reason::InitiateConnect
    );
    gate.connection_event(&mut nodes, N1, Ev::Connected, now, Jitter::NONE)
        .unwrap();
    gate.connection_event(&mut nodes, N1, Ev::Authenticated, now, Jitter::NONE)
        .unwrap();
    assert_eq!(nodes[0].connection().failed_attempts(), 0);
    gate.connection_event(&mut nodes, N1, Ev::Disconnected, now, Jitter::NONE)
        .unwrap();
    assert_eq!(nodes[0].connection().reconnect_backoff_ms(), 50);
    let c = gate.counters(&nodes, now);
    assert_eq!(c.connection_creation_total, 1);
    assert_eq!(c.connection_count, 0);
}

#[test]
fn invalid_transitions_change_nothing() {
    let (mut gate, mut nodes) = connected_gate(SenderConfig::default());
    let before = nodes;
    let e = gate
        .connection_event(&mut nodes, N1, Ev::Connected, 4, Jitter::NONE)
        .unwrap_err();
    assert!(matches!(e, SenderError::InvalidTransition(N1, _)));
    assert_eq!(
        e.to_string(),
        "node 1: connection event connected is not valid in state READY"
    );
    assert_eq!(nodes, before);
    assert_eq!(
        gate.connection_event(&mut nodes, NodeId(9), Ev::Connect, 4, Jitter::NONE),
        Err(SenderError::UnknownNode(NodeId(9)))
    );
    assert_eq!(
        gate.response(&mut nodes, N1, ProduceOutcome::Success),
        Err(SenderError::NoRequestInFlight(N1))
    );
}

/// Story 1: a slow broker. Requests pile up to the in-flight limit, the
/// gate holds the node back, and each answer frees exactly one slot.
#[test]
fn in_flight_full_under_a_slow_broker() {
    let (mut gate, mut nodes) = connected_gate(SenderConfig::default());
    let mut now = 10;
    for i in 0..5 {
        let r = gate.send(&mut nodes, N1, now).unwrap();
        assert_eq!(r.in_flight, i);
        now += 1;
    }
    let r = gate.ready(&mut nodes, N1, now);
    assert_eq!(
        (r.reason, r.in_flight, r.max_in_flight),
        (Reason::InFlightFull, 5, 5)
    );
    let Err(SenderError::NotReady(r)) = gate.send(&mut nodes, N1, now) else {
        panic!("a sixth request went out");
    };
    assert_eq!(r.reason, Reason::InFlightFull);
    assert_eq!(gate.counters(&nodes, now).in_flight_requests_count, 5);
    // The broker answers one request 2 s later: one slot, one send.
    now += 2000;
    gate.response(&mut nodes, N1, ProduceOutcome::Success)
        .unwrap();
    assert!(gate.ready(&mut nodes, N1, now).is_ready());
    gate.send(&mut nodes, N1, now).unwrap();
    assert_eq!(gate.ready(&mut nodes, N1, now).reason, Reason::InFlightFull);

    // Strict ordering: one at a time.
    let (mut gate, mut nodes) = connected_gate(SenderConfig::new(1, true).unwrap());
    gate.send(&mut nodes, N1, 10).unwrap();
    assert_eq!(
        gate.ready(&mut nodes, N1, 10).to_string(),
        "node 1 not ready: in flight 1/1"
    );
}

/// Story 2: the metadata expires (metadata.max.age.ms) and the refresh
/// pauses every send until the metadata request is out.
#[test]
fn metadata_refresh_pauses_sends() {
    let config = SenderConfig::default().with_metadata_max_age(1000);
    let (mut gate, mut nodes) = connected_gate(config);
    assert!(gate.ready(&mut nodes, N1, 999).is_ready());
    assert_eq!(gate.time_to_next_metadata_update(999), 1);
    let r = gate.ready(&mut nodes, N1, 1000);
    assert_eq!(r.reason, Reason::MetadataDue);
    assert_eq!(r.metadata_age_ms, 1000);
    assert!(!r.metadata_update_requested);
    assert_eq!(
        r.to_string(),
        "node 1 not ready: metadata update due (age 1000 ms, metadata.max.age.ms expired)"
    );
    assert!(gate.send(&mut nodes, N1, 1000).is_err());
    // The metadata request is in flight: produce requests go again.
    gate.metadata_fetch_started();
    assert!(gate.ready(&mut nodes, N1, 1001).is_ready());
    gate.metadata_updated(1010, Jitter::NONE);
    assert_eq!(gate.counters(&nodes, 1500).metadata_age_ms, 490);
    assert!(gate.ready(&mut nodes, N1, 2009).is_ready());
    assert_eq!(gate.ready(&mut nodes, N1, 2010).reason, Reason::MetadataDue);
}

/// Story 3: a leader moves. NOT_LEADER_OR_FOLLOWER forces a metadata
/// refresh; sends pause until the refresh is out (after the refresh
/// backoff), then resume and the retried batch is acknowledged.
#[test]
fn leader_change_recovered_by_retry() {
    let (mut gate, mut nodes) = connected_gate(SenderConfig::default());
    gate.send(&mut nodes, N1, 10).unwrap();
    gate.response(&mut nodes, N1, ProduceOutcome::NotLeaderOrFollower)
        .unwrap();
    assert!(gate.metadata().update_requested());
    // The refresh waits out retry.backoff.ms (100) from the last refresh at
    // t=0; until then produce requests still go out.
    assert_eq!(gate.time_to_next_metadata_update(20), 80);
    assert!(gate.ready(&mut nodes, N1, 99).is_ready());
    let r = gate.ready(&mut nodes, N1, 100);
    assert_eq!(r.reason, Reason::MetadataDue);
    assert!(r.metadata_update_requested);
    assert!(gate.send(&mut nodes, N1, 100).is_err());
    gate.metadata_fetch_started();
    gate.metadata_updated(110, Jitter::NONE);
    assert!(!gate.metadata().update_requested());
    // The retry goes out and succeeds.
    gate.send(&mut nodes, N1, 111).unwrap();
    gate.response(&mut nodes, N1, ProduceOutcome::Success)
        .unwrap();
    assert_eq!(gate.counters(&nodes, 111).in_flight_requests_count, 0);

    // A second leader change right after a refresh waits out the refresh
    // backoff: 100 ms from the last refresh (jittered by the caller's draw).
    gate.send(&mut nodes, N1, 120).unwrap();
    gate.response(&mut nodes, N1, ProduceOutcome::NotLeaderOrFollower)
        .unwrap();
    assert_eq!(gate.time_to_next_metadata_update(120), 90);
    assert!(gate.ready(&mut nodes, N1, 209).is_ready());
    assert_eq!(gate.ready(&mut nodes, N1, 210).reason, Reason::MetadataDue);
    // Failed refreshes back off retry.backoff.ms * 2^(failures - 1):
    // Kafka's Metadata.timeToAllowUpdate uses `attempts - 1`, so 100 ms after
    // the first failure, then 200 ms, then 400 ms.
    gate.metadata_fetch_started();
    gate.metadata_failed(210, Jitter::NONE);
    assert_eq!(gate.time_to_next_metadata_update(210), 100);
    gate.metadata_fetch_started();
    gate.metadata_failed(310, Jitter::NONE);
    assert_eq!(gate.time_to_next_metadata_update(310), 200);
    gate.metadata_fetch_started();
    gate.metadata_failed(510, Jitter::NONE);
    assert_eq!(gate.time_to_next_metadata_update(510), 400);
}

#[test]
fn disconnect_fails_in_flight_and_requests_metadata() {
    let (mut gate, mut nodes) = connected_gate(SenderConfig::default());
    gate.send(&mut nodes, N1, 10).unwrap();
    gate.send(&mut nodes, N1, 10).unwrap();
    gate.connection_event(&mut nodes, N1, Ev::Disconnected, 11, Jitter::MIN)
        .unwrap();
    assert_eq!(nodes[0].in_flight().count(), 0);
    assert!(gate.metadata().update_requested());
    // The first failure after a ready connection: 50 ms * 0.8.
    assert_eq!(gate.ready(&mut nodes, N1, 11).backoff_remaining_ms, 40);
}

#[test]
fn throttled_node_waits() {
    let (mut gate, mut nodes) = connected_gate(SenderConfig::default());
    gate.throttle(&mut nodes, N1, 50).unwrap();
    let r = gate.ready(&mut nodes, N1, 20);
    assert_eq!((r.reason, r.backoff_remaining_ms), (Reason::Throttled, 30));
    assert!(gate.ready(&mut nodes, N1, 50).is_ready());
}

#[test]
fn filter_keeps_ready_nodes_in_order_and_reports_all() {
    let config = SenderConfig::default();
    let mut gate =
        SenderGate::with_metadata(config, MetadataState::fresh(0, Jitter::NONE, &config));
    let mut nodes = [
        NodeState::new(NodeId(1)),
        NodeState::new(NodeId(2)),
        NodeState::new(NodeId(3)),
    ];
    for id in [NodeId(1), NodeId(3)] {
        assert_eq!(
            gate.ready(&mut nodes, id, 0).reason,
            Reason::InitiateConnect
        );
        gate.connection_event(&mut nodes, id, Ev::Connected, 0, Jitter::NONE)
            .unwrap();
        gate.connection_event(&mut nodes, id, Ev::Authenticated, 0, Jitter::NONE)
            .unwrap();
    }
    let mut candidates = [NodeId(1), NodeId(2), NodeId(3), NodeId(4)];
    let mut seen = Vec::new();
    let kept = gate.filter_ready(&mut nodes, &mut candidates, 5, |r| {
        seen.push((r.node, r.reason))
    });
    assert_eq!(kept, 2);
    assert_eq!(&candidates[..kept], [NodeId(1), NodeId(3)]);
    assert_eq!(
        seen,
        [
            (NodeId(1), Reason::Ready),
            (NodeId(2), Reason::InitiateConnect),
            (NodeId(3), Reason::Ready),
            (NodeId(4), Reason::UnknownNode),
        ]
    );
    // Node 2 is now connecting, so the counters see two open and one
    // opening connection.
    assert_eq!(gate.counters(&nodes, 5).connection_count, 3);
    assert_eq!(gate.counters(&nodes, 5).connection_creation_total, 2);
}

#[test]
fn pulsar_pending_queue() {
    assert_eq!(
        PendingQueue::new(-1, false).unwrap_err().to_string(),
        "maxPendingMessages needs to be >= 0"
    );
    let mut q = PendingQueue::new(3, true).unwrap();
    for _ in 0..3 {
        q.try_enqueue().unwrap();
    }
    assert_eq!(q.try_enqueue(), Err(QueueFull::WouldBlock));
    assert_eq!(q.pending(), 3);
    let mut q = PendingQueue::new(1, false).unwrap();
    q.try_enqueue().unwrap();
    assert_eq!(q.check(), Err(QueueFull::WouldFail));
    assert_eq!(
        QueueFull::WouldFail.to_string(),
        "Producer send queue is full"
    );
    q.complete(5);
    assert_eq!(q.pending(), 0);
    // 0: no limit.
    let mut q = PendingQueue::new(0, false).unwrap();
    for _ in 0..10_000 {
        q.try_enqueue().unwrap();
    }
    // Sizing: peak rate x reconnect window.
    assert_eq!(required_max_pending_messages(10_000, 1000), 10_000);
    assert_eq!(required_max_pending_messages(1, 1), 1);
    assert_eq!(required_max_pending_messages(0, 1000), 0);
    assert_eq!(required_max_pending_messages(u64::MAX, u64::MAX), u64::MAX);
    // A queue of that size absorbs the window.
    let need = required_max_pending_messages(2000, 1500);
    let mut q = PendingQueue::new(i64::try_from(need).unwrap(), false).unwrap();
    for _ in 0..3000 {
        q.try_enqueue().unwrap();
    }
    assert_eq!(q.try_enqueue(), Err(QueueFull::WouldFail));
}

#[derive(Clone, Debug)]
enum Step {
    Ready(u8),
    Send(u8),
    Response(u8, u8),
    Conn(u8, u8, u16),
    Throttle(u8, u16),
    RequestMetadata,
    FetchStarted,
    Updated(u16),
    Failed(u16),
    Advance(u16),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        any::<u8>().prop_map(Step::Ready),
        any::<u8>().prop_map(Step::Send),
        (any::<u8>(), any::<u8>()).prop_map(|(n, o)| Step::Response(n, o)),
        (any::<u8>(), any::<u8>(), any::<u16>()).prop_map(|(n, e, j)| Step::Conn(n, e, j)),
        (any::<u8>(), any::<u16>()).prop_map(|(n, t)| Step::Throttle(n, t)),
        Just(Step::RequestMetadata),
        Just(Step::FetchStarted),
        any::<u16>().prop_map(Step::Updated),
        any::<u16>().prop_map(Step::Failed),
        any::<u16>().prop_map(Step::Advance),
    ]
}

proptest! {
    /// In flight never exceeds the maximum, nothing is sent while a
    /// metadata update is due, and a send succeeds exactly when the gate
    /// says ready.
    #[test]
    fn invariants_hold_for_any_trace(
        max in 1i64..=5,
        steps in proptest::collection::vec(step(), 0..200),
    ) {
        let config = SenderConfig::new(max, true).unwrap().with_metadata_max_age(5000);
        let mut gate = SenderGate::new(config);
        let mut nodes = [NodeState::new(NodeId(0)), NodeState::new(NodeId(1)), NodeState::new(NodeId(2))];
        let mut now = 0u64;
        let id = |n: u8| NodeId(i32::from(n % 4));
        for s in steps {
            match s {
                Step::Ready(n) => {
                    let r = gate.ready(&mut nodes, id(n), now);
                    if r.is_ready() {
                        prop_assert!(!gate.is_metadata_update_due(now));
                    }
                }
                Step::Send(n) => {
                    let before = gate.check_id(&nodes, id(n), now);
                    let due = gate.is_metadata_update_due(now);
                    let res = gate.send(&mut nodes, id(n), now);
                    prop_assert_eq!(res.is_ok(), before.is_ready());
                    if res.is_ok() {
                        prop_assert!(!due);
                        prop_assert!(before.in_flight < before.max_in_flight);
                    }
                }
                Step::Response(n, o) => {
                    let o = ProduceOutcome::ALL[usize::from(o) % 3];
                    let _ = gate.response(&mut nodes, id(n), o);
                }
                Step::Conn(n, e, j) => {
                    let e = Ev::ALL[usize::from(e) % 5];
                    let _ = gate.connection_event(&mut nodes, id(n), e, now, Jitter::from_unit(f64::from(j) / 65536.0));
                }
                Step::Throttle(n, t) => {
                    let _ = gate.throttle(&mut nodes, id(n), now + u64::from(t));
                }
                Step::RequestMetadata => gate.request_metadata_update(),
                Step::FetchStarted => gate.metadata_fetch_started(),
                Step::Updated(j) => gate.metadata_updated(now, Jitter::from_unit(f64::from(j) / 65536.0)),
                Step::Failed(j) => gate.metadata_failed(now, Jitter::from_unit(f64::from(j) / 65536.0)),
                Step::Advance(d) => now += u64::from(d),
            }
            for n in &nodes {
                prop_assert!(n.in_flight().count() <= config.max_in_flight());
                if n.connection().state() != ConnectionState::Ready {
                    prop_assert_eq!(n.in_flight().count(), 0);
                }
                prop_assert!(n.connection().reconnect_backoff_ms() <= 1000);
            }
        }
    }

    #[test]
    fn backoff_stays_within_jitter_and_cap(
        initial in 0u64..10_000, max in 0u64..100_000, attempts in 0u32..80, unit in 0.0f64..1.0,
    ) {
        let b = ExponentialBackoff::new(initial, max);
        let v = b.backoff(attempts, Jitter::from_unit(unit));
        prop_assert!(v <= max.max(b.initial_ms()));
        let plain = b.backoff(attempts, Jitter::NONE);
        prop_assert!(v as f64 >= (plain as f64 * 0.8).floor() - 1.0);
    }
}
