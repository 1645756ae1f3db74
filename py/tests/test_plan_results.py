"""pulsar_routing.plan results (dicts, JSON, tables), the demo data and the plots."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from pulsar_routing import plan
from pulsar_routing.plan import PlanReport, Result, run_demo, skew


@pytest.fixture(scope="module")
def demo() -> PlanReport:
    return run_demo()


def results_in(value: object) -> Iterator[Result]:
    if isinstance(value, Result):
        yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from results_in(getattr(value, f.name))
    elif isinstance(value, list):
        for item in value:
            yield from results_in(item)


def test_every_result_converts_and_prints(demo: PlanReport) -> None:
    seen = set()
    for result in results_in(demo):
        seen.add(type(result).__name__)
        data = result.to_dict()
        assert json.loads(result.to_json()) == data
        assert json.loads(result.to_json(indent=None)) == data
        assert str(result).strip()
    expected = {
        "PlanReport", "SkewAnalysis", "SkewReport", "HotKey", "UniformBaseline", "Verdict", "PartitionPlan",
        "PartitionCandidate", "DriftReport", "MovedKey", "DivergenceReport", "DivergenceRow", "BundleReport",
        "BundleLoad", "BundleCount", "SplitImpact", "QueuePlan",
    }
    if demo.key_shared is not None:
        expected |= {"KeySharedAnalysis", "KeySharedReport", "ConsumerLoad", "Rebalance"}
    assert expected <= seen


def test_demo_is_deterministic(demo: PlanReport) -> None:
    again = run_demo(key_shared=demo.key_shared is not None)
    assert again.to_json() == demo.to_json()


def test_demo_shows_the_mistakes(demo: PlanReport) -> None:
    orders, users = demo.skew
    worst = orders.worst()
    assert (worst.scheme, worst.partitions, worst.verdict.level) == ("java_string", 32, "fix-keys")
    murmur = [r for r in orders.reports if r.scheme == "murmur3_32" and r.partitions == 32][0]
    assert murmur.max_mean < worst.max_mean
    assert users.reports[0].distinct_keys < 1000
    key = users.reports[0].hot_keys[0].key
    assert isinstance(key, str) and key.isdigit() and int(key) < 600
    assert demo.drift is not None and demo.drift.from_partitions == 12 and demo.drift.to_partitions == 16
    text = str(demo)
    assert text.startswith("pulsar-routing capacity planner: demo")
    for title in ("Key skew", "Partition count", "Repartition drift", "Cross-client divergence", "Bundles", "Producer queue"):
        assert title in text


def test_bytes_keys_in_json() -> None:
    report = skew([b"\x00\x01", b"\x00\x01", "a"], 1, top=2)
    data = json.loads(report.to_json())
    assert data["hot_keys"][0]["key"] == {"base64": "AAE="}
    assert data["hot_keys"][1]["key"] == "a"
    assert "b'\\x00\\x01'" in str(report)


def test_demo_samples() -> None:
    orders = plan.demo_orders(1000)
    assert orders.distinct_keys == 1000 and orders.weighted
    assert all(str(k)[-2:] in ("01", "07", "42", "70") for k in orders.key_list())
    assert plan.demo_orders(1000).weights.tolist() == orders.weights.tolist()
    topics = plan.demo_topics()
    assert topics.topic_partitions > len(topics.names)


# ---------------------------------------------------------------- plots


def test_plots_write_pngs(demo: PlanReport, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from pulsar_routing.plan.plots import plot

    targets: list[Result] = [demo, *demo.skew, demo.skew[0].reports[0]]
    for r in (demo.drift, demo.bundles, demo.partitions, demo.key_shared):
        if r is not None:
            targets.append(r)
    for i, result in enumerate(targets):
        path = tmp_path / f"{i}.png"
        assert plot(result, path) == str(path)
        data = path.read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 5000
    assert demo.queue is not None
    with pytest.raises(TypeError, match="no plot"):
        plot(demo.queue, tmp_path / "q.png")


def test_plots_without_matplotlib(demo: PlanReport, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pulsar_routing.plan.plots import PlotUnavailable, plot

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(PlotUnavailable, match=r"pip install .pulsar-routing\[plan\]."):
        plot(demo.skew[0], tmp_path / "x.png")


def test_uniform_baseline_probabilities() -> None:
    # Bucket sizes 1/2, 1/4, 1/4: the big one is the full one.
    base = plan.uniform_baseline(np.ones(10_000), 3, probabilities=[0.5, 0.25, 0.25])
    assert base.equal_max_mean == pytest.approx(1.5, abs=0.05)


def test_tables_are_plain_text_laid_out_by_rich() -> None:
    from rich.cells import cell_len

    from pulsar_routing.plan.results import table

    out = table(["key", "messages", "verdict"], [["[red]x", "5", "ok"], ["日本語", "1,234", "fix-keys"]], indent="")
    header, rule, first, second = out.splitlines()
    # No colours or control codes, and markup-like keys are shown as they are.
    assert "\x1b" not in out and first.startswith("[red]x")
    assert set(rule) == {"─"} and cell_len(rule) == max(cell_len(line) for line in (header, first, second))
    # Numbers end in the same terminal column (CJK keys take two cells each),
    # words start in the same one.
    assert cell_len(first[: first.index("5") + 1]) == cell_len(second[: second.index("1,234") + 5])
    assert cell_len(first[: first.index("ok")]) == cell_len(second[: second.index("fix-keys")])
