"""The file-driven analyses past memory: exact while the distinct keys fit, sampled after.

Every ``stream_*`` function reads (keys, weights) batches once (from
:func:`pulsar_routing.plan.file_batches`). The distinct keys are held,
exactly, up to ``max_distinct``; while they fit, the result is the one the
in-memory analysis gives on the whole sample (``exact counting``). Past
that, the held keys and every further batch feed running totals instead,
so memory no longer grows with the input (``sketch counting``):

* traffic shares (the share of messages that move, diverge, ...) are sums
  over rows, so they stay exact: each batch is routed with the core's batch
  functions and summed;
* key shares (the share of distinct keys that move, diverge, ...) come
  from a bounded uniform sample of the distinct keys, :class:`DistinctSample`,
  with a 95% interval; the distinct-key count is estimated from the same
  sample.

``plan key-shared`` sums the traffic per sticky-key slot (65,536 of them)
instead, exact, and takes its key shares from the same kind of sample.
The moved-key list of a drift report needs every key, so it is only
available in exact mode.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

from .. import partitions_for_keys
from ..profiles import ProfileRouteError
from .inputs import (
    BATCH_ROWS,
    KeySample,
    PlanInputError,
    _aggregate_arrow,
    _arrow_keys,
    _ArrowAccumulator,
    _pyarrow,
    _pyarrow_compute,
)
from .results import (
    ClientDivergencePair,
    ClientDivergenceReport,
    DivergenceReport,
    DivergenceRow,
    DriftReport,
    KeySharedAnalysis,
    PartitionPlan,
)
from .sketch import MAX_DISTINCT
from .skew import SCHEMES
from .stats import load_stats

Batches = Iterable[tuple[Any, NDArray[np.float64] | None]]

SAMPLE_KEYS = 1 << 16
"""The distinct keys a :class:`DistinctSample` holds at most: a key share's
95% interval is then at most about +-0.4 percentage points wide."""

# The two-sided 95% quantile of the normal distribution.
_Z95 = 1.959963984540054
# FNV-1a (64-bit) over the key bytes, then the splitmix64 finaliser: a hash
# unrelated to every routing hash (String.hashCode, Murmur3, Murmur2, CRC-32,
# BoostHash), so which keys are sampled says nothing of where they route.
_FNV_OFFSET = np.uint64(0xCBF29CE484222325)
_FNV_PRIME = np.uint64(0x100000001B3)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def key_hashes(keys: Any) -> NDArray[np.uint64]:
    """A 64-bit sampling hash of every key of a pyarrow string or binary array (no nulls).

    A ``str`` key and the ``bytes`` of its UTF-8 differ as keys (the
    producer hashes the Base64 text of bytes), so the type seeds the hash.
    """
    pa = _pyarrow()
    if isinstance(keys, pa.ChunkedArray):
        chunks = [key_hashes(c) for c in keys.chunks]
        return np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.uint64)
    t = keys.type
    large = pa.types.is_large_string(t) or pa.types.is_large_binary(t)
    text = pa.types.is_string(t) or pa.types.is_large_string(t)
    n = len(keys)
    buffers = keys.buffers()
    raw = np.frombuffer(buffers[1], dtype=np.int64 if large else np.int32)
    offsets: NDArray[np.int64] = raw[keys.offset : keys.offset + n + 1].astype(np.int64)
    data = np.frombuffer(buffers[2], dtype=np.uint8) if len(buffers) > 2 and buffers[2] is not None else None
    starts: NDArray[np.int64] = offsets[:-1]
    lengths: NDArray[np.int64] = offsets[1:] - starts
    h = np.full(n, _FNV_OFFSET ^ np.uint64(1 if text else 2), dtype=np.uint64)
    active = np.flatnonzero(lengths > 0)
    j = 0
    # Byte j of every key at least j+1 bytes long: as many passes as the
    # longest key has bytes, and work in all proportional to the bytes.
    while active.size and data is not None:
        h[active] = (h[active] ^ data[starts[active] + j].astype(np.uint64)) * _FNV_PRIME
        j += 1
        active = active[lengths[active] > j]
    h ^= lengths.astype(np.uint64) * _MIX2
    h ^= h >> np.uint64(30)
    h *= _MIX1
    h ^= h >> np.uint64(27)
    h *= _MIX2
    h ^= h >> np.uint64(31)
    return h


def wilson_interval(successes: int, n: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default); (0, 1) for n = 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


class DistinctSample:
    """A uniform sample of the distinct keys seen, of bounded size, with a flag vector per key.

    Adaptive (KMV-style) sampling: a key is kept iff its sampling hash
    (:func:`key_hashes`) is below a threshold, which halves whenever the
    sample passes ``bound`` keys. Whether a key is kept depends only on the
    key, so repeats of a key change nothing, and the kept keys are a uniform
    sample of the distinct keys, each kept with probability ``fraction``.
    Each key carries ``columns`` booleans (moved? routed differently at n?),
    whose shares over the sample estimate the shares over all distinct keys.
    """

    def __init__(self, columns: int, bound: int = SAMPLE_KEYS, dtype: Any = bool) -> None:
        if bound < 1:
            raise ValueError("the sample bound must be at least 1")
        self.bound = bound
        self.level = 0
        self._hashes = np.zeros(0, dtype=np.uint64)
        self._flags = np.zeros((0, columns), dtype=dtype)

    @property
    def size(self) -> int:
        return int(self._hashes.shape[0])

    @property
    def fraction(self) -> float:
        """The probability that a distinct key is in the sample."""
        return 2.0**-self.level

    def _limit(self) -> np.uint64:
        # Hashes are compared shifted right by one, so the full range 2**63
        # (level 0: keep everything) fits.
        limit: np.uint64 = np.uint64(1 << (63 - self.level))
        return limit

    def add(self, hashes: NDArray[np.uint64], flags: NDArray[Any]) -> None:
        """Keys by their sampling hash, with their flags or values (one row per key, repeats allowed)."""
        keep = (hashes >> np.uint64(1)) < self._limit()
        h = np.concatenate([self._hashes, hashes[keep]])
        f = np.concatenate([self._flags, flags[keep]])
        h, first = np.unique(h, return_index=True)
        f = f[first]
        while h.shape[0] > self.bound:
            self.level += 1
            inside = (h >> np.uint64(1)) < self._limit()
            h, f = h[inside], f[inside]
        self._hashes, self._flags = h, f

    @property
    def values(self) -> NDArray[Any]:
        """The values of the sampled keys, one row per key (``columns`` wide)."""
        return self._flags

    def share(self, column: int) -> tuple[float, float, float]:
        """(estimate, low, high): the share of distinct keys whose flag is set, with its 95% interval.

        At level 0 the sample holds every distinct key, so the share is exact.
        """
        return self.share_where(self._flags[:, column].astype(bool))

    def share_where(self, hit: NDArray[np.bool_]) -> tuple[float, float, float]:
        """:meth:`share` of a condition computed over :attr:`values` (one boolean per sampled key)."""
        n = self.size
        hits = int(hit.sum()) if n else 0
        p = hits / n if n else 0.0
        if self.level == 0:
            return p, p, p
        low, high = wilson_interval(hits, n)
        return p, low, high

    def distinct(self) -> tuple[float, float, float]:
        """(estimate, low, high): the number of distinct keys, sample size over ``fraction``.

        The sample size is binomial (each distinct key kept with probability
        ``fraction``), hence the normal 95% interval.
        """
        k = self.size
        if self.level == 0:
            return float(k), float(k), float(k)
        q = self.fraction
        spread = _Z95 * math.sqrt(k * (1 - q))
        return k / q, max(float(k), (k - spread) / q), (k + spread) / q


class _Sink(Protocol):
    def add(self, keys: Any, weights: NDArray[np.float64]) -> None: ...


S = TypeVar("S", bound=_Sink)


class _Totals:
    def __init__(self) -> None:
        self.rows = 0
        self.keyless = 0.0
        self.weighted = False


def _run(
    batches: Batches, max_distinct: int, sink: Callable[[], S], *, source: str
) -> tuple[KeySample | None, S | None, _Totals]:
    """One pass: an exact :class:`KeySample` while the distinct keys fit, else the sink fed with every row."""
    if max_distinct < 0:
        raise PlanInputError("max_distinct must be at least 0")
    reduce = getattr(batches, "reduce_with", None)
    if reduce is not None:
        # Input that reduces itself where it lives (plan.distributed: on Dask
        # workers), to the same sample, or a merged sink, and totals.
        reduced: tuple[KeySample | None, S | None, _Totals] = reduce(max_distinct, sink, source)
        return reduced
    pc = _pyarrow_compute()
    acc: _ArrowAccumulator | None = _ArrowAccumulator()
    out: S | None = None
    totals = _Totals()
    for raw_keys, raw_weights in batches:
        keys = _arrow_keys(raw_keys)
        totals.weighted = totals.weighted or raw_weights is not None
        totals.rows += len(keys)
        if acc is not None:
            acc.add(keys, raw_weights)
            if acc.distinct > max_distinct:
                merged = acc.table()
                acc = None
                out = sink()
                # A batch's worth at a time: the routing and hashing arrays
                # of millions of held keys at once would set the peak.
                for start in range(0, merged.num_rows, BATCH_ROWS):
                    part = merged.slice(start, BATCH_ROWS)
                    _feed(out, totals, part.column("k"), np.asarray(part.column("w").to_numpy(), np.float64), pc)
                del merged
            continue
        assert out is not None
        w = None if raw_weights is None else np.asarray(raw_weights, dtype=np.float64)
        if _pyarrow().types.is_dictionary(keys.type):
            # The batch's distinct keys with their summed weights: the same
            # sums for every sink, and each key routed once, not per row.
            part = _aggregate_arrow(keys, w)
            keys, w = part.column("k").combine_chunks(), np.asarray(part.column("w").to_numpy(), np.float64)
        _feed(out, totals, keys, np.ones(len(keys)) if w is None else w, pc)
    if acc is not None:
        sample = acc.sample(source, totals.weighted)
        if sample.total_weight <= 0:
            raise PlanInputError(f"{source}: no keys")
        return sample, None, totals
    return None, out, totals


def _feed(out: _Sink, totals: _Totals, keys: Any, w: NDArray[np.float64], pc: Any) -> None:
    pa = _pyarrow()
    if isinstance(keys, pa.ChunkedArray):
        keys = keys.combine_chunks()
    if keys.null_count:
        missing = np.asarray(keys.is_null().to_numpy(zero_copy_only=False), dtype=bool)
        totals.keyless += float(w[missing].sum())
        keys = pc.filter(keys, pa.array(~missing))
        w = w[~missing]
    if len(keys):
        out.add(keys, w)


def _loads(parts: NDArray[np.int32], w: NDArray[np.float64], n: int) -> NDArray[np.float64]:
    present = parts >= 0
    return np.bincount(parts[present], weights=w[present], minlength=n).astype(np.float64)


# ---------------------------------------------------------------- drift


class _DriftSink:
    def __init__(self, from_partitions: int, to_partitions: int, scheme: str, bound: int) -> None:
        self.n, self.m, self.scheme = from_partitions, to_partitions, scheme
        self.before = np.zeros(from_partitions)
        self.after = np.zeros(to_partitions)
        self.moved_weight = 0.0
        self.keyed = 0.0
        self.sample = DistinctSample(1, bound)

    def add(self, keys: Any, w: NDArray[np.float64]) -> None:
        b = partitions_for_keys(keys, self.n, self.scheme)
        a = partitions_for_keys(keys, self.m, self.scheme)
        moved = b != a
        self.before += _loads(b, w, self.n)
        self.after += _loads(a, w, self.m)
        self.moved_weight += float(w[moved].sum())
        self.keyed += float(w.sum())
        self.sample.add(key_hashes(keys), moved[:, None])


def stream_drift(
    batches: Batches,
    from_partitions: int,
    to_partitions: int,
    scheme: str = "java_string",
    *,
    source: str = "stream",
    max_distinct: int = MAX_DISTINCT,
    list_moved: int | None = None,
    sample_keys: int = SAMPLE_KEYS,
) -> DriftReport:
    """:func:`pulsar_routing.plan.drift` over batches read once (see the module doc)."""
    from .drift import drift, drift_notes, expected_drift

    if from_partitions < 1 or to_partitions < 1:
        raise PlanInputError("partition counts must be at least 1")
    sample, sink, totals = _run(
        batches, max_distinct, lambda: _DriftSink(from_partitions, to_partitions, scheme, sample_keys), source=source
    )
    if sample is not None:
        return drift(sample, from_partitions, to_partitions, scheme, list_moved=list_moved)
    assert sink is not None
    before = sink.before + totals.keyless / from_partitions
    after = sink.after + totals.keyless / to_partitions
    share, low, high = sink.sample.share(0)
    distinct, d_low, d_high = sink.sample.distinct()
    notes = drift_notes(from_partitions, to_partitions)
    if list_moved is not None:
        notes.insert(
            0,
            f"No moved-key list: it needs every key, and this input has more than {max_distinct:,} distinct "
            "keys (sketch counting); raise --max-distinct to list them.",
        )
    return DriftReport(
        scheme=scheme,
        from_partitions=from_partitions,
        to_partitions=to_partitions,
        distinct_keys=round(distinct),
        keyed_weight=sink.keyed,
        moved_keys=round(share * distinct),
        moved_key_share=share,
        moved_traffic_share=sink.moved_weight / sink.keyed if sink.keyed else 0.0,
        expected_share=expected_drift(from_partitions, to_partitions),
        load_before=before.tolist(),
        load_after=after.tolist(),
        max_mean_before=load_stats(before)[1],
        max_mean_after=load_stats(after)[1],
        moved=None,
        notes=notes,
        counting="sketch",
        key_sample=sink.sample.size,
        moved_key_share_low=low,
        moved_key_share_high=high,
        distinct_keys_low=math.floor(d_low),
        distinct_keys_high=math.ceil(d_high),
    )


# ---------------------------------------------------------------- divergence


def _route(keys: Any, n: int, setup: str) -> NDArray[np.int32]:
    if setup in SCHEMES:
        return partitions_for_keys(keys, n, setup)
    from .clients import setup_partitions

    return setup_partitions(keys, n, setup)


class _DivergenceSink:
    def __init__(self, counts: list[int], a: str, b: str, bound: int) -> None:
        self.counts, self.a, self.b = counts, a, b
        self.differ = np.zeros(len(counts))
        self.keyed = 0.0
        self.sample = DistinctSample(len(counts), bound)

    def add(self, keys: Any, w: NDArray[np.float64]) -> None:
        flags = np.zeros((len(keys), len(self.counts)), dtype=bool)
        for i, n in enumerate(self.counts):
            d = _route(keys, n, self.a) != _route(keys, n, self.b)
            flags[:, i] = d
            self.differ[i] += float(w[d].sum())
        self.keyed += float(w.sum())
        self.sample.add(key_hashes(keys), flags)


def stream_divergence(
    batches: Batches,
    partitions: int | Sequence[int],
    scheme_a: str = "java_string",
    scheme_b: str = "murmur3_32",
    *,
    source: str = "stream",
    max_distinct: int = MAX_DISTINCT,
    sample_keys: int = SAMPLE_KEYS,
) -> DivergenceReport:
    """:func:`pulsar_routing.plan.divergence` over batches read once (see the module doc)."""
    from .drift import divergence, divergence_notes

    counts = [partitions] if isinstance(partitions, int) else list(partitions)
    sample, sink, _ = _run(
        batches, max_distinct, lambda: _DivergenceSink(counts, scheme_a, scheme_b, sample_keys), source=source
    )
    if sample is not None:
        return divergence(sample, counts, scheme_a, scheme_b)
    assert sink is not None
    rows = []
    for i, n in enumerate(counts):
        share, low, high = sink.sample.share(i)
        distinct = sink.sample.distinct()[0]
        rows.append(
            DivergenceRow(
                partitions=n,
                differing_keys=round(share * distinct),
                differing_key_share=share,
                differing_traffic_share=float(sink.differ[i]) / sink.keyed if sink.keyed else 0.0,
                expected_share=1 - 1 / n,
                differing_key_share_low=low,
                differing_key_share_high=high,
            )
        )
    distinct, d_low, d_high = sink.sample.distinct()
    return DivergenceReport(
        scheme_a=scheme_a,
        scheme_b=scheme_b,
        distinct_keys=round(distinct),
        rows=rows,
        notes=divergence_notes(),
        counting="sketch",
        key_sample=sink.sample.size,
        distinct_keys_low=math.floor(d_low),
        distinct_keys_high=math.ceil(d_high),
    )


# ---------------------------------------------------------------- clients


class _ClientsSink:
    def __init__(self, counts: list[int], setups: Sequence[str], bound: int) -> None:
        self.counts = counts
        self.setups = list(dict.fromkeys(setups))
        self.used: list[str] | None = None
        self.skipped: dict[str, str] = {}
        self.pairs: list[tuple[str, str, int]] = []
        self.differ = np.zeros(0)
        self.keyed = 0.0
        self.sample: DistinctSample | None = None
        self.bound = bound

    def add(self, keys: Any, w: NDArray[np.float64]) -> None:
        from .clients import setup_partitions

        routed: dict[tuple[str, int], NDArray[np.int32]] = {}
        for setup in self.setups if self.used is None else self.used:
            try:
                for n in self.counts:
                    routed[setup, n] = setup_partitions(keys, n, setup)
            except ProfileRouteError as e:
                if self.used is not None:
                    raise
                self.skipped[setup] = str(e)
        if self.used is None:
            # Which setups cannot be reproduced is settled on the first batch.
            self.used = [s for s in self.setups if s not in self.skipped]
            self.pairs = [(a, b, n) for i, a in enumerate(self.used) for b in self.used[i + 1 :] for n in self.counts]
            self.differ = np.zeros(len(self.pairs))
            self.sample = DistinctSample(2 * len(self.pairs), self.bound)
        assert self.sample is not None
        flags = np.zeros((len(keys), 2 * len(self.pairs)), dtype=bool)
        for i, (a, b, n) in enumerate(self.pairs):
            pa, pb = routed[a, n], routed[b, n]
            d = pa != pb
            flags[:, 2 * i] = d
            flags[:, 2 * i + 1] = (pa < 0) | (pb < 0)
            self.differ[i] += float(w[d].sum())
        self.keyed += float(w.sum())
        self.sample.add(key_hashes(keys), flags)


def stream_client_divergence(
    batches: Batches,
    partitions: int | Sequence[int],
    setups: Sequence[str] | None = None,
    *,
    source: str = "stream",
    max_distinct: int = MAX_DISTINCT,
    sample_keys: int = SAMPLE_KEYS,
) -> ClientDivergenceReport:
    """:func:`pulsar_routing.plan.client_divergence` over batches read once (see the module doc)."""
    from .clients import DEFAULT_CLIENT_SETUPS, client_divergence, client_notes

    chosen = list(DEFAULT_CLIENT_SETUPS if setups is None else setups)
    counts = [partitions] if isinstance(partitions, int) else list(partitions)
    sample, sink, _ = _run(batches, max_distinct, lambda: _ClientsSink(counts, chosen, sample_keys), source=source)
    if sample is not None:
        return client_divergence(sample, counts, chosen)
    assert sink is not None and sink.sample is not None and sink.used is not None
    distinct, d_low, d_high = sink.sample.distinct()
    pairs = []
    for i, (a, b, n) in enumerate(sink.pairs):
        share, low, high = sink.sample.share(2 * i)
        keyless = sink.sample.share(2 * i + 1)[0]
        pairs.append(
            ClientDivergencePair(
                setup_a=a,
                setup_b=b,
                partitions=n,
                differing_keys=round(share * distinct),
                differing_key_share=share,
                differing_traffic_share=float(sink.differ[i]) / sink.keyed if sink.keyed else 0.0,
                keyless_keys=round(keyless * distinct),
                differing_key_share_low=low,
                differing_key_share_high=high,
            )
        )
    return ClientDivergenceReport(
        setups=sink.used,
        distinct_keys=round(distinct),
        partitions=counts,
        pairs=pairs,
        skipped=sink.skipped,
        notes=client_notes(),
        counting="sketch",
        key_sample=sink.sample.size,
        distinct_keys_low=math.floor(d_low),
        distinct_keys_high=math.ceil(d_high),
    )


# ---------------------------------------------------------------- partitions


HEAVY_KEYS = 1024
"""Counters of the heavy-hitter summary of :func:`stream_partitions` past memory."""


class _HeavyHitters:
    """A Misra-Gries summary of the keys' weights, merged a batch at a time.

    After each merge the ``bound``+1-th largest counter is subtracted from
    every counter and those left at zero or below are dropped (merging
    Misra-Gries summaries this way keeps its guarantee): each kept estimate
    is at most ``error`` below the key's true weight, and any key heavier
    than ``error`` is kept.
    """

    def __init__(self, bound: int = HEAVY_KEYS) -> None:
        self.bound = bound
        self.table: Any = None
        self.error = 0.0

    def add(self, keys: Any, w: NDArray[np.float64]) -> None:
        pa = _pyarrow()
        # The held counters and the batch in one count, turned into one table.
        acc = _ArrowAccumulator()
        if self.table is not None:
            acc.absorb(self.table)
        acc.add(keys, w)
        part = acc.table()
        if part.num_rows > self.bound:
            weights = np.asarray(part.column("w").to_numpy(), dtype=np.float64)
            cut = float(np.partition(weights, -(self.bound + 1))[-(self.bound + 1)])
            self.error += cut
            keep = weights > cut
            part = pa.table({"k": part.column("k").filter(pa.array(keep)), "w": pa.array(weights[keep] - cut)})
        self.table = part

    def heaviest(self) -> tuple[float, float]:
        """(lower, upper): bounds of the heaviest key's weight."""
        if self.table is None or self.table.num_rows == 0:
            return 0.0, self.error
        top = float(np.max(np.asarray(self.table.column("w").to_numpy(), dtype=np.float64)))
        return top, top + self.error


class _PartitionsSink:
    def __init__(self, counts: range, scheme: str) -> None:
        self.scheme = scheme
        self.loads = {n: np.zeros(n) for n in counts}
        self.keyed = 0.0
        self.heavy = _HeavyHitters()

    def add(self, keys: Any, w: NDArray[np.float64]) -> None:
        for n, load in self.loads.items():
            load += _loads(partitions_for_keys(keys, n, self.scheme), w, n)
        self.keyed += float(w.sum())
        self.heavy.add(keys, w)


def stream_partitions(
    batches: Batches,
    peak_write: float,
    per_partition_write: float,
    *,
    source: str = "stream",
    max_distinct: int = MAX_DISTINCT,
    **options: Any,
) -> PartitionPlan:
    """:func:`pulsar_routing.plan.recommend_partitions` with the keys of batches read once.

    Past ``max_distinct`` distinct keys, the loads of every count the
    recommendation may look at are summed exactly batch by batch (one
    routing per count and batch), and the hottest key's share comes from a
    Misra-Gries summary (a lower bound, its error stated in the notes).
    """
    from dataclasses import replace

    from .partitions import MeasuredLoads, counts_needed, recommend_partitions

    rates = {k: options[k] for k in ("peak_read", "per_partition_read", "headroom", "candidates") if k in options}
    counts = counts_needed(peak_write, per_partition_write, **rates)
    scheme = options.get("scheme", "java_string")
    sample, sink, totals = _run(batches, max_distinct, lambda: _PartitionsSink(counts, scheme), source=source)
    if sample is not None:
        return recommend_partitions(peak_write, per_partition_write, keys=sample, **options)
    assert sink is not None
    total = sink.keyed + totals.keyless
    low, high = sink.heavy.heaviest()
    measured = MeasuredLoads(
        source=source,
        counting="sketch",
        total_weight=total,
        hottest_key_share=low / total if total else 0.0,
        loads={n: load + totals.keyless / n for n, load in sink.loads.items()},
    )
    result = recommend_partitions(peak_write, per_partition_write, keys=measured, **options)
    note = (
        f"Sketch counting (more than {max_distinct:,} distinct keys): loads per partition are exact; the hottest "
        f"key's share is a Misra-Gries estimate, {low / total:.2%} to {high / total:.2%} of the traffic."
        if total
        else "Sketch counting: no traffic."
    )
    return replace(result, notes=[note, *result.notes])


# ---------------------------------------------------------------- key-shared


class _KeySharedSink:
    def __init__(self, selectors: Sequence[str], bound: int) -> None:
        from .key_shared import _bindings

        hashes = _bindings().sticky_key_hashes
        if hashes is None:  # pragma: no cover - every build with the selectors has the batch form
            raise PlanInputError("plan key-shared past --max-distinct needs sticky_key_hashes in this build")
        self.hashes = hashes
        self.selectors = list(selectors)
        self.slot_weights = np.zeros((len(self.selectors), 65536))
        self.keyed = 0.0
        # The slot of each sampled key under each selector (their key hashes differ).
        self.sample = DistinctSample(len(self.selectors), bound, dtype=np.uint16)

    def add(self, keys: Any, w: NDArray[np.float64]) -> None:
        slots = np.empty((len(keys), len(self.selectors)), dtype=np.uint16)
        for i, selector in enumerate(self.selectors):
            s = np.asarray(self.hashes(keys, selector), dtype=np.intp)
            self.slot_weights[i] += np.bincount(s, weights=w, minlength=65536)
            slots[:, i] = s
        self.keyed += float(w.sum())
        self.sample.add(key_hashes(keys), slots)


def stream_key_shared(
    batches: Batches,
    consumers: int | Sequence[str],
    selectors: str | Sequence[str],
    *,
    source: str = "stream",
    max_distinct: int = MAX_DISTINCT,
    sample_keys: int = SAMPLE_KEYS,
    points: int = 100,
    join: bool = True,
    leave: str | None = None,
) -> KeySharedAnalysis:
    """:func:`pulsar_routing.plan.analyze_key_shared` with the keys of batches read once.

    Past ``max_distinct`` distinct keys (sketch counting), every batch adds
    its keyed weight to a histogram of the 65,536 sticky-key slots of each
    selector, so traffic per consumer, imbalance and the traffic a join or
    leave moves stay exact (a slot's keys all go to its consumer); key
    counts and key shares come from a :class:`DistinctSample` holding each
    sampled key's slot, with 95% intervals.
    """
    from .key_shared import SELECTORS, analyze_key_shared, key_shared_sketch_balance

    names = [selectors] if isinstance(selectors, str) else list(selectors)
    for s in names:
        if s not in SELECTORS:
            raise ValueError(f"unknown selector {s!r}: choose from {', '.join(SELECTORS)}")
    sample, sink, totals = _run(batches, max_distinct, lambda: _KeySharedSink(names, sample_keys), source=source)
    options: dict[str, Any] = {"points": points, "join": join, "leave": leave}
    if sample is not None:
        return analyze_key_shared(sample, consumers, names, **options)
    assert sink is not None
    total = sink.keyed + totals.keyless
    if total <= 0:
        raise PlanInputError(f"{source}: no keys")
    distinct = sink.sample.distinct()
    values = sink.sample.values.astype(np.int64)
    reports = [
        key_shared_sketch_balance(
            sink.slot_weights[i], values[:, i], sink.sample.share_where, consumers, selector,
            keyless=totals.keyless, distinct=distinct, key_sample=sink.sample.size, **options,
        )
        for i, selector in enumerate(names)
    ]
    what = "messages (weighted)" if totals.weighted else "messages"
    keyless = f", {totals.keyless / total:.1%} without a key" if totals.keyless else ""
    described = (
        f"{source}: {totals.rows:,} rows, about {round(distinct[0]):,} distinct keys "
        f"({math.floor(distinct[1]):,}..{math.ceil(distinct[2]):,}), {_count(total)} {what}{keyless} "
        f"(sketch counting past {max_distinct:,} distinct keys)"
    )
    return KeySharedAnalysis(sample=described, reports=reports)


def _count(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:,.1f}"
