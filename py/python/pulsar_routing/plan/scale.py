"""Partial key histograms that sum: the pieces of a scale-out pipeline of your own.

The engine is :mod:`pulsar_routing.plan.distributed` (``plan ... --file
PATHS --dask ADDRESS``): its workers read the files and reduce them to
summaries that merge, exact or sketched, so the distinct keys never have
to fit one machine. What is here is the exact half of that, for data that
is not in files or for a pipeline built by hand: each worker turns its part
of the data set into a partial histogram (:func:`partial_histogram`: the
distinct keys of that part with their summed weights, a :class:`KeySample`),
and the partials are summed (:func:`merge_samples`) into the same sample a
single machine would have read, so every analysis gives the single-machine
result on it. Partition loads are histograms too (:func:`partition_load`):
a worker's loads for N partitions sum to the loads of the whole data set.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .. import partitions_for_keys
from .inputs import Key, KeysLike, KeySample, PlanInputError, WeightsLike, _object_array, _sample, key_sample

__all__ = ["merge_samples", "partial_histogram", "partition_load"]


def partial_histogram(keys: KeysLike, weights: WeightsLike = None, *, source: str | None = None) -> KeySample:
    """One part of a data set as a histogram of its keys (what a worker returns).

    The same as :func:`~pulsar_routing.plan.key_sample`: distinct keys with
    their summed weights, the keyless weight and the row count.
    """
    return key_sample(keys, weights, source=source)


def _arrow_keys(sample: KeySample) -> bool:
    return not isinstance(sample.keys, np.ndarray)


def merge_samples(samples: Iterable[KeySample], *, source: str | None = None) -> KeySample:
    """The sum of partial histograms: weights per key, keyless weight and rows added up.

    Arrow partials (from files or pyarrow arrays) merge into keys sorted as
    :func:`~pulsar_routing.plan.read_keys` sorts them, whatever the order of
    the partials; Python partials keep the order of first appearance, taking
    the partials in the order given, as one pass over the data would.
    """
    parts = list(samples)
    if not parts:
        raise PlanInputError("no partial histograms to merge")
    name = source or parts[0].source
    weighted = any(p.weighted for p in parts)
    rows = sum(p.rows for p in parts)
    keyless = float(sum(p.keyless for p in parts))
    counting = "exact" if all(p.counting == "exact" for p in parts) else "sketch"
    if counting != "exact":
        raise PlanInputError("sketched samples cannot be merged into an exact one")
    if all(_arrow_keys(p) for p in parts):
        import pyarrow as pa
        import pyarrow.compute as pc

        types = {p.keys.type for p in parts}
        if len(types) == 1:
            table = pa.concat_tables(
                [pa.table({"k": p.keys, "w": pa.array(p.weights, pa.float64())}) for p in parts]
            )
            grouped = table.group_by("k").aggregate([("w", "sum")])
            # Sorted by key, as read_keys and key_sample leave Arrow keys.
            order = pc.sort_indices(grouped.column("k"))
            keys: Any = grouped.column("k").take(order).combine_chunks()
            weights = np.asarray(grouped.column("w_sum").take(order).to_numpy(), dtype=np.float64)
            return _sample(keys, weights, keyless, rows, name, weighted)
    totals: dict[Key, float] = {}
    for p in parts:
        for key, weight in zip(p.key_list(), p.weights.tolist()):
            totals[key] = totals.get(key, 0.0) + weight
    distinct = list(totals)
    return _sample(
        _object_array(distinct),
        np.fromiter(totals.values(), dtype=np.float64, count=len(distinct)),
        keyless,
        rows,
        name,
        weighted,
    )


def partition_load(sample: KeySample, partitions: int, scheme: str = "java_string") -> NDArray[np.float64]:
    """Messages per partition for one part of a data set; the parts' loads sum to the whole's.

    Keyless messages are spread evenly, as the round-robin router spreads them.
    """
    parts = partitions_for_keys(sample.keys, partitions, scheme)
    load = np.bincount(parts, weights=sample.weights, minlength=partitions).astype(np.float64)
    if sample.keyless:
        load += sample.keyless / partitions
    return load
