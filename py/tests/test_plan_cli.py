"""python -m pulsar_routing plan ...: end to end on small files of every format, JSON, plots and errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pulsar_routing as pr
from pulsar_routing.__main__ import main

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pulsar_routing", "plan", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("keys")
    keys = [f"user-{i % 37}" for i in range(400)]
    text = d / "keys.txt"
    text.write_text("\n".join(keys) + "\n")
    csv = d / "keys.csv"
    csv.write_text("k,w\n" + "".join(f"{k},{i % 3 + 1}\n" for i, k in enumerate(keys)))
    parquet = d / "keys.parquet"
    pq.write_table(pa.table({"k": keys, "w": [float(i % 3 + 1) for i in range(len(keys))]}), parquet)
    bad = d / "bad.txt"
    bad.write_bytes(b"fine\nnot \xff utf-8\n")
    topics = d / "topics.csv"
    topics.write_text("topic,partitions\n" + "".join(f"t/ns/topic-{i},{i % 4}\n" for i in range(50)))
    return {"text": text, "csv": csv, "parquet": parquet, "bad": bad, "topics": topics}


@pytest.mark.parametrize("fmt", ["text", "csv", "parquet"])
def test_skew_on_every_file_format(files: dict[str, Path], fmt: str) -> None:
    columns = [] if fmt == "text" else ["--key-column", "k", "--weight-column", "w"]
    done = run("skew", "--file", str(files[fmt]), *columns, "-n", "12", "16", "--scheme", "murmur3_32", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert [r["partitions"] for r in data["reports"]] == [12, 16]
    report = data["reports"][0]
    assert report["distinct_keys"] == 37
    assert sum(report["load"]) == (400 if fmt == "text" else sum(i % 3 + 1 for i in range(400)))
    part = pr.partition_for_key("user-0", 12, "murmur3_32")
    assert report["keys"][part] >= 1


def test_text_tables_and_plot(files: dict[str, Path], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "skew.png"
    done = run("skew", "--file", str(files["csv"]), "--key-column", "k", "-n", "8", "--plot", str(png))
    assert done.returncode == 0, done.stderr
    assert "Skew: java_string, 8 partitions" in done.stdout and "Verdict" in done.stdout
    data = png.read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) > 5000
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width > 200 and height > 200


def test_demo_runs_everything(tmp_path: Path) -> None:
    png = tmp_path / "demo.png"
    args = ["demo"] + (["--plot", str(png)] if _has_matplotlib() else [])
    done = run(*args)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for section in ("Key skew", "Partition count", "Repartition drift", "Cross-client divergence", "Bundles", "Producer queue"):
        assert section in out
    if _has_matplotlib():
        assert png.read_bytes().startswith(PNG_MAGIC)


def _has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["skew", "--file", "does-not-exist.csv"], "error: does-not-exist.csv: no such file"),
        (["skew", "--file", "{csv}", "--key-column", "nope"], "error: keys.csv: no column 'nope'"),
        (["skew", "--file", "{bad}"], "error: bad.txt line 2: not valid UTF-8"),
        (["skew", "k1", "-n", "0"], "error: argument -n/--partitions: 0 is not in 1..2147483647"),
        (["drift", "k1", "--from", "12"], "error: the following arguments are required: --to"),
        (["skew"], "error: no keys"),
        (["bundles", "a/b"], "error: Invalid short topic name 'a/b'"),
    ],
)
def test_bad_input_is_one_line(files: dict[str, Path], args: list[str], message: str) -> None:
    args = [a.format(csv=files["csv"], bad=files["bad"]) for a in args]
    done = run(*args)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert message in lines[0]


def test_every_analysis_in_process(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    csv = str(files["csv"])
    commands = [
        ["plan", "partitions", "--peak-write", "60000", "--per-partition-write", "5000", "--consumers", "32"],
        ["plan", "partitions", "--peak-write", "60000", "--per-partition-write", "5000", "--file", csv, "--key-column", "k"],
        ["plan", "drift", "--file", csv, "--key-column", "k", "--weight-column", "w", "--from", "12", "--to", "16", "--list-moved", "3"],
        ["plan", "divergence", "--demo-data", "orders", "-n", "12"],
        ["plan", "bundles", "--file", str(files["topics"]), "--partitions-column", "partitions", "-k", "4",
         "--max-per-bundle", "20", "--split"],
        ["plan", "bundles", "x", "y", "-p", "3", "--boundaries", "0x00000000", "0x80000000", "0xffffffff"],
        ["plan", "queue", "--peak", "60000", "--window", "5", "--message-bytes", "1024", "--partitions", "16"],
    ]
    if hasattr(pr, "ConsistentHashingSelector"):
        commands.append(["plan", "key-shared", "--file", csv, "--key-column", "k", "-c", "3", "--selector", "auto_split"])
    for command in commands:
        assert main(command) == 0, command
        out = capsys.readouterr().out
        assert out.strip()
        assert main([*command, "--json"]) == 0
        json.loads(capsys.readouterr().out)
    assert main(["plan", "partitions", "--peak-write", "8", "--per-partition-write", "1", "--headroom", "1",
                 "--consumers", "32"]) == 0
    assert "with 8 partitions, 24 of 32 consumers" in capsys.readouterr().out


def test_plan_needs_an_analysis(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["plan"])
    # The existing commands still work next to plan.
    assert main(["route", "k1", "-n", "7"]) == 0
    assert main(["bundle", "my-topic", "-k", "4"]) == 0
    capsys.readouterr()


def test_console_script_entry_point(capsys: pytest.CaptureFixture[str]) -> None:
    from pulsar_routing.plan.cli import main as plan_main

    assert plan_main(["queue", "--peak", "10", "--window", "1", "--message-bytes", "1"]) == 0
    assert "maxPendingMessages >= 10 msg/s" in capsys.readouterr().out


def test_progress_bar_starts_past_a_million_rows(capsys: pytest.CaptureFixture[str]) -> None:
    from pulsar_routing.plan.cli import _Progress

    bar = _Progress("keys.parquet", total_rows=3_000_000)
    bar(999_999)
    assert not bar._started
    bar(1_000_000)
    bar(3_000_000)
    assert bar._started
    bar.done()
    # Never on stdout, where the report goes.
    assert capsys.readouterr().out == ""
