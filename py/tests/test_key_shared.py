"""The Key_Shared API: sticky keys, selectors, errors, growth and batch lookups."""

from __future__ import annotations

import base64
from collections.abc import Iterator, Sequence
from typing import Any, Optional, Union

import numpy as np
import pyarrow as pa
import pytest

import pulsar_routing as pr

# For calls that break the stub's types on purpose.
untyped: Any = pr

Selector = Union[pr.AutoSplitSelector, pr.ConsistentHashingSelector, pr.ExclusiveSelector]
Key = Optional[Union[str, bytes]]


def populated() -> list[Selector]:
    """One selector of each kind (and the legacy exclusive one) with a few consumers."""
    auto = pr.AutoSplitSelector()
    consistent = pr.ConsistentHashingSelector(points=7)
    exclusive = pr.ExclusiveSelector()
    legacy = pr.ExclusiveSelector(legacy=True)
    for i in range(1, 6):
        auto.add(i, f"c{i}")
        consistent.add(i, f"c{i}")
    for sel in (exclusive, legacy):
        sel.add(1, "c1", [(0, 9999), (30000, 39999)])
        sel.add(2, "c2", [(10000, 19999)])
        sel.add(3, "c3", [(50000, 65535)])
    return [auto, consistent, exclusive, legacy]


# --- errors -----------------------------------------------------------------


def test_error_hierarchy() -> None:
    for error in (pr.ConsumerAssignError, pr.SelectorConfigError, pr.KeySharedPolicyError):
        assert issubclass(error, pr.PulsarRoutingError)
        assert issubclass(error, ValueError)
        assert error.__module__ == "pulsar_routing"


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: pr.AutoSplitSelector(1), "range size must greater than 2"),
        (lambda: pr.AutoSplitSelector(-8), "range size must greater than 2"),
        (lambda: pr.AutoSplitSelector(65535), "range size must be nth power with 2"),
        (lambda: pr.ConsistentHashingSelector(range_max=0), "Range end must >= range start."),
        (lambda: pr.ConsistentHashingSelector(range_max=-5), "Range end must >= range start."),
        (lambda: pr.ring_point("c", 0, 0, 0), "Range end must >= range start."),
        (
            lambda: pr.ConsistentHashingSelector(range_max=2**31),
            "key hash range must lie within [0, 2147483647] and hold at most 2147483647 slots",
        ),
        (
            lambda: pr.sticky_key_hash(b"k", "sticky"),
            'unknown selector: expected "auto_split", "consistent_hashing" or "exclusive"',
        ),
    ],
)
def test_config_errors(build: Any, message: str) -> None:
    with pytest.raises(pr.SelectorConfigError) as raised:
        build()
    assert str(raised.value) == message


def test_smallest_selectors_are_fine() -> None:
    assert pr.AutoSplitSelector(2).assignments() == []
    assert pr.ConsistentHashingSelector(0, 1).key_hash_range == (1, 1)


def test_auto_split_runs_out_of_ranges() -> None:
    sel = pr.AutoSplitSelector(2)
    sel.add(1, "a")
    sel.add(2, "b")
    before = sel.assignments()
    with pytest.raises(pr.ConsumerAssignError) as raised:
        sel.add(3, "c")
    assert str(raised.value) == "No more range can assigned to new consumer, assigned consumers 2"
    assert raised.value.java_class == "ConsumerAssignException"
    # A failed add changes nothing.
    assert sel.assignments() == before == [(0, 1, 2), (2, 2, 1)]
    assert 3 not in sel and len(sel) == 2


def test_duplicate_consumer() -> None:
    for sel in populated():
        before = sel.assignments()
        with pytest.raises(pr.ConsumerAssignError) as raised:
            if isinstance(sel, pr.ExclusiveSelector):
                sel.add(1, "c1", [(60000, 60001)])
            else:
                sel.add(1, "c1")
        assert str(raised.value) == "consumer 1 is already in the selector"
        assert raised.value.java_class is None
        assert sel.assignments() == before


@pytest.mark.parametrize(
    ("ranges", "current", "legacy"),
    [
        (None, "Must specify key shared meta for consumer.", None),
        ([], "Ranges for KeyShared policy must not be empty.", None),
        ([(5, 1)], "Fixed hash range start > end for range: [5,1]", "Fixed hash range start > end"),
        (
            [(20100, 20200), (20000, 20100)],
            "Consumer's own ranges conflict: [20000,20100] overlaps with [20100,20200]",
            "",  # legacy rules accept overlapping own ranges
        ),
        ([(5000, 5000)], "Range conflict with consumer Consumer{consumerId=1}", None),
        ([(40000, 49999), (19999, 20000)], "Range conflict with consumer Consumer{consumerId=2}", None),
    ],
)
def test_exclusive_errors(ranges: Any, current: str, legacy: Optional[str]) -> None:
    for sel in populated():
        if not isinstance(sel, pr.ExclusiveSelector):
            continue
        want = current if not sel.legacy or legacy is None else legacy
        before = sel.assignments()
        if not want:
            sel.add(7, "c7", ranges)
            continue
        with pytest.raises(pr.ConsumerAssignError) as raised:
            sel.add(7, "c7", ranges)
        assert str(raised.value) == want
        assert raised.value.java_class == "ConsumerAssignException"
        assert sel.assignments() == before and 7 not in sel


def test_exclusive_broker_checks_no_bounds() -> None:
    sel = pr.ExclusiveSelector()
    impact = sel.add(1, "c1", [(60000, 70000)])
    # The snapshot keeps the declared range; the impact counts real slots.
    assert sel.ranges_by_consumer() == {1: [(60000, 70000)]}
    assert impact.added == {1: [(60000, 65535)]}
    with pytest.raises(pr.KeySharedPolicyError) as raised:
        pr.validate_sticky_ranges([(60000, 70000)])
    assert str(raised.value) == "Ranges must be [0, 65535] but provided range is [60000, 70000]"


@pytest.mark.parametrize(
    ("ranges", "message"),
    [
        ([], "Ranges for KeyShared policy must not be empty."),
        ([(0, 10), (20, 5)], "Range end must >= range start."),
        ([(-1, 10)], "Ranges must be [0, 65535] but provided range is [-1, 10]"),
        ([(0, 65536)], "Ranges must be [0, 65535] but provided range is [0, 65536]"),
        ([(0, 10), (10, 20)], "Ranges for KeyShared policy with overlap between [0, 10] and [10, 20]"),
    ],
)
def test_validate_sticky_ranges(ranges: list[tuple[int, int]], message: str) -> None:
    with pytest.raises(pr.KeySharedPolicyError) as raised:
        pr.validate_sticky_ranges(ranges)
    assert str(raised.value) == message


def test_validate_accepts_lists_and_arrays() -> None:
    pr.validate_sticky_ranges([[0, 32767], [32768, 65535]])
    pr.validate_sticky_ranges(np.array([[0, 100], [200, 300]]))
    pr.validate_sticky_ranges(iter([(0, 0)]))


def test_bad_arguments() -> None:
    auto, consistent, exclusive, _ = populated()
    for sel in (auto, consistent):
        with pytest.raises(TypeError, match="only an ExclusiveSelector"):
            untyped_sel: Any = sel
            untyped_sel.add(9, "c9", [(0, 1)])
        assert 9 not in sel
    for bad in ((0, 1), [(0, 1, 2)], [("a", "b")], "0-1", [0]):
        with pytest.raises(TypeError):
            untyped.ExclusiveSelector().add(1, "c", bad)
    with pytest.raises(OverflowError):
        pr.ExclusiveSelector().add(1, "c", [(0, 2**31)])
    with pytest.raises(OverflowError, match="consumer_id must be in"):
        auto.add(-1, "x")
    with pytest.raises(OverflowError, match="consumer_id must be in"):
        auto.remove(2**63)
    with pytest.raises(TypeError):
        untyped.AutoSplitSelector().add("1", "x")
    with pytest.raises(TypeError):
        untyped.AutoSplitSelector().add(1, b"x")
    assert -1 not in auto and "1" not in untyped.AutoSplitSelector()
    with pytest.raises(OverflowError):
        auto.select(-1)
    with pytest.raises(TypeError, match="selector must be"):
        untyped.sticky_key_hash(b"k", 3)
    with pytest.raises(TypeError):
        untyped.Impact()


def test_largest_consumer_id() -> None:
    sel = pr.ConsistentHashingSelector(points=3)
    sel.add(2**63 - 1, "big")
    assert sel.select(1) == 2**63 - 1
    assert sel.select_slots([1]).tolist() == [2**63 - 1]
    assert sel.consumers() == [2**63 - 1]


# --- selectors ----------------------------------------------------------------


def test_auto_split_example() -> None:
    sel = pr.AutoSplitSelector()
    assert sel.add(1, "a").added == {1: [(0, 65536)]}
    impact = sel.add(2, "b")
    assert impact.removed == {1: [(0, 32768)]} and impact.added == {2: [(0, 32768)]}
    assert sel.assignments() == [(0, 32768, 2), (32769, 65536, 1)]
    assert sel.ranges_by_consumer() == {2: [(0, 32768)], 1: [(32769, 65536)]}
    assert sel.select(32769) == 1 and sel.select(0) == 2
    assert sel.key_hash_range == (0, 65535) and sel.range_size == 65536
    removed = sel.remove(2)
    assert removed.removed == {2: [(0, 32768)]} and removed.added == {1: [(0, 32768)]}
    assert not sel.remove(2)  # unknown: a no-op with an empty impact
    assert repr(sel) == "<AutoSplitSelector range_size=65536, 1 consumers>"


def test_consistent_example() -> None:
    sel = pr.ConsistentHashingSelector(points=1)
    assert sel.add(1, "c1").added == {1: [(1, 65535)]}
    sel.add(2, "c1")  # same name: the next name index, other points
    assert (sel.name_index(1), sel.name_index(2), sel.name_index(3)) == (0, 1, None)
    assert sel.consumer_points(1) == [pr.ring_point("c1", 0, 0)] == [34662]
    assert sel.consumer_points(2) == [pr.ring_point("c1", 1, 0)]
    assert sel.consumer_points(3) == []
    assert sel.assignments()[-1][1] == 65535
    assert (sel.points, sel.range_max) == (1, 65535)
    assert repr(sel) == "<ConsistentHashingSelector points=1, range_max=65535, 2 consumers>"
    assert pr.ConsistentHashingSelector(points=0).add(1, "x") == pr.ConsistentHashingSelector(0).add(1, "y")


def test_exclusive_legacy_delivers_gaps() -> None:
    current, legacy = pr.ExclusiveSelector(), pr.ExclusiveSelector(legacy=True)
    for sel in (current, legacy):
        sel.add(1, "c1", [(0, 100), (200, 300)])
    assert current.select(150) is None and legacy.select(150) == 1
    # c1 loses its gap: 140..160 to c2, and the slots between c1's and c2's
    # ranges to nobody.
    impact = legacy.add(2, "c2", [(140, 160)])
    assert impact.removed == {1: [(101, 199)]} and impact.added == {2: [(140, 160)]}
    assert legacy.select(120) is None and legacy.select(150) == 2
    assert repr(legacy) == "<ExclusiveSelector legacy=True, 2 consumers>"
    assert repr(current) == "<ExclusiveSelector 1 consumers>"


def test_exclusive_impact_is_the_declared_ranges() -> None:
    # Java's exclusive selector reports no impact; this one reports what
    # moved, computed in the core, so C (ffi-c/tests/key_shared.c) reports
    # the same: the declared ranges, in slot order, clipped to the slots.
    sel = pr.ExclusiveSelector()
    declared = [(20000, 29999), (60000, 70000), (0, 9999)]
    clipped = sorted((max(s, 0), min(e, 65535)) for s, e in declared)
    impact = sel.add(1, "c1", declared)
    assert impact.added == {1: clipped} and impact.removed == {}
    with pytest.raises(pr.ConsumerAssignError):
        sel.add(2, "c2", [(9000, 12000)])
    gone = sel.remove(1)
    assert gone.removed == {1: clipped} and gone.added == {}
    assert not sel.remove(1)
    legacy = pr.ExclusiveSelector(legacy=True)
    # The gap between a consumer's own ranges is delivered to it.
    assert legacy.add(1, "c1", [(0, 100), (200, 300)]).added == {1: [(0, 300)]}


def test_impact_value() -> None:
    a, b = pr.AutoSplitSelector(), pr.AutoSplitSelector()
    first, same = a.add(1, "x"), b.add(1, "y")
    assert first == same and hash(first) == hash(same) and first
    assert first != a.add(2, "z")
    assert repr(first) == "Impact(removed={}, added={1: [(0, 65536)]})"
    assert not a.remove(42) and a.remove(42) == b.remove(42)
    # Each access is a fresh dict: changing it changes nothing.
    first.added[1].append((0, 0))
    assert first.added == {1: [(0, 65536)]}


def test_copy_is_independent() -> None:
    for sel in populated():
        twin = sel.copy()
        assert type(twin) is type(sel) and twin.assignments() == sel.assignments()
        twin.remove(1)
        assert 1 in sel and 1 not in twin and len(twin) == len(sel) - 1


def test_consumers_len_contains() -> None:
    for sel in populated():
        ids = sel.consumers()
        assert ids == sorted(ids) and len(sel) == len(ids) and all(i in sel for i in ids)
        assert 99 not in sel


def test_select_key_agrees_with_slot() -> None:
    for sel in populated():
        for key in (b"", b"NONE_KEY", b"order-17", "Grüße", bytearray(b"buf"), np.frombuffer(b"arr", np.uint8)):
            slot = sel.sticky_key_hash(key)
            assert slot == pr.sticky_key_hash(key, sel)
            assert sel.select_key(key) == sel.select(slot)
        # A str is its UTF-8, as Java's getBytes(UTF_8): a lone surrogate is
        # written as "?", and two surrogate code points pair up as in Java.
        assert sel.sticky_key_hash("Grüße") == sel.sticky_key_hash("Grüße".encode())
        assert sel.sticky_key_hash("lone\udc80") == sel.sticky_key_hash(b"lone?")
        assert sel.sticky_key_hash("\ud83d\ude00") == sel.sticky_key_hash("😀")


def test_growth_beyond_initial_capacity() -> None:
    # Far more consumers, name bytes and ranges than a new selector has room
    # for. ffi-c/tests/key_shared.c runs the same calls through C, whose
    # selectors grow with the same shared policy and give the same answers.
    auto = pr.AutoSplitSelector()
    consistent = pr.ConsistentHashingSelector(points=20)
    exclusive = pr.ExclusiveSelector()
    for i in range(1000):
        auto.add(i, "")
        consistent.add(i, f"consumer-{i}-" + "x" * 300)
        impact = exclusive.add(i, "", [(i * 60, i * 60 + 29)])
        assert impact.added == {i: [(i * 60, i * 60 + 29)]} and not impact.removed
    assert len(auto) == len(consistent) == len(exclusive) == 1000
    assert len(auto.assignments()) == 1000
    # One consumer with thousands of ranges.
    many = [(s, s) for s in range(60_000, 65_536, 2)]
    assert exclusive.add(5000, "", many).added == {5000: many}
    assert exclusive.select(60_002) == 5000 and exclusive.select(60_001) is None
    gone = exclusive.remove(5000)
    assert gone.removed == {5000: many} and not gone.added
    tiles(auto, 0, 65536)
    tiles(consistent, 1, 65535)
    # Ranges never move between consumers that both stay.
    impact = consistent.add(7777, "late")
    assert set(impact.added) == {7777} and 7777 not in impact.removed


def tiles(sel: Union[pr.AutoSplitSelector, pr.ConsistentHashingSelector], first: int, last: int) -> None:
    """The snapshot covers [first, last] without gaps or overlaps, and select agrees."""
    assignments = sel.assignments()
    assert assignments[0][0] == first and assignments[-1][1] == last
    for (_, end, _), (start, _, _) in zip(assignments, assignments[1:]):
        assert start == end + 1
    owners = sel.select_slots(np.arange(first, last + 1))
    expected = np.concatenate([np.full(e - s + 1, c) for s, e, c in assignments])
    np.testing.assert_array_equal(owners, expected)


# --- sticky keys ----------------------------------------------------------------


def test_sticky_key_resolution() -> None:
    assert pr.sticky_key() == pr.NONE_KEY == b"NONE_KEY"
    assert pr.sticky_key(ordering_key=b"o", partition_key="p", producer_name="n", sequence_id=1) == b"o"
    assert pr.sticky_key(ordering_key=b"") == b""  # an empty ordering key is still a key
    assert pr.sticky_key(partition_key="p", producer_name="n", sequence_id=1) == b"p"
    assert pr.sticky_key(partition_key="Grüße") == "Grüße".encode()
    assert pr.sticky_key(producer_name="n", sequence_id=7) == b"n-7"
    assert pr.sticky_key(producer_name="n") == pr.sticky_key(sequence_id=7) == b"NONE_KEY"
    # keyBytes(): Base64 on the wire, decoded by the broker.
    b64 = base64.b64encode(b"\x00\xffhello").decode()
    assert pr.sticky_key(partition_key=b64, partition_key_b64_encoded=True) == b"\x00\xffhello"
    assert pr.sticky_key(partition_key=b64) == b64.encode()
    # Text Java cannot decode falls back to NONE_KEY, as in the broker.
    for bad in ("a", "a$bc", "ab=c", "abc=d"):
        assert pr.sticky_key(partition_key=bad, partition_key_b64_encoded=True) == b"NONE_KEY"
    # sequence_id is a uint64 that Java prints as a signed long.
    assert pr.sticky_key(producer_name="p", sequence_id=2**64 - 1) == b"p--1"
    assert pr.sticky_key(producer_name="p", sequence_id=-(2**63)) == b"p--9223372036854775808"
    with pytest.raises(OverflowError):
        pr.sticky_key(producer_name="p", sequence_id=2**64)
    with pytest.raises(TypeError):
        untyped.sticky_key(b"positional")
    assert pr.sticky_key(ordering_key=bytearray(b"buf")) == b"buf"
    assert pr.sticky_key(ordering_key=memoryview(b"view")) == b"view"


def test_sticky_key_hash_by_selector() -> None:
    # The same key lands in different slots under different selectors.
    m = pr.murmur3_32(b"NONE_KEY")
    assert pr.sticky_key_hash(b"NONE_KEY", "auto_split") == m % 65536
    assert pr.sticky_key_hash(b"NONE_KEY", "exclusive") == m % 65536
    assert pr.sticky_key_hash(b"NONE_KEY", "consistent_hashing") == m % 65535 + 1
    classic = pr.ConsistentHashingSelector(range_max=2_147_483_646)
    assert pr.sticky_key_hash(b"NONE_KEY", classic) == m % 2_147_483_646 + 1
    small = pr.AutoSplitSelector(16)
    assert pr.sticky_key_hash(b"NONE_KEY", small) == max(m % 16, 1)
    assert small.key_hash_range == (0, 15)
    # The empty key hashes to 0, which becomes 1.
    assert pr.sticky_key_hash(b"", "auto_split") == 1
    assert pr.sticky_key_hash("", "consistent_hashing") == 1


# --- batch lookups --------------------------------------------------------------

TEXT = ["", "a", "order-17", "Grüße", "日本語", "😀", "mid\0nul", "x" * 700, "\ud83d\ude00", "lone\udc80"]
BYTES = [b"", b"\x00\xff", b"hello", bytes(range(256)), b"k" * 1000]


def one_by_one(sel: Selector, keys: Sequence[Key]) -> list[int]:
    out = []
    for key in keys:
        owner = sel.select_key(pr.NONE_KEY if key is None else key)
        out.append(-1 if owner is None else owner)
    return out


def generated(keys: list[Key]) -> Iterator[Key]:
    yield from keys


def has_surrogate(key: Key) -> bool:
    return isinstance(key, str) and any(0xD800 <= ord(c) <= 0xDFFF for c in key)


@pytest.mark.parametrize("size", [10, 3000])  # below and above the GIL-release threshold
def test_select_keys_agrees_with_select_key(size: int) -> None:
    mixed: list[Key] = [*TEXT, None, *BYTES]
    keys = [mixed[i] if i < len(mixed) else f"key-{i}" for i in range(size)]
    # numpy items lose trailing NULs; Arrow text cannot hold lone surrogates.
    texts = [k for k in keys if isinstance(k, str) and not k.endswith("\0")]
    blobs = [k for k in keys if isinstance(k, bytes) and not k.endswith(b"\0")]
    arrow_text = [k for k in keys if not isinstance(k, bytes) and not has_surrogate(k)]
    arrow_bytes = [k.encode() if isinstance(k, str) else k for k in keys if not has_surrogate(k)]
    for sel in populated():
        want = one_by_one(sel, keys)
        for keys_in in (keys, tuple(keys), generated(keys), np.array(keys, dtype=object)):
            got = sel.select_keys(keys_in)
            assert got.dtype == np.int64 and got.tolist() == want
        for arrow in (pa.array(arrow_text, pa.string()), pa.array(arrow_text, pa.large_string())):
            assert sel.select_keys(arrow).tolist() == one_by_one(sel, arrow_text)
        half = len(arrow_bytes) // 2
        for arrow in (
            pa.array(arrow_bytes, pa.binary()),
            pa.chunked_array([arrow_bytes[:half], arrow_bytes[half:]], pa.large_binary()),
            pa.array(arrow_bytes, pa.binary()).slice(3),
        ):
            assert sel.select_keys(arrow).tolist() == one_by_one(sel, arrow.to_pylist())
        assert sel.select_keys(np.array(texts, dtype="U")).tolist() == one_by_one(sel, list(texts))
        assert sel.select_keys(np.array(blobs, dtype="S")).tolist() == one_by_one(sel, list(blobs))
        # A strided view is read like its copy.
        strided = np.array([t for t in texts for _ in (0, 1)])[::2]
        assert sel.select_keys(strided).tolist() == one_by_one(sel, list(texts))
        # The slots themselves.
        slots = pr.sticky_key_hashes(keys, sel)
        assert slots.dtype == np.uint32
        assert slots.tolist() == [sel.sticky_key_hash(pr.NONE_KEY if k is None else k) for k in keys]
        assert sel.select_slots(slots).tolist() == want


def test_select_keys_edge_inputs() -> None:
    sel = populated()[1]
    assert sel.select_keys([]).tolist() == []
    assert sel.select_keys(np.array([], dtype="U3")).tolist() == []
    assert sel.select_keys(np.zeros(3, dtype="U0")).tolist() == [sel.select_key(b"")] * 3
    assert sel.select_keys(pa.array([], pa.string())).tolist() == []
    big_endian = np.array(["a", "bc"], dtype=">U2")
    assert sel.select_keys(big_endian).tolist() == one_by_one(sel, ["a", "bc"])
    empty = pr.ConsistentHashingSelector()
    assert empty.select_keys(["a", None]).tolist() == [-1, -1]
    assert empty.select(1) is None
    with pytest.raises(TypeError, match="not one key"):
        sel.select_keys("abc")
    with pytest.raises(TypeError, match="not one key"):
        untyped.sticky_key_hashes(b"abc", "auto_split")
    with pytest.raises(ValueError, match="one-dimensional"):
        sel.select_keys(np.array([["a"]]))
    with pytest.raises(TypeError, match="dtype"):
        sel.select_keys(np.arange(3))
    with pytest.raises(TypeError, match=r"keys\[1\] must be str, bytes or None, not int"):
        untyped.ConsistentHashingSelector().select_keys(["a", 1])
    with pytest.raises(TypeError, match="pyarrow array of string"):
        sel.select_keys(pa.array([1, 2]))
    with pytest.raises(OverflowError, match=r"slots\[1\]"):
        sel.select_slots([0, -1])
    with pytest.raises(TypeError):
        untyped.ConsistentHashingSelector().select_slots([[0, 1]])
