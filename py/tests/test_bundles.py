"""BundleRange, NamespaceBundles and the batch functions, against the one-topic path."""

from __future__ import annotations

import pickle
from collections.abc import Iterator, Sequence
from typing import Any, Optional, Union

import numpy as np
import pyarrow as pa
import pytest

import pulsar_routing as pr

# For calls that break the stub's types on purpose.
untyped: Any = pr

Topic = Optional[Union[str, pr.TopicName]]

NAMES = [
    "my-topic",
    "persistent://public/default/my-topic",
    "t/ns/orders",
    "non-persistent://t/ns/metrics",
    "persistent://t/ns/Grüße 日本語 😀",
    "x-partition-2",
    "PERSISTENT://t/ns/upper",
]
# Past the thresholds where the GIL is released and objects are batched.
MANY = [f"persistent://public/default/topic-{i}" for i in range(10_000)]


def as_topic(topic: str | pr.TopicName) -> pr.TopicName:
    return topic if isinstance(topic, pr.TopicName) else pr.TopicName(topic)


def one_at_a_time(
    layout: pr.NamespaceBundles, topics: Sequence[Topic], partitions: int | None = None
) -> list[Any]:
    """The reference for bundle_indexes: bundle_for_topic, one name at a time."""
    bundles = layout.bundles()

    def index(topic: Topic) -> int:
        return -1 if topic is None else bundles.index(layout.bundle_for_topic(topic))

    if partitions is None:
        return [index(topic) for topic in topics]
    return [
        [-1] * partitions
        if topic is None
        else [index(as_topic(topic).partition(i)) for i in range(partitions)]
        for topic in topics
    ]


def test_topic_bundle() -> None:
    assert pr.topic_bundle("my-topic") == "0x00000000_0x40000000"
    assert pr.topic_bundle("my-topic", 4) == "0x00000000_0x40000000"
    assert pr.topic_bundle(pr.TopicName("my-topic"), 1) == "0x00000000_0xffffffff"
    # 4.2 and master hash an upper-case domain as written; v4 lowers it.
    assert pr.topic_bundle("PERSISTENT://t/ns/upper", 1000, rules="v4") == "0xe978d3f0_0xe9ba5d27"
    for rules in ("4.2", "master"):
        assert pr.topic_bundle("PERSISTENT://t/ns/upper", 1000, rules=rules) == (
            "0xe8f5c182_0xe9374ab9"
        )
    assert pr.topic_bundle("PERSISTENT://t/ns/upper", 1000) == "0xe8f5c182_0xe9374ab9"
    with pytest.raises(pr.TopicNameError):
        pr.topic_bundle("a/b", 4)
    with pytest.raises(pr.BundleError, match=r"^Invalid number of bundles\. Number of bundles has to be in the range of \(0, 2\^32\]\.$"):
        pr.topic_bundle("x", -1)
    with pytest.raises(OverflowError):
        pr.topic_bundle("x", 2**31)


def test_bundle_range() -> None:
    r = pr.BundleRange(0x40000000, 0x80000000)
    assert str(r) == "0x40000000_0x80000000"
    assert pr.BundleRange.parse("0X40000000_#80000000") == r
    assert (r.lower, r.upper, r.upper_closed) == (0x40000000, 0x80000000, False)
    assert r.includes(0x7FFFFFFF) and 0x40000000 in r
    assert not r.includes(0x80000000) and 0x80000000 not in r
    assert r.key("public/default") == "public/default/0x40000000_0x80000000"
    assert r.can_split() and not pr.BundleRange(5, 6).can_split()
    last = pr.BundleRange.parse("0xc0000000_0xffffffff")
    assert last.upper_closed and 0xFFFFFFFF in last
    # Ordered by bounds, hashable, and its repr builds it again.
    assert sorted([last, r]) == [r, last] and r < last
    assert len({r, pr.BundleRange.parse(str(r))}) == 1
    negative = pr.BundleRange.parse("-0x1_0x10")
    assert str(negative) == "0xffffffffffffffff_0x00000010"
    for bundle in (r, last, negative):
        assert repr(bundle).startswith("BundleRange(")
        assert eval(repr(bundle), {"BundleRange": pr.BundleRange}) == bundle
        assert pickle.loads(pickle.dumps(bundle)) == bundle


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0x10", "Invalid bundle range"),
        ("0x10_", "Invalid bundle range: missing upper bound"),
        ("_0x10", "Zero length string"),
        ("0x10_0x10", "Cannot create bundle object for an empty key range"),
        ("0x20_0x10", "Invalid range: [32..16)"),
        ("zz_0x10", "Invalid bundle bound: not a number, or out of the long range"),
    ],
)
def test_bundle_range_errors(text: str, message: str) -> None:
    with pytest.raises(pr.BundleError) as raised:
        pr.BundleRange.parse(text)
    assert str(raised.value) == message
    assert isinstance(raised.value, ValueError)


def test_namespace_bundles_layout() -> None:
    four = pr.NamespaceBundles()
    assert four == pr.NamespaceBundles(4)
    assert len(four) == four.num_bundles == 4
    assert four.boundaries() == pr.default_boundaries(4) == [0, 1 << 30, 2 << 30, 3 << 30, 2**32 - 1]
    assert [str(b) for b in four] == [
        "0x00000000_0x40000000",
        "0x40000000_0x80000000",
        "0x80000000_0xc0000000",
        "0xc0000000_0xffffffff",
    ]
    assert four[0] == four.bundles()[0] and four[-1] == four[3]
    with pytest.raises(IndexError):
        four[4]
    with pytest.raises(IndexError):
        four[-5]
    assert four.bundle_for_hash(0x40000000) == four[1]
    assert four.bundle_index_for_hash(0xFFFFFFFF) == 3
    with pytest.raises(pr.BundleError, match="IndexOutOfBoundsException"):
        four.bundle_index_for_hash(0xFFFFFFFF, strict=True)
    assert four.validate_bundle("0x40000000_0x80000000") == 1
    assert four.validate_bundle(four[3]) == 3
    with pytest.raises(pr.BundleError, match="Cannot find bundle in the bundles list"):
        four.validate_bundle("0x40000001_0x80000000")
    with pytest.raises(pr.BundleError, match="Invalid upper boundary for bundle"):
        four.validate_bundle("0x40000000_0x70000000")
    for layout in (four, pr.NamespaceBundles.from_boundaries(["0x00000000", 7, "0xffffffff"])):
        assert eval(repr(layout), {"NamespaceBundles": pr.NamespaceBundles}) == layout
        assert pickle.loads(pickle.dumps(layout)) == layout
    assert repr(four) == "NamespaceBundles(4)"


def test_from_boundaries_errors() -> None:
    cases: list[tuple[list[Any], str]] = [
        ([], "Can't create bundles w/o partition boundaries"),
        ([0], "Need to specify at least 2 boundaries"),
        ([0, 0x80000000], "Invalid hash range. Upper Endpoint should be exclusive unless it is 0xffffffff"),
        ([0, 5, 5, 0xFFFFFFFF], "Cannot create bundle object for an empty key range"),
        ([0, 9, 5, 0xFFFFFFFF], "bundle boundaries must be in non-decreasing order"),
        ([-1, 0xFFFFFFFF], "bundle boundary -1 is outside the hash range 0x00000000..=0xffffffff"),
        (["0x1_", 0xFFFFFFFF], "Invalid bundle bound: not a number, or out of the long range"),
    ]
    for boundaries, message in cases:
        with pytest.raises(pr.BundleError) as raised:
            pr.NamespaceBundles.from_boundaries(boundaries)
        assert str(raised.value) == message, boundaries
    with pytest.raises(TypeError, match=r"boundaries\[1\] must be int or str, not float"):
        untyped.NamespaceBundles.from_boundaries([0, 1.5, 0xFFFFFFFF])
    with pytest.raises(TypeError):
        untyped.NamespaceBundles.from_boundaries("0x00000000")
    # Any iterable will do.
    assert pr.NamespaceBundles.from_boundaries(iter([0, 2**32 - 1])) == pr.NamespaceBundles(1)


def test_layout_not_starting_at_zero() -> None:
    upper_half = pr.NamespaceBundles.from_boundaries([0x80000000, 0xFFFFFFFF])
    low = next(name for name in NAMES if pr.TopicName(name).crc32 < 0x80000000)
    with pytest.raises(pr.BundleError, match="no bundle for hash"):
        upper_half.bundle_for_topic(low)
    got = upper_half.bundle_indexes(NAMES)
    assert got.tolist() == [0 if pr.TopicName(n).crc32 >= 0x80000000 else -1 for n in NAMES]
    assert upper_half.count_per_bundle(NAMES).tolist() == [int((got == 0).sum())]
    with pytest.raises(pr.BundleError):
        upper_half.bundle_indexes(NAMES, strict=True)


def test_split_algorithms() -> None:
    one = pr.NamespaceBundles(1)
    full = one[0]
    after, new = one.split(full)
    # range_equally_divide halves the range: not the default 2-bundle layout.
    assert after.boundaries() == [0, 0x7FFFFFFF, 0xFFFFFFFF]
    assert [str(b) for b in new] == ["0x00000000_0x7fffffff", "0x7fffffff_0xffffffff"]
    assert after != pr.NamespaceBundles(2)
    assert one.split_boundaries(full) == [0x7FFFFFFF]

    topics = [f"persistent://t/ns/topic-{i}" for i in range(7)]
    hashes = sorted(pr.crc32(t) for t in topics)
    middle = hashes[2] + (hashes[3] - hashes[2]) // 2
    assert one.split_boundaries(full, "topic_count_equally_divide", topics=topics[:6]) == [
        sorted(pr.crc32(t) for t in topics[:6])[2]
        + (sorted(pr.crc32(t) for t in topics[:6])[3] - sorted(pr.crc32(t) for t in topics[:6])[2])
        // 2
    ]
    assert one.split_boundaries(full, "topic_count_equally_divide", topics=topics) == [middle]
    assert one.split_boundaries(full, "topic_count_equally_divide", topics=topics[:1]) is None
    assert one.split(full, "topic_count_equally_divide") == (one, [])

    positions = [0x30000000, 0x10000000, 0xFFFFFFFF]
    assert one.split_boundaries(
        full, "specified_positions_divide_force", positions=positions
    ) == [0x10000000, 0x30000000]
    # Without force, a bundle with at most one topic is not split.
    assert one.split_boundaries(full, "specified_positions_divide", positions=positions) is None
    assert one.split_boundaries(
        full, "specified_positions_divide", positions=positions, topics=topics[:2]
    ) == [0x10000000, 0x30000000]
    after, new = one.split(full, "specified_positions_divide_force", positions=positions)
    assert len(new) == 3 and after.boundaries() == [0, 0x10000000, 0x30000000, 0xFFFFFFFF]
    with pytest.raises(pr.BundleError, match="SplitBoundaries can't be empty"):
        one.split(full, "specified_positions_divide_force")

    # flow_or_qps: two busy topics, each over the rate limit on its own.
    busy = topics[:2]
    stats = [[40_000.0, 0.0, 0.0, 0.0], [40_000.0, 0.0, 0.0, 0.0]]
    low, high = sorted(pr.crc32(t) for t in busy)
    assert one.split_boundaries(full, "flow_or_qps_equally_divide", topics=busy, topic_stats=stats) == [
        low + (high - low) // 2 + 1
    ]
    # Under a higher limit there is no split; topics without stats are skipped.
    assert (
        one.split_boundaries(
            full,
            "flow_or_qps_equally_divide",
            topics=busy,
            topic_stats=np.array(stats),
            max_msg_rate=100_000,
        )
        is None
    )
    assert (
        one.split_boundaries(
            full, "flow_or_qps_equally_divide", topics=busy, topic_stats=[stats[0], None]
        )
        is None
    )
    with pytest.raises(ValueError, match="topic_stats has 1 entries for 2 topics"):
        one.split(full, "flow_or_qps_equally_divide", topics=busy, topic_stats=stats[:1])
    with pytest.raises(TypeError, match=r"topics\[1\] must be a topic name, not None"):
        one.split(full, "topic_count_equally_divide", topics=["a", None])


def test_split_errors() -> None:
    four = pr.NamespaceBundles()
    with pytest.raises(pr.BundleError, match="^unknown bundle split algorithm"):
        four.split(four[0], "halve")
    with pytest.raises(pr.BundleError, match="Cannot find bundle in the bundles list"):
        four.split("0x10000000_0x40000000")
    with pytest.raises(pr.BundleError, match="Invalid upper boundary for bundle"):
        four.split("0x00000000_0x20000000")
    with pytest.raises(pr.BundleError, match="bundle can't be split further"):
        pr.NamespaceBundles.from_boundaries([0, 1, 0xFFFFFFFF]).split("0x00000000_0x00000001")
    # Positions outside the bundle are dropped by the algorithm: no split.
    assert four.split(four[0], "specified_positions_divide_force", positions=[0x40000000]) == (
        four,
        [],
    )
    # A middle topic hash outside the bundle fails the split itself.
    outside = [t for t in MANY[:50] if pr.crc32(t) >= 0x40000000][:2]
    with pytest.raises(
        pr.BundleError,
        match=r"^The given fixed keys must between the key range of the 0x00000000_0x40000000 bundle$",
    ):
        four.split(four[0], "topic_count_equally_divide", topics=outside)
    with pytest.raises(pr.BundleError, match="a bundle must be split into at least 1 part"):
        four.split_equally(four[0], 0)
    with pytest.raises(TypeError, match="bundle must be BundleRange or str, not int"):
        untyped.NamespaceBundles().split(0)


def test_split_equally() -> None:
    one = pr.NamespaceBundles(1)
    after, new = one.split_equally(one[0], 4)
    # (upper - lower) // parts from the lower bound: not the default spacing.
    assert after.boundaries() == [0, 0x3FFFFFFF, 0x7FFFFFFE, 0xBFFFFFFD, 0xFFFFFFFF]
    assert new == after.bundles()
    assert one.split_equally(one[0])[0].boundaries() == [0, 0x7FFFFFFF, 0xFFFFFFFF]


def test_batch_inputs_agree_with_one_at_a_time() -> None:
    # Parsed objects keep their own rules, here the ones that accept them.
    topics: list[Topic] = [
        *NAMES,
        None,
        pr.TopicName("TOPIC://t/ns/x", rules="master"),
        pr.TopicName("persistent://tenant/cluster/ns/v1-topic", rules="v4"),
        "last",
    ]
    texts = [t for t in topics if isinstance(t, str)]
    inputs: list[tuple[Any, Sequence[Topic]]] = [
        (topics, topics),
        (tuple(topics), topics),
        ((t for t in topics), topics),
        (np.array(topics, dtype=object), topics),
        (np.array(texts), texts),
        (np.array(texts)[::-1], texts[::-1]),
        (np.array(texts).astype(np.dtype("U").newbyteorder()), texts),
        (pa.array([*texts, None], pa.string()), [*texts, None]),
        (pa.array([None, *texts], pa.large_string()).slice(1), texts),
        (pa.chunked_array([pa.array(texts[:2]), pa.array([], pa.string()), pa.array(texts[2:])]), texts),
    ]
    string_dtype = getattr(getattr(np, "dtypes", None), "StringDType", None)
    if string_dtype is not None:
        inputs.append((np.array(texts, dtype=string_dtype()), texts))
    for k in (1, 3, 4, 16, 1000):
        for layout in (pr.NamespaceBundles(k), pr.NamespaceBundles.from_boundaries(pr.default_boundaries(k))):
            for given, reference in inputs:
                if isinstance(given, Iterator):
                    given = iter(list(reference))
                got = layout.bundle_indexes(given)
                assert got.dtype == np.int32 and got.shape == (len(reference),)
                assert got.tolist() == one_at_a_time(layout, reference), (k, type(given))


def test_partitions_expand_each_topic() -> None:
    topics: list[Topic] = ["orders", None, "t/ns/x-partition-1", pr.TopicName("y")]
    layout = pr.NamespaceBundles(16)
    got = layout.bundle_indexes(topics, partitions=3)
    assert got.dtype == np.int32 and got.shape == (4, 3)
    assert got.tolist() == one_at_a_time(layout, topics, partitions=3)
    # x-partition-1 is already partition 1: getPartition(1) keeps its name.
    assert got[2, 1] == layout.bundle_indexes(["t/ns/x-partition-1"])[0]
    counts = layout.count_per_bundle(topics, partitions=3)
    assert counts.sum() == 9
    assert counts.tolist() == np.bincount(got[got >= 0], minlength=16).tolist()
    assert layout.bundle_indexes([], partitions=3).shape == (0, 3)
    with pytest.raises(pr.PartitionCountError):
        layout.bundle_indexes(topics, partitions=0)
    with pytest.raises(pr.TopicNameError):
        layout.bundle_indexes(
            [pr.TopicName("segment://t/ns/x/0000-ffff-1", rules="master")], partitions=2
        )


def test_compare_shows_which_topics_move() -> None:
    before = pr.NamespaceBundles(4)
    after, new = before.split(before[2])
    moved = before.compare(after, MANY)
    assert moved.dtype == np.bool_ and moved.shape == (len(MANY),)
    assert moved.tolist() == [pr.crc32(t) in before[2] for t in MANY]
    assert 0 < moved.sum() < len(MANY)
    assert not before.compare(before, MANY).any()
    assert before.compare(after, ["x", None]).tolist()[1] is False
    per_partition = before.compare(after, MANY[:10], partitions=4)
    assert per_partition.shape == (10, 4)
    # The split moves topics only into the new bundles.
    indexes = after.bundle_indexes(MANY)
    new_indexes = {after.validate_bundle(b) for b in new}
    assert {int(i) for i in indexes[moved]} <= new_indexes


def test_large_batches_agree() -> None:
    layout = pr.NamespaceBundles(64)
    topics: list[Topic] = [t if i % 7 else None for i, t in enumerate(MANY)]
    want = one_at_a_time(layout, topics)
    assert layout.bundle_indexes(topics).tolist() == want
    texts = [t for t in topics if t is not None]
    want_texts = [w for w, t in zip(want, topics) if t is not None]
    assert layout.bundle_indexes(np.array(texts)).tolist() == want_texts
    assert layout.bundle_indexes(pa.array(topics)).tolist() == want
    counts = layout.count_per_bundle(pa.array(topics))
    assert counts.tolist() == np.bincount(want_texts, minlength=64).tolist()


def test_large_batches_over_irregular_layouts_agree() -> None:
    """Batches over an explicit layout use an index once they are large;
    the answers must be those of single lookups, including hashes below a
    first boundary above 0 and slices that several boundaries cut."""
    rng = np.random.default_rng(7)
    spread = sorted({int(b) for b in rng.integers(1, 0xFFFFFFFF, 40)})
    packed = list(range(0x7FFF_0000, 0x7FFF_0000 + 30 * 7, 7))
    for boundaries in ([0, *spread, 0xFFFFFFFF], [0x1000_0000, *packed, 0x9000_0000, 0xFFFFFFFF]):
        layout = pr.NamespaceBundles.from_boundaries(boundaries)

        def single(topic: str) -> int:
            try:
                return layout.bundle_index_for_hash(pr.TopicName(topic).crc32)
            except pr.BundleError:
                return -1

        want = [single(t) for t in MANY]
        got = layout.bundle_indexes(MANY)
        assert got.tolist() == want
        owned = [w for w in want if w >= 0]
        assert layout.count_per_bundle(MANY).tolist() == np.bincount(owned, minlength=len(layout)).tolist()
        assert not layout.compare(pr.NamespaceBundles.from_boundaries(boundaries), MANY).any()


def test_batch_errors() -> None:
    layout = pr.NamespaceBundles()
    with pytest.raises(TypeError, match="not one name"):
        untyped.NamespaceBundles().bundle_indexes("my-topic")
    with pytest.raises(TypeError, match="not one name"):
        untyped.NamespaceBundles().bundle_indexes(pr.TopicName("my-topic"))
    with pytest.raises(TypeError, match=r"topics\[2\] must be str, TopicName or None, not bytes"):
        untyped.NamespaceBundles().bundle_indexes(["a", None, b"b"])
    with pytest.raises(pr.TopicNameError, match="Invalid short topic name 'a/b'"):
        layout.bundle_indexes(["ok", "a/b"])
    with pytest.raises(pr.TopicNameError):
        layout.bundle_indexes(pa.array(MANY[:2000] + ["a/b"]))
    with pytest.raises(TypeError, match=r"dtype U\) or objects, not dtype \|S1"):
        layout.bundle_indexes(np.array([b"a"]))
    with pytest.raises(ValueError, match="one-dimensional"):
        layout.bundle_indexes(np.array([["a"]]))
    with pytest.raises(TypeError, match="topics must be a pyarrow array of string or large_string"):
        layout.bundle_indexes(pa.array([b"a"], pa.binary()))
    surrogate = np.array([0x61, 0xD800], dtype=np.uint32).view("U2")
    with pytest.raises(ValueError, match="lone surrogate"):
        layout.bundle_indexes(surrogate)
    with pytest.raises(UnicodeEncodeError):
        layout.bundle_indexes(["x\udc00"])
    with pytest.raises(pr.PulsarRoutingError, match="unknown topic name rules"):
        layout.bundle_indexes(["x"], rules="4.x")

    def failing() -> Iterator[str]:
        yield "a"
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        layout.count_per_bundle(failing())


def test_validate_full_range_and_parse_boundary() -> None:
    pr.validate_full_range(["0xffffffff", "0x80000000", "0x00000000"])
    pr.validate_full_range(iter(["0x00000000", "0xffffffff"]))
    with pytest.raises(pr.BundleError, match="must start at 0x00000000 and end at 0xffffffff"):
        pr.validate_full_range(["0x0", "0xffffffff"])
    with pytest.raises(pr.BundleError):
        pr.validate_full_range([])
    with pytest.raises(TypeError):
        untyped.validate_full_range("0x00000000")
    assert pr.parse_boundary("0x40000000") == pr.parse_boundary("#40000000") == 1 << 30
    assert pr.parse_boundary("010") == 8  # Long.decode reads a leading 0 as octal
    with pytest.raises(pr.BundleError, match="outside the hash range"):
        pr.parse_boundary("0x100000000")
