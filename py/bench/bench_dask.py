"""A file analysis on one machine and with ``--dask local``: wall time and peak memory of each.

Writes a Parquet file of 16-byte keys, Zipf-distributed (exponent 1.1)
over ``--distinct`` keys, then runs ``pulsar-routing plan ANALYSIS --file F --json`` in a fresh
process, once alone and once with ``--dask local --dask-workers W``,
sampling the resident memory of the whole process tree (the client, the
nannies and the workers) every 50 ms. Prints the time and the peak of the
tree's total (and of its largest process) for each, and checks that the two
reports agree (apart from ``engine``; in sketch counting only the traffic
figures are compared, see :mod:`pulsar_routing.plan.distributed`).

    python py/bench/bench_dask.py --rows 5000000 --distinct 1000000 --workers 2
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import psutil
import pyarrow as pa
import pyarrow.parquet as pq


def write_keys(path: Path, rows: int, distinct: int, seed: int = 5) -> None:
    rng = np.random.default_rng(seed)
    ids = rng.permutation(distinct)
    rank = np.minimum(rng.zipf(1.1, rows) - 1, distinct - 1)
    hexed = np.char.mod("%016x", ids[rank].astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15) >> np.uint64(1))
    pq.write_table(pa.table({"k": pa.array(hexed.astype(str))}), path)


def run(argv: list[str]) -> tuple[float, float, float, str]:
    """(seconds, peak MiB of the process tree, peak MiB of its largest process, stdout)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL)
        root = psutil.Process(proc.pid)
        peak_total = peak_one = 0
        while proc.poll() is None:
            try:
                tree = [root, *root.children(recursive=True)]
                sizes = [p.memory_info().rss for p in tree]
            except psutil.Error:
                sizes = [0]
            peak_total, peak_one = max(peak_total, sum(sizes)), max(peak_one, max(sizes))
            time.sleep(0.05)
        elapsed = time.perf_counter() - start
        out.seek(0)
        text = out.read().decode("utf-8")
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)}: exit {proc.returncode}")
    return elapsed, peak_total / 2**20, peak_one / 2**20, text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=5_000_000)
    ap.add_argument("--distinct", type=int, default=1_000_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--analysis", default="skew", help="skew, drift, divergence, clients, partitions, key-shared")
    ap.add_argument("--max-distinct", type=int, help="passed on (default: the planner's 3,000,000)")
    ap.add_argument("--dir", type=Path, help="where the file goes (default: a temporary directory)")
    args = ap.parse_args()
    options: dict[str, list[str]] = {
        "skew": ["-n", "12", "16"],
        "drift": ["--from", "12", "--to", "16"],
        "divergence": ["-n", "12", "16"],
        "clients": ["-n", "12"],
        "partitions": ["--peak-write", "60000", "--per-partition-write", "5000"],
        "key-shared": ["-c", "7"],
    }
    with tempfile.TemporaryDirectory() as tmp:
        d = args.dir or Path(tmp)
        path = d / f"keys-{args.rows}-{args.distinct}.parquet"
        if not path.exists():
            write_keys(path, args.rows, args.distinct)
        exe = str(Path(sys.executable).with_name("pulsar-routing"))
        argv = [exe, "plan", args.analysis, "--file", str(path), "--key-column", "k", "--json",
                *options[args.analysis]]
        if args.max_distinct is not None:
            argv += ["--max-distinct", str(args.max_distinct)]
        import pyarrow.compute as pc

        distinct = pc.count_distinct(pq.read_table(path).column("k")).as_py()
        print(f"{args.rows:,} rows, {distinct:,} distinct keys (Zipf over {args.distinct:,}); "
              f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
        single = run(argv)
        on_dask = run([*argv, "--dask", "local", "--dask-workers", str(args.workers)])
    a: dict[str, Any] = json.loads(single[3])
    b: dict[str, Any] = json.loads(on_dask[3])
    engine = b.pop("engine")
    exact = "exact counting" in json.dumps(a)
    # Past --max-distinct, skew's hot keys and distinct count and partitions'
    # hottest-key share are order-dependent estimates; the rest is equal.
    figures = {"skew": "loads", "partitions": "candidates"}.get(args.analysis)
    same = a == b if exact or figures is None else a[figures] == b[figures]
    for name, (seconds, total, one, _) in (("one machine", single), (f"--dask local ({engine})", on_dask)):
        print(f"{name}: {seconds:.1f} s, peak {total:,.0f} MiB in all, {one:,.0f} MiB in the largest process")
    print(f"{'exact' if exact else 'sketch'} counting; reports {'equal' if same else 'DIFFER'}")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
