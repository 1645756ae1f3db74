"""Client profiles (Go, C++, Python, pulsar-rs, DotPulsar) and Kafka's partitioners through Python."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

import pulsar_routing as pr

from .golden import golden, rows

PROFILES = ("java", "go", "cpp", "python", "pulsar-rs", "dotpulsar")

HASH_FIELDS = {
    "cpp_java_string_hash": "cpp_java_string",
    "cpp_murmur3_32": "murmur3_32",
    "cpp_boost_hash_boost1_74_x86_64": "cpp_boost_1_62",
    "go_java_string_hash": "go_java_string",
    "go_murmur3_32": "murmur3_32",
}


def test_golden_hash_fields() -> None:
    checked = 0
    for row in golden("hash"):
        data = bytes.fromhex(row["key_hex"])
        for field, hash_name in HASH_FIELDS.items():
            if field in row:
                assert pr.profile_key_hash(data, hash_name) == row[field], (field, row["id"])
                checked += 1
        with pytest.raises(pr.ProfileRouteError, match="BoostHash"):
            pr.profile_key_hash(data, "cpp_boost")
    assert checked > 5 * 1800


def test_golden_hash_fields_of_text() -> None:
    for row in golden("hash"):
        if not row["utf8_valid"]:
            continue
        text = bytes.fromhex(row["key_hex"]).decode()
        assert pr.profile_key_hash(text, "go_java_string") == row["go_java_string_hash"]
        assert pr.profile_key_hash(text, "cpp_java_string") == row["cpp_java_string_hash"]
        assert pr.profile_key_hash(text, "java_string") == row["java_string_hash"]


def _keyed_rows() -> list[dict[str, Any]]:
    return rows("routing", "keyed")


def _cpp_delivered(router_answer: int, n: int) -> int:
    """Where the C++ producer sends the golden C++ router's answer: its
    `short` cast (a no-op up to 32768 partitions); -2 where the send fails."""
    try:
        return pr.cpp_partitioned_producer_check(router_answer, n)
    except pr.ProfileRouteError:
        return -2


def test_golden_keyed_routing_one_at_a_time() -> None:
    keyed = _keyed_rows()
    assert len(keyed) > 13_000
    go_keyless = 0
    for row in keyed:
        key = bytes.fromhex(row["key_utf8_hex"]).decode()
        n, scheme = row["num_partitions"], row["scheme"]
        where = (key, n, scheme)
        assert pr.profile_partition(key, n, "java", scheme=scheme) == row["partition"], where
        expected = _cpp_delivered(row["cpp_partition"], n)
        if expected == -2:
            with pytest.raises(pr.ProfileRouteError, match="Got Invalid Partition"):
                pr.profile_partition(key, n, "cpp", scheme=scheme)
        else:
            assert pr.profile_partition(key, n, "cpp", scheme=scheme) == expected, where
        go = pr.profile_partition(key, n, "go", scheme=scheme)
        if row["go_partition"] is None:
            assert key == "" and go is None, where
            go_keyless += 1
        elif n > 1:  # Go's router returns 0 for one partition before reading the key.
            assert go == row["go_partition"], where
    assert go_keyless > 100


def test_golden_keyed_routing_in_batches() -> None:
    groups: dict[tuple[int, str], list[dict[str, Any]]] = defaultdict(list)
    for row in _keyed_rows():
        groups[row["num_partitions"], row["scheme"]].append(row)
    for (n, scheme), group in groups.items():
        keys = [bytes.fromhex(r["key_utf8_hex"]).decode() for r in group]
        cpp = pr.profile_partitions(keys, n, "cpp", scheme=scheme)
        assert cpp.dtype == np.int32
        assert cpp.tolist() == [_cpp_delivered(r["cpp_partition"], n) for r in group]
        go = pr.profile_partitions(np.array(keys, dtype=object), n, "go", scheme=scheme).tolist()
        expected = [-1 if r["go_partition"] is None else r["go_partition"] for r in group]
        if n > 1:
            assert go == expected
        java = pr.profile_partitions(pa.array(keys), n, "java", scheme=scheme)
        assert java.tolist() == [r["partition"] for r in group]


def test_golden_go_partition_index() -> None:
    checked = 0
    for row in golden("topics"):
        if row.get("go_ok") is True:
            assert pr.go_partition_index(row["input"]) == row["go_partition"], row["input"]
            checked += 1
    assert checked > 50


def test_partition_indexes() -> None:
    assert pr.go_partition_index("my-topic") == -1
    assert pr.go_partition_index("x-partition--1") == 1  # Java: -1
    with pytest.raises(pr.TopicNameError, match="strconv.Atoi"):
        pr.go_partition_index("x-partition-3abc")
    assert pr.cpp_partition_index("x-partition-3") == 3
    assert pr.cpp_partition_index("my-topic") == -1


KEYS = [f"customer-{i:06d}" for i in range(3000)] + ["", "ünïcødé", "键"]
MIXED: list[str | bytes | None] = [*KEYS[:50], None, b"raw-bytes", b"", None]


@pytest.mark.parametrize("profile", ["java", "go", "pulsar-rs", "dotpulsar"])
@pytest.mark.parametrize("n", [1, 7, 12, 16])
def test_batch_matches_one_at_a_time(profile: str, n: int) -> None:
    mode = "round_robin" if profile == "pulsar-rs" else None
    keys: list[str | bytes | None] = [*KEYS, None]
    expected = [pr.profile_partition(k, n, profile, mode=mode) for k in keys]
    want = [-1 if p is None else p for p in expected]
    assert pr.profile_partitions(keys, n, profile, mode=mode).tolist() == want
    assert pr.profile_partitions(np.array(KEYS), n, profile, mode=mode).tolist() == want[:-1]
    assert pr.profile_partitions(pa.array(keys), n, profile, mode=mode).tolist() == want
    assert pr.profile_partitions(pa.chunked_array([keys[:10], keys[10:]]), n, profile, mode=mode).tolist() == want


@pytest.mark.parametrize("profile", ["java", "go", "cpp", "dotpulsar"])
def test_batch_with_bytes_and_none(profile: str) -> None:
    scheme = "java_string" if profile == "cpp" else None
    expected = [pr.profile_partition(k, 12, profile, scheme=scheme) for k in MIXED]
    got = pr.profile_partitions(MIXED, 12, profile, scheme=scheme).tolist()
    assert got == [-1 if p is None else p for p in expected]
    raw = [k for k in MIXED if isinstance(k, bytes)]
    one_by_one = [pr.profile_partition(k, 12, profile, scheme=scheme) for k in raw]
    assert pr.profile_partitions(np.array(raw, dtype="S"), 12, profile, scheme=scheme).tolist() == [
        -1 if p is None else p for p in one_by_one
    ]


def test_profiles_and_schemes() -> None:
    key = "customer-000042"
    assert pr.profile_partition(key, 10) == pr.partition_for_key(key, 10) == 1
    assert pr.profile_partition(key, 10, "go") == 9
    java = pr.profile_partition(key, 10, "java", scheme="murmur3_32")
    for profile in ("go", "cpp", "python"):
        assert pr.profile_partition(key, 10, profile, scheme="Murmur3_32Hash") == java
    assert (java, pr.profile_partition(key, 10, "dotpulsar")) == (4, 2)
    assert pr.profile_partition(key, 10, "pulsar_rs") is None  # keys ignored without RoundRobin
    assert pr.profile_partition(key, 10, "pulsar-rs", mode="round_robin") == 2
    # Key rules: Java routes "" as a key, Go and DotPulsar as no key; Go's ordering key comes first.
    assert pr.profile_partition("", 10) == 0
    assert pr.profile_partition("", 10, "go") is None
    assert pr.profile_partition("", 10, "dotpulsar") is None
    assert pr.profile_partition(None, 10, "go") is None
    assert pr.profile_partition(key, 10, "go", ordering_key="other") == pr.profile_partition("other", 10, "go")
    assert pr.profile_partition(key, 10, "java", ordering_key="other") == 1
    # Java's keyBytes hashes the Base64 text.
    assert pr.profile_partition(b"\x00\x01", 10) == pr.partition_for_key_bytes(b"\x00\x01", 10)
    # Reproducible BoostHash: the build's Boost release names its generation.
    boost = pr.profile_partition(key, 10, "cpp", boost="1.74")
    assert boost == pr.profile_key_hash(key, "cpp_boost_1_62") % 10
    assert pr.profile_partition(key, 10, "python", boost="1.74") == boost
    assert pr.profile_partition(key, 10, "cpp", boost_1_74_x86_64=True) == boost  # deprecated spelling
    assert pr.profile_partition(key, 10, "python") == pr.profile_key_hash(key, "cpp_boost_1_82") % 10
    # Unsigned char only changes non-ASCII keys.
    assert pr.profile_partition(key, 10, "cpp", scheme="java_string", unsigned_char=True) == pr.profile_partition(
        key, 10, "cpp", scheme="java_string"
    )
    assert pr.profile_key_hash_name("cpp", scheme="java_string", unsigned_char=True) == "cpp_java_string_unsigned_char"
    assert pr.profile_key_hash_name("go") == "go_java_string"
    assert pr.profile_key_hash_name("dotpulsar") == "murmur3_32_unmasked"
    assert pr.profile_key_hash_name("cpp") == "cpp_boost"


def test_go_equals_java_on_ascii_for_powers_of_two() -> None:
    ascii_keys = KEYS[:3000]
    for n in (1, 2, 16, 1024):
        assert (pr.profile_partitions(ascii_keys, n, "go") == pr.profile_partitions(ascii_keys, n, "java")).all()
    assert (pr.profile_partitions(ascii_keys, 12, "go") != pr.profile_partitions(ascii_keys, 12, "java")).any()


def test_profile_errors() -> None:
    with pytest.raises(pr.ProfileRouteError, match="BoostHash"):
        pr.profile_partition("k", 3, "cpp")
    with pytest.raises(pr.ProfileRouteError, match="BoostHash"):
        pr.profile_partitions(["k"] * 5000, 3, "cpp")
    assert pr.profile_partitions([None, None], 3, "cpp").tolist() == [-1, -1]  # keyless needs no hash
    with pytest.raises(pr.ProfileRouteError, match="only str"):
        pr.profile_partition(b"k", 3, "python", scheme="murmur3_32")
    with pytest.raises(pr.ProfileConfigError, match="unknown client profile"):
        pr.profile_partition("k", 3, "rust")
    with pytest.raises(pr.ProfileConfigError, match="unknown"):
        pr.profile_partition("k", 3, "go", scheme="sha1")
    with pytest.raises(pr.ProfileConfigError, match="unknown routing mode"):
        pr.profile_partition("k", 3, "go", mode="sticky")
    with pytest.raises(pr.ProfileConfigError, match="the Python client cannot choose"):
        pr.profile_partition("k", 3, "python", scheme="java_string")
    with pytest.raises(pr.ProfileConfigError, match="has no"):
        pr.profile_partition("k", 3, "dotpulsar", scheme="java_string")
    with pytest.raises(pr.ProfileConfigError):
        pr.profile_key_hash(b"k", "md5")
    with pytest.raises(pr.PartitionCountError):
        pr.profile_partition("k", 0, "go")
    with pytest.raises(pr.PartitionCountError):
        pr.profile_partitions(["k"], 0, "go")
    with pytest.raises(TypeError):
        pr.profile_partitions("k", 3, "go")
    with pytest.raises(TypeError, match=r"keys\[1\]"):
        pr.profile_partitions(["k", 3], 3, "go")  # type: ignore[list-item]
    with pytest.raises(TypeError):
        pr.profile_partitions(np.arange(3), 3, "go")
    with pytest.raises(ValueError, match="lone surrogate"):
        pr.profile_partition("\udc80", 3, "go")
    for cls in (pr.ProfileConfigError, pr.ProfileRouteError):
        assert issubclass(cls, pr.PulsarRoutingError) and issubclass(cls, ValueError)


# Kafka


def test_kafka_murmur2() -> None:
    assert pr.kafka_murmur2(b"kafka") == 0xD067CF64
    assert pr.kafka_murmur2("kafka") == pr.kafka_murmur2(bytearray(b"kafka"))
    assert pr.kafka_to_positive(pr.kafka_murmur2(b"giberish123456789")) == 257239820
    assert pr.kafka_to_positive(0x80000000) == 0
    assert pr.kafka_fnv1a(b"kafka") == 0x0D33C4E1
    assert pr.kafka_fnv1a(b"") == 0x7EE3623B


def test_kafka_partition() -> None:
    n = 12
    assert pr.kafka_partition(b"kafka", n) == (0xD067CF64 & 0x7FFFFFFF) % n
    assert pr.kafka_partition("kafka", n) == pr.kafka_partition(memoryview(b"kafka"), n)
    assert pr.kafka_partition(None, n) is None  # the sticky partition
    assert pr.kafka_partition(b"", n) == pr.kafka_to_positive(pr.kafka_murmur2(b"")) % n
    assert pr.kafka_partition(b"kafka", n, "murmur2") == pr.kafka_partition(b"kafka", n)
    assert pr.kafka_partition(None, n, "murmur2") == pr.kafka_partition(b"", n, "murmur2")
    assert pr.kafka_partition(None, n, "murmur2_random") is None
    assert pr.kafka_partition(b"kafka", n, "consistent") == pr.crc32(b"kafka") % n
    assert pr.kafka_partition(None, 4, "consistent") == 0
    assert pr.kafka_partition(b"", 4, "consistent_random") is None
    assert pr.kafka_partition(b"kafka", n, "random") is None
    assert pr.kafka_partition(b"kafka", n, "fnv1a") == 0x0D33C4E1 % n
    assert pr.kafka_partition(None, n, "fnv1a_random") is None
    with pytest.raises(pr.ProfileConfigError, match="unknown Kafka partitioner"):
        pr.kafka_partition(b"k", n, "sticky")
    with pytest.raises(pr.PartitionCountError):
        pr.kafka_partition(b"k", 0)


@pytest.mark.parametrize(
    "partitioner",
    ["java", "random", "consistent", "consistent_random", "murmur2", "murmur2_random", "fnv1a", "fnv1a_random"],
)
def test_kafka_batch_matches_one_at_a_time(partitioner: str) -> None:
    keys: list[str | bytes | None] = [*KEYS, None, b"", b"raw"]
    want = [pr.kafka_partition(k, 12, partitioner) for k in keys]
    expected = [-1 if p is None else p for p in want]
    got = pr.kafka_partitions(keys, 12, partitioner)
    assert got.dtype == np.int32
    assert got.tolist() == expected
    assert pr.kafka_partitions(pa.array(keys), 12, partitioner).tolist() == expected
    assert pr.kafka_partitions(np.array(KEYS), 12, partitioner).tolist() == expected[: len(KEYS)]


def _key_reducing_to(target: int, n: int) -> str:
    """The first key ``key-<i>`` whose Murmur3_32Hash lands on ``target`` of ``n``."""
    i = 0
    while pr.murmur3_32(f"key-{i}") % n != target:
        i += 1
    return f"key-{i}"


@pytest.mark.parametrize("profile", ["cpp", "python"])
def test_cpp_short_cast_in_every_entry_point(profile: str) -> None:
    # The C++ client 4.2.0 (and the Python wheel over it) at 100,000
    # partitions: hash % n = 83783 went to partition 18247 (the value as a
    # 16-bit short), and a key whose short is negative failed the send.
    n = 100_000
    delivered, refused = _key_reducing_to(83_783, n), _key_reducing_to(40_000, n)
    assert pr.profile_partition(delivered, n, profile, scheme="murmur3_32") == 18_247
    router = pr.ProfileRouter(profile, scheme="murmur3_32")
    assert router.route(delivered, n, now_ns=0) == 18_247
    message = "Got Invalid Partition for message from Router Policy, Partition - -25536"
    with pytest.raises(pr.ProfileRouteError, match=message):
        pr.profile_partition(refused, n, profile, scheme="murmur3_32")
    with pytest.raises(pr.ProfileRouteError, match=message):
        router.route(refused, n, now_ns=0)
    # A batch marks the failed send with -2 instead of stopping.
    batch = pr.profile_partitions([delivered, refused, None], n, profile, scheme="murmur3_32")
    assert batch.tolist() == [18_247, -2, -1]
