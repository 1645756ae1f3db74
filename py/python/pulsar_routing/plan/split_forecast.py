"""The broker's automatic bundle splits, forecast round after round until nothing more splits.

The rule is the load manager's own:

* modular load manager (``BundleSplitterTask``): each time the leader reads
  the load reports, a bundle with at least 2 topics is split when its topics
  exceed ``loadBalancerNamespaceBundleMaxTopics``, its producers plus
  consumers exceed ``loadBalancerNamespaceBundleMaxSessions`` (0 disables
  that check), its message rate (in + out) exceeds
  ``loadBalancerNamespaceBundleMaxMsgRate`` or its throughput (in + out)
  exceeds ``loadBalancerNamespaceBundleMaxBandwidthMbytes`` MiB/s, as long
  as the namespace's bundles plus the splits already chosen in that round
  stay under ``loadBalancerNamespaceMaximumBundles``;
* extensible load manager (``DefaultNamespaceBundleSplitStrategyImpl``): the
  same thresholds, but a bundle splits only once it met them in more than
  ``loadBalancerNamespaceBundleSplitConditionHitCountThreshold`` consecutive
  split cycles (one every ``loadBalancerSplitIntervalMinutes``), and at most
  ``loadBalancerMaxNumberOfBundlesToSplitPerCycle`` bundles split per cycle.

Each split runs ``defaultNamespaceBundleSplitAlgorithm`` through the core's
split functions (:meth:`pulsar_routing.NamespaceBundles.split`). Every
topic of a split bundle lands in a new bundle: its bundle is unloaded and
its clients look it up again.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Union

import numpy as np
from numpy.typing import NDArray

from .. import BundleError, BundleRange, NamespaceBundles, TopicName, crc32
from .admin import AdminStats, BundleTraffic, TopicTraffic
from .bundles import Layout, layout_of
from .inputs import PlanInputError
from .results import Result, heading, num, table

MIB = 1024 * 1024
LOAD_MANAGERS = ("modular", "extensible")
SPLIT_ALGORITHMS = ("range_equally_divide", "topic_count_equally_divide", "flow_or_qps_equally_divide")

# The broker's names of the settings, for flags and reports.
BROKER_NAMES = {
    "max_topics": "loadBalancerNamespaceBundleMaxTopics",
    "max_sessions": "loadBalancerNamespaceBundleMaxSessions",
    "max_msg_rate": "loadBalancerNamespaceBundleMaxMsgRate",
    "max_bandwidth_mbytes": "loadBalancerNamespaceBundleMaxBandwidthMbytes",
    "max_bundles": "loadBalancerNamespaceMaximumBundles",
    "algorithm": "defaultNamespaceBundleSplitAlgorithm",
    "flow_threshold_percent": "flowOrQpsDifferenceThresholdPercentage",
    "max_splits_per_cycle": "loadBalancerMaxNumberOfBundlesToSplitPerCycle",
    "hit_count_threshold": "loadBalancerNamespaceBundleSplitConditionHitCountThreshold",
}


@dataclass(frozen=True)
class SplitSettings(Result):
    """The broker settings the split rule reads (the broker's defaults)."""

    load_manager: str = "modular"
    max_topics: int = 1000
    max_sessions: int = 1000
    max_msg_rate: int = 30_000
    max_bandwidth_mbytes: int = 100
    max_bundles: int = 128
    algorithm: str = "range_equally_divide"
    flow_threshold_percent: int = 10
    max_splits_per_cycle: int = 10  # extensible only
    hit_count_threshold: int = 3  # extensible only

    def __post_init__(self) -> None:
        if self.load_manager not in LOAD_MANAGERS:
            raise ValueError(f"load manager {self.load_manager!r}: choose from {', '.join(LOAD_MANAGERS)}")
        if self.algorithm not in SPLIT_ALGORITHMS:
            raise ValueError(f"split algorithm {self.algorithm!r}: choose from {', '.join(SPLIT_ALGORITHMS)}")
        for name in ("max_topics", "max_sessions", "max_msg_rate", "max_bandwidth_mbytes", "flow_threshold_percent",
                     "hit_count_threshold"):
            if getattr(self, name) < 0:
                raise ValueError(f"{BROKER_NAMES[name]} must not be negative")
        if self.max_bundles < 1 or self.max_splits_per_cycle < 1:
            raise ValueError("loadBalancerNamespaceMaximumBundles and the splits per cycle must be at least 1")

    @property
    def max_bandwidth(self) -> float:
        return float(self.max_bandwidth_mbytes * MIB)

    def broker_settings(self) -> dict[str, Any]:
        names = [k for k in BROKER_NAMES if self.load_manager == "extensible" or k not in (
            "max_splits_per_cycle", "hit_count_threshold")]
        if self.algorithm != "flow_or_qps_equally_divide":
            names.remove("flow_threshold_percent")
        return {BROKER_NAMES[k]: getattr(self, k) for k in names}

    def render(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.broker_settings().items())

    def reasons(self, topics: int, sessions: int, msg_rate: float, throughput: float) -> list[str]:
        """Every threshold the figures exceed, in the broker's order (topics, sessions, rate, bandwidth)."""
        out = []
        if topics > self.max_topics:
            out.append(f"topics {topics:,} > {self.max_topics:,}")
        if self.max_sessions > 0 and sessions > self.max_sessions:
            out.append(f"sessions {sessions:,} > {self.max_sessions:,}")
        if msg_rate > self.max_msg_rate:
            out.append(f"msg rate {num(msg_rate)}/s > {self.max_msg_rate:,}")
        if throughput > self.max_bandwidth:
            out.append(f"throughput {throughput / MIB:,.1f} MiB/s > {self.max_bandwidth_mbytes:,}")
        return out


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class BundleFigures(Result):
    """A bundle as the split rule sees it, and the thresholds it exceeds."""

    bundle: str
    topics: int
    sessions: int
    msg_rate: float
    throughput: float
    over: list[str]

    def render(self) -> str:
        return f"{self.bundle}: {self.topics} topics"


@dataclass(frozen=True)
class AutoSplitStep(Result):
    """One bundle the broker splits in a round, and what it moves."""

    bundle: str
    reasons: list[str]
    topics: int
    sessions: int
    msg_rate: float
    throughput: float
    split: bool
    new_bundles: list[BundleFigures]
    moved_topics: int
    moved_sessions: int
    note: str | None = None

    def render(self) -> str:
        if not self.split:
            return f"{self.bundle} ({'; '.join(self.reasons)}): not split: {self.note}"
        into = ", ".join(f"{b.bundle} ({b.topics})" for b in self.new_bundles)
        return (
            f"{self.bundle} ({'; '.join(self.reasons)}) -> {into}; {self.moved_topics:,} topics move "
            f"({self.moved_sessions:,} client sessions look them up again)"
        )


@dataclass(frozen=True)
class AutoSplitRound(Result):
    """One split round: the bundles split, those left at the bundle cap, and the layout after."""

    round: int
    cycle: int | None  # extensible: the split cycle it happens in
    steps: list[AutoSplitStep]
    capped: list[str]
    bundles_after: int
    boundaries_after: list[str]

    def render(self) -> str:
        when = f" (split cycle {self.cycle})" if self.cycle is not None else ""
        lines = [f"Round {self.round}{when}: {self.bundles_after} bundles after"]
        lines += [f"  - {s}" for s in self.steps]
        if self.capped:
            lines.append(f"  - left at the bundle cap: {', '.join(self.capped)}")
        return "\n".join(lines)


@dataclass(frozen=True)
class StillOver(Result):
    """A bundle still over a threshold when nothing more splits, and why."""

    bundle: str
    reasons: list[str]
    why: str
    suggestion: str | None

    def render(self) -> str:
        text = f"{self.bundle} ({'; '.join(self.reasons)}): {self.why}"
        return text + (f" {self.suggestion}" if self.suggestion else "")


@dataclass(frozen=True)
class MovedTopic(Result):
    topic: str
    moves: int
    sessions: int

    def render(self) -> str:
        return f"{self.topic}: {self.moves}"


@dataclass(frozen=True)
class AutoSplitReport(Result):
    """The forecast: rounds of splits until nothing more splits, what moves, what stays over."""

    namespace: str | None
    settings: SplitSettings
    counting: str  # "per-topic" (every round) or "per-bundle" (the first decision only)
    topics: int
    bundles_before: int
    bundles_after: int
    initial: list[BundleFigures]
    rounds: list[AutoSplitRound]
    final: list[BundleFigures]
    moved_topics: int
    relookups: int
    client_relookups: int
    moved: list[MovedTopic]
    still_over: list[StillOver]
    create_bundles: int | None
    create_command: str | None
    notes: list[str] = field(default_factory=list)

    def render(self) -> str:
        ns = self.namespace or "the namespace"
        splits = sum(1 for r in self.rounds for s in r.steps if s.split)
        parts = [
            heading(
                f"Auto-split forecast for {ns}: {self.bundles_before} -> {self.bundles_after} bundles, "
                f"{splits} splits in {len(self.rounds)} rounds ({self.settings.load_manager} load manager)"
            ),
            self.settings.render(),
            "",
            "Before:",
            _figures_table(self.initial),
        ]
        if self.rounds:
            parts += ["", *(str(r) for r in self.rounds)]
        else:
            parts += ["", "Nothing splits."]
        if self.rounds and self.counting == "per-topic":
            parts += ["", "After:", _figures_table(self.final)]
        if self.moved_topics:
            parts += [
                "",
                f"{self.moved_topics:,} of {self.topics:,} topics move ({self.relookups:,} bundle changes; "
                f"{self.client_relookups:,} client re-lookups, one per producer or consumer per move).",
            ]
            if self.moved:
                rows = [[m.topic, str(m.moves), num(m.sessions)] for m in self.moved]
                parts.append(table(["topic", "moves", "sessions"], rows))
        if self.still_over:
            parts += ["", "Still over a threshold when nothing more splits:", *(f"- {s}" for s in self.still_over)]
        if self.create_command:
            parts += ["", f"To avoid these splits: {self.create_command}"]
        if self.notes:
            parts += ["", *(f"- {n}" for n in self.notes)]
        return "\n".join(parts)


def _figures_table(rows: Sequence[BundleFigures]) -> str:
    body = [
        [b.bundle, num(b.topics), num(b.sessions), num(b.msg_rate), f"{b.throughput / MIB:,.1f}", "; ".join(b.over)]
        for b in rows
    ]
    if len(body) > 40:
        body = body[:20] + [["..."] + [""] * 5] + body[-10:]
    return table(["bundle", "topics", "sessions", "msg/s", "MiB/s", "over"], body)


# ---------------------------------------------------------------- the forecast


TopicsLike = Union[AdminStats, Sequence[TopicTraffic]]


@dataclass
class _Topics:
    names: list[str]
    rate_in: NDArray[np.float64]
    rate_out: NDArray[np.float64]
    thr_in: NDArray[np.float64]
    thr_out: NDArray[np.float64]
    sessions: NDArray[np.int64]
    hashes: NDArray[np.int64]  # CRC-32 of each canonical name, where the broker places the topic

    def bundle_indexes(self, layout: NamespaceBundles) -> NDArray[np.intp]:
        """The bundle of every topic: the last boundary at or below its hash (the top one is inclusive)."""
        bounds = np.asarray(layout.boundaries(), dtype=np.int64)
        return np.minimum(np.searchsorted(bounds, self.hashes, side="right") - 1, len(bounds) - 2)

    @property
    def rate(self) -> NDArray[np.float64]:
        return self.rate_in + self.rate_out

    def subset(self, keep: NDArray[np.bool_]) -> _Topics:
        pos = np.flatnonzero(keep)
        return _Topics(
            names=[self.names[i] for i in pos],
            rate_in=self.rate_in[pos],
            rate_out=self.rate_out[pos],
            thr_in=self.thr_in[pos],
            thr_out=self.thr_out[pos],
            sessions=self.sessions[pos],
            hashes=self.hashes[pos],
        )

    @property
    def throughput(self) -> NDArray[np.float64]:
        return self.thr_in + self.thr_out

    @classmethod
    def of(cls, topics: Sequence[TopicTraffic]) -> _Topics:
        def col(attr: str) -> NDArray[np.float64]:
            return np.asarray([getattr(t, attr) for t in topics], dtype=np.float64)

        names = [str(TopicName(t.topic)) for t in topics]
        return cls(
            names=names,
            hashes=np.asarray([crc32(n) for n in names], dtype=np.int64),
            rate_in=col("msg_rate_in"),
            rate_out=col("msg_rate_out"),
            thr_in=col("msg_throughput_in"),
            thr_out=col("msg_throughput_out"),
            sessions=np.asarray([t.sessions for t in topics], dtype=np.int64),
        )


def _figures(t: _Topics, layout: NamespaceBundles, s: SplitSettings) -> tuple[NDArray[np.intp], list[BundleFigures]]:
    idx = t.bundle_indexes(layout)
    k = len(layout)
    counts = np.bincount(idx, minlength=k)
    sessions = np.bincount(idx, weights=t.sessions.astype(np.float64), minlength=k)
    rate = np.bincount(idx, weights=t.rate, minlength=k)
    thr = np.bincount(idx, weights=t.throughput, minlength=k)
    out = []
    for i, b in enumerate(layout.bundles()):
        n, ss, r, th = int(counts[i]), int(round(sessions[i])), float(rate[i]), float(thr[i])
        out.append(BundleFigures(str(b), n, ss, r, th, s.reasons(n, ss, r, th)))
    return idx, out


def _split(
    layout: NamespaceBundles, target: BundleRange, t: _Topics, inside: NDArray[np.bool_], s: SplitSettings
) -> tuple[NamespaceBundles, list[BundleRange]]:
    """The broker's split of ``target`` with the configured algorithm, run by the core."""
    if s.algorithm == "range_equally_divide":
        return layout.split(target)
    pos = np.flatnonzero(inside)
    names = [t.names[i] for i in pos]
    if s.algorithm == "topic_count_equally_divide":
        return layout.split(target, s.algorithm, topics=names)
    stats = np.stack([t.rate_in[pos], t.rate_out[pos], t.thr_in[pos], t.thr_out[pos]], axis=1).tolist()
    return layout.split(
        target,
        s.algorithm,
        topics=names,
        topic_stats=stats,
        max_msg_rate=s.max_msg_rate,
        max_bandwidth_mbytes=s.max_bandwidth_mbytes,
        threshold_percent=s.flow_threshold_percent,
    )


def autosplit(
    topics: TopicsLike,
    bundles: Layout = 4,
    *,
    namespace: str | None = None,
    settings: SplitSettings | None = None,
    list_moved: int = 20,
    max_cycles: int = 100_000,
) -> AutoSplitReport:
    """Forecasts the broker's automatic splits of a namespace, round after round, until nothing more splits.

    ``topics`` are the namespace's topics (each partition its own) with
    their rates and sessions, from :func:`~pulsar_routing.plan.admin.read_admin_stats`
    or as :class:`~pulsar_routing.plan.admin.TopicTraffic`; an
    :class:`AdminStats` with only load-report figures gives the first
    round's decision alone. ``bundles`` is the layout now (a count or
    boundaries, or :func:`read_admin_bundles`). ``list_moved`` names that many
    moved topics, the most often moved first (0: all).
    """
    s = settings or SplitSettings()
    layout = layout_of(bundles)
    notes: list[str] = []
    if isinstance(topics, AdminStats):
        stats = topics.for_namespace(namespace)
        namespace = namespace or (stats.namespaces()[0] if stats.namespaces() else None)
        if not stats.topics:
            return _first_round_only(stats.bundles, layout, namespace, s)
        if stats.bundles:
            notes.append("The load-report figures are left aside: the per-topic figures let every round be forecast.")
        items: Sequence[TopicTraffic] = stats.topics
    else:
        items = list(topics)
        namespaces = sorted({t.namespace for t in items})
        if len(namespaces) > 1:
            raise PlanInputError(f"topics of {len(namespaces)} namespaces: forecast one namespace at a time")
        namespace = namespace or (namespaces[0] if namespaces else None)
    if not items:
        raise PlanInputError("no topics to forecast")
    t = _Topics.of(items)
    if len(set(t.names)) != len(t.names):
        raise PlanInputError("a topic is listed twice")
    before = len(layout)
    _, initial = _figures(t, layout, s)
    moves = np.zeros(len(t.names), dtype=np.int64)
    rounds: list[AutoSplitRound] = []
    declined: dict[str, str] = {}  # bundle -> why the split did not happen
    hits: dict[str, int] = {}
    cycle = 0
    while cycle < max_cycles:
        cycle += 1
        idx, figures = _figures(t, layout, s)
        ranges = layout.bundles()
        chosen: list[int] = []
        capped: list[str] = []
        waiting = False  # extensible: a bundle still counting its hits
        hits = {b: n for b, n in hits.items() if b in {f.bundle for f in figures}}
        for i, f in enumerate(figures):
            if f.topics < 2 or f.bundle in declined:
                continue
            if s.load_manager == "extensible" and not ranges[i].can_split():
                continue
            if not f.over:
                hits.pop(f.bundle, None)
                continue
            if s.load_manager == "extensible":
                hits[f.bundle] = hits.get(f.bundle, 0) + 1
                if hits[f.bundle] <= s.hit_count_threshold:
                    waiting = waiting or len(layout) < s.max_bundles
                    continue
            if len(layout) + len(chosen) < s.max_bundles:
                chosen.append(i)
                hits.pop(f.bundle, None)
                if s.load_manager == "extensible" and len(chosen) == s.max_splits_per_cycle:
                    waiting = True  # the rest wait for the next cycle
                    break
            else:
                capped.append(f.bundle)
        if not chosen:
            if waiting:
                continue
            break
        steps = []
        for i in chosen:
            f = figures[i]
            target = ranges[i]
            inside = idx == i
            note = None
            try:
                after, new = _split(layout, target, t, inside, s)
            except BundleError as err:
                after, new, note = layout, [], str(err)
            if not new:
                note = note or f"{s.algorithm} finds no split point"
                declined[f.bundle] = note
                steps.append(_step(f, [], 0, 0, note))
                continue
            layout = after
            moves[inside] += 1
            _, now = _figures(t, layout, s)
            by_name = {x.bundle: x for x in now}
            steps.append(
                _step(f, [by_name[str(b)] for b in new], int(inside.sum()), int(t.sessions[inside].sum()), None)
            )
        rounds.append(
            AutoSplitRound(
                round=len(rounds) + 1,
                cycle=cycle if s.load_manager == "extensible" else None,
                steps=steps,
                capped=capped,
                bundles_after=len(layout),
                boundaries_after=[f"0x{b:08x}" for b in layout.boundaries()],
            )
        )
        if not any(step.split for step in steps) and not waiting:
            break
    else:
        notes.append(f"Stopped after {max_cycles:,} cycles.")
    _, final = _figures(t, layout, s)
    still = [_why_over(f, t, layout, s, declined) for f in final if f.over]
    order = np.lexsort((np.arange(len(t.names)), -moves))
    listed = [int(i) for i in order if moves[i] > 0]
    if list_moved > 0:
        listed = listed[:list_moved]
    create, create_notes = _bundles_to_create(t, s)
    notes += create_notes
    if s.load_manager == "extensible" and rounds:
        notes.append(
            f"A bundle splits once over a threshold in more than {s.hit_count_threshold} consecutive split cycles "
            "(loadBalancerSplitIntervalMinutes apart, 1 minute by default)."
        )
    if any(r.capped for r in rounds):
        notes.append(
            "Within a round the broker takes the bundles in the order of its own hash map; here in hash-range order, "
            "so which bundles wait at the cap may differ."
        )
    if s.load_manager == "modular":
        notes.append(
            "The modular load manager judges rate and throughput on its long-term averages; these figures are "
            "the admin snapshot's."
        )
    return AutoSplitReport(
        namespace=namespace,
        settings=s,
        counting="per-topic",
        topics=len(t.names),
        bundles_before=before,
        bundles_after=len(layout),
        initial=initial,
        rounds=rounds,
        final=final,
        moved_topics=int((moves > 0).sum()),
        relookups=int(moves.sum()),
        client_relookups=int((moves * t.sessions).sum()),
        moved=[MovedTopic(t.names[i], int(moves[i]), int(t.sessions[i])) for i in listed],
        still_over=still,
        create_bundles=create,
        create_command=None if create is None or not rounds else _create_command(namespace, create),
        notes=notes,
    )


def _step(
    f: BundleFigures, new: list[BundleFigures], moved: int, sessions: int, note: str | None, *, split: bool | None = None
) -> AutoSplitStep:
    """The step of splitting the bundle of figures ``f`` (into ``new``; none when the split did not happen)."""
    return AutoSplitStep(
        f.bundle, f.over, f.topics, f.sessions, f.msg_rate, f.throughput, bool(new) if split is None else split,
        new, moved, sessions, note,
    )


def _create_command(namespace: str | None, n: int) -> str:
    return f"pulsar-admin namespaces create {namespace or 'TENANT/NS'} --bundles {n}"


def _partitions_for(rate: float, throughput: float, s: SplitSettings) -> int:
    need = max(rate / s.max_msg_rate if s.max_msg_rate else 0.0, throughput / s.max_bandwidth if s.max_bandwidth else 0.0)
    return max(2, math.ceil(need))


def _why_over(
    f: BundleFigures, t: _Topics, layout: NamespaceBundles, s: SplitSettings, declined: dict[str, str]
) -> StillOver:
    if f.topics < 2:
        idx = t.bundle_indexes(layout)
        target = layout.bundles().index(BundleRange.parse(f.bundle))
        inside = np.flatnonzero(idx == target)
        name = t.names[int(inside[0])] if inside.size else "(none)"
        rate = float(t.rate[inside].sum())
        thr = float(t.throughput[inside].sum())
        suggestion = None
        if rate > s.max_msg_rate or thr > s.max_bandwidth:
            suggestion = (
                f"Give it at least {_partitions_for(rate, thr, s)} partitions (each partition is placed on its own), "
                "or raise the limit."
            )
        elif s.max_sessions and f.sessions > s.max_sessions:
            suggestion = (
                "Partitions do not help here (each client connects to every partition): "
                "fewer clients per topic, or raise loadBalancerNamespaceBundleMaxSessions."
            )
        return StillOver(
            f.bundle,
            f.over,
            f"a single topic, {name}, hotter than the limit on its own: the broker does not split a bundle "
            "with fewer than 2 topics, and no split can take the topic away.",
            suggestion,
        )
    if f.bundle in declined:
        return StillOver(f.bundle, f.over, f"the split was tried and did nothing: {declined[f.bundle]}.", None)
    return StillOver(
        f.bundle,
        f.over,
        f"the namespace has {len(layout)} bundles, the cap (loadBalancerNamespaceMaximumBundles = {s.max_bundles}).",
        "Raise the cap, or spread the topics over more namespaces.",
    )


def _bundles_to_create(t: _Topics, s: SplitSettings) -> tuple[int | None, list[str]]:
    """The smallest default layout in which no bundle meets the split rule.

    Topics hotter than a limit on their own make every bundle they share
    split, at any count; then the count is the one that holds the others,
    once those topics are partitioned (and placed on their own).
    """
    hot = (t.rate > s.max_msg_rate) | (t.throughput > s.max_bandwidth)
    if s.max_sessions:
        hot |= t.sessions > s.max_sessions
    for keep, label in ((np.ones(len(t.names), dtype=bool), None), (~hot, "hot")):
        if label == "hot" and not hot.any():
            break
        sub = t.subset(keep)
        for n in range(1, s.max_bundles + 1):
            _, figures = _figures(sub, NamespaceBundles(n), s)
            if not any(f.over and f.topics >= 2 for f in figures):
                if label is None:
                    return n, []
                names = [t.names[i] for i in np.flatnonzero(hot)]
                return n, [
                    f"Every count up to {s.max_bundles} still splits the bundles of the topics hotter than a limit "
                    f"on their own ({', '.join(names[:3])}{', ...' if len(names) > 3 else ''}): partition them, "
                    f"and {n} bundles hold the rest without a split."
                ]
    return None, [f"No namespace created with up to {s.max_bundles} bundles avoids the splits."]


def _first_round_only(
    bundles: Sequence[BundleTraffic], layout: NamespaceBundles, namespace: str | None, s: SplitSettings
) -> AutoSplitReport:
    """Load-report figures only: which bundles split at the next round, and why; no further."""
    if not bundles:
        raise PlanInputError("no figures to forecast: give broker-stats topics, topics stats or a load report")
    by_name = {b.bundle: b for b in bundles}
    figures = []
    for r in layout.bundles():
        b = by_name.get(str(r))
        if b is None:
            figures.append(BundleFigures(str(r), 0, 0, 0.0, 0.0, []))
        else:
            figures.append(
                BundleFigures(str(r), b.topics, b.sessions, b.msg_rate, b.throughput,
                              s.reasons(b.topics, b.sessions, b.msg_rate, b.throughput))
            )
    unknown = sorted(set(by_name) - {f.bundle for f in figures})
    chosen: list[BundleFigures] = []
    capped: list[BundleFigures] = []
    for f in figures:
        if f.topics >= 2 and f.over:
            (chosen if len(layout) + len(chosen) < s.max_bundles else capped).append(f)
    steps = [_step(f, [], f.topics, f.sessions, "the new bundles need per-topic figures", split=True) for f in chosen]
    rounds = [] if not chosen else [
        AutoSplitRound(1, None, steps, [f.bundle for f in capped], len(layout) + len(chosen), [])
    ]
    notes = [
        "Only per-bundle figures (a load report): this is the next decision of the split rule. Give broker-stats "
        "topics (one file per broker) to forecast every round and what moves."
    ]
    if unknown:
        notes.append(f"The load report names bundles this layout does not have ({', '.join(unknown[:3])}): "
                     "give the namespace's layout with --admin-bundles.")
    return AutoSplitReport(
        namespace=namespace,
        settings=s,
        counting="per-bundle",
        topics=sum(f.topics for f in figures),
        bundles_before=len(layout),
        bundles_after=len(layout) + len(chosen),
        initial=figures,
        rounds=rounds,
        final=[],
        moved_topics=sum(f.topics for f in chosen),
        relookups=sum(f.topics for f in chosen),
        client_relookups=sum(f.sessions for f in chosen),
        moved=[],
        still_over=[
            StillOver(f.bundle, f.over, "a single topic: the broker does not split a bundle with fewer than 2 topics.",
                      None)
            for f in figures if f.over and f.topics < 2
        ],
        create_bundles=None,
        create_command=None,
        notes=notes,
    )


def demo_namespace(*, seed: int = 20240501) -> list[TopicTraffic]:
    """A busy namespace: 3,000 small topics, each with a producer and a consumer, and one hot topic."""
    rng = np.random.default_rng(seed + 3)
    out = []
    rates = rng.lognormal(2.0, 1.0, size=3_000)
    for i, r in enumerate(rates.tolist()):
        out.append(
            TopicTraffic(
                msg_rate_in=r, msg_rate_out=r, msg_throughput_in=r * 800, msg_throughput_out=r * 800,
                producers=1, consumers=1, topic=f"persistent://acme/iot/device-{i:04d}", namespace="acme/iot",
            )
        )
    out.append(
        TopicTraffic(
            msg_rate_in=24_000.0, msg_rate_out=24_000.0, msg_throughput_in=24e6, msg_throughput_out=24e6,
            producers=8, consumers=4, topic="persistent://acme/iot/telemetry", namespace="acme/iot",
        )
    )
    return out
