"""Capacity planning on the exact routing of the core.

From a sample of real keys (with optional weights: message counts), before
going live:

* :func:`analyze_skew` / :func:`skew`: load per partition, max/mean, CV,
  hot keys and a verdict, against uniform hashing of the same keys;
* :func:`recommend_partitions`: the partition count for a peak load,
  adjusted for the measured skew;
* :func:`drift`: what moves when going from N to M partitions;
* :func:`divergence`: what two hashing schemes (or client setups) route differently;
* :func:`client_divergence`: what every pair of clients (Pulsar profiles,
  Kafka partitioners) routes differently;
* :func:`bundle_spread`: topic-partitions over namespace bundles, the
  bundle count for a cap per bundle, and what a split moves;
* :func:`autosplit`: the broker's automatic bundle splits, round after
  round, from ``pulsar-admin`` outputs (:func:`read_admin_stats`,
  :func:`read_admin_bundles`);
* :func:`key_shared_balance` / :func:`analyze_key_shared`: traffic per
  consumer of a Key_Shared subscription, and what a join or leave moves;
* :func:`producer_queue`: ``maxPendingMessages`` and its memory.

Keys come as Python sequences, numpy or pyarrow arrays (:func:`key_sample`)
or files (:func:`read_keys`; :func:`file_batches` streams a file into
``stream_skew``, :func:`stream_drift`, :func:`stream_divergence`,
:func:`stream_client_divergence`, :func:`stream_partitions` and
:func:`stream_key_shared`, exact while the distinct keys fit and sampled
past that). Every result is a dataclass with
``to_dict()``, ``to_json()`` and a table ``str()``. :func:`run_demo` runs
everything on built-in demo data.

>>> from pulsar_routing.plan import skew
>>> report = skew(["user-1", "user-2", "user-3", "user-1"], 2)
>>> sum(report.load)
4.0
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .bundles import TopicSet, bundle_spread, bundles_needed, split_impact, topic_set
from .clients import DEFAULT_CLIENT_SETUPS, PROFILES, client_divergence, setup_partitions
from .demo import demo_orders, demo_topics, demo_user_suffixes, run_demo
from .drift import divergence, drift, expected_drift
from .inputs import KeySample, PlanInputError, file_batches, key_sample, read_keys
from .key_shared import (
    KeySharedUnavailable,
    analyze_key_shared,
    exclusive_ranges,
    key_shared_available,
    key_shared_balance,
    key_slots,
)
from .partitions import recommend_partitions
from .producer import producer_queue
from .results import (
    BundleCount,
    BundleLoad,
    BundleReport,
    ClientDivergencePair,
    ClientDivergenceReport,
    ConsumerLoad,
    DivergenceReport,
    DivergenceRow,
    DriftReport,
    HotKey,
    KeySharedAnalysis,
    KeySharedReport,
    MovedKey,
    PartitionCandidate,
    PartitionPlan,
    PlanReport,
    QueuePlan,
    Rebalance,
    Result,
    SkewAnalysis,
    SkewReport,
    SplitImpact,
    UniformBaseline,
    Verdict,
)
from .skew import SCHEMES, analyze_skew, skew
from .stats import uniform_baseline
from .stream import (
    DistinctSample,
    stream_client_divergence,
    stream_divergence,
    stream_drift,
    stream_key_shared,
    stream_partitions,
)

# The admin inputs and the auto-split forecast load on first use, so that
# every other plan command starts without them.
_LAZY = {
    "AdminStats": "admin",
    "TopicTraffic": "admin",
    "read_admin_bundles": "admin",
    "read_admin_stats": "admin",
    "AutoSplitReport": "split_forecast",
    "SplitSettings": "split_forecast",
    "autosplit": "split_forecast",
}
if TYPE_CHECKING:
    from .admin import AdminStats, TopicTraffic, read_admin_bundles, read_admin_stats
    from .split_forecast import AutoSplitReport, SplitSettings, autosplit


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module = importlib.import_module(f".{_LAZY[name]}", __name__)
        value = getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "AdminStats",
    "AutoSplitReport",
    "SplitSettings",
    "TopicTraffic",
    "autosplit",
    "read_admin_bundles",
    "read_admin_stats",
    "DistinctSample",
    "stream_client_divergence",
    "stream_divergence",
    "stream_drift",
    "stream_key_shared",
    "stream_partitions",
    "DEFAULT_CLIENT_SETUPS",
    "PROFILES",
    "SCHEMES",
    "BundleCount",
    "BundleLoad",
    "BundleReport",
    "ClientDivergencePair",
    "ClientDivergenceReport",
    "ConsumerLoad",
    "DivergenceReport",
    "DivergenceRow",
    "DriftReport",
    "HotKey",
    "KeySample",
    "KeySharedAnalysis",
    "KeySharedReport",
    "KeySharedUnavailable",
    "MovedKey",
    "PartitionCandidate",
    "PartitionPlan",
    "PlanInputError",
    "PlanReport",
    "QueuePlan",
    "Rebalance",
    "Result",
    "SkewAnalysis",
    "SkewReport",
    "SplitImpact",
    "TopicSet",
    "UniformBaseline",
    "Verdict",
    "analyze_key_shared",
    "analyze_skew",
    "bundle_spread",
    "bundles_needed",
    "client_divergence",
    "demo_orders",
    "demo_topics",
    "demo_user_suffixes",
    "divergence",
    "drift",
    "exclusive_ranges",
    "expected_drift",
    "file_batches",
    "key_sample",
    "key_shared_available",
    "key_shared_balance",
    "key_slots",
    "producer_queue",
    "read_keys",
    "recommend_partitions",
    "run_demo",
    "setup_partitions",
    "skew",
    "split_impact",
    "topic_set",
    "uniform_baseline",
]
