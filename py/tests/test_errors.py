"""Exception classes, messages (Java's wording) and builtin errors for bad types."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import pulsar_routing as pr

# For calls that break the stub's types on purpose.
untyped: Any = pr

ILLEGAL = "Illegal partition index chosen by the message routing policy: "


def test_hierarchy() -> None:
    assert issubclass(pr.PulsarRoutingError, ValueError)
    for error in (
        pr.PartitionCountError,
        pr.IllegalPartitionIndexError,
        pr.RoutingConfigError,
        pr.UnknownHashingSchemeError,
        pr.DivisionByZeroError,
        pr.TopicNameError,
        pr.BundleError,
    ):
        assert issubclass(error, pr.PulsarRoutingError)
        assert error.__module__ == "pulsar_routing"
    # Also caught where Python's own `x % 0` would be.
    assert issubclass(pr.DivisionByZeroError, ZeroDivisionError)


@pytest.mark.parametrize(
    ("n", "message"),
    [
        (0, "number of partitions must be at least 1, got 0"),
        (-3, "number of partitions must be at least 1, got a negative number"),
        (2**31, "number of partitions must be at most 2147483647"),
    ],
)
def test_partition_count(n: int, message: str) -> None:
    calls: list[Any] = [
        lambda: pr.partition_for_key("k", n),
        lambda: pr.partition_for_key_bytes(b"k", n),
        lambda: pr.partitions_for_keys(["k"], n),
        lambda: pr.check_partition(0, n),
        lambda: pr.RoundRobinRouter().choose_partition("k", n),
        lambda: pr.SinglePartitionRouter(0).choose_partition(None, n),
        lambda: pr.CustomRouter(lambda key, n: 0).choose_partition("k", n),
    ]
    for call in calls:
        with pytest.raises(pr.PartitionCountError) as raised:
            call()
        assert str(raised.value) == message


def test_largest_partition_count_is_fine() -> None:
    assert pr.partition_for_key("k", 2**31 - 1) == pr.java_string_hash("k")


def test_unknown_scheme() -> None:
    message = 'unknown hashing scheme: expected "java_string" or "murmur3_32"'
    with pytest.raises(pr.UnknownHashingSchemeError) as raised:
        pr.partition_for_key("k", 3, "BoostHash")
    assert str(raised.value) == message
    with pytest.raises(pr.UnknownHashingSchemeError):
        pr.RoundRobinRouter("murmur3")
    with pytest.raises(pr.UnknownHashingSchemeError):
        pr.SinglePartitionRouter(0, "")
    # Java's enum constant names are accepted too.
    assert pr.partition_for_key("k", 1000, "Murmur3_32Hash") == pr.partition_for_key(
        "k", 1000, "murmur3_32"
    )
    assert pr.RoundRobinRouter("JavaStringHash").scheme == "java_string"


def test_division_by_zero() -> None:
    with pytest.raises(pr.DivisionByZeroError) as raised:
        pr.sign_safe_mod(7, 0)
    assert str(raised.value) == "/ by zero"
    with pytest.raises(ZeroDivisionError):
        pr.sign_safe_mod(0, 0)


def test_illegal_partition_index() -> None:
    with pytest.raises(pr.IllegalPartitionIndexError) as raised:
        pr.check_partition(5, 5)
    assert str(raised.value) == ILLEGAL + "5"
    assert raised.value.partition == 5
    with pytest.raises(pr.IllegalPartitionIndexError, match=f"^{ILLEGAL}-1$"):
        pr.check_partition(-1, 5)
    assert pr.check_partition(4, 5) == 4

    single = pr.SinglePartitionRouter(3)
    assert single.choose_partition(None, 4) == 3
    with pytest.raises(pr.IllegalPartitionIndexError, match=f"^{ILLEGAL}3$"):
        single.choose_partition(None, 3)


@pytest.mark.parametrize(
    ("answer", "shown"),
    [
        (4, "4"),
        (-1, "-1"),
        (2**31, "2147483648"),
        (2**70, str(2**70)),
        (None, "None"),
        (1.0, "1.0"),
        ("1", "'1'"),
    ],
)
def test_custom_router_bad_answers(answer: object, shown: str) -> None:
    router = untyped.CustomRouter(lambda key, n: answer)
    with pytest.raises(pr.IllegalPartitionIndexError) as raised:
        router.choose_partition("k", 4)
    assert str(raised.value) == ILLEGAL + shown
    assert raised.value.partition == answer


def test_custom_router_good_answers_and_exceptions() -> None:
    seen: list[tuple[object, int]] = []

    def choose(key: str | bytes | None, n: int) -> int:
        seen.append((key, n))
        return n - 1

    router = pr.CustomRouter(choose)
    assert router.choose is choose
    assert router.choose_partition("k", 4) == 3
    assert router.choose_partition(b"\x00", 2, now_ms=5) == 1
    assert router.choose_partition(None, 1) == 0
    assert seen == [("k", 4), (b"\x00", 2), (None, 1)]
    # Integers of other types (numpy) count as ints.
    assert pr.CustomRouter(lambda key, n: np.int64(2)).choose_partition("k", 3) == 2

    def broken(key: str | bytes | None, n: int) -> int:
        raise KeyError("from the user function")

    with pytest.raises(KeyError, match="from the user function"):
        pr.CustomRouter(broken).choose_partition("k", 3)
    with pytest.raises(TypeError, match="callable"):
        untyped.CustomRouter(42)


def test_routing_config() -> None:
    mode = pr.MessageRoutingMode
    assert pr.resolve_routing_mode(None, False) == mode.RoundRobinPartition
    assert pr.resolve_routing_mode(None, True) == mode.CustomPartition
    assert pr.resolve_routing_mode(mode.SinglePartition, False) == mode.SinglePartition
    assert pr.resolve_routing_mode(mode.CustomPartition, True) == mode.CustomPartition
    with pytest.raises(pr.RoutingConfigError) as raised:
        pr.resolve_routing_mode(mode.CustomPartition, False)
    assert str(raised.value) == (
        "When 'messageRoutingMode' is CustomPartition, 'messageRouter' should be set"
    )
    with pytest.raises(pr.RoutingConfigError) as raised:
        pr.resolve_routing_mode(mode.SinglePartition, True)
    assert str(raised.value) == (
        "When 'messageRouter' is set, 'messageRoutingMode' should be set as CustomPartition"
    )

    assert pr.partition_switch_ms() == 10
    assert pr.partition_switch_ms(3, 1500) == 4
    assert pr.partition_switch_ms(10, 5000) == 50
    with pytest.raises(pr.RoutingConfigError) as raised:
        pr.partition_switch_ms(0, 1000)
    assert str(raised.value) == "configured value for partition switch frequency must be >= 1"
    with pytest.raises(pr.RoutingConfigError) as raised:
        pr.partition_switch_ms(10, 999)
    assert str(raised.value) == "configured value for batch delay must be at least 1ms"


def test_wrong_argument_types_are_type_errors() -> None:
    calls: list[Any] = [
        lambda: untyped.partition_for_key(b"bytes", 3),
        lambda: untyped.partition_for_key_bytes("str", 3),
        lambda: untyped.partition_for_key("k", "3"),
        lambda: untyped.partition_for_key("k", 3.0),
        lambda: untyped.partition_for_key("k", 3, 1),
        lambda: untyped.murmur3_32(123),
        lambda: untyped.crc32(None),
        lambda: untyped.java_string_hash(b"bytes"),
        lambda: untyped.java_string_hash_bytes("str"),
        lambda: untyped.java_lossy_utf8("str"),
        lambda: untyped.sign_safe_mod("1", 2),
        lambda: untyped.routing_key_hash(None),
        lambda: untyped.routing_key_hash(1),
        lambda: untyped.RoundRobinRouter().choose_partition(1, 3),
        lambda: untyped.RoundRobinRouter().choose_partition(bytearray(b"k"), 3),
        lambda: untyped.SinglePartitionRouter(0).choose_partition(["k"], 3),
        lambda: untyped.CustomRouter(lambda key, n: 0).choose_partition(1.5, 3),
        lambda: untyped.resolve_routing_mode("CustomPartition", True),
        lambda: untyped.Murmur3Hasher().update("str"),
        lambda: untyped.Crc32("str"),
    ]
    for call in calls:
        with pytest.raises(TypeError):
            call()


def test_out_of_range_integers_are_overflow_errors() -> None:
    with pytest.raises(OverflowError):
        pr.sign_safe_mod(0, 2**31)
    with pytest.raises(OverflowError):
        pr.sign_safe_mod(2**63, 3)
    with pytest.raises(OverflowError):
        pr.SinglePartitionRouter(2**31)


def test_strided_buffers_are_buffer_errors() -> None:
    strided = memoryview(b"abcdef")[::2]
    with pytest.raises(BufferError):
        pr.murmur3_32(strided)
    with pytest.raises(BufferError):
        pr.Crc32().update(strided)
    with pytest.raises(BufferError):
        pr.partition_for_key_bytes(np.arange(10, dtype=np.uint8)[::3], 3)
