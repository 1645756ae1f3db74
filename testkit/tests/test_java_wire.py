"""The real Java producer (pulsar-client 4.2.4) against the test broker: the
partition the broker saw for each message must be the core's answer."""

from __future__ import annotations

import base64
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import NOTES, tally
from keys import byte_keys, java_string_keys, utf16_hex
from pulsar_routing.routers import RoundRobinRouter, partition_for_key, partition_for_key_bytes
from wire_check import Sent, describe, join, run_sender

PARTITION_COUNTS = (1, 2, 3, 7, 12, 16, 100, 1000)
SCHEMES = ("java_string", "murmur3_32")
# The producer defaults: batchingMaxPublishDelay 1 ms times
# batchingPartitionSwitchFrequencyByPublishDelay 10.
PARTITION_SWITCH_MS = 10
KEYLESS_COUNTS = (1, 2, 3, 7, 12, 16)

Message = tuple[str, Any]  # ("key", str) | ("bytes", bytes) | ("none", None) | ("pause", micros)


class Plan:
    def __init__(self) -> None:
        self.lines = ["service\t@SERVICE@"]
        self.topics: dict[str, dict[str, int]] = {}
        self.runs: dict[str, dict[str, Any]] = {}
        self.payloads: dict[tuple[str, str], bytes] = {}

    def run(self, name: str, partitions: int, scheme: str, batching: bool, messages: list[Message]) -> None:
        topic = f"java-{name}"
        self.topics[topic] = {"partitions": partitions}
        self.lines.append(f"run\t{name}\t{topic}\t{partitions}\t{scheme}\t{int(batching)}")
        sent = {}
        for i, (kind, value) in enumerate(messages):
            if kind == "pause":
                self.lines.append(f"pause\t{value}")
                continue
            mid = f"{name}/m{i}"
            self.payloads[(name, mid)] = mid.encode()
            sent[mid] = (kind, value)
            if kind == "key":
                self.lines.append(f"key\t{mid}\t{utf16_hex(value)}")
            elif kind == "bytes":
                self.lines.append(f"bytes\t{mid}\t{value.hex()}")
            else:
                self.lines.append(f"none\t{mid}")
        self.runs[name] = {"partitions": partitions, "scheme": scheme, "batching": batching, "messages": sent}


def keyed_messages() -> list[Message]:
    return [("key", k) for k in java_string_keys()] + [("bytes", b) for b in byte_keys()]


def keyless_messages(seed: int, count: int, pause_us: int) -> list[Message]:
    """Keyless messages paced over many switch slots, a keyed one now and then
    (it must not move the round robin)."""
    rng = random.Random(seed)
    keys = java_string_keys()
    out: list[Message] = []
    for i in range(count):
        if pause_us:
            out.append(("pause", pause_us + rng.randrange(pause_us)))
        out.append(("none", None) if i % 8 else ("key", rng.choice(keys)))
    return out


def build_plan() -> Plan:
    plan = Plan()
    for n in PARTITION_COUNTS:
        for scheme in SCHEMES:
            for batching in (True, False):
                plan.run(f"keyed-n{n}-{scheme}-b{int(batching)}", n, scheme, batching, keyed_messages())
    for n in KEYLESS_COUNTS:
        plan.run(f"keyless-n{n}-b1", n, "java_string", True, keyless_messages(n, 160, 500))
        plan.run(f"keyless-n{n}-b0", n, "murmur3_32", False, keyless_messages(n + 100, 120, 0))
    return plan


def expected_keyed(kind: str, value: Any, n: int, scheme: str) -> int:
    if kind == "key":
        return partition_for_key(value, n, scheme)
    return partition_for_key_bytes(value, n, scheme)


def has_lone_surrogate(key: str) -> bool:
    return any(0xD800 <= ord(c) <= 0xDFFF for c in key)


def check_wire_key(kind: str, value: Any, record: dict[str, Any], problems: list[str], name: str) -> None:
    """What Java put on the wire as the key (routing aside)."""
    if kind == "bytes":
        if not record["partition_key_b64_encoded"] or record["partition_key"] != base64.b64encode(value).decode():
            problems.append(f"{name}: keyBytes {value.hex()} sent as {record['partition_key_hex']}")
    elif kind == "key":
        if record["partition_key_b64_encoded"]:
            problems.append(f"{name}: key() marked base64")
        if has_lone_surrogate(value):
            # Not a routing input: the router hashed the String itself. Kept
            # to report how the client encodes what UTF-8 cannot hold.
            NOTES.setdefault("java_lone_surrogate_wire", {})[utf16_hex(value)] = record["partition_key_hex"]
        elif record["partition_key_hex"] != value.encode().hex():
            problems.append(f"{name}: key {utf16_hex(value)} sent as {record['partition_key_hex']}")
    elif record["partition_key_hex"] is not None:
        problems.append(f"{name}: keyless message carries key {record['partition_key_hex']}")


def keyless_partitions(router: RoundRobinRouter, n: int, t0: int, t1: int) -> set[int]:
    """Every partition the batching router answers at some instant in [t0, t1]:
    the router read the clock somewhere in the send call's window."""
    instants = {t0, t1}
    slot = t0 // PARTITION_SWITCH_MS + 1
    while slot * PARTITION_SWITCH_MS <= t1:
        instants.add(slot * PARTITION_SWITCH_MS)
        slot += 1
    return {router.choose_partition(None, n, now_ms=t) for t in instants}


def check_run(name: str, spec: dict[str, Any], sent: list[Sent]) -> tuple[int, list[str], int]:
    """(agreed, mismatches, straddling) for one run, message by message."""
    n, scheme, batching = spec["partitions"], spec["scheme"], spec["batching"]
    messages = spec["messages"]
    keyless = [s for s in sent if messages[s.id][0] == "none"]
    # Java draws the start index at random per producer: every start that
    # explains the first keyless message is a candidate; one must explain all.
    candidates = [0]
    if keyless:
        first = keyless[0]
        candidates = []
        for start in range(n):
            r = RoundRobinRouter(scheme, start_partition_index=start, batching=batching,
                                 partition_switch_ms=PARTITION_SWITCH_MS)
            got = (keyless_partitions(r, n, first.info["t0_ms"], first.info["t1_ms"]) if batching
                   else {r.choose_partition(None, n)})
            if first.record["partition"] in got:
                candidates.append(start)
    best: tuple[int, list[str], int] = (-1, [], 0)
    for start in candidates or [0]:
        router = RoundRobinRouter(scheme, start_partition_index=start, batching=batching,
                                  partition_switch_ms=PARTITION_SWITCH_MS)
        agreed, mismatches, straddling = 0, [], 0
        for s in sent:
            kind, value = messages[s.id]
            got = s.record["partition"]
            if kind == "none":
                if batching:
                    allowed = keyless_partitions(router, n, s.info["t0_ms"], s.info["t1_ms"])
                    straddling += len(allowed) > 1
                else:
                    allowed = {router.choose_partition(None, n)}
            else:
                allowed = {expected_keyed(kind, value, n, scheme)}
                # The router must answer keyed messages the same way, without
                # moving its keyless state.
                if kind == "key":
                    allowed.add(router.choose_partition(value, n, now_ms=s.info["t0_ms"]))
            if got in allowed and len(allowed) <= (2 if kind == "none" else 1):
                agreed += 1
            else:
                shown = utf16_hex(value) if kind == "key" else (value.hex() if kind == "bytes" else "-")
                mismatches.append(f"{name} {s.id} {kind} {shown!r} n={n} {scheme}: broker saw {got}, "
                                  f"core says {sorted(allowed)} (start {start})")
        if agreed > best[0]:
            best = (agreed, mismatches, straddling)
    return best


@pytest.fixture(scope="module")
def java_run(java_classpath: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Plan, dict[str, list[Sent]]]:
    workdir: Path = tmp_path_factory.mktemp("java-wire")
    plan = build_plan()
    plan_path = workdir / "java-plan.tsv"
    plan_path.write_text("\n".join(plan.lines) + "\n", encoding="utf-8")
    lines, records = run_sender(
        ["java", "-cp", java_classpath, "pulsarrouting.testkit.WireProducer", str(plan_path)],
        {"topics": plan.topics},
        workdir,
        "java",
    )
    seen = {line["run"]: line["partitions"] for line in lines if line["event"] == "run"}
    assert seen == {name: spec["partitions"] for name, spec in plan.runs.items()}
    return plan, join(lines, records, plan.payloads)


def _check(plan: Plan, runs: dict[str, list[Sent]], prefix: str) -> None:
    agreed_all = total_all = 0
    mismatches_all: list[str] = []
    problems: list[str] = []
    straddled = 0
    for name, spec in plan.runs.items():
        if not name.startswith(prefix):
            continue
        sent = runs.get(name, [])
        assert len(sent) == len(spec["messages"]), name
        agreed, mismatches, straddling = check_run(name, spec, sent)
        agreed_all += agreed
        total_all += len(sent)
        mismatches_all += mismatches
        straddled += straddling
        for s in sent:
            kind, value = spec["messages"][s.id]
            check_wire_key(kind, value, s.record, problems, f"{name} {s.id}")
    tally("java", agreed_all, total_all)
    NOTES.setdefault("java", []).append(f"{prefix}: {agreed_all}/{total_all} agree"
                                        + (f", {straddled} keyless sends straddled a slot" if straddled else ""))
    assert not mismatches_all, describe(mismatches_all, agreed_all, total_all)
    assert not problems, "\n".join(problems[:20])


def test_java_keyed_messages_land_where_the_core_says(java_run: tuple[Plan, dict[str, list[Sent]]]) -> None:
    _check(*java_run, "keyed-")


def test_java_keyless_messages_follow_the_round_robin(java_run: tuple[Plan, dict[str, list[Sent]]]) -> None:
    _check(*java_run, "keyless-")
