//! The sender readiness gate and the pending queue through the C API:
//! NULLs and unknown values give their status without writing any
//! out-parameter, and a replayed trace agrees with the core crate.

use core::ptr::{null, null_mut};

use crate::error::pulsar_routing_status as S;
use crate::sender::*;
use pulsar_routing_core::sender::{
    ConnectionEvent, Jitter, NodeId, NodeState, ProduceOutcome, SenderConfig, SenderConfigError,
    SenderGate,
};

fn config() -> pulsar_routing_sender_config {
    let mut c = core::mem::MaybeUninit::uninit();
    // SAFETY: a live out-parameter.
    let status = unsafe { pulsar_routing_sender_config_default(c.as_mut_ptr()) };
    assert_eq!(status, S::Ok);
    // SAFETY: written on OK.
    unsafe { c.assume_init() }
}

fn new_gate(
    config: &pulsar_routing_sender_config,
    ids: &[i32],
) -> Result<*mut pulsar_routing_sender_gate, S> {
    let mut gate = null_mut();
    // SAFETY: live arguments.
    match unsafe { pulsar_routing_sender_gate_new(config, ids.as_ptr(), ids.len(), &mut gate) } {
        S::Ok => Ok(gate),
        s => {
            assert!(gate.is_null(), "out-parameter written on failure");
            Err(s)
        }
    }
}

fn ready(gate: *mut pulsar_routing_sender_gate, node: i32, now: u64) -> pulsar_routing_readiness {
    let mut r = pulsar_routing_readiness::default();
    // SAFETY: a live gate and out-parameter.
    let status = unsafe { pulsar_routing_sender_gate_ready(gate, node, now, &mut r) };
    assert_eq!(status, S::Ok);
    r
}

fn message(r: &pulsar_routing_readiness) -> String {
    let mut buf = [0u8; 256];
    let mut written = 0usize;
    // SAFETY: live buffers.
    let s =
        unsafe { pulsar_routing_readiness_message(r, buf.as_mut_ptr(), buf.len(), &mut written) };
    assert_eq!(s, S::Ok);
    String::from_utf8(buf[..written].to_vec()).unwrap()
}

#[test]
fn defaults_and_config_errors() {
    let c = config();
    assert_eq!(c.max_in_flight, 5);
    assert!(c.enable_idempotence);
    assert_eq!(
        (c.reconnect_backoff_ms, c.reconnect_backoff_max_ms),
        (50, 1000)
    );
    assert_eq!(c.metadata_max_age_ms, 300_000);
    assert_eq!((c.retry_backoff_ms, c.retry_backoff_max_ms), (100, 1000));
    let mut bad = c;
    bad.max_in_flight = 6;
    assert_eq!(
        new_gate(&bad, &[1]),
        Err(S::SenderMaxInFlightTooLargeForIdempotence)
    );
    // The static message is the core's, without the number.
    let core_text = SenderConfigError::MaxInFlightTooLargeForIdempotence(6).to_string();
    let static_text = S::SenderMaxInFlightTooLargeForIdempotence
        .message()
        .to_str()
        .unwrap();
    assert!(
        core_text.starts_with(static_text),
        "{core_text} / {static_text}"
    );
    bad.max_in_flight = 0;
    assert_eq!(new_gate(&bad, &[1]), Err(S::SenderMaxInFlightTooSmall));
    bad.enable_idempotence = false;
    bad.max_in_flight = 6;
    let g = new_gate(&bad, &[1]).unwrap();
    // SAFETY: a gate from _new.
    unsafe { pulsar_routing_sender_gate_free(g) };
    assert_eq!(new_gate(&c, &[1, 2, 1]), Err(S::SenderDuplicateNode));
}

#[test]
fn nulls_and_unknown_values() {
    let c = config();
    let mut gate = null_mut();
    let mut r = pulsar_routing_readiness::default();
    // SAFETY: each call has one NULL where a pointer is required.
    unsafe {
        assert_eq!(
            pulsar_routing_sender_config_default(null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_sender_gate_new(null(), [1].as_ptr(), 1, &mut gate),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_sender_gate_new(&c, null(), 0, &mut gate),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_sender_gate_new(&c, [1].as_ptr(), 1, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_sender_gate_ready(null_mut(), 1, 0, &mut r),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_sender_gate_send(null_mut(), 1, 0),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_pending_queue_try_enqueue(null_mut()),
            S::NullParameter
        );
        pulsar_routing_sender_gate_free(null_mut());
    }
    let g = new_gate(&c, &[1]).unwrap();
    // SAFETY: a live gate.
    unsafe {
        assert_eq!(
            pulsar_routing_sender_gate_ready(g, 1, 0, null_mut()),
            S::NullParameter
        );
        assert_eq!(
            pulsar_routing_sender_gate_connection_event(g, 1, 5, 0, 0.5),
            S::SenderUnknownValue
        );
        assert_eq!(
            pulsar_routing_sender_gate_response(g, 1, 3),
            S::SenderUnknownValue
        );
        assert_eq!(
            pulsar_routing_sender_gate_metadata_event(g, 4, 0, 0.5),
            S::SenderUnknownValue
        );
        assert_eq!(
            pulsar_routing_sender_gate_connection_event(
                g,
                9,
                PULSAR_ROUTING_CONNECTION_EVENT_CONNECT,
                0,
                0.5
            ),
            S::SenderUnknownNode
        );
        assert_eq!(
            pulsar_routing_sender_gate_connection_event(
                g,
                1,
                PULSAR_ROUTING_CONNECTION_EVENT_AUTHENTICATED,
                0,
                0.5
            ),
            S::SenderInvalidTransition
        );
        assert_eq!(
            pulsar_routing_sender_gate_response(g, 1, PULSAR_ROUTING_PRODUCE_OUTCOME_SUCCESS),
            S::SenderNoRequestInFlight
        );
        let bad = pulsar_routing_readiness {
            reason: 99,
            ..Default::default()
        };
        let mut buf = [0u8; 8];
        let mut written = usize::MAX;
        assert_eq!(
            pulsar_routing_readiness_message(&bad, buf.as_mut_ptr(), buf.len(), &mut written),
            S::SenderUnknownValue
        );
        assert_eq!(written, usize::MAX);
        pulsar_routing_sender_gate_free(g);
    }
}

/// A leader change replayed through C and through the core side by side.
#[test]
fn trace_agrees_with_the_core() {
    let c = config();
    let g = new_gate(&c, &[1, 2]).unwrap();
    let mut core_gate = SenderGate::new(SenderConfig::default());
    let mut core_nodes = [NodeState::new(NodeId(1)), NodeState::new(NodeId(2))];

    // Bootstrap: metadata due, and node 1 not connected: connection first.
    let r = ready(g, 1, 0);
    assert_eq!(r.reason, PULSAR_ROUTING_READINESS_INITIATE_CONNECT);
    assert_eq!(r.state, PULSAR_ROUTING_CONNECTION_STATE_NOT_CONNECTED);
    let cr = core_gate.ready(&mut core_nodes, NodeId(1), 0);
    assert_eq!(message(&r), cr.to_string());
    // SAFETY: a live gate for every call below.
    unsafe {
        for (e, core_e) in [
            (
                PULSAR_ROUTING_CONNECTION_EVENT_CONNECTED,
                ConnectionEvent::Connected,
            ),
            (
                PULSAR_ROUTING_CONNECTION_EVENT_AUTHENTICATED,
                ConnectionEvent::Authenticated,
            ),
        ] {
            assert_eq!(
                pulsar_routing_sender_gate_connection_event(g, 1, e, 5, 0.5),
                S::Ok
            );
            core_gate
                .connection_event(&mut core_nodes, NodeId(1), core_e, 5, Jitter::NONE)
                .unwrap();
        }
        let r = ready(g, 1, 10);
        assert_eq!(r.reason, PULSAR_ROUTING_READINESS_METADATA_DUE);
        assert_eq!(
            message(&r),
            core_gate.ready(&mut core_nodes, NodeId(1), 10).to_string()
        );
        assert_eq!(pulsar_routing_sender_gate_send(g, 1, 10), S::SenderNotReady);
        for e in [
            PULSAR_ROUTING_METADATA_EVENT_FETCH_STARTED,
            PULSAR_ROUTING_METADATA_EVENT_UPDATED,
        ] {
            assert_eq!(
                pulsar_routing_sender_gate_metadata_event(g, e, 20, 0.5),
                S::Ok
            );
        }
        core_gate.metadata_fetch_started();
        core_gate.metadata_updated(20, Jitter::NONE);
        for _ in 0..5 {
            assert_eq!(pulsar_routing_sender_gate_send(g, 1, 21), S::Ok);
            core_gate.send(&mut core_nodes, NodeId(1), 21).unwrap();
        }
        let r = ready(g, 1, 22);
        assert_eq!(message(&r), "node 1 not ready: in flight 5/5");
        assert_eq!(
            pulsar_routing_sender_gate_response(
                g,
                1,
                PULSAR_ROUTING_PRODUCE_OUTCOME_NOT_LEADER_OR_FOLLOWER
            ),
            S::Ok
        );
        core_gate
            .response(
                &mut core_nodes,
                NodeId(1),
                ProduceOutcome::NotLeaderOrFollower,
            )
            .unwrap();
        let mut ms = 0;
        assert_eq!(
            pulsar_routing_sender_gate_time_to_next_metadata_update(g, 30, &mut ms),
            S::Ok
        );
        assert_eq!(ms, core_gate.time_to_next_metadata_update(30));
        assert_eq!(ms, 90);

        // The filter: node 1 metadata-due at 120, node 2 initiates a connect.
        let mut ids = [2, 1, 7];
        let mut reasons = [pulsar_routing_readiness::default(); 3];
        let mut kept = usize::MAX;
        assert_eq!(
            pulsar_routing_sender_gate_filter_ready(
                g,
                ids.as_mut_ptr(),
                3,
                120,
                reasons.as_mut_ptr(),
                &mut kept
            ),
            S::Ok
        );
        assert_eq!(kept, 0);
        let got: Vec<u32> = reasons.iter().map(|r| r.reason).collect();
        assert_eq!(
            got,
            [
                PULSAR_ROUTING_READINESS_INITIATE_CONNECT,
                PULSAR_ROUTING_READINESS_METADATA_DUE,
                PULSAR_ROUTING_READINESS_UNKNOWN_NODE
            ]
        );
        let mut counters = pulsar_routing_sender_counters::default();
        assert_eq!(
            pulsar_routing_sender_gate_counters(g, 120, &mut counters),
            S::Ok
        );
        assert_eq!(
            counters,
            pulsar_routing_sender_counters {
                connection_count: 2,
                connection_creation_total: 1,
                in_flight_requests_count: 4,
                metadata_age_ms: 100,
            }
        );
        pulsar_routing_sender_gate_free(g);
    }
}

#[test]
fn pending_queue() {
    let mut q = core::mem::MaybeUninit::<pulsar_routing_pending_queue>::uninit();
    // SAFETY: live queue storage, initialised before use.
    unsafe {
        assert_eq!(
            pulsar_routing_pending_queue_init(q.as_mut_ptr(), -1, false),
            S::MaxPendingMessagesNegative
        );
        assert_eq!(
            pulsar_routing_pending_queue_init(q.as_mut_ptr(), 2, false),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_pending_queue_try_enqueue(q.as_mut_ptr()),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_pending_queue_try_enqueue(q.as_mut_ptr()),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_pending_queue_try_enqueue(q.as_mut_ptr()),
            S::ProducerQueueIsFull
        );
        assert_eq!(
            pulsar_routing_pending_queue_complete(q.as_mut_ptr(), 1),
            S::Ok
        );
        let mut pending = 0;
        assert_eq!(
            pulsar_routing_pending_queue_pending(q.as_ptr(), &mut pending),
            S::Ok
        );
        assert_eq!(pending, 1);
        assert_eq!(
            pulsar_routing_pending_queue_init(q.as_mut_ptr(), 1, true),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_pending_queue_try_enqueue(q.as_mut_ptr()),
            S::Ok
        );
        assert_eq!(
            pulsar_routing_pending_queue_try_enqueue(q.as_mut_ptr()),
            S::ProducerQueueWouldBlock
        );
        let mut n = 0;
        assert_eq!(
            pulsar_routing_required_max_pending_messages(5000, 2500, &mut n),
            S::Ok
        );
        assert_eq!(n, 12_500);
        assert_eq!(
            pulsar_routing_required_max_pending_messages(1, 1, null_mut()),
            S::NullParameter
        );
    }
    assert_eq!(
        S::ProducerQueueIsFull.message().to_str().unwrap(),
        "Producer send queue is full"
    );
}
