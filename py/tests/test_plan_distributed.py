"""The file analyses on a Dask cluster equal the single-machine pass over the same files.

A local cluster of three in-process workers reads a data set of Parquet
files (several row groups each, so a file is several tasks) and a CSV file;
each analysis runs once on the cluster and once in this process, reading the
same files in order. Exact counting gives the same report. Past
``max_distinct`` (sketch counting) every traffic figure is the same sum, the
key shares of drift, divergence, clients and key-shared come from the same
sample of the distinct keys, and the estimates of skew and partitions keep
the true values within their bounds. A two-process cluster checks that the
summaries (DataSketches sketches included) travel between processes.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pulsar_routing import plan
from pulsar_routing.plan import stream
from pulsar_routing.plan.cli import main
from pulsar_routing.plan.distributed import DaskRun, Files, expand_paths
from pulsar_routing.plan.results import Result
from pulsar_routing.plan.sketch import StreamingSkewReport, stream_skew

distributed: Any = pytest.importorskip("distributed")
pytest.importorskip("datasketches")

FILES = 4
ROWS = 6_000
PIECE_ROWS = 2_000
# Distinct keys in the data set: about 4,000 user ids, a few hot.
SKETCH_LIMIT = 1_000


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Parquet files of 1,000-row row groups, one CSV file; null keys, whole-number weights."""
    d = tmp_path_factory.mktemp("distributed")
    rng = np.random.default_rng(17)
    paths = []
    for i in range(FILES + 1):
        users = rng.zipf(1.4, ROWS) % 4_000
        keys: list[str | None] = [f"user-{u}" for u in users.tolist()]
        for j in range(i, ROWS, 101):
            keys[j] = None
        weights = rng.integers(1, 9, ROWS).astype(np.float64)
        table = pa.table({"k": pa.array(keys, pa.string()), "w": weights})
        if i < FILES:
            path = d / f"part-{i}.parquet"
            pq.write_table(table, path, row_group_size=1_000)
        else:
            path = d / "part-x.csv"
            lines = ["k,w"] + [f"{'' if k is None else k},{int(w)}" for k, w in zip(keys, weights.tolist())]
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(path))
    return paths


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with distributed.LocalCluster(
        n_workers=3, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster, distributed.Client(cluster) as c:
        yield c


def _files(paths: list[str], client: Any = None) -> Files:
    files = Files(paths, key_column="k", weight_column="w", piece_rows=PIECE_ROWS)
    return files if client is None else files.on(client)


Run = Callable[[Any, int], Result]

ANALYSES: dict[str, Run] = {
    "skew": lambda b, m: stream_skew(b, [12, 16], ["java_string", "murmur3_32"], max_distinct=m, source="s"),
    "partitions": lambda b, m: stream.stream_partitions(b, 60_000, 5_000, max_distinct=m, source="s", consumers=8),
    "drift": lambda b, m: stream.stream_drift(b, 12, 16, max_distinct=m, source="s", list_moved=5),
    "divergence": lambda b, m: stream.stream_divergence(b, [12, 16], max_distinct=m, source="s"),
    "clients": lambda b, m: stream.stream_client_divergence(b, 12, ["java", "go", "kafka"], max_distinct=m, source="s"),
    "key-shared": lambda b, m: stream.stream_key_shared(b, 5, "consistent_hashing", max_distinct=m, source="s"),
}


def _truth(paths: list[str]) -> plan.KeySample:
    """Every row of the data set in memory, as one exact sample."""
    batches = list(_files(paths))
    weights = [w for _, w in batches if w is not None]
    # Parquet text columns arrive as dictionaries, CSV ones as plain text:
    # one chunked array needs one type.
    keys = [k.dictionary_decode() if pa.types.is_dictionary(k.type) else k for k, _ in batches]
    return plan.key_sample(pa.chunked_array(keys), np.concatenate(weights))


@pytest.mark.parametrize("name", ANALYSES)
def test_exact_counting_equals_single_machine(dataset: list[str], client: Any, name: str) -> None:
    files = _files(dataset, client)
    on_cluster = ANALYSES[name](files, 10**7)
    here = ANALYSES[name](_files(dataset), 10**7)
    assert on_cluster.to_json() == here.to_json()
    assert '"counting": "exact"' in here.to_json() or "exact counting" in str(here)
    # Four Parquet files of six row groups, in runs of two; the CSV file whole.
    assert files.run == DaskRun(files.scheduler, 3, FILES + 1, FILES * 3 + 1)


@pytest.mark.parametrize("name", ["drift", "divergence", "clients", "key-shared"])
def test_sketch_counting_equals_single_machine(dataset: list[str], client: Any, name: str) -> None:
    on_cluster = ANALYSES[name](_files(dataset, client), SKETCH_LIMIT)
    here = ANALYSES[name](_files(dataset), SKETCH_LIMIT)
    assert "sketch" in here.to_json()
    assert on_cluster.to_json() == here.to_json()


def test_sketch_skew_exact_loads_and_bounded_estimates(dataset: list[str], client: Any) -> None:
    on_cluster = ANALYSES["skew"](_files(dataset, client), SKETCH_LIMIT)
    here = ANALYSES["skew"](_files(dataset), SKETCH_LIMIT)
    assert isinstance(on_cluster, StreamingSkewReport) and isinstance(here, StreamingSkewReport)
    assert [r.load for r in on_cluster.loads] == [r.load for r in here.loads]
    assert (on_cluster.rows, on_cluster.total_weight, on_cluster.keyless_weight) == (
        here.rows, here.total_weight, here.keyless_weight
    )
    truth = _truth(dataset)
    assert on_cluster.distinct_keys_lower <= truth.distinct_keys <= on_cluster.distinct_keys_upper
    weights = dict(zip(truth.key_list(), truth.weights.tolist()))
    assert on_cluster.hot_keys
    for hot in on_cluster.hot_keys:
        assert hot.lower_bound <= weights[hot.key] <= hot.upper_bound
    # The hottest key is heavier than the sketch's error, so both find it.
    assert on_cluster.hot_keys[0].key == here.hot_keys[0].key == truth.key_list()[int(np.argmax(truth.weights))]


def test_sketch_partitions_exact_loads_and_bounded_hot_key(dataset: list[str], client: Any) -> None:
    on_cluster = ANALYSES["partitions"](_files(dataset, client), SKETCH_LIMIT)
    here = ANALYSES["partitions"](_files(dataset), SKETCH_LIMIT)
    a, b = on_cluster.to_dict(), here.to_dict()
    assert a["counting"] == b["counting"] == "sketch"
    assert a["candidates"] == b["candidates"] and a["recommended"] == b["recommended"]
    truth = _truth(dataset)
    true_share = float(truth.weights.max()) / truth.total_weight
    # Misra-Gries: a lower bound, within the error the note states.
    assert a["hottest_key_share"] <= true_share + 1e-12
    assert abs(a["hottest_key_share"] - b["hottest_key_share"]) < 0.01


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_dask_address_and_glob(dataset: list[str], client: Any, capsys: pytest.CaptureFixture[str]) -> None:
    pattern = str(Path(dataset[0]).parent / "part-*.parquet")
    args = ["drift", "--file", pattern, "--key-column", "k", "--weight-column", "w", "--from", "12", "--to", "16"]
    status, single, _ = _cli([*args, "--json"], capsys)
    assert status == 0
    status, on_cluster, _ = _cli([*args, "--json", "--dask", client.scheduler.address], capsys)
    assert status == 0
    data = json.loads(on_cluster)
    assert data.pop("engine") == {
        "scheduler": client.scheduler.address, "workers": 3, "files": FILES, "input_partitions": FILES,
    }
    assert data == json.loads(single)
    status, text, _ = _cli([*args, "--dask", client.scheduler.address], capsys)
    assert status == 0 and f"3 workers read and reduced {FILES} input partitions of {FILES} files" in text


def test_cli_errors(dataset: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, _, err = _cli(["skew", "a", "--dask", "local"], capsys)
    assert status == 1 and "--dask reads --file" in err
    status, _, err = _cli(["skew", "--file", str(Path(dataset[0]).parent / "nothing-*.parquet")], capsys)
    assert status == 1 and "no file matches" in err
    status, _, err = _cli(["skew", "--file", dataset[0], "--key-column", "k", "--dask-workers", "2"], capsys)
    assert status == 1 and "--dask-workers goes with --dask local" in err
    # Sketch-counted skew has no picture: one error line, not a traceback.
    status, _, err = _cli(["skew", "--file", dataset[0], "--key-column", "k", "--max-distinct", "10", "--plot",
                          str(Path(dataset[0]).parent / "x.png")], capsys)
    assert status == 1 and "--plot: no plot for a StreamingSkewReport" in err
    monkeypatch.setitem(sys.modules, "distributed", None)
    status, _, err = _cli(["skew", "--file", dataset[0], "--key-column", "k", "--dask", "local"], capsys)
    assert status == 1 and "pip install 'pulsar-routing[dask]'" in err


def test_expand_paths_keeps_order_and_sorts_patterns(dataset: list[str]) -> None:
    d = Path(dataset[0]).parent
    assert expand_paths([dataset[-1], str(d / "part-*.parquet")]) == [dataset[-1], *dataset[:FILES]]


def test_processes_cluster_carries_sketches(dataset: list[str]) -> None:
    """Worker processes: the summaries, sketches and sinks included, are pickled between them."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster, distributed.Client(cluster) as c:
        for name in ("skew", "key-shared", "partitions"):
            on_cluster = ANALYSES[name](_files(dataset, c), SKETCH_LIMIT)
            here = ANALYSES[name](_files(dataset), SKETCH_LIMIT)
            assert type(on_cluster) is type(here)
            if name == "key-shared":
                assert on_cluster.to_json() == here.to_json()
