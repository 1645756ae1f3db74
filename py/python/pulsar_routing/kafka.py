"""Kafka's partitioners: the Java client's and librdkafka's.

:func:`kafka_partition` and :func:`kafka_partitions` give the partition a
Kafka producer sends a key to (``"java"``: ``toPositive(murmur2(key)) % n``;
else a librdkafka partitioner), ``None`` / -1 where it would pick at random
or stick. The hashes: :func:`kafka_murmur2` (seed
:data:`KAFKA_MURMUR2_SEED`, streaming in :class:`KafkaMurmur2Hasher`),
:func:`kafka_to_positive` and :func:`kafka_fnv1a`. The keyless state
machines: :class:`KafkaBuiltInPartitioner` (KIP-794's sticky partitioner),
:class:`KafkaJavaClientPartitioner` (the Java ``KafkaProducer``'s whole
choice) and :class:`LibrdkafkaProducer`, with
:func:`kafka_partition_load_stats`, :func:`librdkafka_partition`,
:func:`librdkafka_random_partition` and
:func:`librdkafka_default_sticky_linger_ms`. A record that cannot be placed
raises :class:`KafkaPartitionError`.

>>> from pulsar_routing.kafka import kafka_murmur2, kafka_partition, kafka_to_positive
>>> kafka_partition(b"kafka", 12) == kafka_to_positive(kafka_murmur2(b"kafka")) % 12
True
>>> kafka_partition(None, 12) is None
True
"""

from __future__ import annotations

from ._pulsar_routing import (
    KAFKA_MURMUR2_SEED,
    KafkaBuiltInPartitioner,
    KafkaJavaClientPartitioner,
    KafkaMurmur2Hasher,
    KafkaPartitionError,
    LibrdkafkaProducer,
    kafka_fnv1a,
    kafka_murmur2,
    kafka_partition,
    kafka_partition_load_stats,
    kafka_partitions,
    kafka_to_positive,
    librdkafka_default_sticky_linger_ms,
    librdkafka_partition,
    librdkafka_random_partition,
)

__all__ = [
    "KAFKA_MURMUR2_SEED",
    "KafkaBuiltInPartitioner",
    "KafkaJavaClientPartitioner",
    "KafkaMurmur2Hasher",
    "KafkaPartitionError",
    "LibrdkafkaProducer",
    "kafka_fnv1a",
    "kafka_murmur2",
    "kafka_partition",
    "kafka_partition_load_stats",
    "kafka_partitions",
    "kafka_to_positive",
    "librdkafka_default_sticky_linger_ms",
    "librdkafka_partition",
    "librdkafka_random_partition",
]
