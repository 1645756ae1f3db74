"""The auto-split forecast against hand-worked examples of the broker's rule.

Each expectation is worked out by hand from BundleSplitterTask (modular) or
DefaultNamespaceBundleSplitStrategyImpl (extensible) and the split
algorithms' definitions: topics are chosen by their CRC-32 (the hash the
broker places them by) so that where each split lands is known in advance.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import pytest

import pulsar_routing as pr
from pulsar_routing.plan.admin import TopicTraffic, read_admin_bundles, read_admin_stats
from pulsar_routing.plan.split_forecast import SplitSettings, autosplit, demo_namespace
from pulsar_routing.plan.cli import main

ADMIN = Path(__file__).resolve().parents[2] / "testdata" / "admin"
FULL = [0x00000000, 0xFFFFFFFF]  # one bundle, the whole hash range
MIB = 1024 * 1024


def named(count: int, where: Callable[[int], bool], prefix: str = "t") -> list[str]:
    """``count`` canonical topic names whose CRC-32 satisfies ``where``, in hash order."""
    out: list[str] = []
    i = 0
    while len(out) < count:
        name = f"persistent://acme/ns/{prefix}-{i}"
        if where(pr.crc32(name)):
            out.append(name)
        i += 1
    return sorted(out, key=pr.crc32)


def topic(name: str, rate: float = 0.0, *, throughput: float = 0.0, producers: int = 0, consumers: int = 0) -> TopicTraffic:
    return TopicTraffic(
        msg_rate_in=rate, msg_rate_out=0.0, msg_throughput_in=throughput, msg_throughput_out=0.0,
        producers=producers, consumers=consumers, topic=name, namespace="acme/ns",
    )


def test_rate_over_the_limit_splits_once_at_the_middle() -> None:
    # 20,000 + 20,000 msg/s > 30,000: the one bundle splits at
    # 0 + (0xffffffff - 0) / 2 = 0x7fffffff; one topic each side, 20,000 each: done.
    low = named(1, lambda h: h < 0x7FFFFFFF, "low")
    high = named(1, lambda h: h >= 0x7FFFFFFF, "high")
    report = autosplit([topic(low[0], 20_000), topic(high[0], 20_000)], FULL)
    assert [r.round for r in report.rounds] == [1]
    step = report.rounds[0].steps[0]
    assert step.reasons == ["msg rate 40,000/s > 30,000"] and step.split
    assert [b.bundle for b in step.new_bundles] == ["0x00000000_0x7fffffff", "0x7fffffff_0xffffffff"]
    assert report.rounds[0].boundaries_after == ["0x00000000", "0x7fffffff", "0xffffffff"]
    assert report.bundles_after == 2 and report.moved_topics == 2 and report.relookups == 2
    assert report.still_over == []
    # A namespace created with 2 bundles (boundary 0x80000000) holds them apart from the start.
    two = 2 if pr.crc32(low[0]) < 0x80000000 <= pr.crc32(high[0]) else None
    assert report.create_bundles == two


def test_a_hot_topic_is_split_away_then_stays_over() -> None:
    # H (50,000 msg/s) below 0x3fffffff, C (10 msg/s) in [0x3fffffff,
    # 0x7fffffff). Round 1 halves the whole range at 0x7fffffff (both
    # below), round 2 halves [0, 0x7fffffff) at 0x3fffffff: H and C apart.
    # H alone is still over and cannot be split.
    hot = named(1, lambda h: h < 0x3FFFFFFF, "hot")[0]
    cold = named(1, lambda h: 0x3FFFFFFF <= h < 0x7FFFFFFF, "cold")[0]
    report = autosplit([topic(hot, 50_000), topic(cold, 10)], FULL)
    assert len(report.rounds) == 2 and report.bundles_after == 3
    assert [m.moves for m in report.moved] == [2, 2]
    assert report.relookups == 4
    (over,) = report.still_over
    assert hot in over.why and "fewer than 2 topics" in over.why
    assert over.suggestion is not None and f"at least {math.ceil(50_000 / 30_000)} partitions" in over.suggestion
    # 95,000 msg/s needs ceil(95,000 / 30,000) = 4 partitions to get each under the limit.
    report = autosplit([topic(hot, 95_000), topic(cold, 10)], FULL)
    assert "at least 4 partitions" in (report.still_over[0].suggestion or "")


def test_a_single_hot_topic_never_splits() -> None:
    # The broker skips bundles with fewer than 2 topics, however hot.
    (only,) = named(1, lambda h: True)
    report = autosplit([topic(only, 1e6, throughput=500 * MIB, producers=900, consumers=900)], FULL)
    assert report.rounds == [] and report.bundles_after == 1
    assert report.still_over[0].reasons == [
        "sessions 1,800 > 1,000", "msg rate 1,000,000/s > 30,000", "throughput 500.0 MiB/s > 100",
    ]


def test_the_bundle_cap() -> None:
    # Two bundles, both over (1,200 sessions each), cap 3: in round 1 the
    # first is taken (2 + 0 < 3), the second is not (2 + 1 = 3); in round 2
    # the namespace has 3 bundles, not under 3: nothing more splits. The
    # first bundle's topics lie either side of its middle, 0x40000000.
    a = named(1, lambda h: h < 0x40000000, "a") + named(1, lambda h: 0x40000000 <= h < 0x80000000, "a")
    b = named(2, lambda h: h >= 0xC0000000, "b")
    topics = [topic(n, producers=300, consumers=300) for n in a + b]
    report = autosplit(topics, 2, settings=SplitSettings(max_bundles=3))
    assert len(report.rounds) == 1
    (step,) = report.rounds[0].steps
    assert step.bundle == "0x00000000_0x80000000" and step.reasons == ["sessions 1,200 > 1,000"]
    assert report.rounds[0].capped == ["0x80000000_0xffffffff"]
    assert report.bundles_after == 3
    assert [s.bundle for s in report.still_over] == ["0x80000000_0xffffffff"]
    assert "loadBalancerNamespaceMaximumBundles = 3" in report.still_over[0].why
    # loadBalancerNamespaceBundleMaxSessions = 0 disables the sessions check: nothing splits.
    assert autosplit(topics, 2, settings=SplitSettings(max_sessions=0)).rounds == []


def test_topic_count_equally_divide() -> None:
    # Four topics of 300 sessions (1,200 > 1,000): the split point is halfway
    # between the two middle hashes, h2 + (h3 - h2) / 2; 600 sessions each side.
    names = named(4, lambda h: True)
    h = [pr.crc32(n) for n in names]
    report = autosplit(
        [topic(n, producers=150, consumers=150) for n in names], FULL,
        settings=SplitSettings(algorithm="topic_count_equally_divide"),
    )
    (rnd,) = report.rounds
    assert rnd.boundaries_after == ["0x00000000", f"0x{h[1] + (h[2] - h[1]) // 2:08x}", "0xffffffff"]
    assert [b.topics for b in rnd.steps[0].new_bundles] == [2, 2]
    assert [b.sessions for b in rnd.steps[0].new_bundles] == [600, 600]


def test_flow_or_qps_equally_divide() -> None:
    # Three topics of 20,000 msg/s (60,000 >= 30,000 x 1.1): walking the
    # hashes, adding the next topic would pass 30,000 twice, so two split
    # points, each halfway between neighbours plus one: three bundles at once.
    names = named(3, lambda h: True)
    h = [pr.crc32(n) for n in names]
    settings = SplitSettings(algorithm="flow_or_qps_equally_divide")
    report = autosplit([topic(n, 20_000) for n in names], FULL, settings=settings)
    (rnd,) = report.rounds
    assert rnd.boundaries_after == [
        "0x00000000", f"0x{h[0] + (h[1] - h[0]) // 2 + 1:08x}", f"0x{h[1] + (h[2] - h[1]) // 2 + 1:08x}", "0xffffffff",
    ]
    assert report.bundles_after == 3 and report.still_over == []
    # 2 x 15,500 = 31,000: over 30,000, so the rule picks the bundle, but
    # under 30,000 x 1.1 = 33,000, where the algorithm finds no split point.
    report = autosplit([topic(n, 15_500) for n in names[:2]], FULL, settings=settings)
    assert [s.split for s in report.rounds[0].steps] == [False]
    assert report.bundles_after == 1
    assert "finds no split point" in report.still_over[0].why


def test_extensible_waits_for_the_hit_count_and_caps_each_cycle() -> None:
    # Over in more than 3 consecutive cycles: the split happens in cycle 4.
    # With at most 1 split per cycle, the second bundle (counted 3 times,
    # skipped when the loop broke in cycle 4) splits in cycle 5. Each
    # bundle's topics lie either side of its middle (0x40000000, and
    # 0x80000000 + 0x7fffffff / 2 = 0xbfffffff), so one split settles it.
    a = named(1, lambda h: h < 0x40000000, "a") + named(1, lambda h: 0x40000000 <= h < 0x80000000, "a")
    b = named(1, lambda h: 0x80000000 <= h < 0xBFFFFFFF, "b") + named(1, lambda h: h >= 0xBFFFFFFF, "b")
    topics = [topic(n, 20_000) for n in a + b]
    settings = SplitSettings(load_manager="extensible", max_splits_per_cycle=1)
    report = autosplit(topics, 2, settings=settings)
    assert [(r.cycle, [s.bundle for s in r.steps]) for r in report.rounds] == [
        (4, ["0x00000000_0x80000000"]),
        (5, ["0x80000000_0xffffffff"]),
    ]
    modular = autosplit(topics, 2)
    assert [len(r.steps) for r in modular.rounds] == [2]  # both at once, no waiting


def test_demo_and_admin_files() -> None:
    report = autosplit(demo_namespace(), 4)
    assert report.bundles_after > 4 and report.bundles_after <= 128
    assert any("telemetry" in s.why for s in report.still_over)
    assert report.create_command is not None and report.create_command.startswith(
        "pulsar-admin namespaces create acme/iot --bundles "
    )
    json.loads(report.to_json())
    # The sample cluster: clicks (42,000 msg/s) pushes its bundle over and stays over alone.
    stats = read_admin_stats([ADMIN / "broker-stats-topics-broker-1.json", ADMIN / "broker-stats-topics-broker-2.json"])
    report = autosplit(stats, read_admin_bundles(ADMIN / "namespaces-bundles.json"))
    assert report.rounds[0].steps[0].bundle == "0x00000000_0x40000000"
    assert ["persistent://acme/shop/clicks" in s.why for s in report.still_over] == [True]


def test_load_report_alone_gives_the_next_decision() -> None:
    stats = read_admin_stats([ADMIN / "load-report-broker-1.json", ADMIN / "load-report-broker-2.json"])
    report = autosplit(stats, 4)
    assert report.counting == "per-bundle"
    assert [s.bundle for s in report.rounds[0].steps] == ["0x00000000_0x40000000"]


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["autosplit", "--admin-bundles", str(ADMIN / "namespaces-bundles.json"), "--admin-stats",
            str(ADMIN / "broker-stats-topics-broker-1.json"), str(ADMIN / "broker-stats-topics-broker-2.json")]
    assert main([*args, "--json", "--loadBalancerNamespaceBundleMaxMsgRate", "100000"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rounds"] == [] and out["settings"]["max_msg_rate"] == 100_000
    assert main([*args, "--defaultNamespaceBundleSplitAlgorithm", "topic_count_equally_divide"]) == 0
    assert "topic_count_equally_divide" in capsys.readouterr().out
    assert main(["autosplit"]) == 1
    assert capsys.readouterr().err.startswith("error: no figures")
