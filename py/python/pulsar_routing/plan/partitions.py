"""2. Partition count: throughput over per-partition capacity, headroom, then measured skew.

``recommended = ceil(max(peak_write / per_partition_write, peak_read / per_partition_read) * 1.3)``

With a key sample, the count is then adjusted for skew: the smallest count
at or above the recommendation whose hottest partition (the sample's
share, scaled to the peak) stays within one partition's capacity. Rates
are in any unit (msg/s, MB/s) as long as peak and capacity agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .inputs import KeysLike, KeySample, WeightsLike, key_sample
from .results import PartitionCandidate, PartitionPlan
from .skew import partition_loads

HEADROOM = 1.3
# How far above the recommendation the skew adjustment searches.
_SEARCH_FACTOR = 4
_SEARCH_MIN = 64


def _ratio(peak: float | None, capacity: float | None, what: str) -> float:
    if peak is None or capacity is None:
        return 0.0
    if capacity <= 0:
        raise ValueError(f"per-partition {what} capacity must be positive")
    if peak < 0:
        raise ValueError(f"peak {what} must not be negative")
    return peak / capacity


@dataclass(frozen=True)
class MeasuredLoads:
    """The loads per partition of a sample measured elsewhere, for :func:`recommend_partitions`.

    What a streamed file past memory gives (see
    :func:`pulsar_routing.plan.stream_partitions`): ``loads`` holds the exact
    load per partition (keyless messages spread evenly) for every count the
    recommendation looks at (:func:`counts_needed`), and
    ``hottest_key_share`` the estimated share of the heaviest key.
    """

    source: str
    counting: str
    total_weight: float
    hottest_key_share: float
    loads: dict[int, NDArray[np.float64]]


def counts_needed(
    peak_write: float,
    per_partition_write: float,
    *,
    peak_read: float | None = None,
    per_partition_read: float | None = None,
    headroom: float = HEADROOM,
    candidates: int = 3,
) -> range:
    """Every partition count :func:`recommend_partitions` may measure for these rates."""
    theoretical = max(
        _ratio(peak_write, per_partition_write, "write"), _ratio(peak_read, per_partition_read, "read")
    )
    recommended = max(1, math.ceil(round(theoretical * headroom, 9)))
    searched = max(recommended * _SEARCH_FACTOR, recommended + _SEARCH_MIN)
    return range(max(1, recommended - candidates), searched + candidates + 1)


def _shares(load: NDArray[np.float64], n: int) -> tuple[float, float]:
    total = float(load.sum())
    if total <= 0:
        return 1.0, 1.0 / n
    return float(load.max() / load.mean()), float(load.max()) / total


def _hottest_share(sample: KeySample, n: int, scheme: str) -> tuple[float, float]:
    _, load, _ = partition_loads(sample, n, scheme)
    return _shares(load, n)


def recommend_partitions(
    peak_write: float,
    per_partition_write: float,
    *,
    peak_read: float | None = None,
    per_partition_read: float | None = None,
    headroom: float = HEADROOM,
    keys: KeysLike | MeasuredLoads | None = None,
    weights: WeightsLike = None,
    scheme: str = "java_string",
    consumers: int | None = None,
    candidates: int = 3,
) -> PartitionPlan:
    """The partition count for a peak load (see the module doc and :class:`PartitionPlan`).

    ``consumers``, if given, is the consumer count of an Exclusive or
    Failover subscription: one consumer per partition is active, so a count
    below it leaves consumers idle. ``candidates`` counts shown on each
    side of the recommendation. ``keys`` may also be :class:`MeasuredLoads`.
    """
    if (peak_read is None) != (per_partition_read is None):
        raise ValueError("give both peak_read and per_partition_read, or neither")
    if headroom < 1:
        raise ValueError("headroom must be at least 1")
    if consumers is not None and consumers < 0:
        raise ValueError("consumers must not be negative")
    theoretical = max(
        _ratio(peak_write, per_partition_write, "write"), _ratio(peak_read, per_partition_read, "read")
    )
    recommended = max(1, math.ceil(round(theoretical * headroom, 9)))
    sample: KeySample | MeasuredLoads | None = None
    if isinstance(keys, MeasuredLoads):
        sample = keys
    elif keys is not None:
        sample = key_sample(keys, weights)
    notes: list[str] = []

    measured: dict[int, tuple[float, float]] = {}

    def measure(n: int) -> tuple[float, float]:
        if n not in measured:
            if isinstance(sample, MeasuredLoads):
                if n not in sample.loads:
                    raise ValueError(f"the measured loads have no count {n}: measure counts_needed(...)")
                measured[n] = _shares(sample.loads[n], n)
            else:
                assert sample is not None
                measured[n] = _hottest_share(sample, n, scheme)
        return measured[n]

    adjusted: int | None = None
    searched: int | None = None
    hottest_key: float | None = None
    if sample is not None:
        if sample.total_weight <= 0:
            raise ValueError("the sample has no messages (all weights are 0)")
        if isinstance(sample, MeasuredLoads):
            hottest_key = sample.hottest_key_share
        else:
            hottest_key = float(sample.weights.max()) / sample.total_weight if sample.distinct_keys else 0.0
        searched = max(recommended * _SEARCH_FACTOR, recommended + _SEARCH_MIN)
        if hottest_key * theoretical > 1:
            notes.append(
                f"The hottest key alone carries {hottest_key:.1%} of the traffic, "
                f"{hottest_key * theoretical:.2f}x one partition's capacity at peak: no partition count "
                "helps; split that key."
            )
        else:
            for n in range(recommended, searched + 1):
                if measure(n)[1] * theoretical <= 1 + 1e-12:
                    adjusted = n
                    break
        if adjusted is not None and adjusted > recommended:
            notes.append(
                f"Measured skew needs {adjusted} partitions, not {recommended}: at {recommended} the hottest "
                f"partition would run at {measure(recommended)[1] * theoretical:.0%} of its capacity."
            )
        elif adjusted is None and hottest_key * theoretical <= 1:
            notes.append(f"No count up to {searched} keeps the hottest partition within capacity: fix the keys.")

    low = max(1, recommended - candidates)
    high = max(recommended, adjusted or recommended) + candidates
    counts = sorted(set(range(low, high + 1)))
    rows: list[PartitionCandidate] = []
    for n in counts:
        if sample is not None:
            max_mean, share = measure(n)
            utilisation = share * theoretical
            rows.append(
                PartitionCandidate(
                    partitions=n,
                    max_mean=max_mean,
                    hottest_share=share,
                    utilisation=utilisation,
                    active_consumers=None if consumers is None else min(n, consumers),
                    idle_consumers=None if consumers is None else max(0, consumers - n),
                )
            )
        else:
            rows.append(
                PartitionCandidate(
                    partitions=n,
                    max_mean=None,
                    hottest_share=None,
                    utilisation=theoretical / n,
                    active_consumers=None if consumers is None else min(n, consumers),
                    idle_consumers=None if consumers is None else max(0, consumers - n),
                )
            )
    if adjusted is not None:
        worse = [c for c in rows if c.partitions > adjusted and c.utilisation > 1]
        if worse:
            shown = ", ".join(f"{c.partitions} ({c.utilisation:.0%})" for c in worse[:3])
            notes.append(
                f"Counts above {adjusted} can be worse: {shown}. Where the heaviest keys land decides; "
                "choose from the table rather than adding a partition or two."
            )
    final = adjusted if adjusted is not None else recommended
    if consumers is not None:
        if consumers > final:
            notes.append(
                f"Partitions cap consumer parallelism: with {final} partitions, {consumers - final} of "
                f"{consumers} consumers of an Exclusive or Failover subscription sit idle (Shared and "
                "Key_Shared subscriptions are not capped this way)."
            )
        else:
            notes.append(
                f"{consumers} consumers for {final} partitions: in a Failover subscription each consumer "
                f"takes {final / max(consumers, 1):.1f} partitions on average."
            )
    else:
        notes.append(
            f"Partitions cap consumer parallelism: with {final} partitions at most {final} consumers of an "
            "Exclusive or Failover subscription are active (e.g. with 8 partitions, 24 of 32 sit idle)."
        )
    notes.append("Pulsar can add partitions to a topic but not remove them; see the drift report for what moves.")
    return PartitionPlan(
        peak_write=float(peak_write),
        per_partition_write=float(per_partition_write),
        peak_read=None if peak_read is None else float(peak_read),
        per_partition_read=None if per_partition_read is None else float(per_partition_read),
        headroom=float(headroom),
        theoretical=theoretical,
        recommended=recommended,
        scheme=scheme if sample is not None else None,
        sample=sample.source if sample is not None else None,
        measured_max_mean=measure(recommended)[0] if sample is not None else None,
        skew_adjusted=adjusted if sample is not None else None,
        searched_up_to=searched,
        hottest_key_share=hottest_key,
        consumers=consumers,
        candidates=rows,
        notes=notes,
        counting=sample.counting if sample is not None else None,
    )

