"""python -m pulsar_routing route / bundle, and demo (the whole plan)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import pulsar_routing as pr
from pulsar_routing.__main__ import main


def test_route_default_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["route"]) == 0
    out = capsys.readouterr().out
    assert "java_string n=12" in out and "murmur3_32 n=100" in out
    row = next(line for line in out.splitlines() if line.startswith("'user-42'"))
    want = [pr.partition_for_key("user-42", n, s) for n in (3, 12, 100) for s in ("java_string", "murmur3_32")]
    assert [int(cell) for cell in row.split()[1:]] == want
    assert "keyBytes(b'hello') hashes its Base64 text 'aGVsbG8='" in out


def test_route_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["route", "k1", "-n", "7", "--key-bytes", "hi"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("'k1'"))
    assert row.split()[1:] == [str(pr.partition_for_key("k1", 7)), str(pr.partition_for_key("k1", 7, "murmur3_32"))]
    assert "'aGk='" in out


def test_bad_arguments_exit_with_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["route", "-n", "0"])
    assert exited.value.code == 2
    assert "0 is not in 1..2147483647" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([])


def test_module_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pulsar_routing", "route", "-n", "5"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "java_string n=5" in done.stdout


def test_bundle_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bundle", "my-topic", "t/ns/x-partition-1", "-k", "4", "1000"]) == 0
    out = capsys.readouterr().out
    assert "4 bundles" in out and "1000 bundles" in out
    row = next(line for line in out.splitlines() if line.startswith("persistent://public/default/my-topic"))
    assert row.split()[1:] == [
        f"0x{pr.crc32('persistent://public/default/my-topic'):08x}",
        pr.topic_bundle("my-topic", 4),
        pr.topic_bundle("my-topic", 1000),
    ]


def test_bundle_rules_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bundle", "PERSISTENT://t/ns/x", "--rules", "master", "-k", "1000"]) == 0
    assert pr.topic_bundle("PERSISTENT://t/ns/x", 1000, rules="master") in capsys.readouterr().out
    assert main(["bundle", "a/b"]) == 1
    assert "error: Invalid short topic name 'a/b'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["bundle", "x", "-k", "0"])


def test_demo_runs_the_whole_plan(capsys: pytest.CaptureFixture[str]) -> None:
    # `pulsar-routing demo` is `pulsar-routing plan demo`, output options included.
    assert main(["demo", "--no-key-shared"]) == 0
    top = capsys.readouterr().out
    assert main(["plan", "demo", "--no-key-shared"]) == 0
    assert capsys.readouterr().out == top
    assert top.startswith("pulsar-routing capacity planner: demo")
    assert main(["demo", "--no-key-shared", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["skew"]


def test_console_script_runs_demo() -> None:
    script = Path(sys.executable).with_name("pulsar-routing")
    if not script.is_file():
        pytest.skip("the pulsar-routing console script is not installed next to this Python")
    done = subprocess.run([str(script), "demo", "--json"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "drift" in json.loads(done.stdout)
