"""Sends a plan of messages through the Python client (pulsar-client) with
``pulsar_routing.clients.java_router``, so that the test broker can record
where each one went.

The plan is c_sender.c's (one tab-separated instruction a line: service,
run NAME TOPIC PARTITIONS SCHEME BATCHING START, key ID HEX, none ID
CLOCK_MS|-, pause MICROS); a key's bytes are decoded as UTF-8 with lone
surrogates let through, so that the client meets them as a user's ``str``
would bring them. Output, a JSON object a line: run, then per message sent
(clock bounds t0_ms/t1_ms) or refused (the exception), then acked with the
start the router used.

    python python_sender.py LOGFILE PLAN
"""

from __future__ import annotations

import json
import sys
import threading
import time
from typing import Any

import pulsar  # type: ignore[import-untyped]

from pulsar_routing.clients import java_router


class ReplayClock:
    """The router's clock: the instant the plan gives the next keyless message."""

    def __init__(self) -> None:
        self.now = 0

    def __call__(self) -> int:
        return self.now


def send_run(client: pulsar.Client, head: list[str], body: list[list[str]], out: list[str]) -> None:
    name, topic, partitions, scheme, batching, start = head[1], head[2], int(head[3]), head[4], head[5] == "1", int(head[6])
    replay = any(line[0] == "none" and line[2] != "-" for line in body)
    clock = ReplayClock() if replay else None
    router = java_router(scheme, batching=batching, start_index=None if start < 0 else start, clock=clock)
    producer = client.create_producer(
        topic,
        batching_enabled=batching,
        block_if_queue_full=True,
        max_pending_messages=100_000,
        max_pending_messages_across_partitions=100_000,
        message_router=router,
    )
    out.append(json.dumps({"event": "run", "run": name, "topic": topic, "partitions": partitions}))
    results: dict[str, Any] = {}
    done = threading.Event()
    pending = [0]
    lock = threading.Lock()
    sent: list[tuple[str, str, int, int]] = []

    def callback_for(mid: str) -> Any:
        def on_sent(result: Any, msg_id: Any) -> None:
            with lock:
                results[mid] = result
                pending[0] -= 1
                if pending[0] == 0:
                    done.set()

        return on_sent

    refused: list[dict[str, Any]] = []
    for line in body:
        if line[0] == "pause":
            time.sleep(int(line[1]) / 1e6)
            continue
        mid = line[1]
        key = bytes.fromhex(line[2]).decode("utf-8", "surrogatepass") if line[0] == "key" else None
        if clock is not None and line[0] == "none":
            clock.now = int(line[2])
        with lock:
            pending[0] += 1
        t0 = int(time.time() * 1000)
        try:
            producer.send_async(mid.encode(), callback_for(mid), partition_key=key)
        except Exception as e:  # noqa: BLE001 - what the client raises is the finding
            with lock:
                pending[0] -= 1
            refused.append({"event": "refused", "run": name, "id": mid, "error": type(e).__name__})
            continue
        t1 = int(time.time() * 1000)
        sent.append((mid, "key" if line[0] == "key" else "none", t0, t1))
    producer.flush()
    with lock:
        if pending[0] == 0:
            done.set()
    done.wait(60)
    acked = 0
    for mid, kind, t0, t1 in sent:
        if results.get(mid) == pulsar.Result.Ok:
            acked += 1
            out.append(json.dumps({"event": "sent", "run": name, "id": mid, "kind": kind, "t0_ms": t0, "t1_ms": t1}))
        else:
            refused.append({"event": "refused", "run": name, "id": mid, "error": str(results.get(mid))})
    out.extend(json.dumps(r) for r in refused)
    inner = router.router
    used = -1 if inner is None else getattr(inner, "start_partition_index", getattr(inner, "partition_index", -1))
    out.append(json.dumps({"event": "acked", "run": name, "count": acked, "start": used}))
    producer.close()


def main() -> None:
    log_path, plan_path = sys.argv[1], sys.argv[2]
    with open(plan_path, encoding="utf-8") as f:
        lines = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    service = next(line[1] for line in lines if line[0] == "service")
    # The client logs to stdout by default, where the JSON lines go.
    client = pulsar.Client(service, logger=pulsar.FileLogger(pulsar.LoggerLevel.Warn, log_path))
    out: list[str] = []
    head: list[str] | None = None
    body: list[list[str]] = []
    for line in lines:
        if line[0] == "run":
            if head is not None:
                send_run(client, head, body, out)
            head, body = line, []
        elif line[0] != "service":
            body.append(line)
    if head is not None:
        send_run(client, head, body, out)
    client.close()
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
