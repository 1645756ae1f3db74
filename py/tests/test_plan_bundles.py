"""pulsar_routing.plan bundles: spread, bundle count and split impact, from the core's lookups."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pulsar_routing as pr
from pulsar_routing.plan import PlanInputError, bundle_spread, bundles_needed, split_impact, topic_set
from pulsar_routing.plan.bundles import read_topics

TOPICS = [f"persistent://t/ns/topic-{i}" for i in range(300)]


def test_spread_counts_are_the_cores() -> None:
    report = bundle_spread(TOPICS, 8, partitions=4)
    layout = pr.NamespaceBundles(8)
    want = layout.count_per_bundle(TOPICS, partitions=4)
    assert [b.topic_partitions for b in report.bundles] == want.tolist()
    assert [b.bundle for b in report.bundles] == [str(b) for b in layout]
    assert report.topic_partitions == 1200 and report.topics == 300
    assert sum(b.share for b in report.bundles) == pytest.approx(1.0)
    assert report.max_mean == pytest.approx(want.max() / want.mean())
    assert 1.0 <= report.uniform.equal_max_mean < 1.3


def test_mixed_partition_counts_and_traffic() -> None:
    topics = {"a": 0, "b": 3, "persistent://public/default/c": 2}
    report = bundle_spread(topics, 4, weights=[10.0, 30.0, 20.0])
    layout = pr.NamespaceBundles(4)
    names = ["a", "b-partition-0", "b-partition-1", "b-partition-2", "c-partition-0", "c-partition-1"]
    traffic = [10.0, 10.0, 10.0, 10.0, 10.0, 10.0]
    idx = [layout.bundles().index(layout.bundle_for_topic(n)) for n in names]
    assert [b.topic_partitions for b in report.bundles] == np.bincount(idx, minlength=4).tolist()
    assert [b.traffic for b in report.bundles] == np.bincount(idx, weights=traffic, minlength=4).tolist()
    assert report.topic_partitions == 6


def test_explicit_layout() -> None:
    boundaries = [0, 0x10000000, 0x80000000, 0xFFFFFFFF]
    report = bundle_spread(TOPICS, boundaries)
    layout = pr.NamespaceBundles.from_boundaries(boundaries)
    assert [b.topic_partitions for b in report.bundles] == layout.count_per_bundle(TOPICS).tolist()
    # Uneven ranges: uniform hashing expects the big bundle to be full.
    assert report.uniform.equal_max_mean > 1.3
    same = bundle_spread(TOPICS, layout)
    assert same.bundles == report.bundles


def test_bundle_count_is_the_smallest_that_fits() -> None:
    ts = topic_set(TOPICS, partitions=4)
    found = bundles_needed(ts, 100)
    assert found.bundles is not None and found.largest_bundle is not None
    assert found.largest_bundle <= 100
    assert pr.NamespaceBundles(found.bundles).count_per_bundle(TOPICS, partitions=4).max() <= 100
    for k in range(12, found.bundles):
        assert pr.NamespaceBundles(k).count_per_bundle(TOPICS, partitions=4).max() > 100
    assert any("--bundles" in n for n in found.notes)
    assert bundles_needed(ts, 1200).bundles == 1
    with pytest.raises(ValueError):
        bundles_needed(ts, 0)


def test_split_moves_the_bundles_topics() -> None:
    ts = topic_set(TOPICS, partitions=2)
    layout = pr.NamespaceBundles(4)
    impact = split_impact(ts, layout, list_moved=0)
    counts = layout.count_per_bundle(TOPICS, partitions=2)
    fullest = layout[int(np.argmax(counts))]
    assert impact.bundle == str(fullest) and impact.split
    assert impact.moved == counts.max() == sum(b.topic_partitions for b in impact.new_bundles)
    after, new = layout.split(fullest)
    assert [b.bundle for b in impact.new_bundles] == [str(b) for b in new]
    moved = layout.compare(after, TOPICS, partitions=2).reshape(-1)
    assert impact.moved == int(moved.sum())
    assert len(impact.moved_topics) == impact.moved
    assert all(pr.crc32(t) in fullest for t in impact.moved_topics)
    assert impact.boundaries_after == [f"0x{b:08x}" for b in after.boundaries()]


def test_split_algorithms_and_named_bundle() -> None:
    ts = topic_set(TOPICS)
    layout = pr.NamespaceBundles(2)
    by_count = split_impact(ts, layout, "0x00000000_0x80000000", "topic_count_equally_divide")
    assert by_count.split
    a, b = by_count.new_bundles
    assert abs(a.topic_partitions - b.topic_partitions) <= 1
    forced = split_impact(
        ts, layout, layout[0], "specified_positions_divide_force", positions=[0x10000000], list_moved=3
    )
    assert forced.new_bundles[0].bundle == "0x00000000_0x10000000"
    assert len(forced.moved_topics) == 3
    with pytest.raises(pr.BundleError):
        split_impact(ts, layout, "0x00000000_0x40000000")


def test_report_text_and_json() -> None:
    report = bundle_spread(TOPICS, 4, partitions=3, max_per_bundle=200, split=True)
    text = str(report)
    assert "Bundles: 900 topic-partitions of 300 topics in 4 bundles" in text
    assert "At most 200 topic-partitions per bundle" in text and "Split of" in text
    data = report.to_dict()
    assert data["bundle_count"]["max_per_bundle"] == 200
    assert report.split is not None and data["split"]["moved"] == report.split.moved


def test_bad_topics() -> None:
    with pytest.raises(pr.TopicNameError):
        topic_set(["a/b"])
    with pytest.raises(ValueError, match="listed twice"):
        topic_set(["x", "persistent://public/default/x"])
    with pytest.raises(ValueError, match="weights"):
        topic_set(["x"], weights=[1.0, 2.0])


def test_topic_files(tmp_path: Path) -> None:
    text = tmp_path / "topics.txt"
    text.write_text("a\n\nb\n")
    assert read_topics(text, partitions=2).topic_partitions == 4
    csv = tmp_path / "topics.csv"
    csv.write_text("topic,parts,rate\na,0,5\nb,3,30\n")
    ts = read_topics(csv, partitions_column="parts", weight_column="rate")
    assert ts.partitions == [0, 3] and ts.weights is not None and ts.weights.tolist() == [5.0, 30.0]
    parquet = tmp_path / "topics.parquet"
    pq.write_table(pa.table({"name": ["a", "b"], "p": [1, 2]}), parquet)
    assert read_topics(parquet, topic_column="name", partitions_column="p").topic_partitions == 3
    with pytest.raises(PlanInputError, match="no column 'x'"):
        read_topics(csv, partitions_column="x")
    with pytest.raises(PlanInputError, match="no such file"):
        read_topics(tmp_path / "none.csv")
