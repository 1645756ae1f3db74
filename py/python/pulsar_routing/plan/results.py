"""Typed results of the planner: dataclasses with ``to_dict``, ``to_json`` and a table ``str()``.

Every result is a frozen dataclass. ``to_dict()`` gives plain JSON types
(``bytes`` keys become ``{"base64": ...}``), ``to_json()`` the same as JSON,
and ``str()`` a table for a terminal.
"""

from __future__ import annotations

import base64
import dataclasses
import io
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Union

import numpy as np
from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

Key = Union[str, bytes]
_NUMBER = re.compile(r"^[-+]?[0-9.,]")


# ---------------------------------------------------------------- formatting


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, bytes):
        return {"base64": base64.b64encode(value).decode("ascii")}
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        x = float(value)
        return None if math.isnan(x) or math.isinf(x) else x
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    return value


def _width(text: str) -> int:
    """Terminal columns (CJK and emoji take two), as rich measures them."""
    return cell_len(text)


def table(
    header: Sequence[str], rows: Sequence[Sequence[str]], *, indent: str = "  ", bars: bool = False
) -> str:
    """A table laid out by rich, as plain text: the first column left-aligned,
    numbers right-aligned, words left-aligned.

    With ``bars``, the last column (bars) is left-aligned too. The text has
    no colours or control codes, so it reads the same in a terminal, a pipe
    or a file, and can go inside the other lines of a report.
    """
    left = {0, len(header) - 1} if bars else {0}
    # Words (a verdict, a name) read better left-aligned; numbers stay right.
    for i in range(1, len(header)):
        cells = [row[i] for row in rows if row[i] not in ("", "-")]
        if cells and not any(_NUMBER.match(c) for c in cells):
            left.add(i)
    # One space of padding and the box's blank divider: two spaces between columns.
    grid = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0), highlight=False)
    for i, name in enumerate(header):
        grid.add_column(Text(name), justify="left" if i in left else "right", no_wrap=True)
    for row in rows:
        # Text, not markup: a key such as "[red]" is shown as it is.
        grid.add_row(*(Text(cell) for cell in row))
    console = Console(
        file=io.StringIO(), width=100_000, color_system=None, force_terminal=False, emoji=False, highlight=False
    )
    with console.capture() as captured:
        console.print(grid)
    lines = [line.rstrip() for line in captured.get().splitlines()]
    return "\n".join(indent + line if line else line for line in lines if line.strip())


def num(x: float | int | None) -> str:
    """A count or a rate: thousands separators, one decimal unless integral."""
    if x is None:
        return "-"
    x = float(x)
    if math.isnan(x):
        return "-"
    if x.is_integer() and abs(x) < 1e15:
        return f"{int(x):,}"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:,.2f}"


def pct(x: float | None, digits: int = 1) -> str:
    if x is None or math.isnan(x):
        return "-"
    return f"{x * 100:.{digits}f}%"


def ratio(x: float | None) -> str:
    if x is None or math.isnan(x):
        return "-"
    return f"{x:.2f}"


def bar(value: float, top: float, width: int = 24) -> str:
    """A horizontal bar of value against top (full width), in eighths of a cell."""
    if top <= 0 or value <= 0:
        return ""
    eighths = round(min(value / top, 1.0) * width * 8)
    full, part = divmod(eighths, 8)
    return "█" * full + ("" if part == 0 else " ▏▎▍▌▋▊▉"[part])


def show_key(key: Key, limit: int = 40) -> str:
    text = key if isinstance(key, str) else repr(key)
    text = text.encode("unicode_escape").decode("ascii") if not text.isprintable() else text
    if isinstance(key, str):
        text = repr(text) if text == "" or text != text.strip() else text
    return text if _width(text) <= limit else text[: limit - 1] + "…"


def heading(title: str) -> str:
    return f"{title}\n{'=' * _width(title)}"


class Result:
    """Base of every planner result: ``to_dict()``, ``to_json()``, ``str()`` as a table."""

    def to_dict(self) -> dict[str, Any]:
        out = _plain(self)
        assert isinstance(out, dict)
        return out

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False, allow_nan=False)

    def render(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.render()


# ---------------------------------------------------------------- uniform-hashing baselines


@dataclass(frozen=True)
class UniformBaseline(Result):
    """What hashing the same keys uniformly at random would give (simulated, fixed seed).

    ``equal_*``: the same number of distinct keys, each with the same
    weight; the spread that sampling alone explains. ``weighted_*``: the
    sample's own key weights, each key on a random partition; adds what the
    hot keys explain. ``*_p95`` is the 95th percentile over the trials.
    """

    buckets: int
    distinct_keys: int
    trials: int
    seed: int
    equal_max_mean: float
    equal_max_mean_p95: float
    equal_cv: float
    weighted_max_mean: float
    weighted_max_mean_p95: float
    weighted_cv: float

    def render(self) -> str:
        rows = [
            ["equal key weights", ratio(self.equal_max_mean), ratio(self.equal_max_mean_p95), ratio(self.equal_cv)],
            [
                "the sample's key weights",
                ratio(self.weighted_max_mean),
                ratio(self.weighted_max_mean_p95),
                ratio(self.weighted_cv),
            ],
        ]
        return (
            f"uniform hashing of {self.distinct_keys:,} keys into {self.buckets:,} "
            f"({self.trials} trials, seed {self.seed})\n"
            + table(["keys hashed uniformly", "max/mean", "p95", "CV"], rows)
        )


# ---------------------------------------------------------------- 1. skew


@dataclass(frozen=True)
class Verdict(Result):
    """The advice for a max/mean, and the likely cause from the uniform-hashing baseline.

    ``level``: "balanced" (up to 1.1), "headroom" (to 1.3), "moderate" (to
    1.5) or "fix-keys". ``kind``: "keys" (the hash spreads these keys worse
    than a uniform hash would), "hot-key", "few-keys", "uneven-weights" (a
    uniform hash would be as skewed) or "noise".
    """

    level: str
    kind: str
    advice: str
    cause: str

    def render(self) -> str:
        return f"{self.advice}\n{self.cause}"


@dataclass(frozen=True)
class HotKey(Result):
    key: Key
    partition: int
    weight: float
    share_of_traffic: float
    share_of_partition: float

    def render(self) -> str:
        return (
            f"{show_key(self.key)} -> partition {self.partition}: {num(self.weight)} "
            f"({pct(self.share_of_traffic)} of traffic, {pct(self.share_of_partition)} of its partition)"
        )


@dataclass(frozen=True)
class SkewReport(Result):
    """The load of one partition count under one hashing scheme.

    ``load`` is the weight per partition, keyless messages spread evenly (the
    round-robin router spreads them); ``keys`` the distinct keys per
    partition. ``hot_keys`` are the heaviest keys of the hottest partition.
    """

    scheme: str
    partitions: int
    distinct_keys: int
    total_weight: float
    keyless_weight: float
    load: list[float]
    keys: list[int]
    mean: float
    max_mean: float
    cv: float
    hottest_partition: int
    hottest_share: float
    hot_keys: list[HotKey]
    uniform: UniformBaseline
    verdict: Verdict
    counting: str = "exact"

    @property
    def label(self) -> str:
        return f"{self.scheme} n={self.partitions}"

    def render(self) -> str:
        top = max(self.load) if self.load else 0.0
        rows = [
            [
                str(p),
                num(load),
                pct(load / self.total_weight if self.total_weight else 0.0),
                f"{(load / self.mean - 1) * 100:+.0f}%" if self.mean else "-",
                num(k),
                bar(load, top),
            ]
            for p, (load, k) in enumerate(zip(self.load, self.keys))
        ]
        keyless = (
            f"; {pct(self.keyless_weight / self.total_weight)} keyless, spread evenly"
            if self.keyless_weight and self.total_weight
            else ""
        )
        parts = [
            heading(f"Skew: {self.scheme}, {self.partitions} partitions"),
            f"{self.distinct_keys:,} distinct keys, {num(self.total_weight)} messages{keyless} "
            f"({self.counting} counting)",
            "",
            table(["partition", "messages", "share", "vs mean", "keys", ""], rows, bars=True),
            "",
            f"max/mean {ratio(self.max_mean)}, CV {ratio(self.cv)}; hottest partition "
            f"{self.hottest_partition} carries {pct(self.hottest_share)} of the traffic.",
            f"Uniform hashing of the same {self.distinct_keys:,} keys: max/mean "
            f"{ratio(self.uniform.equal_max_mean)} (p95 {ratio(self.uniform.equal_max_mean_p95)}) with equal "
            f"weights, {ratio(self.uniform.weighted_max_mean)} (p95 {ratio(self.uniform.weighted_max_mean_p95)}) "
            "with these weights.",
        ]
        if self.hot_keys:
            parts += [
                "",
                f"Hottest keys of partition {self.hottest_partition}:",
                table(
                    ["key", "messages", "of partition", "of traffic"],
                    [
                        [show_key(h.key), num(h.weight), pct(h.share_of_partition), pct(h.share_of_traffic)]
                        for h in self.hot_keys
                    ],
                ),
            ]
        parts += ["", f"Verdict ({self.verdict.level}, {self.verdict.kind}): {self.verdict.advice}", self.verdict.cause]
        return "\n".join(parts)


@dataclass(frozen=True)
class SkewAnalysis(Result):
    """Skew for several partition counts and schemes; str() summarises, then details the worst."""

    sample: str
    reports: list[SkewReport]

    def worst(self) -> SkewReport:
        return max(self.reports, key=lambda r: r.max_mean)

    def render(self) -> str:
        rows = [
            [
                r.scheme,
                str(r.partitions),
                ratio(r.max_mean),
                ratio(r.cv),
                f"{ratio(r.uniform.equal_max_mean)} / {ratio(r.uniform.weighted_max_mean)}",
                pct(r.hottest_share),
                r.verdict.level,
                r.verdict.kind,
            ]
            for r in self.reports
        ]
        parts = [
            heading("Key skew"),
            self.sample,
            "",
            table(
                ["scheme", "partitions", "max/mean", "CV", "uniform (equal / weighted)", "hottest", "verdict", "cause"],
                rows,
            ),
            "",
            "max/mean above 1.5: fix the key design before adding partitions; 1.1 to 1.3: plan 30% headroom.",
        ]
        if len(self.reports) == 1:
            return "\n".join([*parts, "", str(self.reports[0])])
        worst = self.worst()
        return "\n".join([*parts, "", f"The most skewed case, {worst.label}:", "", str(worst)])


# ---------------------------------------------------------------- 2. partition count


@dataclass(frozen=True)
class PartitionCandidate(Result):
    """One candidate count: its measured max/mean and the hottest partition's load at peak.

    ``utilisation`` is the hottest partition's peak rate over the
    per-partition capacity (write or read, whichever is tighter); None
    without a key sample.
    """

    partitions: int
    max_mean: float | None
    hottest_share: float | None
    utilisation: float
    active_consumers: int | None
    idle_consumers: int | None

    def render(self) -> str:
        return f"{self.partitions} partitions: max/mean {ratio(self.max_mean)}, hottest at {pct(self.utilisation)}"


@dataclass(frozen=True)
class PartitionPlan(Result):
    """``recommended`` = ceil(max(peak_write/per_partition_write, peak_read/per_partition_read) * headroom).

    ``skew_adjusted`` is the smallest count at or above it whose hottest
    partition (measured on the sample) stays within the per-partition
    capacity at peak; None when no count up to ``searched_up_to`` does (a
    single key is too hot) or without a sample.
    """

    peak_write: float
    per_partition_write: float
    peak_read: float | None
    per_partition_read: float | None
    headroom: float
    theoretical: float
    recommended: int
    scheme: str | None
    sample: str | None
    measured_max_mean: float | None
    skew_adjusted: int | None
    searched_up_to: int | None
    hottest_key_share: float | None
    consumers: int | None
    candidates: list[PartitionCandidate]
    notes: list[str] = field(default_factory=list)
    counting: str | None = None

    def render(self) -> str:
        read = (
            f" and {num(self.peak_read)} read / {num(self.per_partition_read)} per partition"
            if self.peak_read is not None and self.per_partition_read is not None
            else ""
        )
        ratios = f"{num(self.peak_write)} / {num(self.per_partition_write)}"
        if self.peak_read is not None and self.per_partition_read is not None:
            ratios = f"max({ratios}, {num(self.peak_read)} / {num(self.per_partition_read)})"
        parts = [
            heading("Partition count"),
            f"peak {num(self.peak_write)} write / {num(self.per_partition_write)} per partition{read}",
            f"ceil({ratios} x {self.headroom:g}) = ceil({self.theoretical:.2f} x "
            f"{self.headroom:g}) = {self.recommended} partitions",
        ]
        if self.scheme is not None:
            adjusted = (
                f"{self.skew_adjusted} partitions"
                if self.skew_adjusted is not None
                else f"none up to {self.searched_up_to} partitions"
            )
            parts.append(
                f"measured on {self.sample} ({self.scheme}, {self.counting or 'exact'} counting): max/mean {ratio(self.measured_max_mean)} at "
                f"{self.recommended}; skew-adjusted count: {adjusted}"
            )
        header = ["partitions", "max/mean", "hottest share", "hottest at peak"]
        with_consumers = self.consumers is not None
        if with_consumers:
            header += ["active consumers", "idle"]
        rows = []
        for c in self.candidates:
            mark = " <" if c.partitions in (self.recommended, self.skew_adjusted) else ""
            row = [f"{c.partitions}{mark}", ratio(c.max_mean), pct(c.hottest_share), pct(c.utilisation)]
            if with_consumers:
                row += [num(c.active_consumers), num(c.idle_consumers)]
            rows.append(row)
        parts += ["", table(header, rows), "  (< recommended / skew-adjusted; hottest at peak: its rate over the per-partition capacity)"]
        if self.notes:
            parts += ["", *(f"- {n}" for n in self.notes)]
        return "\n".join(parts)


# ---------------------------------------------------------------- 3. drift


def _counting_line(
    counting: str,
    key_sample: int | None,
    distinct_low: int | None,
    distinct_high: int | None,
    intervals: list[tuple[str, float | None, float | None]],
) -> str:
    """Which counting a report used; in sketch mode, the sample and the 95% intervals of the key shares."""
    if counting != "sketch":
        return "(exact counting: every distinct key; traffic shares are exact)"
    shown = "; ".join(f"{what} {pct(low)}..{pct(high)}" for what, low, high in intervals if low is not None)
    return (
        f"(sketch counting: traffic shares and loads are exact; key shares come from a uniform sample of "
        f"{num(key_sample)} distinct keys, 95%: {shown}; distinct keys {num(distinct_low)}..{num(distinct_high)})"
    )


@dataclass(frozen=True)
class MovedKey(Result):
    key: Key
    weight: float
    from_partition: int
    to_partition: int

    def render(self) -> str:
        return f"{show_key(self.key)}: {self.from_partition} -> {self.to_partition} ({num(self.weight)})"


@dataclass(frozen=True)
class DriftReport(Result):
    """Going from ``from_partitions`` to ``to_partitions``: what changes partition.

    Shares are of the keyed traffic (keyless messages keep no order to
    break). ``expected_share`` is ``1 - gcd(N, M) / max(N, M)``, what
    uniform hashing moves. ``moved`` lists moved keys (heaviest first) when
    asked for.
    """

    scheme: str
    from_partitions: int
    to_partitions: int
    distinct_keys: int
    keyed_weight: float
    moved_keys: int
    moved_key_share: float
    moved_traffic_share: float
    expected_share: float
    load_before: list[float]
    load_after: list[float]
    max_mean_before: float
    max_mean_after: float
    moved: list[MovedKey] | None
    notes: list[str] = field(default_factory=list)
    counting: str = "exact"
    key_sample: int | None = None
    moved_key_share_low: float | None = None
    moved_key_share_high: float | None = None
    distinct_keys_low: int | None = None
    distinct_keys_high: int | None = None

    def render(self) -> str:
        parts = [
            heading(f"Repartition drift: {self.from_partitions} -> {self.to_partitions} partitions ({self.scheme})"),
            table(
                ["", "keys", "traffic"],
                [
                    ["change partition", pct(self.moved_key_share), pct(self.moved_traffic_share)],
                    ["uniform hashing", pct(self.expected_share), pct(self.expected_share)],
                ],
            ),
            f"{'about ' if self.counting == 'sketch' else ''}{self.moved_keys:,} of {self.distinct_keys:,} keys "
            f"move; max/mean {ratio(self.max_mean_before)} before, {ratio(self.max_mean_after)} after.",
            _counting_line(
                self.counting, self.key_sample, self.distinct_keys_low, self.distinct_keys_high,
                [("moved keys", self.moved_key_share_low, self.moved_key_share_high)],
            ),
        ]
        if self.moved is not None:
            shown = self.moved[:20]
            parts += [
                "",
                f"Moved keys ({len(self.moved):,} listed, heaviest first):",
                table(
                    ["key", "messages", "from", "to"],
                    [[show_key(m.key), num(m.weight), str(m.from_partition), str(m.to_partition)] for m in shown],
                ),
            ]
            if len(self.moved) > len(shown):
                parts.append(f"  ... {len(self.moved) - len(shown):,} more (see --json)")
        if self.notes:
            parts += ["", *(f"- {n}" for n in self.notes)]
        return "\n".join(parts)


# ---------------------------------------------------------------- 6. cross-client divergence


@dataclass(frozen=True)
class DivergenceRow(Result):
    partitions: int
    differing_keys: int
    differing_key_share: float
    differing_traffic_share: float
    expected_share: float
    differing_key_share_low: float | None = None
    differing_key_share_high: float | None = None

    def render(self) -> str:
        return f"n={self.partitions}: {pct(self.differing_key_share)} of keys"


@dataclass(frozen=True)
class DivergenceReport(Result):
    """The share of keys two hashing setups route to different partitions.

    ``expected_share`` is ``1 - 1/n``: two unrelated uniform hashes agree
    on a key's partition once in n.
    """

    scheme_a: str
    scheme_b: str
    distinct_keys: int
    rows: list[DivergenceRow]
    notes: list[str] = field(default_factory=list)
    counting: str = "exact"
    key_sample: int | None = None
    distinct_keys_low: int | None = None
    distinct_keys_high: int | None = None

    def render(self) -> str:
        parts = [
            heading(f"Cross-client divergence: {self.scheme_a} vs {self.scheme_b}"),
            table(
                ["partitions", "keys routed differently", "traffic", "unrelated hashes"],
                [
                    [str(r.partitions), pct(r.differing_key_share), pct(r.differing_traffic_share), pct(r.expected_share)]
                    for r in self.rows
                ],
            ),
            _counting_line(
                self.counting, self.key_sample, self.distinct_keys_low, self.distinct_keys_high,
                [(f"n={r.partitions}", r.differing_key_share_low, r.differing_key_share_high) for r in self.rows],
            ),
        ]
        if self.notes:
            parts += ["", *(f"- {n}" for n in self.notes)]
        return "\n".join(parts)


@dataclass(frozen=True)
class ClientDivergencePair(Result):
    """Two client setups at one partition count.

    ``differing_keys`` counts the keys the two send to different partitions,
    a key one of them routes as keyless (Go's ``""``) included;
    ``keyless_keys`` counts the keys either routes as keyless.
    """

    setup_a: str
    setup_b: str
    partitions: int
    differing_keys: int
    differing_key_share: float
    differing_traffic_share: float
    keyless_keys: int
    differing_key_share_low: float | None = None
    differing_key_share_high: float | None = None

    def render(self) -> str:
        return f"{self.setup_a} vs {self.setup_b}, n={self.partitions}: {pct(self.differing_key_share)} of keys"


@dataclass(frozen=True)
class ClientDivergenceReport(Result):
    """Every pair of client setups (profiles, Kafka partitioners): the share of keys they route differently.

    ``expected_share`` at each count is ``1 - 1/n``, the share for two
    unrelated uniform hashes.
    """

    setups: list[str]
    distinct_keys: int
    partitions: list[int]
    pairs: list[ClientDivergencePair]
    skipped: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    counting: str = "exact"
    key_sample: int | None = None
    distinct_keys_low: int | None = None
    distinct_keys_high: int | None = None

    def share(self, setup_a: str, setup_b: str, partitions: int) -> float:
        """The share of keys two setups route differently (either order)."""
        for p in self.pairs:
            if p.partitions == partitions and {p.setup_a, p.setup_b} == {setup_a, setup_b}:
                return p.differing_key_share
        if setup_a == setup_b and setup_a in self.setups and partitions in self.partitions:
            return 0.0
        raise KeyError((setup_a, setup_b, partitions))

    def _widest(self) -> tuple[float | None, float | None]:
        """The widest 95% interval of a pair's key share (sketch counting)."""
        spans = [
            (p.differing_key_share_low, p.differing_key_share_high)
            for p in self.pairs
            if p.differing_key_share_low is not None and p.differing_key_share_high is not None
        ]
        return max(spans, key=lambda s: s[1] - s[0]) if spans else (None, None)

    def render(self) -> str:
        header = ["setup A", "setup B", *(f"n={n}" for n in self.partitions)]
        rows = []
        for i, a in enumerate(self.setups):
            for b in self.setups[i + 1 :]:
                rows.append([a, b, *(pct(self.share(a, b, n)) for n in self.partitions)])
        parts = [
            heading("Cross-client divergence: every pair of clients (share of keys routed differently)"),
            table(header, rows),
            "",
            "  unrelated hashes: " + ", ".join(f"n={n}: {pct(1 - 1 / n)}" for n in self.partitions),
            _counting_line(
                self.counting, self.key_sample, self.distinct_keys_low, self.distinct_keys_high,
                [("widest pair", *self._widest())] if self.counting == "sketch" else [],
            ),
        ]
        if self.skipped:
            parts += ["", *(f"- skipped {s}: {why}" for s, why in self.skipped.items())]
        if self.notes:
            parts += ["", *(f"- {n}" for n in self.notes)]
        return "\n".join(parts)


# ---------------------------------------------------------------- 4. bundles


@dataclass(frozen=True)
class BundleLoad(Result):
    bundle: str
    topic_partitions: int
    share: float
    traffic: float | None
    # From admin stats: bytes/s in + out, and producers + consumers.
    throughput: float | None = None
    sessions: int | None = None

    def render(self) -> str:
        return f"{self.bundle}: {self.topic_partitions}"


@dataclass(frozen=True)
class BundleCount(Result):
    """The smallest default layout whose bundles each hold at most ``max_per_bundle`` topic-partitions."""

    max_per_bundle: int
    bundles: int | None
    largest_bundle: int | None
    searched_up_to: int
    notes: list[str] = field(default_factory=list)

    def render(self) -> str:
        if self.bundles is None:
            found = f"no default layout up to {self.searched_up_to:,} bundles does"
        else:
            found = f"{self.bundles} bundles (the largest then holds {self.largest_bundle})"
        lines = [f"At most {self.max_per_bundle:,} topic-partitions per bundle: {found}."]
        return "\n".join([*lines, *(f"- {n}" for n in self.notes)])


@dataclass(frozen=True)
class SplitImpact(Result):
    """What a bundle split moves: every topic-partition of the split bundle changes bundle.

    ``moved`` counts them; ``new_bundles`` shows where they land;
    ``moved_topics`` lists their names (up to the requested limit).
    """

    bundle: str
    algorithm: str
    split: bool
    new_bundles: list[BundleLoad]
    moved: int
    moved_share: float
    moved_topics: list[str]
    boundaries_after: list[str]

    def render(self) -> str:
        if not self.split:
            return f"Split of {self.bundle} ({self.algorithm}): the algorithm does not split it."
        parts = [
            f"Split of {self.bundle} ({self.algorithm}): {self.moved:,} topic-partitions "
            f"({pct(self.moved_share)} of the namespace) are unloaded and move to:",
            table(
                ["new bundle", "topic-partitions"],
                [[b.bundle, num(b.topic_partitions)] for b in self.new_bundles],
            ),
        ]
        if self.moved_topics:
            shown = self.moved_topics[:10]
            parts.append("  e.g. " + ", ".join(shown) + (" ..." if self.moved > len(shown) else ""))
        return "\n".join(parts)


@dataclass(frozen=True)
class BundleReport(Result):
    """How topic-partitions spread over a namespace's bundles."""

    topics: int
    topic_partitions: int
    num_bundles: int
    bundles: list[BundleLoad]
    max_mean: float
    cv: float
    empty_bundles: int
    traffic_max_mean: float | None
    uniform: UniformBaseline
    bundle_count: BundleCount | None
    split: SplitImpact | None
    notes: list[str] = field(default_factory=list)

    def render(self) -> str:
        top = max((b.topic_partitions for b in self.bundles), default=0)
        with_traffic = any(b.traffic is not None for b in self.bundles)
        with_admin = any(b.throughput is not None for b in self.bundles)
        header = ["bundle", "topic-partitions", "share", ""]
        if with_traffic:
            header.insert(3, "msg/s" if with_admin else "traffic")
        if with_admin:
            header[4:4] = ["MiB/s", "sessions"]
        rows = []
        for b in self.bundles:
            row = [b.bundle, num(b.topic_partitions), pct(b.share), bar(b.topic_partitions, top)]
            if with_traffic:
                row.insert(3, num(b.traffic))
            if with_admin:
                row[4:4] = [num(None if b.throughput is None else b.throughput / 2**20), num(b.sessions)]
            rows.append(row)
        shown = rows if len(rows) <= 32 else rows[:16] + [["..."] + [""] * (len(header) - 1)] + rows[-8:]
        parts = [
            heading(f"Bundles: {self.topic_partitions:,} topic-partitions of {self.topics:,} topics in {self.num_bundles} bundles"),
            table(header, shown, bars=True),
            "",
            f"max/mean {ratio(self.max_mean)} (uniform hashing: {ratio(self.uniform.equal_max_mean)}, p95 "
            f"{ratio(self.uniform.equal_max_mean_p95)}), CV {ratio(self.cv)}, {self.empty_bundles} empty"
            + (f"; traffic max/mean {ratio(self.traffic_max_mean)}" if self.traffic_max_mean is not None else ""),
        ]
        if self.bundle_count is not None:
            parts += ["", str(self.bundle_count)]
        if self.split is not None:
            parts += ["", str(self.split)]
        if self.notes:
            parts += ["", *(f"- {n}" for n in self.notes)]
        return "\n".join(parts)


# ---------------------------------------------------------------- 5. Key_Shared


@dataclass(frozen=True)
class ConsumerLoad(Result):
    consumer_id: int
    name: str
    slots: int
    slot_share: float
    keys: int
    traffic: float
    traffic_share: float
    # Sketch counting: ``keys`` is an estimate, its share of the distinct
    # keys within this 95% interval.
    key_share_low: float | None = None
    key_share_high: float | None = None

    def render(self) -> str:
        return f"{self.name}: {pct(self.traffic_share)}"


@dataclass(frozen=True)
class Rebalance(Result):
    """What one consumer joining or leaving moves (shares of the keyed traffic and of the keys).

    ``moved_*``: keys that change to another consumer; ``orphaned_*``: keys
    left with no consumer (an exclusive range nobody covers any more).
    ``losers`` lose hash ranges and ``gainers`` gain them, by the
    selector's own impact.
    """

    change: str
    consumer: str
    moved_key_share: float
    moved_traffic_share: float
    orphaned_key_share: float
    orphaned_traffic_share: float
    losers: list[str]
    gainers: list[str]
    imbalance_after: float
    # Sketch counting: the 95% intervals of the key shares (traffic stays exact).
    moved_key_share_low: float | None = None
    moved_key_share_high: float | None = None
    orphaned_key_share_low: float | None = None
    orphaned_key_share_high: float | None = None

    def render(self) -> str:
        lost = ", ".join(self.losers) or "nobody"
        text = (
            f"{self.change} {self.consumer}: {pct(self.moved_traffic_share)} of traffic and "
            f"{pct(self.moved_key_share)} of keys change consumer"
        )
        if self.orphaned_key_share:
            text += (
                f"; {pct(self.orphaned_traffic_share)} of traffic ({pct(self.orphaned_key_share)} of keys) "
                "is left with no consumer"
            )
        return text + f"; ranges lost by {lost}; imbalance after {ratio(self.imbalance_after)}"


@dataclass(frozen=True)
class KeySharedReport(Result):
    """One selector's balance for a key sample: slots and traffic per consumer.

    ``imbalance`` is max/mean of the traffic per consumer, ``slot_imbalance``
    of the slots per consumer; ``uniform_imbalance`` the traffic max/mean
    expected (simulated) if the same keys hashed uniformly onto these slot
    shares (None in sketch counting: it needs every key's weight). Keyless
    messages (sticky key producerName-sequenceId) are spread by slot share.
    ``counting`` is ``exact`` or ``sketch``; in sketch counting the traffic
    and slot figures stay exact, and the key counts and key shares come
    from a uniform sample of ``key_sample`` distinct keys, with 95% intervals.
    """

    selector: str
    consumers: list[ConsumerLoad]
    imbalance: float
    slot_imbalance: float
    uniform_imbalance: float | None
    unassigned_traffic_share: float
    join: Rebalance | None
    leave: Rebalance | None
    notes: list[str] = field(default_factory=list)
    counting: str = "exact"
    key_sample: int | None = None
    distinct_keys_low: int | None = None
    distinct_keys_high: int | None = None

    def render(self) -> str:
        top = max((c.traffic for c in self.consumers), default=0.0)
        rows = [
            [c.name, num(c.slots), pct(c.slot_share), num(c.keys), num(c.traffic), pct(c.traffic_share), bar(c.traffic, top)]
            for c in self.consumers
        ]
        parts = [
            heading(f"Key_Shared: {self.selector}, {len(self.consumers)} consumers"),
            table(["consumer", "slots", "slot share", "keys", "messages", "traffic share", ""], rows, bars=True),
            "",
            f"imbalance (traffic max/mean) {ratio(self.imbalance)}; slots max/mean {ratio(self.slot_imbalance)}; "
            f"uniform keys on these slots: {ratio(self.uniform_imbalance)}",
        ]
        if self.unassigned_traffic_share:
            parts.append(f"{pct(self.unassigned_traffic_share)} of the traffic falls on slots with no consumer")
        for change in (self.join, self.leave):
            if change is not None:
                parts.append(str(change))
        if self.counting == "sketch":
            intervals = [(f"{c.name} keys", c.key_share_low, c.key_share_high) for c in self.consumers]
            for change in (self.join, self.leave):
                if change is not None:
                    intervals.append(
                        (f"keys moved on {change.change}", change.moved_key_share_low, change.moved_key_share_high)
                    )
                    if change.orphaned_key_share or change.orphaned_traffic_share:
                        intervals.append(
                            (f"keys stalled on {change.change}", change.orphaned_key_share_low,
                             change.orphaned_key_share_high)
                        )
            parts.append(
                _counting_line(self.counting, self.key_sample, self.distinct_keys_low, self.distinct_keys_high, intervals)
            )
        if self.notes:
            parts += [*(f"- {n}" for n in self.notes)]
        return "\n".join(parts)


@dataclass(frozen=True)
class KeySharedAnalysis(Result):
    sample: str
    reports: list[KeySharedReport]

    def render(self) -> str:
        rows = [
            [
                r.selector,
                ratio(r.imbalance),
                ratio(r.slot_imbalance),
                pct(r.join.moved_traffic_share) if r.join else "-",
                pct(r.leave.moved_traffic_share + r.leave.orphaned_traffic_share) if r.leave else "-",
            ]
            for r in self.reports
        ]
        parts = [
            heading("Key_Shared balance"),
            self.sample,
            "",
            table(["selector", "imbalance", "slot imbalance", "moved on join", "moved or stalled on leave"], rows),
        ]
        for r in self.reports:
            parts += ["", str(r)]
        return "\n".join(parts)


# ---------------------------------------------------------------- 7. producer queue


@dataclass(frozen=True)
class QueuePlan(Result):
    """``maxPendingMessages >= peak msg/s * reconnect window``, and the memory it implies."""

    peak_msg_per_s: float
    reconnect_window_s: float
    avg_message_bytes: float
    pending_messages: int
    memory_bytes: float
    partitions: int | None
    max_mean: float
    per_partition_pending: int | None
    notes: list[str] = field(default_factory=list)

    def render(self) -> str:
        parts = [
            heading("Producer queue"),
            f"maxPendingMessages >= {num(self.peak_msg_per_s)} msg/s x {self.reconnect_window_s:g} s = "
            f"{self.pending_messages:,} messages",
            f"memory at {num(self.avg_message_bytes)} B per message: {_bytes(self.memory_bytes)}",
        ]
        if self.per_partition_pending is not None:
            parts.append(
                f"per partition producer ({self.partitions} partitions, hottest at max/mean "
                f"{ratio(self.max_mean)}): maxPendingMessages >= {self.per_partition_pending:,}"
            )
        if self.notes:
            parts += ["", *(f"- {n}" for n in self.notes)]
        return "\n".join(parts)


def _bytes(x: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(x) < 1024 or unit == "TiB":
            return f"{x:,.0f} {unit}" if unit == "B" else f"{x:,.1f} {unit}"
        x /= 1024
    return f"{x:,.1f} TiB"  # pragma: no cover


# ---------------------------------------------------------------- the whole plan


@dataclass(frozen=True)
class PlanReport(Result):
    """Every analysis of one run (``plan demo``); None where one was not run."""

    title: str
    samples: list[str]
    skew: list[SkewAnalysis]
    partitions: PartitionPlan | None
    drift: DriftReport | None
    divergence: DivergenceReport | None
    bundles: BundleReport | None
    key_shared: KeySharedAnalysis | None
    queue: QueuePlan | None
    notes: list[str] = field(default_factory=list)
    client_divergence: ClientDivergenceReport | None = None

    def render(self) -> str:
        parts: list[str] = [self.title, ""]
        parts += [f"- {s}" for s in self.samples]
        sections: list[Result | None] = [
            *self.skew,
            self.partitions,
            self.drift,
            self.divergence,
            self.client_divergence,
            self.bundles,
            self.key_shared,
            self.queue,
        ]
        for section in sections:
            if section is not None:
                parts += ["", "", str(section)]
        if self.notes:
            parts += ["", *(f"- {n}" for n in self.notes)]
        return "\n".join(parts)
