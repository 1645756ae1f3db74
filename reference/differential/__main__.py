"""The differential test: random requests from a seed, asked of the Java
program over the real Pulsar classes and of this project (the Rust core;
for a share of the cases also the C ABI and Python), answers compared.

Run by scripts/differential.sh; see --help.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shlex
import sys
import time

from . import compare, gen, shrink
from .procs import Answerer

JAVA_VERSION = "4.2.4"


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="differential.sh", description=__doc__)
    p.add_argument("--cases", type=int, default=150000, help="total cases, spread over the areas")
    p.add_argument("--seed", type=int, default=None, help="the run's seed (default: a new one, printed)")
    p.add_argument("--only", choices=sorted(gen.AREAS), action="append", help="only this area (repeatable)")
    p.add_argument("--java-cmd", required=True, help="the Java program's command line (a shell command)")
    p.add_argument("--ours-cmd", required=True, help="our Rust answerer (through the core)")
    p.add_argument("--c-cmd", default=None, help="our Rust answerer through the C ABI")
    p.add_argument("--share", type=int, default=10, help="1 in SHARE cases also go to the C ABI and Python")
    p.add_argument("--no-python", action="store_true", help="do not ask the Python package")
    p.add_argument("--block", type=int, default=400, help="requests per pipelined block")
    p.add_argument("--java-log", default=None, help="where the Java program's stderr goes (default: inherited)")
    p.add_argument("--max-reports", type=int, default=3, help="shrunk disagreements printed per area")
    return p.parse_args(argv)


def category(why: str) -> str:
    """What kind of disagreement: which binding, or else which field (or
    whether one side failed), so that shrinking keeps to the same one."""
    for prefix in ("protocol error", "C ABI differs", "Python differs"):
        if why.startswith(prefix) or why.startswith("steps: step") and prefix in why:
            return prefix
    head = why.split(":", 1)[0]
    if head.startswith("ours failed") or head.startswith("ours answered"):
        return head.split(" ")[1]
    return head


def spread(total: int, areas: list[str]) -> dict[str, int]:
    weights = {a: gen.WEIGHTS[a] for a in areas}
    whole = sum(weights.values())
    floor = min(20, max(1, total // len(areas)))
    counts = {a: max(floor, total * w // whole) for a, w in weights.items()}
    # Hand out what rounding left, so the total is exact when it can be.
    left = total - sum(counts.values())
    for a in sorted(areas, key=lambda a: -weights[a]):
        if left <= 0:
            break
        counts[a] += 1
        left -= 1
    return counts


class Run:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.java_log = open(args.java_log, "w") if args.java_log else None
        self.java = Answerer("java", args.java_cmd, shell=True, stderr=self.java_log)
        self.core = Answerer("ours (core)", shlex.split(args.ours_cmd))
        self.c = Answerer("ours (C ABI)", shlex.split(args.c_cmd)) if args.c_cmd else None
        self.python = None
        if not args.no_python:
            from . import ours_python

            self.python = ours_python
        self.next_id = 0
        self.binding_counts = {"c": [0, 0], "python": [0, 0]}

    def close(self) -> None:
        for a in (self.java, self.core, self.c):
            if a:
                a.close()

    def ids(self, reqs: list[dict]) -> list[dict]:
        out = []
        for r in reqs:
            self.next_id += 1
            out.append({"id": self.next_id, **r})
        return out

    def judge(self, reqs: list[dict], shared: set[int], count: bool = True) -> list[str | None]:
        """Why each request disagrees (None: it agrees), asking every
        answerer its share."""
        java = self.java.ask(reqs)
        core = self.core.ask(reqs)
        whys = [compare.vs_java(o, j) for o, j in zip(core, java)]
        picked = [i for i in range(len(reqs)) if i in shared]
        if self.c and picked:
            c_answers = self.c.ask([reqs[i] for i in picked])
            for i, a in zip(picked, c_answers):
                if a.get("error_class") == "protocol" and "not through the C ABI" in str(a.get("error_message")):
                    continue
                why = compare.vs_core(a, core[i])
                if why:
                    whys[i] = whys[i] or f"C ABI differs from the core: {why}"
                self._count("c", why, count)
        if self.python and picked:
            for i in picked:
                a = self.python.answer(reqs[i])
                if a is None:
                    continue
                why = compare.vs_core(a, core[i])
                if why:
                    whys[i] = whys[i] or f"Python differs from the core: {why}"
                self._count("python", why, count)
        return whys

    def _count(self, binding: str, why: str | None, count: bool) -> None:
        if count:
            self.binding_counts[binding][1] += 1
            self.binding_counts[binding][0] += why is None

    def fails_like(self, why: str):
        """A test for shrinking: a candidate must fail as the original did
        (against Java, or in the same binding), not by becoming a malformed
        request."""
        kind = category(why)

        def fails(req: dict) -> bool:
            (r,) = self.ids([req])
            got = self.judge([r], {0}, count=False)[0]
            return got is not None and category(got) == kind

        return fails

    def report(self, area: str, req: dict, why: str) -> None:
        small, tries = shrink.shrink(req, self.fails_like(why))
        (r,) = self.ids([small])
        java = self.java.ask([r])[0]
        core = self.core.ask([r])[0]
        final_why = self.judge([r], {0}, count=False)[0] or why
        seed = self.args.seed
        print(f"DISAGREEMENT in {area} (seed {seed}), shrunk in {tries} tries:", flush=True)
        print(f"  request: {json.dumps(small, ensure_ascii=True)}")
        print(f"  Java:    {json.dumps(java, ensure_ascii=True)}")
        print(f"  ours:    {json.dumps(core, ensure_ascii=True)}")
        print(f"  why:     {final_why}")
        if small != req:
            print(f"  original request: {json.dumps(req, ensure_ascii=True)[:2000]}")
            print(f"  original why:     {why[:2000]}")

    def area(self, area: str, n: int) -> tuple[int, int]:
        r = random.Random(f"{self.args.seed}/{area}")
        share = random.Random(f"{self.args.seed}/{area}/share")
        agreed = done = reported = 0
        kinds: dict[str, int] = {}
        while done < n:
            block = [gen.AREAS[area](r) for _ in range(min(self.args.block, n - done))]
            shared = {i for i in range(len(block)) if share.randrange(self.args.share) == 0}
            reqs = self.ids(block)
            whys = self.judge(reqs, shared)
            for req, why in zip(block, whys):
                if why is None:
                    agreed += 1
                    continue
                k = self.summary(why)
                kinds[k] = kinds.get(k, 0) + 1
                if reported < self.args.max_reports:
                    reported += 1
                    self.report(area, req, why)
            done += len(block)
        for k, count in sorted(kinds.items(), key=lambda kv: -kv[1]):
            print(f"    {count} x {k}")
        return agreed, done

    @staticmethod
    def summary(why: str) -> str:
        """A disagreement's kind for the per-area tally: its text without
        the values (quoted strings, objects, numbers)."""
        text = re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "…", why)
        text = re.sub(r"\{.*\}|\[.*\]", "…", text)
        text = re.sub(r"\d+", "N", text)
        return text[:120]


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(2**32)
    areas = args.only or list(gen.AREAS)
    counts = spread(args.cases, areas)
    print(f"differential: seed {args.seed}, {sum(counts.values())} cases over {len(areas)} areas", flush=True)
    started = time.monotonic()
    run = Run(args)
    total_agree = total = 0
    try:
        for area in areas:
            t0 = time.monotonic()
            agreed, done = run.area(area, counts[area])
            total_agree += agreed
            total += done
            print(f"  {area}: {agreed}/{done} agree ({time.monotonic() - t0:.1f} s)", flush=True)
    finally:
        run.close()
    for name, (ok, asked) in run.binding_counts.items():
        if asked:
            print(f"  (of those, {asked} also through {name}: {ok}/{asked} agree with the core)")
    print(f"  ({time.monotonic() - started:.1f} s in all)")
    print(f"differential: {total_agree}/{total} cases agree with Java {JAVA_VERSION} (seed {args.seed})")
    return 0 if total_agree == total else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
