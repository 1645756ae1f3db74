"""pulsar_routing.plan drift (N -> M partitions) and cross-scheme divergence."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pulsar_routing as pr
from pulsar_routing.plan import divergence, drift, expected_drift


def random_keys(count: int, seed: int = 11) -> NDArray[np.str_]:
    rng = np.random.default_rng(seed)
    return np.char.add("k", rng.integers(0, 2**62, size=count).astype(str))


KEYS = random_keys(200_000)


@pytest.mark.parametrize(("n", "m"), [(12, 16), (16, 12), (8, 16), (10, 15), (7, 11), (3, 100), (5, 5)])
@pytest.mark.parametrize("scheme", ["java_string", "murmur3_32"])
def test_uniform_keys_move_as_the_formula_says(n: int, m: int, scheme: str) -> None:
    expected = 1 - math.gcd(n, m) / max(n, m)
    assert expected_drift(n, m) == pytest.approx(expected)
    report = drift(KEYS, n, m, scheme)
    # 200,000 keys: the standard error is at most 0.0012.
    assert report.moved_key_share == pytest.approx(expected, abs=0.006)
    assert report.moved_traffic_share == pytest.approx(report.moved_key_share)
    assert report.expected_share == pytest.approx(expected)


def test_moved_keys_are_the_cores_partitions() -> None:
    keys = list(KEYS[:500])
    weights = np.arange(500, dtype=np.float64) + 1
    report = drift(keys, 12, 16, "murmur3_32", weights=weights, list_moved=0)
    before = pr.partitions_for_keys(keys, 12, "murmur3_32")
    after = pr.partitions_for_keys(keys, 16, "murmur3_32")
    moved = before != after
    assert report.moved_keys == int(moved.sum())
    assert report.moved_traffic_share == pytest.approx(weights[moved].sum() / weights.sum())
    assert report.moved is not None and len(report.moved) == report.moved_keys
    first = report.moved[0]
    assert first.weight == max(weights[moved])
    i = keys.index(str(first.key))
    assert (first.from_partition, first.to_partition) == (before[i], after[i])
    top = drift(keys, 12, 16, "murmur3_32", weights=weights, list_moved=5)
    assert top.moved == report.moved[:5]
    assert drift(keys, 12, 16).moved is None


def test_weights_change_the_traffic_share() -> None:
    keys = ["a", "b"]
    moved_a = pr.partition_for_key("a", 2) != pr.partition_for_key("a", 3)
    moved_b = pr.partition_for_key("b", 2) != pr.partition_for_key("b", 3)
    report = drift(keys, 2, 3, weights=[3, 1])
    assert report.moved_traffic_share == pytest.approx((3 * moved_a + 1 * moved_b) / 4)


def test_notes() -> None:
    down = drift(["a"], 16, 12)
    assert any("cannot reduce" in n for n in down.notes)
    double = drift(["a"], 8, 16)
    assert any("multiple of 8" in n for n in double.notes)
    assert "Repartition drift: 8 -> 16" in str(double)


@given(st.integers(min_value=1, max_value=10_000), st.integers(min_value=1, max_value=10_000))
def test_formula_properties(n: int, m: int) -> None:
    e = expected_drift(n, m)
    assert e == expected_drift(m, n)
    assert 0 <= e < 1
    assert (e == 0) == (n == m)
    if m % n == 0:
        assert e == pytest.approx(1 - n / m)


def test_divergence_of_unrelated_hashes() -> None:
    report = divergence(KEYS[:50_000], [2, 12, 16])
    for row in report.rows:
        assert row.differing_key_share == pytest.approx(1 - 1 / row.partitions, abs=0.01)
        assert row.expected_share == pytest.approx(1 - 1 / row.partitions)
    keys = list(KEYS[:100])
    a = pr.partitions_for_keys(keys, 12, "java_string")
    b = pr.partitions_for_keys(keys, 12, "murmur3_32")
    assert divergence(keys, 12).rows[0].differing_keys == int((a != b).sum())
    assert divergence(keys, 12, "murmur3_32", "murmur3_32").rows[0].differing_keys == 0
    assert "java_string vs murmur3_32" in str(report)
