"""5. Key_Shared balance: traffic per consumer under each broker selector, and what a join or leave moves.

The sticky-key slot (``pulsar_routing.sticky_key_hash``) and the slot's
consumer (each selector's ``select``) come from the core, as do the ranges
a join or leave takes from each consumer (the selector's ``Impact``). The
bindings are looked up when an analysis runs, so this module imports
without them; :func:`key_shared_available` tells whether they are there.

A ``str`` key is the sticky key's UTF-8 bytes (``key(String)``), ``bytes``
the raw key (``keyBytes``: the broker Base64-decodes the partition key).
Keyless messages get the sticky key ``producerName-sequenceId`` (4.x), so
they spread over the slots: they count by slot share.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .inputs import KeysLike, KeySample, WeightsLike, key_sample
from .results import ConsumerLoad, KeySharedAnalysis, KeySharedReport, Rebalance
from .stats import load_stats, uniform_baseline

SELECTORS = ("consistent_hashing", "auto_split", "exclusive")
# Slots 1..65535: every selector's sticky-key hash lands here (0 becomes 1).
_SLOTS = np.arange(1, 65536)
_SLOT_SPACE = 65536


_EXCLUSIVE_JOIN = (
    "exclusive: a consumer that joins brings its own ranges, so nothing moves until ranges are re-planned."
)
_EXCLUSIVE_LEAVE = (
    "exclusive: the ranges of a consumer that leaves have no consumer until another one "
    "covering them connects; their messages wait."
)
_AUTO_SPLIT = (
    "auto_split halves the biggest range for each new consumer: with a consumer count that is not a "
    "power of two, some consumers hold twice the slots of others."
)


class KeySharedUnavailable(RuntimeError):
    """This build of pulsar_routing has no Key_Shared bindings yet."""


@dataclass(frozen=True)
class Bindings:
    """The core's Key_Shared entry points this module uses."""

    sticky_key_hash: Callable[[bytes, str], int]
    auto_split: Callable[..., Any]
    consistent_hashing: Callable[..., Any]
    exclusive: Callable[..., Any]
    # The batch form, sticky_key_hashes(keys, selector) -> array, where the build has it.
    sticky_key_hashes: Callable[[Any, str], Any] | None = None


_NAMES = {
    "sticky_key_hash": "sticky_key_hash",
    "auto_split": "AutoSplitSelector",
    "consistent_hashing": "ConsistentHashingSelector",
    "exclusive": "ExclusiveSelector",
}


def _bindings() -> Bindings:
    from .. import key_shared as native

    import pulsar_routing as pr

    found: dict[str, Any] = {}
    for field, name in _NAMES.items():
        value = getattr(pr, name, None) or getattr(native, name, None)
        if value is None:
            raise KeySharedUnavailable(
                f"this build of pulsar_routing has no {name}: the Key_Shared bindings are not there yet"
            )
        found[field] = value
    batch = getattr(pr, "sticky_key_hashes", None) or getattr(native, "sticky_key_hashes", None)
    return Bindings(**found, sticky_key_hashes=batch)


def key_shared_available() -> bool:
    """Whether the Key_Shared bindings (selectors and ``sticky_key_hash``) are in this build."""
    try:
        _bindings()
    except KeySharedUnavailable:
        return False
    return True


def exclusive_ranges(consumers: int) -> list[list[tuple[int, int]]]:
    """``consumers`` contiguous, near-equal sticky ranges covering [0, 65535], one list per consumer."""
    if consumers < 1:
        raise ValueError("at least one consumer")
    if consumers > _SLOT_SPACE:
        raise ValueError(f"at most {_SLOT_SPACE} consumers can hold exclusive ranges")
    bounds = [round(i * _SLOT_SPACE / consumers) for i in range(consumers + 1)]
    return [[(bounds[i], bounds[i + 1] - 1)] for i in range(consumers)]


def _make(b: Bindings, selector: str, points: int) -> Any:
    if selector == "auto_split":
        return b.auto_split()
    if selector == "consistent_hashing":
        return b.consistent_hashing(points=points)
    if selector == "exclusive":
        return b.exclusive()
    raise ValueError(f"unknown selector {selector!r}: choose from {', '.join(SELECTORS)}")


def _table(sel: Any) -> NDArray[np.int64]:
    """The consumer id of every slot 1..65535 (-1 for none), by the selector's own select."""
    select_slots = getattr(sel, "select_slots", None)
    if select_slots is not None:
        return np.asarray(select_slots(_SLOTS), dtype=np.int64)
    out = np.empty(_SLOTS.size, dtype=np.int64)
    select = sel.select
    for i, slot in enumerate(_SLOTS.tolist()):
        c = select(slot)
        out[i] = -1 if c is None else c
    return out


def _key_bytes(key: str | bytes) -> bytes:
    return key.encode("utf-8") if isinstance(key, str) else key


def key_slots(keys: KeysLike, selector: str = "consistent_hashing") -> NDArray[np.int64]:
    """The sticky-key slot of every distinct key of a sample (``sticky_key_hash`` of the core)."""
    sample = key_sample(keys)
    return _slots(sample, selector, _bindings())


def _slots(sample: KeySample, selector: str, b: Bindings) -> NDArray[np.int64]:
    if b.sticky_key_hashes is not None:
        return np.asarray(b.sticky_key_hashes(sample.keys, selector), dtype=np.int64)
    h = b.sticky_key_hash
    return np.fromiter(
        (h(_key_bytes(k), selector) for k in sample.key_list()), dtype=np.int64, count=sample.distinct_keys
    )


@dataclass(frozen=True)
class _State:
    table: NDArray[np.int64]  # slot-1 -> consumer id or -1
    per_key: NDArray[np.int64]  # distinct key -> consumer id or -1


def _state(sel: Any, slots: NDArray[np.int64]) -> _State:
    table = _table(sel)
    return _State(table=table, per_key=table[slots - 1] if slots.size else np.zeros(0, dtype=np.int64))


def _traffic(state: _State, sample: KeySample, ids: Sequence[int]) -> tuple[NDArray[np.float64], NDArray[np.float64], float]:
    """(traffic per consumer, slot share per consumer, unassigned traffic) for consumer ids."""
    size = max(ids, default=-1) + 1
    slot_counts = np.bincount(state.table[state.table >= 0], minlength=size).astype(np.float64)
    slot_share = slot_counts / _SLOTS.size
    assigned = state.per_key >= 0
    traffic = np.bincount(state.per_key[assigned], weights=sample.weights[assigned], minlength=size).astype(
        np.float64
    )
    traffic = traffic + sample.keyless * slot_share
    unassigned = float(sample.weights[~assigned].sum()) + sample.keyless * (1 - float(slot_share.sum()))
    pick = np.asarray(ids, dtype=np.intp)
    return traffic[pick], slot_share[pick], unassigned


def _rebalance(
    change: str,
    consumer: str,
    before: _State,
    after: _State,
    impact: Any,
    sample: KeySample,
    names: dict[int, str],
    ids_after: Sequence[int],
) -> Rebalance:
    orphaned = (after.per_key < 0) & (before.per_key >= 0)
    moved = (before.per_key != after.per_key) & ~orphaned
    keyed = sample.keyed_weight
    traffic, _, _ = _traffic(after, sample, ids_after)
    removed = getattr(impact, "removed", None) or {}
    added = getattr(impact, "added", None) or {}
    return Rebalance(
        change=change,
        consumer=consumer,
        moved_key_share=float(moved.mean()) if moved.size else 0.0,
        moved_traffic_share=float(sample.weights[moved].sum()) / keyed if keyed else 0.0,
        orphaned_key_share=float(orphaned.mean()) if orphaned.size else 0.0,
        orphaned_traffic_share=float(sample.weights[orphaned].sum()) / keyed if keyed else 0.0,
        losers=[names.get(int(c), str(c)) for c, r in sorted(removed.items()) if r],
        gainers=[names.get(int(c), str(c)) for c, r in sorted(added.items()) if r],
        imbalance_after=load_stats(traffic)[1],
    )


def _consumer_names(consumers: int | Sequence[str]) -> list[str]:
    if isinstance(consumers, int):
        if consumers < 1:
            raise ValueError("at least one consumer")
        return [f"consumer-{i}" for i in range(consumers)]
    names = [str(n) for n in consumers]
    if not names:
        raise ValueError("at least one consumer")
    return names


def key_shared_balance(
    keys: KeysLike,
    consumers: int | Sequence[str],
    selector: str = "consistent_hashing",
    *,
    weights: WeightsLike = None,
    points: int = 100,
    join: bool = True,
    leave: str | None = None,
) -> KeySharedReport:
    """Each consumer's share of slots and of the sampled traffic under one selector.

    ``consumers`` is a count (named ``consumer-0``, ...) or the names.
    ``join`` adds what one more consumer moves (not for ``exclusive``,
    whose consumers bring their own ranges); ``leave`` names the consumer
    that leaves (default: the last one).
    """
    sample = key_sample(keys, weights)
    b = _bindings()
    names = _consumer_names(consumers)
    if selector not in SELECTORS:
        raise ValueError(f"unknown selector {selector!r}: choose from {', '.join(SELECTORS)}")
    ranges = exclusive_ranges(len(names)) if selector == "exclusive" else None
    slots = _slots(sample, selector, b)

    def build(count: int) -> Any:
        sel = _make(b, selector, points)
        for i in range(count):
            if ranges is not None:
                sel.add(i, names[i], ranges[i])
            else:
                sel.add(i, names[i])
        return sel

    sel = build(len(names))
    ids = list(range(len(names)))
    by_id = dict(enumerate(names))
    state = _state(sel, slots)
    traffic, slot_share, unassigned = _traffic(state, sample, ids)
    per_key_counts = np.bincount(state.per_key[state.per_key >= 0], minlength=len(names))
    total = sample.total_weight
    loads = [
        ConsumerLoad(
            consumer_id=i,
            name=names[i],
            slots=int(round(slot_share[i] * _SLOTS.size)),
            slot_share=float(slot_share[i]),
            keys=int(per_key_counts[i]),
            traffic=float(traffic[i]),
            traffic_share=float(traffic[i]) / total if total else 0.0,
        )
        for i in ids
    ]
    notes: list[str] = []
    assigned_share = slot_share / slot_share.sum() if slot_share.sum() else None
    baseline = uniform_baseline(
        sample.weights, len(names), spread=sample.keyless, probabilities=assigned_share
    )

    join_report: Rebalance | None = None
    if join and selector != "exclusive":
        new_id = len(names)
        new_name = f"consumer-{new_id}"
        while new_name in names:
            new_name += "'"
        joined = build(len(names))
        impact = joined.add(new_id, new_name)
        join_report = _rebalance(
            "join", new_name, state, _state(joined, slots), impact, sample, {**by_id, new_id: new_name}, [*ids, new_id]
        )
    elif join:
        notes.append(_EXCLUSIVE_JOIN)

    leave_report: Rebalance | None = None
    if len(names) > 1 or selector == "exclusive":
        who = names[-1] if leave is None else leave
        if who not in names:
            raise ValueError(f"no consumer named {who!r}")
        gone = len(names) - 1 - names[::-1].index(who)
        left = build(len(names))
        impact = left.remove(gone)
        rest = [i for i in ids if i != gone]
        leave_report = _rebalance("leave", who, state, _state(left, slots), impact, sample, by_id, rest)
        if selector == "exclusive" and leave_report.orphaned_traffic_share:
            notes.append(_EXCLUSIVE_LEAVE)
    if selector == "auto_split" and len(names) & (len(names) - 1):
        notes.append(_AUTO_SPLIT)
    return KeySharedReport(
        selector=selector,
        consumers=loads,
        imbalance=load_stats(traffic)[1],
        slot_imbalance=load_stats(slot_share)[1],
        uniform_imbalance=baseline.weighted_max_mean,
        unassigned_traffic_share=unassigned / total if total else 0.0,
        join=join_report,
        leave=leave_report,
        notes=notes,
    )


def analyze_key_shared(
    keys: KeysLike,
    consumers: int | Sequence[str],
    selectors: str | Sequence[str] = SELECTORS,
    *,
    weights: WeightsLike = None,
    points: int = 100,
    join: bool = True,
    leave: str | None = None,
) -> KeySharedAnalysis:
    """:func:`key_shared_balance` under each selector."""
    sample = key_sample(keys, weights)
    names = [selectors] if isinstance(selectors, str) else list(selectors)
    reports = [
        key_shared_balance(sample, consumers, s, points=points, join=join, leave=leave) for s in names
    ]
    return KeySharedAnalysis(sample=sample.describe(), reports=reports)


# ---------------------------------------------------------------- past memory (sketch counting)

SketchShare = Callable[[NDArray[np.bool_]], tuple[float, float, float]]
"""(estimate, low, high) of the share of distinct keys for which a condition over the sampled keys holds."""


def key_shared_sketch_balance(
    slot_weights: NDArray[np.float64],
    sampled_slots: NDArray[np.int64],
    share: SketchShare,
    consumers: int | Sequence[str],
    selector: str = "consistent_hashing",
    *,
    keyless: float = 0.0,
    distinct: tuple[float, float, float],
    key_sample: int,
    points: int = 100,
    join: bool = True,
    leave: str | None = None,
) -> KeySharedReport:
    """:func:`key_shared_balance` from the keyed weight of every slot and a uniform sample of the distinct keys.

    ``slot_weights[s]`` is the keyed weight of slot ``s`` (0..65535), summed
    over every row, so everything measured in traffic (shares, imbalance,
    traffic moved or stalled by a join or leave) is exact: a slot's keys all
    go to the slot's consumer. ``sampled_slots`` are the slots of the
    sampled distinct keys and ``share`` the sample's estimate of a key
    share, with its 95% interval; ``distinct`` is the (estimate, low, high)
    of the distinct-key count. The uniform-hashing comparison needs every
    key's weight, so it is left out (None), and the notes say so.
    """
    b = _bindings()
    names = _consumer_names(consumers)
    if selector not in SELECTORS:
        raise ValueError(f"unknown selector {selector!r}: choose from {', '.join(SELECTORS)}")
    ranges = exclusive_ranges(len(names)) if selector == "exclusive" else None
    weights = np.asarray(slot_weights, dtype=np.float64)[_SLOTS]
    keyed = float(weights.sum())
    total = keyed + keyless
    estimate = distinct[0]

    def build(count: int) -> Any:
        sel = _make(b, selector, points)
        for i in range(count):
            if ranges is not None:
                sel.add(i, names[i], ranges[i])
            else:
                sel.add(i, names[i])
        return sel

    def traffic_of(table: NDArray[np.int64], ids: Sequence[int]) -> tuple[NDArray[np.float64], NDArray[np.float64], float]:
        size = max(ids, default=-1) + 1
        assigned = table >= 0
        slot_share = np.bincount(table[assigned], minlength=size).astype(np.float64) / _SLOTS.size
        traffic = np.bincount(table[assigned], weights=weights[assigned], minlength=size).astype(np.float64)
        traffic = traffic + keyless * slot_share
        unassigned = float(weights[~assigned].sum()) + keyless * (1 - float(slot_share.sum()))
        pick = np.asarray(ids, dtype=np.intp)
        return traffic[pick], slot_share[pick], unassigned

    def rebalance(change: str, consumer: str, after: NDArray[np.int64], impact: Any, by: dict[int, str],
                  ids_after: Sequence[int]) -> Rebalance:
        orphaned = (after < 0) & (table >= 0)
        moved = (table != after) & ~orphaned
        moved_k = share(moved[sampled_slots - 1])
        orphaned_k = share(orphaned[sampled_slots - 1])
        traffic_after, _, _ = traffic_of(after, ids_after)
        removed = getattr(impact, "removed", None) or {}
        added = getattr(impact, "added", None) or {}
        return Rebalance(
            change=change,
            consumer=consumer,
            moved_key_share=moved_k[0],
            moved_traffic_share=float(weights[moved].sum()) / keyed if keyed else 0.0,
            orphaned_key_share=orphaned_k[0],
            orphaned_traffic_share=float(weights[orphaned].sum()) / keyed if keyed else 0.0,
            losers=[by.get(int(c), str(c)) for c, r in sorted(removed.items()) if r],
            gainers=[by.get(int(c), str(c)) for c, r in sorted(added.items()) if r],
            imbalance_after=load_stats(traffic_after)[1],
            moved_key_share_low=moved_k[1],
            moved_key_share_high=moved_k[2],
            orphaned_key_share_low=orphaned_k[1],
            orphaned_key_share_high=orphaned_k[2],
        )

    sel = build(len(names))
    ids = list(range(len(names)))
    by_id = dict(enumerate(names))
    table = _table(sel)
    traffic, slot_share, unassigned = traffic_of(table, ids)
    owner = table[sampled_slots - 1] if sampled_slots.size else np.zeros(0, dtype=np.int64)
    loads = []
    for i in ids:
        k_share, k_low, k_high = share(owner == i)
        loads.append(
            ConsumerLoad(
                consumer_id=i,
                name=names[i],
                slots=int(round(slot_share[i] * _SLOTS.size)),
                slot_share=float(slot_share[i]),
                keys=round(k_share * estimate),
                traffic=float(traffic[i]),
                traffic_share=float(traffic[i]) / total if total else 0.0,
                key_share_low=k_low,
                key_share_high=k_high,
            )
        )
    notes = [
        "Sketch counting: traffic, slot shares, imbalance and the traffic a join or leave moves are exact "
        "(summed per slot over every message); key counts and key shares are estimated from a uniform sample "
        f"of {key_sample:,} distinct keys. No uniform-hashing comparison: simulating it needs the weight of "
        "every distinct key, which sketch counting does not keep."
    ]
    join_report: Rebalance | None = None
    if join and selector != "exclusive":
        new_id = len(names)
        new_name = f"consumer-{new_id}"
        while new_name in names:
            new_name += "'"
        joined = build(len(names))
        impact = joined.add(new_id, new_name)
        join_report = rebalance("join", new_name, _table(joined), impact, {**by_id, new_id: new_name}, [*ids, new_id])
    elif join:
        notes.append(_EXCLUSIVE_JOIN)
    leave_report: Rebalance | None = None
    if len(names) > 1 or selector == "exclusive":
        who = names[-1] if leave is None else leave
        if who not in names:
            raise ValueError(f"no consumer named {who!r}")
        gone = len(names) - 1 - names[::-1].index(who)
        left = build(len(names))
        impact = left.remove(gone)
        rest = [i for i in ids if i != gone]
        leave_report = rebalance("leave", who, _table(left), impact, by_id, rest)
        if selector == "exclusive" and leave_report.orphaned_traffic_share:
            notes.append(_EXCLUSIVE_LEAVE)
    if selector == "auto_split" and len(names) & (len(names) - 1):
        notes.append(_AUTO_SPLIT)
    return KeySharedReport(
        selector=selector,
        consumers=loads,
        imbalance=load_stats(traffic)[1],
        slot_imbalance=load_stats(slot_share)[1],
        uniform_imbalance=None,
        unassigned_traffic_share=unassigned / total if total else 0.0,
        join=join_report,
        leave=leave_report,
        notes=notes,
        counting="sketch",
        key_sample=key_sample,
        distinct_keys_low=math.floor(distinct[1]),
        distinct_keys_high=math.ceil(distinct[2]),
    )
