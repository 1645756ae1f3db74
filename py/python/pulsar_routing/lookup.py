"""Topic lookup, sans IO: which broker serves a topic, and why.

:class:`TopicLookup` is one lookup (redirects, retries, timeouts) driven one
event at a time, each answered with a :class:`LookupAction` that carries its
reason; :class:`PartitionedMetadataLookup` is the partitioned-metadata step
before a producer starts, and :func:`producer_start_topics` the topics it
then looks up. :class:`LookupCoalescer` and :class:`MetadataCoalescer`
share requests in flight, :class:`LookupThrottle` holds a connection's
lookup limits and :class:`Backoff` is the Java client's. Failures are
subclasses of :class:`TopicLookupError`: :class:`LookupFailedError`,
:class:`TooManyRedirectsError`, :class:`RedirectLoopError`,
:class:`LookupTimeoutError`, :class:`TooManyRequestsError` and
:class:`CoalescingTableFullError`.

Replaying a lookup: given the brokers' answers and their times, what did
the client do, and why? :func:`replay` drives a :class:`TopicLookup`
through a whole trace and returns every step (a :class:`ReplayStep`) with
the action taken and its reason; :func:`explain` prints them.

>>> from pulsar_routing.lookup import replay
>>> steps = replay(
...     [
...         {"now_ms": 0, "event": "start"},
...         {"now_ms": 5, "event": "response", "kind": "failed", "error": "ServiceNotReady",
...          "message": "leader election in progress"},
...         {"now_ms": 120, "event": "response", "kind": "redirect",
...          "url": "pulsar://broker-2:6650", "authoritative": True},
...         {"now_ms": 125, "event": "response", "kind": "connect",
...          "url": "pulsar://broker-2:6650", "authoritative": True},
...     ],
...     service_address="pulsar://proxy:6650",
... )
>>> [step.action.kind for step in steps]
['send_lookup', 'retry_at', 'send_lookup', 'send_lookup', 'done']
>>> steps[-1].action.logical_address
'pulsar://broker-2:6650'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ._pulsar_routing import (
    Backoff,
    CoalescingTableFullError,
    LookupAction,
    LookupCoalescer,
    LookupFailedError,
    LookupThrottle,
    LookupTimeoutError,
    MetadataCoalescer,
    PartitionedMetadataLookup,
    RedirectLoopError,
    TooManyRedirectsError,
    TooManyRequestsError,
    TopicLookup,
    TopicLookupError,
    producer_start_topics,
)

__all__ = [
    "Backoff",
    "CoalescingTableFullError",
    "LookupAction",
    "LookupCoalescer",
    "LookupFailedError",
    "LookupThrottle",
    "LookupTimeoutError",
    "MetadataCoalescer",
    "PartitionedMetadataLookup",
    "RedirectLoopError",
    "ReplayStep",
    "TooManyRedirectsError",
    "TooManyRequestsError",
    "TopicLookup",
    "TopicLookupError",
    "explain",
    "producer_start_topics",
    "replay",
]

_EVENTS = (
    "start",
    "response",
    "connection_failed",
    "request_timeout",
    "throttled",
    "retry_timer",
)


@dataclass(frozen=True)
class ReplayStep:
    """One event of a replayed trace and the client's answer to it."""

    now_ms: int
    """When the event happened."""
    event: str
    """The event: ``"start"``, ``"response"``, ``"connection_failed"``,
    ``"request_timeout"``, ``"throttled"`` or ``"retry_timer"`` (with
    ``" (auto)"`` when the replay fired the client's own timer)."""
    action: LookupAction
    """What the client did next."""

    def __str__(self) -> str:
        return f"{self.now_ms:>9} ms  {self.event:<22} -> {self.action!r}\n{'':>13}why: {self.action.reason}"


def _send(lookup: TopicLookup, now: int, entry: Mapping[str, Any]) -> LookupAction:
    event = entry.get("event", "response")
    if event == "start":
        return lookup.start(now)
    if event == "response":
        url = entry.get("url")
        return lookup.on_response(
            entry.get("kind"),
            now,
            broker_service_url=entry.get("broker_service_url", url),
            broker_service_url_tls=entry.get("broker_service_url_tls", entry.get("tls_url", url)),
            authoritative=bool(entry.get("authoritative", False)),
            proxy_through_service_url=bool(entry.get("proxy_through_service_url", False)),
            error=entry.get("error"),
            message=entry.get("message"),
        )
    if event == "connection_failed":
        return lookup.on_connection_failed(now)
    if event == "request_timeout":
        return lookup.on_request_timeout(now)
    if event == "throttled":
        return lookup.on_throttled(
            now, int(entry.get("in_flight", 0)), int(entry.get("queued", 0))
        )
    if event == "retry_timer":
        return lookup.on_retry_timer(now)
    raise ValueError(f"unknown trace event {event!r}: expected one of {', '.join(_EVENTS)}")


def replay(
    trace: Iterable[Mapping[str, Any]],
    *,
    service_address: str = "pulsar://localhost:6650",
    auto_retry: bool = True,
    **options: Any,
) -> list[ReplayStep]:
    """Drives a :class:`TopicLookup` through ``trace`` and returns each step.

    Each trace entry is a mapping with ``"now_ms"`` and ``"event"`` (default
    ``"response"``). A response has ``"kind"`` (``"connect"``,
    ``"redirect"``, ``"failed"`` or None), ``"url"`` (used for both the
    plain and the TLS URL unless ``"broker_service_url"`` /
    ``"broker_service_url_tls"`` are given), ``"authoritative"``,
    ``"proxy_through_service_url"``, ``"error"`` (a ServerError name or
    code) and ``"message"``. A ``"throttled"`` event may give
    ``"in_flight"`` and ``"queued"``; a ``"retry_timer"`` without
    ``"now_ms"`` fires when the client scheduled it.

    A trace that does not begin with ``"start"`` starts at its first time.
    With ``auto_retry`` (the default) the client's retry timers fire by
    themselves when the trace does not fire them, so a trace need only
    list what the brokers and the network did. ``options`` go to
    :class:`TopicLookup` (``profile="go"``, ``max_redirects``,
    ``operation_timeout_ms``, ``jitter_seed``, ...). The replay stops when
    the lookup ends.
    """
    lookup = TopicLookup(service_address, **options)
    steps: list[ReplayStep] = []
    pending_retry: int | None = None
    entries = [dict(e) for e in trace]
    if not entries or entries[0].get("event") != "start":
        first = int(entries[0].get("now_ms", 0)) if entries else 0
        entries.insert(0, {"now_ms": first, "event": "start"})
    for entry in entries:
        event = str(entry.get("event", "response"))
        if pending_retry is not None and event != "retry_timer" and auto_retry:
            action = lookup.on_retry_timer(pending_retry)
            steps.append(ReplayStep(pending_retry, "retry_timer (auto)", action))
            pending_retry = None
        if "now_ms" in entry:
            now = int(entry["now_ms"])
        elif event == "retry_timer" and pending_retry is not None:
            now = pending_retry
        else:
            raise ValueError(f"trace entry {entry!r} has no now_ms")
        action = _send(lookup, now, entry)
        steps.append(ReplayStep(now, event, action))
        pending_retry = action.at_ms if action.kind == "retry_at" else None
        if lookup.is_finished:
            break
    if pending_retry is not None and auto_retry and not lookup.is_finished:
        action = lookup.on_retry_timer(pending_retry)
        steps.append(ReplayStep(pending_retry, "retry_timer (auto)", action))
    return steps


def explain(steps: Iterable[ReplayStep]) -> str:
    """The steps as text, one event and its reason per entry."""
    return "\n".join(str(s) for s in steps)
