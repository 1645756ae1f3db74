"""Pictures of planner results (PNG, SVG, PDF: by the file's extension), drawn with matplotlib.

matplotlib is optional: it is imported when a plot is drawn, and a missing
matplotlib raises :class:`PlotUnavailable` with the command that installs
it. Load bars get the mean and the 1.3 headroom line drawn on them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from .results import (
    BundleReport,
    DriftReport,
    KeySharedAnalysis,
    KeySharedReport,
    PartitionPlan,
    PlanReport,
    Result,
    SkewAnalysis,
    SkewReport,
)

HEADROOM = 1.3


class PlotUnavailable(ImportError):
    """matplotlib is not installed."""


def _figure(rows: int, cols: int, *, width: float = 6.0, height: float = 3.4) -> tuple[Any, list[Any]]:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotUnavailable("plots need matplotlib: pip install 'pulsar-routing[plan]'") from None
    fig = Figure(figsize=(width * cols, height * rows), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    return fig, [ax for row in axes for ax in row]


def _save(fig: Any, path: str | os.PathLike[str]) -> str:
    fig.savefig(os.fspath(path), dpi=110)
    return os.fspath(path)


def _load_bars(ax: Any, values: Sequence[float], labels: Sequence[str], title: str, ylabel: str) -> None:
    """Bars with the mean and the 1.3 x mean headroom line; bars over the line in a warning colour."""
    mean = sum(values) / len(values) if values else 0.0
    colours = ["#c0392b" if v > mean * HEADROOM else "#2e86c1" for v in values]
    positions = list(range(len(values)))
    ax.bar(positions, values, color=colours, width=0.8)
    ax.axhline(mean, color="#333333", linewidth=1.2, label=f"mean {mean:,.0f}")
    ax.axhline(mean * HEADROOM, color="#e67e22", linewidth=1.2, linestyle="--", label=f"{HEADROOM:g} x mean")
    ax.set_title(title, fontsize=10)
    ax.set_ylabel(ylabel)
    if len(labels) <= 40:
        if len(labels) > 16:
            ax.set_xticks(positions, labels, fontsize=7, rotation=90)
        elif len(labels) > 2 and max(len(t) for t in labels) > 12:
            ax.set_xticks(positions, labels, fontsize=7, rotation=15, ha="right")
        else:
            ax.set_xticks(positions, labels, fontsize=7)
    ax.legend(fontsize=7, loc="upper right")


def _skew_axes(ax: Any, report: SkewReport, label: str = "") -> None:
    _load_bars(
        ax,
        report.load,
        [str(i) for i in range(report.partitions)],
        f"{label}{report.scheme}, {report.partitions} partitions: max/mean {report.max_mean:.2f}",
        "messages",
    )
    ax.set_xlabel("partition")


def _key_shared_axes(ax: Any, report: KeySharedReport) -> None:
    _load_bars(
        ax,
        [c.traffic for c in report.consumers],
        [c.name for c in report.consumers],
        f"Key_Shared {report.selector}: imbalance {report.imbalance:.2f}",
        "messages",
    )


def _drift_axes(before: Any, after: Any, report: DriftReport) -> None:
    def ceiling(loads: Sequence[float]) -> float:
        return max(max(loads, default=0.0), HEADROOM * sum(loads) / max(len(loads), 1))

    top = max(ceiling(report.load_before), ceiling(report.load_after)) * 1.15
    _load_bars(
        before,
        report.load_before,
        [str(i) for i in range(report.from_partitions)],
        f"before: {report.from_partitions} partitions ({report.scheme})",
        "messages",
    )
    _load_bars(
        after,
        report.load_after,
        [str(i) for i in range(report.to_partitions)],
        f"after: {report.to_partitions} partitions; {report.moved_traffic_share:.0%} of traffic moved",
        "messages",
    )
    for ax in (before, after):
        ax.set_ylim(0, top or 1)
        ax.set_xlabel("partition")


def _bundle_axes(ax: Any, report: BundleReport) -> None:
    _load_bars(
        ax,
        [float(b.topic_partitions) for b in report.bundles],
        [b.bundle for b in report.bundles],
        f"{report.topic_partitions:,} topic-partitions in {report.num_bundles} bundles",
        "topic-partitions",
    )


def _partitions_axes(ax: Any, plan: PartitionPlan) -> None:
    counts = [c.partitions for c in plan.candidates]
    used = [c.utilisation * 100 for c in plan.candidates]
    ax.plot(counts, used, marker="o", color="#2e86c1", label="hottest partition at peak")
    ax.axhline(100, color="#c0392b", linewidth=1.2, linestyle="--", label="capacity")
    ax.axvline(plan.recommended, color="#333333", linewidth=1, label=f"recommended {plan.recommended}")
    if plan.skew_adjusted is not None and plan.skew_adjusted != plan.recommended:
        ax.axvline(plan.skew_adjusted, color="#e67e22", linewidth=1, label=f"skew-adjusted {plan.skew_adjusted}")
    ax.set_xlabel("partitions")
    ax.set_ylabel("% of one partition's capacity")
    ax.set_title("Partition count candidates", fontsize=10)
    ax.legend(fontsize=7)


def plot_skew(result: SkewReport | SkewAnalysis, path: str | os.PathLike[str]) -> str:
    """Per-partition load bars, one panel per (scheme, count)."""
    reports = [result] if isinstance(result, SkewReport) else result.reports
    cols = min(3, len(reports))
    rows = -(-len(reports) // cols)
    fig, axes = _figure(rows, cols)
    for ax, report in zip(axes, reports):
        _skew_axes(ax, report)
    for ax in axes[len(reports) :]:
        ax.set_visible(False)
    return _save(fig, path)


def plot_key_shared(result: KeySharedReport | KeySharedAnalysis, path: str | os.PathLike[str]) -> str:
    """Per-consumer load bars, one panel per selector."""
    reports = [result] if isinstance(result, KeySharedReport) else result.reports
    fig, axes = _figure(1, len(reports))
    for ax, report in zip(axes, reports):
        _key_shared_axes(ax, report)
    return _save(fig, path)


def plot_drift(report: DriftReport, path: str | os.PathLike[str]) -> str:
    """Load per partition before and after, side by side."""
    fig, axes = _figure(1, 2)
    _drift_axes(axes[0], axes[1], report)
    return _save(fig, path)


def plot_bundles(report: BundleReport, path: str | os.PathLike[str]) -> str:
    """Topic-partitions per bundle."""
    fig, axes = _figure(1, 1, width=max(6.0, 0.3 * report.num_bundles))
    _bundle_axes(axes[0], report)
    return _save(fig, path)


def plot_partitions(plan: PartitionPlan, path: str | os.PathLike[str]) -> str:
    """The hottest partition's load at peak for each candidate count."""
    fig, axes = _figure(1, 1)
    _partitions_axes(axes[0], plan)
    return _save(fig, path)


def plot_plan(report: PlanReport, path: str | os.PathLike[str]) -> str:
    """The whole plan on one page: the worst skew per sample, drift, bundles and Key_Shared."""
    panels: list[Any] = [(a.sample.split(":")[0], a.worst()) for a in report.skew]
    if report.drift is not None:
        panels.append(report.drift)
    if report.partitions is not None:
        panels.append(report.partitions)
    if report.bundles is not None:
        panels.append(report.bundles)
    if report.key_shared is not None:
        panels.extend(report.key_shared.reports)
    slots = sum(2 if isinstance(p, DriftReport) else 1 for p in panels)
    cols = 2
    rows = -(-slots // cols)
    fig, axes = _figure(rows, cols)
    it = iter(axes)
    for panel in panels:
        if isinstance(panel, tuple):
            label, worst = panel
            _skew_axes(next(it), worst, f"{label}\n")
        elif isinstance(panel, DriftReport):
            _drift_axes(next(it), next(it), panel)
        elif isinstance(panel, PartitionPlan):
            _partitions_axes(next(it), panel)
        elif isinstance(panel, BundleReport):
            _bundle_axes(next(it), panel)
        elif isinstance(panel, KeySharedReport):
            _key_shared_axes(next(it), panel)
    for ax in it:
        ax.set_visible(False)
    fig.suptitle(report.title, fontsize=11)
    return _save(fig, path)


def plot_autosplit(report: Any, path: str | os.PathLike[str]) -> str:
    """An auto-split forecast: bundles after each round, and the message rate per bundle at the end."""
    fig, axes = _figure(1, 2)
    rounds = [0] + [r.round for r in report.rounds]
    counts = [report.bundles_before] + [r.bundles_after for r in report.rounds]
    axes[0].step(rounds, counts, where="post", marker="o", color="#2e86c1")
    if max(counts) * 2 >= report.settings.max_bundles:  # the cap, when it is in sight
        axes[0].axhline(report.settings.max_bundles, color="#c0392b", linestyle="--", linewidth=1,
                        label=f"cap {report.settings.max_bundles}")
        axes[0].legend(fontsize=7)
    axes[0].xaxis.get_major_locator().set_params(integer=True)
    axes[0].set_xlabel("round")
    axes[0].set_ylabel("bundles")
    axes[0].set_title(f"{report.namespace or 'namespace'}: {report.bundles_before} -> {report.bundles_after} bundles",
                      fontsize=10)
    final = report.final or report.initial
    limit = float(report.settings.max_msg_rate)
    rates = [b.msg_rate for b in final]
    axes[1].bar(range(len(rates)), rates, color=["#c0392b" if b.over else "#2e86c1" for b in final])
    axes[1].axhline(limit, color="#e67e22", linestyle="--", linewidth=1.2, label=f"max msg rate {limit:,.0f}")
    axes[1].xaxis.get_major_locator().set_params(integer=True)
    axes[1].set_xlabel("bundle (hash order)")
    axes[1].set_ylabel("msg/s in + out")
    axes[1].set_title("Message rate per bundle after the splits (red: still over)", fontsize=10)
    axes[1].legend(fontsize=7)
    return _save(fig, path)


def plot(result: Result, path: str | os.PathLike[str]) -> str:
    """Draws any result that has a picture; returns the path."""
    from .split_forecast import AutoSplitReport

    if isinstance(result, AutoSplitReport):
        return plot_autosplit(result, path)
    if isinstance(result, (SkewReport, SkewAnalysis)):
        return plot_skew(result, path)
    if isinstance(result, (KeySharedReport, KeySharedAnalysis)):
        return plot_key_shared(result, path)
    if isinstance(result, DriftReport):
        return plot_drift(result, path)
    if isinstance(result, BundleReport):
        return plot_bundles(result, path)
    if isinstance(result, PartitionPlan):
        return plot_partitions(result, path)
    if isinstance(result, PlanReport):
        return plot_plan(result, path)
    raise TypeError(f"no plot for a {type(result).__name__}")
