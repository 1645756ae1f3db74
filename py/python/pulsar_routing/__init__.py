"""Apache Pulsar's routing, byte-for-byte as the Java client and broker compute it.

Producer to partition: a ``str`` key is what Java's ``key(String)`` sets, ``bytes`` what
``keyBytes(byte[])`` sets (its Base64 text is hashed), and ``None`` means no
key. Hashing schemes are named ``"java_string"`` (Java's default) and
``"murmur3_32"``.

>>> from pulsar_routing import partition_for_key
>>> partition_for_key("user-42", 12)
4
>>> partition_for_key("user-42", 12, scheme="murmur3_32")
0

Topic to namespace bundle: :class:`TopicName` parses topic names as the
broker does, and :class:`NamespaceBundles` maps them to bundles (by the
CRC-32 of the canonical name) and splits bundles with the broker's
algorithms.

>>> from pulsar_routing import NamespaceBundles, topic_bundle
>>> topic_bundle("my-topic", 4)
'0x00000000_0x40000000'
>>> NamespaceBundles(4).bundle_for_topic("my-topic").key("public/default")
'public/default/0x00000000_0x40000000'

Key_Shared subscriptions, message key to consumer: :func:`sticky_key` and
:func:`sticky_key_hash` give a message's sticky key and its slot, and
:class:`ConsistentHashingSelector` (the broker's default),
:class:`AutoSplitSelector` and :class:`ExclusiveSelector` assign slots to
consumers as the broker does, reporting what each add and remove moves.

>>> from pulsar_routing import ConsistentHashingSelector
>>> selector = ConsistentHashingSelector()
>>> selector.add(1, "consumer-a")
Impact(removed={}, added={1: [(1, 65535)]})
>>> selector.select_key("order-17")
1

Every name here also lives in the submodule named after the core's module
that computes it: :mod:`~pulsar_routing.hashes`,
:mod:`~pulsar_routing.routers`, :mod:`~pulsar_routing.topics`,
:mod:`~pulsar_routing.bundles`, :mod:`~pulsar_routing.key_shared`,
:mod:`~pulsar_routing.lookup`, :mod:`~pulsar_routing.sender`,
:mod:`~pulsar_routing.profiles` and :mod:`~pulsar_routing.kafka`, and
the key counter of the owned layer in :mod:`~pulsar_routing.key_counts`;
the capacity planner is :mod:`~pulsar_routing.plan`. Only
:class:`PulsarRoutingError`, the base of every error, and ``__version__``
belong to the package itself.
"""

from __future__ import annotations

# Each submodule's `__all__` is what the top level takes from it, except
# lookup's and sender's: their replays stay in the submodule (the two
# `replay`s would clash), so the names taken are listed.
from ._pulsar_routing import PulsarRoutingError, __version__
from .bundles import *
from .hashes import *
from .kafka import *
from .key_counts import *
from .key_shared import *
from .lookup import (
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
from .profiles import *
from .routers import *
from .sender import (
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
from .topics import *

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
    "KAFKA_MURMUR2_SEED",
    "NONE_KEY",
    "AutoSplitSelector",
    "BundleError",
    "BundleRange",
    "ConsistentHashingSelector",
    "ConsumerAssignError",
    "Crc32",
    "CustomRouter",
    "DivisionByZeroError",
    "ExclusiveSelector",
    "IllegalPartitionIndexError",
    "Impact",
    "KafkaBuiltInPartitioner",
    "KafkaJavaClientPartitioner",
    "KeyCounts",
    "KeyCountsError",
    "KafkaMurmur2Hasher",
    "KafkaPartitionError",
    "KeySharedPolicyError",
    "LibrdkafkaProducer",
    "MessageRouter",
    "MessageRoutingMode",
    "Murmur3Hasher",
    "NamespaceBundles",
    "PartitionCountError",
    "ProfileConfigError",
    "ProfileRouteError",
    "ProfileRouter",
    "PulsarRoutingError",
    "RoundRobinRouter",
    "RoutingConfigError",
    "SelectorConfigError",
    "SinglePartitionRouter",
    "TopicName",
    "TopicNameError",
    "UnknownHashingSchemeError",
    "__version__",
    "boost_hash_1_74_x86_64_raw",
    "check_partition",
    "cpp_partition_index",
    "cpp_partitioned_producer_check",
    "crc32",
    "default_boundaries",
    "get_partition_index",
    "go_atoi",
    "go_partition_index",
    "java_lossy_utf8",
    "java_string_hash",
    "java_string_hash_bytes",
    "java_string_hashcode",
    "java_string_hashcode_bytes",
    "kafka_fnv1a",
    "kafka_murmur2",
    "kafka_partition",
    "kafka_partition_load_stats",
    "kafka_partitions",
    "kafka_to_positive",
    "librdkafka_default_sticky_linger_ms",
    "librdkafka_partition",
    "librdkafka_random_partition",
    "murmur3_32",
    "murmur3_32_raw",
    "parse_boundary",
    "partition_for_key",
    "partition_for_key_bytes",
    "partition_switch_ms",
    "partitions_for_keys",
    "profile_key_hash",
    "profile_key_hash_name",
    "profile_partition",
    "profile_partitions",
    "resolve_routing_mode",
    "ring_point",
    "routing_key_hash",
    "sign_safe_mod",
    "sticky_key",
    "sticky_key_hash",
    "sticky_key_hashes",
    "topic_bundle",
    "validate_full_range",
    "validate_sticky_ranges",
]
