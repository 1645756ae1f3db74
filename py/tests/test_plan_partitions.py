"""pulsar_routing.plan partition count and producer queue sizing."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pulsar_routing as pr
from pulsar_routing.plan import producer_queue, recommend_partitions


def test_formula() -> None:
    plan = recommend_partitions(60_000, 5_000)
    assert plan.theoretical == 12 and plan.recommended == 16
    # Reads dominate: 200k / 10k = 20 -> 26.
    assert recommend_partitions(60_000, 5_000, peak_read=200_000, per_partition_read=10_000).recommended == 26
    # 10 x 1.3 is 13 exactly, not 14 from floating-point noise.
    assert recommend_partitions(10, 1).recommended == 13
    assert recommend_partitions(0, 1).recommended == 1
    assert recommend_partitions(10, 1, headroom=1.0).recommended == 10


@given(
    st.floats(min_value=0, max_value=1e7),
    st.floats(min_value=1, max_value=1e5),
    st.floats(min_value=0, max_value=1e7),
    st.floats(min_value=1, max_value=1e5),
)
def test_formula_property(pw: float, ppw: float, pr_: float, ppr: float) -> None:
    plan = recommend_partitions(pw, ppw, peak_read=pr_, per_partition_read=ppr)
    want = max(1, math.ceil(max(pw / ppw, pr_ / ppr) * 1.3))
    assert abs(plan.recommended - want) <= 1  # the rounding guard only ever lowers by one
    assert plan.recommended >= max(pw / ppw, pr_ / ppr) * 1.3 - 1e-6


def test_without_a_sample_the_candidates_assume_uniform_load() -> None:
    plan = recommend_partitions(60_000, 5_000, candidates=2)
    assert [c.partitions for c in plan.candidates] == [14, 15, 16, 17, 18]
    assert plan.candidates[2].utilisation == pytest.approx(12 / 16)
    assert plan.skew_adjusted is None and plan.scheme is None


def test_consumers_cap() -> None:
    plan = recommend_partitions(30_000, 5_000, headroom=1.0, consumers=32, candidates=0)
    assert plan.recommended == 6
    assert plan.candidates[0].idle_consumers == 26
    eight = recommend_partitions(8, 1, headroom=1.0, consumers=32)
    assert any("with 8 partitions, 24 of 32 consumers" in n for n in eight.notes)


def test_skew_adjusts_the_count() -> None:
    rng = np.random.default_rng(5)
    keys = [f"user-{i}" for i in range(3000)]
    weights = rng.lognormal(0, 1.5, size=3000)
    plan = recommend_partitions(60_000, 5_000, keys=keys, weights=weights, scheme="murmur3_32")
    assert plan.recommended == 16
    assert plan.skew_adjusted is not None and plan.skew_adjusted >= plan.recommended
    # The adjusted count is the first one whose hottest partition fits.
    parts = pr.partitions_for_keys(keys, plan.skew_adjusted, "murmur3_32")
    load = np.bincount(parts, weights=weights, minlength=plan.skew_adjusted)
    assert load.max() / load.sum() * plan.theoretical <= 1 + 1e-9
    for c in plan.candidates:
        if plan.recommended <= c.partitions < plan.skew_adjusted:
            assert c.utilisation > 1
    assert "skew-adjusted" in str(plan)


def test_a_hot_key_no_count_can_fix() -> None:
    keys = ["hot"] * 50 + [f"k{i}" for i in range(50)]
    plan = recommend_partitions(60_000, 5_000, keys=keys)
    assert plan.skew_adjusted is None
    assert plan.hottest_key_share == pytest.approx(0.5)
    assert any("no partition count helps" in n for n in plan.notes)


def test_errors() -> None:
    with pytest.raises(ValueError, match="both peak_read"):
        recommend_partitions(1, 1, peak_read=1)
    with pytest.raises(ValueError, match="positive"):
        recommend_partitions(1, 0)
    with pytest.raises(ValueError, match="headroom"):
        recommend_partitions(1, 1, headroom=0.5)


def test_producer_queue() -> None:
    q = producer_queue(60_000, 5, 1024)
    assert q.pending_messages == 300_000
    assert q.memory_bytes == 300_000 * 1024
    assert "293.0 MiB" in str(q)
    per = producer_queue(60_000, 5, 1024, partitions=16, max_mean=1.2)
    assert per.per_partition_pending == math.ceil(60_000 / 16 * 1.2 * 5)
    assert producer_queue(0.1, 1, 1).pending_messages == 1
    with pytest.raises(ValueError):
        producer_queue(1, 1, 1, max_mean=0.5)
    with pytest.raises(ValueError):
        producer_queue(-1, 1, 1)
