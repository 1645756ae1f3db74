"""The rest of the public API: routers, hashers, keys, package surface."""

from __future__ import annotations

import array
import base64
import doctest
import importlib.metadata
import random
import time

import numpy as np
import pytest

import pulsar_routing as pr
from pulsar_routing import _pulsar_routing


def test_package_surface() -> None:
    assert pr.__version__ == importlib.metadata.version("pulsar-routing")
    assert sorted(pr.__all__) == sorted(set(pr.__all__))
    for name in pr.__all__:
        assert hasattr(pr, name), name
    # Everything public in the native module is re-exported.
    native = {name for name in dir(_pulsar_routing) if not name.startswith("_")}
    assert native <= set(pr.__all__)


def test_docstring_examples() -> None:
    result = doctest.testmod(pr, raise_on_error=False, verbose=False)
    assert result.attempted > 0
    assert result.failed == 0


def test_spec_examples() -> None:
    assert pr.murmur3_32("k1") == 2110152746
    assert pr.murmur3_32_raw("k1") == (-37330902) & 0xFFFFFFFF
    assert pr.murmur3_32(b"hello") == 613153351
    assert pr.murmur3_32("test") == 980144659
    assert pr.murmur3_32(b"") == 0
    assert pr.java_string_hash("😀") == 1772899
    assert pr.java_string_hashcode("polygenelubricants") == -(2**31)
    assert pr.java_string_hash("polygenelubricants") == 0
    assert pr.crc32("persistent://public/default/my-topic") == 732775927
    assert pr.partition_for_key("", 7) == 0
    assert pr.sign_safe_mod(-7, 3) == 2
    assert pr.sign_safe_mod(-1, -3) == -4
    assert pr.sign_safe_mod(-(2**63), -1) == 0


def test_key_bytes_hash_the_base64_text() -> None:
    for scheme in ("java_string", "murmur3_32"):
        assert pr.routing_key_hash(b"hello", scheme) == pr.routing_key_hash("aGVsbG8=", scheme)
    assert pr.routing_key_hash(b"hello", "murmur3_32") == pr.murmur3_32(b"aGVsbG8=")
    data = bytes(range(200))
    text = base64.b64encode(data).decode()
    assert pr.partition_for_key_bytes(data, 1000) == pr.partition_for_key(text, 1000)
    # Any buffer of bytes is a keyBytes key for the one-key function.
    assert pr.partition_for_key_bytes(bytearray(data), 1000) == pr.partition_for_key(text, 1000)


def test_lone_surrogates_are_routed_like_java() -> None:
    # A Java String can hold a lone surrogate: hashCode() sees the unit, and
    # getBytes(UTF_8) writes "?" for it.
    assert pr.java_string_hashcode("\ud800") == 0xD800
    assert pr.java_string_hash("a\udc00") == 97 * 31 + 0xDC00
    assert pr.murmur3_32("\ud800x") == pr.murmur3_32(b"?x")
    assert pr.crc32("\udfff") == pr.crc32(b"?")
    # Two surrogate code points that pair up are the character they encode.
    for scheme in ("java_string", "murmur3_32"):
        assert pr.partition_for_key("\ud83d\ude00", 1009, scheme) == pr.partition_for_key(
            "😀", 1009, scheme
        )
        lone = "key\udcff"
        want = pr.routing_key_hash(lone, scheme) % 17
        assert pr.partition_for_key(lone, 17, scheme) == want
        assert pr.RoundRobinRouter(scheme).choose_partition(lone, 17) == want
        assert pr.SinglePartitionRouter(0, scheme).choose_partition(lone, 17) == want
        assert pr.partitions_for_keys([lone], 17, scheme).tolist() == [want]


def test_round_robin_router() -> None:
    router = pr.RoundRobinRouter("murmur3_32", start_partition_index=5, partition_switch_ms=0)
    assert router.scheme == "murmur3_32"
    assert router.start_partition_index == 5
    assert router.partition_switch_ms == 1  # clamped to at least 1, as Java does
    assert repr(router) == (
        'RoundRobinRouter("murmur3_32", start_partition_index=5, batching=True, '
        "partition_switch_ms=1)"
    )
    assert router.choose_partition(None, 7, now_ms=100) == (100 + 5) % 7
    # The default batching interval is Java's 10 ms.
    batching = pr.RoundRobinRouter(start_partition_index=0)
    assert batching.partition_switch_ms == 10
    assert batching.choose_partition(None, 1000, now_ms=12_345) == 1234 % 1000
    unbatched = pr.RoundRobinRouter(start_partition_index=0, batching=False)
    assert unbatched.partition_switch_ms is None
    assert [unbatched.choose_partition(None, 3) for _ in range(4)] == [0, 1, 2, 0]
    # A keyed message does not move the counter.
    assert unbatched.choose_partition("k", 3) == pr.partition_for_key("k", 3)
    assert unbatched.choose_partition(None, 3) == 1


def test_round_robin_reads_the_clock_when_not_given_the_time() -> None:
    router = pr.RoundRobinRouter(start_partition_index=0, partition_switch_ms=1)
    n = 2**31 - 1
    before = time.time_ns() // 1_000_000
    got = router.choose_partition(None, n)
    after = time.time_ns() // 1_000_000
    assert before % n <= got <= after % n or after % n < before % n


def test_round_robin_random_start() -> None:
    random.seed(1234)
    first = pr.RoundRobinRouter().start_partition_index
    random.seed(1234)
    assert pr.RoundRobinRouter().start_partition_index == first
    starts = {pr.RoundRobinRouter().start_partition_index for _ in range(50)}
    assert all(0 <= start < 2**31 for start in starts)
    assert len(starts) > 40


def test_single_partition_router() -> None:
    router = pr.SinglePartitionRouter(2, "murmur3_32")
    assert (router.partition_index, router.scheme) == (2, "murmur3_32")
    assert repr(router) == 'SinglePartitionRouter(2, "murmur3_32")'
    assert router.choose_partition(None, 3, now_ms=99) == 2
    assert router.choose_partition("k", 3) == pr.partition_for_key("k", 3, "murmur3_32")


def test_custom_router_repr() -> None:
    def choose(key: str | bytes | None, n: int) -> int:
        return 0

    assert repr(pr.CustomRouter(choose)).startswith("CustomRouter(<function")


def test_message_router_protocol() -> None:
    routers: list[pr.MessageRouter] = [
        pr.RoundRobinRouter(start_partition_index=0),
        pr.SinglePartitionRouter(0),
        pr.CustomRouter(lambda key, n: 0),
    ]
    for router in routers:
        assert router.choose_partition(None, 1, now_ms=0) == 0


def test_message_routing_mode() -> None:
    mode = pr.MessageRoutingMode
    assert mode.RoundRobinPartition != mode.SinglePartition
    assert mode.CustomPartition == mode.CustomPartition
    assert repr(mode.SinglePartition) == "MessageRoutingMode.SinglePartition"
    assert len({mode.RoundRobinPartition, mode.SinglePartition, mode.CustomPartition}) == 3


def test_hashers() -> None:
    data = bytes(range(256)) * 40  # past the size where the GIL is released
    murmur = pr.Murmur3Hasher(data[:3])
    assert murmur.update(data[3:100]) is murmur
    forked = murmur.copy()
    murmur.update(data[100:])
    assert murmur.finalize() == pr.murmur3_32(data)
    assert murmur.finalize_raw() == pr.murmur3_32_raw(data)
    assert forked.finalize() == pr.murmur3_32(data[:100])
    # Finalizing does not end the stream.
    assert murmur.update(b"x").finalize() == pr.murmur3_32(data + b"x")

    crc = pr.Crc32().update(memoryview(data)[:5000]).update(bytearray(data[5000:]))
    assert crc.finalize() == pr.crc32(data)
    assert crc.copy().update(b"!").finalize() == pr.crc32(data + b"!")
    assert crc.finalize() == pr.crc32(data)
    assert pr.Crc32().finalize() == 0
    assert pr.Murmur3Hasher().finalize() == 0


def test_buffers_of_every_kind() -> None:
    data = b"\x01\x02\x03\x04\x05\x06\x07\x08"
    want = pr.murmur3_32(data)
    assert pr.murmur3_32(bytearray(data)) == want
    assert pr.murmur3_32(memoryview(data)) == want
    assert pr.murmur3_32(array.array("B", data)) == want
    # Like hashlib, a buffer is hashed as its raw bytes, whatever its format.
    assert pr.murmur3_32(np.frombuffer(data, dtype=np.uint32)) == want
    assert pr.murmur3_32(array.array("Q", data)) == want
    big = np.arange(10_000, dtype=np.int64)
    assert pr.crc32(big) == pr.crc32(big.tobytes())


def test_java_lossy_utf8_differs_from_python_replace() -> None:
    encoded_surrogate = b"\xed\xa0\x80!"
    assert pr.java_lossy_utf8(encoded_surrogate) == "\ufffd!"
    assert encoded_surrogate.decode(errors="replace") == "\ufffd\ufffd\ufffd!"
    assert pr.java_string_hash_bytes(encoded_surrogate) == pr.java_string_hash("\ufffd!")


def test_huge_inputs_do_not_crash() -> None:
    key = "é" * 100_000
    assert 0 <= pr.partition_for_key(key, 7) < 7
    assert pr.partitions_for_keys(np.array([key]), 7).tolist() == [pr.partition_for_key(key, 7)]


@pytest.mark.parametrize("scheme", ["java_string", "murmur3_32"])
def test_partition_equals_hash_mod_n(scheme: str) -> None:
    for key in ["", "a", "user-42", "日本", "😀"]:
        for n in (1, 2, 3, 7, 100, 2**31 - 1):
            want = pr.routing_key_hash(key, scheme) % n
            assert pr.partition_for_key(key, n, scheme) == want
