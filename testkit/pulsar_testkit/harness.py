"""Run the test broker as a child process and read back what it recorded."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

PACKAGE_ROOT = Path(__file__).resolve().parent.parent


class BrokerProcess:
    """``with BrokerProcess(scenario, workdir) as broker:`` a broker on a free
    loopback port for the block, stopped (and its record complete) after."""

    def __init__(self, scenario: dict[str, Any], workdir: Path, name: str = "broker") -> None:
        self.scenario = scenario
        self.workdir = workdir
        self.name = name
        self.record_path = workdir / f"{name}.jsonl"
        self.port = 0
        self._proc: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"pulsar://127.0.0.1:{self.port}"

    def __enter__(self) -> BrokerProcess:
        self.workdir.mkdir(parents=True, exist_ok=True)
        scenario_path = self.workdir / f"{self.name}.scenario.json"
        scenario_path.write_text(json.dumps(self.scenario, indent=1), encoding="utf-8")
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE_ROOT), env.get("PYTHONPATH")]))
        stderr = open(self.workdir / f"{self.name}.stderr", "w", encoding="utf-8")  # noqa: SIM115
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "pulsar_testkit", "--scenario", str(scenario_path),
             "--record", str(self.record_path)],
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            env=env,
        )
        stderr.close()
        assert self._proc.stdout is not None
        ready, _, _ = select.select([self._proc.stdout], [], [], 20)
        line = self._proc.stdout.readline() if ready else ""
        if not line:
            self._terminate()
            raise RuntimeError(f"the broker did not start; see {self.workdir / (self.name + '.stderr')}")
        self.port = int(json.loads(line)["port"])
        return self

    def __exit__(self, *exc: object) -> None:
        self._terminate()

    def _terminate(self) -> None:
        proc = self._proc
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def records(self) -> list[dict[str, Any]]:
        with open(self.record_path, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]


def messages_by_payload(records: list[dict[str, Any]]) -> dict[bytes, list[dict[str, Any]]]:
    """Every recorded message, grouped by payload (a sender makes each unique)."""
    out: dict[bytes, list[dict[str, Any]]] = {}
    for r in records:
        if r["event"] == "message":
            out.setdefault(bytes.fromhex(r["payload_hex"]), []).append(r)
    return out
