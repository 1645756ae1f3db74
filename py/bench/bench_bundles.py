"""Times NamespaceBundles.bundle_indexes against pure-Python baselines.

    python py/bench/bench_bundles.py [--topics 1000000] [--bundles 4] [--repeat 3]

Inputs: a list of str, a numpy ``U`` array and a pyarrow string array of the
same full topic names (about 40 bytes each). Baselines: a Python loop calling
``bundle_for_topic`` once per topic, and pure Python that skips parsing
altogether (the names are already canonical): ``zlib.crc32`` of the UTF-8
name, then ``bisect`` in the boundaries. Every result is checked against the
others before any time is printed; each time is the best of ``--repeat``
runs. Not run by the tests.
"""

from __future__ import annotations

import argparse
import bisect
import platform
import time
import zlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import pulsar_routing as pr


def make_topics(count: int) -> list[str]:
    """Full names shaped like real ones, 36 to 44 bytes."""
    return [f"persistent://acme/orders-eu/shipments-{i * 7919 % 1_000_003}" for i in range(count)]


def pure_python(topics: Sequence[str], boundaries: list[int]) -> list[int]:
    last = len(boundaries) - 2
    return [
        min(bisect.bisect_right(boundaries, zlib.crc32(topic.encode())) - 1, last)
        for topic in topics
    ]


def best_of(repeat: int, run: Callable[[], Any]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=1_000_000, help="number of topics")
    parser.add_argument("--bundles", type=int, default=4, help="bundles in the default layout")
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing (best is kept)")
    args = parser.parse_args(argv)

    topics = make_topics(args.topics)
    layout = pr.NamespaceBundles(args.bundles)
    index_of = {bundle: i for i, bundle in enumerate(layout)}
    as_numpy = np.array(topics)
    runs: dict[str, Callable[[], Any]] = {
        "bundle_indexes(list[str])": lambda: layout.bundle_indexes(topics),
        "bundle_indexes(numpy U)": lambda: layout.bundle_indexes(as_numpy),
    }
    try:
        import pyarrow as pa
    except ImportError:
        print("pyarrow is not installed: its row is skipped")
    else:
        as_arrow = pa.array(topics, pa.string())
        runs["bundle_indexes(pyarrow string)"] = lambda: layout.bundle_indexes(as_arrow)
    runs["loop of bundle_for_topic"] = lambda: [
        index_of[layout.bundle_for_topic(topic)] for topic in topics
    ]
    boundaries = layout.boundaries()
    runs["pure Python (zlib.crc32 + bisect)"] = lambda: pure_python(topics, boundaries)

    times: dict[str, float] = {}
    reference: list[int] | None = None
    for name, run in runs.items():
        seconds, result = best_of(args.repeat, run)
        got = [int(index) for index in result]
        if reference is None:
            reference = got
        elif got != reference:
            raise SystemExit(f"{name} disagrees with the first result")
        times[name] = seconds

    print(
        f"{args.topics:,} topics, {args.bundles} bundles, best of {args.repeat} "
        f"(Python {platform.python_version()}, numpy {np.__version__})"
    )
    print()
    width = max(len(name) for name in times)
    fastest = min(times.values())
    for name, seconds in times.items():
        print(
            f"{name:<{width}}  {seconds * 1e3:9.1f} ms  {seconds / args.topics * 1e9:7.1f} ns/topic"
            f"  {seconds / fastest:6.1f}x the fastest"
        )


if __name__ == "__main__":
    main()
