"""Streamed file analyses: exact (equal to the in-memory ones) while the keys fit, sampled past that."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pulsar_routing import partitions_for_keys, plan
from pulsar_routing.plan.stream import (
    DistinctSample,
    key_hashes,
    stream_client_divergence,
    stream_divergence,
    stream_drift,
    stream_key_shared,
    stream_partitions,
    wilson_interval,
)

Batches = list[tuple[Any, Any]]


# ---------------------------------------------------------------- exact mode: every analysis, every format


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("stream")
    rng = np.random.default_rng(11)
    ids = rng.zipf(1.4, size=3_000) % 700
    keys = [f"order-{i}" for i in ids.tolist()]
    weights = [float(i % 5 + 1) for i in range(len(keys))]
    text = d / "keys.txt"
    text.write_text("\n".join(keys) + "\n")
    csv = d / "keys.csv"
    csv.write_text("k,w\n" + "".join(f"{k},{w:g}\n" for k, w in zip(keys, weights)))
    parquet = d / "keys.parquet"
    with_nulls: list[str | None] = list(keys)
    with_nulls[::97] = [None] * len(with_nulls[::97])
    pq.write_table(pa.table({"k": pa.array(with_nulls, pa.string()), "w": weights}), parquet, row_group_size=700)
    return {"text": text, "csv": csv, "parquet": parquet}


def columns(fmt: str) -> dict[str, Any]:
    return {} if fmt == "text" else {"key_column": "k", "weight_column": "w"}


def batches(path: Path, fmt: str) -> Iterator[tuple[Any, Any]]:
    # Small batches, so the keys are merged over many of them.
    return plan.file_batches(path, batch_rows=256, **columns(fmt))


FORMATS = ["text", "csv", "parquet"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_drift_exact_equals_in_memory(files: dict[str, Path], fmt: str) -> None:
    sample = plan.read_keys(files[fmt], **columns(fmt))
    for list_moved in (None, 0, 7):
        got = stream_drift(batches(files[fmt], fmt), 12, 16, "murmur3_32", source=files[fmt].name,
                           list_moved=list_moved)
        want = plan.drift(sample, 12, 16, "murmur3_32", list_moved=list_moved)
        assert got.to_json() == want.to_json()
        assert got.counting == "exact" and "(exact counting" in str(got)


@pytest.mark.parametrize("fmt", FORMATS)
def test_divergence_and_clients_exact_equal_in_memory(files: dict[str, Path], fmt: str) -> None:
    sample = plan.read_keys(files[fmt], **columns(fmt))
    got = stream_divergence(batches(files[fmt], fmt), [12, 16], "java_string", "go", source=files[fmt].name)
    assert got.to_json() == plan.divergence(sample, [12, 16], "java_string", "go").to_json()
    setups = ["java", "go", "cpp", "kafka", "pulsar-rs:round_robin"]
    got_clients = stream_client_divergence(batches(files[fmt], fmt), [7, 16], setups, source=files[fmt].name)
    want_clients = plan.client_divergence(sample, [7, 16], setups)
    assert got_clients.to_json() == want_clients.to_json()
    assert "cpp" in got_clients.skipped


@pytest.mark.parametrize("fmt", FORMATS)
def test_partitions_exact_equals_in_memory(files: dict[str, Path], fmt: str) -> None:
    sample = plan.read_keys(files[fmt], **columns(fmt))
    options: dict[str, Any] = {"peak_read": 90_000.0, "per_partition_read": 8_000.0, "consumers": 20}
    got = stream_partitions(batches(files[fmt], fmt), 60_000, 5_000, source=files[fmt].name, **options)
    assert got.to_json() == plan.recommend_partitions(60_000, 5_000, keys=sample, **options).to_json()
    assert got.counting == "exact"


@pytest.mark.parametrize("fmt", FORMATS)
def test_key_shared_exact_equals_in_memory(files: dict[str, Path], fmt: str) -> None:
    if not plan.key_shared_available():
        pytest.skip("the Key_Shared selectors are not in this build")
    sample = plan.read_keys(files[fmt], **columns(fmt))
    got = stream_key_shared(batches(files[fmt], fmt), 5, plan.key_shared.SELECTORS, source=files[fmt].name, leave="consumer-2")
    want = plan.analyze_key_shared(sample, 5, plan.key_shared.SELECTORS, leave="consumer-2")
    assert got.to_json() == want.to_json()


def many_key_batches(distinct: int, rows: int, seed: int, *, size: int = 50_000) -> Batches:
    """``rows`` integer-weighted rows over about ``distinct`` keys, some keyless, in batches of ``size``."""
    rng = np.random.default_rng(seed)
    ids = rng.integers(0, distinct, size=rows)
    keys: list[str | None] = [f"user-{i}" for i in ids.tolist()]
    keys[::1001] = [None] * len(keys[::1001])
    arr = pa.array(keys, pa.string())
    # Small integers: every sum of them is exact in floating point, whatever the order.
    w = rng.integers(1, 6, size=rows).astype(np.float64)
    return [(arr.slice(i, size), w[i : i + size]) for i in range(0, rows, size)]


def test_key_shared_sketch_past_the_limit() -> None:
    if not plan.key_shared_available():
        pytest.skip("the Key_Shared selectors are not in this build")
    data = many_key_batches(200_000, 600_000, 5)
    selectors = plan.key_shared.SELECTORS
    exact = stream_key_shared(data, 6, selectors, max_distinct=10**7, leave="consumer-1")
    got = stream_key_shared(data, 6, selectors, max_distinct=20_000, leave="consumer-1")
    assert "exact counting" in exact.sample and "sketch counting" in got.sample
    distinct = int(exact.sample.split(" distinct keys")[0].rsplit(" ", 1)[1].replace(",", ""))
    # (low, exact, high) of every key share: 95% intervals, so about 1 in 20 may miss.
    shares: list[tuple[float, float, float]] = []
    for e, s in zip(exact.reports, got.reports, strict=True):
        assert e.counting == "exact" and s.counting == "sketch"
        assert s.key_sample is not None and 0 < s.key_sample <= 65_536
        assert s.distinct_keys_low is not None and s.distinct_keys_high is not None
        assert s.distinct_keys_low <= distinct <= s.distinct_keys_high
        # Per-slot sums of every row: traffic, slots and imbalance are the exact run's.
        assert s.imbalance == pytest.approx(e.imbalance, rel=1e-12)
        assert s.slot_imbalance == e.slot_imbalance
        assert s.unassigned_traffic_share == pytest.approx(e.unassigned_traffic_share, abs=1e-12)
        assert s.uniform_imbalance is None and e.uniform_imbalance is not None
        assert any("No uniform-hashing comparison" in n for n in s.notes)
        for ce, cs in zip(e.consumers, s.consumers, strict=True):
            assert (cs.name, cs.slots, cs.slot_share) == (ce.name, ce.slots, ce.slot_share)
            assert cs.traffic == pytest.approx(ce.traffic, rel=1e-12)
            assert cs.traffic_share == pytest.approx(ce.traffic_share, rel=1e-12)
            assert cs.key_share_low is not None and cs.key_share_high is not None
            shares.append((cs.key_share_low, ce.keys / distinct, cs.key_share_high))
        for ec, sc in ((e.join, s.join), (e.leave, s.leave)):
            assert (ec is None) == (sc is None)
            if ec is None or sc is None:
                continue
            assert sc.moved_traffic_share == pytest.approx(ec.moved_traffic_share, rel=1e-12, abs=1e-15)
            assert sc.orphaned_traffic_share == pytest.approx(ec.orphaned_traffic_share, rel=1e-12, abs=1e-15)
            assert sc.imbalance_after == pytest.approx(ec.imbalance_after, rel=1e-12)
            assert (sc.losers, sc.gainers) == (ec.losers, ec.gainers)
            assert sc.moved_key_share_low is not None and sc.moved_key_share_high is not None
            shares.append((sc.moved_key_share_low, ec.moved_key_share, sc.moved_key_share_high))
            assert sc.orphaned_key_share_low is not None and sc.orphaned_key_share_high is not None
            shares.append((sc.orphaned_key_share_low, ec.orphaned_key_share, sc.orphaned_key_share_high))
    inside = sum(low <= x <= high for low, x, high in shares)
    assert inside >= 0.85 * len(shares), shares
    # None far outside: within its interval widened by its own width on each side.
    assert all(2 * low - high <= x <= 2 * high - low for low, x, high in shares), shares
    text = str(got)
    assert "sketch counting" in text and "uniform keys on these slots: -" in text
    json.loads(got.to_json())


@settings(max_examples=15, deadline=None)
@given(
    distinct=st.integers(1, 3_000),
    consumers=st.integers(1, 9),
    bound=st.integers(1, 400),
    seed=st.integers(0, 2**32 - 1),
)
def test_key_shared_sketch_traffic_is_exact(distinct: int, consumers: int, bound: int, seed: int) -> None:
    if not plan.key_shared_available():
        pytest.skip("the Key_Shared selectors are not in this build")
    data = many_key_batches(distinct, 4_000, seed, size=1_000)
    exact = stream_key_shared(data, consumers, plan.key_shared.SELECTORS)
    got = stream_key_shared(data, consumers, plan.key_shared.SELECTORS, max_distinct=0, sample_keys=bound)
    for e, s in zip(exact.reports, got.reports, strict=True):
        assert s.counting == "sketch" and s.key_sample is not None and s.key_sample <= bound
        assert s.imbalance == pytest.approx(e.imbalance, rel=1e-12)
        assert [c.traffic for c in s.consumers] == pytest.approx([c.traffic for c in e.consumers], rel=1e-12)
        for ec, sc in ((e.join, s.join), (e.leave, s.leave)):
            if ec is not None and sc is not None:
                assert sc.moved_traffic_share == pytest.approx(ec.moved_traffic_share, rel=1e-12, abs=1e-15)
                assert sc.orphaned_traffic_share == pytest.approx(ec.orphaned_traffic_share, rel=1e-12, abs=1e-15)


def test_empty_input_has_no_keys(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n")
    with pytest.raises(plan.PlanInputError, match="empty.txt: no keys"):
        stream_drift(plan.file_batches(empty), 3, 4, source="empty.txt")


@settings(max_examples=40, deadline=None)
@given(
    keys=st.lists(st.one_of(st.none(), st.text(max_size=6)), min_size=1, max_size=120),
    cut=st.integers(1, 40),
    n=st.integers(1, 20),
    m=st.integers(1, 20),
)
def test_streamed_drift_equals_drift_for_any_batching(keys: list[str | None], cut: int, n: int, m: int) -> None:
    weights = np.arange(1, len(keys) + 1, dtype=np.float64)
    chunks: Batches = [
        (pa.array(keys[i : i + cut], pa.string()), weights[i : i + cut]) for i in range(0, len(keys), cut)
    ]
    whole = plan.key_sample(pa.array(keys, pa.string()), weights, source="stream")
    if whole.total_weight <= 0 or whole.distinct_keys == 0:
        return
    got = stream_drift(chunks, n, m, list_moved=0, max_distinct=10**6)
    assert got.to_json() == plan.drift(whole, n, m, list_moved=0).to_json()


# ---------------------------------------------------------------- the distinct sample


def test_key_hashes_depend_on_the_key_only() -> None:
    keys = [f"k{i}" for i in range(1000)] + ["", "é", "a" * 300]
    plain = key_hashes(pa.array(keys, pa.string()))
    assert np.array_equal(plain, key_hashes(pa.array(keys, pa.large_string())))
    assert np.array_equal(plain[10:20], key_hashes(pa.array(keys, pa.string()).slice(10, 10)))
    chunked = pa.chunked_array([pa.array(keys[:500]), pa.array(keys[500:])])
    assert np.array_equal(plain, key_hashes(chunked))
    assert len(set(plain.tolist())) == len(keys)
    as_bytes = key_hashes(pa.array([k.encode() for k in keys], pa.binary()))
    assert np.array_equal(as_bytes, key_hashes(pa.array([k.encode() for k in keys], pa.large_binary())))
    assert not np.any(as_bytes == plain)  # str and bytes keys are different keys


def test_key_hashes_spread_uniformly() -> None:
    h = key_hashes(pa.array([f"user-{i}" for i in range(100_000)]))
    # Each top bit is set about half the time, and the top byte is about uniform.
    bits = [(h >> np.uint64(63 - b)) & np.uint64(1) for b in range(8)]
    for b in bits:
        assert abs(float(b.mean()) - 0.5) < 0.01
    counts = np.bincount((h >> np.uint64(56)).astype(np.int64), minlength=256)
    expected = 100_000 / 256
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 340  # 255 degrees of freedom: p ~ 0.0003


@settings(max_examples=30, deadline=None)
@given(ids=st.lists(st.integers(0, 5_000), min_size=1, max_size=2_000), bound=st.integers(1, 300))
def test_distinct_sample_is_the_keys_below_a_threshold(ids: list[int], bound: int) -> None:
    keys = pa.array([f"id-{i}" for i in ids])
    h = key_hashes(keys)
    flags = (np.asarray(ids) % 3 == 0)[:, None]
    sample = DistinctSample(1, bound)
    for start in range(0, len(ids), 97):
        sample.add(h[start : start + 97], flags[start : start + 97])
    distinct = np.unique(h)
    kept = distinct[(distinct >> np.uint64(1)) < np.uint64(1 << (63 - sample.level))]
    # The sample is exactly the distinct keys under the final threshold, repeats and order aside.
    assert sample.size == kept.size <= bound
    assert np.array_equal(np.sort(sample._hashes), kept)
    if sample.level == 0:
        share = float(np.mean([i % 3 == 0 for i in set(ids)]))
        assert sample.share(0) == (share, share, share)
        assert sample.distinct() == (len(set(ids)),) * 3


def test_sample_coverage() -> None:
    # Over independent key sets, the 95% interval of the moved-key share
    # holds the exact share about 95% of the time (at least 17 of 20 but for
    # a 1.6% chance), and the estimate is unbiased.
    hits = 0
    errors = []
    for seed in range(20):
        rng = np.random.default_rng(1000 + seed)
        keys = pa.array([f"{x:016x}" for x in rng.integers(0, 2**63, size=50_000).tolist()])
        moved = partitions_for_keys(keys, 12, "java_string") != partitions_for_keys(keys, 16, "java_string")
        sample = DistinctSample(1, 4_000)
        sample.add(key_hashes(keys), moved[:, None])
        share, low, high = sample.share(0)
        hits += low <= float(moved.mean()) <= high
        errors.append(share - float(moved.mean()))
    assert hits >= 17
    assert abs(float(np.mean(errors))) < 0.01


def test_wilson_interval() -> None:
    low, high = wilson_interval(50, 100)
    assert low < 0.5 < high and high - low == pytest.approx(2 * 1.96 * 0.05, rel=0.05)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


# ---------------------------------------------------------------- sketch mode


def random_keys(distinct: int, rows: int, seed: int) -> tuple[list[str], NDArrayF]:
    rng = np.random.default_rng(seed)
    names = [f"{x:016x}" for x in rng.integers(0, 2**63, size=distinct).tolist()]
    pick = np.concatenate([np.arange(distinct), rng.integers(0, distinct, size=rows - distinct)])
    rng.shuffle(pick)
    return [names[i] for i in pick.tolist()], rng.integers(1, 6, size=rows).astype(np.float64)


NDArrayF = Any


@pytest.fixture(scope="module")
def big() -> tuple[list[str], NDArrayF]:
    # A fixed seed: each interval below holds the exact answer with 95%
    # probability, so another seed may miss one (test_sample_coverage checks the rate).
    return random_keys(200_000, 300_000, seed=7)


def chunks(data: tuple[list[str], NDArrayF], size: int = 50_000) -> Iterator[tuple[Any, Any]]:
    keys, weights = data
    for i in range(0, len(keys), size):
        yield pa.array(keys[i : i + size], pa.string()), weights[i : i + size]


def test_sketch_drift_within_its_interval(big: tuple[list[str], NDArrayF]) -> None:
    exact = plan.drift(pa.array(big[0]), 12, 16, weights=big[1])
    got = stream_drift(chunks(big), 12, 16, max_distinct=20_000, list_moved=5)
    assert got.counting == "sketch" and got.moved is None
    assert got.key_sample is not None and 0 < got.key_sample <= plan.stream.SAMPLE_KEYS
    assert got.moved_key_share_low is not None and got.moved_key_share_high is not None
    assert got.moved_key_share_low <= exact.moved_key_share <= got.moved_key_share_high
    # Random keys: uniform hashing moves 1 - gcd(N, M) / max(N, M) of them.
    assert got.moved_key_share_low <= plan.expected_drift(12, 16) <= got.moved_key_share_high
    assert got.moved_key_share_high - got.moved_key_share_low < 0.03
    # Traffic and loads are sums: exact.
    assert got.moved_traffic_share == pytest.approx(exact.moved_traffic_share, rel=1e-12)
    assert got.load_before == pytest.approx(exact.load_before, rel=1e-12)
    assert got.load_after == pytest.approx(exact.load_after, rel=1e-12)
    assert got.distinct_keys_low is not None and got.distinct_keys_high is not None
    assert got.distinct_keys_low <= exact.distinct_keys <= got.distinct_keys_high
    assert "No moved-key list" in got.notes[0]
    text = str(got)
    assert "sketch counting" in text and "about" in text
    assert json.loads(got.to_json())["counting"] == "sketch"


@pytest.mark.parametrize(("n", "m"), [(12, 16), (8, 16), (10, 7), (3, 3)])
def test_sketch_drift_matches_the_uniform_expectation(n: int, m: int) -> None:
    data = random_keys(60_000, 60_000, seed=n * 100 + m)
    got = stream_drift(chunks(data), n, m, max_distinct=5_000, sample_keys=8_000)
    assert got.counting == "sketch"
    assert got.moved_key_share_low is not None and got.moved_key_share_high is not None
    expected = 1 - math.gcd(n, m) / max(n, m)
    assert got.moved_key_share_low <= expected <= got.moved_key_share_high


def test_sketch_divergence_within_its_interval(big: tuple[list[str], NDArrayF]) -> None:
    exact = plan.divergence(pa.array(big[0]), [12, 16], weights=big[1])
    got = stream_divergence(chunks(big), [12, 16], max_distinct=20_000)
    assert got.counting == "sketch" and "sketch counting" in str(got)
    for g, e in zip(got.rows, exact.rows):
        assert g.differing_key_share_low is not None and g.differing_key_share_high is not None
        assert g.differing_key_share_low <= e.differing_key_share <= g.differing_key_share_high
        assert g.differing_traffic_share == pytest.approx(e.differing_traffic_share, rel=1e-12)


def test_sketch_clients_within_their_intervals(big: tuple[list[str], NDArrayF]) -> None:
    setups = ["java", "go", "cpp", "kafka"]
    exact = plan.client_divergence(pa.array(big[0]), [12], setups, weights=big[1])
    got = stream_client_divergence(chunks(big), [12], setups, max_distinct=20_000)
    assert got.counting == "sketch" and got.setups == exact.setups and got.skipped == exact.skipped
    for g, e in zip(got.pairs, exact.pairs):
        assert (g.setup_a, g.setup_b, g.partitions) == (e.setup_a, e.setup_b, e.partitions)
        assert g.differing_key_share_low is not None and g.differing_key_share_high is not None
        assert g.differing_key_share_low <= e.differing_key_share <= g.differing_key_share_high
        assert g.differing_traffic_share == pytest.approx(e.differing_traffic_share, rel=1e-12)


def test_sketch_partitions_equal_exact_loads() -> None:
    rng = np.random.default_rng(21)
    ids = np.concatenate([np.arange(100_000), rng.zipf(1.2, size=150_000) % 100_000])
    rng.shuffle(ids)
    keys = [f"user-{i}" for i in ids.tolist()]
    weights = rng.integers(1, 4, size=len(keys)).astype(np.float64)
    options: dict[str, Any] = {"consumers": 12, "headroom": 1.3}
    exact = plan.recommend_partitions(2_000_000, 250_000, keys=pa.array(keys), weights=weights, **options)
    data = (keys, weights)
    got = stream_partitions(chunks(data), 2_000_000, 250_000, max_distinct=10_000, **options)
    assert got.counting == "sketch" and "Misra-Gries" in got.notes[0]
    assert (got.recommended, got.skew_adjusted, got.searched_up_to) == (
        exact.recommended, exact.skew_adjusted, exact.searched_up_to)
    for g, e in zip(got.candidates, exact.candidates, strict=True):
        assert g.partitions == e.partitions
        assert g.max_mean == pytest.approx(e.max_mean, rel=1e-12)
        assert g.hottest_share == pytest.approx(e.hottest_share, rel=1e-12)
    # Misra-Gries: a lower bound within the stated error.
    assert exact.hottest_key_share is not None and got.hottest_key_share is not None
    low, high = (float(x.rstrip("%")) / 100 for x in got.notes[0].split(", ")[-1].split(" of")[0].split(" to "))
    assert got.hottest_key_share <= exact.hottest_key_share + 1e-12
    assert low - 1e-4 <= exact.hottest_key_share <= high + 1e-4


def test_heavy_hitters_bounds() -> None:
    from pulsar_routing.plan.stream import _HeavyHitters

    rng = np.random.default_rng(4)
    ids = rng.zipf(1.5, size=200_000) % 50_000
    summary = _HeavyHitters(bound=64)
    for i in range(0, ids.size, 20_000):
        summary.add(pa.array([f"k{x}" for x in ids[i : i + 20_000].tolist()]), np.ones(20_000))
    true_top = float(np.bincount(ids).max())
    low, high = summary.heaviest()
    assert low <= true_top <= high
    assert summary.error <= ids.size / 65 + 1e-9  # Misra-Gries: at most total / (bound + 1)


# ---------------------------------------------------------------- command line


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pulsar_routing", "plan", *args], capture_output=True, text=True, timeout=120
    )


def test_cli_streams_and_says_which_counting(files: dict[str, Path]) -> None:
    path = str(files["parquet"])
    done = run("drift", "--file", path, "--key-column", "k", "--weight-column", "w", "--from", "12", "--to", "16",
               "--json")
    assert done.returncode == 0, done.stderr
    sample = plan.read_keys(files["parquet"], key_column="k", weight_column="w")
    assert json.loads(done.stdout) == json.loads(plan.drift(sample, 12, 16).to_json())

    done = run("drift", "--file", path, "--key-column", "k", "--from", "12", "--to", "16", "--max-distinct", "50",
               "--list-moved", "5")
    assert done.returncode == 0, done.stderr
    assert "sketch counting" in done.stdout and "No moved-key list" in done.stdout

    for analysis in (["divergence", "-n", "12"], ["clients", "-n", "12", "--setups", "java", "go"]):
        done = run(*analysis, "--file", path, "--key-column", "k", "--max-distinct", "50", "--json")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["counting"] == "sketch"

    done = run("partitions", "--peak-write", "100", "--per-partition-write", "10", "--file", str(files["text"]),
               "--max-distinct", "50")
    assert done.returncode == 0 and "sketch counting" in done.stdout and "Misra-Gries" in done.stdout
    done = run("key-shared", "-c", "3", "--file", str(files["text"]), "--max-distinct", "50")
    assert done.returncode == 0, done.stderr
    assert "sketch counting" in done.stdout and "No uniform-hashing comparison" in done.stdout
    done = run("key-shared", "-c", "3", "--selector", "auto_split", "--file", path, "--key-column", "k",
               "--weight-column", "w", "--max-distinct", "50", "--json")
    assert done.returncode == 0, done.stderr
    sketched = json.loads(done.stdout)
    want = json.loads(plan.analyze_key_shared(sample, 3, "auto_split").to_json())
    (report,) = sketched["reports"]
    assert report["counting"] == "sketch" and report["uniform_imbalance"] is None
    assert report["imbalance"] == pytest.approx(want["reports"][0]["imbalance"], rel=1e-12)
    assert [c["traffic"] for c in report["consumers"]] == pytest.approx(
        [c["traffic"] for c in want["reports"][0]["consumers"]], rel=1e-12
    )
    done = run("drift", "--from", "2", "--to", "3", "a", "b", "--max-distinct", "5")
    assert done.returncode == 1 and "--max-distinct streams a --file" in done.stderr
