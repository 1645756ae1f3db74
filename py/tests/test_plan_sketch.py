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
from pulsar_routing.plan.sketch import StreamingSkewReport, parquet_batches, stream_skew

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


def write_keys(path: Path, fmt: str) -> None:
    """The keys of batches() (nulls dropped: a text or CSV row always has a key) as a file."""
    keys = [k for chunk, _ in batches() for k in chunk.to_pylist() if k is not None]
    if fmt == "parquet":
        pq.write_table(pa.table({"k": pa.array(keys, pa.string())}), path)
    elif fmt == "csv":
        path.write_text("k,other\n" + "".join(f"{k},x\n" for k in keys), encoding="utf-8")
    else:
        path.write_text("".join(f"{k}\n" for k in keys), encoding="utf-8")


@pytest.mark.parametrize("fmt", ["txt", "csv", "parquet"])
def test_file_batches_read_every_format(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / f"keys.{fmt}"
    write_keys(path, "text" if fmt == "txt" else fmt)
    column = None if fmt == "txt" else "k"
    seen: list[int] = []
    streamed = list(plan.file_batches(path, key_column=column, batch_rows=7_000, progress=seen.append))
    # CSV is read in blocks of at least 1 MiB, so this small file is one batch.
    assert (len(streamed) > 1 or fmt == "csv") and all(w is None for _, w in streamed)
    keys = pa.chunked_array([k for k, _ in streamed])
    want = plan.read_keys(path, key_column=column)
    assert len(keys) == want.rows and seen[-1] == want.rows and seen == sorted(seen)
    got = stream_skew(streamed, [12, 16], ["java_string", "murmur3_32"], max_distinct=10**9, source=path.name)
    assert isinstance(got, SkewAnalysis)
    assert got.to_dict()["reports"] == plan.analyze_skew(want, [12, 16], ["java_string", "murmur3_32"]).to_dict()["reports"]


def test_file_batches_check_like_read_keys(tmp_path: Path) -> None:
    with pytest.raises(plan.PlanInputError, match="no such file"):
        next(plan.file_batches(tmp_path / "missing.txt"))
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok\n\xff\n")
    with pytest.raises(plan.PlanInputError, match="bad.txt line 2: not valid UTF-8"):
        list(plan.file_batches(bad))
    csv = tmp_path / "k.csv"
    csv.write_text("k\na\n")
    with pytest.raises(plan.PlanInputError, match="k.csv: no column 'nope'"):
        list(plan.file_batches(csv, key_column="nope"))


@pytest.mark.parametrize("fmt", ["txt", "csv", "parquet"])
def test_cli_streams_every_file_format(tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"keys.{fmt}"
    write_keys(path, "text" if fmt == "txt" else fmt)
    column = [] if fmt == "txt" else ["--key-column", "k"]
    assert main(["plan", "skew", "--file", str(path), *column, "--max-distinct", "1000", "-n", "12"]) == 0
    out = capsys.readouterr().out
    assert "sketch counting: Apache DataSketches" in out
    # Without --max-distinct the default limit applies, which these keys fit: exact counting.
    assert main(["plan", "skew", "--file", str(path), *column, "-n", "12", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["reports"][0]["counting"] == "exact"
    assert main(["plan", "skew", "--file", str(path), *column, "--max-distinct", "1000", "-n", "12", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mode"] == "sketch"


def test_max_distinct_needs_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "skew", "k1", "--max-distinct", "10"]) == 1
    assert "--max-distinct streams a --file" in capsys.readouterr().err


def test_parquet_batches_is_file_batches_for_parquet(tmp_path: Path) -> None:
    path = tmp_path / "keys.parquet"
    write_keys(path, "parquet")
    old = [k for k, _ in parquet_batches(str(path), "k", batch_rows=9_000)]
    new = [k for k, _ in plan.file_batches(path, key_column="k", batch_rows=9_000)]
    assert len(old) == len(new) > 1 and all(a.equals(b) for a, b in zip(old, new))
