"""The Kafka sender readiness gate and the Pulsar pending queue from Python:
Kafka's defaults and messages, the three failure stories of the issue
replayed step by step, and the pure-Python replay helper."""

from __future__ import annotations

import pytest

import pulsar_routing as pr
from pulsar_routing.sender import ReplayStep, replay


def connected(config: pr.SenderConfig | None = None) -> pr.SenderGate:
    """A gate over node 1 with fresh metadata at t=0, connected at t=3."""
    gate = pr.SenderGate([1], config)
    gate.metadata_fetch_started()
    gate.metadata_updated(0)
    assert gate.ready(1, 1).reason == "initiate_connect"
    gate.connection_event(1, "connected", 2)
    gate.connection_event(1, "authenticated", 3)
    return gate


def test_defaults_are_kafkas() -> None:
    c = pr.SenderConfig()
    assert (c.max_in_flight, c.enable_idempotence) == (5, True)
    assert (c.reconnect_backoff_ms, c.reconnect_backoff_max_ms) == (50, 1000)
    assert c.metadata_max_age_ms == 300_000
    assert (c.retry_backoff_ms, c.retry_backoff_max_ms) == (100, 1000)
    assert [c.reconnect_backoff(a) for a in range(7)] == [50, 100, 200, 400, 800, 1000, 1000]
    assert c.reconnect_backoff(2, jitter=0.0) == 160
    assert pr.SenderConfig(1).strict_ordering
    assert "max_in_flight=5" in repr(c)


def test_idempotence_caps_in_flight_at_build_time() -> None:
    with pytest.raises(pr.SenderConfigError) as e:
        pr.SenderConfig(6, enable_idempotence=True)
    assert str(e.value) == (
        "To use the idempotent producer, max.in.flight.requests.per.connection "
        "must be set to at most 5. Current value is 6."
    )
    assert isinstance(e.value, pr.PulsarRoutingError)
    assert pr.SenderConfig(6, enable_idempotence=False).max_in_flight == 6
    with pytest.raises(pr.SenderConfigError, match="Value must be at least 1"):
        pr.SenderConfig(0)


def test_in_flight_full_under_a_slow_broker() -> None:
    gate = connected()
    for _ in range(5):
        gate.send(1, 10)
    r = gate.ready(1, 11)
    assert (r.reason, r.in_flight, r.max_in_flight) == ("in_flight_full", 5, 5)
    assert str(r) == "node 1 not ready: in flight 5/5"
    with pytest.raises(pr.SenderNotReadyError) as e:
        gate.send(1, 12)
    assert e.value.readiness.reason == "in_flight_full"
    assert gate.counters(12)["in-flight-requests-count"] == 5
    gate.response(1)
    assert gate.ready(1, 2000).is_ready


def test_metadata_refresh_pauses_sends() -> None:
    gate = connected(pr.SenderConfig(metadata_max_age_ms=1000))
    assert gate.ready(1, 999).is_ready
    r = gate.ready(1, 1000)
    assert r.reason == "metadata_due"
    assert not r.metadata_update_requested
    assert gate.is_metadata_update_due(1000)
    gate.metadata_fetch_started()
    assert gate.ready(1, 1001).is_ready
    gate.metadata_updated(1010)
    assert gate.counters(1510)["metadata-age"] == 0.5


def test_leader_change_recovered_by_retry() -> None:
    gate = connected()
    gate.send(1, 10)
    gate.response(1, "not_leader_or_follower")
    assert gate.time_to_next_metadata_update(20) == 80
    r = gate.ready(1, 100)
    assert (r.reason, r.metadata_update_requested) == ("metadata_due", True)
    gate.metadata_fetch_started()
    gate.metadata_updated(110)
    gate.send(1, 111)
    gate.response(1)
    assert gate.in_flight(1) == 0


def test_reconnect_backoff_and_counters() -> None:
    gate = pr.SenderGate([1, 2])
    gate.metadata_fetch_started()
    gate.metadata_updated(0)
    assert gate.ready(1, 0).reason == "initiate_connect"
    assert gate.connection_state(1) == "CONNECTING"
    gate.connection_event(1, "disconnected", 5, jitter=0.0)
    r = gate.ready(1, 6)
    assert (r.reason, r.state, r.backoff_remaining_ms) == ("reconnect_backoff", "NOT_CONNECTED", 39)
    with pytest.raises(pr.SenderError, match="not valid in state NOT_CONNECTED"):
        gate.connection_event(1, "authenticated", 7)
    with pytest.raises(pr.SenderError, match="unknown node 9"):
        gate.send(9, 7)
    with pytest.raises(ValueError, match="unknown connection event"):
        gate.connection_event(1, "bogus", 7)
    assert gate.counters(7) == {
        "connection-count": 0,
        "connection-creation-total": 0,
        "in-flight-requests-count": 0,
        "metadata-age": 0.007,
    }
    with pytest.raises(pr.SenderError, match="listed twice"):
        pr.SenderGate([1, 1])


def test_filter_ready_in_place() -> None:
    gate = pr.SenderGate([1, 2, 3])
    gate.metadata_fetch_started()
    gate.metadata_updated(0)
    for n in (1, 3):
        gate.ready(n, 0)
        gate.connection_event(n, "connected", 0)
        gate.connection_event(n, "authenticated", 0)
    nodes = [3, 2, 1, 4]
    reasons = gate.filter_ready(nodes, 5)
    assert nodes == [3, 1]
    assert [r.reason for r in reasons] == ["ready", "initiate_connect", "ready", "unknown_node"]
    assert "reason='initiate_connect'" in repr(reasons[1])


def test_pending_queue() -> None:
    q = pr.PendingQueue(2)
    q.try_enqueue()
    q.try_enqueue()
    assert q.check() == "would_fail"
    with pytest.raises(pr.ProducerQueueIsFullError, match="^Producer send queue is full$") as e:
        q.try_enqueue()
    assert e.value.would_block is False
    q.complete()
    assert q.pending == 1
    blocking = pr.PendingQueue(1, block_if_queue_full=True)
    blocking.try_enqueue()
    assert blocking.check() == "would_block"
    with pytest.raises(pr.ProducerQueueIsFullError) as e:
        blocking.try_enqueue()
    assert e.value.would_block is True
    with pytest.raises(pr.SenderConfigError, match="maxPendingMessages needs to be >= 0"):
        pr.PendingQueue(-1)
    unlimited = pr.PendingQueue()
    for _ in range(10_000):
        unlimited.try_enqueue()
    assert pr.required_max_pending_messages(5000, 2500) == 12_500
    assert pr.required_max_pending_messages(3, 500) == 2


def test_replay_tells_what_happened_and_why() -> None:
    steps = replay(
        [
            (0, "metadata_fetch_started"),
            (0, "metadata_updated"),
            (1, "ready", 1),
            (2, "connected", 1),
            (3, "authenticated", 1),
            (4, "send", 1),
            (5, "send", 1),
            (6, "response", 1, "not_leader_or_follower"),
            (100, "send", 1),
            (101, "metadata_fetch_started"),
            (102, "metadata_updated"),
            (103, "send", 1),
            (104, "authenticated", 1),
        ],
        nodes=[1],
        max_in_flight=1,
    )
    assert all(isinstance(s, ReplayStep) for s in steps)
    assert [s.outcome for s in steps] == [
        "ok",
        "ok",
        "initiate_connect",
        "ok",
        "ok",
        "ready",
        "in_flight_full",
        "ok",
        "metadata_due",
        "ok",
        "ok",
        "ready",
        "error",
    ]
    assert steps[8].why.startswith("cannot send: node 1 not ready: metadata update due")
    assert steps[12].why == "node 1: connection event authenticated is not valid in state READY"
    with pytest.raises(ValueError, match="unknown event"):
        replay([(0, "explode")], nodes=[1])


def test_sender_module_docstring() -> None:
    import doctest

    import pulsar_routing.sender

    result = doctest.testmod(pulsar_routing.sender, raise_on_error=False, verbose=False)
    assert result.failed == 0
    assert result.attempted > 0
