"""``python -m pulsar_testkit``: run the test broker until SIGTERM or SIGINT.

The first line on stdout is ``{"host": "127.0.0.1", "port": N}`` once the
broker listens, so a caller that asked for port 0 learns the port.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys

from .broker import HOST, Broker, Recorder, Scenario


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pulsar_testkit", description=__doc__)
    parser.add_argument("--scenario", help="JSON scenario file (default: no topics, all unpartitioned)")
    parser.add_argument("--record", required=True, help="JSON-lines file to write every event to")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: any free one)")
    args = parser.parse_args(argv)
    scenario = Scenario()
    if args.scenario:
        with open(args.scenario, encoding="utf-8") as f:
            scenario = Scenario.from_json(json.load(f))
    with open(args.record, "w", encoding="utf-8") as out:
        asyncio.run(_run(Broker(scenario, Recorder(out)), args.port))
    return 0


async def _run(broker: Broker, port: int) -> None:
    await broker.start(port)
    print(json.dumps({"host": HOST, "port": broker.port}), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await broker.stop()


if __name__ == "__main__":
    sys.exit(main())
