"""pulsar_routing.plan inputs: Python, numpy, pyarrow and files all give the same KeySample."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pulsar_routing as pr
from pulsar_routing import plan
from pulsar_routing.plan import KeySample, PlanInputError, key_sample, read_keys

KEYS = ["user-1", "user-2", "user-1", "", "Grüße", "user-2", "user-1"]


def totals(sample: KeySample) -> dict[str | bytes, float]:
    return dict(zip(sample.key_list(), sample.weights.tolist()))


def test_python_keys_count_and_keyless() -> None:
    sample = key_sample([*KEYS, None, None])
    assert totals(sample) == {"user-1": 3.0, "user-2": 2.0, "": 1.0, "Grüße": 1.0}
    assert sample.keyless == 2.0 and sample.rows == 9 and not sample.weighted
    assert sample.total_weight == 9.0 and sample.distinct_keys == 4


def test_weights_sum_per_key() -> None:
    sample = key_sample(["a", "b", "a", None], [1.5, 2, 3, 4])
    assert totals(sample) == {"a": 4.5, "b": 2.0}
    assert sample.keyless == 4.0 and sample.weighted


def test_str_and_bytes_are_different_keys() -> None:
    sample = key_sample(["a", b"a", "a"])
    assert totals(sample) == {"a": 2.0, b"a": 1.0}
    parts = pr.partitions_for_keys(sample.keys, 12)
    assert parts.tolist() == [pr.partition_for_key("a", 12), pr.partition_for_key_bytes(b"a", 12)]


def test_ints_are_decimal_text() -> None:
    assert totals(key_sample([7, 7, 42])) == {"7": 2.0, "42": 1.0}
    assert totals(key_sample(np.array([7, 7, 42]))) == {"7": 2.0, "42": 1.0}
    assert totals(key_sample(pa.array([7, 7, 42]))) == {"7": 2.0, "42": 1.0}


@pytest.mark.parametrize(
    "keys",
    [
        pytest.param(np.array(KEYS), id="numpy-U"),
        pytest.param(np.array(KEYS, dtype=object), id="numpy-O"),
        pytest.param(np.array(KEYS, dtype=np.dtypes.StringDType()), id="numpy-T"),
        pytest.param(pa.array(KEYS), id="arrow-string"),
        pytest.param(pa.array(KEYS, type=pa.large_string()), id="arrow-large_string"),
        pytest.param(pa.chunked_array([KEYS[:3], KEYS[3:]]), id="arrow-chunked"),
        pytest.param(pa.array(KEYS).dictionary_encode(), id="arrow-dictionary"),
    ],
)
def test_every_container_agrees(keys: object) -> None:
    want = totals(key_sample(KEYS))
    sample = key_sample(keys)
    assert totals(sample) == want
    assert sample.rows == len(KEYS)


def test_numpy_bytes_and_arrow_binary_are_key_bytes() -> None:
    raw = [b"\x00\xff", b"hello", b"hello"]
    for keys in (np.array(raw, dtype=object), pa.array(raw, type=pa.binary()), pa.array(raw, type=pa.large_binary())):
        assert totals(key_sample(keys)) == {b"\x00\xff": 1.0, b"hello": 2.0}
    # numpy S items lose trailing NULs, but keep the others.
    assert totals(key_sample(np.array([b"hello", b"hi"]))) == {b"hello": 1.0, b"hi": 1.0}


def test_arrow_nulls_are_keyless_and_weighted() -> None:
    sample = key_sample(pa.array(["a", None, "a"]), pa.array([1, 5, 2]))
    assert totals(sample) == {"a": 3.0}
    assert sample.keyless == 5.0


@pytest.mark.parametrize(
    ("keys", "weights", "message"),
    [
        (["a"], [1, 2], "2 weights for 1 keys"),
        (["a"], [-1], "must not be negative"),
        (["a"], [float("nan")], "finite"),
        ([1.5], None, "key #0 is a float"),
        ("abc", None, "not a single str"),
        (np.zeros((2, 2)), None, "1-D"),
    ],
)
def test_bad_inputs(keys: object, weights: object, message: str) -> None:
    with pytest.raises(PlanInputError, match=message):
        key_sample(keys, weights)


@given(st.lists(st.one_of(st.none(), st.text(max_size=6), st.binary(max_size=4)), max_size=40))
def test_total_weight_is_row_count(keys: list[str | bytes | None]) -> None:
    sample = key_sample(keys)
    assert sample.total_weight == len(keys)
    assert sample.distinct_keys == len({k for k in keys if k is not None})


# ---------------------------------------------------------------- files


def test_text_file(tmp_path: Path) -> None:
    path = tmp_path / "keys.txt"
    path.write_bytes("user-1\r\nuser-2\n\nuser-1\nGrüße".encode())
    sample = read_keys(path)
    assert totals(sample) == {"user-1": 2.0, "user-2": 1.0, "Grüße": 1.0}
    assert sample.source == "keys.txt" and sample.rows == 4


def test_text_file_bad_utf8(tmp_path: Path) -> None:
    path = tmp_path / "keys.txt"
    path.write_bytes(b"ok\nbad\xff\n")
    with pytest.raises(PlanInputError, match="line 2: not valid UTF-8"):
        read_keys(path)


def test_csv_keeps_key_text_and_weights(tmp_path: Path) -> None:
    path = tmp_path / "keys.csv"
    path.write_text("k,w,other\n007,2,x\n7,1,y\n007,3,z\n")
    sample = read_keys(path, key_column="k", weight_column="w")
    assert totals(sample) == {"007": 5.0, "7": 1.0}
    assert sample.weighted
    unweighted = read_keys(path, key_column="k")
    assert totals(unweighted) == {"007": 2.0, "7": 1.0}


def test_csv_batches_give_the_same_sample(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    keys = [f"k{i}" for i in rng.integers(0, 500, size=5000)]
    path = tmp_path / "keys.csv"
    path.write_text("key\n" + "\n".join(keys) + "\n")
    whole = totals(read_keys(path))
    assert whole == totals(key_sample(keys))
    assert totals(read_keys(path, batch_rows=1)) == whole


def test_tsv_and_single_column_default(tmp_path: Path) -> None:
    path = tmp_path / "keys.tsv"
    path.write_text("id\tn\na,b\t1\n")
    assert totals(read_keys(path, key_column="id", weight_column="n")) == {"a,b": 1.0}
    single = tmp_path / "one.csv"
    single.write_text("anything\nx\ny\n")
    assert totals(read_keys(single)) == {"x": 1.0, "y": 1.0}


def test_csv_errors(tmp_path: Path) -> None:
    path = tmp_path / "keys.csv"
    path.write_text("a,b\n1,2\n")
    with pytest.raises(PlanInputError, match="no column 'k'"):
        read_keys(path, key_column="k")
    with pytest.raises(PlanInputError, match="which column holds the key"):
        read_keys(path)
    with pytest.raises(PlanInputError, match="no column 'w'"):
        read_keys(path, key_column="a", weight_column="w")
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"key\nok\nbad\xff\n")
    with pytest.raises(PlanInputError, match="not valid UTF-8"):
        read_keys(bad)
    text_weights = tmp_path / "tw.csv"
    text_weights.write_text("key,w\na,lots\n")
    with pytest.raises(PlanInputError, match="tw.csv"):
        read_keys(text_weights, weight_column="w")


def test_parquet(tmp_path: Path) -> None:
    path = tmp_path / "keys.parquet"
    table = pa.table({"user": pa.array([1, 2, 1, None]), "n": pa.array([1.0, 2.0, 3.0, 4.0])})
    pq.write_table(table, path, row_group_size=2)
    sample = read_keys(path, key_column="user", weight_column="n", batch_rows=1)
    assert totals(sample) == {"1": 4.0, "2": 2.0}
    assert sample.keyless == 4.0 and sample.rows == 4
    with pytest.raises(PlanInputError, match="no column 'key'"):
        read_keys(path, key_column="key")
    with pytest.raises(PlanInputError, match="which column"):
        read_keys(path)


def test_parquet_binary_keys(tmp_path: Path) -> None:
    path = tmp_path / "keys.pq"
    pq.write_table(pa.table({"key": pa.array([b"\x01", b"\x01", b"\x02"])}), path)
    assert totals(read_keys(path)) == {b"\x01": 2.0, b"\x02": 1.0}


def test_missing_and_unknown(tmp_path: Path) -> None:
    with pytest.raises(PlanInputError, match="no such file"):
        read_keys(tmp_path / "nope.csv")
    with pytest.raises(PlanInputError, match="not a file"):
        read_keys(tmp_path)
    path = tmp_path / "k.txt"
    path.write_text("a\n")
    with pytest.raises(PlanInputError, match="unknown format"):
        read_keys(path, format="xml")
    with pytest.raises(PlanInputError, match="no columns"):
        read_keys(path, key_column="k")
    not_parquet = tmp_path / "x.parquet"
    not_parquet.write_text("hello")
    with pytest.raises(PlanInputError, match="not a Parquet file"):
        read_keys(not_parquet)


@pytest.mark.parametrize("suffix", ["txt", "csv", "parquet"])
def test_progress_is_called_per_batch(tmp_path: Path, suffix: str) -> None:
    keys = [f"k{i % 10}" for i in range(5000)]
    path = tmp_path / f"keys.{suffix}"
    if suffix == "parquet":
        pq.write_table(pa.table({"key": keys}), path)
    else:
        path.write_text(("key\n" if suffix == "csv" else "") + "\n".join(keys) + "\n")
    seen: list[int] = []
    sample = read_keys(path, batch_rows=1000, progress=seen.append)
    assert sample.rows == 5000
    assert seen and seen[-1] == 5000 and seen == sorted(seen)


def test_arrow_dictionary_counts_like_its_values() -> None:
    # Arrow lets a dictionary hold a value twice and leave entries unused;
    # counting the indices must still give one total per key.
    dictionary = pa.array(["b", "a", "b", "unused", "c"])
    indices = pa.array([0, 1, 2, None, 4, 2, 0], type=pa.int32())
    keys = pa.DictionaryArray.from_arrays(indices, dictionary)
    weights = [1.0, 2.0, 3.5, 7.0, 0.0, 1.0, 4.0]
    got = key_sample(keys, weights)
    want = key_sample(keys.cast(pa.string()), weights)
    assert totals(got) == totals(want) == {"a": 2.0, "b": 9.5, "c": 0.0}
    assert got.keyless == want.keyless == 7.0
    chunked = pa.chunked_array([keys, pa.DictionaryArray.from_arrays(pa.array([0, 0], pa.int32()), pa.array(["a"]))])
    assert totals(key_sample(chunked)) == {"a": 3.0, "b": 4.0, "c": 1.0}


@pytest.mark.parametrize("batch_rows", [700, 1_000, 5_000])
def test_parquet_row_groups_read_in_order(tmp_path: Path, batch_rows: int) -> None:
    # Row groups are decoded ahead in threads and as dictionaries; the
    # batches must still be the file's rows in order, at most batch_rows
    # each, and count as the plain column does. Half the row groups fall
    # back from a dictionary to plain pages (many distinct keys).
    rng = np.random.default_rng(3)
    few = [f"k{i}" for i in rng.integers(0, 50, 6_000)]
    many = [f"key-{i:08d}" for i in rng.integers(0, 10**7, 6_000)]
    column = pa.array(few + many + [None] * 10, pa.string())
    path = tmp_path / "keys.parquet"
    pq.write_table(pa.table({"key": column}), path, row_group_size=1_000, dictionary_pagesize_limit=2_000)
    batches = list(plan.file_batches(path, batch_rows=batch_rows))
    assert all(len(k) <= batch_rows for k, _ in batches)
    assert pa.chunked_array([k.cast(pa.string()) for k, _ in batches]).to_pylist() == column.to_pylist()
    sample = read_keys(path, batch_rows=batch_rows)
    assert totals(sample) == totals(key_sample(column)) and sample.keyless == 10.0


@pytest.mark.parametrize("arrow", [False, True])
def test_key_at_gives_the_python_key_for_every_input(arrow: bool) -> None:
    keys = ["a", "b", "a", "c"]
    sample = plan.key_sample(pa.array(keys) if arrow else keys)
    assert [sample.key_at(i) for i in range(len(sample.weights))] == sample.key_list()
