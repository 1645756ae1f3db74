"""Every committed conformance scenario (testdata/conformance/*.jsonl) as one test."""

from __future__ import annotations

from typing import Any

import pytest

from .conformance import committed_files, load, run_scenario

SCENARIOS = load(committed_files())


def test_scenarios_are_there_and_named_once() -> None:
    names = [scenario["name"] for _, scenario in SCENARIOS]
    assert len(names) >= 60
    assert len(set(names)) == len(names)


@pytest.mark.parametrize(
    "scenario", [s for _, s in SCENARIOS], ids=[s["name"] for _, s in SCENARIOS]
)
def test_scenario(scenario: dict[str, Any]) -> None:
    failure = run_scenario(scenario)
    assert failure is None, failure
