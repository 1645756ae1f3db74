"""Built-in demo data: deterministic (fixed seeds), shaped like real key-design mistakes.

* :func:`demo_orders`: order numbers whose last two digits are a sales
  channel code, weighted by the events each order produces, with a few
  bulk B2B orders far heavier than the rest.
* :func:`demo_user_suffixes`: a message log keyed by the last four digits
  of user IDs. The IDs were registered in batches, each starting at a
  round number, so the suffixes cluster in 0000-0599.
* :func:`demo_topics`: a namespace of partitioned and non-partitioned
  topics with their traffic.

:func:`run_demo` runs every analysis on them.
"""

from __future__ import annotations

import numpy as np

from .bundles import TopicSet, bundle_spread, topic_set
from .clients import client_divergence
from .drift import divergence, drift
from .inputs import KeySample, key_sample
from .key_shared import analyze_key_shared, key_shared_available
from .partitions import recommend_partitions
from .producer import producer_queue
from .results import PlanReport
from .skew import SCHEMES, analyze_skew

SEED = 20240501
# Sales channels and their share of orders: web, app, partner, call centre.
CHANNELS = ((1, 0.55), (7, 0.25), (42, 0.15), (70, 0.05))
DEMO_PARTITIONS = (12, 16, 32)
NAMESPACE = "persistent://acme/shop"


def demo_orders(orders: int = 30_000, *, seed: int = SEED) -> KeySample:
    """Order numbers ``<sequence><channel code>`` weighted by their events (a day of an order topic)."""
    rng = np.random.default_rng(seed)
    sequence = 4_200_000 + np.arange(orders)
    codes, p = zip(*CHANNELS)
    channel = rng.choice(np.asarray(codes), size=orders, p=np.asarray(p))
    keys = np.char.add(sequence.astype(str), np.char.zfill(channel.astype(str), 2))
    # Created, paid, packed, shipped, ... about 3 events an order.
    events = rng.geometric(0.3, size=orders).astype(np.float64)
    # A few bulk B2B orders, each updated line by line.
    bulk = rng.choice(orders, size=4, replace=False)
    events[bulk] = rng.integers(400, 900, size=bulk.size)
    return key_sample(keys, events, source="demo orders (order number = sequence + 2-digit channel code)")


def demo_user_suffixes(batches: int = 60, *, messages: int = 200_000, seed: int = SEED) -> KeySample:
    """A message log keyed by the last 4 digits of batch-registered user IDs."""
    rng = np.random.default_rng(seed + 1)
    starts = 1_000_000 + rng.choice(500, size=batches, replace=False) * 10_000
    sizes = rng.integers(50, 600, size=batches)
    ids = np.concatenate([np.arange(s, s + n) for s, n in zip(starts.tolist(), sizes.tolist())])
    # Some users are far more active than others.
    activity = rng.lognormal(0.0, 1.0, size=ids.size)
    users = rng.choice(ids, size=messages, p=activity / activity.sum())
    keys = np.char.zfill((users % 10_000).astype(str), 4)
    return key_sample(keys, source="demo user events (key = last 4 digits of batch-registered user IDs)")


def demo_topics(*, seed: int = SEED) -> TopicSet:
    """A namespace: a few partitioned topics and many small per-tenant topics, with msg/s each."""
    rng = np.random.default_rng(seed + 2)
    partitioned = {
        "orders": 16,
        "payments": 12,
        "inventory": 8,
        "shipments": 8,
        "clickstream": 32,
        "notifications": 4,
    }
    topics: dict[str, int] = {f"{NAMESPACE}/{t}": p for t, p in partitioned.items()}
    for i in range(240):
        topics[f"{NAMESPACE}/store-{i:03d}-events"] = 0
    rates = rng.lognormal(3.0, 1.2, size=len(topics))
    for i, (name, p) in enumerate(topics.items()):
        if p:
            rates[i] = p * 2_000.0
    return topic_set(topics, weights=rates)


def run_demo(*, key_shared: bool | None = None, consumers: int = 7) -> PlanReport:
    """Every analysis on the demo data. ``key_shared=None`` runs Key_Shared if the bindings are there."""
    orders = demo_orders()
    users = demo_user_suffixes()
    topics = demo_topics()
    skew_orders = analyze_skew(orders, DEMO_PARTITIONS, SCHEMES)
    skew_users = analyze_skew(users, DEMO_PARTITIONS, SCHEMES)
    plan = recommend_partitions(
        60_000,
        5_000,
        peak_read=120_000,
        per_partition_read=15_000,
        keys=orders,
        scheme="java_string",
        consumers=32,
    )
    notes: list[str] = []
    run_ks = key_shared_available() if key_shared is None else key_shared
    ks = analyze_key_shared(orders, consumers) if run_ks else None
    if ks is None:
        notes.append("Key_Shared balance skipped: this build of pulsar_routing has no Key_Shared selectors yet.")
    hottest = max(r.max_mean for r in skew_orders.reports if r.scheme == "java_string" and r.partitions == 16)
    return PlanReport(
        title="pulsar-routing capacity planner: demo (built-in, deterministic data)",
        samples=[orders.describe(), users.describe(), f"demo topics: {len(topics.names)} topics in {NAMESPACE}"],
        skew=[skew_orders, skew_users],
        partitions=plan,
        drift=drift(orders, 12, 16, "java_string", list_moved=10),
        divergence=divergence(orders, (12, 16, 32)),
        bundles=bundle_spread(topics, 4, max_per_bundle=60, split=True),
        key_shared=ks,
        queue=producer_queue(60_000, 5, 1_024, partitions=16, max_mean=hottest),
        notes=notes,
        client_divergence=client_divergence(
            orders, (12, 16), ("java", "go", "cpp:boost_1_74_x86_64", "dotpulsar", "java:murmur3_32", "kafka")
        ),
    )
