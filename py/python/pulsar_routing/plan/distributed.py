"""The file analyses on a Dask cluster: ``plan ... --file PATHS --dask ADDRESS``.

:class:`Files` names the input: text, CSV or Parquet files, given as paths
or glob patterns. Iterated, it yields their (keys, weights) batches in
order, read here, as :func:`~pulsar_routing.plan.file_batches` does for one
file, so every ``stream_*`` function and
:func:`~pulsar_routing.plan.sketch.stream_skew` takes it as it takes
batches. Bound to a Dask client (:meth:`Files.on`), the same functions have
it reduced on the workers instead:

1. The input is cut into pieces: a Parquet file into runs of row groups
   of about a million rows, a text or CSV file whole. Each piece is a task.
2. The worker that runs it reads its piece and counts it as one machine
   counts a stream: the distinct keys with their summed weights while they
   are at most ``max_distinct``, past that the analysis' own summary (the
   sink of :mod:`~pulsar_routing.plan.stream`): loads per partition and
   traffic sums, which add up; the uniform sample of the distinct keys
   (:class:`~pulsar_routing.plan.stream.DistinctSample`), whose merge is the
   sample of the union; Apache DataSketches frequent-items and HyperLogLog
   sketches and Misra-Gries counters, which merge within their bounds.
3. The summaries are merged in a tree, on the workers; an exact summary
   that passes ``max_distinct`` there turns into the analysis' summary.
   Only the last one reaches the client.

No process ever holds more than ``max_distinct`` distinct keys, so the
distinct keys do not have to fit one machine. The switch is the single
machine's (more than ``max_distinct`` distinct keys in all), and exact
counting ends in the same sorted sample, hence the same report. In sketch
counting, every traffic figure (loads, shares of messages) is a sum, equal
to the single machine's (to the last bit with whole-number weights), and
the key shares and distinct counts of ``drift``, ``divergence``,
``clients`` and ``key-shared`` come from the same sample; the estimates of
``skew`` (hot keys, HyperLogLog) and ``partitions`` (Misra-Gries) depend
on the order the rows came in, and stay within the bounds they state.

The workers need this package (``pip install 'pulsar-routing[dask]'``)
and the files, at the same paths.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .inputs import (
    BATCH_ROWS,
    KeySample,
    PlanInputError,
    _arrow_keys,
    _ArrowAccumulator,
    _batch_weights,
    _check_file,
    _merge_aggregates,
    _pick_key_column,
    _pyarrow_compute,
    file_batches,
)
from .results import Result

__all__ = ["DaskRun", "Files", "Piece", "dask_client", "expand_paths"]

DASK_INSTALL = "pip install 'pulsar-routing[dask]'"
# Summaries merged by one task: a tree of this fan-in over the pieces.
FAN_IN = 8

Batch = tuple[Any, NDArray[np.float64] | None]


def expand_paths(patterns: Sequence[str | os.PathLike[str]]) -> list[str]:
    """Paths and glob patterns (``data/*.parquet``) to paths, patterns sorted; a pattern matching nothing is an error."""
    import glob

    out: list[str] = []
    for item in patterns:
        text = os.fspath(item)
        if any(c in text for c in "*?[") and not os.path.exists(text):
            matches = sorted(glob.glob(text))
            if not matches:
                raise PlanInputError(f"{text}: no file matches")
            out += matches
        else:
            out.append(text)
    if not out:
        raise PlanInputError("no input files")
    return out


@dataclass(frozen=True)
class Piece:
    """One task's share of the input: a whole file, or some row groups of a Parquet file."""

    path: str
    format: str
    key_column: str | None
    weight_column: str | None
    row_groups: tuple[int, ...] | None = None

    def batches(self) -> Iterator[Batch]:
        """The piece's (keys, weights) batches, as :func:`~pulsar_routing.plan.file_batches` gives them."""
        if self.row_groups is None:
            yield from file_batches(
                self.path, format=self.format, key_column=self.key_column, weight_column=self.weight_column
            )
            return
        import pyarrow.parquet as pq

        name = Path(self.path).name
        parquet = pq.ParquetFile(self.path, pre_buffer=False)
        key = _pick_key_column(name, list(parquet.schema_arrow.names), self.key_column)
        columns = [key] + ([self.weight_column] if self.weight_column else [])
        for batch in parquet.iter_batches(batch_size=BATCH_ROWS, row_groups=list(self.row_groups), columns=columns):
            try:
                yield _arrow_keys(batch.column(key)), _batch_weights(batch, self.weight_column)
            except PlanInputError as err:
                raise PlanInputError(f"{name}: {err}") from None


@dataclass(frozen=True)
class DaskRun(Result):
    """Where a file analysis ran: the scheduler, its workers, and the pieces of the input."""

    scheduler: str
    workers: int
    files: int
    input_partitions: int

    def render(self) -> str:
        return (
            f"Dask ({self.scheduler}): {self.workers} worker{'s' * (self.workers != 1)} read and reduced "
            f"{self.input_partitions} input partition{'s' * (self.input_partitions != 1)} "
            f"of {self.files} file{'s' * (self.files != 1)}"
        )


class Files:
    """Text, CSV or Parquet files read as one stream of (keys, weights) batches, here or on Dask workers.

    ``paths`` may hold glob patterns. The arguments are those of
    :func:`~pulsar_routing.plan.file_batches`, for every file; ``format="auto"``
    goes by each file's extension. ``piece_rows``: the rows of Parquet row
    groups one task reads at least (the last run of a file may be shorter).
    """

    def __init__(
        self,
        paths: Sequence[str | os.PathLike[str]],
        *,
        format: str = "auto",
        key_column: str | None = None,
        weight_column: str | None = None,
        progress: Callable[[int], None] | None = None,
        piece_rows: int = BATCH_ROWS,
    ) -> None:
        if piece_rows < 1:
            raise PlanInputError("piece_rows must be at least 1")
        self.paths = expand_paths(paths)
        self.piece_rows = piece_rows
        self.format = format
        self.key_column = key_column
        self.weight_column = weight_column
        self.progress = progress
        self.client: Any = None
        self.scheduler = ""
        self.run: DaskRun | None = None
        """After a run on a client: where it ran."""

    @property
    def source(self) -> str:
        """The name reports give the input: the file's name, or the first and last of several."""
        names = [Path(p).name for p in self.paths]
        if len(names) == 1:
            return names[0]
        return f"{len(names)} files ({names[0]} .. {names[-1]})"

    def __iter__(self) -> Iterator[Batch]:
        done = 0
        for path in self.paths:
            read = 0
            for keys, weights in file_batches(
                path, format=self.format, key_column=self.key_column, weight_column=self.weight_column
            ):
                read += len(keys)
                yield keys, weights
                if self.progress is not None:
                    self.progress(done + read)
            done += read

    def on(self, client: Any, scheduler: str | None = None) -> Files:
        """These files, to be reduced on the workers of a ``distributed.Client`` by the analyses.

        ``scheduler`` names it in the report (default: the scheduler's address).
        """
        self.client = client
        self.scheduler = scheduler or str(client.scheduler.address)
        return self

    def pieces(self) -> list[Piece]:
        """The tasks: each Parquet file as runs of row groups of about a million rows, other files whole."""
        out: list[Piece] = []
        for path in self.paths:
            p, fmt = _check_file(path, self.format, self.key_column, self.weight_column, BATCH_ROWS)
            if fmt != "parquet":
                out.append(Piece(path, fmt, self.key_column, self.weight_column))
                continue
            import pyarrow as pa
            import pyarrow.parquet as pq

            try:
                meta = pq.ParquetFile(p).metadata
            except (pa.ArrowInvalid, OSError) as err:
                raise PlanInputError(f"{p.name}: not a Parquet file ({err})") from None
            run: list[int] = []
            rows = 0
            for i in range(meta.num_row_groups):
                run.append(i)
                rows += meta.row_group(i).num_rows
                if rows >= self.piece_rows:
                    out.append(Piece(path, fmt, self.key_column, self.weight_column, tuple(run)))
                    run, rows = [], 0
            if run or meta.num_row_groups == 0:
                out.append(Piece(path, fmt, self.key_column, self.weight_column, tuple(run)))
        return out

    @property
    def reduce_with(self) -> Callable[[int, Callable[[], Any], str], tuple[KeySample | None, Any, Any]] | None:
        """How the analyses have the input reduced on a client; None (read here) without one."""
        return self._reduce if self.client is not None else None

    def _reduce(self, max_distinct: int, sink: Callable[[], Any], source: str) -> tuple[KeySample | None, Any, Any]:
        pieces = self.pieces()
        client = self.client
        futures = client.map(_reduce_piece, pieces, max_distinct=max_distinct, sink=sink, pure=False)
        while len(futures) > 1:
            futures = [
                client.submit(_merge, futures[i : i + FAN_IN], max_distinct=max_distinct, sink=sink, pure=False)
                for i in range(0, len(futures), FAN_IN)
            ]
        summary: _Summary = futures[0].result()
        workers = len(client.nthreads())
        self.run = DaskRun(self.scheduler, workers, len(self.paths), len(pieces))
        return summary.finish(source)


# ---------------------------------------------------------------- on the workers


@dataclass
class _Summary:
    """A piece, or merged pieces: a (k, w) table of the distinct keys (null included) or the analysis' sink."""

    table: Any
    sink: Any
    totals: Any

    def finish(self, source: str) -> tuple[KeySample | None, Any, Any]:
        """What ``stream._run`` returns: the exact sample (sorted as a single pass sorts it) or the sink."""
        if self.sink is not None:
            return None, self.sink, self.totals
        acc = _ArrowAccumulator()
        if self.table is not None:
            acc.absorb(self.table)
        acc.rows = self.totals.rows
        sample = acc.sample(source, self.totals.weighted)
        if sample.total_weight <= 0:
            raise PlanInputError(f"{source}: no keys")
        return sample, None, self.totals


def _totals(rows: int = 0, keyless: float = 0.0, weighted: bool = False) -> Any:
    from .stream import _Totals

    t = _Totals()
    t.rows, t.keyless, t.weighted = rows, keyless, weighted
    return t


def _pour(out: Any, totals: Any, table: Any) -> None:
    """Feeds a (k, w) table of distinct keys into a sink, a batch's worth at a time (nulls to the keyless weight)."""
    from .stream import _feed

    pc = _pyarrow_compute()
    for start in range(0, table.num_rows, BATCH_ROWS):
        part = table.slice(start, BATCH_ROWS)
        _feed(out, totals, part.column("k"), np.asarray(part.column("w").to_numpy(), np.float64), pc)


def _reduce_piece(piece: Piece, *, max_distinct: int, sink: Callable[[], Any]) -> _Summary:
    """One piece counted as a single pass counts a stream: exact up to ``max_distinct`` distinct keys."""
    from .stream import _feed

    pc = _pyarrow_compute()
    acc = _ArrowAccumulator()
    out: Any = None
    totals = _totals()
    for keys, weights in piece.batches():
        totals.weighted = totals.weighted or weights is not None
        totals.rows += len(keys)
        if out is not None:
            _feed(out, totals, keys, np.ones(len(keys)) if weights is None else weights, pc)
            continue
        acc.add(keys, weights)
        if acc.distinct > max_distinct:
            out = sink()
            _pour(out, totals, acc.table())
            acc = _ArrowAccumulator()
    if out is not None:
        return _Summary(None, out, totals)
    return _Summary(acc.table() if acc.rows else None, None, totals)


def _merge(summaries: list[_Summary], *, max_distinct: int, sink: Callable[[], Any]) -> _Summary:
    """Several summaries as one: tables summed per key while they fit, else every part merged into a fresh sink."""
    totals = _totals(
        sum(s.totals.rows for s in summaries),
        sum(s.totals.keyless for s in summaries),
        any(s.totals.weighted for s in summaries),
    )
    tables = [s.table for s in summaries if s.table is not None]
    table = None if not tables else tables[0] if len(tables) == 1 else _merge_aggregates(tables)
    sinks = [s.sink for s in summaries if s.sink is not None]
    if not sinks and (table is None or table.num_rows <= max_distinct):
        return _Summary(table, None, totals)
    out = sink()
    for other in sinks:
        merge_sink(out, other)
    if table is not None:
        _pour(out, totals, table)
    return _Summary(None, out, totals)


def _union(a: Any, b: Any) -> Any:
    """The :class:`~pulsar_routing.plan.stream.DistinctSample` of the union of two samples' keys.

    Each holds every key of its part whose hash is under its threshold, so
    at the higher level of the two, their keys together are the union's;
    adding them to a sample at that level (which halves further while it
    overflows) ends where one pass over all the keys ends.
    """
    from .stream import DistinctSample

    out = DistinctSample(a.values.shape[1], a.bound, a.values.dtype)
    out.level = max(a.level, b.level)
    for part in (a, b):
        out.add(part._hashes, part.values)
    return out


def merge_sink(out: Any, other: Any) -> None:
    """Adds ``other``'s counts to ``out``, a sink of the same analysis and settings."""
    from .sketch import _SkewSink
    from .stream import _ClientsSink, _DivergenceSink, _DriftSink, _KeySharedSink, _PartitionsSink

    if type(out) is not type(other):
        raise TypeError(f"cannot merge a {type(other).__name__} into a {type(out).__name__}")
    if isinstance(out, _SkewSink):
        out.merge(other)
        return
    if isinstance(out, _ClientsSink):
        if other.used is None:
            return
        if out.used is None:
            from .stream import DistinctSample

            out.used, out.skipped, out.pairs = list(other.used), dict(other.skipped), list(other.pairs)
            out.differ = np.zeros(len(out.pairs))
            out.sample = DistinctSample(2 * len(out.pairs), out.bound)
        elif out.used != other.used:
            # One part could route with a setup another could not: a single
            # pass fails the same way on the part it reads second.
            from ..profiles import ProfileRouteError

            setup = next(s for s in out.setups if (s in out.used) != (s in other.used))
            raise ProfileRouteError(out.skipped.get(setup) or other.skipped.get(setup) or setup)
    out.keyed += other.keyed
    if isinstance(out, _DriftSink):
        out.before += other.before
        out.after += other.after
        out.moved_weight += other.moved_weight
    elif isinstance(out, (_DivergenceSink, _ClientsSink)):
        out.differ += other.differ
    elif isinstance(out, _KeySharedSink):
        out.slot_weights += other.slot_weights
    elif isinstance(out, _PartitionsSink):
        for n, load in out.loads.items():
            load += other.loads[n]
        if other.heavy.table is not None:
            out.heavy.add(other.heavy.table.column("k"), np.asarray(other.heavy.table.column("w").to_numpy()))
        out.heavy.error += other.heavy.error
        return
    else:
        raise TypeError(f"no merge for a {type(out).__name__}")
    out.sample = _union(out.sample, other.sample)


# ---------------------------------------------------------------- the client


@contextlib.contextmanager
def dask_client(address: str, *, workers: int | None = None) -> Iterator[Any]:
    """A ``distributed.Client``: of the scheduler at ``address``, or of a new local cluster for ``"local"``.

    The local cluster has ``workers`` worker processes (default: one per
    core) of one thread each, and no dashboard; it stops on exit.
    """
    import importlib

    try:
        dist: Any = importlib.import_module("distributed")
    except ImportError:
        raise PlanInputError(f"--dask needs Dask's distributed scheduler: {DASK_INSTALL}") from None
    if workers is not None and workers < 1:
        raise PlanInputError("--dask-workers must be at least 1")
    if address == "local":
        with dist.LocalCluster(
            n_workers=workers or os.cpu_count() or 1,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.ERROR,
        ) as cluster, dist.Client(cluster) as client:
            yield client
        return
    if workers is not None:
        raise PlanInputError("--dask-workers goes with --dask local; a scheduler has the workers it has")
    with dist.Client(address, timeout="20s") as client:
        yield client
