"""Fixtures for the wire tests: the built senders and a tally of agreement."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

TESTKIT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TESTKIT))

# Filled by the wire tests, printed once at the end: how many messages each
# real client sent and how many of them the core or profile predicted.
TALLY: dict[str, list[int]] = {}
# Findings worth a line in the summary (per-mode counts, wire encodings).
NOTES: dict[str, Any] = {}


def tally(client: str, agreed: int, total: int) -> None:
    counts = TALLY.setdefault(client, [0, 0])
    counts[0] += agreed
    counts[1] += total


def _missing(env: str, what: str) -> None:
    # scripts/test-wire.sh builds the senders and sets TESTKIT_REQUIRE_SENDERS,
    # so there a missing sender fails instead of passing as skipped.
    if os.environ.get("TESTKIT_REQUIRE_SENDERS"):
        pytest.fail(f"{what} is not built (set {env})")
    pytest.skip(f"{what} is not built; scripts/test-wire.sh builds it")


@pytest.fixture(scope="session")
def java_classpath() -> str:
    """The Java producer's classpath: its classes, then pulsar-client's jars."""
    if os.environ.get("TESTKIT_JAVA_CP"):
        return os.environ["TESTKIT_JAVA_CP"]
    target = TESTKIT / "java" / "target"
    if not (target / "classpath.txt").exists():
        _missing("TESTKIT_JAVA_CP", "the Java producer")
    return f"{target / 'classes'}{os.pathsep}{(target / 'classpath.txt').read_text().strip()}"


@pytest.fixture(scope="session")
def go_sender() -> str:
    if os.environ.get("TESTKIT_GO_SENDER"):
        return os.environ["TESTKIT_GO_SENDER"]
    built = TESTKIT / ".build" / "wire-sender"
    if not built.exists():
        _missing("TESTKIT_GO_SENDER", "the Go sender")
    return str(built)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for client in ("java", "go"):
        for line in NOTES.get(client, []):
            terminalreporter.write_line(f"wire {client} {line}")
    lone = NOTES.get("java_lone_surrogate_wire")
    if lone:
        short = [(k, v) for k, v in lone.items() if len(k) <= 12]
        sample = ", ".join(f"{k}->{v}" for k, v in short)
        terminalreporter.write_line(f"wire java: lone-surrogate keys on the wire (UTF-16 -> bytes): {sample}")
    if not TALLY:
        return
    parts = []
    for client in ("java", "go"):
        if client in TALLY:
            agreed, total = TALLY[client]
            parts.append(f"{client} {agreed}/{total} {'messages ' if not parts else ''}agree")
    terminalreporter.write_line("wire: " + ", ".join(parts))
