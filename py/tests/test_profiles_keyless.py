"""The keyless state machines through Python: every client's ProfileRouter and Kafka's sticky partitioners.

Each expected value comes from a small model written here from the spec
(pulsar-routing spec 3.3, 3.6 and 3.7; the peer survey's pulsar-rs,
DotPulsar and Kafka sections) or from the Java golden rows.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

import pytest

import pulsar_routing as pr

from .golden import rows

MS = 1_000_000  # nanoseconds
CREATED_NS = 1_700_000_000_000_000_000
U32 = 0xFFFF_FFFF


# ---------------------------------------------------------------------------
# Java (spec 3.3), against the golden rows of the real Java router.
# ---------------------------------------------------------------------------


def test_java_keyless_counter_golden_sequences() -> None:
    sequences = rows("routing", "rr_sequence")
    assert sequences
    for row in sequences:
        router = pr.ProfileRouter("java", batching=False, start=row["start_ptn_idx"])
        picks = [router.route(None, row["num_partitions"], now_ns=0) for _ in range(12)]
        assert picks == row["sequence"], row


def test_java_keyless_time_slots_golden_rows() -> None:
    checked = 0
    for row in rows("routing", "rr_batching"):
        switch_ms = row["partition_switch_ms_arg"]
        now_ns = row["clock_ms"] * MS
        # The builder gives partitionSwitchMs = frequency x delay (1 ms here);
        # it cannot express a non-positive argument, and the clock is in ns.
        if switch_ms < 1 or not -(2**63) <= now_ns < 2**63:
            continue
        router = pr.ProfileRouter(
            "java",
            batching_max_publish_delay_ns=MS,
            partition_switch_frequency=switch_ms,
            start=row["start_ptn_idx"],
        )
        assert router.route(None, row["num_partitions"], now_ns=now_ns) == row["partition"], row
        checked += 1
    assert checked > 0


def test_java_builder_checks() -> None:
    with pytest.raises(pr.ProfileConfigError):
        pr.ProfileRouter("java", batching_max_publish_delay_ns=MS - 1)
    with pytest.raises(pr.ProfileConfigError):
        pr.ProfileRouter("java", partition_switch_frequency=0)


def test_java_single_partition_beyond_the_topic_fails_the_send() -> None:
    router = pr.ProfileRouter("java", mode="single_partition", start=7)
    assert router.route(None, 8, now_ns=0) == 7
    with pytest.raises(pr.ProfileRouteError):
        router.route(None, 3, now_ns=0)


# ---------------------------------------------------------------------------
# C++ (spec 3.6) and Python (C++'s router, batching off by default).
# ---------------------------------------------------------------------------


@dataclass
class CppModel:
    """RoundRobinMessageRouter, as spec 3.6 states it."""

    cursor: int
    last_change_ms: int
    max_msgs: int
    max_bytes: int
    max_delay_ms: int
    batching: bool = True
    msg_counter: int = 0
    cumulative: int = 0

    def route(self, size: int, n: int, now_ms: int) -> int:
        if n == 1:
            return 0
        if not self.batching:
            p = self.cursor % n
            self.cursor = (self.cursor + 1) & U32
            return p
        size &= U32
        if (
            self.msg_counter >= self.max_msgs
            or size >= (self.max_bytes - self.cumulative) & U32
            or now_ms - self.last_change_ms >= self.max_delay_ms
        ):
            self.cursor = (self.cursor + 1) & U32
            self.last_change_ms = now_ms
            self.cumulative = size
            self.msg_counter = 1
            return self.cursor % n
        self.msg_counter += 1
        self.cumulative = (self.cumulative + size) & U32
        return self.cursor % n


@pytest.mark.parametrize("seed", range(4))
def test_cpp_batching_router_follows_the_spec(seed: int) -> None:
    rng = random.Random(seed)
    start = rng.choice([0, 5, 2**31 - 3, U32 - 1])
    router = pr.ProfileRouter(
        "cpp",
        scheme="murmur3_32",
        batching_max_messages=3,
        batching_max_bytes=300,
        batching_max_publish_delay_ns=5 * MS,
        start=start,
        created_ns=CREATED_NS,
    )
    model = CppModel(start, CREATED_NS // MS, 3, 300, 5)
    now = CREATED_NS
    for _ in range(300):
        now += rng.randrange(0, 3 * MS)
        size = rng.randrange(0, 200)
        n = rng.randrange(1, 10)
        assert router.route(None, n, now_ns=now, payload_len=size) == model.route(size, n, now // MS)


def test_cpp_empty_key_is_a_key_python_empty_key_is_not() -> None:
    n = 7
    cpp = pr.ProfileRouter("cpp", scheme="murmur3_32", batching=False, start=3)
    # setPartitionKey("") is a key in C++: murmur3 of no bytes, masked.
    assert cpp.route("", n, now_ns=0) == pr.murmur3_32(b"") % n
    python = pr.ProfileRouter("python", start=3)
    model = CppModel(3, 0, 0, 0, 0, batching=False)
    for _ in range(20):
        assert python.route("", n, now_ns=0, payload_len=10) == model.route(10, n, 0)


def test_default_boost_hash_cpp_refuses_python_is_the_wheel() -> None:
    with pytest.raises(pr.ProfileRouteError, match="BoostHash"):
        pr.ProfileRouter("cpp").route("user-42", 4, now_ns=0)
    wheel = pr.profile_key_hash("user-42", "cpp_boost_1_82") % 4
    assert pr.ProfileRouter("python").route("user-42", 4, now_ns=0) == wheel
    assert pr.ProfileRouter("cpp", boost="1.85").route("user-42", 4, now_ns=0) == wheel
    with pytest.raises(pr.ProfileConfigError):
        pr.ProfileRouter("python", scheme="java_string")


def _cpp_java_string_hash(key: str, unsigned_char: bool) -> int:
    """Spec 3.6: over the UTF-8 bytes as char, 31 * h + c in uint32, then & INT32_MAX."""
    h = 0
    for b in key.encode():
        c = b if unsigned_char or b < 0x80 else b - 0x100
        h = (31 * h + c) & U32
    return h & 0x7FFF_FFFF


@pytest.mark.parametrize("unsigned_char", [False, True])
def test_cpp_unsigned_char_routing(unsigned_char: bool) -> None:
    key, n = "clé-ü", 97
    router = pr.ProfileRouter("cpp", scheme="java_string", unsigned_char=unsigned_char)
    assert router.route(key, n, now_ns=0) == _cpp_java_string_hash(key, unsigned_char) % n
    assert _cpp_java_string_hash(key, False) % n != _cpp_java_string_hash(key, True) % n


# ---------------------------------------------------------------------------
# Go (spec 3.7).
# ---------------------------------------------------------------------------


@dataclass
class GoModel:
    """NewDefaultRouter with batching, for maxBatchingMessages below 10 (clock read every message)."""

    cursor: int
    last_batch_ns: int
    max_msgs: int
    max_bytes: int
    max_delay_ns: int
    msg_counter: int = 0
    cumulative: int = 0

    def route(self, size: int, n: int, now_ns: int) -> int:
        if n == 1:
            return 0
        cursor0 = self.cursor
        self.msg_counter = (self.msg_counter + 1) & U32
        self.cumulative = (self.cumulative + size) & U32
        count_reached = self.msg_counter > self.max_msgs
        size_reached = self.cumulative > self.max_bytes
        duration_reached = now_ns - self.last_batch_ns > self.max_delay_ns
        if count_reached or size_reached or duration_reached:
            self.cursor = (cursor0 + 1) & U32
            self.msg_counter = 0
            self.cumulative = 0
            self.last_batch_ns = now_ns
            return self.cursor % n
        return cursor0 % n


@pytest.mark.parametrize("seed", range(4))
def test_go_batching_router_follows_the_spec(seed: int) -> None:
    rng = random.Random(100 + seed)
    start = rng.choice([0, 9, U32 - 2])
    router = pr.ProfileRouter(
        "go",
        batching_max_messages=4,
        batching_max_bytes=250,
        batching_max_publish_delay_ns=3 * MS,
        start=start,
        created_ns=CREATED_NS,
    )
    model = GoModel(start, CREATED_NS, 4, 250, 3 * MS)
    now = CREATED_NS
    for _ in range(300):
        now += rng.randrange(0, 2 * MS)
        size = rng.randrange(0, 130)
        n = rng.randrange(1, 8)
        # "" is no key in Go: it goes through the keyless state machine.
        key = rng.choice([None, ""])
        assert router.route(key, n, now_ns=now, payload_len=size) == model.route(size, n, now)


def test_go_ordering_key_wins_over_the_key() -> None:
    n = 13
    router = pr.ProfileRouter("go", scheme="murmur3_32")
    got = router.route("the-key", n, now_ns=0, ordering_key="the-ordering-key")
    assert got == pr.murmur3_32(b"the-ordering-key") % n


# ---------------------------------------------------------------------------
# pulsar-rs and DotPulsar (peer survey A.3, A.4).
# ---------------------------------------------------------------------------


def test_pulsar_rs_default_round_robins_ignoring_keys() -> None:
    router = pr.ProfileRouter("pulsar-rs", start=1)
    last = 1
    for _ in range(20):
        last = (last + 1) % 4
        assert router.route("same-key", 4, now_ns=0) == last


def test_dotpulsar_counter_starts_at_zero_and_keys_are_unmasked() -> None:
    router = pr.ProfileRouter("dotpulsar", start=3)
    assert [router.route(None, 7, now_ns=0) for _ in range(15)] == [i % 7 for i in range(15)]
    # Keyed: murmur3 without the mask, % n.
    assert router.route("customer-000042", 10, now_ns=0) == pr.murmur3_32_raw(b"customer-000042") % 10


def test_profile_router_repr_and_profile() -> None:
    for profile in ("java", "go", "cpp", "python", "pulsar-rs", "dotpulsar"):
        router = pr.ProfileRouter(profile)
        assert router.profile == profile
        assert profile in repr(router)
    with pytest.raises(pr.ProfileConfigError):
        pr.ProfileRouter("erlang")
    with pytest.raises(pr.PartitionCountError):
        pr.ProfileRouter("java").route(None, 0, now_ns=0)
    with pytest.raises(TypeError):
        pr.ProfileRouter("java").route(42, 3, now_ns=0)  # type: ignore[arg-type]


def test_a_shared_router_steps_once_per_message() -> None:
    # Java without batching: a counter; 4 threads x 250 messages on 1000
    # partitions must see every counter value exactly once.
    router = pr.ProfileRouter("java", batching=False, start=0)
    seen: list[int] = []
    lock = threading.Lock()

    def work() -> None:
        picks = [router.route(None, 1000, now_ns=0) for _ in range(250)]
        with lock:
            seen.extend(picks)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seen) == list(range(1000))


# ---------------------------------------------------------------------------
# Kafka: the Java client's sticky partitioner (peer survey B.1).
# ---------------------------------------------------------------------------


def _to_positive(x: int) -> int:
    return x & 0x7FFF_FFFF


class StickyModel:
    """BuiltInPartitioner: stick until batch.size bytes with switching allowed, or twice that."""

    def __init__(self, batch: int) -> None:
        self.batch = batch
        self.current: tuple[int, int] | None = None

    def peek(self, n: int, rnd: int) -> int:
        if self.current is None:
            self.current = (_to_positive(rnd) % n, 0)
        return self.current[0]

    def update(self, nbytes: int, enable: bool, n: int, rnd: int) -> int | None:
        if self.current is None:
            return None
        p, produced = self.current
        produced += nbytes
        self.current = (p, produced)
        if (produced >= self.batch and enable) or produced >= 2 * self.batch:
            self.current = (_to_positive(rnd) % n, 0)
            return self.current[0]
        return None


def test_built_in_partitioner_follows_kip_794() -> None:
    rng = random.Random(7)
    sticky = pr.KafkaBuiltInPartitioner(100)
    model = StickyModel(100)
    assert sticky.current is None and sticky.sticky_batch_size == 100
    assert sticky.update_partition_info(50, True, 5, 1) is None  # nothing drawn yet
    for _ in range(300):
        n = 7
        rnd = rng.randrange(-(2**31), 2**31)
        assert sticky.peek_partition(n, rnd) == model.peek(n, rnd)
        nbytes, enable, rnd2 = rng.randrange(10, 80), rng.random() < 0.7, rng.randrange(2**32)
        assert sticky.update_partition_info(nbytes, enable, n, rnd2) == model.update(nbytes, enable, n, rnd2)
        assert sticky.current == model.current


def test_built_in_partitioner_availability_and_load() -> None:
    sticky = pr.KafkaBuiltInPartitioner.for_batch_size(0)
    assert sticky.sticky_batch_size == 1  # max(1, batch.size)
    # toPositive(0x80000004) = 4, and 4 % 3 picks the second available id.
    assert sticky.peek_partition(6, 0x8000_0004, available=[1, 4, 5]) == 4
    # Queue sizes 0 3 1: weights max+1-q = 4 1 3, cumulative 4 5 8.
    assert pr.kafka_partition_load_stats([0, 3, 1], [0, 1, 2]) == [4, 5, 8]
    assert pr.kafka_partition_load_stats([2, 2, 2], [0, 1, 2]) is None
    for rnd in range(16):
        fresh = pr.KafkaBuiltInPartitioner(100)
        got = fresh.peek_partition(3, rnd, queue_sizes=[0, 3, 1], partition_ids=[0, 1, 2])
        w = rnd % 8
        assert got == (0 if w < 4 else 1 if w < 5 else 2)


def test_built_in_partitioner_errors() -> None:
    with pytest.raises(pr.ProfileConfigError, match="stickyBatchSize must be >= 1"):
        pr.KafkaBuiltInPartitioner(0)
    sticky = pr.KafkaBuiltInPartitioner(10)
    with pytest.raises(pr.KafkaPartitionError):
        sticky.peek_partition(3, 0, available=[9])
    with pytest.raises(pr.KafkaPartitionError):
        sticky.peek_partition(3, 0, queue_sizes=[1, 2], partition_ids=[0])
    with pytest.raises(pr.KafkaPartitionError):
        pr.kafka_partition_load_stats([1, 2], [0, 1], 3)
    with pytest.raises(ValueError, match="go together"):
        sticky.peek_partition(3, 0, queue_sizes=[1, 2])
    with pytest.raises(ValueError, match="random"):
        sticky.peek_partition(3, 2**32)
    with pytest.raises(pr.PartitionCountError):
        sticky.peek_partition(0, 0)
    assert sticky.current is None


def test_java_client_partitioner() -> None:
    rng = random.Random(11)
    for ignore_keys in (False, True):
        producer = pr.KafkaJavaClientPartitioner(200, ignore_keys=ignore_keys)
        model = StickyModel(200)
        pending_draw = True
        for _ in range(300):
            n = 5
            key = rng.choice([None, "", b"user-1", "user-2"])
            nbytes, enable, rnd = rng.randrange(20, 90), rng.random() < 0.5, rng.randrange(2**32)
            got = producer.append(key, nbytes, enable, n, rnd)
            if key is not None and not ignore_keys:
                data = key.encode() if isinstance(key, str) else key
                assert got == _to_positive(pr.kafka_murmur2(data)) % n
                continue
            if pending_draw:
                model.current = None
            assert got == model.peek(n, rnd)
            # Java draws right after the record that fills the batch; the
            # next keyless record makes that draw with its own random number.
            pending_draw = model.update(nbytes, enable, n, rnd) is not None
            assert producer.current == (None if pending_draw else model.current)


# ---------------------------------------------------------------------------
# librdkafka (peer survey B.2).
# ---------------------------------------------------------------------------


def test_librdkafka_producer_sticks_for_the_linger() -> None:
    rng = random.Random(3)
    linger_ms = 10
    producer = pr.LibrdkafkaProducer("consistent_random", linger_ms)
    assert producer.partitioner == "consistent_random" and producer.sticky_partition is None
    with pytest.raises(pr.KafkaPartitionError):
        producer.partition(None, 8, 10_000, 3)  # within the linger of the clock's origin
    sticky, last = -1, 0
    now = 20_000
    for _ in range(300):
        now += rng.randrange(0, 4_000)
        key = rng.choice([None, "", "order-17"])
        first, second = rng.randrange(2**31), rng.randrange(2**31)
        got = producer.partition(key, 8, now, first, second_random=second)
        if key:
            assert got == pr.crc32(key.encode()) % 8
            continue
        if sticky < 0:
            last = 0
        if now - (last + linger_ms * 1000) > 0:
            last, sticky = now, first % 8
        assert got == sticky
    assert producer.sticky_partition == sticky


def test_librdkafka_functions() -> None:
    assert pr.librdkafka_random_partition(4, 5, second_random=6) == 5 % 4
    assert pr.librdkafka_random_partition(4, 5, second_random=6, available=[0, 2]) == 6 % 4
    assert pr.librdkafka_partition("k", 4, "random", 5, second_random=6, available=[0, 2]) == 6 % 4
    assert pr.librdkafka_partition("k", 4, "murmur2", 5) == _to_positive(pr.kafka_murmur2(b"k")) % 4
    assert pr.librdkafka_partition(None, 4, "consistent", 5) == pr.crc32(b"") % 4
    assert pr.librdkafka_default_sticky_linger_ms() == 10
    assert pr.librdkafka_default_sticky_linger_ms(0.7) == 1
    assert pr.librdkafka_default_sticky_linger_ms(1e12) == 900_000
    with pytest.raises(pr.ProfileConfigError):
        pr.LibrdkafkaProducer("round-robin")
    with pytest.raises(pr.ProfileConfigError, match="sticky.partitioning.linger.ms"):
        pr.LibrdkafkaProducer("murmur2", 900_001)
    with pytest.raises(pr.ProfileConfigError):
        pr.librdkafka_partition("k", 4, "nope", 0)


# ---------------------------------------------------------------------------
# The one-shot functions next to the state machines.
# ---------------------------------------------------------------------------


def test_cpp_partitioned_producer_check() -> None:
    # (short)70000 = 70000 - 65536, below 100000: sent there.
    assert pr.cpp_partitioned_producer_check(70_000, 100_000) == 70_000 - 65_536
    # (short)35000 is negative: the send fails.
    with pytest.raises(pr.ProfileRouteError, match="Invalid Partition"):
        pr.cpp_partitioned_producer_check(35_000, 100_000)
    with pytest.raises(pr.ProfileRouteError):
        pr.cpp_partitioned_producer_check(5, 5)
    assert pr.cpp_partitioned_producer_check(4, 5) == 4


def _boost_1_74_raw(data: bytes) -> int:
    """Boost 1.74 hash_range on x86-64: hash_combine of each sign-extended char (MurmurHash2-64 mix)."""
    m, mask = 0xC6A4A7935BD1E995, (1 << 64) - 1
    h = 0
    for b in data:
        k = (b - 0x100 if b >= 0x80 else b) & mask
        k = (k * m) & mask
        k ^= k >> 47
        k = (k * m) & mask
        h ^= k
        h = (h * m) & mask
        h = (h + 0xE6546B64) & mask
    return h


def test_boost_hash_raw_and_masked() -> None:
    for key in ["", "user-42", "clé"]:
        raw = pr.boost_hash_1_74_x86_64_raw(key)
        assert raw == _boost_1_74_raw(key.encode())
        assert raw & 0x7FFF_FFFF == pr.profile_key_hash(key.encode(), "cpp_boost_1_62")


def test_go_atoi() -> None:
    assert pr.go_atoi("+01") == 1
    assert pr.go_atoi("-9223372036854775808") == -(2**63)
    with pytest.raises(pr.PulsarRoutingError, match="invalid syntax"):
        pr.go_atoi("5abc")
    with pytest.raises(pr.PulsarRoutingError, match="out of range"):
        pr.go_atoi("9223372036854775808")
    assert pr.KAFKA_MURMUR2_SEED == 0x9747B28C


def test_kafka_murmur2_hasher() -> None:
    data = b"giberish123456789"
    # librdkafka's unit-test value (which matches Java): toPositive(murmur2) = 257239820.
    assert _to_positive(pr.kafka_murmur2(data)) == 257239820
    for cut in range(len(data) + 1):
        hasher = pr.KafkaMurmur2Hasher(len(data), data[:cut])
        if cut < len(data):
            with pytest.raises(pr.PulsarRoutingError, match="seeds with the total length"):
                hasher.finalize()
        copy = hasher.copy()
        assert hasher.update(data[cut:]).finalize() == pr.kafka_murmur2(data)
        assert copy.update(memoryview(data[cut:])).finalize() == pr.kafka_murmur2(data)
    assert pr.KafkaMurmur2Hasher(3).update("é").update("a").finalize() == pr.kafka_murmur2("éa")
