"""The adapters on the wire: the Python client with
``pulsar_routing.clients.java_router`` and a C program on libpulsar with
``include/pulsar_routing_libpulsar.h`` send what the real Java producer
sends, each to its own test broker, and every message must land on the
partition the Java producer's copy landed on, except where the adapter's
documentation says the client cannot carry the key (asserted here as
documented).

Keyed: more than 5,000 keys (every UTF-8 width, the empty key, NUL, long
keys, lone surrogates) once per partition count and scheme, the client's
batching alternating. Keyless: Java's round robin with batching on and off.
Each keyless run is sent twice by each adapter: once replaying the Java
producer's start and clock (the Java copy's partition, message by message),
once with the start drawn as Java draws it and the system clock (Java's rule
with that start at the instant of the send).

Built by testkit/adapters/build-python-c.sh (TESTKIT_C_SENDER, TESTKIT_PYTHON).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import TESTKIT, _missing
from keys import canonical, java_string_keys, utf16_hex
from pulsar_routing.hashes import java_lossy_utf8
from pulsar_routing.routers import RoundRobinRouter, partition_for_key, partition_for_key_bytes
from wire_check import Sent, describe, join, run_sender

PARTITION_COUNTS = (1, 2, 3, 7, 12, 16, 100, 1000)
SCHEMES = ("java_string", "murmur3_32")
PARTITION_SWITCH_MS = 10
KEYLESS = 48

# (kind, value): ("key", str) | ("none", None) | ("pause", micros)
Message = tuple[str, Any]
TALLY: dict[str, list[int]] = {}


def lone(key: str) -> bool:
    return any(0xD800 <= ord(c) <= 0xDFFF for c in key)


def wire_keys(seed: int = 25) -> list[str]:
    """The testkit's Java keys and 5,000 more: each UTF-8 width alone and
    mixed, short and long (up to 4,000 characters)."""
    rng = random.Random(seed)
    widths = [(0x20, 0x80), (0x80, 0x800), (0x800, 0xD800), (0xE000, 0x10000), (0x10000, 0x110000)]
    keys = java_string_keys() + ["a\x00b", "\x00tail", "", "x" * 4000, "é" * 1500, "😀" * 1000]
    for i in range(5000):
        pools = [widths[i % 5]] if i % 3 else widths
        length = rng.choice([1, 2, 3, 4, 6, 9, 16, 33, 70]) if i % 500 else rng.randrange(500, 4000)
        keys.append("".join(chr(rng.randrange(*rng.choice(pools))) for _ in range(length)))
    return list(dict.fromkeys(canonical(k) for k in keys))


class Plans:
    """The Java producer's plan and the adapters' (one for both), side by side."""

    def __init__(self) -> None:
        self.java = ["service\t@SERVICE@"]
        self.topics: dict[str, dict[str, int]] = {}
        self.runs: dict[str, dict[str, Any]] = {}

    def java_run(self, name: str, n: int, scheme: str, batching: bool, messages: list[Message]) -> None:
        self.topics[f"java-{name}"] = {"partitions": n}
        self.java.append(f"run\t{name}\tjava-{name}\t{n}\t{scheme}\t{int(batching)}")
        ids = {}
        for i, (kind, value) in enumerate(messages):
            if kind == "pause":
                self.java.append(f"pause\t{value}")
                continue
            mid = f"m{i}"
            ids[mid] = (kind, value)
            self.java.append(f"key\t{name}/{mid}\t{utf16_hex(value)}" if kind == "key" else f"none\t{name}/{mid}")
        self.runs[name] = {"n": n, "scheme": scheme, "batching": batching, "messages": messages, "ids": ids}


def keyless_messages(seed: int, pause_us: int) -> list[Message]:
    rng = random.Random(seed)
    keys = [k for k in java_string_keys() if k and not lone(k) and "\x00" not in k]
    out: list[Message] = []
    for i in range(KEYLESS):
        if pause_us:
            out.append(("pause", pause_us + rng.randrange(pause_us)))
        out.append(("none", None) if i % 8 else ("key", rng.choice(keys)))
    return out


def build_plans() -> Plans:
    plans = Plans()
    keyed: list[Message] = [("key", k) for k in wire_keys()]
    for i, (n, scheme) in enumerate((n, s) for n in PARTITION_COUNTS for s in SCHEMES):
        plans.java_run(f"keyed-n{n}-{scheme}", n, scheme, i % 2 == 0, keyed)
    for n in PARTITION_COUNTS:
        plans.java_run(f"keyless-n{n}-b1", n, "java_string", True, keyless_messages(n, 600))
        plans.java_run(f"keyless-n{n}-b0", n, "murmur3_32", False, keyless_messages(n + 1, 0))
    return plans


def router(spec: dict[str, Any], start: int) -> RoundRobinRouter:
    return RoundRobinRouter(spec["scheme"], start_partition_index=start, batching=spec["batching"],
                            partition_switch_ms=PARTITION_SWITCH_MS)


def instants(t0: int, t1: int) -> list[int]:
    """The instants in [t0, t1] at which the batching round robin can differ."""
    out = [t0]
    slot = t0 // PARTITION_SWITCH_MS + 1
    while slot * PARTITION_SWITCH_MS <= t1:
        out.append(slot * PARTITION_SWITCH_MS)
        slot += 1
    return out


def java_keyless_replay(spec: dict[str, Any], sent: list[Sent]) -> tuple[int, dict[str, int]]:
    """The Java producer's start and, per keyless message, an instant at which
    Java's rule with that start gives the partition the broker saw."""
    n, batching = spec["n"], spec["batching"]
    for start in range(n):
        r = router(spec, start)
        clock: dict[str, int] = {}
        for s in sent:
            mid = s.id.split("/")[1]
            if spec["ids"][mid][0] != "none":
                continue
            if batching:
                hit = [t for t in instants(s.info["t0_ms"], s.info["t1_ms"])
                       if r.choose_partition(None, n, now_ms=t) == s.record["partition"]]
                if not hit:
                    break
                clock[mid] = hit[0]
            elif r.choose_partition(None, n) != s.record["partition"]:
                break
        else:
            return start, clock
    raise AssertionError(f"no start explains the Java producer's keyless messages ({n} partitions)")


def adapter_plan(plans: Plans, java: dict[str, list[Sent]]) -> tuple[list[str], dict[str, dict[str, Any]]]:
    lines = ["service\t@SERVICE@"]
    runs: dict[str, dict[str, Any]] = {}
    for name, spec in plans.runs.items():
        variants: list[tuple[str, int, dict[str, int] | None]] = [(name, -1, None)]
        if name.startswith("keyless-"):
            java_start, java_clock = java_keyless_replay(spec, java[name])
            variants = [(name + "-replay", java_start, java_clock), (name + "-own", -1, None)]
        for run_name, start, clock in variants:
            lines.append(f"run\t{run_name}\tjava-{name}\t{spec['n']}\t{spec['scheme']}\t{int(spec['batching'])}\t{start}")
            for i, (kind, value) in enumerate(spec["messages"]):
                if kind == "pause":
                    lines.append(f"pause\t{value}")
                elif kind == "key":
                    lines.append(f"key\t{run_name}/m{i}\t{value.encode('utf-8', 'surrogatepass').hex()}")
                else:
                    at = "-" if clock is None else str(clock.get(f"m{i}", 0)) if spec["batching"] else "0"
                    lines.append(f"none\t{run_name}/m{i}\t{at}")
            runs[run_name] = {**spec, "java_run": name, "replay": clock is not None or start >= 0}
    return lines, runs


def payloads(runs: dict[str, dict[str, Any]]) -> dict[tuple[str, str], bytes]:
    return {(run, f"{run}/{mid}"): f"{run}/{mid}".encode() for run, spec in runs.items() for mid in spec["ids"]}


def run_java_reference(java_classpath: str, java_plan: list[str], topics: dict[str, dict[str, int]],
                       runs: dict[str, dict[str, Any]], workdir: Path) -> dict[str, list[Sent]]:
    """The real Java producer sends the plan that every adapter's copy is
    compared with; its keyed messages are checked against the core first."""
    plan_path = workdir / "java-plan.tsv"
    plan_path.write_text("\n".join(java_plan) + "\n", encoding="utf-8")
    lines, records = run_sender(["java", "-cp", java_classpath, "pulsarrouting.testkit.WireProducer", str(plan_path)],
                                {"topics": topics}, workdir, "java")
    java = join(lines, records, payloads(runs))
    # The Java producer is the reference only where the core says it is.
    for name, spec in runs.items():
        for s in java[name]:
            kind, value = spec["ids"][s.id.split("/")[1]]
            if kind == "key":
                assert s.record["partition"] == partition_for_key(value, spec["n"], spec["scheme"]), s.id
            elif kind == "bytes":
                assert s.record["partition"] == partition_for_key_bytes(value, spec["n"], spec["scheme"]), s.id
    return java


@pytest.fixture(scope="module")
def java_side(java_classpath: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Plans, dict[str, list[Sent]]]:
    workdir: Path = tmp_path_factory.mktemp("adapter-java")
    plans = build_plans()
    return plans, run_java_reference(java_classpath, plans.java, plans.topics, plans.runs, workdir)


def adapter_sender(client: str) -> list[str]:
    if client == "python":
        python = os.environ.get("TESTKIT_PYTHON", sys.executable)
        return [python, str(TESTKIT / "adapters" / "python_sender.py")]
    sender = os.environ.get("TESTKIT_C_SENDER") or str(TESTKIT / ".build" / "c-sender")
    if not Path(sender).exists():
        _missing("TESTKIT_C_SENDER", "the C sender (testkit/adapters/build-python-c.sh)")
    return [sender]


def run_adapter(client: str, java_side: tuple[Plans, dict[str, list[Sent]]], workdir: Path) -> tuple[
        dict[str, dict[str, Any]], dict[str, list[Sent]], list[dict[str, Any]], dict[str, int]]:
    if client == "python":
        pytest.importorskip("pulsar", reason="pulsar-client is not installed (testkit/adapters/build-python-c.sh)")
    plans, java = java_side
    lines, runs = adapter_plan(plans, java)
    plan_path = workdir / f"{client}-plan.tsv"
    plan_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # run_sender rewrites its command's last argument, the plan.
    extra = [str(workdir / "python-client.log")] if client == "python" else []
    command = adapter_sender(client) + extra + [str(plan_path)]
    out, records = run_sender(command, {"topics": plans.topics}, workdir, client)
    refused = [line for line in out if line["event"] == "refused"]
    refused_ids = {line["id"] for line in refused}
    expected_payloads = {k: v for k, v in payloads(runs).items() if k[1] not in refused_ids}
    sent = join(out, records, expected_payloads)
    starts = {line["run"]: line["start"] for line in out if line["event"] == "acked"}
    return runs, sent, refused, starts


def check(client: str, runs: dict[str, dict[str, Any]], sent: dict[str, list[Sent]], refused: list[dict[str, Any]],
          starts: dict[str, int], java: dict[str, list[Sent]]) -> None:
    agreed: dict[str, list[int]] = {}
    mismatches: list[str] = []
    documented: dict[str, int] = {}
    refused_ids = {line["id"] for line in refused}
    for run, spec in runs.items():
        n = spec["n"]
        java_partition = {s.id.split("/")[1]: s.record["partition"] for s in java[spec["java_run"]]}
        mode = ("keyed" if run.startswith("keyed-") else "keyless-replay" if spec["replay"] else "keyless-own")
        mode += f" b{int(spec['batching'])}"
        got = {s.id.split("/")[1]: s for s in sent.get(run, [])}
        start = starts[run]
        own = router(spec, start) if start >= 0 else None
        tally = agreed.setdefault(mode, [0, 0])
        for i, (kind, value) in enumerate(spec["messages"]):
            if kind == "pause":
                continue
            mid = f"m{i}"
            full = f"{run}/{mid}"
            if client == "python" and kind == "key" and lone(value):
                # Documented: the client cannot encode the key and raises.
                assert full in refused_ids, full
                documented["python: lone surrogate refused (TypeError)"] = documented.get(
                    "python: lone surrogate refused (TypeError)", 0) + 1
                continue
            assert full not in refused_ids, f"{full} refused: {[r for r in refused if r['id'] == full]}"
            s = got[mid]
            if kind == "key" and client == "python" and value == "":
                # Documented: send() drops the empty key; keyless rule instead.
                assert s.record["partition_key_hex"] is None
                assert own is not None
                allowed = ({own.choose_partition(None, n, now_ms=t) for t in instants(s.info["t0_ms"], s.info["t1_ms"])}
                           if spec["batching"] else {own.choose_partition(None, n)})
                assert s.record["partition"] in allowed, (full, s.record["partition"], allowed)
                documented["python: empty key sent keyless"] = documented.get("python: empty key sent keyless", 0) + 1
                continue
            if kind == "key" and client == "c" and (lone(value) or "\x00" in value):
                # Documented: the C API keeps a key up to its first NUL; bytes
                # that are not UTF-8 are routed as Java would decode them.
                raw = value.encode("utf-8", "surrogatepass").split(b"\x00")[0]
                assert s.record["partition_key_hex"] == raw.hex(), full
                want = partition_for_key(java_lossy_utf8(raw), n, spec["scheme"])
                assert s.record["partition"] == want, (full, s.record["partition"], want)
                label = "c: lone surrogate routed as Java decodes its bytes" if lone(value) else "c: key cut at NUL"
                documented[label] = documented.get(label, 0) + 1
                continue
            tally[1] += 1
            if kind == "none" and not spec["replay"]:
                assert own is not None and 0 <= start < n, (run, start)
                allowed = ({own.choose_partition(None, n, now_ms=t) for t in instants(s.info["t0_ms"], s.info["t1_ms"])}
                           if spec["batching"] else {own.choose_partition(None, n)})
            else:
                allowed = {java_partition[mid]}
            if s.record["partition"] in allowed:
                tally[0] += 1
            else:
                shown = utf16_hex(value) if kind == "key" else "-"
                mismatches.append(f"{client} {full} {kind} {shown} n={n} {spec['scheme']}: broker saw "
                                  f"{s.record['partition']}, Java's copy {java_partition.get(mid)}, allowed {sorted(allowed)}")
    for mode, (ok, total) in sorted(agreed.items()):
        TALLY[f"{client}+java_router {mode}"] = [ok, total]
    for label, count in documented.items():
        TALLY[f"documented {label}"] = [count, count]
    total = sum(t for _, t in agreed.values())
    assert not mismatches, describe(mismatches, total - len(mismatches), total)


def summary_lines() -> list[str]:
    return [f"adapter wire: {name}: {total}" if name.startswith("documented")
            else f"adapter wire: {name}: {ok}/{total} agree with Java's rule at the send's instant"
            if "keyless-own" in name else f"adapter wire: {name}: {ok}/{total} agree with the Java producer's copy"
            for name, (ok, total) in TALLY.items()]


@pytest.fixture(scope="module", autouse=True)
def _summary(request: pytest.FixtureRequest) -> Any:
    yield
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or not TALLY:
        return
    # Written past pytest's capture, so that -q runs show the counts too.
    with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
        reporter.write_line("")
        for line in summary_lines():
            reporter.write_line(line)


@pytest.mark.parametrize("client", ["python", "c"])
def test_adapted_client_lands_where_java_does(client: str, java_side: tuple[Plans, dict[str, list[Sent]]],
                                              tmp_path_factory: pytest.TempPathFactory) -> None:
    workdir: Path = tmp_path_factory.mktemp(f"adapter-{client}")
    runs, sent, refused, starts = run_adapter(client, java_side, workdir)
    check(client, runs, sent, refused, starts, java_side[1])


def test_c_adapter_refuses_partitions_above_32767() -> None:
    """libpulsar casts the router's answer to a short: the adapter answers -1
    (the client fails the send) rather than let 65537 reach partition 1."""
    check_binary = os.environ.get("TESTKIT_C_ROUTER_CHECK") or str(TESTKIT / ".build" / "c-router-check")
    if not Path(check_binary).exists():
        _missing("TESTKIT_C_ROUTER_CHECK", "the C router check (testkit/adapters/build-python-c.sh)")
    done = subprocess.run([check_binary], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    counts = json.loads(done.stdout)
    assert counts["failures"] == 0 and counts["refused_above_32767"] > 0 and counts["routed"] > 0


def readme_block(fence: str) -> str:
    text = (TESTKIT.parent / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Make every client route like Java"):]
    start = section.index(f"```{fence}\n") + len(fence) + 4
    return section[start:section.index("\n```", start)]


@pytest.mark.parametrize("language", ["python", "c"])
def test_readme_example_routes_like_java(language: str, tmp_path: Path) -> None:
    """The README's examples, run against the test broker: the key lands on
    partition 5 of 12, where the Java client sends it."""
    from pulsar_testkit.harness import BrokerProcess, messages_by_payload

    if language == "python":
        pytest.importorskip("pulsar", reason="pulsar-client is not installed (testkit/adapters/build-python-c.sh)")
        source = tmp_path / "example.py"
        source.write_text(readme_block("python pulsar-client"), encoding="utf-8")
        command = [os.environ.get("TESTKIT_PYTHON", sys.executable), str(source)]
    else:
        libpulsar = os.environ.get("TESTKIT_LIBPULSAR")
        static = os.environ.get("TESTKIT_PULSAR_ROUTING_STATIC")
        if not libpulsar or not static:
            _missing("TESTKIT_LIBPULSAR", "the C example's libraries (testkit/adapters/build-python-c.sh prints them)")
        # The wheel ships no headers: an empty <pulsar/c/client.h> and the
        # testkit's declarations stand in for libpulsar's.
        (tmp_path / "pulsar" / "c").mkdir(parents=True)
        (tmp_path / "pulsar" / "c" / "client.h").write_text("", encoding="utf-8")
        source = tmp_path / "example.c"
        source.write_text(readme_block("c libpulsar"), encoding="utf-8")
        binary = tmp_path / "example"
        subprocess.run([os.environ.get("CC", "cc"), "-std=c11", "-Wall", "-Wextra", "-Werror",
                        "-include", str(TESTKIT / "adapters" / "libpulsar_c_decls.h"), "-I", str(tmp_path),
                        "-I", str(TESTKIT.parent / "include"), str(source), "-o", str(binary), str(static),
                        str(libpulsar), f"-Wl,-rpath,{Path(str(libpulsar)).parent}",
                        "-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"], check=True)
        command = [str(binary)]
    with BrokerProcess({"topics": {"orders": {"partitions": 12}}}, tmp_path / "broker") as broker:
        env = {**os.environ, "PULSAR_SERVICE_URL": broker.url}
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    got = messages_by_payload(broker.records())[b"order 17"]
    assert [r["partition"] for r in got] == [partition_for_key("customer-000042", 12)] == [5]
