"""partitions_for_keys on a pyarrow array against a Python loop over mmh3, side by side.

    python py/bench/bench_mmh3.py [--keys 1000000 10000000] [--repeat 3]

The keys are 16-byte ASCII strings (hex ids), in a pyarrow ``string``
array. The candidate is one ``partitions_for_keys(array, n, "murmur3_32")``
call on that array. The baseline is what a team writes without us: a plain
Python loop calling ``mmh3.hash(key, 0, signed=False)`` per key, then
Pulsar's ``& 0x7FFFFFFF`` and ``% n``, over a ``list[str]`` of the same keys
(converting the array to that list is not counted against the baseline).
Both must give the same partitions before any time is printed.

Each time is the best of ``--repeat`` runs. Keys per second per core use
the process's CPU time (all threads), not the wall clock, so a
multi-threaded candidate does not look faster per core than it is; on a
busy machine the wall clock is also printed. Not run by the tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from importlib.metadata import version
from collections.abc import Callable, Sequence
from typing import Any

import mmh3
import numpy as np
import pyarrow as pa

import pulsar_routing as pr

N_PARTITIONS = 16
BATCH_GOAL_KEYS_PER_CORE = 20e6
RATIO_GOAL = 10.0


def make_keys(count: int) -> Any:
    """``count`` distinct 16-character hex keys, as a pyarrow string array (built without a Python loop)."""
    ids = (np.arange(count, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)).astype(">u8")
    hexed = np.frombuffer(ids.tobytes(), dtype="S8")
    # Each 8-byte id as 16 hex characters: split nibbles, map to ASCII.
    raw = np.frombuffer(hexed.tobytes(), dtype=np.uint8)
    nibbles = np.empty(raw.size * 2, dtype=np.uint8)
    nibbles[0::2] = raw >> 4
    nibbles[1::2] = raw & 0x0F
    ascii_hex = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)[nibbles]
    offsets = np.arange(0, 16 * count + 1, 16, dtype=np.int32)
    return pa.StringArray.from_buffers(count, pa.py_buffer(offsets), pa.py_buffer(ascii_hex.tobytes()))


def mmh3_loop(keys: list[str], n: int) -> list[int]:
    """Pulsar's Murmur3_32Hash routing in plain Python, one mmh3 call per key."""
    return [(mmh3.hash(k, 0, signed=False) & 0x7FFFFFFF) % n for k in keys]


def best_of(repeat: int, run: Callable[[], Any]) -> tuple[float, float, Any]:
    """(best wall seconds, best CPU seconds, last result)."""
    wall, cpu, result = float("inf"), float("inf"), None
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        result = run()
        cpu = min(cpu, time.process_time() - c0)
        wall = min(wall, time.perf_counter() - w0)
    return wall, cpu, result


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--keys", type=int, nargs="+", default=[1_000_000, 10_000_000], help="key counts")
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing (best is kept)")
    args = parser.parse_args(argv)

    print(
        f"16-byte keys, {N_PARTITIONS} partitions, murmur3_32, best of {args.repeat} "
        f"(Python {platform.python_version()}, mmh3 {version('mmh3')}, "
        f"pyarrow {pa.__version__}, {os.cpu_count()} CPUs)"
    )
    print()
    header = (
        f"{'keys':>12}  {'path':<38}  {'wall ms':>9}  {'cpu ms':>9}  {'Mkeys/s/core':>12}"
    )
    print(header)
    print("-" * len(header))
    verdicts: list[str] = []
    for count in args.keys:
        array = make_keys(count)
        as_list: list[str] = array.to_pylist()
        batch_wall, batch_cpu, batch = best_of(
            args.repeat, lambda: pr.partitions_for_keys(array, N_PARTITIONS, "murmur3_32")
        )
        loop_wall, loop_cpu, loop = best_of(args.repeat, lambda: mmh3_loop(as_list, N_PARTITIONS))
        if batch.tolist() != loop:
            raise SystemExit(f"{count:,} keys: partitions_for_keys and the mmh3 loop disagree")
        for name, wall, cpu in (
            ("partitions_for_keys(pyarrow string)", batch_wall, batch_cpu),
            ("Python loop over mmh3.hash", loop_wall, loop_cpu),
        ):
            per_core = count / cpu / 1e6
            print(f"{count:>12,}  {name:<38}  {wall * 1e3:9.1f}  {cpu * 1e3:9.1f}  {per_core:12.1f}")
        ratio = loop_cpu / batch_cpu
        per_core = count / batch_cpu
        verdicts.append(
            f"{count:,} keys: {ratio:.1f}x the mmh3 loop per core (goal >= {RATIO_GOAL:.0f}x: "
            f"{'met' if ratio >= RATIO_GOAL else 'NOT met'}); batch {per_core / 1e6:.1f}M keys/s/core "
            f"(goal >= {BATCH_GOAL_KEYS_PER_CORE / 1e6:.0f}M: "
            f"{'met' if per_core >= BATCH_GOAL_KEYS_PER_CORE else 'NOT met'})"
        )
        del as_list, loop, batch
    print()
    for line in verdicts:
        print(line)


if __name__ == "__main__":
    main()
