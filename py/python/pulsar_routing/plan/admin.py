"""What ``pulsar-admin`` prints, read as the planner's inputs.

Each file is recognised by its JSON shape, as the broker writes it:

* ``pulsar-admin namespaces bundles TENANT/NS``: ``BundlesData``,
  ``{"boundaries": ["0x00000000", ...], "numBundles": N}``, a bundle layout;
* ``pulsar-admin broker-stats topics``: one broker's topics, grouped
  ``{namespace: {bundle range: {"persistent"|"non-persistent": {topic: stats}}}}``
  (``PulsarStats.updateStats`` and each topic's ``updateRates`` write it);
* ``pulsar-admin topics stats TOPIC``: ``TopicStatsImpl``, which does not
  name its topic, so it is given as ``TOPIC=FILE``;
* ``pulsar-admin topics partitioned-stats --per-partition TOPIC``:
  ``PartitionedTopicStatsImpl``, with ``metadata`` and one ``TopicStatsImpl``
  per partition under ``partitions``;
* ``pulsar-admin broker-stats load-report``: ``LocalBrokerData`` (the
  modular load manager's report), whose ``lastStats`` holds one
  ``NamespaceBundleStats`` per bundle (the simple load manager's
  ``LoadReport`` calls it ``bundleStats``).

Sessions are producers plus consumers, as the broker's split rule counts
them (``NamespaceBundleStats.producerCount + consumerCount``).
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import NamespaceBundles, TopicName
from .inputs import PlanInputError

_RANGE = re.compile(r"^0x[0-9a-fA-F]{8}_0x[0-9a-fA-F]{8}$")
_SHAPES = (
    "namespaces bundles, broker-stats topics, topics stats, topics partitioned-stats --per-partition "
    "or broker-stats load-report"
)


@dataclass(frozen=True)
class _Figures:
    """What the split rule reads: message rate and throughput (in + out), sessions (producers + consumers)."""

    msg_rate_in: float
    msg_rate_out: float
    msg_throughput_in: float
    msg_throughput_out: float
    producers: int
    consumers: int

    @property
    def msg_rate(self) -> float:
        return self.msg_rate_in + self.msg_rate_out

    @property
    def throughput(self) -> float:
        return self.msg_throughput_in + self.msg_throughput_out

    @property
    def sessions(self) -> int:
        return self.producers + self.consumers


@dataclass(frozen=True)
class TopicTraffic(_Figures):
    """One topic (or partition) as the admin tools report it."""

    topic: str  # the canonical name
    namespace: str  # tenant/namespace
    bundle: str | None = None  # the bundle range the broker reported it in, if it did
    source: str = ""


@dataclass(frozen=True)
class BundleTraffic(_Figures):
    """One bundle's ``NamespaceBundleStats`` from a load report."""

    namespace: str
    bundle: str  # the range, 0x..._0x...
    topics: int
    source: str = ""


@dataclass
class AdminStats:
    """Everything read from ``--admin-stats`` files: per-topic and per-bundle figures."""

    topics: list[TopicTraffic] = field(default_factory=list)
    bundles: list[BundleTraffic] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)

    def namespaces(self) -> list[str]:
        return sorted({t.namespace for t in self.topics} | {b.namespace for b in self.bundles})

    def for_namespace(self, namespace: str | None) -> AdminStats:
        """The figures of one namespace; with None, of the only one there is."""
        names = self.namespaces()
        if namespace is None:
            if len(names) > 1:
                raise PlanInputError(
                    f"the admin stats cover {len(names)} namespaces ({', '.join(names[:4])}"
                    f"{', ...' if len(names) > 4 else ''}): choose one with --namespace"
                )
            return self
        if namespace not in names:
            raise PlanInputError(f"no stats for namespace {namespace} (the files have: {', '.join(names) or 'none'})")
        return AdminStats(
            topics=[t for t in self.topics if t.namespace == namespace],
            bundles=[b for b in self.bundles if b.namespace == namespace],
            sources=self.sources,
        )


# ---------------------------------------------------------------- layouts


def read_admin_bundles(path: str | os.PathLike[str]) -> NamespaceBundles:
    """The layout printed by ``pulsar-admin namespaces bundles TENANT/NS`` (``BundlesData``)."""
    p, doc = _load(path)
    return _bundles_data(p.name, doc)


def _bundles_data(name: str, doc: Any) -> NamespaceBundles:
    if not _is_bundles_data(doc):
        raise PlanInputError(f"{name}: not the output of pulsar-admin namespaces bundles (no \"boundaries\" list)")
    boundaries = doc["boundaries"]
    if not all(isinstance(b, str) for b in boundaries):
        raise PlanInputError(f"{name}: the boundaries must be strings such as \"0x40000000\"")
    from .. import validate_full_range

    try:
        validate_full_range(boundaries)
        layout = NamespaceBundles.from_boundaries(boundaries)
    except ValueError as err:
        raise PlanInputError(f"{name}: {err}") from None
    n = doc.get("numBundles")
    if isinstance(n, int) and n not in (0, len(layout)):
        raise PlanInputError(f"{name}: numBundles is {n} but the boundaries make {len(layout)} bundles")
    return layout


def _is_bundles_data(doc: Any) -> bool:
    return isinstance(doc, dict) and isinstance(doc.get("boundaries"), list) and set(doc) <= {"boundaries", "numBundles"}


# ---------------------------------------------------------------- stats


def read_admin_stats(paths: Iterable[str | os.PathLike[str]]) -> AdminStats:
    """Per-topic and per-bundle figures from admin outputs, one file each (say one per broker).

    A ``topics stats`` file does not name its topic: give it as
    ``TOPIC=FILE``. A topic (or bundle) reported twice is an error: the
    files would disagree on its figures.
    """
    out = AdminStats()
    seen_topics: dict[str, str] = {}
    seen_bundles: dict[tuple[str, str], str] = {}
    for item in paths:
        topic, path = _split_topic_arg(str(item))
        p, doc = _load(path)
        kind, topics, bundles = _read_doc(p.name, doc, topic)
        for t in topics:
            if t.topic in seen_topics:
                raise PlanInputError(f"{p.name}: topic {t.topic} is already in {seen_topics[t.topic]}")
            seen_topics[t.topic] = p.name
        for b in bundles:
            key = (b.namespace, b.bundle)
            if key in seen_bundles:
                raise PlanInputError(f"{p.name}: bundle {b.namespace}/{b.bundle} is already in {seen_bundles[key]}")
            seen_bundles[key] = p.name
        out.topics.extend(topics)
        out.bundles.extend(bundles)
        out.sources.append(f"{p.name} ({kind})")
    if not out.sources:
        raise PlanInputError("no admin stats files")
    return out


def _split_topic_arg(item: str) -> tuple[str | None, str]:
    """``TOPIC=FILE`` (for ``topics stats``) or ``FILE``."""
    if "=" in item and not Path(item).exists():
        topic, _, path = item.partition("=")
        if topic:
            return topic, path
    return None, item


def _load(path: str | os.PathLike[str]) -> tuple[Path, Any]:
    p = Path(path)
    if not p.is_file():
        raise PlanInputError(f"{p}: no such file")
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise PlanInputError(f"{p.name}: not valid UTF-8") from None
    try:
        return p, json.loads(text)
    except json.JSONDecodeError as err:
        raise PlanInputError(f"{p.name}: not JSON ({err.msg} at line {err.lineno})") from None


def _read_doc(
    name: str, doc: Any, topic: str | None
) -> tuple[str, list[TopicTraffic], list[BundleTraffic]]:
    if not isinstance(doc, dict):
        raise PlanInputError(f"{name}: not a pulsar-admin JSON object ({_SHAPES})")
    if topic is not None and not _is_topic_stats(doc):
        raise PlanInputError(f"{name}: TOPIC=FILE is for the output of pulsar-admin topics stats")
    if "lastStats" in doc or ("bundleStats" in doc and isinstance(doc.get("bundleStats"), dict)):
        return "broker-stats load-report", [], _load_report(name, doc)
    if "metadata" in doc and "partitions" in doc:
        return "topics partitioned-stats", _partitioned_stats(name, doc), []
    if _is_topic_stats(doc):
        if topic is None:
            raise PlanInputError(
                f"{name}: pulsar-admin topics stats does not name its topic: give it as TOPIC={name}"
            )
        return "topics stats", [_topic_stats(name, _canonical(name, topic), doc)], []
    if _is_bundles_data(doc):
        raise PlanInputError(f"{name}: a bundle layout (namespaces bundles): give it with --admin-bundles")
    if _looks_like_broker_topics(doc):
        return "broker-stats topics", _broker_topics(name, doc), []
    if "weightedMaxEMA" in doc:  # BrokerLoadData of the extensible load manager
        raise PlanInputError(
            f"{name}: the extensible load manager's load report has no per-bundle figures: give broker-stats topics"
        )
    raise PlanInputError(f"{name}: not an output this reads ({_SHAPES})")


def _is_topic_stats(doc: dict[str, Any]) -> bool:
    return "msgRateIn" in doc and isinstance(doc.get("subscriptions"), dict)


def _looks_like_broker_topics(doc: dict[str, Any]) -> bool:
    if not doc:
        return False
    for ns, bundles in doc.items():
        if not isinstance(ns, str) or ns.count("/") not in (1, 2) or not isinstance(bundles, dict):
            return False
        for rng, kinds in bundles.items():
            if not _RANGE.match(str(rng)) or not isinstance(kinds, dict):
                return False
            if not set(kinds) <= {"persistent", "non-persistent"}:
                return False
    return True


def _canonical(name: str, topic: str) -> str:
    try:
        return str(TopicName(topic))
    except ValueError as err:
        raise PlanInputError(f"{name}: {err}") from None


def _namespace_of(topic: str) -> str:
    return TopicName(topic).namespace


def _number(name: str, where: str, value: Any) -> float:
    if value is None:
        return 0.0
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PlanInputError(f"{name}: {where} is not a number")
    x = float(value)
    if not math.isfinite(x) or x < 0:
        raise PlanInputError(f"{name}: {where} is {value}, not a finite number >= 0")
    return x


def _count(name: str, where: str, value: Any) -> int:
    x = _number(name, where, value)
    if not x.is_integer():
        raise PlanInputError(f"{name}: {where} is {value}, not a whole number")
    return int(x)


def _consumers(name: str, topic: str, doc: Mapping[str, Any]) -> int:
    subs = doc.get("subscriptions") or {}
    if not isinstance(subs, dict):
        raise PlanInputError(f"{name}: {topic}: subscriptions is not an object")
    total = 0
    for sub, stats in subs.items():
        consumers = stats.get("consumers") if isinstance(stats, dict) else None
        if consumers is None:
            continue
        if not isinstance(consumers, list):
            raise PlanInputError(f"{name}: {topic}: the consumers of subscription {sub!r} are not a list")
        total += len(consumers)
    return total


def _rates(name: str, topic: str, doc: Mapping[str, Any]) -> tuple[float, float, float, float]:
    return (
        _number(name, f"{topic} msgRateIn", doc.get("msgRateIn")),
        _number(name, f"{topic} msgRateOut", doc.get("msgRateOut")),
        _number(name, f"{topic} msgThroughputIn", doc.get("msgThroughputIn")),
        _number(name, f"{topic} msgThroughputOut", doc.get("msgThroughputOut")),
    )


def _topic_stats(name: str, topic: str, doc: Mapping[str, Any], bundle: str | None = None) -> TopicTraffic:
    """A ``TopicStatsImpl`` (topics stats) or one topic of broker-stats topics."""
    if not isinstance(doc, dict):
        raise PlanInputError(f"{name}: the stats of {topic} are not an object")
    rate_in, rate_out, thr_in, thr_out = _rates(name, topic, doc)
    if "producerCount" in doc:  # broker-stats topics: the broker's own count (remote producers too)
        producers = _count(name, f"{topic} producerCount", doc["producerCount"])
    else:  # topics stats: local publishers only
        publishers = doc.get("publishers") or []
        if not isinstance(publishers, list):
            raise PlanInputError(f"{name}: {topic}: publishers is not a list")
        producers = len(publishers)
    return TopicTraffic(
        topic=topic,
        namespace=_namespace_of(topic),
        msg_rate_in=rate_in,
        msg_rate_out=rate_out,
        msg_throughput_in=thr_in,
        msg_throughput_out=thr_out,
        producers=producers,
        consumers=_consumers(name, topic, doc),
        bundle=bundle,
        source=name,
    )


def _partitioned_stats(name: str, doc: dict[str, Any]) -> list[TopicTraffic]:
    parts = doc.get("partitions")
    if not isinstance(parts, dict):
        raise PlanInputError(f"{name}: partitions is not an object")
    if not parts:
        raise PlanInputError(
            f"{name}: partitioned-stats without per-partition figures: run it with --per-partition"
        )
    return [_topic_stats(name, _canonical(name, t), s) for t, s in parts.items()]


def _broker_topics(name: str, doc: dict[str, Any]) -> list[TopicTraffic]:
    out = []
    for ns, bundles in doc.items():
        for rng, kinds in bundles.items():
            for kind, topics in kinds.items():
                if not isinstance(topics, dict):
                    raise PlanInputError(f"{name}: {ns}/{rng}/{kind} is not an object of topics")
                for topic, stats in topics.items():
                    canonical = _canonical(name, topic)
                    if _namespace_of(canonical) != ns:
                        raise PlanInputError(f"{name}: topic {topic} is listed under namespace {ns}")
                    out.append(_topic_stats(name, canonical, stats, bundle=str(rng).lower()))
    if not out:
        raise PlanInputError(f"{name}: broker-stats topics lists no topics")
    return out


def _load_report(name: str, doc: dict[str, Any]) -> list[BundleTraffic]:
    stats = doc.get("lastStats", doc.get("bundleStats"))
    if not isinstance(stats, dict):
        raise PlanInputError(f"{name}: lastStats is not an object")
    out = []
    for full, s in stats.items():
        ns, _, rng = str(full).rpartition("/")
        if not ns or not _RANGE.match(rng) or not isinstance(s, dict):
            raise PlanInputError(f"{name}: {full!r} is not a bundle name such as tenant/ns/0x00000000_0x40000000")
        out.append(
            BundleTraffic(
                namespace=ns,
                bundle=rng.lower(),
                topics=_count(name, f"{full} topics", s.get("topics")),
                producers=_count(name, f"{full} producerCount", s.get("producerCount")),
                consumers=_count(name, f"{full} consumerCount", s.get("consumerCount")),
                msg_rate_in=_number(name, f"{full} msgRateIn", s.get("msgRateIn")),
                msg_rate_out=_number(name, f"{full} msgRateOut", s.get("msgRateOut")),
                msg_throughput_in=_number(name, f"{full} msgThroughputIn", s.get("msgThroughputIn")),
                msg_throughput_out=_number(name, f"{full} msgThroughputOut", s.get("msgThroughputOut")),
                source=name,
            )
        )
    return out


def admin_topic_set(stats: AdminStats, *, rules: str = "4.2") -> Any:
    """The topics of admin stats as a :class:`~pulsar_routing.plan.bundles.TopicSet`.

    Each partition is its own topic (the broker places each partition by
    its own name); the weight is its message rate in plus out, with the
    throughput and the sessions alongside.
    """
    from .bundles import topic_set

    if not stats.topics:
        raise PlanInputError(
            "no per-topic figures: give broker-stats topics, topics stats or topics partitioned-stats --per-partition "
            "(a load report has per-bundle figures only: plan autosplit reads it)"
        )
    names = [t.topic for t in stats.topics]
    ts = topic_set(names, weights=[t.msg_rate for t in stats.topics], rules=rules)
    import numpy as np

    return ts.with_extra(
        throughput=np.asarray([t.throughput for t in stats.topics], dtype=np.float64),
        sessions=np.asarray([t.sessions for t in stats.topics], dtype=np.float64),
    )


def layout_check(stats: AdminStats, layout: NamespaceBundles) -> list[str]:
    """Notes where the stats name bundles that the layout does not have (stats from another layout)."""
    ranges = {str(b) for b in layout.bundles()}
    named = sorted({t.bundle for t in stats.topics if t.bundle} | {b.bundle for b in stats.bundles})
    unknown = [b for b in named if b not in ranges]
    if not unknown:
        return []
    return [
        f"The stats name {len(unknown)} bundle(s) that this layout does not have ({', '.join(unknown[:3])}"
        f"{', ...' if len(unknown) > 3 else ''}): give the namespace's layout with --admin-bundles."
    ]


def bundle_of_stats(stats: Sequence[BundleTraffic]) -> dict[str, BundleTraffic]:
    return {b.bundle: b for b in stats}
