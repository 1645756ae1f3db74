"""Shrinking a failing request: fewer steps and list items, shorter keys and
names, smaller numbers, for as long as it still disagrees."""

from __future__ import annotations

from typing import Any, Callable, Iterator

# Fields that name a choice, not a size: shrinking them changes the question.
_FIXED = {"op", "router", "scheme", "algorithm", "selector", "range_size"}


def _shorter_seq(seq: Any, unit: int) -> Iterator[Any]:
    """`seq` (a string or list) with runs of `unit`-sized items removed,
    biggest runs first."""
    n = len(seq) // unit
    size = n
    while size >= 1:
        for start in range(0, n - size + 1, size):
            yield seq[: start * unit] + seq[(start + size) * unit :]
        size //= 2


def _smaller_int(v: int) -> Iterator[int]:
    seen = set()
    for c in (0, 1, -1 if v < 0 else 1, v // 2, v - (1 if v > 0 else -1)):
        if abs(c) < abs(v) or (c != v and abs(c) == abs(v) and c > v):
            if c not in seen:
                seen.add(c)
                yield c


def candidates(v: Any, key: str = "") -> Iterator[Any]:
    if key in _FIXED:
        return
    if isinstance(v, bool):
        if v:
            yield False
    elif isinstance(v, int):
        yield from _smaller_int(v)
    elif isinstance(v, float):
        if v != 0.0:
            yield 0.0
        if v != round(v):
            yield float(round(v))
    elif isinstance(v, str):
        unit = 4 if key.endswith("u16hex") else 2 if key.endswith("_hex") else 1
        yield from _shorter_seq(v, unit)
        if unit == 4:
            # Each unit replaced by 'a', keeping the length.
            for i in range(0, len(v), 4):
                if v[i : i + 4] != "0061":
                    yield v[:i] + "0061" + v[i + 4 :]
    elif isinstance(v, list):
        yield from _shorter_seq(v, 1)
        for i, item in enumerate(v):
            for c in candidates(item, key):
                yield v[:i] + [c] + v[i + 1 :]
    elif isinstance(v, dict):
        for k in list(v):
            if k not in _FIXED and key in ("topic_stats",):
                yield {kk: vv for kk, vv in v.items() if kk != k}
        for k, item in v.items():
            for c in candidates(item, k):
                yield {**v, k: c}


def shrink(req: dict, fails: Callable[[dict], bool], budget: int = 400) -> tuple[dict, int]:
    """The smallest request found that still fails, and the tries spent."""
    tries = 0
    current = req
    improved = True
    while improved and tries < budget:
        improved = False
        for cand in candidates(current):
            if cand == current:
                continue
            tries += 1
            if fails(cand):
                current = cand
                improved = True
                break
            if tries >= budget:
                break
    return current, tries
