"""Scale-out with Dask: skew and drift over a partitioned data set equal the single-machine run.

Each Parquet file of the data set is one Dask task that reads its keys and
returns a partial histogram; the partials are summed in one more task.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pulsar_routing import plan
from pulsar_routing.plan import KeySample
from pulsar_routing.plan.scale import merge_samples, partial_histogram, partition_load

dask: Any = pytest.importorskip("dask")  # dask's own annotations are partial

FILES = 6
ROWS_PER_FILE = 5_000


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """A partitioned data set: user ids with a hot range, order numbers with a channel code, some null keys."""
    d = tmp_path_factory.mktemp("dataset")
    rng = np.random.default_rng(7)
    paths = []
    for i in range(FILES):
        users = rng.integers(0, 3_000, size=ROWS_PER_FILE)
        keys: list[str | None] = [f"{u * 100 + (u % 4):d}" for u in users.tolist()]
        for j in range(0, ROWS_PER_FILE, 97):
            keys[j] = None
        weights = rng.integers(1, 20, size=ROWS_PER_FILE).astype(np.float64)
        path = d / f"part-{i:03d}.parquet"
        pq.write_table(pa.table({"k": pa.array(keys, pa.string()), "w": weights}), path)
        paths.append(path)
    return paths


def read_partial(path: Path) -> KeySample:
    """The map step: one file (a partition of the data set) to a partial histogram."""
    table = pq.read_table(path, columns=["k", "w"])
    return partial_histogram(table.column("k"), table.column("w"), source="dataset")


def single_machine(paths: list[Path]) -> KeySample:
    """The whole data set read in one process, in order."""
    table = pa.concat_tables([pq.read_table(p, columns=["k", "w"]) for p in paths])
    return plan.key_sample(table.column("k"), table.column("w"), source="dataset")


@pytest.mark.parametrize("scheduler", ["threads", "processes"])
def test_dask_skew_and_drift_equal_single_machine(dataset: list[Path], scheduler: str) -> None:
    partials = [dask.delayed(read_partial)(p) for p in dataset]
    merged = dask.delayed(merge_samples)(partials, source="dataset")
    # Per-partition loads of 12 and 16 partitions, summed over the partials as well.
    loads = {n: dask.delayed(sum)([dask.delayed(partition_load)(p, n) for p in partials]) for n in (12, 16)}
    (sample, load) = dask.compute(merged, loads, scheduler=scheduler, num_workers=2)

    local = single_machine(dataset)
    assert sample.rows == local.rows == FILES * ROWS_PER_FILE
    assert sample.keyless == local.keyless > 0
    # The same histogram, keys in the same (first-seen) order: the uniform baseline depends on it.
    assert sample.key_list() == local.key_list()
    assert sample.weights.tolist() == local.weights.tolist()

    skew_dask = plan.analyze_skew(sample, [12, 16], ["java_string", "murmur3_32"])
    skew_local = plan.analyze_skew(local, [12, 16], ["java_string", "murmur3_32"])
    assert skew_dask.to_json() == skew_local.to_json()
    for report in skew_dask.reports:
        if report.scheme == "java_string":
            assert np.allclose(load[report.partitions], report.load)

    # The partials' order does not matter (a distributed sum comes in any order).
    shuffled = merge_samples([read_partial(p) for p in reversed(dataset)], source="dataset")
    assert shuffled.key_list() == local.key_list() and shuffled.weights.tolist() == local.weights.tolist()

    drift_dask = plan.drift(sample, 12, 16, list_moved=10)
    drift_local = plan.drift(local, 12, 16, list_moved=10)
    assert drift_dask.to_json() == drift_local.to_json()


def test_merge_of_python_partials() -> None:
    a = partial_histogram(["x", "y", None, "x"], [1, 2, 3, 4])
    b = partial_histogram(["y", b"z"], [5, 6])
    merged = merge_samples([a, b])
    assert merged.key_list() == ["x", "y", b"z"]
    assert merged.weights.tolist() == [5.0, 7.0, 6.0]
    assert merged.keyless == 3.0 and merged.rows == 6 and merged.weighted
    with pytest.raises(plan.PlanInputError):
        merge_samples([])
