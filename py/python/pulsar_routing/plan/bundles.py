"""4. Namespace bundles: how topic-partitions spread, how many bundles, what a split moves.

Every bundle lookup and split is the core's (:class:`pulsar_routing.NamespaceBundles`):
the CRC-32 of each topic-partition's canonical name, and the broker's
split algorithms.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Union

import numpy as np
from numpy.typing import NDArray

from .. import BundleRange, NamespaceBundles, TopicName
from .inputs import PlanInputError, _pyarrow, detect_format
from .results import BundleCount, BundleLoad, BundleReport, SplitImpact
from .stats import load_stats, uniform_baseline

# The broker's defaults: a namespace is created with 4 bundles
# (defaultNumberOfNamespaceBundles) and the load manager splits up to 128
# (loadBalancerNamespaceMaximumBundles).
DEFAULT_BUNDLES = 4
BROKER_MAX_BUNDLES = 128
_FULL_RANGE = 1 << 32

Layout = Union[int, NamespaceBundles, Sequence[Union[int, str]]]
Topics = Union[Iterable[Union[str, TopicName]], Mapping[str, int]]


def layout_of(bundles: Layout) -> NamespaceBundles:
    """A layout from a bundle count (the default layout), boundaries, or a layout."""
    if isinstance(bundles, NamespaceBundles):
        return bundles
    if isinstance(bundles, (int, np.integer)):
        return NamespaceBundles(int(bundles))
    return NamespaceBundles.from_boundaries(list(bundles))


@dataclass(frozen=True)
class _Group:
    """Topics with the same partition count (None: non-partitioned)."""

    names: list[str]
    index: NDArray[np.intp]  # positions in the caller's topic list
    partitions: int | None


@dataclass(frozen=True)
class TopicSet:
    """Topics with their partition counts and optional traffic, grouped for the core's batch calls."""

    names: list[str]
    partitions: list[int]  # 0: non-partitioned
    weights: NDArray[np.float64] | None
    rules: str
    # From admin stats: each topic's throughput (bytes/s in + out) and sessions (producers + consumers).
    throughput: NDArray[np.float64] | None = None
    sessions: NDArray[np.float64] | None = None

    def with_extra(
        self, *, throughput: NDArray[np.float64] | None = None, sessions: NDArray[np.float64] | None = None
    ) -> TopicSet:
        for what, values in (("throughput", throughput), ("sessions", sessions)):
            if values is not None and values.shape != (len(self.names),):
                raise ValueError(f"{values.size} {what} figures for {len(self.names)} topics")
        return dataclasses.replace(self, throughput=throughput, sessions=sessions)

    @property
    def topic_partitions(self) -> int:
        return sum(max(p, 1) for p in self.partitions)

    def groups(self) -> list[_Group]:
        by: dict[int, list[int]] = {}
        for i, p in enumerate(self.partitions):
            by.setdefault(p, []).append(i)
        return [
            _Group([self.names[i] for i in idx], np.asarray(idx, dtype=np.intp), p or None)
            for p, idx in sorted(by.items())
        ]

    def indexes(self, layout: NamespaceBundles) -> tuple[NDArray[np.int32], NDArray[np.intp], NDArray[np.int32]]:
        """(bundle index, topic position, partition index or -1) of every topic-partition."""
        bundles, topics, parts = [], [], []
        for g in self.groups():
            idx = layout.bundle_indexes(g.names, partitions=g.partitions, rules=self.rules)
            if g.partitions is None:
                bundles.append(idx.reshape(-1))
                topics.append(g.index)
                parts.append(np.full(len(g.names), -1, dtype=np.int32))
            else:
                bundles.append(idx.reshape(-1))
                topics.append(np.repeat(g.index, g.partitions))
                parts.append(np.tile(np.arange(g.partitions, dtype=np.int32), len(g.names)))
        if not bundles:
            empty = np.zeros(0, dtype=np.int32)
            return empty, np.zeros(0, dtype=np.intp), empty
        return np.concatenate(bundles), np.concatenate(topics), np.concatenate(parts)

    def counts(self, layout: NamespaceBundles) -> NDArray[np.int64]:
        total = np.zeros(len(layout), dtype=np.int64)
        for g in self.groups():
            total += layout.count_per_bundle(g.names, partitions=g.partitions, rules=self.rules)
        return total

    def name(self, topic: int, partition: int) -> str:
        t = TopicName(self.names[topic], rules=self.rules)
        return str(t) if partition < 0 else t.partition(partition)


def topic_set(
    topics: Topics,
    *,
    partitions: int | None = None,
    weights: Sequence[float] | NDArray[np.float64] | Mapping[str, float] | None = None,
    rules: str = "4.2",
) -> TopicSet:
    """Topics as given: names (all with ``partitions``, or non-partitioned) or a mapping name -> partitions.

    A partition count of 0 (or None) means a non-partitioned topic.
    ``weights`` is each topic's traffic, spread evenly over its partitions.
    """
    if partitions is not None and partitions < 0:
        raise ValueError("partitions must not be negative")
    if isinstance(topics, Mapping):
        if partitions is not None:
            raise ValueError("give partitions in the mapping or as partitions=, not both")
        names = [str(t) for t in topics]
        counts = [int(topics[t] or 0) for t in topics]
    else:
        names = []
        for t in topics:
            if t is None:
                raise ValueError("a topic name is None")
            names.append(str(t))
        counts = [partitions or 0] * len(names)
    if any(c < 0 for c in counts):
        raise ValueError("partition counts must not be negative")
    w: NDArray[np.float64] | None = None
    if weights is not None:
        if isinstance(weights, Mapping):
            w = np.asarray([float(weights.get(n, 0.0)) for n in names], dtype=np.float64)
        else:
            w = np.asarray(weights, dtype=np.float64)
        if w.shape != (len(names),):
            raise ValueError(f"{w.size} weights for {len(names)} topics")
        if not np.isfinite(w).all() or (w < 0).any():
            raise ValueError("topic weights must be finite and not negative")
    # Parse every name once, so that a bad one fails here with the broker's message.
    seen: set[str] = set()
    for n in names:
        canonical = str(TopicName(n, rules=rules))
        if canonical in seen:
            raise ValueError(f"topic {canonical} is listed twice")
        seen.add(canonical)
    return TopicSet(names=names, partitions=counts, weights=w, rules=rules)


def bundles_needed(
    topics: TopicSet,
    max_per_bundle: int,
    *,
    limit: int | None = None,
) -> BundleCount:
    """The smallest default layout in which no bundle holds more than ``max_per_bundle`` topic-partitions."""
    if max_per_bundle < 1:
        raise ValueError("max_per_bundle must be at least 1")
    total = topics.topic_partitions
    start = max(1, math.ceil(total / max_per_bundle))
    top = limit if limit is not None else max(4 * start, start + 1024)
    notes: list[str] = []
    found: int | None = None
    largest: int | None = None
    for k in range(start, top + 1):
        counts = topics.counts(NamespaceBundles(k))
        biggest = int(counts.max()) if counts.size else 0
        if biggest <= max_per_bundle:
            found, largest = k, biggest
            break
    if found is not None:
        if found > start:
            notes.append(
                f"{start} bundles would do on average ({total:,} / {max_per_bundle:,}); the CRC-32 spread "
                f"needs {found}."
            )
        if found > BROKER_MAX_BUNDLES:
            notes.append(
                f"Above the broker's default limit of {BROKER_MAX_BUNDLES} bundles per namespace "
                "(loadBalancerNamespaceMaximumBundles): raise it, or spread the topics over namespaces."
            )
        notes.append(
            f"Create the namespace with it: pulsar-admin namespaces create <tenant>/<namespace> --bundles {found}"
        )
    return BundleCount(
        max_per_bundle=max_per_bundle, bundles=found, largest_bundle=largest, searched_up_to=top, notes=notes
    )


def split_impact(
    topics: TopicSet,
    layout: NamespaceBundles,
    bundle: BundleRange | str | None = None,
    algorithm: str = "range_equally_divide",
    *,
    positions: Sequence[int] | None = None,
    list_moved: int = 20,
) -> SplitImpact:
    """What splitting ``bundle`` (default: the one with the most topic-partitions) moves.

    The split is the broker's algorithm, run by the core; the topic-count
    algorithm sees the bundle's topic-partitions, as in the broker. ``list_moved`` names
    that many moved topic-partitions (0: all).
    """
    idx, topic_pos, part_idx = topics.indexes(layout)
    if bundle is None:
        counts = np.bincount(idx[idx >= 0], minlength=len(layout))
        bundle = layout[int(np.argmax(counts))]
    position = layout.validate_bundle(bundle)
    target = layout[position]
    names: list[str] | None = None
    if algorithm == "topic_count_equally_divide":
        # The broker hands the algorithm the bundle's own topics.
        inside = np.flatnonzero(idx == position)
        names = [topics.name(int(topic_pos[i]), int(part_idx[i])) for i in inside]
    after, new = layout.split(target, algorithm, positions=positions, topics=names, rules=topics.rules)
    if not new:
        return SplitImpact(
            bundle=str(target),
            algorithm=algorithm,
            split=False,
            new_bundles=[],
            moved=0,
            moved_share=0.0,
            moved_topics=[],
            boundaries_after=[f"0x{b:08x}" for b in layout.boundaries()],
        )
    moved_mask = idx == position
    after_idx, _, _ = topics.indexes(after)
    after_bundles = after.bundles()
    new_loads = []
    total = max(int(idx.size), 1)
    for b in new:
        count = int(np.sum(after_idx[moved_mask] == after_bundles.index(b)))
        new_loads.append(BundleLoad(bundle=str(b), topic_partitions=count, share=count / total, traffic=None))
    moved_positions = np.flatnonzero(moved_mask)
    listed = moved_positions if list_moved == 0 else moved_positions[: max(list_moved, 0)]
    moved_topics = [topics.name(int(topic_pos[i]), int(part_idx[i])) for i in listed]
    return SplitImpact(
        bundle=str(target),
        algorithm=algorithm,
        split=True,
        new_bundles=new_loads,
        moved=int(moved_positions.size),
        moved_share=moved_positions.size / total,
        moved_topics=moved_topics,
        boundaries_after=[f"0x{b:08x}" for b in after.boundaries()],
    )


def bundle_spread(
    topics: Topics | TopicSet,
    bundles: Layout = DEFAULT_BUNDLES,
    *,
    partitions: int | None = None,
    weights: Sequence[float] | NDArray[np.float64] | Mapping[str, float] | None = None,
    max_per_bundle: int | None = None,
    split: bool | BundleRange | str = False,
    algorithm: str = "range_equally_divide",
    positions: Sequence[int] | None = None,
    rules: str = "4.2",
    list_moved: int = 20,
) -> BundleReport:
    """The spread of topic-partitions over a layout, with the bundle count and split analyses.

    ``bundles`` is a count (the broker's default layout), boundaries, or a
    :class:`NamespaceBundles`. ``max_per_bundle`` adds the bundle count
    that keeps every bundle at or under it; ``split`` (True: the fullest
    bundle, or a bundle) adds what a split moves.
    """
    ts = (
        topics
        if isinstance(topics, TopicSet)
        else topic_set(topics, partitions=partitions, weights=weights, rules=rules)
    )
    layout = layout_of(bundles)
    idx, topic_pos, part_idx = ts.indexes(layout)
    k = len(layout)
    counts = np.bincount(idx, minlength=k).astype(np.float64)
    total = int(idx.size)
    traffic: NDArray[np.float64] | None = None
    if ts.weights is not None:
        per = ts.weights[topic_pos] / np.maximum(np.asarray(ts.partitions, dtype=np.float64)[topic_pos], 1.0)
        traffic = np.bincount(idx, weights=per, minlength=k).astype(np.float64)
    parts = np.maximum(np.asarray(ts.partitions, dtype=np.float64)[topic_pos], 1.0)
    throughput = (
        None
        if ts.throughput is None
        else np.bincount(idx, weights=ts.throughput[topic_pos] / parts, minlength=k).astype(np.float64)
    )
    sessions = (
        None if ts.sessions is None else np.bincount(idx, weights=ts.sessions[topic_pos] / parts, minlength=k)
    )
    ranges = layout.bundles()
    sizes = np.asarray([b.upper - b.lower + (1 if b.upper_closed else 0) for b in ranges], dtype=np.float64)
    loads = [
        BundleLoad(
            bundle=str(b),
            topic_partitions=int(counts[i]),
            share=float(counts[i]) / total if total else 0.0,
            traffic=None if traffic is None else float(traffic[i]),
            throughput=None if throughput is None else float(throughput[i]),
            sessions=None if sessions is None else int(round(float(sessions[i]))),
        )
        for i, b in enumerate(ranges)
    ]
    _, max_mean, cv = load_stats(counts)
    baseline = uniform_baseline(np.ones(total), k, probabilities=sizes / _FULL_RANGE)
    notes: list[str] = []
    if total and k > total:
        notes.append(f"More bundles ({k}) than topic-partitions ({total}): some bundles must stay empty.")
    if max_mean > max(baseline.equal_max_mean_p95, 1.0) + 1e-9 and total >= 4 * k:
        notes.append(
            "The spread is worse than uniform hashing would give: the bundle ranges are uneven "
            "(after splits) or the topic names cluster."
        )
    split_report: SplitImpact | None = None
    if split is not False:
        target = None if split is True else split
        split_report = split_impact(ts, layout, target, algorithm, positions=positions, list_moved=list_moved)
    return BundleReport(
        topics=len(ts.names),
        topic_partitions=total,
        num_bundles=k,
        bundles=loads,
        max_mean=max_mean,
        cv=cv,
        empty_bundles=int(np.sum(counts == 0)),
        traffic_max_mean=None if traffic is None else load_stats(traffic)[1],
        uniform=baseline,
        bundle_count=None if max_per_bundle is None else bundles_needed(ts, max_per_bundle),
        split=split_report,
        notes=notes,
    )


def read_topics(
    path: str | os.PathLike[str],
    *,
    format: str = "auto",
    topic_column: str | None = None,
    partitions_column: str | None = None,
    weight_column: str | None = None,
    partitions: int | None = None,
    rules: str = "4.2",
) -> TopicSet:
    """Topics from a file: text (one topic per line), or CSV/Parquet with a topic column.

    ``partitions_column`` gives each topic's partition count (0:
    non-partitioned), ``weight_column`` its traffic; without a column,
    every topic has ``partitions``.
    """
    fmt = detect_format(path) if format == "auto" else format
    p = Path(path)
    if not p.is_file():
        raise PlanInputError(f"{p}: no such file")
    if fmt == "text":
        if topic_column or partitions_column or weight_column:
            raise PlanInputError(f"{p.name}: a text file has one topic per line and no columns")
        try:
            lines = p.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError:
            raise PlanInputError(f"{p.name}: not valid UTF-8") from None
        names = [line.strip() for line in lines if line.strip()]
        return topic_set(names, partitions=partitions, rules=rules)
    if fmt not in ("csv", "parquet"):
        raise PlanInputError(f"unknown format {format!r}")
    pa = _pyarrow()
    if fmt == "csv":
        import pyarrow.csv as pacsv

        delimiter = "\t" if p.suffix.lower() == ".tsv" else ","
        try:
            table = pacsv.read_csv(p, parse_options=pacsv.ParseOptions(delimiter=delimiter))
        except pa.ArrowInvalid as err:
            raise PlanInputError(f"{p.name}: {err}") from None
    else:
        import pyarrow.parquet as pq

        try:
            table = pq.read_table(p)
        except (pa.ArrowInvalid, OSError) as err:
            raise PlanInputError(f"{p.name}: not a Parquet file ({err})") from None
    columns = list(table.column_names)
    topic = topic_column or ("topic" if "topic" in columns else None)
    if topic is None and len(columns) == 1:
        topic = columns[0]
    for what, col in (("topic", topic), ("partitions", partitions_column), ("weight", weight_column)):
        if what == "topic" and col is None:
            raise PlanInputError(f"{p.name}: which column holds the topic? (columns: {', '.join(map(repr, columns))})")
        if col is not None and col not in columns:
            raise PlanInputError(f"{p.name}: no column {col!r} (columns: {', '.join(map(repr, columns))})")
    names = [str(t) for t in table.column(topic).to_pylist()]
    weights = None if weight_column is None else [float(w or 0.0) for w in table.column(weight_column).to_pylist()]
    if partitions_column is not None:
        if partitions is not None:
            raise PlanInputError("give partitions per topic (a column) or for all, not both")
        counts = [int(c or 0) for c in table.column(partitions_column).to_pylist()]
        return topic_set(dict(zip(names, counts)), weights=weights, rules=rules)
    return topic_set(names, partitions=partitions, weights=weights, rules=rules)
