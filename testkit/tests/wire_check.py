"""What the wire tests share: running a sender against a fresh broker and
joining what it says it sent to what the broker recorded."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pulsar_testkit.harness import BrokerProcess, messages_by_payload

# Generous: the JVM and 1000-partition producers on a shared 2-core machine.
SENDER_TIMEOUT_S = 240


@dataclass
class Sent:
    """One message as the sender reports it, joined to the broker's record."""

    run: str
    id: str
    info: dict[str, Any]
    record: dict[str, Any]


def run_sender(
    command: list[str], scenario: dict[str, Any], workdir: Path, name: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Runs ``command`` (its last argument the plan, already written) against a
    broker for ``scenario``: the sender's JSON lines and the broker's record."""
    with BrokerProcess(scenario, workdir, name=f"{name}-broker") as broker:
        plan_path = Path(command[-1])
        plan_path.write_text(plan_path.read_text(encoding="utf-8").replace("@SERVICE@", broker.url),
                             encoding="utf-8")
        with open(workdir / f"{name}.stderr", "w", encoding="utf-8") as err:
            done = subprocess.run(command, stdout=subprocess.PIPE, stderr=err, text=True,
                                  timeout=SENDER_TIMEOUT_S, check=False)
    if done.returncode != 0:
        tail = (workdir / f"{name}.stderr").read_text(encoding="utf-8")[-3000:]
        raise AssertionError(f"{name} exited {done.returncode}:\n{tail}")
    (workdir / f"{name}.stdout").write_text(done.stdout, encoding="utf-8")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()], broker.records()


def join(sender_lines: list[dict[str, Any]], records: list[dict[str, Any]],
         payload_of: dict[tuple[str, str], bytes]) -> dict[str, list[Sent]]:
    """Each run's sent messages, in send order, with the broker's record of
    each; fails if a message is missing, doubled or unsent but recorded."""
    by_payload = messages_by_payload(records)
    runs: dict[str, list[Sent]] = {}
    problems = []
    for line in sender_lines:
        if line["event"] != "sent":
            continue
        payload = payload_of[(line["run"], line["id"])]
        got = by_payload.pop(payload, [])
        if len(got) != 1:
            problems.append(f"{line['run']}/{line['id']}: recorded {len(got)} times")
            continue
        runs.setdefault(line["run"], []).append(Sent(line["run"], line["id"], line, got[0]))
    if by_payload:
        problems.append(f"{len(by_payload)} recorded messages nobody sent: {list(by_payload)[:5]}")
    acked = {line["run"]: line["count"] for line in sender_lines if line["event"] == "acked"}
    for run, sent in runs.items():
        if acked.get(run) != len(sent):
            problems.append(f"{run}: {len(sent)} joined, sender acked {acked.get(run)}")
    assert not problems, "\n".join(problems[:20])
    unexpected = [r for r in records if r["event"] in ("bad_frame", "send_rejected", "send_not_unpacked",
                                                     "batch_count_mismatch")]
    assert not unexpected, unexpected[:5]
    return runs


def describe(mismatches: list[str], agreed: int, total: int) -> str:
    return f"{total - agreed} of {total} messages disagree:\n" + "\n".join(mismatches[:30])
