"""3. Repartition drift (N to M partitions) and 6. cross-client divergence (scheme A vs B).

Both compare two routings of the same keys, each computed by the core.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from .inputs import KeySample, KeysLike, WeightsLike, key_sample
from .results import DivergenceReport, DivergenceRow, DriftReport, MovedKey
from .skew import SCHEMES, partition_loads
from .stats import load_stats


def expected_drift(from_partitions: int, to_partitions: int) -> float:
    """The share of uniformly hashed keys that change partition: ``1 - gcd(N, M) / max(N, M)``."""
    if from_partitions < 1 or to_partitions < 1:
        raise ValueError("partition counts must be at least 1")
    return 1 - math.gcd(from_partitions, to_partitions) / max(from_partitions, to_partitions)


def drift_notes(from_partitions: int, to_partitions: int) -> list[str]:
    """The notes of a drift report from N to M partitions."""
    notes = [
        "Keys that move lose their order across the change: messages already in the old partition "
        "may be consumed after newer ones in the new partition.",
    ]
    if to_partitions < from_partitions:
        notes.append("Pulsar cannot reduce a topic's partitions: this is a new topic, not an update.")
    if from_partitions != to_partitions and to_partitions % from_partitions == 0:
        notes.append(
            f"{to_partitions} is a multiple of {from_partitions}: a key either stays or moves to a partition "
            f"p + k*{from_partitions}, so each old partition's keys split over {to_partitions // from_partitions}."
        )
    return notes


def drift(
    keys: KeysLike,
    from_partitions: int,
    to_partitions: int,
    scheme: str = "java_string",
    *,
    weights: WeightsLike = None,
    list_moved: int | None = None,
) -> DriftReport:
    """What changes partition when a topic goes from ``from_partitions`` to ``to_partitions``.

    ``list_moved``: None lists no keys, 0 every moved key, N the N
    heaviest moved keys.
    """
    sample = key_sample(keys, weights)
    before, load_before, _ = partition_loads(sample, from_partitions, scheme)
    after, load_after, _ = partition_loads(sample, to_partitions, scheme)
    moved_mask = before != after
    moved_idx = np.flatnonzero(moved_mask)
    keyed = sample.keyed_weight
    moved_weight = float(sample.weights[moved_idx].sum())
    moved: list[MovedKey] | None = None
    if list_moved is not None:
        if list_moved < 0:
            raise ValueError("list_moved must be None, 0 (all) or a positive count")
        order = moved_idx[np.argsort(-sample.weights[moved_idx], kind="stable")]
        if list_moved:
            order = order[:list_moved]
        moved = [
            MovedKey(key=k, weight=float(sample.weights[i]), from_partition=int(before[i]), to_partition=int(after[i]))
            for i, k in zip(order.tolist(), sample.keys_at(order))
        ]
    notes = drift_notes(from_partitions, to_partitions)
    return DriftReport(
        scheme=scheme,
        from_partitions=from_partitions,
        to_partitions=to_partitions,
        distinct_keys=sample.distinct_keys,
        keyed_weight=keyed,
        moved_keys=int(moved_idx.size),
        moved_key_share=moved_idx.size / sample.distinct_keys if sample.distinct_keys else 0.0,
        moved_traffic_share=moved_weight / keyed if keyed else 0.0,
        expected_share=expected_drift(from_partitions, to_partitions),
        load_before=load_before.tolist(),
        load_after=load_after.tolist(),
        max_mean_before=load_stats(load_before)[1],
        max_mean_after=load_stats(load_after)[1],
        moved=moved,
        notes=notes,
    )


def _routing(sample: KeySample, n: int, setup: str) -> NDArray[np.int32]:
    if setup in SCHEMES:
        return partition_loads(sample, n, setup)[0]
    from .clients import setup_partitions

    return setup_partitions(sample.keys, n, setup)


def divergence(
    keys: KeysLike,
    partitions: int | Sequence[int],
    scheme_a: str = "java_string",
    scheme_b: str = "murmur3_32",
    *,
    weights: WeightsLike = None,
) -> DivergenceReport:
    """The share of keys (and traffic) that two hashing setups send to different partitions.

    A setup is a Java hashing scheme (Java's default ``java_string`` against
    ``murmur3_32``, the scheme Java, C++ and Go can all be set to), or any
    client setup of :func:`pulsar_routing.plan.setup_partitions` (``go``,
    ``cpp:java_string``, ``kafka``, ...). :func:`client_divergence` compares
    every pair of many setups at once.
    """
    sample = key_sample(keys, weights)
    counts = [partitions] if isinstance(partitions, int) else list(partitions)
    keyed = sample.keyed_weight
    rows = []
    for n in counts:
        a = _routing(sample, n, scheme_a)
        b = _routing(sample, n, scheme_b)
        differ = a != b
        count = int(differ.sum())
        rows.append(
            DivergenceRow(
                partitions=n,
                differing_keys=count,
                differing_key_share=count / sample.distinct_keys if sample.distinct_keys else 0.0,
                differing_traffic_share=float(sample.weights[differ].sum()) / keyed if keyed else 0.0,
                expected_share=1 - 1 / n,
            )
        )
    return DivergenceReport(
        scheme_a=scheme_a, scheme_b=scheme_b, distinct_keys=sample.distinct_keys, rows=rows, notes=divergence_notes()
    )


def divergence_notes() -> list[str]:
    """The notes of a divergence report."""
    return [
        "Producers that disagree on the scheme split one key over two partitions, and its order with it: "
        "give every producer of a topic the same scheme (Murmur3_32Hash is the one Java, C++ and Go all offer).",
    ]
