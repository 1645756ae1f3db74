"""1. Key skew: how evenly a key sample loads the partitions, and why not.

Partitions come from :func:`pulsar_routing.partitions_for_keys` (the core);
only the uniform-hashing comparison is simulated here (see :mod:`.stats`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from .. import partitions_for_keys
from .inputs import KeysLike, KeySample, WeightsLike, key_sample
from .results import HotKey, SkewAnalysis, SkewReport, UniformBaseline, Verdict
from .stats import load_stats, uniform_baseline

SCHEMES = ("java_string", "murmur3_32")
# The verdict bands of max/mean.
BALANCED = 1.1
HEADROOM = 1.3
SEVERE = 1.5


def partition_loads(
    sample: KeySample, partitions: int, scheme: str
) -> tuple[NDArray[np.int32], NDArray[np.float64], NDArray[np.int64]]:
    """(partition per distinct key, load per partition, distinct keys per partition).

    The load spreads keyless messages evenly, as the round-robin router does.
    """
    parts = partitions_for_keys(sample.keys, partitions, scheme)
    load = np.bincount(parts, weights=sample.weights, minlength=partitions).astype(np.float64)
    if sample.keyless:
        load += sample.keyless / partitions
    keys = np.bincount(parts, minlength=partitions).astype(np.int64)
    return parts, load, keys


def effective_keys(sample: KeySample) -> float:
    """(sum w)^2 / sum w^2: how many equally busy keys the traffic is as concentrated as."""
    squares = float(np.square(sample.weights).sum())
    return sample.keyed_weight**2 / squares if squares else 0.0


def verdict(
    max_mean: float,
    baseline: UniformBaseline,
    *,
    scheme: str,
    hottest_key_share: float,
    effective_keys: float,
) -> Verdict:
    """The advice for a measured max/mean, and its likely cause against the baseline."""
    n = baseline.buckets
    if max_mean <= BALANCED:
        level, advice = "balanced", "Balanced: size by throughput; the 30% headroom of the partition formula covers it."
    elif max_mean <= HEADROOM:
        level, advice = "headroom", "Mild skew: plan 30% headroom on the theoretical partition count."
    elif max_mean <= SEVERE:
        level, advice = (
            "moderate",
            "Marked skew: the hottest partition sets the capacity; size with the measured max/mean "
            "instead of the 1.3 headroom, and look at the hot keys.",
        )
    else:
        level, advice = "fix-keys", "Severe skew: fix the key design before adding partitions."

    w, w95, eq = baseline.weighted_max_mean, baseline.weighted_max_mean_p95, baseline.equal_max_mean
    if max_mean > max(w95, BALANCED) + 1e-9:
        kind = "keys"
        hint = (
            " String.hashCode keeps the structure of similar keys (e.g. digits), above all with a power-of-two "
            "count; murmur3_32 spreads them better (compare both with the divergence report)."
            if scheme == "java_string"
            else " Change what the key is made of (the whole id, not a suffix or a code)."
        )
        cause = (
            f"Cause: the keys. This hash spreads them worse than uniform hashing would "
            f"(expected {w:.2f}, p95 {w95:.2f}).{hint}"
        )
    else:
        cause = f"Within what uniform hashing gives for these keys (expected {w:.2f}, p95 {w95:.2f}): not the hash."
        if w <= BALANCED:
            kind = "noise"
            cause += " The rest is sampling noise."
        elif hottest_key_share * n >= 0.5:
            kind = "hot-key"
            cause += (
                f" A hot key: the heaviest carries {hottest_key_share:.1%} of the traffic, "
                f"{hottest_key_share * n:.2f}x a partition's mean. More partitions do not cool a single key: "
                "split it (a sub-key) or route it apart."
            )
        elif eq > BALANCED:
            kind = "few-keys"
            cause += (
                f" Too few keys: {baseline.distinct_keys:,} distinct keys over {n:,} partitions leave max/mean "
                f"{eq:.2f} even under a perfect hash. Use a key with more values (or a bigger sample)."
            )
        else:
            kind = "uneven-weights"
            cause += (
                f" Uneven key weights: the traffic is as concentrated as {effective_keys:,.0f} equally busy keys "
                f"(of {baseline.distinct_keys:,}), which leaves max/mean about {w:.2f} even under a perfect hash."
            )
    return Verdict(level=level, kind=kind, advice=advice, cause=cause)


def skew(
    keys: KeysLike,
    partitions: int,
    scheme: str = "java_string",
    *,
    weights: WeightsLike = None,
    top: int = 5,
) -> SkewReport:
    """The skew of one partition count under one scheme (see :class:`SkewReport`)."""
    sample = key_sample(keys, weights)
    if sample.total_weight <= 0:
        raise ValueError("the sample has no messages (all weights are 0)")
    parts, load, per_partition = partition_loads(sample, partitions, scheme)
    mean, max_mean, cv = load_stats(load)
    hottest = int(np.argmax(load))
    total = sample.total_weight
    in_hottest = np.flatnonzero(parts == hottest)
    order = in_hottest[np.argsort(-sample.weights[in_hottest], kind="stable")][: max(top, 0)]
    hottest_load = float(load[hottest])
    hot = [
        HotKey(
            key=key,
            partition=hottest,
            weight=float(sample.weights[i]),
            share_of_traffic=float(sample.weights[i]) / total,
            share_of_partition=float(sample.weights[i]) / hottest_load if hottest_load else 0.0,
        )
        for i, key in zip(order.tolist(), sample.keys_at(order))
    ]
    baseline = uniform_baseline(sample.weights, partitions, spread=sample.keyless)
    heaviest = float(sample.weights.max()) / total if sample.distinct_keys else 0.0
    return SkewReport(
        scheme=scheme,
        partitions=partitions,
        distinct_keys=sample.distinct_keys,
        total_weight=total,
        keyless_weight=sample.keyless,
        load=load.tolist(),
        keys=per_partition.tolist(),
        mean=mean,
        max_mean=max_mean,
        cv=cv,
        hottest_partition=hottest,
        hottest_share=hottest_load / total,
        hot_keys=hot,
        uniform=baseline,
        verdict=verdict(
            max_mean, baseline, scheme=scheme, hottest_key_share=heaviest, effective_keys=effective_keys(sample)
        ),
        counting=sample.counting,
    )


def analyze_skew(
    keys: KeysLike,
    partitions: int | Sequence[int],
    schemes: str | Sequence[str] = "java_string",
    *,
    weights: WeightsLike = None,
    top: int = 5,
) -> SkewAnalysis:
    """:func:`skew` for every scheme and partition count (schemes outer, counts inner)."""
    sample = key_sample(keys, weights)
    counts = [partitions] if isinstance(partitions, int) else list(partitions)
    names = [schemes] if isinstance(schemes, str) else list(schemes)
    if not counts or not names:
        raise ValueError("give at least one partition count and one scheme")
    reports = [skew(sample, n, s, top=top) for s in names for n in counts]
    return SkewAnalysis(sample=sample.describe(), reports=reports)
