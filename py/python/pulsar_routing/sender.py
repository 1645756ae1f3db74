"""The Kafka producer's send-readiness gate and Pulsar's pending-message queue.

:class:`SenderGate` decides, per broker node, whether a produce request may
go now (connection, authentication, in-flight limit, throttling, metadata)
and says why not in a :class:`Readiness`; :class:`SenderConfig` holds its
settings. :class:`PendingQueue` is a producer's bounded queue of pending
messages, and :func:`required_max_pending_messages` the size that rides
out a reconnect. Errors: :class:`SenderConfigError`, :class:`SenderError`
(with :class:`SenderNotReadyError`) and :class:`ProducerQueueIsFullError`.

Replaying a producer trace through the gate: :func:`replay` answers
"given these responses and times, what did the client do and why": it
feeds each event to a :class:`SenderGate` and records, step by step (a
:class:`ReplayStep`), the gate's answer or the refusal.

Events are tuples ``(now_ms, kind, *args)``:

- ``(t, "ready", node)``: ``SenderGate.ready`` (may initiate a connect);
- ``(t, "send", node)``: a produce request, refused when the node is not ready;
- ``(t, "response", node[, outcome])``: ``"success"`` (default),
  ``"not_leader_or_follower"`` or ``"other_error"``;
- ``(t, "connected" | "authenticated" | "disconnected" |
  "authentication_failed" | "connect", node[, jitter])``;
- ``(t, "throttle", node, until_ms)``;
- ``(t, "metadata_request_update")``, ``(t, "metadata_fetch_started")``,
  ``(t, "metadata_updated"[, jitter])``, ``(t, "metadata_failed"[, jitter])``.

>>> from pulsar_routing.sender import replay
>>> steps = replay([
...     (0, "metadata_fetch_started"), (0, "metadata_updated"),
...     (1, "ready", 1), (2, "connected", 1), (3, "authenticated", 1),
...     (4, "send", 1), (5, "send", 1),
... ], nodes=[1], max_in_flight=1)
>>> [s.outcome for s in steps[2:]]
['initiate_connect', 'ok', 'ok', 'ready', 'in_flight_full']
>>> print(steps[-1].why)
cannot send: node 1 not ready: in flight 1/1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ._pulsar_routing import (
    PendingQueue,
    ProducerQueueIsFullError,
    Readiness,
    SenderConfig,
    SenderConfigError,
    SenderError,
    SenderGate,
    SenderNotReadyError,
    required_max_pending_messages,
)

__all__ = [
    "PendingQueue",
    "ProducerQueueIsFullError",
    "Readiness",
    "ReplayStep",
    "SenderConfig",
    "SenderConfigError",
    "SenderError",
    "SenderGate",
    "SenderNotReadyError",
    "replay",
    "required_max_pending_messages",
]

_CONNECTION_EVENTS = frozenset(
    {"connect", "connected", "authenticated", "disconnected", "authentication_failed"}
)


@dataclass(frozen=True)
class ReplayStep:
    """What one event did.

    ``outcome`` is ``"ok"`` for an accepted event, the readiness reason for
    ``ready``/``send`` (``"ready"``, ``"in_flight_full"``, ...), or
    ``"error"`` for an event the gate refused for another cause; ``why`` is
    the sentence behind it.
    """

    now_ms: int
    kind: str
    node: int | None
    outcome: str
    why: str
    readiness: Readiness | None = None


def replay(
    events: Iterable[Sequence[object]],
    *,
    nodes: Iterable[int],
    config: SenderConfig | None = None,
    max_in_flight: int | None = None,
) -> list[ReplayStep]:
    """Feed ``events`` to a fresh gate over ``nodes`` and record each step.

    ``max_in_flight`` is a shortcut for ``SenderConfig(max_in_flight)``.
    Unknown event kinds raise ``ValueError``; events the gate refuses are
    recorded, not raised.
    """
    if config is None:
        config = SenderConfig(5 if max_in_flight is None else max_in_flight)
    gate = SenderGate(list(nodes), config)
    steps: list[ReplayStep] = []
    for event in events:
        now, kind, args = _int(event[0]), str(event[1]), list(event[2:])
        steps.append(_step(gate, now, kind, args))
    return steps


def _int(value: object) -> int:
    if isinstance(value, (int, str)):
        return int(value)
    raise TypeError(f"expected an int, got {value!r}")


def _float(value: object) -> float:
    if isinstance(value, (int, float, str)):
        return float(value)
    raise TypeError(f"expected a float, got {value!r}")


def _step(gate: SenderGate, now: int, kind: str, args: list[object]) -> ReplayStep:
    node = _int(args[0]) if args and kind not in ("metadata_updated", "metadata_failed") else None
    try:
        if kind == "ready" and node is not None:
            r = gate.ready(node, now)
            return ReplayStep(now, kind, node, r.reason, str(r), r)
        if kind == "send" and node is not None:
            r = gate.send(node, now)
            return ReplayStep(now, kind, node, r.reason, str(r), r)
        if kind == "response" and node is not None:
            outcome = str(args[1]) if len(args) > 1 else "success"
            gate.response(node, outcome)
            return ReplayStep(now, kind, node, "ok", outcome)
        if kind in _CONNECTION_EVENTS and node is not None:
            jitter = _float(args[1]) if len(args) > 1 else 0.5
            gate.connection_event(node, kind, now, jitter)
            return ReplayStep(now, kind, node, "ok", gate.connection_state(node))
        if kind == "throttle" and node is not None:
            until = _int(args[1])
            gate.throttle(node, until)
            return ReplayStep(now, kind, node, "ok", f"throttled until {until} ms")
        if kind == "metadata_request_update":
            gate.request_metadata_update()
            return ReplayStep(now, kind, None, "ok", "metadata update requested")
        if kind == "metadata_fetch_started":
            gate.metadata_fetch_started()
            return ReplayStep(now, kind, None, "ok", "metadata request in flight")
        if kind in ("metadata_updated", "metadata_failed"):
            jitter = _float(args[0]) if args else 0.5
            if kind == "metadata_updated":
                gate.metadata_updated(now, jitter)
            else:
                gate.metadata_failed(now, jitter)
            wait = gate.time_to_next_metadata_update(now)
            return ReplayStep(now, kind, None, "ok", f"next metadata update in {wait} ms")
    except SenderNotReadyError as e:
        r = e.readiness
        return ReplayStep(now, kind, node, r.reason, str(e), r)
    except SenderError as e:
        return ReplayStep(now, kind, node, "error", str(e))
    raise ValueError(f"unknown event {kind!r} (or a missing node) at {now} ms")
