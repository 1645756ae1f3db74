"""pulsar_routing.plan skew: loads from the core's partitions, statistics and verdicts."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pulsar_routing as pr
from pulsar_routing.plan import analyze_skew, key_sample, skew, uniform_baseline
from pulsar_routing.plan.skew import verdict


def random_keys(count: int, seed: int = 7) -> list[str]:
    rng = np.random.default_rng(seed)
    return [f"key-{x}" for x in rng.integers(0, 2**62, size=count)]


@pytest.mark.parametrize("scheme", ["java_string", "murmur3_32"])
def test_load_is_the_cores_partitions(scheme: str) -> None:
    keys = random_keys(2000)
    weights = np.arange(1, 2001, dtype=np.float64)
    report = skew(keys, 12, scheme, weights=weights)
    parts = pr.partitions_for_keys(keys, 12, scheme)
    assert report.load == np.bincount(parts, weights=weights, minlength=12).tolist()
    assert report.keys == np.bincount(parts, minlength=12).tolist()
    assert report.hottest_partition == int(np.argmax(report.load))
    load = np.asarray(report.load)
    assert report.max_mean == pytest.approx(load.max() / load.mean())
    assert report.cv == pytest.approx(load.std() / load.mean())


def test_keyless_traffic_is_spread_evenly() -> None:
    report = skew(["a", None, None, None, None], 4)
    assert sum(report.load) == 5.0
    assert report.keyless_weight == 4.0
    assert sorted(report.load) == [1.0, 1.0, 1.0, 2.0]


def test_hot_keys_of_the_hottest_partition() -> None:
    keys = random_keys(400)
    weights = np.ones(400)
    weights[17] = 500.0
    report = skew(keys, 8, "murmur3_32", weights=weights, top=3)
    hot = report.hot_keys[0]
    assert hot.key == keys[17] and hot.weight == 500.0
    assert hot.partition == report.hottest_partition == pr.partition_for_key(keys[17], 8, "murmur3_32")
    assert hot.share_of_partition == pytest.approx(500.0 / report.load[hot.partition])
    assert hot.share_of_traffic == pytest.approx(500.0 / 899.0)
    assert len(report.hot_keys) == 3
    assert [h.weight for h in report.hot_keys] == sorted((h.weight for h in report.hot_keys), reverse=True)
    assert report.verdict.level == "fix-keys" and report.verdict.kind == "hot-key"


def test_uniform_keys_are_balanced_and_called_noise() -> None:
    report = skew(random_keys(200_000), 12, "murmur3_32")
    assert report.max_mean < 1.05
    assert report.verdict.level == "balanced" and report.verdict.kind == "noise"
    assert report.uniform.equal_max_mean == pytest.approx(report.uniform.weighted_max_mean)
    assert report.max_mean <= report.uniform.weighted_max_mean_p95 + 0.02


def test_structured_keys_under_java_string_are_the_keys_fault() -> None:
    # Order numbers ending in a channel code: String.hashCode mod 32 keeps their structure.
    rng = np.random.default_rng(3)
    keys = [f"{4_200_000 + i}{c:02d}" for i, c in enumerate(rng.choice([1, 7, 42, 70], size=20_000))]
    java = skew(keys, 32, "java_string")
    murmur = skew(keys, 32, "murmur3_32")
    assert java.max_mean > 1.5 and java.verdict.level == "fix-keys" and java.verdict.kind == "keys"
    assert murmur.max_mean < 1.3


def test_few_keys_are_told_apart_from_bad_keys() -> None:
    # 60 keys over 16 partitions: a perfect hash leaves max/mean above 2 too.
    report = skew(random_keys(60), 16, "murmur3_32")
    assert report.uniform.equal_max_mean > 1.5
    assert report.max_mean <= report.uniform.weighted_max_mean_p95
    assert report.verdict.kind == "few-keys" and "Too few keys" in report.verdict.cause


@pytest.mark.parametrize(
    ("max_mean", "level"),
    [(1.0, "balanced"), (1.1, "balanced"), (1.2, "headroom"), (1.3, "headroom"), (1.4, "moderate"), (1.6, "fix-keys")],
)
def test_verdict_bands(max_mean: float, level: str) -> None:
    base = uniform_baseline(np.ones(100_000), 12, trials=20)
    v = verdict(max_mean, base, scheme="murmur3_32", hottest_key_share=1e-5, effective_keys=100_000)
    assert v.level == level
    if level == "fix-keys":
        assert "fix the key design before adding partitions" in v.advice
    if level == "headroom":
        assert "30% headroom" in v.advice
    assert v.kind == ("noise" if max_mean <= 1.1 else "keys")


def test_uniform_baseline_is_deterministic_and_sane() -> None:
    w = np.ones(1000)
    a = uniform_baseline(w, 10)
    assert a == uniform_baseline(w, 10)
    # 1000 keys in 10 buckets: about 100 +- 10 each; the fullest of 10 near 1.15.
    assert 1.08 < a.equal_max_mean < 1.25
    assert a.equal_cv == pytest.approx(0.095, abs=0.02)
    assert uniform_baseline(w, 1).equal_max_mean == 1.0
    heavy = uniform_baseline(np.array([1000.0] + [1.0] * 999), 10)
    assert heavy.weighted_max_mean > 4 > heavy.equal_max_mean


def test_analysis_runs_every_combination() -> None:
    keys = random_keys(3000)
    analysis = analyze_skew(keys, [3, 12], ["java_string", "murmur3_32"])
    assert [r.label for r in analysis.reports] == [
        "java_string n=3",
        "java_string n=12",
        "murmur3_32 n=3",
        "murmur3_32 n=12",
    ]
    text = str(analysis)
    assert "Key skew" in text and "max/mean" in text and analysis.worst().label in text
    data = json.loads(analysis.to_json())
    assert data["reports"][1]["partitions"] == 12
    assert data["reports"][1]["verdict"]["level"] == analysis.reports[1].verdict.level


def test_errors() -> None:
    with pytest.raises(pr.PartitionCountError):
        skew(["a"], 0)
    with pytest.raises(pr.UnknownHashingSchemeError):
        skew(["a"], 3, "crc")
    with pytest.raises(ValueError, match="no messages"):
        skew([], 3)


@settings(max_examples=50)
@given(
    st.lists(st.one_of(st.none(), st.text(max_size=8), st.binary(max_size=6)), min_size=1, max_size=60),
    st.integers(min_value=1, max_value=40),
    st.sampled_from(["java_string", "murmur3_32"]),
)
def test_load_accounts_for_every_message(keys: list[str | bytes | None], n: int, scheme: str) -> None:
    weights = [float(i % 5) + 1 for i in range(len(keys))]
    report = skew(keys, n, scheme, weights=weights)
    assert sum(report.load) == pytest.approx(sum(weights))
    assert sum(report.keys) == key_sample(keys).distinct_keys
    assert report.max_mean >= 1.0 - 1e-12
    assert 0 <= report.hottest_partition < n
