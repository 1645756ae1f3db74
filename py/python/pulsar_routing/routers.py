"""Producer to partition: the Java client's routers and routing keys.

A ``str`` key is what Java's ``key(String)`` sets, ``bytes`` what
``keyBytes(byte[])`` sets (its Base64 text is hashed), and ``None`` means no
key. Hashing schemes are ``"java_string"`` (Java's default) and
``"murmur3_32"``.

- :func:`partition_for_key`, :func:`partition_for_key_bytes` and
  :func:`routing_key_hash` for one key, :func:`partitions_for_keys` for
  many (a numpy array);
- the routers :class:`RoundRobinRouter` (Java's default),
  :class:`SinglePartitionRouter` and :class:`CustomRouter` (each a
  :class:`MessageRouter`), with :class:`MessageRoutingMode`,
  :func:`resolve_routing_mode`, :func:`partition_switch_ms` and
  :func:`check_partition`;
- their errors: :class:`PartitionCountError`,
  :class:`IllegalPartitionIndexError`, :class:`RoutingConfigError` and
  :class:`UnknownHashingSchemeError`.

>>> from pulsar_routing.routers import RoundRobinRouter, partition_for_key
>>> partition_for_key("user-42", 12)
4
>>> RoundRobinRouter("murmur3_32").choose_partition("user-42", 12)
0
"""

from __future__ import annotations

from typing import Protocol

from ._pulsar_routing import (
    CustomRouter,
    IllegalPartitionIndexError,
    MessageRoutingMode,
    PartitionCountError,
    RoundRobinRouter,
    RoutingConfigError,
    SinglePartitionRouter,
    UnknownHashingSchemeError,
    check_partition,
    partition_for_key,
    partition_for_key_bytes,
    partition_switch_ms,
    partitions_for_keys,
    resolve_routing_mode,
    routing_key_hash,
)

__all__ = [
    "CustomRouter",
    "IllegalPartitionIndexError",
    "MessageRouter",
    "MessageRoutingMode",
    "PartitionCountError",
    "RoundRobinRouter",
    "RoutingConfigError",
    "SinglePartitionRouter",
    "UnknownHashingSchemeError",
    "check_partition",
    "partition_for_key",
    "partition_for_key_bytes",
    "partition_switch_ms",
    "partitions_for_keys",
    "resolve_routing_mode",
    "routing_key_hash",
]


class MessageRouter(Protocol):
    """What every router here offers (the core's ``MessageRouter`` trait).

    ``now_ms`` is read only by :class:`RoundRobinRouter`, for keyless
    messages with batching.
    """

    def choose_partition(
        self,
        key: str | bytes | None,
        num_partitions: int,
        *,
        now_ms: int | None = None,
    ) -> int: ...
