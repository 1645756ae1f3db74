"""Skew past memory: exact while the distinct keys fit, DataSketches sketches after."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pulsar_routing import plan
from pulsar_routing.__main__ import main
from pulsar_routing.plan.results import SkewAnalysis
from pulsar_routing.plan.sketch import StreamingSkewReport, stream_skew

pytest.importorskip("datasketches")


def batches() -> list[tuple[Any, Any]]:
    rng = np.random.default_rng(3)
    out = []
    for _ in range(5):
        ids = rng.zipf(1.3, size=20_000) % 50_000
        keys: list[str | None] = [f"user-{i}" for i in ids.tolist()]
        keys[::101] = [None] * len(keys[::101])
        out.append((pa.array(keys, pa.string()), rng.integers(1, 4, size=len(keys)).astype(np.float64)))
    return out


def exact() -> SkewAnalysis:
    keys = pa.chunked_array([k for k, _ in batches()])
    weights = np.concatenate([w for _, w in batches()])
    return plan.analyze_skew(keys, [12, 16], ["java_string", "murmur3_32"], weights=weights)


def test_exact_while_it_fits() -> None:
    got = stream_skew(batches(), [12, 16], ["java_string", "murmur3_32"], max_distinct=10**9, source="stream")
    assert isinstance(got, SkewAnalysis)
    want = exact()
    assert got.to_dict()["reports"] == want.to_dict()["reports"]
    assert "exact counting" in str(got)


def test_sketches_past_the_limit() -> None:
    got = stream_skew(batches(), [12, 16], ["java_string", "murmur3_32"], max_distinct=1_000, top=3)
    assert isinstance(got, StreamingSkewReport) and got.mode == "sketch"
    assert "sketch counting: Apache DataSketches" in str(got)
    want = exact()
    # Loads stay exact; the distinct count is within HyperLogLog's error, the hot keys are the heavy ones.
    for mine, theirs in zip(got.loads, want.reports):
        assert (mine.scheme, mine.partitions) == (theirs.scheme, theirs.partitions)
        assert np.allclose(mine.load, theirs.load)
        assert mine.max_mean == pytest.approx(theirs.max_mean)
    distinct = want.reports[0].distinct_keys
    assert got.distinct_keys_lower <= distinct <= got.distinct_keys_upper
    sample = plan.key_sample(
        pa.chunked_array([k for k, _ in batches()]), np.concatenate([w for _, w in batches()])
    )
    heaviest = sample.keys_at(np.argsort(-sample.weights, kind="stable")[:3])
    assert [h.key for h in got.hot_keys] == heaviest
    for h, w in zip(got.hot_keys, np.sort(sample.weights)[::-1][:3].tolist()):
        assert h.lower_bound <= w <= h.upper_bound
    json.loads(got.to_json())


def test_cli_streams_parquet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "keys.parquet"
    pq.write_table(pa.table({"k": pa.chunked_array([k for k, _ in batches()])}), path)
    assert main(["plan", "skew", "--file", str(path), "--max-distinct", "1000", "-n", "12"]) == 0
    assert "sketch counting" in capsys.readouterr().out
    assert main(["plan", "skew", "--file", str(path), "--max-distinct", "1000000", "-n", "12", "--json"]) == 0
    assert "exact counting" in capsys.readouterr().out  # it fits: the full exact report
    assert main(["plan", "skew", "k1", "--max-distinct", "10"]) == 1
    assert "--max-distinct streams a Parquet --file" in capsys.readouterr().err
