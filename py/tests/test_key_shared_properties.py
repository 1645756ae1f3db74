"""Hypothesis properties of the selectors, checked through Python.

Snapshots tile their range and agree with select on every slot; an impact
is the change of owner of every slot; consistent hashing never moves a
range between two consumers that both stay; removing the consumer just
added restores the snapshot; the batch lookup equals the one-key lookup.
"""

from __future__ import annotations

from typing import Optional, Union

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

import pulsar_routing as pr

from .test_golden_key_shared import clipped, slot_runs

RangeSelector = Union[pr.AutoSplitSelector, pr.ConsistentHashingSelector]

# (add?, consumer id, name): few ids and names, so that consumers leave and
# come back and names repeat.
ops = st.lists(
    st.tuples(st.booleans(), st.integers(0, 24), st.sampled_from(["a", "b", "c", "ü", ""])),
    max_size=30,
)
auto_split = st.builds(pr.AutoSplitSelector, st.sampled_from([2, 4, 16, 1024, 65536]))
consistent = st.builds(
    pr.ConsistentHashingSelector, st.sampled_from([0, 1, 3, 7, 20]), st.sampled_from([1, 97, 65535])
)


def all_slots(sel: RangeSelector) -> NDArray[np.int64]:
    """Every slot of the snapshot: AutoSplit reports up to the range size itself."""
    if isinstance(sel, pr.AutoSplitSelector):
        return np.arange(0, sel.range_size + 1, dtype=np.int64)
    return np.arange(1, sel.range_max + 1, dtype=np.int64)


def check_snapshot(sel: RangeSelector, owners: NDArray[np.int64]) -> None:
    """The snapshot tiles the whole range and names the owner of every slot."""
    assignments = sel.assignments()
    if not assignments:
        assert (owners == -1).all()
        return
    slots = all_slots(sel)
    assert assignments[0][0] == slots[0] and assignments[-1][1] == slots[-1]
    expanded = np.concatenate([np.full(end - start + 1, c, dtype=np.int64) for start, end, c in assignments])
    np.testing.assert_array_equal(owners, expanded)
    merged: dict[int, list[tuple[int, int]]] = {}
    for start, end, consumer in assignments:
        merged.setdefault(consumer, []).append((start, end))
    assert sel.ranges_by_consumer() == {c: clipped_to(r, int(slots[-1])) for c, r in merged.items()}


def clipped_to(ranges: list[tuple[int, int]], top: int) -> list[tuple[int, int]]:
    """Merged when adjacent; `clipped` cuts at 65535, AutoSplit's top is 65536."""
    out: list[tuple[int, int]] = []
    for start, end in ranges:
        if out and out[-1][1] + 1 >= start:
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    assert all(end <= top for _, end in out)
    return out


def run(sel: RangeSelector, steps: list[tuple[bool, int, str]]) -> None:
    slots = all_slots(sel)
    owners = sel.select_slots(slots)
    check_snapshot(sel, owners)
    for add, consumer, name in steps:
        try:
            impact = sel.add(consumer, name) if add else sel.remove(consumer)
        except pr.ConsumerAssignError:
            np.testing.assert_array_equal(sel.select_slots(slots), owners)
            continue
        after = sel.select_slots(slots)
        changed = owners != after
        base = int(slots[0])
        removed = {c: [(s + base, e + base) for s, e in r] for c, r in slot_runs(changed & (owners >= 0), owners).items()}
        added = {c: [(s + base, e + base) for s, e in r] for c, r in slot_runs(changed & (after >= 0), after).items()}
        assert impact.removed == removed and impact.added == added
        if isinstance(sel, pr.ConsistentHashingSelector):
            # Only the consumer added gains; only the one removed loses.
            assert set(impact.added if add else impact.removed) <= {consumer}
            assert not (impact.removed if add else impact.added).keys() & {consumer}
        owners = after
        check_snapshot(sel, owners)


@settings(max_examples=60)
@given(auto_split, ops)
def test_auto_split_properties(sel: pr.AutoSplitSelector, steps: list[tuple[bool, int, str]]) -> None:
    run(sel, steps)


@settings(max_examples=60)
@given(consistent, ops)
def test_consistent_properties(sel: pr.ConsistentHashingSelector, steps: list[tuple[bool, int, str]]) -> None:
    run(sel, steps)


@settings(max_examples=60)
@given(st.one_of(auto_split, consistent), ops, st.sampled_from(["a", "new", "ü"]))
def test_remove_of_the_consumer_just_added_restores(
    sel: RangeSelector, steps: list[tuple[bool, int, str]], name: str
) -> None:
    for add, consumer, consumer_name in steps:
        try:
            sel.add(consumer, consumer_name) if add else sel.remove(consumer)
        except pr.ConsumerAssignError:
            pass
    before = sel.assignments()
    try:
        added = sel.add(1000, name)
    except pr.ConsumerAssignError:
        return  # AutoSplit out of ranges
    removed = sel.remove(1000)
    assert sel.assignments() == before
    # The remove undoes the add exactly.
    assert removed.removed == added.added and removed.added == added.removed


declared = st.lists(
    st.tuples(st.integers(-10, 65_600), st.integers(0, 3000)).map(lambda p: (p[0], p[0] + p[1])),
    max_size=4,
)


@settings(max_examples=60)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 8), declared), max_size=20), st.booleans())
def test_exclusive_properties(steps: list[tuple[bool, int, list[tuple[int, int]]]], legacy: bool) -> None:
    sel = pr.ExclusiveSelector(legacy=legacy)
    slots = np.arange(65536, dtype=np.int64)
    owners = sel.select_slots(slots)
    for add, consumer, ranges in steps:
        try:
            impact = sel.add(consumer, "", ranges) if add else sel.remove(consumer)
        except pr.ConsumerAssignError:
            np.testing.assert_array_equal(sel.select_slots(slots), owners)
            continue
        after = sel.select_slots(slots)
        changed = owners != after
        assert impact.removed == slot_runs(changed & (owners >= 0), owners)
        assert impact.added == slot_runs(changed & (after >= 0), after)
        owners = after
        if not legacy:
            # select is the declared ranges, nothing more.
            want = np.full(65536, -1, dtype=np.int64)
            for c, ranges_of_c in sel.ranges_by_consumer().items():
                for start, end in clipped(ranges_of_c):
                    assert (want[start : end + 1] == -1).all()
                    want[start : end + 1] = c
            np.testing.assert_array_equal(owners, want)


keys = st.lists(st.one_of(st.none(), st.text(), st.binary()), max_size=40)


@given(st.one_of(auto_split, consistent), st.lists(st.text(max_size=6), min_size=1, max_size=6), keys)
def test_batch_equals_one_key(sel: RangeSelector, names: list[str], key_list: list[Optional[Union[str, bytes]]]) -> None:
    for i, name in enumerate(names):
        try:
            sel.add(i, name)
        except pr.ConsumerAssignError:
            break
    want = []
    for key in key_list:
        owner = sel.select_key(pr.NONE_KEY if key is None else key)
        want.append(-1 if owner is None else owner)
    assert sel.select_keys(key_list).tolist() == want
    assert sel.select_keys(np.array(key_list, dtype=object)).tolist() == want
    slots = pr.sticky_key_hashes(key_list, sel)
    lo, hi = sel.key_hash_range
    assert all(max(lo, 1) <= s <= hi for s in slots.tolist())
