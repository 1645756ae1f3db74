"""The adapters' cost per message against each client's own default router,
in the same process, on the test broker: interleaved rounds of send_async
with batching (the client's hot path; the router runs inside the call),
one producer per router on one 12-partition topic. Prints the median time
per message of each and the ratio. A measurement, not a test.

    python testkit/adapters/bench_python_c.py [--rounds N] [--messages N]

The C half runs testkit/.build/c-bench (testkit/adapters/build-python-c.sh)
when it is built.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TESTKIT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TESTKIT))

import pulsar  # type: ignore[import-untyped]  # noqa: E402
from pulsar_testkit.harness import BrokerProcess  # noqa: E402

from pulsar_routing.clients import java_router  # noqa: E402


def python_bench(url: str, rounds: int, messages: int) -> dict[str, float]:
    client = pulsar.Client(url, logger=pulsar.FileLogger(pulsar.LoggerLevel.Warn, "/dev/null"))
    common = {"batching_enabled": True, "block_if_queue_full": True, "max_pending_messages": 200_000,
              "max_pending_messages_across_partitions": 200_000}
    default = client.create_producer("bench", **common)
    adapted = client.create_producer("bench", message_router=java_router(), **common)
    # Any Python router costs the client's callback (GIL, Message wrapper):
    # a router that does nothing shows how much of the cost is that.
    trivial = client.create_producer("bench", message_router=lambda message, n: 0, **common)
    keys = [f"customer-{i:06d}" for i in range(messages)]
    payload = b"x" * 64

    def ignore(result: object, msg_id: object) -> None:
        pass

    def one(producer: pulsar.Producer) -> float:
        start = time.perf_counter()
        for key in keys:
            producer.send_async(payload, ignore, partition_key=key)
        elapsed = time.perf_counter() - start
        producer.flush()
        return elapsed / messages

    order = [("default", default), ("java_router", adapted), ("trivial", trivial)]
    times: dict[str, list[float]] = {name: [] for name, _ in order}
    for _, producer in order:
        one(producer)  # warm-up
    for r in range(rounds):
        for name, producer in order[r % 3:] + order[: r % 3]:
            times[name].append(one(producer))
    client.close()
    return {name: statistics.median(t) for name, t in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--messages", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, \
            BrokerProcess({"topics": {"bench": {"partitions": 12}}}, Path(tmp)) as broker:
        t = python_bench(broker.url, args.rounds, args.messages)
        d, a, z = t["default"], t["java_router"], t["trivial"]
        print(f"python send_async: default {d * 1e6:.2f} us/msg, java_router {a * 1e6:.2f} us/msg, "
              f"ratio {a / d:.3f}; a do-nothing Python router {z * 1e6:.2f} us/msg, java_router/it {a / z:.3f}")
        c_bench = TESTKIT / ".build" / "c-bench"
        if c_bench.exists():
            done = subprocess.run([str(c_bench), broker.url, str(args.rounds), str(args.messages)],
                                  capture_output=True, text=True, check=True)
            print(done.stdout.strip())


if __name__ == "__main__":
    main()
