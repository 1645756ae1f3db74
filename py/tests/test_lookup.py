"""The lookup drivers from Python: step by step, replayed traces, the
coalescing table and the throttle (spec section 6)."""

from __future__ import annotations

import ctypes
import os
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from pulsar_routing import (
    CoalescingTableFullError,
    LookupCoalescer,
    LookupFailedError,
    LookupThrottle,
    LookupTimeoutError,
    MetadataCoalescer,
    PartitionedMetadataLookup,
    PulsarRoutingError,
    RedirectLoopError,
    TooManyRedirectsError,
    TooManyRequestsError,
    TopicLookup,
    TopicLookupError,
    producer_start_topics,
)
from pulsar_routing.lookup import explain, replay

SERVICE = "pulsar://proxy:6650"


def test_step_by_step_redirect_and_connect() -> None:
    lookup = TopicLookup(SERVICE)
    first = lookup.start(0)
    assert first.kind == "send_lookup"
    assert (first.logical_address, first.authoritative) == (SERVICE, False)
    assert "first lookup" in first.reason
    redirected = lookup.on_response(
        "redirect", 3, broker_service_url="pulsar://b2:6650", authoritative=True
    )
    assert (redirected.logical_address, redirected.authoritative) == ("pulsar://b2:6650", True)
    done = lookup.on_response(
        "connect",
        5,
        broker_service_url="pulsar://b2:6650",
        authoritative=True,
        proxy_through_service_url=True,
    )
    assert done.kind == "done"
    # Java: through the hop that answered, which is the broker b2 itself.
    assert (done.logical_address, done.physical_address, done.use_proxy) == (
        "pulsar://b2:6650",
        "pulsar://b2:6650",
        True,
    )
    assert repr(done).startswith("LookupAction.done(")
    assert lookup.chain == [(SERVICE, False), ("pulsar://b2:6650", True)]
    assert lookup.on_connection_failed(6).kind == "ignored"


def test_go_profile_goes_through_the_proxy() -> None:
    lookup = TopicLookup(SERVICE, profile="go")
    lookup.start(0)
    a = lookup.on_response(
        "redirect", 1, broker_service_url="pulsar://b1:6650", proxy_through_service_url=True
    )
    assert (a.logical_address, a.physical_address, a.send_properties) == (
        "pulsar://b1:6650",
        SERVICE,
        False,
    )
    with pytest.raises(ValueError):
        TopicLookup(SERVICE, profile="rust")


def test_failures_are_typed_exceptions() -> None:
    lookup = TopicLookup(SERVICE)
    lookup.start(0)
    failed = lookup.on_response("failed", 1, error="TopicNotFound", message="no such topic")
    assert failed.kind == "failed"
    assert (failed.server_error, failed.server_message) == ("TopicNotFound", "no such topic")
    with pytest.raises(LookupFailedError) as info:
        failed.raise_for_error()
    assert info.value.server_error == "TopicNotFound"
    assert isinstance(info.value, TopicLookupError)
    assert isinstance(info.value, PulsarRoutingError)

    lookup = TopicLookup(SERVICE, retry=False, max_redirects=2)
    lookup.start(0)
    for i in range(2):
        lookup.on_response("redirect", i, broker_service_url=f"pulsar://b{i}:1")
    last = lookup.on_response("redirect", 3, broker_service_url="pulsar://b9:1")
    exc = last.exception()
    assert isinstance(exc, TooManyRedirectsError)
    assert str(exc) == "Too many redirects: 2"
    assert exc.limit == 2


def test_redirect_loop_carries_the_chain() -> None:
    lookup = TopicLookup(SERVICE, retry=False, detect_redirect_loops=True)
    lookup.start(0)
    lookup.on_response("redirect", 1, broker_service_url="pulsar://a:1", authoritative=True)
    lookup.on_response("redirect", 2, broker_service_url="pulsar://b:1", authoritative=True)
    looped = lookup.on_response(
        "redirect", 3, broker_service_url="pulsar://a:1", authoritative=True
    )
    with pytest.raises(RedirectLoopError) as info:
        looped.raise_for_error()
    assert [hop for hop, _ in info.value.chain] == [SERVICE, "pulsar://a:1", "pulsar://b:1", "pulsar://a:1"]


def test_replay_leader_change_recovered_by_retry() -> None:
    steps = replay(
        [
            {"now_ms": 1_000, "event": "start"},
            {"now_ms": 1_004, "kind": "failed", "error": "ServiceNotReady", "message": "leader changing"},
            {"now_ms": 1_200, "kind": "redirect", "url": "pulsar://leader:6650", "authoritative": True},
            {"now_ms": 1_202, "kind": "connect", "url": "pulsar://leader:6650", "authoritative": True},
        ],
        service_address=SERVICE,
        jitter_seed=1,
    )
    kinds = [(s.event, s.action.kind) for s in steps]
    assert kinds == [
        ("start", "send_lookup"),
        ("response", "retry_at"),
        ("retry_timer (auto)", "send_lookup"),
        ("response", "send_lookup"),
        ("response", "done"),
    ]
    retry = steps[1].action
    assert retry.error_kind == "server_error"
    assert retry.delay_ms is not None and 90 <= retry.delay_ms <= 100
    assert "leader changing" in retry.reason
    assert steps[2].now_ms == retry.at_ms
    assert steps[-1].action.attempt == 2
    assert "owns the topic" in explain(steps)


def test_replay_redirects_that_never_converge() -> None:
    trace = []
    now = 0
    for i in range(2_000):
        now += 50
        trace.append({"now_ms": now, "kind": "redirect", "url": f"pulsar://b{i}:6650"})
    steps = replay(trace, service_address=SERVICE, operation_timeout_ms=2_000)
    last = steps[-1].action
    assert last.kind == "failed"
    assert last.error_kind == "deadline_exceeded"
    exc = last.exception()
    assert isinstance(exc, LookupTimeoutError)
    assert exc.last_error == "Too many redirects: 20"


def test_partitioned_metadata_and_the_producer_plan() -> None:
    m = PartitionedMetadataLookup(SERVICE, metadata_auto_creation=False)
    assert m.start(0).kind == "connect"
    failed = m.on_connected(False, 1)
    assert failed.kind == "failed"
    assert failed.error_kind == "feature_not_supported"
    m = PartitionedMetadataLookup(SERVICE)
    m.start(0)
    assert m.on_connected(True, 1).metadata_auto_creation
    done = m.on_response(2, partitions=3)
    assert (done.kind, done.partitions) == ("done", 3)
    assert producer_start_topics("persistent://t/ns/x", 3) == [
        f"persistent://t/ns/x-partition-{i}" for i in range(3)
    ]
    assert producer_start_topics("persistent://t/ns/x", 0) == ["persistent://t/ns/x"]
    m = PartitionedMetadataLookup(SERVICE)
    m.start(0)
    m.on_connected(True, 1)
    assert m.on_response(2, error="AuthenticationError").kind == "failed"


def test_coalescer_completes_every_waiter_across_threads() -> None:
    table = LookupCoalescer(4)
    leaders = []
    barrier = threading.Barrier(8)

    def worker(i: int) -> None:
        barrier.wait()
        leaders.append(table.join("persistent://t/ns/a", {"k": "v"}, waiter=i))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(leaders) == [False] * 7 + [True]
    assert sorted(table.complete("persistent://t/ns/a", {"k": "v"})) == list(range(8))
    assert len(table) == 0
    assert table.complete("persistent://t/ns/a", {"k": "v"}) == []

    small = LookupCoalescer(1)
    small.join("a")
    with pytest.raises(CoalescingTableFullError) as info:
        small.join("b")
    assert info.value.capacity == 1


def test_throttle_limits() -> None:
    t = LookupThrottle(2, 3)
    assert [t.acquire(), t.acquire(), t.acquire()] == ["send_now", "send_now", "queued"]
    with pytest.raises(TooManyRequestsError) as info:
        t.acquire()
    assert (info.value.in_flight, info.value.queued) == (2, 1)
    assert str(info.value).startswith("Requests number out of config")
    assert t.release()
    assert (t.in_flight, t.queued) == (2, 0)
    # A queued lookup given up before it was sent leaves the queue.
    assert t.acquire() == "queued"
    assert t.cancel_queued()
    assert (t.in_flight, t.queued) == (2, 0)
    assert not t.cancel_queued()


def test_coalescer_keys_are_maps_and_exact() -> None:
    table = LookupCoalescer(4)
    assert table.join("t", {"a": "1", "b": "2"}, waiter="first")
    # The same map in another order is the same lookup...
    assert not table.join("t", {"b": "2", "a": "1"}, waiter="second")
    # ...but other properties, or none, are another one.
    assert table.join("t", {"a": "1"}, waiter="third")
    assert table.join("t", waiter="fourth")
    assert len(table) == 3
    assert table.complete("t", {"b": "2", "a": "1"}) == ["first", "second"]
    assert table.complete("t") == ["fourth"]


def test_a_lookup_driven_from_several_threads_stays_consistent() -> None:
    lookup = TopicLookup(SERVICE)
    lookup.start(0)
    results = []

    def respond() -> None:
        results.append(
            lookup.on_response("connect", 1, broker_service_url="pulsar://b:6650").kind
        )

    threads = [threading.Thread(target=respond) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Exactly one response is taken; the others come after the end.
    assert sorted(results) == ["done"] + ["ignored"] * 7


def test_backoff_schedule() -> None:
    from pulsar_routing import Backoff

    b = Backoff(100, 60_000, 1_000)
    # Doubling from 100 ms, then cut to the mandatory stop 1 s after the first.
    assert [b.next(0), b.next(100), b.next(300), b.next(700)] == [100, 200, 400, 300]
    b.reset()
    # Jitter lowers a delay by random % (delay // 10), never below the initial one.
    assert b.next(5_000, random=7) == 100
    assert b.next(5_100, random=27) == 200 - 27 % 20


def test_metadata_coalescer_keys_on_topic_auto_creation_and_fallback() -> None:
    # Java's decorator keys partitioned-metadata requests on the topic and
    # both PIP-344 flags: a request differing in either is sent separately.
    table = MetadataCoalescer(4)
    assert table.join("persistent://t/ns/a", waiter="first")
    assert not table.join("persistent://t/ns/a", True, False, waiter="second")
    assert table.join("persistent://t/ns/a", False, waiter="no-auto-create")
    assert table.join("persistent://t/ns/a", False, True, waiter="fallback")
    assert len(table) == 3
    assert table.complete("persistent://t/ns/a") == ["first", "second"]
    assert table.complete("persistent://t/ns/a", False, True) == ["fallback"]
    assert table.complete("persistent://t/ns/a", False, True) == []
    assert len(table) == 1
    assert table.capacity == 4


def test_metadata_coalescer_is_bounded_and_thread_safe() -> None:
    table = MetadataCoalescer(2)
    leaders = []
    barrier = threading.Barrier(8)

    def worker(i: int) -> None:
        barrier.wait()
        leaders.append(table.join("t", waiter=i))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(leaders) == [False] * 7 + [True]
    assert sorted(table.complete("t")) == list(range(8))

    full = MetadataCoalescer(0)
    with pytest.raises(CoalescingTableFullError) as info:
        full.join("t")
    assert info.value.capacity == 0


def test_metadata_failure_without_a_code_is_an_empty_lookup_response() -> None:
    # ClientCnx.handlePartitionResponse: Failed (or no response type)
    # without an error code fails with LookupException("Empty lookup
    # response"), which is retried.
    m = PartitionedMetadataLookup(SERVICE)
    m.start(0)
    m.on_connected(True, 1)
    action = m.on_response(2, failed=True)
    assert action.kind == "retry_at"
    assert action.error_kind == "empty_response"
    assert action.error == "Empty lookup response"
    assert action.server_error is None


def test_a_retry_timer_before_its_time_is_ignored() -> None:
    lookup = TopicLookup(SERVICE)
    lookup.start(0)
    retry = lookup.on_connection_failed(5)
    assert retry.kind == "retry_at" and retry.at_ms is not None
    early = lookup.on_retry_timer(retry.at_ms - 1)
    assert early.kind == "ignored"
    assert "before the retry was due" in early.reason
    again = lookup.on_retry_timer(retry.at_ms)
    assert (again.kind, again.attempt, again.logical_address) == ("send_lookup", 2, SERVICE)

    m = PartitionedMetadataLookup(SERVICE)
    m.start(0)
    retry = m.on_connection_failed(5)
    assert retry.kind == "retry_at" and retry.at_ms is not None
    assert m.on_retry_timer(retry.at_ms - 1).kind == "ignored"
    connect = m.on_retry_timer(retry.at_ms)
    assert (connect.kind, connect.attempt) == ("connect", 2)


def test_go_profile_sends_a_21st_request_and_fails_on_its_answer() -> None:
    lookup = TopicLookup(SERVICE, profile="go", retry=False)
    lookup.start(0)
    for i in range(20):
        a = lookup.on_response("redirect", i, broker_service_url=f"pulsar://b{i}:6650")
        assert (a.kind, a.redirects) == ("send_lookup", i + 1)
    last = lookup.on_response("connect", 20, broker_service_url="pulsar://b20:6650")
    assert (last.kind, last.error_kind) == ("failed", "go_redirect_limit")


def test_every_waiter_gets_the_one_result_of_its_lookup() -> None:
    # Callers on several threads ask for three topics; each waits on a
    # future. The leader of each lookup completes it with one result, and
    # every caller must get exactly the result of its own topic's lookup.
    table = LookupCoalescer(8)
    topics = [f"persistent://t/ns/{name}" for name in "abc"]
    barrier = threading.Barrier(24)
    futures: dict[int, Future[str]] = {}
    leaders: dict[str, int] = {}
    lock = threading.Lock()

    def caller(i: int) -> None:
        topic = topics[i % 3]
        fut: Future[str] = Future()
        with lock:
            futures[i] = fut
        barrier.wait()
        if table.join(topic, {"k": "v"}, waiter=fut):
            with lock:
                leaders[topic] = i

    threads = [threading.Thread(target=caller, args=(i,)) for i in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(leaders) == topics
    for topic in topics:
        result = f"{topic} -> broker of lookup {leaders[topic]}"
        waiters = table.complete(topic, {"k": "v"})
        assert len(waiters) == 8
        for w in waiters:
            assert isinstance(w, Future)
            w.set_result(result)
    assert len(table) == 0
    for i, fut in futures.items():
        topic = topics[i % 3]
        assert fut.done(), f"caller {i} was never completed"
        assert fut.result() == f"{topic} -> broker of lookup {leaders[topic]}"


def test_a_failure_exactly_at_the_deadline_is_retried() -> None:
    # Java's deadline is exclusive: ProducerImpl.connectionFailed gives up
    # only when now > lookupDeadline. The failure at the deadline is retried
    # after the backoff (100 ms less under 10%); the next one ends it.
    lookup = TopicLookup(SERVICE, lookup_timeout_ms=1_000)
    lookup.start(0)
    retry = lookup.on_connection_failed(1_000)
    assert (retry.kind, retry.error_kind, retry.attempt) == ("retry_at", "connection_failed", 1)
    assert retry.delay_ms is not None and 90 < retry.delay_ms <= 100
    assert retry.at_ms == 1_000 + retry.delay_ms
    assert lookup.on_retry_timer(retry.at_ms).attempt == 2
    failed = lookup.on_connection_failed(retry.at_ms)
    assert (failed.kind, failed.error_kind) == ("failed", "deadline_exceeded")
    assert failed.reason == (
        f"Lookup timed out after {retry.at_ms} ms and 2 attempts; "
        "last error: Connection to the broker failed"
    )

    late = TopicLookup(SERVICE, lookup_timeout_ms=1_000)
    late.start(0)
    assert late.on_connection_failed(1_001).kind == "failed"


# The C library, loaded with ctypes, so that the same events can be driven
# through C and through Python and their answers compared. scripts/check.sh
# builds it (scripts/test-c.sh) before the Python tests run.


def _c_library() -> Any:
    root = Path(__file__).resolve().parents[2]
    dirs = [os.environ.get("CARGO_TARGET_DIR", ""), str(root / "target")]
    for d in filter(None, dirs):
        for profile in ("debug", "release"):
            lib = Path(d) / profile / "libpulsar_routing.so"
            if lib.exists():
                return ctypes.CDLL(str(lib))
    pytest.skip("libpulsar_routing.so is not built (cargo build -p pulsar-routing-ffi)")


class _CAction(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_uint32),
        ("logical_address", ctypes.c_char_p),
        ("physical_address", ctypes.c_char_p),
        ("authoritative", ctypes.c_bool),
        ("send_properties", ctypes.c_bool),
        ("use_proxy", ctypes.c_bool),
        ("metadata_auto_creation", ctypes.c_bool),
        ("redirects", ctypes.c_uint32),
        ("attempt", ctypes.c_uint32),
        ("at_ms", ctypes.c_uint64),
        ("delay_ms", ctypes.c_uint64),
        ("partitions", ctypes.c_uint32),
        ("error", ctypes.c_uint32),
        ("server_error", ctypes.c_int32),
        ("reason", ctypes.c_char_p),
    ]


class _CResponse(ctypes.Structure):
    _fields_ = [
        ("response", ctypes.c_int32),
        ("broker_service_url", ctypes.c_char_p),
        ("broker_service_url_tls", ctypes.c_char_p),
        ("authoritative", ctypes.c_bool),
        ("proxy_through_service_url", ctypes.c_bool),
        ("error", ctypes.c_int32),
        ("message", ctypes.c_char_p),
    ]


_C_KINDS = {
    0: "send_lookup",
    1: "retry_at",
    2: "done",
    3: "failed",
    4: "ignored",
    5: "connect",
    6: "send_partitioned_metadata",
}
_RESPONSE_KINDS = {"redirect": 0, "connect": 1, "failed": 2}


def _c_topic_lookup_trace(lib: Any, events: list[dict[str, Any]]) -> list[tuple[str, int, str]]:
    handle = ctypes.c_void_p()
    status = lib.pulsar_routing_topic_lookup_new(
        SERVICE.encode(), None, ctypes.c_size_t(21), ctypes.byref(handle)
    )
    assert status == 0
    out = []
    try:
        for e in events:
            a = _CAction()
            now = ctypes.c_uint64(e["now_ms"])
            if e["event"] == "start":
                status = lib.pulsar_routing_topic_lookup_start(handle, now, ctypes.byref(a))
            elif e["event"] == "connection_failed":
                status = lib.pulsar_routing_topic_lookup_on_connection_failed(
                    handle, now, ctypes.byref(a)
                )
            elif e["event"] == "retry_timer":
                status = lib.pulsar_routing_topic_lookup_on_retry_timer(handle, now, ctypes.byref(a))
            else:
                url = e.get("url", "").encode() or None
                r = _CResponse(
                    _RESPONSE_KINDS[e["kind"]],
                    url,
                    url,
                    e.get("authoritative", False),
                    e.get("proxy", False),
                    e.get("error", -1),
                    e.get("message", "").encode() or None,
                )
                status = lib.pulsar_routing_topic_lookup_on_response(
                    handle, ctypes.byref(r), now, ctypes.byref(a)
                )
            assert status == 0
            out.append((_C_KINDS[a.kind], a.at_ms, a.reason.decode()))
    finally:
        lib.pulsar_routing_topic_lookup_free(handle)
    return out


def _py_topic_lookup_trace(events: list[dict[str, Any]]) -> list[tuple[str, int, str]]:
    lookup = TopicLookup(SERVICE)
    out = []
    for e in events:
        now = e["now_ms"]
        if e["event"] == "start":
            a = lookup.start(now)
        elif e["event"] == "connection_failed":
            a = lookup.on_connection_failed(now)
        elif e["event"] == "retry_timer":
            a = lookup.on_retry_timer(now)
        else:
            a = lookup.on_response(
                e["kind"],
                now,
                broker_service_url=e.get("url"),
                broker_service_url_tls=e.get("url"),
                authoritative=e.get("authoritative", False),
                proxy_through_service_url=e.get("proxy", False),
                error=e.get("error"),
                message=e.get("message"),
            )
        out.append((a.kind, a.at_ms or 0, a.reason))
    return out


def test_c_and_python_explain_a_topic_lookup_alike() -> None:
    lib = _c_library()
    traces: list[list[dict[str, Any]]] = [
        [
            {"now_ms": 0, "event": "start"},
            {"now_ms": 5, "event": "response", "kind": "failed", "error": 6,
             "message": "leader changing"},
            {"now_ms": 105, "event": "retry_timer"},
            {"now_ms": 110, "event": "response", "kind": "redirect",
             "url": "pulsar://broker-2:6650", "authoritative": True},
            {"now_ms": 115, "event": "response", "kind": "connect",
             "url": "pulsar://broker-2:6650", "authoritative": True, "proxy": True},
            {"now_ms": 120, "event": "connection_failed"},
        ],
        [
            {"now_ms": 0, "event": "start"},
            {"now_ms": 3, "event": "response", "kind": "failed", "error": 11,
             "message": "no such topic"},
        ],
        [
            {"now_ms": 0, "event": "start"},
            {"now_ms": 30_000, "event": "connection_failed"},
            {"now_ms": 30_100, "event": "retry_timer"},
            {"now_ms": 30_100, "event": "connection_failed"},
        ],
    ]
    for events in traces:
        python = _py_topic_lookup_trace(events)
        c = _c_topic_lookup_trace(lib, events)
        # The retry timer of the first trace must be due for the trace to
        # mean what it says; the comparison holds either way.
        assert c == python
    kinds = [k for k, _, _ in _py_topic_lookup_trace(traces[2])]
    assert kinds == ["send_lookup", "retry_at", "send_lookup", "failed"]


def test_c_and_python_explain_a_metadata_lookup_alike() -> None:
    lib = _c_library()
    handle = ctypes.c_void_p()
    assert lib.pulsar_routing_partitioned_metadata_new(SERVICE.encode(), None, ctypes.byref(handle)) == 0
    python = PartitionedMetadataLookup(SERVICE)
    message = b"bundle unloading"
    # (event, flag, partitions, server_error, message, now)
    steps: list[tuple[int, bool, int, int, bytes, int]] = [
        (0, False, 0, -1, b"", 0),
        (1, True, 0, -1, b"", 1),
        (3, False, 0, 6, message, 2),
        (5, False, 0, -1, b"", 102),
        (1, True, 0, -1, b"", 103),
        (2, False, 3, -1, b"", 104),
        (4, False, 0, -1, b"", 105),
    ]
    try:
        for event, flag, partitions, error, text, now in steps:
            a = _CAction()
            assert (
                lib.pulsar_routing_partitioned_metadata_on_event(
                    handle,
                    ctypes.c_uint32(event),
                    ctypes.c_bool(flag),
                    ctypes.c_uint32(partitions),
                    ctypes.c_int32(error),
                    text or None,
                    ctypes.c_size_t(len(text)),
                    ctypes.c_uint64(now),
                    ctypes.byref(a),
                )
                == 0
            )
            if event == 0:
                p = python.start(now)
            elif event == 1:
                p = python.on_connected(flag, now)
            elif event == 2:
                p = python.on_response(now, partitions=partitions)
            elif event == 3:
                p = python.on_response(now, error=error, message=text.decode())
            elif event == 4:
                p = python.on_connection_failed(now)
            else:
                p = python.on_retry_timer(now)
            assert (_C_KINDS[a.kind], a.attempt, a.reason.decode()) == (p.kind, p.attempt, p.reason)
    finally:
        lib.pulsar_routing_partitioned_metadata_free(handle)


def test_c_and_python_coalescers_key_properties_as_maps() -> None:
    lib = _c_library()
    orders = [
        [("region", "eu"), ("tier", "gold")],
        [("tier", "gold"), ("region", "eu")],
        # A repeated name keeps its last value, as in a map.
        [("region", "us"), ("tier", "gold"), ("region", "eu")],
    ]
    table = ctypes.c_void_p()
    assert lib.pulsar_routing_lookup_coalescer_new(ctypes.c_size_t(4), ctypes.byref(table)) == 0
    python = LookupCoalescer(4)
    try:
        for i, props in enumerate(orders):
            names = (ctypes.c_char_p * len(props))(*[n.encode() for n, _ in props])
            values = (ctypes.c_char_p * len(props))(*[v.encode() for _, v in props])
            leader = ctypes.c_bool()
            waiters = ctypes.c_uint32()
            assert (
                lib.pulsar_routing_lookup_coalescer_join(
                    table, b"t", names, values, ctypes.c_size_t(len(props)),
                    ctypes.byref(leader), ctypes.byref(waiters),
                )
                == 0
            )
            assert (leader.value, waiters.value) == (i == 0, i + 1)
            assert python.join("t", dict(props)) == (i == 0)
        assert len(python.complete("t", {"tier": "gold", "region": "eu"})) == 3
    finally:
        lib.pulsar_routing_lookup_coalescer_free(table)
