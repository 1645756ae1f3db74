"""Hypothesis properties of topic names and bundles: lookups own every hash
once, names round-trip, splits move exactly the split bundle's topics, and
the batch path equals the one-topic path."""

from __future__ import annotations

from typing import Optional

from hypothesis import given
from hypothesis import strategies as st

import pulsar_routing as pr

FULL = 0xFFFFFFFF
hashes = st.integers(0, FULL)
counts = st.one_of(st.integers(1, 300), st.integers(1, 2**31 - 1))

# Explicit layouts: 0, sorted distinct inner boundaries, 0xffffffff.
layouts = st.builds(
    lambda inner: pr.NamespaceBundles.from_boundaries([0, *sorted(inner), FULL]),
    st.sets(st.integers(1, FULL - 1), max_size=20),
)
any_layout = st.one_of(st.builds(pr.NamespaceBundles, st.integers(1, 2000)), layouts)

# Valid names: tenant and namespace are named entities; the local name is
# free text, but not blank (no whitespace or control characters here) and,
# to be valid under both rule sets, without "/".
entity = st.text("abcXYZ019-_=:.", min_size=1, max_size=12)
local = st.text(
    st.characters(exclude_categories=["Cs", "Zs", "Zl", "Zp", "Cc"], exclude_characters="/"),
    min_size=1,
    max_size=30,
)
domains = st.sampled_from(["persistent", "non-persistent", "PERSISTENT"])
topic_names = st.one_of(
    local,
    st.builds("{}/{}/{}".format, entity, entity, local),
    st.builds("{}://{}/{}/{}".format, domains, entity, entity, local),
)
# Any text shaped like a name, valid or not.
name_like = st.one_of(topic_names, st.text(st.characters(exclude_categories=["Cs"]), max_size=40))


@given(any_layout, hashes)
def test_every_hash_has_exactly_one_bundle(layout: pr.NamespaceBundles, h: int) -> None:
    owners = [bundle for bundle in layout if bundle.includes(h)]
    assert len(owners) == 1
    assert layout.bundle_for_hash(h) == owners[0]
    assert layout[layout.bundle_index_for_hash(h)] == owners[0]


# A negative bound prints as 16 hex digits, which Long.decode cannot read back.
@given(st.integers(0, 2**40), st.integers(1, 2**40))
def test_bundle_range_names_round_trip(lower: int, width: int) -> None:
    bundle = pr.BundleRange(lower, lower + width)
    assert pr.BundleRange.parse(str(bundle)) == bundle
    assert str(pr.BundleRange.parse(str(bundle))) == str(bundle)


@given(st.one_of(name_like, st.builds("{}/{}".format, name_like, name_like)))
def test_canonical_names_parse_to_the_same_topic(name: str) -> None:
    for rules in ("4.2", "v4", "master"):
        try:
            topic = pr.TopicName(name, rules=rules)
        except pr.TopicNameError:
            continue
        again = pr.TopicName(str(topic), rules=rules)
        assert again == topic and str(again) == str(topic)
        assert topic.crc32 == pr.crc32(str(topic))


@given(layouts, st.data(), st.lists(topic_names, max_size=30), st.integers(2, 5))
def test_a_split_moves_exactly_the_split_bundle(
    layout: pr.NamespaceBundles, data: st.DataObject, topics: list[str], parts: int
) -> None:
    target = data.draw(st.sampled_from(layout.bundles()).filter(lambda b: b.upper - b.lower >= parts))
    after, new = layout.split_equally(target, parts)
    assert len(after) == len(layout) + parts - 1
    assert after.boundaries() == sorted(set(after.boundaries()))
    assert new[0].lower == target.lower and new[-1].upper == target.upper
    moved = layout.compare(after, topics).tolist()
    assert moved == [pr.TopicName(t).crc32 in target for t in topics]
    counts_before = layout.count_per_bundle(topics)
    counts_after = after.count_per_bundle(topics)
    assert counts_before.sum() == counts_after.sum() == len(topics)


@given(
    any_layout,
    st.lists(st.one_of(st.none(), topic_names), max_size=40),
    st.one_of(st.none(), st.integers(1, 4)),
)
def test_batch_equals_one_topic_at_a_time(
    layout: pr.NamespaceBundles, topics: list[Optional[str]], partitions: Optional[int]
) -> None:
    bundles = layout.bundles()

    def index(name: str) -> int:
        return bundles.index(layout.bundle_for_topic(name))

    got = layout.bundle_indexes(topics, partitions=partitions).tolist()
    if partitions is None:
        assert got == [-1 if t is None else index(t) for t in topics]
    else:
        assert got == [
            [-1] * partitions
            if t is None
            else [index(pr.TopicName(t).partition(i)) for i in range(partitions)]
            for t in topics
        ]


@given(topic_names, counts)
def test_topic_bundle_is_the_default_layout_lookup(name: str, k: int) -> None:
    bundle = pr.topic_bundle(name, k)
    layout = pr.NamespaceBundles(k)
    assert bundle == str(layout.bundle_for_topic(name))
    assert pr.TopicName(name).crc32 in pr.BundleRange.parse(bundle)
