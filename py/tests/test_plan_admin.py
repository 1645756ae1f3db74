"""The planner's pulsar-admin inputs: each shape recognised, bad ones refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pulsar_routing as pr
from pulsar_routing.plan import bundle_spread
from pulsar_routing.plan.admin import (
    admin_topic_set,
    layout_check,
    read_admin_bundles,
    read_admin_stats,
)
from pulsar_routing.plan.cli import main
from pulsar_routing.plan.inputs import PlanInputError

ADMIN = Path(__file__).resolve().parents[2] / "testdata" / "admin"
BROKERS = [ADMIN / "broker-stats-topics-broker-1.json", ADMIN / "broker-stats-topics-broker-2.json"]
REPORTS = [ADMIN / "load-report-broker-1.json", ADMIN / "load-report-broker-2.json"]


def test_bundles_data_is_a_layout() -> None:
    layout = read_admin_bundles(ADMIN / "namespaces-bundles.json")
    assert layout == pr.NamespaceBundles(4)


def test_broker_stats_topics_sum_to_the_load_report() -> None:
    # The broker builds each bundle's NamespaceBundleStats from the same
    # per-topic figures it writes to broker-stats topics: topics counted,
    # rates summed, producers plus the consumers of every subscription.
    stats = read_admin_stats(BROKERS)
    bundles = read_admin_stats(REPORTS).bundles
    assert len(stats.topics) == 8 and {t.namespace for t in stats.topics} == {"acme/shop"}
    for b in bundles:
        inside = [t for t in stats.topics if t.bundle == b.bundle]
        assert b.topics == len(inside)
        assert b.sessions == sum(t.sessions for t in inside)
        assert b.msg_rate == pytest.approx(sum(t.msg_rate for t in inside))
        assert b.throughput == pytest.approx(sum(t.throughput for t in inside))


def test_the_broker_placed_each_topic_where_the_core_does() -> None:
    stats = read_admin_stats(BROKERS)
    layout = read_admin_bundles(ADMIN / "namespaces-bundles.json")
    for t in stats.topics:
        assert str(layout.bundle_for_topic(t.topic)) == t.bundle
    assert layout_check(stats, layout) == []
    assert layout_check(stats, pr.NamespaceBundles(8)) != []  # figures from another layout: said so


def test_topics_stats_and_per_partition_stats() -> None:
    stats = read_admin_stats(
        [f"persistent://acme/shop/payments={ADMIN / 'topics-stats-payments.json'}", ADMIN / "partitioned-stats-orders.json"]
    )
    by_name = {t.topic: t for t in stats.topics}
    assert set(by_name) == {"persistent://acme/shop/payments"} | {
        f"persistent://acme/shop/orders-partition-{i}" for i in range(4)
    }
    doc = json.loads((ADMIN / "topics-stats-payments.json").read_text())
    payments = by_name["persistent://acme/shop/payments"]
    assert payments.producers == len(doc["publishers"])
    assert payments.consumers == sum(len(s["consumers"]) for s in doc["subscriptions"].values())
    assert payments.msg_rate == doc["msgRateIn"] + doc["msgRateOut"]


def test_bundle_report_carries_real_rates() -> None:
    stats = read_admin_stats(BROKERS)
    report = bundle_spread(admin_topic_set(stats), read_admin_bundles(ADMIN / "namespaces-bundles.json"))
    per_bundle = {b.bundle: b for b in read_admin_stats(REPORTS).bundles}
    for load in report.bundles:
        figures = per_bundle[load.bundle]
        assert load.topic_partitions == figures.topics
        assert load.traffic == pytest.approx(figures.msg_rate)
        assert load.throughput == pytest.approx(figures.throughput)
        assert load.sessions == figures.sessions


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"a": 1}, "not an output this reads"),
        ([1, 2], "not a pulsar-admin JSON object"),
        ({"boundaries": ["0x00000000", "0xffffffff"], "numBundles": 1}, "give it with --admin-bundles"),
        ({"msgRateIn": 1.0, "subscriptions": {}}, "does not name its topic"),
        ({"msgRateIn": 1.0, "subscriptions": {}, "metadata": {"partitions": 2}, "partitions": {}}, "--per-partition"),
        ({"acme/shop": {"0x00000000_0xffffffff": {"persistent": {"persistent://acme/shop/t": {"msgRateIn": -1}}}}},
         "not a finite number >= 0"),
        ({"acme/shop": {"0x00000000_0xffffffff": {"persistent": {"persistent://other/ns/t": {}}}}},
         "is listed under namespace acme/shop"),
        ({"lastStats": {"nobundle": {}}}, "is not a bundle name"),
        ({"cpu": {}, "weightedMaxEMA": 0.5, "msgRateIn": 1.0}, "extensible load manager"),
    ],
)
def test_bad_stats_get_one_line(tmp_path: Path, doc: object, message: str) -> None:
    path = tmp_path / "stats.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(PlanInputError, match=message):
        read_admin_stats([path])


def test_bad_layouts(tmp_path: Path) -> None:
    path = tmp_path / "bundles.json"
    path.write_text(json.dumps({"boundaries": ["0x00000000", "0x80000000"], "numBundles": 1}))
    with pytest.raises(PlanInputError, match="bundles.json"):
        read_admin_bundles(path)
    path.write_text(json.dumps({"boundaries": ["0x00000000", "0x80000000", "0xffffffff"], "numBundles": 3}))
    with pytest.raises(PlanInputError, match="numBundles is 3"):
        read_admin_bundles(path)
    path.write_text("{not json")
    with pytest.raises(PlanInputError, match="not JSON"):
        read_admin_bundles(path)


def test_cli_bundles_with_admin_files(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["bundles", "--admin-bundles", str(ADMIN / "namespaces-bundles.json"), "--admin-stats", *map(str, BROKERS),
         "--json"]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["topic_partitions"] == 8 and all(b["sessions"] is not None for b in out["bundles"])
    assert main(["bundles", "--admin-stats", str(ADMIN / "namespaces-bundles.json")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1
    assert main(["bundles", "--admin-stats", *map(str, BROKERS), "--namespace", "other/ns"]) == 1
    assert "no stats for namespace other/ns" in capsys.readouterr().err
