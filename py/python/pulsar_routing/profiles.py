"""How the other Pulsar clients route a key: Go, C++, Python, pulsar-rs, DotPulsar.

They disagree with Java. :func:`profile_partition` and
:func:`profile_partitions` give the partition a producer of ``"java"``,
``"go"``, ``"cpp"``, ``"python"``, ``"pulsar-rs"`` or ``"dotpulsar"`` sends
a key to (``None`` / -1 where it routes the message as keyless);
:class:`ProfileRouter` is one such producer's router, keyless state
included. :func:`profile_key_hash_name` and :func:`profile_key_hash` name
and compute each client's key hash (:func:`boost_hash_1_74_x86_64_raw` is
C++'s BoostHash of one known build); :func:`go_partition_index`,
:func:`go_atoi`, :func:`cpp_partition_index` and
:func:`cpp_partitioned_producer_check` are those clients' own rules.
Errors: :class:`ProfileConfigError` (an option the client does not have)
and :class:`ProfileRouteError` (a key it cannot route).

>>> from pulsar_routing.profiles import profile_partition
>>> profile_partition("customer-000042", 10, "java"), profile_partition("customer-000042", 10, "go")
(1, 9)
>>> profile_partition("", 10, "go") is None
True
"""

from __future__ import annotations

from ._pulsar_routing import (
    ProfileConfigError,
    ProfileRouteError,
    ProfileRouter,
    boost_hash_1_74_x86_64_raw,
    cpp_partition_index,
    cpp_partitioned_producer_check,
    go_atoi,
    go_partition_index,
    profile_key_hash,
    profile_key_hash_name,
    profile_partition,
    profile_partitions,
)

__all__ = [
    "ProfileConfigError",
    "ProfileRouteError",
    "ProfileRouter",
    "boost_hash_1_74_x86_64_raw",
    "cpp_partition_index",
    "cpp_partitioned_producer_check",
    "go_atoi",
    "go_partition_index",
    "profile_key_hash",
    "profile_key_hash_name",
    "profile_partition",
    "profile_partitions",
]
