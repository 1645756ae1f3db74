"""Every row of topics.jsonl and bundles.jsonl, through the Python API."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

import pulsar_routing as pr

from .golden import golden, rows

# A row without `impl` (or with "both") holds under both builds' rule sets.
# The 4.2 rules hold where 4.2.4 prints the row again unchanged (the golden
# README's "Printing them again"): rows of both builds, and master rows
# outside the topic:// and segment:// domains 4.2.4 does not have.
RULES_OF_IMPL = {
    None: ("v4", "master", "4.2"),
    "both": ("v4", "master", "4.2"),
    "v4": ("v4",),
    "master": ("master", "4.2"),
}

PARSED_FIELDS = (
    "domain",
    "tenant",
    "cluster",
    "namespace_portion",
    "namespace",
    "local_name",
    "partition_index",
    "partitioned_topic_name",
    "persistent",
    "lookup_name",
    "persistence_naming",
    "rest_path",
    "encoded_local_name",
)


def names_scalable_domain(name: str) -> bool:
    domain, sep, _ = name.partition("://")
    return bool(sep) and domain.lower() in ("topic", "segment")


def rules_of(row: dict[str, Any]) -> tuple[str, ...]:
    rules = RULES_OF_IMPL[row.get("impl")]
    name = row["input"] if "input" in row else row["topic"]
    if row.get("impl") == "master" and names_scalable_domain(name):
        return ("master",)
    return rules


def hex_list(values: list[int]) -> list[str]:
    return [f"0x{value:08x}" for value in values]


def test_topic_rows() -> None:
    checked: Counter[str] = Counter()
    for row in rows("topics", "parse"):
        name = row["input"]
        for rules in rules_of(row):
            where = f"{name!r} under {rules}"
            if not row["ok"]:
                assert row["error_class"] == "java.lang.IllegalArgumentException", where
                with pytest.raises(pr.TopicNameError) as raised:
                    pr.TopicName(name, rules=rules)
                assert str(raised.value) == row["error_message"], where
                checked["error"] += 1
                continue
            topic = pr.TopicName(name, rules=rules)
            assert topic.rules == rules
            assert str(topic) == row["to_string"], where
            for field in PARSED_FIELDS:
                assert getattr(topic, field) == row[field], f"{field} of {where}"
            assert topic.partitioned == (row["partition_index"] != -1), where
            assert topic.crc32 == pr.crc32(row["to_string"].encode()), where
            if "partition_3" in row:
                assert topic.partition(3) == row["partition_3"], where
            else:
                assert row["partition_3_error"] == "java.lang.IllegalArgumentException", where
                with pytest.raises(pr.TopicNameError):
                    topic.partition(3)
            # The canonical name is a name of the same topic.
            assert pr.TopicName(str(topic), rules=rules) == topic, where
            checked["ok"] += 1
    for row in rows("topics", "get_partition_index"):
        assert pr.get_partition_index(row["input"]) == row["partition_index"], row
        checked["get_partition_index"] += 1
    assert checked["ok"] > 100 and checked["error"] > 30, checked
    assert checked["get_partition_index"] >= 18, checked


def test_topic_bundle_rows() -> None:
    topic_rows = rows("bundles", "topic_bundle")
    assert len(topic_rows) > 2000, "bundles.jsonl looks truncated"
    checked: Counter[str] = Counter()
    for row in topic_rows:
        name = row["topic"]
        for rules in rules_of(row):
            where = f"{name!r}, {row.get('num_bundles')} bundles, {rules}"
            if "canonical" not in row:
                # Rejected by the parser itself (a V1 name under the master rules).
                with pytest.raises(pr.TopicNameError):
                    pr.topic_bundle(name, 4, rules=rules)
                checked["parse error"] += 1
                continue
            topic = pr.TopicName(name, rules=rules)
            assert str(topic) == row["canonical"], where
            assert topic.crc32 == row["crc32"], where
            k = row["num_bundles"]
            layout = pr.NamespaceBundles(k)
            if "error" in row:
                # The broker's lookup throws for a hash of 0xffffffff; the
                # default lookup gives the bundle whose range includes it.
                assert row["error"] == "java.lang.IndexOutOfBoundsException", where
                assert pr.topic_bundle(name, k, rules=rules) == row["includes_bundle"], where
                with pytest.raises(pr.BundleError, match="IndexOutOfBoundsException"):
                    layout.bundle_for_topic(name, rules=rules, strict=True)
                with pytest.raises(pr.BundleError):
                    layout.bundle_indexes([name], rules=rules, strict=True)
                assert row["crc32"] in layout.bundle_for_topic(topic)
                checked["lookup error"] += 1
                continue
            assert pr.topic_bundle(name, k, rules=rules) == row["bundle"], where
            assert pr.topic_bundle(topic, k) == row["bundle"], where
            bundle = layout.bundle_for_topic(name, rules=rules, strict=True)
            assert str(bundle) == row["bundle"], where
            assert bundle.key(topic.namespace) == row["bundle_key"], where
            assert bundle.includes(row["crc32"]) == row["includes"], where
            assert layout.bundle_for_hash(row["crc32"]) == bundle, where
            checked["ok"] += 1
    assert checked["ok"] > 2000 and checked["lookup error"] > 0, checked
    assert checked["parse error"] > 0, checked


def test_topic_bundle_rows_in_batches() -> None:
    """The batch path agrees with the one-topic path on every golden topic."""
    groups: dict[tuple[int, str], list[str]] = defaultdict(list)
    for row in rows("bundles", "topic_bundle"):
        if "canonical" in row:
            for rules in rules_of(row):
                groups[(row["num_bundles"], rules)].append(row["topic"])
    for (k, rules), names in groups.items():
        layout = pr.NamespaceBundles(k)
        bundles = layout.bundles()
        want = [bundles.index(layout.bundle_for_topic(name, rules=rules)) for name in names]
        inputs: list[Any] = [
            names,
            tuple(names),
            np.array(names),
            np.array(names, dtype=object),
            pa.array(names, pa.string()),
            pa.array(names, pa.large_string()),
            pa.chunked_array([pa.array(names[:3]), pa.array(names[3:])]),
        ]
        for topics in inputs:
            got = layout.bundle_indexes(topics, rules=rules)
            assert got.dtype == np.int32
            assert got.tolist() == want, (k, rules, type(topics))
        counts = layout.count_per_bundle(names, rules=rules)
        assert counts.dtype == np.int64
        assert counts.tolist() == np.bincount(want, minlength=k).tolist()


def test_default_bundles_rows() -> None:
    checked = 0
    for row in rows("bundles", "default_bundles"):
        k = row["num_bundles"]
        if "error" in row:
            with pytest.raises(pr.BundleError, match=r"^Invalid number of bundles\. "):
                pr.NamespaceBundles(k)
            with pytest.raises(pr.BundleError):
                pr.default_boundaries(k)
            with pytest.raises(pr.BundleError):
                pr.topic_bundle("my-topic", k)
            continue
        layout = pr.NamespaceBundles(k)
        assert len(layout) == layout.num_bundles == k
        assert hex_list(layout.boundaries()) == row["boundaries"]
        assert pr.default_boundaries(k) == layout.boundaries()
        assert [str(bundle) for bundle in layout.bundles()] == row["names"]
        assert [bundle.upper_closed for bundle in layout] == row["upper_closed"]
        # The same layout from its boundaries is equal, and hashes equally.
        explicit = pr.NamespaceBundles.from_boundaries(row["boundaries"])
        assert explicit == layout and hash(explicit) == hash(layout)
        checked += 1
    assert checked > 60


def test_hash_bundle_rows() -> None:
    checked = 0
    for row in rows("bundles", "hash_bundle"):
        layout = pr.NamespaceBundles(row["num_bundles"])
        h = row["hash"]
        if "error" in row:
            assert row["error"] == "java.lang.IndexOutOfBoundsException"
            with pytest.raises(pr.BundleError):
                layout.bundle_for_hash(h, strict=True)
            assert layout.bundle_index_for_hash(h) == len(layout) - 1
        else:
            assert str(layout.bundle_for_hash(h, strict=True)) == row["bundle"], row
            assert str(layout[layout.bundle_index_for_hash(h)]) == row["bundle"], row
        checked += 1
    assert checked > 60


PROBE_TOPICS = [f"persistent://t/ns/probe-{i}" for i in range(300)]


def split_inputs(row: dict[str, Any]) -> dict[str, Any]:
    """The algorithm inputs of a split row, as keyword arguments."""
    kwargs: dict[str, Any] = {}
    if "positions" in row:
        kwargs["positions"] = row["positions"]
    if "topics" in row:
        kwargs["topics"] = row["topics"]
    if "topic_stats" in row:
        kwargs["topic_stats"] = row["topic_stats"]
    if "flow_args" in row:
        rate, bandwidth, threshold = row["flow_args"]
        kwargs.update(
            max_msg_rate=rate, max_bandwidth_mbytes=bandwidth, threshold_percent=threshold
        )
    return kwargs


def test_split_rows() -> None:
    checked: Counter[str] = Counter()
    for row in rows("bundles", "split"):
        layout = pr.NamespaceBundles.from_boundaries(row["boundaries_before"])
        target = row["target_bundle"]
        algorithm = row["algorithm"]
        kwargs = split_inputs(row)
        if "split_boundaries" not in row:
            # The algorithm itself fails: an empty position list.
            assert "error" in row, row
            with pytest.raises(pr.BundleError, match="SplitBoundaries can't be empty"):
                layout.split_boundaries(target, algorithm, **kwargs)
            with pytest.raises(pr.BundleError):
                layout.split(target, algorithm, **kwargs)
            checked["algorithm error"] += 1
            continue
        chosen = layout.split_boundaries(target, algorithm, **kwargs)
        assert chosen == row["split_boundaries"], row
        if row.get("result") == "no_split":
            after, new = layout.split(pr.BundleRange.parse(target), algorithm, **kwargs)
            assert after is layout and new == [], row
            checked["no split"] += 1
        elif "error" in row:
            assert row["error"] == "java.lang.IllegalArgumentException", row
            with pytest.raises(pr.BundleError):
                layout.split(target, algorithm, **kwargs)
            checked["split error"] += 1
        else:
            after, new = layout.split(target, algorithm, **kwargs)
            assert hex_list(after.boundaries()) == row["boundaries_after"], row
            assert [str(bundle) for bundle in new] == row["new_bundles"], row
            # The impact: exactly the topics of the split bundle move.
            probes = row.get("topics") or PROBE_TOPICS
            split_bundle = pr.BundleRange.parse(target)
            moved = layout.compare(after, probes)
            assert moved.tolist() == [pr.crc32(name) in split_bundle for name in probes], row
            checked["split"] += 1
    assert all(checked[kind] > 0 for kind in ("algorithm error", "no split", "split error", "split"))
    assert sum(checked.values()) == len(rows("bundles", "split")), checked


def test_split_equal_parts_rows() -> None:
    checked = 0
    for row in rows("bundles", "split_equal_parts"):
        layout = pr.NamespaceBundles.from_boundaries(row["boundaries_before"])
        after, new = layout.split_equally(row["target_bundle"], row["num_parts"])
        assert hex_list(after.boundaries()) == row["boundaries_after"], row
        assert [str(bundle) for bundle in new] == row["new_bundles"], row
        checked += 1
    assert checked >= 10


def test_parse_bundle_range_rows() -> None:
    four = pr.NamespaceBundles(4)
    checked = 0
    for row in rows("bundles", "parse_bundle_range"):
        text = row["input"]
        if "error" in row:
            assert row["error"] in (
                "java.lang.IllegalArgumentException",
                "java.lang.ArrayIndexOutOfBoundsException",
            )
            with pytest.raises(pr.BundleError):
                pr.BundleRange.parse(text)
        else:
            bundle = pr.BundleRange.parse(text)
            assert bundle.lower == row["lower"] and bundle.upper == row["upper"], row
            assert bundle.upper_closed == row["upper_closed"], row
            assert str(bundle) == row["bundle_range"], row
            assert bundle.key("t/ns") == row["key"], row
            assert pr.BundleRange(bundle.lower, bundle.upper) == bundle
            try:
                four.validate_bundle(bundle)
            except pr.BundleError:
                valid = False
            else:
                valid = True
            assert valid == row["valid_in_4_bundles"], row
        checked += 1
    assert checked >= 18


def test_bundles_from_boundaries_rows() -> None:
    checked = 0
    for row in rows("bundles", "bundles_from_boundaries"):
        if "error" in row:
            assert row["error"] == "java.lang.IllegalArgumentException"
            with pytest.raises(pr.BundleError):
                pr.NamespaceBundles.from_boundaries(row["boundaries"])
            continue
        layout = pr.NamespaceBundles.from_boundaries(row["boundaries"])
        # Ints work as well as the broker's strings.
        assert pr.NamespaceBundles.from_boundaries([pr.parse_boundary(b) for b in row["boundaries"]]) == layout
        assert [str(bundle) for bundle in layout] == row["names"], row
        for h, expected in zip(row["probe_hashes"], row["probe_bundles"]):
            if expected.startswith("error:"):
                assert expected == "error:java.lang.IndexOutOfBoundsException"
                with pytest.raises(pr.BundleError):
                    layout.bundle_for_hash(h, strict=True)
            else:
                assert str(layout.bundle_for_hash(h, strict=True)) == expected, row
        checked += 1
    assert checked > 3


def test_validate_full_range_and_can_split_rows() -> None:
    for row in rows("bundles", "validate_full_range"):
        if row["valid"]:
            pr.validate_full_range(row["boundaries"])
        else:
            with pytest.raises(pr.BundleError):
                pr.validate_full_range(row["boundaries"])
    for row in rows("bundles", "can_split"):
        assert pr.BundleRange.parse(row["bundle"]).can_split() == row["can_split"], row
    assert len(rows("bundles", "validate_full_range")) >= 6
    assert len(rows("bundles", "can_split")) >= 6


def test_every_bundle_kind_is_covered() -> None:
    kinds = {row["kind"] for row in golden("bundles")}
    assert kinds == {
        "default_bundles",
        "topic_bundle",
        "hash_bundle",
        "split",
        "split_equal_parts",
        "parse_bundle_range",
        "bundles_from_boundaries",
        "validate_full_range",
        "can_split",
    }
