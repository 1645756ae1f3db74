"""Peak memory and time of the planner's file analysis on a large Parquet file.

    python py/bench/bench_memory.py [--rows 100000000] [--distinct 1000000] [--analysis skew] [--keep DIR]

Writes a Parquet file of ``--rows`` 16-character hex keys (``--distinct``
different ones, each repeated about equally; default 1,000,000, as message
keys repeat) in row groups of ``--chunk`` rows, into a temporary directory,
so the generator itself never holds more than one chunk. Then runs

    python -m pulsar_routing plan skew --file FILE -n 12 16 --json

(or another file-driven analysis with ``--analysis``: ``drift`` from 12 to
16 partitions, ``divergence``, ``clients``, ``partitions``, ``key-shared``)
in a child process and reports its wall time and its peak resident memory
(``ru_maxrss`` of that child, from ``os.wait4``), with the counting mode the
report says it used: ``exact`` while the distinct keys fit (up to the
planner's ``--max-distinct``, 3,000,000 by default), ``sketch`` past that.
The goal is at most about 1 GiB for 100 million keys. For reference, the
peak of a child that only imports what the planner imports is printed too.

Not run by the tests: 100 million rows take minutes and about 2 GB of disk.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

GOAL_BYTES = 1 << 30
# The plan command of each analysis, after ``--file FILE``.
ANALYSES: dict[str, list[str]] = {
    "skew": ["skew", "-n", "12", "16"],
    "drift": ["drift", "--from", "12", "--to", "16"],
    "divergence": ["divergence", "-n", "12", "16"],
    "clients": ["clients", "-n", "12"],
    "partitions": ["partitions", "--peak-write", "60000", "--per-partition-write", "5000"],
    "key-shared": ["key-shared", "-c", "7"],
}
HEX = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)


def hex_keys(ids: Any) -> Any:
    """Each uint64 id as 16 lowercase hex characters, in a pyarrow string array (no Python loop)."""
    count = len(ids)
    raw = np.frombuffer(np.asarray(ids, dtype=">u8").tobytes(), dtype=np.uint8)
    nibbles = np.empty(raw.size * 2, dtype=np.uint8)
    nibbles[0::2] = raw >> 4
    nibbles[1::2] = raw & 0x0F
    offsets = np.arange(0, 16 * count + 1, 16, dtype=np.int32)
    return pa.StringArray.from_buffers(count, pa.py_buffer(offsets), pa.py_buffer(HEX[nibbles].tobytes()))


def write_parquet(path: Path, rows: int, distinct: int, chunk: int) -> None:
    """``rows`` keys drawn from ``distinct`` ids in a scrambled order, ``chunk`` rows per row group."""
    schema = pa.schema([("key", pa.string())])
    with pq.ParquetWriter(path, schema) as writer:
        for start in range(0, rows, chunk):
            i = np.arange(start, min(start + chunk, rows), dtype=np.uint64)
            # An odd multiplier permutes the ids, so equal keys are spread over the file.
            ids = (i * np.uint64(0x9E3779B97F4A7C15)) % np.uint64(distinct)
            ids = ids * np.uint64(0xD6E8FEB86659FD93)
            writer.write_table(pa.table({"key": hex_keys(ids)}, schema=schema))


def run_child(argv: Sequence[str]) -> tuple[float, float, int, str]:
    """(wall seconds, CPU seconds, peak RSS in bytes, stdout) of one child process."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=out, stderr=err, text=True)
        # wait4 reaps the child with its own rusage (RUSAGE_CHILDREN would be
        # the maximum over every child so far).
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if child.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} failed ({child.returncode}):\n{err.read()}")
        # ru_maxrss is in KiB on Linux.
        return wall, usage.ru_utime + usage.ru_stime, int(usage.ru_maxrss) * 1024, out.read()


def counting(report: Any) -> str:
    """The counting a JSON report says it used: ``exact`` or ``sketch``."""
    if isinstance(report, dict):
        for field in ("mode", "counting"):
            if isinstance(report.get(field), str):
                return str(report[field])
        for value in report.values():
            found = counting(value)
            if found != "unknown":
                return found
    elif isinstance(report, list):
        for value in report:
            found = counting(value)
            if found != "unknown":
                return found
    elif isinstance(report, str):
        for mode in ("exact", "sketch"):
            if f"({mode} counting)" in report:
                return mode
    return "unknown"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000_000, help="keys in the file (default: %(default)s)")
    parser.add_argument("--distinct", type=int, default=1_000_000, help="different keys (default: %(default)s)")
    parser.add_argument("--chunk", type=int, default=1_000_000, help="rows per row group (default: %(default)s)")
    parser.add_argument("--analysis", choices=sorted(ANALYSES), default="skew",
                        help="the plan analysis to run (default: %(default)s)")
    parser.add_argument("--max-distinct", type=int, help="passed to the analysis (default: the planner's)")
    parser.add_argument("--keep", metavar="DIR", help="write the file here and keep it (default: a temp dir)")
    args = parser.parse_args(argv)
    if not 1 <= args.distinct <= args.rows:
        raise SystemExit("--distinct must be in 1..--rows")

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep) if args.keep else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"keys-{args.rows}-{args.distinct}.parquet"
        start = time.perf_counter()
        if not path.exists():
            write_parquet(path, args.rows, args.distinct, args.chunk)
        made = time.perf_counter() - start
        written = f"written in {made:.1f} s" if not args.keep or made > 1 else "kept from an earlier run"

        python = sys.executable
        _, _, baseline, _ = run_child(
            [python, "-c", "import pyarrow.parquet, pulsar_routing.plan.cli, pulsar_routing.plan.sketch"]
        )
        name, *options = ANALYSES[args.analysis]
        shown = ["plan", name, "--file", "FILE", *options, "--json"]
        if args.max_distinct is not None:
            shown += ["--max-distinct", str(args.max_distinct)]
        command = [python, "-m", "pulsar_routing", *(str(path) if a == "FILE" else a for a in shown)]
        wall, cpu, peak, out = run_child(command)
        report = json.loads(out)
        mode = counting(report)
        distinct = report.get("distinct_keys") if isinstance(report, dict) else None

        mib = 1 << 20
        print(f"file: {args.rows:,} rows, {args.distinct:,} distinct 16-byte keys, "
              f"{path.stat().st_size / mib:,.0f} MiB Parquet ({written})")
        print(f"command: python -m pulsar_routing {' '.join(shown)}")
        print(f"analysed: {args.rows:,} rows in {wall:.1f} s wall, {cpu:.1f} s CPU "
              f"({args.rows / cpu / 1e6:.2f} M rows per CPU second), {mode} counting"
              + (f", {distinct:,} distinct keys reported" if isinstance(distinct, int) else ""))
        print(f"peak RSS: {peak / mib:,.0f} MiB (imports alone: {baseline / mib:,.0f} MiB); "
              f"goal <= {GOAL_BYTES / mib:,.0f} MiB: {'met' if peak <= GOAL_BYTES else 'NOT met'}")


if __name__ == "__main__":
    main()
