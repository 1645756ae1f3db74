"""The golden vectors shared by the Rust, C and Python tests (real Java output)."""

from __future__ import annotations

import functools
import gzip
import json
from pathlib import Path
from typing import Any

GOLDEN_DIR = Path(__file__).resolve().parents[2] / "testdata" / "golden"


@functools.lru_cache(maxsize=None)
def golden(name: str) -> tuple[dict[str, Any], ...]:
    """Every row of ``testdata/golden/<name>.jsonl.gz``."""
    with gzip.open(GOLDEN_DIR / f"{name}.jsonl.gz", "rt", encoding="utf-8") as lines:
        return tuple(json.loads(line) for line in lines)


def rows(name: str, kind: str) -> list[dict[str, Any]]:
    """The rows of one ``kind``."""
    return [row for row in golden(name) if row["kind"] == kind]
