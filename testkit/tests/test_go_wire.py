"""The real Go client (pulsar-client-go, pinned in testkit/go) against the
test broker: the `go` profile must predict the partition of every message."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import NOTES, tally
from keys import byte_keys, java_string_keys
from pulsar_routing.profiles import ProfileRouter
from wire_check import Sent, describe, join, run_sender

PARTITION_COUNTS = (1, 2, 3, 7, 12, 16, 100, 1000)
SCHEMES = ("java_string", "murmur3_32")
# pulsar-client-go's producer defaults, which it applies to zero options.
GO_MAX_MESSAGES, GO_MAX_SIZE, GO_MAX_DELAY_MS = 1000, 128 * 1024, 10
HOUR_MS = 3_600_000


def utf8_keys() -> list[bytes]:
    """Go keys are byte strings: UTF-8 text (every width) and raw bytes."""
    text = [k.encode() for k in java_string_keys() if not any(0xD800 <= ord(c) <= 0xDFFF for c in k)]
    return text + byte_keys()


def keyed_messages(seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    keys = utf8_keys()
    out = [{"key": k} for k in keys]
    # Go's default router prefers a non-empty OrderingKey over the Key.
    for _ in range(12):
        out.append({"ordering_key": rng.choice(keys[1:])})
        out.append({"ordering_key": rng.choice(keys[1:]), "key": rng.choice(keys)})
        out.append({"ordering_key": b"", "key": rng.choice(keys[1:])})
        out.append({"ordering_key": rng.choice(keys[1:]), "key": b""})
    return out


def keyless_messages(seed: int, count: int, *, sizes: tuple[int, int] = (0, 0), keyed_every: int = 8,
                     burst: int = 0, burst_pause_us: int = 0) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    keys = utf8_keys()
    out: list[dict[str, Any]] = []
    for i in range(count):
        m: dict[str, Any] = {}
        if keyed_every and i % keyed_every == keyed_every - 1:
            m["key"] = rng.choice(keys[1:])
        elif i % 11 == 5:
            m["key"] = b""  # an empty key is no key in Go: round robin
        if sizes[1]:
            m["payload_len"] = rng.randint(*sizes)
        if burst and i and i % burst == 0:
            m["pause_us"] = burst_pause_us
        out.append(m)
    return out


class Plan:
    def __init__(self) -> None:
        self.runs: list[dict[str, Any]] = []
        self.specs: dict[str, dict[str, Any]] = {}
        self.topics: dict[str, dict[str, int]] = {}
        self.payloads: dict[tuple[str, str], bytes] = {}

    def run(self, name: str, partitions: int, scheme: str, batching: bool, messages: list[dict[str, Any]],
            max_messages: int = 0, max_size: int = 0, max_delay_ms: int = 0, pause_after_create_us: int = 0) -> None:
        topic = f"go-{name}"
        self.topics[topic] = {"partitions": partitions}
        wire_messages = []
        sent = {}
        for i, m in enumerate(messages):
            mid = f"{name}/m{i}"
            w: dict[str, Any] = {"id": mid}
            if "key" in m:
                w["key_hex"] = m["key"].hex()
            if "ordering_key" in m:
                w["ordering_key_hex"] = m["ordering_key"].hex()
            for field in ("payload_len", "pause_us"):
                if field in m:
                    w[field] = m[field]
            length = max(m.get("payload_len", 0), len(mid))
            self.payloads[(name, mid)] = mid.encode() + (b"|" + b"x" * (length - len(mid) - 1)
                                                         if length > len(mid) else b"")
            wire_messages.append(w)
            sent[mid] = m
        self.runs.append({
            "name": name, "topic": topic, "partitions": partitions, "scheme": scheme, "batching": batching,
            "max_messages": max_messages, "max_size": max_size, "max_delay_ms": max_delay_ms,
            "pause_after_create_us": pause_after_create_us, "messages": wire_messages,
        })
        self.specs[name] = {
            "partitions": partitions, "scheme": scheme, "batching": batching, "messages": sent,
            "max_messages": max_messages or GO_MAX_MESSAGES, "max_size": max_size or GO_MAX_SIZE,
            "max_delay_ms": max_delay_ms or GO_MAX_DELAY_MS,
        }


def build_plan() -> Plan:
    plan = Plan()
    for n in PARTITION_COUNTS:
        for scheme in SCHEMES:
            for batching in (True, False):
                plan.run(f"keyed-n{n}-{scheme}-b{int(batching)}", n, scheme, batching, keyed_messages(n))
    for n in (1, 2, 3, 7, 12, 16):
        plan.run(f"keyless-off-n{n}", n, "java_string", False, keyless_messages(n, 120))
    # Count, then size, switch the partition; an hour's delay keeps the clock
    # out. Payloads are at least the id (about 30 bytes) long.
    for n in (2, 3, 7, 12):
        plan.run(f"keyless-count-size-n{n}-count", n, "murmur3_32", True,
                 keyless_messages(n + 50, 150), max_messages=7, max_delay_ms=HOUR_MS)
        plan.run(f"keyless-count-size-n{n}-size", n, "java_string", True,
                 keyless_messages(n + 60, 150, sizes=(1, 90)), max_messages=50, max_size=300,
                 max_delay_ms=HOUR_MS)
    # The delay switches it: bursts far shorter than the delay, pauses far
    # longer, so no clock reading falls near the threshold.
    for n in (3, 7):
        plan.run(f"keyless-delay-n{n}", n, "java_string", True,
                 keyless_messages(n + 70, 60, burst=5, burst_pause_us=60_000),
                 max_messages=20, max_delay_ms=30, pause_after_create_us=60_000)
    return plan


def go_router(spec: dict[str, Any], start: int, created_ns: int) -> ProfileRouter:
    return ProfileRouter(
        "go", scheme=spec["scheme"], batching=spec["batching"],
        batching_max_messages=spec["max_messages"], batching_max_bytes=spec["max_size"],
        batching_max_publish_delay_ns=spec["max_delay_ms"] * 1_000_000,
        start=start, created_ns=created_ns,
    )


def is_keyless(m: dict[str, Any]) -> bool:
    return not m.get("key") and not m.get("ordering_key")


def predict(spec: dict[str, Any], sent: list[Sent], start: int, created_ns: int) -> list[int]:
    router = go_router(spec, start, created_ns)
    out = []
    for s in sent:
        m = spec["messages"][s.id]
        # Go reads its clock inside SendAsync; the start of the call's window
        # stands for that instant (the plans keep readings far from any
        # threshold, so any instant in the window gives the same answer).
        out.append(router.route(m.get("key"), spec["partitions"], now_ns=s.info["t0_ns"],
                                payload_len=s.info["payload_len"], ordering_key=m.get("ordering_key")))
    return out


def check_run(name: str, spec: dict[str, Any], sent: list[Sent], created_ns: int) -> tuple[int, list[str]]:
    n = spec["partitions"]
    got = [s.record["partition"] for s in sent]
    first = next((i for i, s in enumerate(sent) if is_keyless(spec["messages"][s.id])), None)
    # Go's cursor starts at rand.Uint32(); only its residue mod n shows, so
    # the candidates are the n residues that explain the first keyless message.
    candidates = [0]
    if first is not None:
        candidates = [s for s in range(n) if predict(spec, sent[: first + 1], s, created_ns)[first] == got[first]]
    best: tuple[int, list[str]] = (-1, [])
    for start in candidates or [0]:
        predicted = predict(spec, sent, start, created_ns)
        agreed = sum(p == g for p, g in zip(predicted, got))
        if agreed > best[0]:
            mismatches = [
                f"{name} {s.id} key={spec['messages'][s.id].get('key')!r} "
                f"ordering_key={spec['messages'][s.id].get('ordering_key')!r} n={n} {spec['scheme']}: "
                f"broker saw {g}, go profile says {p} (start {start})"
                for s, p, g in zip(sent, predicted, got) if p != g
            ]
            best = (agreed, mismatches)
    return best


def check_wire_keys(spec: dict[str, Any], sent: list[Sent], problems: list[str]) -> None:
    for s in sent:
        m = spec["messages"][s.id]
        for field, recorded in (("key", "partition_key_hex"), ("ordering_key", "ordering_key_hex")):
            value = m.get(field)
            want = value.hex() if value else None
            if s.record[recorded] != want and not (value == b"" and s.record[recorded] == ""):
                problems.append(f"{s.id}: {field} {want} recorded as {s.record[recorded]}")


@pytest.fixture(scope="module")
def go_run(go_sender: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Plan, dict[str, Any], dict[str, list[Sent]]]:
    workdir: Path = tmp_path_factory.mktemp("go-wire")
    plan = build_plan()
    plan_path = workdir / "go-plan.json"
    plan_path.write_text(json.dumps({"service": "@SERVICE@", "runs": plan.runs}), encoding="utf-8")
    lines, records = run_sender([go_sender, str(plan_path)], {"topics": plan.topics}, workdir, "go")
    runs_seen = {line["run"]: line for line in lines if line["event"] == "run"}
    assert {k: v["partitions"] for k, v in runs_seen.items()} == {k: v["partitions"] for k, v in plan.specs.items()}
    return plan, runs_seen, join(lines, records, plan.payloads)


def _check(go_run: tuple[Plan, dict[str, Any], dict[str, list[Sent]]], prefix: str) -> None:
    plan, runs_seen, runs = go_run
    agreed_all = total_all = 0
    mismatches_all: list[str] = []
    problems: list[str] = []
    for name, spec in plan.specs.items():
        if not name.startswith(prefix):
            continue
        sent = runs.get(name, [])
        assert len(sent) == len(spec["messages"]), name
        agreed, mismatches = check_run(name, spec, sent, runs_seen[name]["created_t0_ns"])
        agreed_all += agreed
        total_all += len(sent)
        mismatches_all += mismatches
        check_wire_keys(spec, sent, problems)
    tally("go", agreed_all, total_all)
    NOTES.setdefault("go", []).append(f"{prefix.rstrip('-')}: {agreed_all}/{total_all} agree")
    assert not mismatches_all, describe(mismatches_all, agreed_all, total_all)
    assert not problems, "\n".join(problems[:20])


def test_go_keyed_and_ordering_key_messages(go_run: tuple[Plan, dict[str, Any], dict[str, list[Sent]]]) -> None:
    _check(go_run, "keyed-")


def test_go_keyless_without_batching(go_run: tuple[Plan, dict[str, Any], dict[str, list[Sent]]]) -> None:
    _check(go_run, "keyless-off-")


def test_go_keyless_batching_count_and_size(go_run: tuple[Plan, dict[str, Any], dict[str, list[Sent]]]) -> None:
    _check(go_run, "keyless-count-size-")


def test_go_keyless_batching_delay(go_run: tuple[Plan, dict[str, Any], dict[str, list[Sent]]]) -> None:
    _check(go_run, "keyless-delay-")
