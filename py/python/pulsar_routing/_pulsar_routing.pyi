"""Apache Pulsar's routing, byte-for-byte as the Java client and broker compute it."""

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, ClassVar, final

import numpy as np
from numpy.typing import NDArray
from typing_extensions import Buffer, Self, TypeAlias

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
    "TooManyRedirectsError",
    "TooManyRequestsError",
    "TopicLookup",
    "TopicLookupError",
    "producer_start_topics",
    "PendingQueue",
    "ProducerQueueIsFullError",
    "Readiness",
    "required_max_pending_messages",
    "SenderConfig",
    "SenderConfigError",
    "SenderError",
    "SenderGate",
    "SenderNotReadyError",
    "AutoSplitSelector",
    "boost_hash_1_74_x86_64_raw",
    "BundleError",
    "BundleRange",
    "check_partition",
    "ConsistentHashingSelector",
    "ConsumerAssignError",
    "cpp_partition_index",
    "cpp_partitioned_producer_check",
    "Crc32",
    "crc32",
    "CustomRouter",
    "default_boundaries",
    "DivisionByZeroError",
    "ExclusiveSelector",
    "get_partition_index",
    "go_atoi",
    "go_partition_index",
    "IllegalPartitionIndexError",
    "Impact",
    "java_lossy_utf8",
    "java_string_hash",
    "java_string_hash_bytes",
    "java_string_hashcode",
    "java_string_hashcode_bytes",
    "KAFKA_MURMUR2_SEED",
    "kafka_fnv1a",
    "kafka_murmur2",
    "kafka_partition",
    "kafka_partition_load_stats",
    "kafka_partitions",
    "kafka_to_positive",
    "KafkaBuiltInPartitioner",
    "KafkaJavaClientPartitioner",
    "KafkaMurmur2Hasher",
    "KafkaPartitionError",
    "KeyCounts",
    "KeyCountsError",
    "KeySharedPolicyError",
    "librdkafka_default_sticky_linger_ms",
    "librdkafka_partition",
    "librdkafka_random_partition",
    "LibrdkafkaProducer",
    "MessageRoutingMode",
    "murmur3_32",
    "murmur3_32_raw",
    "Murmur3Hasher",
    "NamespaceBundles",
    "NONE_KEY",
    "parse_boundary",
    "partition_for_key",
    "partition_for_key_bytes",
    "partition_switch_ms",
    "PartitionCountError",
    "partitions_for_keys",
    "profile_key_hash",
    "profile_key_hash_name",
    "profile_partition",
    "profile_partitions",
    "ProfileConfigError",
    "ProfileRouteError",
    "ProfileRouter",
    "PulsarRoutingError",
    "resolve_routing_mode",
    "ring_point",
    "RoundRobinRouter",
    "routing_key_hash",
    "RoutingConfigError",
    "SelectorConfigError",
    "sign_safe_mod",
    "SinglePartitionRouter",
    "sticky_key",
    "sticky_key_hash",
    "sticky_key_hashes",
    "topic_bundle",
    "TopicName",
    "TopicNameError",
    "UnknownHashingSchemeError",
    "validate_full_range",
    "validate_sticky_ranges",
    "__version__",
]

__version__: str

# "java_string" or "murmur3_32" (Java's enum constant names are accepted too).
_Scheme: TypeAlias = str
_Key: TypeAlias = str | bytes | None
# Any C-contiguous buffer; numpy arrays are buffers to type checkers only on
# Python 3.12 and later, hence the second member.
_Bytes: TypeAlias = Buffer | NDArray[Any]

# Errors. Every one is a ValueError; each message is Java's wording.

class PulsarRoutingError(ValueError):
    """Base class of every error raised by pulsar_routing for a bad value."""

class PartitionCountError(PulsarRoutingError):
    """The number of partitions is not in 1..=2147483647."""

class IllegalPartitionIndexError(PulsarRoutingError):
    """A router chose a partition outside [0, num_partitions).

    The chosen value is in the attribute ``partition`` (an int, or whatever a
    custom router returned).
    """

    partition: object

class RoutingConfigError(PulsarRoutingError):
    """An inconsistent producer routing configuration."""

class UnknownHashingSchemeError(PulsarRoutingError):
    """The hashing scheme is not "java_string" or "murmur3_32"."""

class DivisionByZeroError(PulsarRoutingError, ZeroDivisionError):
    """sign_safe_mod was given a divisor of 0 ("/ by zero")."""

class ProfileConfigError(PulsarRoutingError):
    """A client profile, hashing scheme, routing mode or Kafka partitioner that is unknown, or that the client does not have."""

class ProfileRouteError(PulsarRoutingError):
    """A key the client cannot route: BoostHash of an unknown Boost build (not reproducible), or a key the client cannot be given."""

class KafkaPartitionError(PulsarRoutingError):
    """A Kafka sticky partitioner could not place a record (bad load statistics, an available partition out of range, or librdkafka's sticky partition unassigned or unknown)."""

class TopicNameError(PulsarRoutingError):
    """A topic name Java's TopicName.get rejects, with Java's message."""

class KeyCountsError(PulsarRoutingError):
    """KeyCounts refused a weight (negative, NaN or infinite), or weights that are not one per key."""

class BundleError(PulsarRoutingError):
    """An invalid bundle layout, range, split or lookup, with the broker's message."""

class ConsumerAssignError(PulsarRoutingError):
    """A Key_Shared selector refused a consumer: the broker's ConsumerAssignException.

    ``java_class`` is "ConsumerAssignException" for the broker's errors, and
    None for this package's own (a consumer id added twice).
    """

    java_class: str | None

class SelectorConfigError(PulsarRoutingError):
    """A Key_Shared selector that cannot be built, or an unknown selector name."""

class KeySharedPolicyError(PulsarRoutingError):
    """Sticky hash ranges the Java client's KeySharedPolicy rejects, with its message."""

# Hashes. A `str` is hashed as Java's getBytes(UTF_8); a buffer as its raw
# bytes (any C-contiguous buffer, as hashlib accepts).

def murmur3_32(data: str | _Bytes, /) -> int:
    """Pulsar's Murmur3_32Hash: MurmurHash3 x86_32 (seed 0) & 0x7fffffff."""

def murmur3_32_raw(data: str | _Bytes, /) -> int:
    """The raw MurmurHash3 x86_32 (seed 0), unsigned 32-bit."""

def crc32(data: str | _Bytes, /) -> int:
    """CRC-32/IEEE, unsigned: the broker's namespace-bundle hash."""

def java_string_hash(s: str, /) -> int:
    """JavaStringHash.makeHash(String): s.hashCode() & 0x7fffffff."""

def java_string_hashcode(s: str, /) -> int:
    """Java's String.hashCode(), signed."""

def java_string_hash_bytes(data: _Bytes, /) -> int:
    """JavaStringHash.makeHash(byte[]): the bytes decoded as Java does, then hashed."""

def java_string_hashcode_bytes(data: _Bytes, /) -> int:
    """new String(bytes, UTF_8).hashCode(), signed."""

def java_lossy_utf8(data: _Bytes, /) -> str:
    """new String(bytes, UTF_8): Java's replacement of malformed input."""

def sign_safe_mod(dividend: int, divisor: int, /) -> int:
    """Java's MathUtils.signSafeMod(long, int)."""

@final
class Murmur3Hasher:
    """Streaming MurmurHash3 x86_32 (seed 0); any chunking gives the one-shot result."""

    def __new__(cls, data: _Bytes | None = None, /) -> Self: ...
    def update(self, data: _Bytes, /) -> Self:
        """Feeds more bytes; returns the hasher."""

    def finalize(self) -> int:
        """The 31-bit (Pulsar-masked) hash of everything fed so far."""

    def finalize_raw(self) -> int:
        """The raw 32-bit hash of everything fed so far, unsigned."""

    def copy(self) -> Murmur3Hasher:
        """An independent hasher with the same input so far."""

@final
class Crc32:
    """Streaming CRC-32/IEEE; any chunking gives the one-shot result."""

    def __new__(cls, data: _Bytes | None = None, /) -> Self: ...
    def update(self, data: _Bytes, /) -> Self:
        """Feeds more bytes; returns the hasher."""

    def finalize(self) -> int:
        """The CRC of everything fed so far, unsigned."""

    def copy(self) -> Crc32:
        """An independent hasher with the same input so far."""

# Keys and partitions.

def partition_for_key(key: str, num_partitions: int, scheme: _Scheme = "java_string") -> int:
    """The partition of a message sent with key(key)."""

def partition_for_key_bytes(
    key: _Bytes, num_partitions: int, scheme: _Scheme = "java_string"
) -> int:
    """The partition of a message sent with keyBytes(key): its Base64 text is hashed."""

def routing_key_hash(key: str | bytes, scheme: _Scheme = "java_string") -> int:
    """The 31-bit hash a router reduces (str: key(), bytes: keyBytes())."""

def partitions_for_keys(
    keys: Iterable[_Key] | NDArray[Any],
    num_partitions: int,
    scheme: _Scheme = "java_string",
) -> NDArray[np.int32]:
    """The partition of every key as an int32 array; -1 for a key that is None.

    `keys` is an iterable of str/bytes/None, a 1-D numpy array (dtype U, S,
    O or T), or a pyarrow Array or ChunkedArray of string, large_string,
    binary or large_binary (nulls give -1).
    """

# Client profiles: every Pulsar client's keyed routing, and Kafka's.

# "java", "go", "cpp", "python", "pulsar-rs" (or "pulsar_rs"), "dotpulsar".
_Profile: TypeAlias = str

def profile_partition(
    key: _Key,
    num_partitions: int,
    profile: _Profile = "java",
    *,
    scheme: str | None = None,
    mode: str | None = None,
    ordering_key: str | bytes | None = None,
    unsigned_char: bool = False,
    boost: str | None = None,
    boost_1_74_x86_64: bool = False,
) -> int | None:
    """The partition a client of `profile` sends a keyed message to; None when it routes it as keyless.

    `scheme` ("java_string", "murmur3_32", "boost") and `mode` ("default",
    "round_robin", "single_partition") override the client's defaults;
    `unsigned_char` and `boost` describe a C++/Python build: `boost` is the
    Boost release it was built with ("1.74", "1.81", "1.85.0"; 1.33 to 1.91),
    which picks one of four generations of boost::hash<std::string> (1.33,
    1.62, 1.81, 1.82). Python defaults to the current pulsar-client wheel's
    (Boost 1.82 and later); `boost_1_74_x86_64=True` is the deprecated
    spelling of boost="1.74". Raises ProfileRouteError for C++'s BoostHash
    without `boost` (C++ builds vary), and where the producer fails the send: C++ and
    Python cast the partition to a 16-bit short, so above 32767 partitions
    a key whose hash % n is 83783 goes to 18247, and one whose short is
    negative fails. ProfileConfigError for an option the client does not
    have.
    """

def profile_partitions(
    keys: Iterable[_Key] | NDArray[Any],
    num_partitions: int,
    profile: _Profile = "java",
    *,
    scheme: str | None = None,
    mode: str | None = None,
    unsigned_char: bool = False,
    boost: str | None = None,
    boost_1_74_x86_64: bool = False,
) -> NDArray[np.int32]:
    """profile_partition of every key as an int32 array; -1 where the client routes the message as keyless,
    -2 where its producer fails the send (C++ and Python above 32767 partitions: see profile_partition)."""

def profile_key_hash_name(
    profile: _Profile = "java",
    *,
    scheme: str | None = None,
    mode: str | None = None,
    unsigned_char: bool = False,
    boost: str | None = None,
    boost_1_74_x86_64: bool = False,
) -> str:
    """The name of the key hash the client applies under these options (for profile_key_hash)."""

def profile_key_hash(data: str | _Bytes, hash: str, /) -> int:
    """A client key hash by name: "java_string", "murmur3_32", "go_java_string", "cpp_java_string",
    "cpp_java_string_unsigned_char", "cpp_boost" (raises ProfileRouteError), "cpp_boost_1_33",
    "cpp_boost_1_33_unsigned_char", "cpp_boost_1_62" (also "cpp_boost_1_74_x86_64"),
    "cpp_boost_1_62_unsigned_char", "cpp_boost_1_81", "cpp_boost_1_82", "murmur3_32_unmasked"."""

def go_partition_index(topic: str, /) -> int:
    """The partition index pulsar-client-go reads from a topic name (TopicNameError: Go's Atoi error)."""

def cpp_partition_index(local_name: str, /) -> int:
    """The partition index the C++ client reads from a topic's local name."""

def kafka_murmur2(data: str | _Bytes, /) -> int:
    """Kafka's murmur2 (seed 0x9747b28c), unsigned 32-bit; a str is hashed as UTF-8."""

def kafka_to_positive(hash: int, /) -> int:
    """Kafka's Utils.toPositive: the hash with its sign bit cleared."""

def kafka_fnv1a(data: str | _Bytes, /) -> int:
    """32-bit FNV-1a (librdkafka's and Sarama's); a str is hashed as UTF-8."""

def kafka_partition(key: str | _Bytes | None, num_partitions: int, partitioner: str = "java") -> int | None:
    """The partition a Kafka producer sends a key to ("java": the Java client; else a librdkafka
    partitioner); None where it would pick at random or stick to a partition."""

def kafka_partitions(
    keys: Iterable[_Key] | NDArray[Any], num_partitions: int, partitioner: str = "java"
) -> NDArray[np.int32]:
    """kafka_partition of every key as an int32 array; -1 where it would pick at random or stick."""

# The keyless state machines: every client's router and Kafka's sticky partitioners.

@final
class ProfileRouter:
    """One producer's router of any client, keyless state machine included; thread-safe."""

    def __new__(
        cls,
        profile: _Profile = "java",
        *,
        scheme: str | None = None,
        mode: str | None = None,
        unsigned_char: bool = False,
        boost: str | None = None,
        boost_1_74_x86_64: bool = False,
        batching: bool | None = None,
        batching_max_messages: int | None = None,
        batching_max_bytes: int | None = None,
        batching_max_publish_delay_ns: int | None = None,
        partition_switch_frequency: int | None = None,
        lazy_start_partitioned_producers: bool = False,
        start: int = 0,
        created_ns: int = 0,
    ) -> Self: ...
    def route(
        self,
        key: _Key,
        num_partitions: int,
        *,
        now_ns: int | None = None,
        payload_len: int = 0,
        ordering_key: str | bytes | None = None,
    ) -> int:
        """Routes one message and advances the keyless state; now_ns=None reads the clock."""

    @property
    def profile(self) -> str: ...

@final
class KafkaBuiltInPartitioner:
    """Kafka's Java-client sticky partitioner for keyless records (KIP-794); thread-safe."""

    def __new__(cls, sticky_batch_size: int, /) -> Self: ...
    @staticmethod
    def for_batch_size(batch_size: int = 16384) -> KafkaBuiltInPartitioner: ...
    def peek_partition(
        self,
        num_partitions: int,
        random: int,
        *,
        available: Sequence[int] | None = None,
        queue_sizes: Sequence[int] | None = None,
        partition_ids: Sequence[int] | None = None,
        load_length: int | None = None,
    ) -> int:
        """The partition the next keyless record goes to, drawing one if none was drawn yet."""

    def update_partition_info(
        self,
        appended_bytes: int,
        enable_switch: bool,
        num_partitions: int,
        random: int,
        *,
        available: Sequence[int] | None = None,
        queue_sizes: Sequence[int] | None = None,
        partition_ids: Sequence[int] | None = None,
        load_length: int | None = None,
    ) -> int | None:
        """Counts appended_bytes; the new partition if it switched, else None."""

    @property
    def sticky_batch_size(self) -> int: ...
    @property
    def current(self) -> tuple[int, int] | None: ...

@final
class KafkaJavaClientPartitioner:
    """The Java KafkaProducer's partition choice for one topic (murmur2 keys, sticky keyless); thread-safe."""

    def __new__(cls, batch_size: int = 16384, *, ignore_keys: bool = False) -> Self: ...
    def append(
        self,
        key: str | bytes | None,
        appended_bytes: int,
        enable_switch: bool,
        num_partitions: int,
        random: int,
        *,
        available: Sequence[int] | None = None,
        queue_sizes: Sequence[int] | None = None,
        partition_ids: Sequence[int] | None = None,
        load_length: int | None = None,
    ) -> int:
        """The partition the record is appended to."""

    @property
    def current(self) -> tuple[int, int] | None: ...

@final
class LibrdkafkaProducer:
    """librdkafka's producer-side partition choice with its time-based sticky partition; thread-safe."""

    def __new__(cls, partitioner: str = "consistent_random", sticky_linger_ms: int = 10) -> Self: ...
    def partition(
        self,
        key: str | bytes | None,
        num_partitions: int,
        now_us: int,
        random: int,
        *,
        second_random: int | None = None,
        available: Sequence[int] | None = None,
    ) -> int:
        """The partition of a message produced at now_us (microseconds)."""

    @property
    def partitioner(self) -> str: ...
    @property
    def sticky_partition(self) -> int | None: ...

KAFKA_MURMUR2_SEED: int

@final
class KafkaMurmur2Hasher:
    """Streaming Kafka murmur2 of a key of total_len bytes (MurmurHash2 seeds with the length)."""

    def __new__(cls, total_len: int, data: str | _Bytes | None = None, /) -> Self: ...
    def update(self, data: str | _Bytes, /) -> Self:
        """Feeds more bytes; returns the hasher."""

    def finalize(self) -> int:
        """kafka_murmur2 of everything fed; PulsarRoutingError unless exactly total_len bytes were fed."""

    def copy(self) -> KafkaMurmur2Hasher:
        """An independent hasher with the same input so far."""

def cpp_partitioned_producer_check(partition: int, num_partitions: int) -> int:
    """C++'s producer check: the short-cast partition, or ProfileRouteError where the send fails."""

def boost_hash_1_74_x86_64_raw(data: str | _Bytes, /) -> int:
    """Boost 1.62 to 1.80's 64-bit boost::hash<std::string> on x86-64, Boost 1.74's included
    (BoostHash masks it to 31 bits)."""

def go_atoi(text: str, /) -> int:
    """Go's strconv.Atoi; raises PulsarRoutingError with Go's message."""

def kafka_partition_load_stats(
    queue_sizes: Sequence[int], partition_ids: Sequence[int], length: int | None = None
) -> list[int] | None:
    """Kafka's cumulative frequency table of queue sizes, or None where adaptive partitioning is off."""

def librdkafka_random_partition(
    num_partitions: int,
    random: int,
    *,
    second_random: int | None = None,
    available: Sequence[int] | None = None,
) -> int:
    """rd_kafka_msg_partitioner_random with its draws given."""

def librdkafka_partition(
    key: str | bytes | None,
    num_partitions: int,
    partitioner: str,
    random: int,
    *,
    second_random: int | None = None,
    available: Sequence[int] | None = None,
) -> int:
    """The exported rd_kafka_msg_partitioner_<name> function with its draws given."""

def librdkafka_default_sticky_linger_ms(linger_ms: float = 5.0, /) -> int:
    """sticky.partitioning.linger.ms when unset: min(900000, int(2 * linger_ms))."""

def check_partition(partition: int, num_partitions: int) -> int:
    """Returns partition if it is in [0, num_partitions), else raises IllegalPartitionIndexError."""

# Topic lookup.

class TopicLookupError(PulsarRoutingError):
    kind: str

class LookupFailedError(TopicLookupError):
    server_error: str
    server_message: str

class TooManyRedirectsError(TopicLookupError):
    limit: int

class RedirectLoopError(TopicLookupError):
    chain: list[tuple[str, bool]]

class LookupTimeoutError(TopicLookupError):
    attempts: int
    elapsed_ms: int
    last_error: str | None

class TooManyRequestsError(TopicLookupError):
    in_flight: int
    queued: int

class CoalescingTableFullError(TopicLookupError):
    capacity: int

@final
class LookupAction:
    """What the client does next (kind), with the details and the reason."""

    @property
    def kind(self) -> str: ...
    @property
    def logical_address(self) -> str | None: ...
    @property
    def physical_address(self) -> str | None: ...
    @property
    def authoritative(self) -> bool: ...
    @property
    def send_properties(self) -> bool: ...
    @property
    def use_proxy(self) -> bool: ...
    @property
    def metadata_auto_creation(self) -> bool: ...
    @property
    def redirects(self) -> int: ...
    @property
    def attempt(self) -> int: ...
    @property
    def at_ms(self) -> int | None: ...
    @property
    def delay_ms(self) -> int | None: ...
    @property
    def partitions(self) -> int | None: ...
    @property
    def error(self) -> str | None: ...
    @property
    def error_kind(self) -> str | None: ...
    @property
    def server_error(self) -> str | None: ...
    @property
    def server_message(self) -> str | None: ...
    @property
    def chain(self) -> list[tuple[str, bool]]: ...
    @property
    def reason(self) -> str:
        """Why, in words: the same text as the C action's ``reason``."""

    def exception(self) -> TopicLookupError | None:
        """The exception of a "failed" or "retry_at" action."""

    def raise_for_error(self) -> None:
        """Raises the exception of a "failed" action."""

_ServerErrorArg: TypeAlias = str | int

@final
class TopicLookup:
    """One topic lookup, driven step by step; thread-safe."""

    def __new__(
        cls,
        service_address: str,
        *,
        use_tls: bool = False,
        max_redirects: int = 20,
        profile: str = "java",
        operation_timeout_ms: int = 30000,
        lookup_timeout_ms: int | None = None,
        retry: bool = True,
        detect_redirect_loops: bool = False,
        jitter_seed: int = 0,
        chain_capacity: int = 21,
    ) -> Self: ...
    def start(self, now_ms: int) -> LookupAction: ...
    def on_response(
        self,
        kind: str | None,
        now_ms: int,
        *,
        broker_service_url: str | None = None,
        broker_service_url_tls: str | None = None,
        authoritative: bool = False,
        proxy_through_service_url: bool = False,
        error: _ServerErrorArg | None = None,
        message: str | None = None,
    ) -> LookupAction: ...
    def on_connection_failed(self, now_ms: int) -> LookupAction: ...
    def on_request_timeout(self, now_ms: int) -> LookupAction: ...
    def on_throttled(self, now_ms: int, in_flight: int = 0, queued: int = 0) -> LookupAction: ...
    def on_retry_timer(self, now_ms: int) -> LookupAction: ...
    @property
    def chain(self) -> list[tuple[str, bool]]: ...
    @property
    def is_finished(self) -> bool: ...
    @property
    def attempts(self) -> int: ...
    @property
    def deadline_ms(self) -> int | None: ...
    @property
    def server_message(self) -> str: ...

@final
class PartitionedMetadataLookup:
    """The partitioned-metadata step before a producer starts; thread-safe."""

    def __new__(
        cls,
        service_address: str,
        *,
        operation_timeout_ms: int = 30000,
        lookup_timeout_ms: int | None = None,
        metadata_auto_creation: bool = True,
        use_fallback_for_non_pip344: bool = False,
        jitter_seed: int = 0,
    ) -> Self: ...
    def start(self, now_ms: int) -> LookupAction: ...
    def on_connected(self, supports_pip344: bool, now_ms: int) -> LookupAction: ...
    def on_response(
        self,
        now_ms: int,
        *,
        partitions: int = 0,
        error: _ServerErrorArg | None = None,
        message: str | None = None,
        failed: bool = False,
    ) -> LookupAction: ...
    def on_connection_failed(self, now_ms: int) -> LookupAction: ...
    def on_retry_timer(self, now_ms: int) -> LookupAction: ...
    @property
    def is_finished(self) -> bool: ...

def producer_start_topics(topic: str, partitions: int) -> list[str]:
    """The topics a producer looks up: the topic itself, or one per partition."""

@final
class LookupCoalescer:
    """Lookups in flight, shared by concurrent requests; bounded, thread-safe."""

    def __new__(cls, capacity: int = 1024) -> Self: ...
    def join(
        self, topic: str, properties: dict[str, str] | None = None, waiter: object = None
    ) -> bool: ...
    def complete(self, topic: str, properties: dict[str, str] | None = None) -> list[Any]: ...
    def __len__(self) -> int: ...
    @property
    def capacity(self) -> int: ...

@final
class MetadataCoalescer:
    """Partitioned-metadata requests in flight, keyed by (topic, auto-creation, fallback)."""

    def __new__(cls, capacity: int = 1024) -> Self: ...
    def join(
        self,
        topic: str,
        metadata_auto_creation: bool = True,
        use_fallback_for_non_pip344: bool = False,
        waiter: object = None,
    ) -> bool: ...
    def complete(
        self,
        topic: str,
        metadata_auto_creation: bool = True,
        use_fallback_for_non_pip344: bool = False,
    ) -> list[Any]: ...
    def __len__(self) -> int: ...
    @property
    def capacity(self) -> int: ...

@final
class Backoff:
    """The Java client's Backoff, with the clock and the randomness as arguments; thread-safe."""

    def __new__(
        cls, initial_ms: int = 100, max_ms: int = 60000, mandatory_stop_ms: int = 60000
    ) -> Self: ...
    def next(self, now_ms: int, random: int = 0) -> int: ...
    def reset(self) -> None: ...

@final
class LookupThrottle:
    """A connection's lookup limits (concurrentLookupRequest, maxLookupRequest)."""

    def __new__(
        cls, concurrent_lookup_requests: int = 5000, max_lookup_requests: int = 50000
    ) -> Self: ...
    def acquire(self) -> str: ...
    def release(self) -> bool: ...
    def cancel_queued(self) -> bool: ...
    @property
    def in_flight(self) -> int: ...
    @property
    def queued(self) -> int: ...

# Routers.

@final
class RoundRobinRouter:
    """Java's default router (RoundRobinPartitionMessageRouterImpl); thread-safe."""

    def __new__(
        cls,
        scheme: _Scheme = "java_string",
        *,
        start_partition_index: int | None = None,
        batching: bool = True,
        partition_switch_ms: int = 10,
    ) -> Self: ...
    def choose_partition(
        self, key: _Key, num_partitions: int, *, now_ms: int | None = None
    ) -> int:
        """The partition for a message with key; now_ms=None reads the clock."""

    @property
    def scheme(self) -> str: ...
    @property
    def start_partition_index(self) -> int: ...
    @property
    def partition_switch_ms(self) -> int | None: ...

@final
class SinglePartitionRouter:
    """SinglePartitionMessageRouterImpl: keyless messages to one fixed partition."""

    def __new__(cls, partition_index: int, scheme: _Scheme = "java_string") -> Self: ...
    def choose_partition(
        self, key: _Key, num_partitions: int, *, now_ms: int | None = None
    ) -> int:
        """The partition for a message with key; now_ms is ignored."""

    @property
    def scheme(self) -> str: ...
    @property
    def partition_index(self) -> int: ...

@final
class CustomRouter:
    """Routes by choose(key, num_partitions), checked as the Java producer checks it."""

    def __new__(cls, choose: Callable[[_Key, int], int], /) -> Self: ...
    def choose_partition(
        self, key: _Key, num_partitions: int, *, now_ms: int | None = None
    ) -> int:
        """Calls choose; anything but an int in [0, num_partitions) raises IllegalPartitionIndexError."""

    @property
    def choose(self) -> Callable[[_Key, int], int]: ...

# Producer configuration.

@final
class MessageRoutingMode:
    """Java's MessageRoutingMode."""

    RoundRobinPartition: ClassVar[MessageRoutingMode]
    SinglePartition: ClassVar[MessageRoutingMode]
    CustomPartition: ClassVar[MessageRoutingMode]
    def __int__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def resolve_routing_mode(
    mode: MessageRoutingMode | None, custom_router_set: bool
) -> MessageRoutingMode:
    """The routing mode a producer builder ends up with, or RoutingConfigError."""

def partition_switch_ms(frequency: int = 10, max_publish_delay_us: int = 1000) -> int:
    """The batching round-robin switch interval in ms, or RoutingConfigError."""

# Topic names.

# "4.2" (the 4.2 release, checked against Pulsar 4.2.4; the default), "v4" (an
# older 4.x line that accepts V1 names) or "master" (5.0 development).
_Rules: TypeAlias = str
# Many topics: an iterable of str/TopicName/None, a 1-D numpy array (dtype U,
# O or T), or a pyarrow Array or ChunkedArray of string or large_string.
_Topics: TypeAlias = Iterable[str | TopicName | None] | NDArray[Any]

@final
class TopicName:
    """A topic name parsed as Java's TopicName.get; str() is the canonical name."""

    def __new__(cls, name: str, *, rules: _Rules = "4.2") -> Self: ...
    @property
    def domain(self) -> str:
        """"persistent", "non-persistent", or (master rules) "topic" or "segment"."""

    @property
    def tenant(self) -> str: ...
    @property
    def cluster(self) -> str | None:
        """The cluster of a V1 name (v4 rules only), or None."""

    @property
    def namespace_portion(self) -> str: ...
    @property
    def namespace(self) -> str:
        """tenant/namespace, or tenant/cluster/namespace for a V1 name."""

    @property
    def local_name(self) -> str: ...
    @property
    def partition_index(self) -> int:
        """The index of a -partition-<n> suffix, or -1."""

    @property
    def partitioned(self) -> bool: ...
    @property
    def persistent(self) -> bool: ...
    @property
    def segment_descriptor(self) -> str | None: ...
    @property
    def partitioned_topic_name(self) -> str: ...
    @property
    def lookup_name(self) -> str: ...
    @property
    def persistence_naming(self) -> str: ...
    @property
    def rest_path(self) -> str: ...
    @property
    def encoded_local_name(self) -> str: ...
    @property
    def crc32(self) -> int:
        """CRC-32 of the canonical name: the broker's bundle hash."""

    @property
    def rules(self) -> _Rules: ...
    def partition(self, index: int, /) -> str:
        """Java's getPartition(index): the name of partition index."""

    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, str]]: ...

def get_partition_index(topic: str, /) -> int:
    """Java's TopicName.getPartitionIndex(topic): the -partition-<n> number, or -1."""

# Namespace bundles.

@final
class BundleRange:
    """One bundle: [lower, upper), or [lower, 0xffffffff]; str() is 0x%08x_0x%08x."""

    def __new__(cls, lower: int, upper: int) -> Self: ...
    @staticmethod
    def parse(text: str, /) -> BundleRange:
        """Parses a range name as the broker's admin API does (Long.decode bounds)."""

    @property
    def lower(self) -> int: ...
    @property
    def upper(self) -> int:
        """The upper bound as printed: exclusive unless it is 0xffffffff."""

    @property
    def upper_closed(self) -> bool: ...
    def includes(self, hash: int, /) -> bool: ...
    def __contains__(self, hash: int, /) -> bool: ...
    def can_split(self) -> bool:
        """Whether the bounds are more than 1 apart (Java's canSplitBundle)."""

    def key(self, namespace: str, /) -> str:
        """The bundle key namespace/range."""

    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __lt__(self, other: BundleRange, /) -> bool: ...
    def __le__(self, other: BundleRange, /) -> bool: ...
    def __gt__(self, other: BundleRange, /) -> bool: ...
    def __ge__(self, other: BundleRange, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __getnewargs__(self) -> tuple[int, int]: ...

# Per topic, [msgRateIn, msgRateOut, msgThroughputIn, msgThroughputOut], or
# None for a topic without stats; or an (n, 4) float array.
_TopicStats: TypeAlias = Sequence[Sequence[float] | None] | NDArray[np.floating[Any]]
# A bundle as a BundleRange or as its name ("0x00000000_0x40000000").
_Bundle: TypeAlias = BundleRange | str

@final
class NamespaceBundles:
    """A namespace's bundle layout (Java's NamespaceBundles); immutable.

    The batch methods (bundle_indexes, count_per_bundle, compare) index an
    explicit layout for large batches: faster, with the same answers.
    """

    def __new__(cls, num_bundles: int = 4) -> Self: ...
    @staticmethod
    def from_boundaries(boundaries: Iterable[int | str], /) -> NamespaceBundles:
        """A layout from its boundaries (ints, or strings read by Long.decode)."""

    @property
    def num_bundles(self) -> int: ...
    def __len__(self) -> int: ...
    def __getitem__(self, index: int, /) -> BundleRange: ...
    def __iter__(self) -> Iterator[BundleRange]: ...
    def boundaries(self) -> list[int]: ...
    def bundles(self) -> list[BundleRange]: ...
    def bundle_index_for_hash(self, hash: int, *, strict: bool = False) -> int:
        """strict=True raises where the broker's lookup throws (0xffffffff)."""

    def bundle_for_hash(self, hash: int, *, strict: bool = False) -> BundleRange: ...
    def bundle_for_topic(
        self, topic: str | TopicName, *, rules: _Rules = "4.2", strict: bool = False
    ) -> BundleRange:
        """The bundle of the CRC-32 of the topic's canonical name."""

    def validate_bundle(self, bundle: _Bundle, /) -> int:
        """The bundle's index, or BundleError if it is not one of these bundles."""

    def split_boundaries(
        self,
        bundle: _Bundle,
        algorithm: str = "range_equally_divide",
        *,
        positions: Sequence[int] | None = None,
        topics: _Topics | None = None,
        topic_stats: _TopicStats | None = None,
        max_msg_rate: int | None = None,
        max_bandwidth_mbytes: int | None = None,
        threshold_percent: int | None = None,
        rules: _Rules = "4.2",
    ) -> list[int] | None:
        """The split points the broker's algorithm chooses, or None for no split."""

    def split(
        self,
        bundle: _Bundle,
        algorithm: str = "range_equally_divide",
        *,
        positions: Sequence[int] | None = None,
        topics: _Topics | None = None,
        topic_stats: _TopicStats | None = None,
        max_msg_rate: int | None = None,
        max_bandwidth_mbytes: int | None = None,
        threshold_percent: int | None = None,
        rules: _Rules = "4.2",
    ) -> tuple[NamespaceBundles, list[BundleRange]]:
        """The layout after the broker's split, and the new bundles ([] for no split)."""

    def split_equally(
        self, bundle: _Bundle, parts: int = 2
    ) -> tuple[NamespaceBundles, list[BundleRange]]:
        """splitBundles(bundle, parts, null): the new layout and the new bundles."""

    def bundle_indexes(
        self,
        topics: _Topics,
        *,
        partitions: int | None = None,
        rules: _Rules = "4.2",
        strict: bool = False,
    ) -> NDArray[np.int32]:
        """The bundle index of every topic (-1 for None); shape (len, n) with partitions=n."""

    def count_per_bundle(
        self, topics: _Topics, *, partitions: int | None = None, rules: _Rules = "4.2"
    ) -> NDArray[np.int64]:
        """How many topics (or partitions) each bundle serves."""

    def compare(
        self,
        after: NamespaceBundles,
        topics: _Topics,
        *,
        partitions: int | None = None,
        rules: _Rules = "4.2",
    ) -> NDArray[np.bool_]:
        """True for each topic whose bundle in after differs from its bundle here."""

    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]: ...

def topic_bundle(topic: str | TopicName, num_bundles: int = 4, *, rules: _Rules = "4.2") -> str:
    """The name of the bundle that serves topic in the default layout of num_bundles."""

def default_boundaries(num_bundles: int, /) -> list[int]:
    """The boundaries of the default layout (PoliciesUtil.getBundles)."""

def parse_boundary(text: str, /) -> int:
    """One boundary read as the broker reads BundlesData (Long.decode), in 0..=0xffffffff."""

def validate_full_range(boundaries: Iterable[str], /) -> None:
    """The admin API's validateFullRange; raises BundleError."""

# Key_Shared subscriptions.

NONE_KEY: bytes
# Per consumer id, its (start, end) ranges (inclusive) in slot order.
_RangesByConsumer: TypeAlias = dict[int, list[tuple[int, int]]]
# A selector name ("auto_split", "consistent_hashing", "exclusive") or a
# selector, whose own key hash range is used.
_Selector: TypeAlias = str | AutoSplitSelector | ConsistentHashingSelector | ExclusiveSelector
# Many sticky keys: an iterable of str/bytes/None, a 1-D numpy array (dtype
# U, S, O or T), or a pyarrow Array or ChunkedArray of string, large_string,
# binary or large_binary. None (or null) is a message without any key.
_StickyKeys: TypeAlias = Iterable[str | bytes | None] | NDArray[Any]
# Slots: a sequence or 1-D array of ints.
_Slots: TypeAlias = Sequence[int] | NDArray[np.integer[Any]]

def sticky_key_hash(key: str | _Bytes, selector: _Selector) -> int:
    """The slot of a sticky key under a selector (str keys as UTF-8)."""

def sticky_key_hashes(keys: _StickyKeys, selector: _Selector) -> NDArray[np.uint32]:
    """The slot of every sticky key, as a uint32 array (None hashed as NONE_KEY)."""

def sticky_key(
    *,
    ordering_key: str | _Bytes | None = None,
    partition_key: str | _Bytes | None = None,
    partition_key_b64_encoded: bool = False,
    producer_name: str | _Bytes | None = None,
    sequence_id: int | None = None,
) -> bytes:
    """The bytes the broker hashes for a message (Commands.resolveStickyKey)."""

def validate_sticky_ranges(ranges: Iterable[Sequence[int]], /) -> None:
    """The Java client's KeySharedPolicy check; raises KeySharedPolicyError."""

def ring_point(name: str | _Bytes, name_index: int, i: int, range_max: int = 65535) -> int:
    """Ring point i of a consumer in a consistent-hashing selector over [1, range_max]."""

@final
class Impact:
    """What one add or remove moved: per consumer id, the ranges it lost and gained."""

    @property
    def removed(self) -> _RangesByConsumer: ...
    @property
    def added(self) -> _RangesByConsumer: ...
    def __bool__(self) -> bool: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class AutoSplitSelector:
    """The broker's range-splitting selector (AUTO_SPLIT without consistent hashing); thread-safe."""

    def __new__(cls, range_size: int = 65536) -> Self: ...
    def add(self, consumer_id: int, name: str, ranges: None = None) -> Impact:
        """Adds a consumer (the name does not matter); raises ConsumerAssignError."""

    @property
    def range_size(self) -> int: ...
    def remove(self, consumer_id: int) -> Impact:
        """Removes a consumer; an unknown one is a no-op with an empty Impact."""

    def select(self, slot: int) -> int | None: ...
    def select_key(self, key: str | _Bytes, /) -> int | None: ...
    def select_keys(self, keys: _StickyKeys, /) -> NDArray[np.int64]:
        """The consumer of every key, -1 for none; the GIL is released for long inputs."""

    def select_slots(self, slots: _Slots, /) -> NDArray[np.int64]: ...
    def assignments(self) -> list[tuple[int, int, int]]:
        """The broker's snapshot, (start, end, consumer_id) in slot order."""

    def ranges_by_consumer(self) -> _RangesByConsumer: ...
    def consumers(self) -> list[int]: ...
    @property
    def key_hash_range(self) -> tuple[int, int]: ...
    def sticky_key_hash(self, key: str | _Bytes, /) -> int: ...
    def copy(self) -> AutoSplitSelector: ...
    def __len__(self) -> int: ...
    def __contains__(self, consumer_id: object, /) -> bool: ...

@final
class ConsistentHashingSelector:
    """The broker's consistent-hashing selector (AUTO_SPLIT, the default); thread-safe."""

    def __new__(cls, points: int = 100, range_max: int = 65535) -> Self: ...
    def add(self, consumer_id: int, name: str, ranges: None = None) -> Impact:
        """Adds a consumer; only it gains. Raises ConsumerAssignError for a known id."""

    @property
    def points(self) -> int: ...
    @property
    def range_max(self) -> int: ...
    def name_index(self, consumer_id: int, /) -> int | None: ...
    def consumer_points(self, consumer_id: int, /) -> list[int]: ...
    def remove(self, consumer_id: int) -> Impact:
        """Removes a consumer; an unknown one is a no-op with an empty Impact."""

    def select(self, slot: int) -> int | None: ...
    def select_key(self, key: str | _Bytes, /) -> int | None: ...
    def select_keys(self, keys: _StickyKeys, /) -> NDArray[np.int64]:
        """The consumer of every key, -1 for none; the GIL is released for long inputs."""

    def select_slots(self, slots: _Slots, /) -> NDArray[np.int64]: ...
    def assignments(self) -> list[tuple[int, int, int]]:
        """The broker's snapshot, (start, end, consumer_id) in slot order."""

    def ranges_by_consumer(self) -> _RangesByConsumer: ...
    def consumers(self) -> list[int]: ...
    @property
    def key_hash_range(self) -> tuple[int, int]: ...
    def sticky_key_hash(self, key: str | _Bytes, /) -> int: ...
    def copy(self) -> ConsistentHashingSelector: ...
    def __len__(self) -> int: ...
    def __contains__(self, consumer_id: object, /) -> bool: ...

@final
class ExclusiveSelector:
    """The broker's exclusive selector (STICKY mode); legacy=True: before PR #24730. Thread-safe."""

    def __new__(cls, *, legacy: bool = False) -> Self: ...
    def add(
        self, consumer_id: int, name: str, ranges: Iterable[Sequence[int]] | None = None
    ) -> Impact:
        """Adds a consumer with its (start, end) ranges and returns the slots it took; raises ConsumerAssignError."""

    @property
    def legacy(self) -> bool: ...
    def remove(self, consumer_id: int) -> Impact:
        """Removes a consumer; an unknown one is a no-op with an empty Impact."""

    def select(self, slot: int) -> int | None: ...
    def select_key(self, key: str | _Bytes, /) -> int | None: ...
    def select_keys(self, keys: _StickyKeys, /) -> NDArray[np.int64]:
        """The consumer of every key, -1 for none; the GIL is released for long inputs."""

    def select_slots(self, slots: _Slots, /) -> NDArray[np.int64]: ...
    def assignments(self) -> list[tuple[int, int, int]]:
        """The broker's snapshot, (start, end, consumer_id) in slot order."""

    def ranges_by_consumer(self) -> _RangesByConsumer: ...
    def consumers(self) -> list[int]: ...
    @property
    def key_hash_range(self) -> tuple[int, int]: ...
    def sticky_key_hash(self, key: str | _Bytes, /) -> int: ...
    def copy(self) -> ExclusiveSelector: ...
    def __len__(self) -> int: ...
    def __contains__(self, consumer_id: object, /) -> bool: ...

class SenderConfigError(PulsarRoutingError): ...
class SenderError(PulsarRoutingError): ...

class SenderNotReadyError(SenderError):
    readiness: Readiness

class ProducerQueueIsFullError(PulsarRoutingError):
    would_block: bool

@final
class SenderConfig:
    """Kafka producer settings read by the sender gate; Kafka's defaults and checks."""

    def __new__(
        cls,
        max_in_flight: int = 5,
        enable_idempotence: bool = True,
        *,
        reconnect_backoff_ms: int = 50,
        reconnect_backoff_max_ms: int = 1000,
        metadata_max_age_ms: int = 300000,
        retry_backoff_ms: int = 100,
        retry_backoff_max_ms: int = 1000,
    ) -> Self: ...
    @property
    def max_in_flight(self) -> int: ...
    @property
    def enable_idempotence(self) -> bool: ...
    @property
    def strict_ordering(self) -> bool: ...
    @property
    def reconnect_backoff_ms(self) -> int: ...
    @property
    def reconnect_backoff_max_ms(self) -> int: ...
    @property
    def metadata_max_age_ms(self) -> int: ...
    @property
    def retry_backoff_ms(self) -> int: ...
    @property
    def retry_backoff_max_ms(self) -> int: ...
    def reconnect_backoff(self, attempts: int, jitter: float = 0.5) -> int:
        """The reconnect backoff after attempts failures; jitter is a draw in [0, 1)."""

@final
class Readiness:
    """A node's readiness: "ready" or the first failed check, with its details."""

    @property
    def node(self) -> int: ...
    @property
    def reason(self) -> str: ...
    @property
    def is_ready(self) -> bool: ...
    @property
    def state(self) -> str: ...
    @property
    def in_flight(self) -> int: ...
    @property
    def max_in_flight(self) -> int: ...
    @property
    def metadata_age_ms(self) -> int: ...
    @property
    def metadata_update_requested(self) -> bool: ...
    @property
    def backoff_remaining_ms(self) -> int: ...

@final
class SenderGate:
    """The Kafka producer's sender readiness gate, driven step by step. Not thread-safe."""

    def __new__(cls, nodes: Sequence[int], config: SenderConfig | None = None) -> Self: ...
    @property
    def config(self) -> SenderConfig: ...
    @property
    def nodes(self) -> list[int]: ...
    def ready(self, node: int, now_ms: int) -> Readiness:
        """NetworkClient.ready: on "initiate_connect" the node moves to CONNECTING."""

    def check(self, node: int, now_ms: int) -> Readiness: ...
    def filter_ready(self, nodes: list[int], now_ms: int) -> list[Readiness]:
        """Removes the unready nodes from the list in place; returns every readiness."""

    def connection_event(
        self, node: int, event: str, now_ms: int, jitter: float = 0.5
    ) -> None: ...
    def throttle(self, node: int, until_ms: int) -> None: ...
    def send(self, node: int, now_ms: int) -> Readiness:
        """A produce request; raises SenderNotReadyError when the node is not ready."""

    def response(self, node: int, outcome: str = "success") -> None: ...
    def request_metadata_update(self) -> None: ...
    def metadata_fetch_started(self) -> None: ...
    def metadata_updated(self, now_ms: int, jitter: float = 0.5) -> None: ...
    def metadata_failed(self, now_ms: int, jitter: float = 0.5) -> None: ...
    def time_to_next_metadata_update(self, now_ms: int) -> int: ...
    def is_metadata_update_due(self, now_ms: int) -> bool: ...
    def connection_state(self, node: int) -> str: ...
    def in_flight(self, node: int) -> int: ...
    def counters(self, now_ms: int) -> dict[str, int | float]:
        """connection-count, connection-creation-total, in-flight-requests-count, metadata-age (s)."""

@final
class PendingQueue:
    """A Pulsar producer's pending queue (maxPendingMessages, blockIfQueueFull)."""

    def __new__(cls, max_pending_messages: int = 0, block_if_queue_full: bool = False) -> Self: ...
    def check(self) -> str:
        """"ok", "would_block" or "would_fail"."""

    def try_enqueue(self) -> None:
        """Raises ProducerQueueIsFullError when full."""

    def complete(self, n: int = 1) -> None: ...
    @property
    def pending(self) -> int: ...
    @property
    def max_pending_messages(self) -> int: ...
    @property
    def block_if_queue_full(self) -> bool: ...

def required_max_pending_messages(peak_rate_per_sec: int, reconnect_window_ms: int) -> int: ...

@final
class KeyCounts:
    """Distinct keys with their summed weights, and the weight of keyless rows."""

    def __init__(self) -> None: ...
    def add(self, keys: Any, weights: Sequence[float] | NDArray[np.float64] | None = None) -> None: ...
    def add_keyless(self, weight: float = 1.0) -> None: ...
    def __len__(self) -> int: ...
    @property
    def rows(self) -> int: ...
    @property
    def keyless_weight(self) -> float | None: ...
    @property
    def total_key_bytes(self) -> int: ...
    def sorted(self) -> list[tuple[str | bytes, float]]: ...
    def to_arrow(self) -> tuple[Any, NDArray[np.float64]]: ...
