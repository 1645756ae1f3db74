"""pulsar_routing.clients.java_router: the Python client's message_router
that routes as Java does (the wire test in testkit/tests runs it in the
real client)."""

from __future__ import annotations

import random
import subprocess
import sys
import threading

import pytest

from pulsar_routing.clients import CPP_MAX_PARTITION, JavaRouter, java_router
from pulsar_routing.routers import (
    RoundRobinRouter,
    SinglePartitionRouter,
    UnknownHashingSchemeError,
    partition_for_key,
)


class Message:
    """What the router reads of pulsar.Message."""

    def __init__(self, key: str = "") -> None:
        self.key = key

    def partition_key(self) -> str:
        return self.key


KEYS = ["user-42", "a", "é", "键", "😀", "x" * 3000, "\x00", "polygenelubricants"]


@pytest.mark.parametrize("scheme", ["java_string", "murmur3_32"])
@pytest.mark.parametrize("mode", ["round_robin", "single"])
def test_keyed_messages_go_where_java_sends_them(scheme: str, mode: str) -> None:
    router = java_router(scheme, mode)
    for n in (1, 2, 3, 7, 12, 16, 100, 1000, 32767):
        for key in KEYS:
            assert router(Message(key), n) == partition_for_key(key, n, scheme)


def test_keyless_round_robin_without_batching_is_java_counter() -> None:
    router = java_router(batching=False, start_index=5)
    core = RoundRobinRouter(start_partition_index=5, batching=False)
    got = [router(Message(), 7) for _ in range(20)]
    assert got == [core.choose_partition(None, 7) for _ in range(20)]
    # A keyed message does not move the counter.
    router(Message("k"), 7)
    assert router(Message(), 7) == core.choose_partition(None, 7)


def test_keyless_with_batching_reads_the_injected_clock() -> None:
    now = [1_700_000_000_003]
    router = java_router(start_index=2, partition_switch_ms=10, clock=lambda: now[0])
    core = RoundRobinRouter(start_partition_index=2, partition_switch_ms=10)
    for step in range(50):
        now[0] += 3 * step
        assert router(Message(), 12) == core.choose_partition(None, 12, now_ms=now[0])


def test_keyless_with_batching_reads_the_wall_clock_by_default() -> None:
    router = java_router(start_index=0, partition_switch_ms=1_000_000_000)
    core = RoundRobinRouter(start_partition_index=0, partition_switch_ms=1_000_000_000)
    # One slot lasts 11 days: both read the same one.
    assert router(Message(), 100) == core.choose_partition(None, 100)


def test_start_is_drawn_as_java_draws_it_at_the_first_message() -> None:
    random.seed(25)
    expected = random.Random(25).randrange(12)
    router = java_router(batching=False)
    assert router.router is None
    assert router(Message(), 12) == expected
    assert isinstance(router.router, RoundRobinRouter)
    assert router.router.start_partition_index == expected
    # Drawn once: a later partition count keeps the start, as Java's router does.
    assert router(Message(), 100) == expected + 1


def test_single_partition_mode() -> None:
    router = java_router(mode="single", start_index=3)
    assert isinstance(router.router, SinglePartitionRouter)
    assert {router(Message(), 7) for _ in range(10)} == {3}
    drawn = java_router(mode="single")
    first = drawn(Message(), 5)
    assert 0 <= first < 5 and {drawn(Message(), 5) for _ in range(10)} == {first}


def test_empty_key_is_keyless_as_the_client_sends_it() -> None:
    # The client's send() drops partition_key="" and hands the router "".
    router = java_router(batching=False, start_index=4)
    assert router(Message(""), 12) == 4
    assert partition_for_key("", 12) == 0  # what Java's key("") would do


def test_partitions_above_32767_are_refused_not_wrapped() -> None:
    router = java_router()
    n = 70_000
    keys = [f"key-{i}" for i in range(2000)]
    high = [k for k in keys if partition_for_key(k, n) > CPP_MAX_PARTITION]
    low = [k for k in keys if partition_for_key(k, n) <= CPP_MAX_PARTITION]
    assert high and low
    # -1 makes the client fail the send; the short cast would have sent
    # 65537 to partition 1.
    assert {router(Message(k), n) for k in high} == {-1}
    assert [router(Message(k), n) for k in low] == [partition_for_key(k, n) for k in low]
    assert java_router(start_index=40_000, batching=False)(Message(), n) == -1


def test_bad_options_fail_when_the_router_is_made() -> None:
    with pytest.raises(UnknownHashingSchemeError):
        java_router("boost")
    with pytest.raises(ValueError, match="mode"):
        java_router(mode="custom")


def test_threads_share_one_router_and_one_drawn_start() -> None:
    router = java_router(batching=False)
    out: list[int] = []
    lock = threading.Lock()

    def send() -> None:
        got = [router(Message(), 1000) for _ in range(500)]
        with lock:
            out.extend(got)

    threads = [threading.Thread(target=send) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert isinstance(router.router, RoundRobinRouter)
    start = router.router.start_partition_index
    # Every counter value was taken once: 2000 consecutive partitions.
    assert sorted(out) == sorted((start + i) % 1000 for i in range(2000))


def test_repr_and_properties() -> None:
    router = java_router("murmur3_32", "single", start_index=1)
    assert isinstance(router, JavaRouter)
    assert (router.scheme, router.mode) == ("murmur3_32", "single")
    assert "murmur3_32" in repr(router)


def test_module_imports_without_pulsar_client() -> None:
    code = (
        "import sys; sys.modules['pulsar'] = None; sys.modules['_pulsar'] = None\n"
        "import pulsar_routing.clients as c\n"
        "assert 'pulsar' not in [m for m in sys.modules if sys.modules[m] is not None]\n"
        "print(c.java_router()(type('M', (), {'partition_key': lambda self: 'user-42'})(), 12))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "4"
