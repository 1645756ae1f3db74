"""Every field of the keyshared_*.jsonl golden files (real Java output), through the Python API.

Slots for all three key hash ranges; every AutoSplit and consistent-hashing
scenario step (assignments or their sha256, ranges_by_consumer, removed and
added, lookups, name indexes, ring points, errors); every exclusive step
under the current and the legacy rules, with the client's validation.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from typing import Any, Union

import numpy as np
import pyarrow as pa
import pytest
from numpy.typing import NDArray

import pulsar_routing as pr

from .golden import golden

Ranges = dict[int, list[tuple[int, int]]]
Selector = Union[pr.AutoSplitSelector, pr.ConsistentHashingSelector, pr.ExclusiveSelector]
CLASSIC_RANGE_MAX = 2_147_483_646


def of_type(name: str, kind: str) -> list[dict[str, Any]]:
    return [row for row in golden(name) if row["type"] == kind]


def json_ranges(value: dict[str, list[list[int]]]) -> Ranges:
    return {int(consumer): [(r[0], r[1]) for r in ranges] for consumer, ranges in value.items()}


def digest(assignments: Sequence[tuple[int, int, int]]) -> str:
    """``assignments_sha256`` of spec section 11."""
    text = "".join(f"{start},{end},{consumer}\n" for start, end, consumer in assignments)
    return hashlib.sha256(text.encode()).hexdigest()


def check_lookups(sel: Selector, lookups: list[list[Any]], at: str) -> None:
    slots = [slot for slot, _ in lookups]
    expected = [consumer for _, consumer in lookups]
    assert [sel.select(slot) for slot in slots] == expected, at
    batch = sel.select_slots(np.array(slots, dtype=np.int64))
    assert batch.tolist() == [-1 if c is None else c for c in expected], at


# --- keyshared_hash.jsonl ---------------------------------------------------


def key_rows() -> list[dict[str, Any]]:
    rows = of_type("keyshared_hash", "key")
    assert len(rows) > 1500, "keyshared_hash.jsonl looks truncated"
    return rows


FIELDS = {
    "auto_split": "hash_range_0_65535",
    "exclusive": "hash_range_0_65535",
    "consistent_hashing": "hash_range_1_65535",
}


def test_hash_rows_one_key() -> None:
    classic = pr.ConsistentHashingSelector(range_max=CLASSIC_RANGE_MAX)
    selectors: dict[str, Selector] = {
        "auto_split": pr.AutoSplitSelector(),
        "exclusive": pr.ExclusiveSelector(),
        "consistent_hashing": pr.ConsistentHashingSelector(),
    }
    for row in key_rows():
        key = bytes.fromhex(row["key_hex"])
        at = f"idx {row['idx']}"
        for name, field in FIELDS.items():
            assert pr.sticky_key_hash(key, name) == row[field], f"{at} {name}"
            assert pr.sticky_key_hash(key, selectors[name]) == row[field], f"{at} {name}"
            assert selectors[name].sticky_key_hash(key) == row[field], f"{at} {name}"
        assert pr.sticky_key_hash(key, classic) == row["hash_range_1_2147483646"], at
        assert classic.key_hash_range == (1, CLASSIC_RANGE_MAX)
        if row.get("key_utf8") is not None:
            text = row["key_utf8"]
            assert text.encode() == key
            assert pr.sticky_key_hash(text, "consistent_hashing") == row["hash_range_1_65535"], at

        # The same key from message fields: ordering key, partition key as
        # key() sets it, as keyBytes() sets it (Base64 on the wire), and the
        # ordering key winning over the partition key.
        b64 = base64.b64encode(key)
        assert pr.sticky_key(ordering_key=key) == key, at
        assert pr.sticky_key(partition_key=key) == key, at
        assert pr.sticky_key(partition_key=b64, partition_key_b64_encoded=True) == key, at
        assert pr.sticky_key(partition_key=b64.decode(), partition_key_b64_encoded=True) == key
        assert pr.sticky_key(ordering_key=key, partition_key="other", producer_name="p") == key
        if row["category"] == "none_key":
            assert pr.sticky_key() == key == pr.NONE_KEY
            assert pr.sticky_key(producer_name="only-a-name") == key
        if row["category"] == "fallback_producer_seq":
            name, seq = row["key_utf8"].rsplit("-", 1)
            assert pr.sticky_key(producer_name=name, sequence_id=int(seq)) == key, at
            # Java prints the uint64 as a signed long.
            if int(seq) < 0:
                unsigned = int(seq) + 2**64
                assert pr.sticky_key(producer_name=name, sequence_id=unsigned) == key, at


def test_hash_rows_batch() -> None:
    rows = key_rows()
    keys = [bytes.fromhex(row["key_hex"]) for row in rows]
    texts = [row["key_utf8"] for row in rows if row.get("key_utf8") is not None]
    text_rows = [row for row in rows if row.get("key_utf8") is not None]
    classic = pr.ConsistentHashingSelector(range_max=CLASSIC_RANGE_MAX)
    targets: list[tuple[Union[str, Selector], str]] = [
        *FIELDS.items(),
        (classic, "hash_range_1_2147483646"),
    ]
    for selector, field in targets:
        want = np.array([row[field] for row in rows], dtype=np.uint32)
        want_text = np.array([row[field] for row in text_rows], dtype=np.uint32)
        inputs: list[Any] = [
            keys,
            np.array(keys, dtype=object),
            pa.array(keys, pa.binary()),
            pa.array(keys, pa.large_binary()),
            pa.chunked_array([keys[:700], keys[700:]], pa.binary()),
        ]
        for keys_in in inputs:
            got = pr.sticky_key_hashes(keys_in, selector)
            assert got.dtype == np.uint32
            np.testing.assert_array_equal(got, want, f"{field} {type(keys_in)}")
        for texts_in in (texts, pa.array(texts), pa.array(texts, pa.large_string())):
            np.testing.assert_array_equal(pr.sticky_key_hashes(texts_in, selector), want_text)
        # numpy U and S items drop trailing NULs, as numpy itself does.
        plain = [i for i, key in enumerate(keys) if not key.endswith(b"\0")]
        got = pr.sticky_key_hashes(np.array([keys[i] for i in plain]), selector)
        np.testing.assert_array_equal(got, want[plain])
        plain = [i for i, text in enumerate(texts) if not text.endswith("\0")]
        got = pr.sticky_key_hashes(np.array([texts[i] for i in plain]), selector)
        np.testing.assert_array_equal(got, want_text[plain])


# --- keyshared_autosplit.jsonl and keyshared_consistent.jsonl ----------------


def check_scenario_step(sel: Selector, step: dict[str, Any], result: Any, at: str) -> None:
    """The fields every AutoSplit and consistent-hashing step carries."""
    if step["ok"]:
        assert isinstance(result, pr.Impact), f"{at}: {result!r}"
        assert result.removed == json_ranges(step["removed"]), f"{at}: removed"
        assert result.added == json_ranges(step["added"]), f"{at}: added"
    else:
        assert isinstance(result, pr.ConsumerAssignError), f"{at}: {result!r}"
        assert str(result) == step["error"], at
        assert result.java_class == step["error_class"], at
        assert step["removed"] == {} and step["added"] == {}, at
    assignments = sel.assignments()
    assert len(assignments) == step["assignments_count"], at
    assert digest(assignments) == step["assignments_sha256"], at
    if "assignments" in step:
        assert assignments == [tuple(a) for a in step["assignments"]], at
    by_consumer = sel.ranges_by_consumer()
    assert len(by_consumer) == step["ranges_by_consumer_count"], at
    if "ranges_by_consumer" in step:
        assert by_consumer == json_ranges(step["ranges_by_consumer"]), at
    check_lookups(sel, step["lookups"], at)


def run_step(sel: Selector, step: dict[str, Any]) -> Any:
    try:
        if step["op"] == "add":
            return sel.add(step["consumer_id"], step["name"])
        assert step["op"] == "remove"
        return sel.remove(step["consumer_id"])
    except pr.ConsumerAssignError as err:
        return err


def test_autosplit_constructors() -> None:
    rows = of_type("keyshared_autosplit", "constructor")
    assert len(rows) >= 10
    for row in rows:
        if row["ok"]:
            assert pr.AutoSplitSelector(row["range_size"]).range_size == row["range_size"]
        else:
            with pytest.raises(pr.SelectorConfigError) as raised:
                pr.AutoSplitSelector(row["range_size"])
            assert str(raised.value) == row["error"]


def test_autosplit_scenarios() -> None:
    scenarios = of_type("keyshared_autosplit", "scenario")
    steps = 0
    for row in scenarios:
        sel = pr.AutoSplitSelector(range_size=row["range_size"])
        assert sel.key_hash_range == (0, row["range_size"] - 1)
        for n, step in enumerate(row["steps"]):
            check_scenario_step(sel, step, run_step(sel, step), f"{row['id']} step {n}")
            steps += 1
    assert len(scenarios) > 200 and steps > 5000, "keyshared_autosplit.jsonl looks truncated"


def test_consistent_ring_points() -> None:
    rows = of_type("keyshared_consistent", "ring_points")
    assert len(rows) > 20
    for row in rows:
        name = row["name"]
        assert bytes.fromhex(row["name_utf8_hex"]) == name.encode()
        got = [pr.ring_point(name, row["name_index"], i, row["range_max"]) for i in range(len(row["points"]))]
        assert got == row["points"], name


def test_consistent_scenarios() -> None:
    scenarios = of_type("keyshared_consistent", "scenario")
    steps = 0
    for row in scenarios:
        assert row["range_min"] == 1
        sel = pr.ConsistentHashingSelector(points=row["points"], range_max=row["range_max"])
        assert sel.key_hash_range == (1, row["range_max"])
        for n, step in enumerate(row["steps"]):
            at = f"{row['id']} step {n}"
            consumer = step["consumer_id"]
            result = run_step(sel, step)
            if "name_index" in step:
                index = sel.name_index(consumer)
                assert (-1 if index is None else index) == step["name_index"], at
            if "ring_points" in step:
                assert sel.consumer_points(consumer) == step["ring_points"], at
            check_scenario_step(sel, step, result, at)
            steps += 1
    assert len(scenarios) > 200 and steps > 3000, "keyshared_consistent.jsonl looks truncated"


# --- keyshared_exclusive.jsonl ----------------------------------------------

ALL_SLOTS = np.arange(65536, dtype=np.int64)


def slot_runs(mask: NDArray[np.bool_], owner: NDArray[np.int64]) -> Ranges:
    """Per owner, the runs of consecutive slots where ``mask`` holds."""
    slots = np.flatnonzero(mask)
    if slots.size == 0:
        return {}
    owners = owner[slots]
    starts = np.ones(slots.size, dtype=bool)
    starts[1:] = (np.diff(slots) != 1) | (owners[1:] != owners[:-1])
    first = np.flatnonzero(starts)
    last = np.r_[first[1:] - 1, slots.size - 1]
    out: Ranges = {}
    for f, l in zip(first.tolist(), last.tolist()):
        out.setdefault(int(owners[f]), []).append((int(slots[f]), int(slots[l])))
    return out


def clipped(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Ranges cut to [0, 65535], sorted and merged when adjacent."""
    out: list[tuple[int, int]] = []
    for start, end in sorted((max(s, 0), min(e, 65535)) for s, e in ranges if s <= e):
        if start > end:
            continue
        if out and out[-1][1] + 1 >= start:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def check_exclusive(
    sel: pr.ExclusiveSelector, step: dict[str, Any], expected: dict[str, Any], at: str
) -> None:
    consumer = step["consumer_id"]
    before = sel.select_slots(ALL_SLOTS)
    mine_before = sel.ranges_by_consumer().get(consumer, [])
    declared = None if step.get("ranges") is None else [tuple(r) for r in step["ranges"]]
    try:
        if step["op"] == "add":
            result: Any = sel.add(consumer, step["name"], declared)
        else:
            result = sel.remove(consumer)
    except pr.ConsumerAssignError as err:
        result = err
    if expected["ok"]:
        assert isinstance(result, pr.Impact), f"{at}: {result!r}"
    else:
        assert isinstance(result, pr.ConsumerAssignError), f"{at}: {result!r}"
        assert result.java_class == expected["error_class"], at
        java = expected["error"]
        if str(result).startswith("Range conflict with consumer "):
            # Java appends the broker's Consumer.toString(); the golden stub
            # prints `Consumer{consumerId=N, consumerName=cN}`.
            prefix = str(result).removesuffix("}")
            assert java.startswith(prefix + ","), f"{at}: {java} vs {result}"
        else:
            assert str(result) == java, at
    assert sel.ranges_by_consumer() == json_ranges(expected["ranges_by_consumer"]), at
    check_lookups(sel, expected["lookups"], at)

    # The impact is the change of select() over every slot...
    after = sel.select_slots(ALL_SLOTS)
    if isinstance(result, pr.Impact):
        changed = before != after
        assert result.removed == slot_runs(changed & (before >= 0), before), at
        assert result.added == slot_runs(changed & (after >= 0), after), at
        # ... which, under the current rules, is exactly the consumer's own
        # ranges: nothing moves between other consumers.
        if not sel.legacy:
            if step["op"] == "add":
                assert result.removed == {}, at
                own = clipped(declared or [])
                assert result.added == ({consumer: own} if own else {}), at
            else:
                own = clipped(mine_before)
                assert result.removed == ({consumer: own} if own else {}), at
                assert result.added == {}, at
    else:
        np.testing.assert_array_equal(before, after, at)


def test_exclusive_cases() -> None:
    cases = of_type("keyshared_exclusive", "case")
    steps = client = 0
    for row in cases:
        current, legacy = pr.ExclusiveSelector(), pr.ExclusiveSelector(legacy=True)
        assert legacy.legacy and not current.legacy
        for n, step in enumerate(row["steps"]):
            at = f"{row['id']} step {n}"
            if step.get("ranges") is not None and "client_validate" in step:
                try:
                    pr.validate_sticky_ranges([tuple(r) for r in step["ranges"]])
                    got = "ok"
                except pr.KeySharedPolicyError as err:
                    got = f"error: {err}"
                assert got == step["client_validate"], at
                client += 1
            check_exclusive(current, step, step["broker"], f"{at} (master)")
            check_exclusive(legacy, step, step["broker_pre_24730"], f"{at} (pre-24730)")
            steps += 1
    assert len(cases) > 150 and steps > 1000 and client > 900, "keyshared_exclusive.jsonl looks truncated"
