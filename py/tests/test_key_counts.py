"""KeyCounts: distinct keys with summed weights, from every input, in byte order."""

from __future__ import annotations

import threading
from collections import defaultdict

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pulsar_routing import KeyCounts, KeyCountsError, PulsarRoutingError

KEYS = st.lists(
    st.one_of(st.none(), st.text(max_size=20), st.sampled_from(["", "a", "a\0", "abcdefgh", "abcdefgh\0", "abcdefghi"]))
)


def by_hand(keys: list[str | None], weights: list[float]) -> tuple[list[tuple[bytes, float]], float | None]:
    """Sums per distinct key, ordered by the keys' UTF-8 bytes, and the keyless sum: the definition."""
    sums: dict[bytes, float] = defaultdict(float)
    keyless = None
    for key, w in zip(keys, weights):
        if key is None:
            keyless = (keyless or 0.0) + w
        else:
            sums[key.encode()] += w
    return sorted(sums.items()), keyless


@given(KEYS, st.data())
def test_every_input_gives_the_definition(keys: list[str | None], data: st.DataObject) -> None:
    weights = data.draw(st.lists(st.integers(0, 9).map(float), min_size=len(keys), max_size=len(keys)))
    want, keyless = by_hand(keys, weights)
    inputs = [keys, pa.array(keys, pa.string()), pa.array(keys, pa.large_string()), pa.chunked_array([keys[:1], keys[1:]], pa.string())]
    for given_keys in inputs:
        counts = KeyCounts()
        counts.add(given_keys, np.array(weights))
        assert [(k.encode() if isinstance(k, str) else k, w) for k, w in counts.sorted()] == want
        assert counts.keyless_weight == keyless
        assert counts.rows == len(keys)
        assert len(counts) == len(want)
        assert counts.total_key_bytes == sum(len(k) for k, _ in want)
        array, w = counts.to_arrow()
        assert array.type == pa.large_string()
        assert [k.encode() for k in array.to_pylist()] == [k for k, _ in want]
        assert w.tolist() == [w for _, w in want]


@given(KEYS)
def test_the_order_is_arrows_sort(keys: list[str | None]) -> None:
    counts = KeyCounts()
    counts.add(pa.array(keys, pa.binary()))
    array, _ = counts.to_arrow()
    distinct = pc.unique(pa.array([k for k in keys if k is not None], pa.large_binary()))
    assert array.to_pylist() == pc.take(distinct, pc.sort_indices(distinct)).to_pylist()


def test_bytes_keys_come_back_as_bytes() -> None:
    counts = KeyCounts()
    counts.add(["k"])
    counts.add([b"k", b"\xff"])
    assert counts.sorted() == [(b"k", 2.0), (b"\xff", 1.0)]
    assert counts.to_arrow()[0].type == pa.large_binary()


def test_a_refused_call_adds_nothing() -> None:
    counts = KeyCounts()
    counts.add(["a"])
    for keys, weights in [(["b"], [-1.0]), (["b"], [float("nan")]), (["b", "c"], [1.0]), (["b"], [1.0, 2.0])]:
        with pytest.raises(KeyCountsError):
            counts.add(keys, weights)
    with pytest.raises(KeyCountsError, match="weight 1 is not a finite number of at least 0"):
        counts.add(pa.array(["b", "c"]), np.array([1.0, float("inf")]))
    with pytest.raises(ValueError, match="not valid UTF-8"):
        counts.add(pa.array([b"b", b"\xff"], pa.binary()).cast(pa.string(), safe=False))
    with pytest.raises(TypeError, match="str, bytes or None"):
        counts.add(["b", 3])
    with pytest.raises(KeyCountsError):
        counts.add_keyless(-2.0)
    assert counts.sorted() == [("a", 1.0)] and counts.rows == 1 and counts.keyless_weight is None
    assert issubclass(KeyCountsError, PulsarRoutingError) and issubclass(KeyCountsError, ValueError)


def test_threads_share_one_count() -> None:
    counts = KeyCounts()
    array = pa.array([f"k{i % 1000}" for i in range(20_000)])

    def work() -> None:
        for _ in range(5):
            counts.add(array)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(counts) == 1000 and counts.rows == 400_000
    assert {w for _, w in counts.sorted()} == {400.0}
