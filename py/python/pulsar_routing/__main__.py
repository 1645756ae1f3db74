"""Command line: ``pulsar-routing demo``, ``route``, ``bundle`` and ``plan``.

``demo`` runs the whole capacity plan on built-in demo data (the same as
``plan demo``); ``route`` prints sample keys with their partitions; each
job is a subcommand, so that more can join without changing how the
others are called.
"""

from __future__ import annotations

import argparse
import base64
import os
import sys
from collections.abc import Sequence

from . import (
    NamespaceBundles,
    TopicName,
    TopicNameError,
    __version__,
    partition_for_key,
    partition_for_key_bytes,
)

SCHEMES = ("java_string", "murmur3_32")
DEFAULT_KEYS = ("user-42", "order-1001", "", "Grüße", "日本語", "😀")
DEFAULT_PARTITIONS = (3, 12, 100)
DEFAULT_KEY_BYTES = b"hello"
DEFAULT_BUNDLES = (4, 16)


# The planner (numpy, rich, matplotlib on demand) is imported only for the
# commands that need it, so that `--version`, `route` and `bundle` start fast.
PLANNER_COMMANDS = ("demo", "plan")


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Keys left, numbers right, laid out by rich (the planner's tables)."""
    from .plan.results import table

    return table(header, rows, indent="")


def _route(args: argparse.Namespace) -> int:
    keys: list[str] = args.keys or list(DEFAULT_KEYS)
    counts: list[int] = args.partitions
    header = ["key"] + [f"{scheme} n={n}" for n in counts for scheme in SCHEMES]
    rows = [
        [repr(key)] + [str(partition_for_key(key, n, scheme)) for n in counts for scheme in SCHEMES]
        for key in keys
    ]
    print(f"pulsar_routing {__version__}: the partition of a message sent with key(k)")
    print("(the same under RoundRobinRouter and SinglePartitionRouter, as in Java)")
    print()
    print(_table(header, rows))
    print()

    data: bytes = args.key_bytes.encode() if args.key_bytes is not None else DEFAULT_KEY_BYTES
    text = base64.b64encode(data).decode()
    print(f"keyBytes({data!r}) hashes its Base64 text {text!r}:")
    print()
    byte_row = [repr(data)] + [
        str(partition_for_key_bytes(data, n, scheme)) for n in counts for scheme in SCHEMES
    ]
    print(_table(header, [byte_row]))
    return 0


def _bundle(args: argparse.Namespace) -> int:
    try:
        topics = [TopicName(name, rules=args.rules) for name in args.topics]
    except TopicNameError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    layouts = [NamespaceBundles(k) for k in args.bundles]
    header = ["topic", "crc32"] + [f"{k} bundles" for k in args.bundles]
    rows = [
        [str(topic), f"0x{topic.crc32:08x}"] + [str(layout.bundle_for_topic(topic)) for layout in layouts]
        for topic in topics
    ]
    print(f"pulsar_routing {__version__}: the namespace bundle of each topic")
    print(f"(CRC-32 of the canonical name, default layouts, {args.rules} topic-name rules)")
    print()
    print(_table(header, rows))
    return 0


def _count(text: str) -> int:
    """A partition or bundle count: a Java int of at least 1."""
    n = int(text)
    if not 1 <= n <= 2**31 - 1:
        raise argparse.ArgumentTypeError(f"{n} is not in 1..2147483647")
    return n


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    command = next((w for w in words if not w.startswith("-")), None)
    planner = command in PLANNER_COMMANDS
    parser = argparse.ArgumentParser(
        prog="python -m pulsar_routing",
        description="Apache Pulsar's routing, as the Java client and broker compute it.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    if planner:
        from .plan.cli import add_demo_command, add_plan_command, run_plan

        add_demo_command(commands)
    else:
        commands.add_parser("demo", help="run every planner analysis on built-in, deterministic demo data")
    demo = commands.add_parser(
        "route",
        help="print sample keys with their partitions under both hashing schemes",
        description="Print sample keys with their partitions under both hashing schemes.",
    )
    demo.add_argument("keys", nargs="*", metavar="KEY", help="keys to route (default: a sample)")
    demo.add_argument(
        "-n",
        "--partitions",
        nargs="+",
        type=_count,
        default=list(DEFAULT_PARTITIONS),
        metavar="N",
        help="partition counts (default: %(default)s)",
    )
    demo.add_argument(
        "--key-bytes",
        metavar="TEXT",
        help="the keyBytes example, as UTF-8 text (default: 'hello')",
    )
    demo.set_defaults(run=_route)
    bundle = commands.add_parser(
        "bundle",
        help="print the namespace bundle of topics in default bundle layouts",
        description="Print the namespace bundle of each topic in the default layout "
        "of a namespace created with N bundles.",
    )
    bundle.add_argument("topics", nargs="+", metavar="TOPIC", help="topic names")
    bundle.add_argument(
        "-k",
        "--bundles",
        nargs="+",
        type=_count,
        default=list(DEFAULT_BUNDLES),
        metavar="N",
        help="bundle counts (default: %(default)s)",
    )
    bundle.add_argument(
        "--rules",
        choices=("4.2", "v4", "master"),
        default="4.2",
        help="topic-name rules: the 4.2 release, an older 4.x line that accepts V1 names,"
        " or 5.0 development (default: %(default)s)",
    )
    bundle.set_defaults(run=_bundle)
    if planner:
        add_plan_command(commands).set_defaults(run=run_plan)
    else:
        commands.add_parser(
            "plan", help="capacity planning: key skew, partition count, drift, bundles, auto-splits, Key_Shared balance"
        )
    args = parser.parse_args(words)
    try:
        result: int = args.run(args)
    except BrokenPipeError:
        # The reader (`| head`) left early: not an error worth a traceback,
        # from `python -m` or the console script alike. Python would still
        # fail flushing stdout at exit, so point it at /dev/null first, as
        # the Python docs advise.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return result


if __name__ == "__main__":
    sys.exit(main())
