"""Every missing-package message names an extra the package declares, and the extras hold what the commands import.

scripts/test-wheel.sh installs the wheel with these extras into a clean
venv and runs the README's commands; this keeps the messages that send a
user to ``pip install`` pointing at something that exists.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from typing import Any

import pytest

PY = Path(__file__).resolve().parents[1]
PACKAGE = PY / "python" / "pulsar_routing"

if sys.version_info < (3, 11):  # pragma: no cover - tomllib is 3.11+
    pytest.skip("reading pyproject.toml needs tomllib (Python 3.11)", allow_module_level=True)

# Imported by name: mypy checks as of Python 3.10, which has no tomllib.
tomllib: Any = importlib.import_module("tomllib")


def _extras() -> dict[str, list[str]]:
    project = tomllib.loads((PY / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    return extras


def _names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=!~ ;]", r, maxsplit=1)[0] for r in requirements}


def test_every_pip_install_message_names_a_declared_extra() -> None:
    extras = _extras()
    found = 0
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for command in re.findall(r"pip install\s+(\S+)", text):
            found += 1
            named = re.fullmatch(r"'pulsar-routing\[(\w+)\]'[`\"):.,]*", command)
            assert named, f"{path.relative_to(PY)}: 'pip install {command}' does not name an extra of pulsar-routing"
            assert named.group(1) in extras, f"{path.relative_to(PY)}: no extra {named.group(1)!r}"
    assert found >= 4  # pyarrow, datasketches, matplotlib, dask


def test_the_extras_hold_what_the_planner_imports() -> None:
    extras = _extras()
    assert {"pyarrow", "datasketches", "matplotlib"} <= _names(extras["plan"])
    assert {"pulsar-routing[plan]", "dask[distributed]"} <= _names(extras["dask"])
    # The older names still install what they did.
    assert _names(extras["arrow"]) == {"pyarrow"} and _names(extras["plot"]) == {"matplotlib"}
