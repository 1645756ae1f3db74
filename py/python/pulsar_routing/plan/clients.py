"""6b. Cross-client divergence: every pair of client setups (Pulsar client profiles, Kafka partitioners).

A *setup* names how a producer routes keys:

* a Pulsar client profile with its defaults: ``java``, ``go``, ``cpp``,
  ``python``, ``pulsar-rs``, ``dotpulsar``;
* a profile with one option, ``PROFILE:OPTION``, where the option is a
  hashing scheme (``java_string``, ``murmur3_32``, ``boost``), the BoostHash
  of the Boost release a C++ or Python client was built with
  (``boost_1_74``, ``boost_1_81``, ``boost_1_85``...: one of the generations
  1.33, 1.62, 1.81 and 1.82; ``boost_1_74_x86_64`` is an older spelling of
  ``boost_1_74``), or a routing mode (``round_robin``, ``single_partition``);
* ``kafka`` (the Java Kafka client: ``toPositive(murmur2(key)) % n``) or
  ``kafka:PARTITIONER`` (a librdkafka partitioner, e.g. ``kafka:consistent_random``);
* a client made to route like Java by this project's adapter,
  ``CLIENT+java_router`` or ``CLIENT+java_router:SCHEME`` (the Java
  producers' scheme, ``java_string`` by default): ``python+java_router``
  (:func:`pulsar_routing.clients.java_router`) and ``cpp+java_router``
  (``include/pulsar_routing_libpulsar.h``, C and C++). They route as Java
  but for what the client cannot carry: partitions above 32767 (the send
  fails), keys given as ``bytes`` (neither client has ``keyBytes``), and
  for Python the empty key (sent as no key).

Keys are sent as ``str`` (UTF-8 for every client but Java's JavaStringHash)
or ``bytes``; a key a client routes as keyless (Go's ``""``, every key of
pulsar-rs without ``round_robin``) is routed to "no partition", which differs
from every partition.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..kafka import kafka_partitions
from ..profiles import ProfileConfigError, ProfileRouteError, profile_partitions
from .inputs import KeysLike, WeightsLike, key_sample
from .results import ClientDivergencePair, ClientDivergenceReport

PROFILES = ("java", "go", "cpp", "python", "pulsar-rs", "dotpulsar")
"""The Pulsar client profiles."""

DEFAULT_CLIENT_SETUPS = (
    "java",
    "go",
    "cpp:boost_1_74",
    "python",
    "cpp:java_string",
    "pulsar-rs:round_robin",
    "dotpulsar",
    "java:murmur3_32",
    "kafka",
    "python+java_router",
    "cpp+java_router",
)
"""The setups compared by default: every client's default keyed routing
(C++'s BoostHash as built with Boost 1.74, Debian 12's and the generation of
the C++ client's own packages up to 3.4 and of pulsar-client wheels up to
3.5; Python's as the current wheel, Boost 1.82 and later; pulsar-rs with the
``RoundRobin`` policy, the one under which it reads keys), the one scheme
Java, Go and C++ agree on, Kafka's Java client, and the Python and C++
clients with this project's ``java_router`` adapter, which bring their keys
back to Java's partitions. ``cpp:boost_1_74``
against ``python`` is what upgrading from an old C++ build to the current
wheel does to keyed routing."""

_MODES = ("default", "round_robin", "single_partition")

ADAPTED_CLIENTS = ("python", "cpp")
"""The clients ``CLIENT+java_router`` names: those with an adapter here."""

# The highest partition the C++ client, and the Python client over it, can
# address: both cast the router's answer to a 16-bit short.
_CPP_MAX_PARTITION = 32767


def _key_list(keys: Any) -> list[Any]:
    if hasattr(keys, "to_pylist"):
        return list(keys.to_pylist())
    if hasattr(keys, "tolist"):
        return list(keys.tolist())
    return list(keys)


def _adapted_partitions(keys: Any, partitions: int, client: str, scheme: str) -> NDArray[np.int32]:
    """Java's partitions, with what the adapted client cannot carry marked:
    -1 where it sends the key as keyless, -2 where it cannot send it as
    Java's key or the send fails."""
    if client not in ADAPTED_CLIENTS:
        raise ProfileConfigError(
            f"no java_router adapter for {client!r} here; adapted clients: {', '.join(ADAPTED_CLIENTS)}"
        )
    out = profile_partitions(keys, partitions, "java", scheme=scheme).astype(np.int32)
    out[out > _CPP_MAX_PARTITION] = -2
    for i, key in enumerate(_key_list(keys)):
        if isinstance(key, (bytes, bytearray, memoryview)):
            out[i] = -2
        elif client == "python" and key == "":
            out[i] = -1
    return out


def setup_partitions(keys: Any, partitions: int, setup: str) -> NDArray[np.int32]:
    """The partition of every key under one setup; -1 where it routes the key as keyless (or at random),
    -2 where the producer fails the send (C++ and Python above 32767 partitions) or, for an adapted
    client, cannot send the key as Java's.

    ``keys`` is anything :func:`pulsar_routing.profile_partitions` takes.
    Raises :class:`pulsar_routing.ProfileConfigError` for an unknown setup and
    :class:`pulsar_routing.ProfileRouteError` for one that cannot be
    reproduced (``cpp`` defaults to BoostHash of an unnamed Boost: name it,
    e.g. ``cpp:boost_1_74``).
    """
    name, _, option = setup.partition(":")
    client, plus, adapter = name.partition("+")
    if plus:
        if adapter != "java_router":
            raise ProfileConfigError(f"unknown adapter {adapter!r} in {setup!r}; the adapter is java_router")
        return _adapted_partitions(keys, partitions, client, option or "java_string")
    if name == "kafka":
        return kafka_partitions(keys, partitions, option or "java")
    if not option:
        return profile_partitions(keys, partitions, name)
    if option == "boost_1_74_x86_64":
        option = "boost_1_74"
    if option.startswith("boost_1_"):
        release = "1." + option.removeprefix("boost_1_")
        return profile_partitions(keys, partitions, name, scheme="boost", boost=release)
    if option in _MODES:
        return profile_partitions(keys, partitions, name, mode=option)
    return profile_partitions(keys, partitions, name, scheme=option)


def client_divergence(
    keys: KeysLike,
    partitions: int | Sequence[int],
    setups: Sequence[str] = DEFAULT_CLIENT_SETUPS,
    *,
    weights: WeightsLike = None,
) -> ClientDivergenceReport:
    """The share of keys (and traffic) every pair of ``setups`` sends to different partitions.

    A setup that cannot be reproduced (``cpp``: BoostHash of an unnamed
    Boost) is left out and listed in ``skipped`` with the reason; an
    unknown setup raises :class:`pulsar_routing.ProfileConfigError`.
    """
    sample = key_sample(keys, weights)
    counts = [partitions] if isinstance(partitions, int) else list(partitions)
    keyed = sample.keyed_weight
    distinct = sample.distinct_keys
    used: list[str] = []
    skipped: dict[str, str] = {}
    routed: dict[tuple[str, int], NDArray[np.int32]] = {}
    for setup in dict.fromkeys(setups):
        try:
            for n in counts:
                routed[setup, n] = setup_partitions(sample.keys, n, setup)
        except ProfileRouteError as e:
            skipped[setup] = str(e)
            continue
        used.append(setup)
    pairs = []
    for i, a in enumerate(used):
        for b in used[i + 1 :]:
            for n in counts:
                pa, pb = routed[a, n], routed[b, n]
                differ = pa != pb
                count = int(differ.sum())
                pairs.append(
                    ClientDivergencePair(
                        setup_a=a,
                        setup_b=b,
                        partitions=n,
                        differing_keys=count,
                        differing_key_share=count / distinct if distinct else 0.0,
                        differing_traffic_share=float(sample.weights[differ].sum()) / keyed if keyed else 0.0,
                        keyless_keys=int(((pa == -1) | (pb == -1)).sum()),
                    )
                )
    notes = client_notes()
    cpp_setups = [s for s in used if s.partition(":")[0] in ("cpp", "python")]
    above = [n for n in counts if n > 32_767]
    if cpp_setups and above:
        notes.append(
            f"{', '.join(cpp_setups)} at {', '.join(map(str, above))} partitions: more than 32767. The C++ "
            "client (and the Python wheel over it) casts partitions to a 16-bit short; with "
            "lazy_start_partitioned_producers it also indexes its producers with that short at start, "
            "which crashed about one start in four at 40,000 partitions. Keep C++ and Python producers "
            "at 32767 partitions or fewer."
        )
    for (setup, n), parts in routed.items():
        failed = int((parts == -2).sum())
        if failed and "+" in setup.partition(":")[0]:
            notes.append(
                f"{setup} at {n} partitions: {failed} of {distinct} keys cannot reach Java's partition. The "
                "adapter refuses a partition above 32767 (the client's 16-bit cast would send it elsewhere; the "
                "send fails instead), and the client cannot send a bytes key (it has no keyBytes)."
            )
        elif failed:
            notes.append(
                f"{setup} at {n} partitions: the producer fails the send of {failed} of {distinct} keys. "
                "The C++ client (and the Python wheel over it) casts the partition to a 16-bit short, so "
                "above 32767 partitions keys land on the wrong partition or fail: keep C++ and Python "
                "producers at 32767 partitions or fewer."
            )
    return ClientDivergenceReport(
        setups=used, distinct_keys=distinct, partitions=counts, pairs=pairs, skipped=skipped, notes=notes
    )


def client_notes() -> list[str]:
    """The notes of a cross-client divergence report."""
    return [
        "Producers of one topic that route a key differently split it over two partitions, and its order "
        "with it: give them one scheme (Murmur3_32Hash is the one Java, Go and C++ agree on for every key; "
        "pulsar-rs and DotPulsar match them only for a power-of-two partition count).",
        "CLIENT+java_router is a client with this project's adapter in its router plug-in point "
        "(pulsar_routing.clients.java_router for Python, include/pulsar_routing_libpulsar.h for C and C++): "
        "it routes keys as Java does, so against java it differs only where the client cannot carry the key.",
        "Go hashes UTF-8 bytes without Java's mask: on ASCII keys it agrees with Java whenever n is a power of two.",
        "C++ and Python route keys with BoostHash, which changed with Boost 1.62, 1.81 and 1.82: C++ builds "
        "with Boost 1.62 to 1.80 (pulsar-client-cpp packages up to 3.4, pulsar-client wheels up to 3.5) and "
        "current ones (Boost 1.82 and later: C++ 3.5+, wheels 3.6+) send almost every key to a different "
        "partition. Compare cpp:boost_1_74 with python before upgrading, or move every client to Murmur3_32Hash.",
    ]
