"""Skew past memory: exact while the distinct keys fit, streaming sketches after.

:func:`stream_skew` reads key batches once. Loads per partition are always
exact (they are sums). The distinct keys are held, exactly, up to
``max_distinct``; the result is then the full :class:`SkewAnalysis` (its
sample line says "exact counting"). Past that, the held keys are poured
into streaming sketches from Apache DataSketches (``pip install
'pulsar-routing[plan]'``): a frequent-items sketch for the hot keys and HyperLogLog
for the distinct-key count, and the result is a
:class:`StreamingSkewReport` whose ``mode`` is ``"sketch"``.
:func:`pulsar_routing.plan.file_batches` reads text, CSV and Parquet files
as such batches.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .. import partitions_for_keys
from .inputs import (
    BATCH_ROWS,
    Key,
    PlanInputError,
    _aggregate_arrow,
    _arrow_keys,
    _ArrowAccumulator,
    file_batches,
)
from .results import Result, SkewAnalysis, heading, num, pct, ratio, show_key, table
from .skew import BALANCED, HEADROOM, SEVERE, analyze_skew

# Distinct keys held exactly before switching to sketches. They are held as
# an Arrow table of (key, weight) and merged with Arrow's group-by, whose
# peak for 5 million 16-byte keys is about 800 MiB with everything else the
# process holds; 3 million keep a file of any length well under 1 GiB
# (py/bench/bench_memory.py measures it).
MAX_DISTINCT = 3_000_000
# Frequent items: at most 0.75 * 2**LG_MAX_K counters; error about 3.5 / 2**LG_MAX_K of the weight.
LG_MAX_K = 14
# Keys turned into Python objects at a time when feeding the sketches.
_SKETCH_SLICE = 1 << 16
# HyperLogLog: relative standard error about 1.04 / sqrt(2**LG_K) (0.8% at 14).
LG_K = 14


def _datasketches() -> Any:
    try:
        return importlib.import_module("datasketches")
    except ImportError:
        raise PlanInputError(
            "too many distinct keys to count exactly, and streaming sketches need "
            "Apache DataSketches: pip install 'pulsar-routing[plan]'"
        ) from None


@dataclass(frozen=True)
class SketchHotKey(Result):
    """A heavy hitter: its estimated weight, with bounds, and its share of all traffic."""

    key: Key
    estimate: float
    lower_bound: float
    upper_bound: float
    share: float

    def render(self) -> str:
        return f"{show_key(self.key)}: {num(self.estimate)} ({pct(self.share)})"


@dataclass(frozen=True)
class StreamingLoad(Result):
    """Exact load per partition for one scheme and partition count."""

    scheme: str
    partitions: int
    load: list[float]
    max_mean: float
    cv: float
    level: str

    def render(self) -> str:
        return f"{self.scheme} n={self.partitions}: max/mean {ratio(self.max_mean)}, {self.level}"


@dataclass(frozen=True)
class StreamingSkewReport(Result):
    """Skew of a sample too large to count exactly: exact loads, sketched keys."""

    source: str
    mode: str
    rows: int
    total_weight: float
    keyless_weight: float
    distinct_keys_estimate: float
    distinct_keys_lower: float
    distinct_keys_upper: float
    hot_keys: list[SketchHotKey]
    loads: list[StreamingLoad]
    sketches: dict[str, Any] = field(default_factory=dict)

    def render(self) -> str:
        lines = [
            heading("Key skew (streaming)"),
            f"{self.source}: {self.rows:,} rows, about {num(round(self.distinct_keys_estimate))} distinct keys "
            f"(95%: {num(round(self.distinct_keys_lower))}..{num(round(self.distinct_keys_upper))}), "
            f"{num(self.total_weight)} messages ({self.mode} counting: Apache DataSketches "
            f"frequent items lg_max_k={self.sketches.get('lg_max_k')}, HLL lg_k={self.sketches.get('lg_k')})",
            "",
            table(
                ["scheme", "partitions", "max/mean", "CV", "verdict"],
                [[r.scheme, str(r.partitions), ratio(r.max_mean), f"{r.cv:.2f}", r.level] for r in self.loads],
            ),
            "",
            "Loads per partition are exact; hot keys and the distinct count are estimates.",
        ]
        if self.hot_keys:
            lines += [
                "",
                table(
                    ["hot key", "messages (est.)", "bounds", "share"],
                    [
                        [show_key(h.key), num(round(h.estimate)), f"{num(h.lower_bound)}..{num(h.upper_bound)}",
                         pct(h.share)]
                        for h in self.hot_keys
                    ],
                ),
            ]
        return "\n".join(lines)


def _level(max_mean: float) -> str:
    if max_mean <= BALANCED:
        return "balanced"
    if max_mean <= HEADROOM:
        return "headroom"
    if max_mean <= SEVERE:
        return "moderate"
    return "fix-keys"


_SERDE: list[Any] = []


def _key_serde() -> Any:
    """A DataSketches serde for str and bytes keys: a type byte, a 4-byte length, the bytes."""
    if not _SERDE:
        base: Any = _datasketches().PyObjectSerDe

        class KeySerDe(base):  # type: ignore[misc]
            def get_size(self, item: Key) -> int:
                return 5 + len(item.encode("utf-8") if isinstance(item, str) else item)

            def to_bytes(self, item: Key) -> bytes:
                text = isinstance(item, str)
                data = item.encode("utf-8") if isinstance(item, str) else bytes(item)
                return (b"s" if text else b"b") + len(data).to_bytes(4, "little") + data

            def from_bytes(self, data: bytes, offset: int) -> tuple[Key, int]:
                size = int.from_bytes(data[offset + 1 : offset + 5], "little")
                raw = bytes(data[offset + 5 : offset + 5 + size])
                return (raw.decode("utf-8") if data[offset : offset + 1] == b"s" else raw), 5 + size

        _SERDE.append(KeySerDe())
    return _SERDE[0]


class _Sketches:
    def __init__(self, lg_max_k: int, lg_k: int) -> None:
        ds = _datasketches()
        self.ds = ds
        self.lg_max_k, self.lg_k = lg_max_k, lg_k
        self.items = ds.frequent_items_sketch(lg_max_k)
        self.hll = ds.hll_sketch(lg_k)
        self.fractional = False

    def merge(self, other: _Sketches) -> None:
        """Adds another part's sketches: frequent items merge, HyperLogLogs unite (both keep their bounds)."""
        self.items.merge(other.items)
        union = self.ds.hll_union(self.lg_k)
        union.update(self.hll)
        union.update(other.hll)
        self.hll = union.get_result()
        self.fractional = self.fractional or other.fractional

    # The sketches travel between Dask workers as DataSketches' own bytes.
    def __getstate__(self) -> dict[str, Any]:
        return {
            "lg_max_k": self.lg_max_k,
            "lg_k": self.lg_k,
            "items": self.items.serialize(_key_serde()),
            "hll": self.hll.serialize_compact(),
            "fractional": self.fractional,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        ds = _datasketches()
        self.ds = ds
        self.lg_max_k, self.lg_k = state["lg_max_k"], state["lg_k"]
        self.items = ds.frequent_items_sketch.deserialize(state["items"], _key_serde())
        self.hll = ds.hll_sketch.deserialize(state["hll"])
        self.fractional = state["fractional"]

    def add(self, grouped: Any) -> None:
        """A (k, w) table of distinct keys (nulls dropped by the caller).

        The sketches take one Python object per key, so the table is turned
        into Python objects a slice at a time: a table of millions of keys
        never exists as Python objects all at once.
        """
        for start in range(0, grouped.num_rows, _SKETCH_SLICE):
            self._add_slice(grouped.slice(start, _SKETCH_SLICE))

    def _add_slice(self, grouped: Any) -> None:
        keys = grouped.column("k").to_pylist()
        weights = grouped.column("w").to_numpy()
        whole = np.rint(weights)
        if not np.array_equal(whole, weights):
            self.fractional = True
        for key, w in zip(keys, whole.astype(np.int64).tolist()):
            if key is None:
                continue
            if w > 0:
                self.items.update(key, w)
            self.hll.update(("b" + key.hex()) if isinstance(key, bytes) else ("s" + key))


class _SkewSink:
    """Exact loads per (scheme, count) and the sketches, from (key, weight) tables; merges with another."""

    def __init__(self, counts: Sequence[int], names: Sequence[str], lg_max_k: int, lg_k: int) -> None:
        self.loads = {(s, n): np.zeros(n) for s in names for n in counts}
        self.keyed = 0.0
        self.sketches = _Sketches(lg_max_k, lg_k)

    def route(self, grouped: Any) -> float:
        """Loads, keyed weight and the sketches from a (k, w) table of distinct keys; returns the keyless weight."""
        keys = grouped.column("k")
        w = np.asarray(grouped.column("w").to_numpy(), dtype=np.float64)
        for (scheme, n), load in self.loads.items():
            parts = partitions_for_keys(keys, n, scheme)
            present = parts >= 0
            load += np.bincount(parts[present], weights=w[present], minlength=n)
        missing = np.asarray(keys.is_null().to_numpy(zero_copy_only=False), dtype=bool)
        self.keyed += float(w[~missing].sum())
        self.sketches.add(grouped)
        return float(w[missing].sum())

    def add(self, keys: Any, w: NDArray[np.float64]) -> None:
        """Keys (no nulls) and their weights, one row each: counted per key first."""
        self.route(_aggregate_arrow(keys, w))

    def merge(self, other: _SkewSink) -> None:
        for cell, load in self.loads.items():
            load += other.loads[cell]
        self.keyed += other.keyed
        self.sketches.merge(other.sketches)


def stream_skew(
    batches: Iterable[tuple[Any, NDArray[np.float64] | None]],
    partitions: int | Sequence[int],
    schemes: str | Sequence[str] = "java_string",
    *,
    source: str = "stream",
    max_distinct: int = MAX_DISTINCT,
    top: int = 5,
    lg_max_k: int = LG_MAX_K,
    lg_k: int = LG_K,
) -> SkewAnalysis | StreamingSkewReport:
    """Skew over batches of (pyarrow key array, weights or None), read once.

    Exact (a :class:`SkewAnalysis`, as :func:`analyze_skew`) while at most
    ``max_distinct`` distinct keys; otherwise a :class:`StreamingSkewReport`
    from sketches, with exact loads. A :class:`pulsar_routing.plan.distributed.Files`
    bound to a Dask client is reduced on its workers instead.
    """
    counts = [partitions] if isinstance(partitions, int) else list(partitions)
    names = [schemes] if isinstance(schemes, str) else list(schemes)
    if not counts or not names:
        raise PlanInputError("give at least one partition count and scheme")
    if any(n < 1 for n in counts):
        raise PlanInputError("partition counts must be at least 1")
    if max_distinct < 0:
        raise PlanInputError("max_distinct must be at least 0")
    reduce = getattr(batches, "reduce_with", None)
    if reduce is not None:
        sample, reduced, totals = reduce(max_distinct, lambda: _SkewSink(counts, names, lg_max_k, lg_k), source)
        if sample is not None:
            return analyze_skew(sample, counts, names, top=top)
        return _skew_report(reduced, totals.rows, totals.keyless, source=source, max_distinct=max_distinct, top=top)
    acc: _ArrowAccumulator | None = _ArrowAccumulator()
    sink: _SkewSink | None = None
    rows = 0
    keyless = 0.0
    weighted = False

    # While the distinct keys fit, rows are only counted per key: routing
    # them here would be thrown away, as the exact analysis routes the
    # distinct keys once. Past the switch, each batch is counted per key
    # first, and its distinct keys are routed with their summed weights.
    for raw_keys, raw_weights in batches:
        keys = _arrow_keys(raw_keys)
        weighted = weighted or raw_weights is not None
        rows += len(keys)
        if acc is not None:
            acc.add(keys, None if raw_weights is None else np.asarray(raw_weights, dtype=np.float64))
            if acc.distinct > max_distinct:
                merged = acc.table()
                sink = _SkewSink(counts, names, lg_max_k, lg_k)
                acc = None
                for start in range(0, merged.num_rows, BATCH_ROWS):
                    keyless += sink.route(merged.slice(start, BATCH_ROWS))
                del merged
            continue
        assert sink is not None
        keyless += sink.route(
            _aggregate_arrow(keys, None if raw_weights is None else np.asarray(raw_weights, dtype=np.float64))
        )
    if acc is not None:
        sample = acc.sample(source, weighted)
        return analyze_skew(sample, counts, names, top=top)
    assert sink is not None
    return _skew_report(sink, rows, keyless, source=source, max_distinct=max_distinct, top=top)


def _skew_report(
    sink: _SkewSink, rows: int, keyless: float, *, source: str, max_distinct: int, top: int
) -> StreamingSkewReport:
    """The sketch-counting report from the summed loads and the sketches."""
    sketches = sink.sketches
    total = sink.keyed + keyless
    rows_out = []
    for (scheme, n), summed in sink.loads.items():
        load = summed + keyless / n
        mean = float(load.mean())
        mm = float(load.max() / mean) if mean else 1.0
        cv = float(load.std() / mean) if mean else 0.0
        rows_out.append(StreamingLoad(scheme, n, load.tolist(), mm, cv, _level(mm)))
    ds = sketches.ds
    hot = sketches.items.get_frequent_items(ds.frequent_items_error_type.NO_FALSE_NEGATIVES)[: max(top, 0)]
    hll = sketches.hll
    return StreamingSkewReport(
        source=source,
        mode="sketch",
        rows=rows,
        total_weight=total,
        keyless_weight=keyless,
        distinct_keys_estimate=float(hll.get_estimate()),
        distinct_keys_lower=float(hll.get_lower_bound(2)),
        distinct_keys_upper=float(hll.get_upper_bound(2)),
        hot_keys=[
            SketchHotKey(key, float(est), float(lo), float(hi), float(est) / total if total else 0.0)
            for key, est, lo, hi in hot
        ],
        loads=rows_out,
        sketches={
            "library": "datasketches",
            "lg_max_k": sketches.lg_max_k,
            "lg_k": sketches.lg_k,
            "max_distinct": max_distinct,
            "weights_rounded": sketches.fractional,
        },
    )


def parquet_batches(
    path: str, key_column: str | None = None, weight_column: str | None = None, batch_rows: int = 1 << 20
) -> Iterable[tuple[Any, NDArray[np.float64] | None]]:
    """(keys, weights) batches of a Parquet file, for :func:`stream_skew`.

    :func:`pulsar_routing.plan.file_batches` with ``format="parquet"``; that
    one reads text and CSV files too.
    """
    return file_batches(
        path, format="parquet", key_column=key_column, weight_column=weight_column, batch_rows=batch_rows
    )
