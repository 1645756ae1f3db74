"""The file analyses against the floor and against a ten-line mmh3 script, and the CLI's start-up.

    python py/bench/bench_file_analyses.py [--rows 20000000] [--distinct 1000 500000 20000000]
        [--analyses skew drift ...] [--repeat 3] [--keep DIR]

For each distinct-key count, writes a Parquet file of ``--rows`` 16-byte
keys drawn Zipf-distributed (s = 1.1) from that many distinct keys, then
times, each in a fresh process and best of ``--repeat`` rounds that take
turns (floor, script, each analysis, then again):

* the floor: read the key column with pyarrow and count the distinct keys
  with ``pyarrow.compute.value_counts``;
* the script: the floor, then each distinct key hashed with ``mmh3`` in a
  Python loop into 16 partitions (Pulsar's Murmur3_32Hash routing) and the
  loads summed;
* each analysis, ``pulsar-routing plan ANALYSIS --file F --key-column key``
  (skew with ``--scheme murmur3_32 -n 16``).

It prints each analysis' time over the floor (goal: at most 1.2) and the
script's time over the analysis' (goal: above 1, faster than the script),
then the start-up of ``pulsar-routing --version`` against ``python -c pass``
(goal: under 0.3 s).
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from bench_memory import hex_keys  # the same 16-character keys as the memory bench

RATIO_GOAL = 1.2
STARTUP_GOAL = 0.3
ZIPF_S = 1.1
ANALYSES: dict[str, list[str]] = {
    "skew": ["skew", "--scheme", "murmur3_32", "-n", "16"],
    "drift": ["drift", "--from", "12", "--to", "16"],
    "divergence": ["divergence", "-n", "16"],
    "partitions": ["partitions", "--peak-write", "60000", "--per-partition-write", "5000"],
    "key-shared": ["key-shared", "-c", "7", "--selector", "consistent_hashing"],
}

FLOOR = """
import sys, pyarrow.parquet as pq, pyarrow.compute as pc
counts = pc.value_counts(pq.read_table(sys.argv[1], columns=["key"]).column("key"))
print(len(counts))
"""

SCRIPT = """
import sys, mmh3, numpy as np, pyarrow.parquet as pq, pyarrow.compute as pc
counts = pc.value_counts(pq.read_table(sys.argv[1], columns=["key"]).column("key"))
keys, weights = counts.field("values").to_pylist(), counts.field("counts").to_numpy()
parts = [(mmh3.hash(k, 0, signed=False) & 0x7FFFFFFF) % 16 for k in keys]
load = np.bincount(parts, weights=weights, minlength=16)
print(load.max() / load.mean())
"""


def write_zipf(path: Path, rows: int, distinct: int, *, chunk: int = 1 << 20, seed: int = 7) -> None:
    """``rows`` keys, the i-th most frequent of ``distinct`` drawn with probability proportional to 1 / i**s."""
    rng = np.random.default_rng(seed)
    cdf = np.cumsum(1.0 / np.arange(1, distinct + 1, dtype=np.float64) ** ZIPF_S)
    cdf /= cdf[-1]
    schema = pa.schema([("key", pa.string())])
    with pq.ParquetWriter(path, schema) as writer:
        for start in range(0, rows, chunk):
            n = min(chunk, rows - start)
            rank = np.minimum(np.searchsorted(cdf, rng.random(n)), distinct - 1).astype(np.uint64)
            ids = rank * np.uint64(0xD6E8FEB86659FD93)  # scrambled, so hot keys look like any other
            writer.write_table(pa.table({"key": hex_keys(ids)}, schema=schema))


def best_of(repeat: int, argv: Sequence[str]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
    return best


def interleaved(repeat: int, runs: dict[str, list[str]]) -> dict[str, float]:
    """The best time of each command over ``repeat`` rounds, each round running every command once.

    On a shared machine the load moves between blocks of runs; taking
    turns exposes every command to the same load, so the ratios hold
    better than the times.
    """
    best = dict.fromkeys(runs, float("inf"))
    names = list(runs)
    for round_no in range(repeat):
        # Each round starts with another command: in rounds that always
        # started with the floor, the floor came out slower than the script
        # that contains it, so whatever the first place costs is spread.
        shift = round_no % len(names)
        for name in names[shift:] + names[:shift]:
            best[name] = min(best[name], best_of(1, runs[name]))
    return best


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000_000)
    parser.add_argument("--distinct", type=int, nargs="+", default=[1_000, 500_000, 20_000_000])
    parser.add_argument("--analyses", nargs="+", choices=list(ANALYSES), default=["skew"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", metavar="DIR", help="write the Parquet files here and reuse them (default: a temporary directory)")
    args = parser.parse_args(argv)
    cli = shutil.which("pulsar-routing") or str(Path(sys.executable).with_name("pulsar-routing"))
    py = sys.executable
    # An editable install (maturin develop) has no bytecode until a run
    # writes it, and none is ever written under PYTHONDONTWRITEBYTECODE;
    # pip compiles an installed package, so do the same before timing.
    import pulsar_routing

    compileall.compile_dir(str(Path(pulsar_routing.__file__).parent), quiet=1)
    print(f"{args.rows:,} rows of 16-byte keys, Zipf s={ZIPF_S}; best of {args.repeat}, each in a fresh process; "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for distinct in args.distinct:
            path = Path(args.keep or tmp) / f"keys-{args.rows}-{distinct}.parquet"
            if not path.exists():
                write_zipf(path, args.rows, min(distinct, args.rows))
            runs = {
                "floor": [py, "-c", FLOOR, str(path)],
                "script": [py, "-c", SCRIPT, str(path)],
                **{name: [cli, "plan", *ANALYSES[name], "--file", str(path), "--key-column", "key"]
                   for name in args.analyses},
            }
            best = interleaved(args.repeat, runs)
            floor, script = best["floor"], best["script"]
            print(f"\n{distinct:,} distinct keys: floor {floor:.2f} s, mmh3 script {script:.2f} s")
            for name in args.analyses:
                ours = best[name]
                over_floor, script_over = ours / floor, script / ours
                ok = over_floor <= RATIO_GOAL and script_over > 1
                failed = failed or not ok
                print(f"  {name:<11} {ours:6.2f} s  {over_floor:.2f}x the floor (goal <= {RATIO_GOAL}), "
                      f"script / ours {script_over:.2f} (goal > 1){'' if ok else '  MISSED'}")
    bare = best_of(max(args.repeat, 5), [py, "-c", "pass"])
    startup = best_of(max(args.repeat, 5), [cli, "--version"])
    print(f"\nstart-up: pulsar-routing --version {startup:.3f} s (python -c pass {bare:.3f} s; "
          f"goal < {STARTUP_GOAL} s){'' if startup < STARTUP_GOAL else '  MISSED'}")
    if failed or startup >= STARTUP_GOAL:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
