"""Load statistics and the uniform-hashing expectation (simulated with a fixed seed).

This is the only statistics of the planner written in Python: what a
perfectly uniform hash would do with the same keys. Every actual routing
decision comes from the core.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from .results import UniformBaseline

SEED = 20240501
# Simulated key placements per baseline (trials x distinct keys), at most.
_BUDGET = 4_000_000
_MIN_TRIALS = 20
_MAX_TRIALS = 400


def load_stats(load: NDArray[np.float64]) -> tuple[float, float, float]:
    """(mean, max/mean, coefficient of variation) of a load vector; (0, 1, 0) when empty."""
    if load.size == 0:
        return 0.0, 1.0, 0.0
    mean = float(load.mean())
    if mean <= 0:
        return 0.0, 1.0, 0.0
    return mean, float(load.max()) / mean, float(load.std()) / mean


def _summary(loads: NDArray[np.float64]) -> tuple[float, float, float]:
    """Mean max/mean, its p95 and the mean CV over trials (rows of loads)."""
    means = loads.mean(axis=1)
    ok = means > 0
    if not ok.any():
        return 1.0, 1.0, 0.0
    loads, means = loads[ok], means[ok]
    max_mean = loads.max(axis=1) / means
    cv = loads.std(axis=1) / means
    return float(max_mean.mean()), float(np.percentile(max_mean, 95)), float(cv.mean())


def uniform_baseline(
    weights: NDArray[np.float64],
    buckets: int,
    *,
    spread: float = 0.0,
    probabilities: Sequence[float] | NDArray[np.float64] | None = None,
    seed: int = SEED,
    trials: int | None = None,
) -> UniformBaseline:
    """Keys of these weights placed uniformly at random in ``buckets`` buckets.

    ``spread`` is weight added evenly to every bucket (keyless messages);
    ``probabilities`` gives unequal bucket sizes (bundle ranges, consumer
    slot shares), equal by default.
    """
    k = int(weights.shape[0])
    n = int(buckets)
    if n < 1:
        raise ValueError("buckets must be at least 1")
    p = None if probabilities is None else np.asarray(probabilities, dtype=np.float64)
    if p is not None:
        p = p / p.sum()
    if trials is None:
        trials = int(np.clip(_BUDGET // max(k, 1), _MIN_TRIALS, _MAX_TRIALS))
    rng = np.random.default_rng(seed)
    keyed = float(weights.sum())
    per_bucket = spread * (p if p is not None else np.full(n, 1.0 / n))

    if k == 0:
        equal = (1.0, 1.0, 0.0)
        weighted = equal
    else:
        counts = rng.multinomial(k, p if p is not None else np.full(n, 1.0 / n), size=trials)
        equal = _summary(counts * (keyed / k) + per_bucket)
        if weights.size and np.all(weights == weights[0]):
            weighted = equal
        else:
            loads = np.empty((trials, n))
            for t in range(trials):
                placed = rng.choice(n, size=k, p=p) if p is not None else rng.integers(0, n, size=k)
                loads[t] = np.bincount(placed, weights=weights, minlength=n)
            weighted = _summary(loads + per_bucket)
    return UniformBaseline(
        buckets=n,
        distinct_keys=k,
        trials=trials,
        seed=seed,
        equal_max_mean=equal[0],
        equal_max_mean_p95=equal[1],
        equal_cv=equal[2],
        weighted_max_mean=weighted[0],
        weighted_max_mean_p95=weighted[1],
        weighted_cv=weighted[2],
    )
