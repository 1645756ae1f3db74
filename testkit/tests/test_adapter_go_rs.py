"""The Go and Rust adapters on the wire: pulsar-client-go with
``clients/go`` (javarouter) and pulsar-rs with ``clients/pulsar-rs``
(JavaRoutingPolicy) send what the real Java producer sends, each to its own
test broker, and every message must land on the partition the Java
producer's copy landed on, except where the adapter's documentation says
the client cannot carry the key (asserted here as documented).

Keyed: more than 5,000 keys (every UTF-8 width, the empty key, NUL, long
keys, lone surrogates), Java's keyBytes keys (Go: their Base64 text as the
key; pulsar-rs: with_key_bytes) and raw byte keys (Go only: Java's copy is
the String Java decodes from them), a few with an ordering key, once per
partition count and scheme, batching alternating. Keyless: Java's round
robin with batching on and off, each run sent twice by each adapter: once
replaying the Java producer's start and clock, once with the start drawn as
Java draws it and the system clock (then Java's rule with that start at the
instant of the send). Each sender ends with a cost run, printed, never
asserted: its default router against the adapter (with and without
Java's batching rule), rotating rounds.

Built by testkit/adapters/build-go-rs.sh (TESTKIT_GO_ADAPTER_SENDER,
TESTKIT_RS_ADAPTER_SENDER).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import TESTKIT, _missing
from keys import byte_keys, java_string_keys, utf16_hex
from pulsar_routing.hashes import java_lossy_utf8
from pulsar_routing.routers import RoundRobinRouter, partition_for_key
from test_adapter_python_c import instants, java_keyless_replay, lone, run_java_reference, wire_keys
from wire_check import Sent, describe, join, run_sender

PARTITION_COUNTS = (1, 2, 3, 7, 12, 16, 100, 1000)
SCHEMES = ("java_string", "murmur3_32")
PARTITION_SWITCH_MS = 10
KEYLESS = 48
# The instant the Go empty key (keyless in Go, keyed in Java) is routed at
# when its run replays Java's clock: Java's copy reads no clock.
EMPTY_KEY_CLOCK_MS = 1_800_000_000_000
BENCH = {"topic": "bench-n12", "rounds": 10, "messages": 2000}
CLIENTS = ("go", "rs")

# An entry: what the Java producer sends ("key", str) | ("bytes", bytes) |
# ("none", None), and how each adapted client spells it: ("key", str|bytes),
# ("bytes", bytes), ("none",), ("empty",) and ("wtf8", bytes) (Go, as
# documented), or None (no spelling: not sent).
Entry = dict[str, Any]
TALLY: dict[str, list[int]] = {}
COST: dict[str, dict[str, Any]] = {}


def keyed_entries(seed: int = 26) -> list[Entry]:
    rng = random.Random(seed)
    out: list[Entry] = []
    for i, k in enumerate(k for k in wire_keys() if k):
        go: tuple[Any, ...] = ("wtf8", k.encode("utf-8", "surrogatepass")) if lone(k) else ("key", k.encode())
        e: Entry = {"java": ("key", k), "go": go, "rs": None if lone(k) else ("key", k)}
        if i % 50 == 7:
            # Java's routers ignore the ordering key, and so must the adapters.
            e["ordering"] = rng.randbytes(rng.randrange(1, 9))
        out.append(e)
    raw = [b for b in byte_keys() if b] + [rng.randbytes(rng.randrange(1, 64)) for _ in range(60)]
    for b in raw:
        out.append({"java": ("bytes", b), "go": ("key", base64.b64encode(b)), "rs": ("bytes", b)})
    for b in raw:
        text = java_lossy_utf8(b)
        out.append({"java": ("key", text), "go": ("key", b), "rs": ("key", text)})
    for _ in range(6):
        out.append({"java": ("none", None), "go": ("none",), "rs": ("none",), "ordering": rng.randbytes(4)})
    # Last, so that Go's keyless reading of them moves no later keyless
    # message: key("") and keyBytes(b""), whose Base64 text is empty too.
    out.append({"java": ("key", ""), "go": ("empty",), "rs": ("key", "")})
    out.append({"java": ("bytes", b""), "go": ("empty",), "rs": ("bytes", b"")})
    return out


def keyless_entries(seed: int) -> list[Entry]:
    rng = random.Random(seed)
    keys = [k for k in java_string_keys() if k and not lone(k)]
    out: list[Entry] = []
    for i in range(KEYLESS):
        if i % 8:
            out.append({"java": ("none", None), "go": ("none",), "rs": ("none",)})
        else:
            k = rng.choice(keys)
            out.append({"java": ("key", k), "go": ("key", k.encode()), "rs": ("key", k)})
    return out


class Plans:
    def __init__(self) -> None:
        self.java = ["service\t@SERVICE@"]
        self.topics: dict[str, dict[str, int]] = {BENCH["topic"]: {"partitions": 12}}
        self.runs: dict[str, dict[str, Any]] = {}

    def java_run(self, name: str, n: int, scheme: str, batching: bool, entries: list[Entry], pause_us: int) -> None:
        self.topics[f"java-{name}"] = {"partitions": n}
        self.java.append(f"run\t{name}\tjava-{name}\t{n}\t{scheme}\t{int(batching)}")
        rng = random.Random(n)
        ids = {}
        for i, e in enumerate(entries):
            if pause_us:
                self.java.append(f"pause\t{pause_us + rng.randrange(pause_us)}")
            mid = f"m{i}"
            kind, value = e["java"]
            ids[mid] = (kind, value)
            if kind == "key":
                self.java.append(f"key\t{name}/{mid}\t{utf16_hex(value)}")
            elif kind == "bytes":
                self.java.append(f"bytes\t{name}/{mid}\t{value.hex()}")
            else:
                self.java.append(f"none\t{name}/{mid}")
        self.runs[name] = {"n": n, "scheme": scheme, "batching": batching, "entries": entries, "ids": ids}


def build_plans() -> Plans:
    plans = Plans()
    keyed = keyed_entries()
    for i, (n, scheme) in enumerate((n, s) for n in PARTITION_COUNTS for s in SCHEMES):
        plans.java_run(f"keyed-n{n}-{scheme}", n, scheme, i % 2 == 0, keyed, 0)
    for n in PARTITION_COUNTS:
        plans.java_run(f"keyless-n{n}-b1", n, "java_string", True, keyless_entries(n), 600)
        plans.java_run(f"keyless-n{n}-b0", n, "murmur3_32", False, keyless_entries(n + 1), 0)
    return plans


def wire_message(client: str, spelling: tuple[Any, ...], entry: Entry, mid: str) -> dict[str, Any]:
    m: dict[str, Any] = {"id": mid}
    kind = spelling[0]
    if client == "go":
        if kind in ("key", "wtf8"):
            value = spelling[1]
            m["key_hex"] = (value if isinstance(value, bytes) else value.encode()).hex()
    elif kind == "key":
        m["key"] = spelling[1]
    elif kind == "bytes":
        m["key_bytes_hex"] = spelling[1].hex()
    if "ordering" in entry:
        m["ordering_key_hex"] = entry["ordering"].hex()
    return m


def adapter_plan(client: str, plans: Plans, java: dict[str, list[Sent]]) -> tuple[dict[str, Any], dict[str, Any]]:
    runs: list[dict[str, Any]] = []
    specs: dict[str, dict[str, Any]] = {}
    for name, spec in plans.runs.items():
        java_start, java_clock = java_keyless_replay(spec, java[name])
        variants: list[tuple[str, int | None, dict[str, int] | None]] = [(name, java_start, java_clock)]
        if name.startswith("keyless-"):
            variants = [(name + "-replay", java_start, java_clock), (name + "-own", None, None)]
        for run_name, start, clock in variants:
            messages = []
            for i, e in enumerate(spec["entries"]):
                spelling = e[client]
                if spelling is None:
                    continue
                mid = f"m{i}"
                m = wire_message(client, spelling, e, f"{run_name}/{mid}")
                if clock is not None and spec["batching"]:
                    if spelling[0] == "empty":
                        m["clock_ms"] = EMPTY_KEY_CLOCK_MS
                    elif spelling[0] == "none":
                        m["clock_ms"] = clock[mid]
                messages.append(m)
            run: dict[str, Any] = {"name": run_name, "topic": f"java-{name}", "partitions": spec["n"],
                                   "scheme": spec["scheme"], "batching": spec["batching"], "messages": messages}
            if start is not None:
                run["start"] = start
            runs.append(run)
            specs[run_name] = {**spec, "java_run": name, "replay": start is not None,
                               "sent_ids": [m["id"] for m in messages]}
    return {"service": "@SERVICE@", "runs": runs, "bench": BENCH}, specs


def sender(client: str) -> str:
    env = {"go": "TESTKIT_GO_ADAPTER_SENDER", "rs": "TESTKIT_RS_ADAPTER_SENDER"}[client]
    default = TESTKIT / ".build" / {"go": "go-adapter-sender", "rs": "rs-adapter-sender"}[client]
    path = os.environ.get(env) or str(default)
    if not Path(path).exists():
        _missing(env, f"the {client} adapter sender (testkit/adapters/build-go-rs.sh)")
    return path


@pytest.fixture(scope="module")
def java_side(java_classpath: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Plans, dict[str, list[Sent]]]:
    # Both senders are checked first, so that a missing one skips before the JVM runs.
    for client in CLIENTS:
        sender(client)
    workdir: Path = tmp_path_factory.mktemp("adapter-go-rs-java")
    plans = build_plans()
    return plans, run_java_reference(java_classpath, plans.java, plans.topics, plans.runs, workdir)


def keyless_rule(spec: dict[str, Any], start: int) -> RoundRobinRouter:
    return RoundRobinRouter(spec["scheme"], start_partition_index=start, batching=spec["batching"],
                            partition_switch_ms=PARTITION_SWITCH_MS)


def count(label: str) -> None:
    TALLY.setdefault(f"documented {label}", [0, 0])
    TALLY[f"documented {label}"][0] += 1
    TALLY[f"documented {label}"][1] += 1


def check(client: str, specs: dict[str, dict[str, Any]], sent: dict[str, list[Sent]], starts: dict[str, int],
          java: dict[str, list[Sent]]) -> None:
    mismatches: list[str] = []
    for run, spec in specs.items():
        n, scheme = spec["n"], spec["scheme"]
        java_partition = {s.id.split("/")[1]: s.record["partition"] for s in java[spec["java_run"]]}
        got = {s.id.split("/")[1]: s for s in sent.get(run, [])}
        assert len(got) == len(spec["sent_ids"]), run
        mode = "keyed" if run.startswith("keyed-") else "keyless-replay" if spec["replay"] else "keyless-own"
        mode += f" b{int(spec['batching'])}"
        tally = TALLY.setdefault(f"{client}+adapter {mode}", [0, 0])
        # The adapter's own keyless sequence: every message it sends keyless,
        # in order (the counter moves once for each).
        rule = keyless_rule(spec, starts[run])
        for i, e in enumerate(spec["entries"]):
            spelling = e[client]
            mid = f"m{i}"
            if spelling is None:
                count(f"{client}: lone surrogate has no String spelling, not sent")
                continue
            s = got[mid]
            keyless = spelling[0] in ("none", "empty")
            if keyless:
                if spec["batching"]:
                    at = ([EMPTY_KEY_CLOCK_MS] if spelling[0] == "empty" and spec["replay"]
                          else [] if spec["replay"] else instants(s.info["t0_ms"], s.info["t1_ms"]))
                    allowed = ({rule.choose_partition(None, n, now_ms=t) for t in at} if at
                               else {java_partition[mid]})
                else:
                    allowed = {rule.choose_partition(None, n)}
            if spelling[0] == "empty":
                # Documented: Go sends no empty key; the keyless rule routes it.
                assert s.record["partition_key_hex"] in (None, ""), (s.id, s.record["partition_key_hex"])
                assert s.record["partition"] in allowed, (s.id, s.record["partition"], allowed)
                count("go: empty key sent keyless")
                continue
            if spelling[0] == "wtf8":
                # Documented: a lone surrogate's WTF-8 bytes are routed as
                # Java decodes them (U+FFFD), not as the Java String.
                want = partition_for_key(java_lossy_utf8(spelling[1]), n, scheme)
                assert s.record["partition"] == want, (s.id, s.record["partition"], want)
                count("go: lone surrogate (WTF-8 bytes) routed as Java decodes them")
                continue
            if not keyless or spec["replay"]:
                allowed = {java_partition[mid]}
            tally[1] += 1
            if s.record["partition"] in allowed:
                tally[0] += 1
            else:
                kind, value = e["java"]
                shown = utf16_hex(value) if kind == "key" else value.hex() if kind == "bytes" else "-"
                mismatches.append(f"{client} {s.id} java {kind} {shown} n={n} {scheme}: broker saw "
                                  f"{s.record['partition']}, Java's copy {java_partition.get(mid)}, "
                                  f"allowed {sorted(allowed)}")
    total = sum(t for name, (_, t) in TALLY.items() if name.startswith(f"{client}+"))
    assert not mismatches, describe(mismatches, total - len(mismatches), total)


@pytest.fixture(scope="module", autouse=True)
def _summary(request: pytest.FixtureRequest) -> Any:
    yield
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or not TALLY:
        return
    with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
        reporter.write_line("")
        for name, (ok, total) in TALLY.items():
            if name.startswith("documented"):
                reporter.write_line(f"adapter wire: {name}: {total}")
            else:
                what = ("Java's rule at the send's instant" if "keyless-own" in name
                        else "the Java producer's copy")
                reporter.write_line(f"adapter wire: {name}: {ok}/{total} agree with {what}")
        for client, bench in COST.items():
            reporter.write_line(
                f"adapter cost: {client}: in the send call, median round: default router "
                f"{bench['default_ns_per_msg']:.0f} ns/msg, adapter {bench['javarouter_ns_per_msg']:.0f} ns/msg "
                f"(ratio {bench['ratio']:.2f}), adapter without batching {bench['javarouter_unbatched_ns_per_msg']:.0f}"
                f" ns/msg (ratio {bench['ratio_unbatched']:.2f}); {bench['messages']} messages each, rotating rounds")


@pytest.mark.parametrize("client", CLIENTS)
def test_adapted_client_lands_where_java_does(client: str, java_side: tuple[Plans, dict[str, list[Sent]]],
                                              tmp_path_factory: pytest.TempPathFactory) -> None:
    plans, java = java_side
    workdir: Path = tmp_path_factory.mktemp(f"adapter-{client}")
    plan, specs = adapter_plan(client, plans, java)
    plan_path = workdir / f"{client}-plan.json"
    plan_path.write_text(json.dumps(plan), encoding="utf-8")
    out, records = run_sender([sender(client), str(plan_path)], {"topics": plans.topics}, workdir, client)
    # The cost run's messages are not part of the comparison.
    bench_prefix = b"bench-".hex()
    records = [r for r in records if not (r["event"] == "message" and r["payload_hex"].startswith(bench_prefix))]
    payloads = {(run, mid): mid.encode() for run, spec in specs.items() for mid in spec["sent_ids"]}
    sent = join(out, records, payloads)
    starts = {line["run"]: line["start"] for line in out if line["event"] == "acked"}
    for run, spec in specs.items():
        if spec["replay"]:
            assert starts[run] == java_keyless_replay(spec, java[spec["java_run"]])[0] or spec["n"] == 1, run
        else:
            assert 0 <= starts[run] < spec["n"], (run, starts[run])
    COST.update({client: line for line in out if line["event"] == "bench"})
    check(client, specs, sent, starts, java)


def readme_block(fence: str) -> str:
    readme = Path(os.environ.get("TESTKIT_README") or TESTKIT.parent / "README.md")
    text = readme.read_text(encoding="utf-8")
    section = text[text.index("## Make every client route like Java"):]
    marker = f"```{fence}\n"
    if marker not in section:
        pytest.skip(f"README.md has no {marker.strip()} block in its adapter section yet")
    start = section.index(marker) + len(marker)
    return section[start:section.index("\n```", start)] + "\n"


def build_readme_go(source: str, workdir: Path) -> list[str]:
    """The block as a program of its own module, built offline against
    clients/go (the module cache holds what build-go-rs.sh fetched)."""
    repo = TESTKIT.parent
    prefix = TESTKIT / ".build" / "prefix"
    if not (prefix / "lib" / "pkgconfig").exists():
        _missing("TESTKIT_GO_ADAPTER_SENDER", "the C library prefix (testkit/adapters/build-go-rs.sh)")
    module = workdir / "go-example"
    module.mkdir()
    (module / "main.go").write_text(source, encoding="utf-8")
    (module / "go.mod").write_text(
        "module readme-example\n\ngo 1.24.0\n\n"
        "require (\n\tgithub.com/apache/pulsar-client-go v0.19.0\n\tpulsar-routing/clients/go v0.0.0\n"
        "\tpulsar-routing/go v0.0.0\n)\n\n"
        f"replace pulsar-routing/clients/go => {repo / 'clients' / 'go'}\n\n"
        f"replace pulsar-routing/go => {repo / 'go'}\n", encoding="utf-8")
    (module / "go.sum").write_bytes((repo / "clients" / "go" / "go.sum").read_bytes())
    go = os.environ.get("GO") or ("/usr/local/go/bin/go" if Path("/usr/local/go/bin/go").exists() else "go")
    env = {**os.environ, "PKG_CONFIG_PATH": str(prefix / "lib" / "pkgconfig"), "CGO_ENABLED": "1",
           "CGO_LDFLAGS": f"-Wl,-rpath,{prefix / 'lib'}", "GOFLAGS": "-mod=mod -buildvcs=false",
           "GOPROXY": "off", "GOTOOLCHAIN": "local", "GOTELEMETRY": "off"}
    subprocess.run([go, "build", "-o", str(module / "example"), "."], cwd=module, env=env, check=True,
                   timeout=300)
    return [str(module / "example")]


def build_readme_rs(source: str, workdir: Path) -> list[str]:
    """The block as a crate of its own, built offline with the adapter
    crate's lock and target directory (so only the block compiles)."""
    crate_dir = TESTKIT.parent / "clients" / "pulsar-rs"
    if not (crate_dir / "target" / "release").exists():
        _missing("TESTKIT_RS_ADAPTER_SENDER", "the pulsar-rs adapter build (testkit/adapters/build-go-rs.sh)")
    crate = workdir / "rs-example"
    (crate / "src").mkdir(parents=True)
    (crate / "src" / "main.rs").write_text(source, encoding="utf-8")
    manifest = (crate_dir / "Cargo.toml").read_text(encoding="utf-8")
    # The same versions and features as the adapter's own dependencies.
    tokio = next(line for line in manifest.splitlines() if line.startswith("tokio = "))
    pulsar = next(line for line in manifest.splitlines() if line.startswith("pulsar = "))
    (crate / "Cargo.toml").write_text(
        "[package]\nname = \"readme-example\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n"
        "[workspace]\n\n[dependencies]\n"
        f"pulsar-routing-pulsar-rs = {{ path = \"{crate_dir}\" }}\n{pulsar}\n{tokio}\n", encoding="utf-8")
    (crate / "Cargo.lock").write_bytes((crate_dir / "Cargo.lock").read_bytes())
    env = {**os.environ, "CARGO_TARGET_DIR": str(crate_dir / "target")}
    subprocess.run(["cargo", "build", "--quiet", "--offline", "--release", "--bin", "readme-example"], cwd=crate,
                   env=env, check=True, timeout=600)
    return [str(crate_dir / "target" / "release" / "readme-example")]


@pytest.mark.parametrize("language", ["go", "rs"])
def test_readme_example_routes_like_java(language: str, tmp_path: Path) -> None:
    """The README's Go and Rust examples, run against the test broker: the
    key lands on partition 5 of 12, where the Java client sends it."""
    from pulsar_testkit.harness import BrokerProcess, messages_by_payload

    if language == "go":
        command = build_readme_go(readme_block("go pulsar-client-go"), tmp_path)
    else:
        command = build_readme_rs(readme_block("rust,ignore pulsar-rs"), tmp_path)
    with BrokerProcess({"topics": {"orders": {"partitions": 12}}}, tmp_path / "broker") as broker:
        env = {**os.environ, "PULSAR_SERVICE_URL": broker.url}
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    got = messages_by_payload(broker.records())[b"order 17"]
    assert [r["partition"] for r in got] == [partition_for_key("customer-000042", 12)] == [5]
