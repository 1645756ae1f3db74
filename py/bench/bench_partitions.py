"""Times partitions_for_keys against pure-Python baselines, in one process.

    python py/bench/bench_partitions.py [--keys 1000000] [--repeat 3]

Inputs: a list of str, a numpy ``U`` array and a pyarrow string array of the
same keys. Baselines: a Python loop calling ``partition_for_key`` once per
key (the cost of crossing into Rust per key), and a pure-Python
``JavaStringHash`` (``String.hashCode()`` over UTF-16 units, then ``% n``).
Every result is checked against the others before any time is printed.
Each time is the best of ``--repeat`` runs; ratios are baseline / candidate,
so "12.0x" means the candidate is twelve times faster. Not run by the tests.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import pulsar_routing as pr

N_PARTITIONS = 12


def java_string_partition(key: str, n: int) -> int:
    """Pulsar's JavaStringHash routing, written in plain Python."""
    units = key.encode("utf-16-le", "surrogatepass")
    h = 0
    for i in range(0, len(units), 2):
        h = (31 * h + (units[i] | units[i + 1] << 8)) & 0xFFFFFFFF
    return (h & 0x7FFFFFFF) % n


def make_keys(count: int) -> list[str]:
    """Keys shaped like real ones: ids, some non-ASCII, lengths 6..40."""
    kinds = ("user-{}", "order:{}:eu-west-1", "sensor/{}/temperature", "клиент-{}", "用户{}")
    return [kinds[i % len(kinds)].format(i * 7919 % 1_000_003) for i in range(count)]


def best_of(repeat: int, run: Callable[[], Any]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=1_000_000, help="number of keys")
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing (best is kept)")
    args = parser.parse_args(argv)

    keys = make_keys(args.keys)
    as_numpy = np.array(keys)
    candidates: dict[str, Callable[[], Any]] = {
        "partitions_for_keys(list[str])": lambda: pr.partitions_for_keys(keys, N_PARTITIONS),
        "partitions_for_keys(numpy U)": lambda: pr.partitions_for_keys(as_numpy, N_PARTITIONS),
    }
    try:
        import pyarrow as pa
    except ImportError:
        print("pyarrow is not installed: its row is skipped")
    else:
        as_arrow = pa.array(keys, pa.string())
        candidates["partitions_for_keys(pyarrow string)"] = lambda: pr.partitions_for_keys(
            as_arrow, N_PARTITIONS
        )
    baselines: dict[str, Callable[[], Any]] = {
        "loop of partition_for_key": lambda: [pr.partition_for_key(k, N_PARTITIONS) for k in keys],
        "pure-Python JavaStringHash": lambda: [
            java_string_partition(k, N_PARTITIONS) for k in keys
        ],
    }

    times: dict[str, float] = {}
    reference: list[int] | None = None
    for name, run in {**candidates, **baselines}.items():
        seconds, result = best_of(args.repeat, run)
        got = [int(p) for p in result]
        if reference is None:
            reference = got
        elif got != reference:
            raise SystemExit(f"{name} disagrees with the first result")
        times[name] = seconds

    print(
        f"{args.keys:,} keys, {N_PARTITIONS} partitions, java_string scheme, "
        f"best of {args.repeat} (Python {platform.python_version()}, numpy {np.__version__})"
    )
    print()
    width = max(len(name) for name in times)
    for name, seconds in times.items():
        print(f"{name:<{width}}  {seconds * 1e3:9.1f} ms  {seconds / args.keys * 1e9:7.1f} ns/key")
    print()
    print("speed-up (baseline time / candidate time):")
    header = "".join(f"  {base:>28}" for base in baselines)
    print(f"{'':<{width}}{header}")
    for name in candidates:
        ratios = "".join(f"  {times[base] / times[name]:>27.1f}x" for base in baselines)
        print(f"{name:<{width}}{ratios}")


if __name__ == "__main__":
    main()
