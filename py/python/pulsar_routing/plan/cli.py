"""The ``plan`` command line: ``python -m pulsar_routing plan ...`` or ``pulsar-routing-plan ...``.

One subcommand per analysis (``skew``, ``partitions``, ``drift``,
``divergence``, ``clients``, ``bundles``, ``autosplit``, ``key-shared``,
``queue``) plus ``demo``, which runs them all on built-in data. Tables by
default, ``--json`` for machines, ``--plot FILE.png`` for a picture,
``--html FILE.html`` for a self-contained report. Bad input prints one
``error:`` line and exits with 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Callable, NoReturn

from .. import PulsarRoutingError
from .clients import DEFAULT_CLIENT_SETUPS
from .inputs import FORMATS, KeySample, PlanInputError, key_sample
from .results import Result
from .skew import SCHEMES

if TYPE_CHECKING:
    from .distributed import Files

SELECTOR_CHOICES = ("all", "consistent_hashing", "auto_split", "exclusive")
DEMO_SAMPLES = ("orders", "users")
SPLIT_ALGORITHMS = (
    "range_equally_divide",
    "topic_count_equally_divide",
    "specified_positions_divide",
    "specified_positions_divide_force",
)


def _count(text: str) -> int:
    """A partition, bundle or consumer count: a Java int of at least 1."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= n <= 2**31 - 1:
        raise argparse.ArgumentTypeError(f"{n} is not in 1..2147483647")
    return n


def _non_negative(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not x >= 0 or x == float("inf"):
        raise argparse.ArgumentTypeError(f"{text} is not a finite number >= 0")
    return x


def _positive(text: str) -> float:
    x = _non_negative(text)
    if x == 0:
        raise argparse.ArgumentTypeError("must be more than 0")
    return x


def _key_args(p: argparse.ArgumentParser, *, required: bool = True) -> None:
    g = p.add_argument_group("keys" if required else "keys (optional)")
    g.add_argument("keys", nargs="*", metavar="KEY", help="keys given on the command line")
    g.add_argument("-f", "--file", nargs="+", metavar="PATH",
                   help="key files, read as one: text (one key per line), CSV or Parquet; paths or glob patterns")
    g.add_argument("--format", choices=FORMATS, default="auto", help="the file's format (default: by extension)")
    g.add_argument("--key-column", metavar="NAME", help="CSV/Parquet: the key column (default: 'key' or the only one)")
    g.add_argument("--weight-column", metavar="NAME", help="CSV/Parquet: a message-count column")
    g.add_argument("--demo-data", choices=DEMO_SAMPLES, help="use a built-in demo sample")
    d = p.add_argument_group("distributed (with --file; needs pulsar-routing[dask])")
    d.add_argument("--dask", metavar="ADDRESS",
                   help="read and reduce the files on a Dask cluster: a scheduler address (tcp://host:8786), "
                   "or 'local' for a local cluster")
    d.add_argument("--dask-workers", type=_count, metavar="N",
                   help="--dask local: worker processes (default: one per core)")
    p.set_defaults(keys_required=required)


def _sample(args: argparse.Namespace) -> KeySample | None:
    sources = sum(bool(x) for x in (args.keys, args.file, args.demo_data))
    if sources > 1:
        raise PlanInputError("give keys, --file or --demo-data, not several")
    if args.key_column or args.weight_column:
        raise PlanInputError("--key-column and --weight-column go with --file")
    if args.demo_data:
        from .demo import demo_orders, demo_user_suffixes

        return demo_orders() if args.demo_data == "orders" else demo_user_suffixes()
    if args.keys:
        return key_sample(list(args.keys), source="command-line keys")
    if args.keys_required:
        raise PlanInputError("no keys: give keys, --file PATH or --demo-data orders")
    return None


class _Progress:
    """A rich progress bar on stderr, shown once a file passes a million rows.

    Parquet files give their row count up front, so the bar fills; text and
    CSV files do not, so it pulses, with the rows read so far and the rate.
    """

    SHOW_FROM = 1_000_000

    def __init__(self, name: str, total_rows: int | None) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

        self._bar = Progress(
            TextColumn("reading {task.description}"),
            BarColumn(),
            TaskProgressColumn(),
            TextColumn("{task.completed:,.0f} rows"),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=False,
        )
        self._task = self._bar.add_task(name, total=total_rows)
        self._started = False

    def __call__(self, rows: int) -> None:
        if not self._started and rows >= self.SHOW_FROM:
            self._bar.start()
            self._started = True
        self._bar.update(self._task, completed=rows)

    def done(self) -> None:
        if self._started:
            self._bar.stop()

    @classmethod
    def for_files(cls, files: Files, fmt: str) -> _Progress | None:
        """A bar for ``--file`` when stderr is a terminal; None otherwise."""
        if not sys.stderr.isatty():
            return None
        from .inputs import detect_format

        total: int | None = 0
        for path in files.paths:
            if (detect_format(path) if fmt == "auto" else fmt) != "parquet":
                total = None
                break
            try:
                import pyarrow.parquet as pq

                total = (total or 0) + int(pq.ParquetFile(path).metadata.num_rows)
            except Exception:  # noqa: BLE001 - the reader reports a bad file properly
                total = None
                break
        return cls(files.source, total)


def _streamed(args: argparse.Namespace, run: Callable[..., Result], *positional: Any, **options: Any) -> Result | None:
    """Runs a ``stream_*`` function on the ``--file`` files read once, in batches; None without ``--file``.

    Exact while the distinct keys fit in ``--max-distinct``; past that the
    analysis goes on with sketches or says it cannot, and the report says
    which counting it used. With ``--dask``, the workers of a Dask cluster
    read and reduce the files (:mod:`.distributed`), and ``args.engine``
    says where it ran.
    """
    if not args.file:
        if args.max_distinct is not None:
            raise PlanInputError("--max-distinct streams a --file (text, CSV or Parquet)")
        if args.dask or args.dask_workers:
            raise PlanInputError("--dask reads --file on a cluster: give --file")
        return None
    from .distributed import Files, dask_client
    from .sketch import MAX_DISTINCT

    sources = sum(bool(x) for x in (getattr(args, "keys", None), args.file, args.demo_data))
    if sources > 1:
        raise PlanInputError("give keys, --file or --demo-data, not several")
    if args.dask_workers and not args.dask:
        raise PlanInputError("--dask-workers goes with --dask local")
    files = Files(args.file, format=args.format, key_column=args.key_column, weight_column=args.weight_column)
    limit = MAX_DISTINCT if args.max_distinct is None else args.max_distinct
    if args.dask:
        with dask_client(args.dask, workers=args.dask_workers) as client:
            result = run(
                files.on(client, "local cluster" if args.dask == "local" else args.dask),
                *positional, source=files.source, max_distinct=limit, **options,
            )
        args.engine = files.run
        return result
    progress = _Progress.for_files(files, args.format)
    files.progress = progress
    try:
        return run(files, *positional, source=files.source, max_distinct=limit, **options)
    finally:
        if progress is not None:
            progress.done()


def _admin_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("pulsar-admin outputs (JSON)")
    g.add_argument("--admin-bundles", metavar="FILE", help="the layout: pulsar-admin namespaces bundles TENANT/NS")
    g.add_argument("--admin-stats", nargs="+", metavar="FILE",
                   help="traffic and sessions: broker-stats topics (one file per broker), topics partitioned-stats "
                   "--per-partition, broker-stats load-report, or TOPIC=FILE for topics stats")
    g.add_argument("--namespace", metavar="TENANT/NS", help="the namespace, when the stats cover several")


def _max_distinct_arg(p: argparse.ArgumentParser, past: str) -> None:
    p.add_argument("--max-distinct", type=int, metavar="K",
                   help=f"--file: count exactly up to K distinct keys (default: 3,000,000), then {past}; "
                   "the report says which")


def _need(sample: KeySample | None) -> KeySample:
    assert sample is not None
    if sample.total_weight <= 0:
        raise PlanInputError(f"{sample.source}: no keys")
    return sample


# ---------------------------------------------------------------- commands


def _demo(args: argparse.Namespace) -> Result:
    from .demo import run_demo

    return run_demo(key_shared=False if args.no_key_shared else None, consumers=args.consumers)


def _skew(args: argparse.Namespace) -> Result:
    from .sketch import stream_skew
    from .skew import analyze_skew

    # A file is streamed once: exact counting while its distinct keys fit
    # (up to --max-distinct), DataSketches sketches past that, so memory
    # stays bounded however long the file is.
    streamed = _streamed(args, stream_skew, args.partitions, args.scheme, top=args.top)
    if streamed is not None:
        return streamed
    return analyze_skew(_need(_sample(args)), args.partitions, args.scheme, top=args.top)


def _partitions(args: argparse.Namespace) -> Result:
    from .partitions import recommend_partitions
    from .stream import stream_partitions

    options: dict[str, Any] = dict(
        peak_read=args.peak_read,
        per_partition_read=args.per_partition_read,
        headroom=args.headroom,
        scheme=args.scheme,
        consumers=args.consumers,
    )
    streamed = _streamed(args, stream_partitions, args.peak_write, args.per_partition_write, **options)
    if streamed is not None:
        return streamed
    sample = _sample(args)
    return recommend_partitions(
        args.peak_write,
        args.per_partition_write,
        keys=_need(sample) if sample is not None else None,
        **options,
    )


def _drift(args: argparse.Namespace) -> Result:
    from .drift import drift
    from .stream import stream_drift

    streamed = _streamed(
        args, stream_drift, args.from_partitions, args.to_partitions, args.scheme, list_moved=args.list_moved
    )
    if streamed is not None:
        return streamed
    return drift(
        _need(_sample(args)),
        args.from_partitions,
        args.to_partitions,
        args.scheme,
        list_moved=args.list_moved,
    )


def _divergence(args: argparse.Namespace) -> Result:
    from .drift import divergence
    from .stream import stream_divergence

    a, b = args.schemes
    streamed = _streamed(args, stream_divergence, args.partitions, a, b)
    if streamed is not None:
        return streamed
    return divergence(_need(_sample(args)), args.partitions, a, b)


def _clients(args: argparse.Namespace) -> Result:
    from .clients import client_divergence
    from .stream import stream_client_divergence

    streamed = _streamed(args, stream_client_divergence, args.partitions, args.setups)
    if streamed is not None:
        return streamed
    return client_divergence(_need(_sample(args)), args.partitions, args.setups)


def _bundles(args: argparse.Namespace) -> Result:
    from .bundles import bundle_spread, read_topics, topic_set

    if args.file and args.topics:
        raise PlanInputError("give topics or --file, not both")
    admin_notes: list[str] = []
    if args.admin_stats:
        from .admin import admin_topic_set, layout_check, read_admin_stats

        if args.file or args.topics or args.demo_data:
            raise PlanInputError("give --admin-stats, topics, --file or --demo-data, not several")
        stats = read_admin_stats(args.admin_stats).for_namespace(args.namespace)
        topics = admin_topic_set(stats, rules=args.rules)
    elif args.file:
        topics = read_topics(
            args.file,
            format=args.format,
            topic_column=args.topic_column,
            partitions_column=args.partitions_column,
            weight_column=args.weight_column,
            partitions=args.partitions,
            rules=args.rules,
        )
    elif args.topics:
        if args.topic_column or args.partitions_column or args.weight_column:
            raise PlanInputError("--topic-column, --partitions-column and --weight-column go with --file")
        topics = topic_set(args.topics, partitions=args.partitions, rules=args.rules)
    elif args.demo_data:
        from .demo import demo_topics

        topics = demo_topics()
    else:
        raise PlanInputError("no topics: give topics, --file PATH or --demo-data")
    layout: Any = args.boundaries if args.boundaries else args.bundles
    if args.admin_bundles:
        from .admin import read_admin_bundles

        if args.boundaries:
            raise PlanInputError("give --admin-bundles or --boundaries, not both")
        layout = read_admin_bundles(args.admin_bundles)
    if args.admin_stats:
        from .bundles import layout_of

        admin_notes = layout_check(stats, layout_of(layout))
    split: Any = False
    if args.split is not None:
        split = True if args.split == "" else args.split
    report = bundle_spread(
        topics,
        layout,
        max_per_bundle=args.max_per_bundle,
        split=split,
        algorithm=args.algorithm,
        positions=args.positions,
        list_moved=args.list_moved,
    )
    if admin_notes:
        import dataclasses

        report = dataclasses.replace(report, notes=[*report.notes, *admin_notes])
    return report


def _autosplit(args: argparse.Namespace) -> Result:
    from .split_forecast import BROKER_NAMES, SplitSettings, autosplit, demo_namespace

    # Every setting is a flag named as in broker.conf.
    settings = SplitSettings(
        load_manager=args.load_manager, **{field: getattr(args, name) for field, name in BROKER_NAMES.items()}
    )
    layout: Any = args.bundles
    if args.admin_bundles:
        from .admin import read_admin_bundles

        layout = read_admin_bundles(args.admin_bundles)
    if args.admin_stats and args.demo_data:
        raise PlanInputError("give --admin-stats or --demo-data, not both")
    if args.admin_stats:
        from .admin import read_admin_stats

        topics: Any = read_admin_stats(args.admin_stats)
    elif args.demo_data:
        topics = demo_namespace()
    else:
        raise PlanInputError("no figures: give --admin-stats FILE... or --demo-data")
    return autosplit(topics, layout, namespace=args.namespace, settings=settings, list_moved=args.list_moved)


def _key_shared(args: argparse.Namespace) -> Result:
    from .key_shared import SELECTORS, analyze_key_shared

    consumers: int | list[str] = list(args.consumer_names) if args.consumer_names else args.consumers
    selectors = SELECTORS if args.selector == "all" else (args.selector,)
    from .stream import stream_key_shared

    streamed = _streamed(
        args, stream_key_shared, consumers, selectors, points=args.points, join=not args.no_join, leave=args.leave
    )
    if streamed is not None:
        return streamed
    return analyze_key_shared(
        _need(_sample(args)),
        consumers,
        selectors,
        points=args.points,
        join=not args.no_join,
        leave=args.leave,
    )


def _queue(args: argparse.Namespace) -> Result:
    from .producer import producer_queue

    return producer_queue(
        args.peak,
        args.window,
        args.message_bytes,
        partitions=args.partitions,
        max_mean=args.max_mean,
    )


# ---------------------------------------------------------------- parser


def add_plan_command(commands: Any, *, name: str = "plan") -> argparse.ArgumentParser:
    """Adds ``plan`` and its subcommands to an argparse subparsers object."""
    plan = commands.add_parser(
        name,
        help="capacity planning: key skew, partition count, drift, bundles, Key_Shared balance",
        description="Capacity planning from a sample of real keys, on the exact routing of the core.",
    )
    fill_plan_parser(plan)
    return plan  # type: ignore[no-any-return]


class _OneLineErrors(argparse.ArgumentParser):
    """Bad arguments: one error line (no usage block), exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


DEMO_HELP = "run every analysis on built-in, deterministic demo data"


def _html_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--html", metavar="FILE.html",
                   help="also write a self-contained HTML report (tables and the picture inline; no network)")


def fill_demo_parser(demo: argparse.ArgumentParser, *, outputs: bool = False) -> None:
    """The ``demo`` options; with ``outputs``, also ``--json`` and ``--plot`` (for a parser made elsewhere)."""
    demo.set_defaults(run_plan=_demo, plot=None, html=None)
    if outputs:
        demo.add_argument("--json", action="store_true", help="print JSON instead of tables")
        demo.add_argument("--plot", metavar="FILE.png", help="also draw a picture (needs matplotlib)")
        _html_arg(demo)
    demo.add_argument("--consumers", type=_count, default=7, help="Key_Shared consumers (default: %(default)s)")
    demo.add_argument("--no-key-shared", action="store_true", help="skip the Key_Shared analysis")


def add_demo_command(commands: Any, *, name: str = "demo") -> argparse.ArgumentParser:
    """Adds the planner's ``demo`` (every analysis on demo data) as a top-level subcommand."""
    demo: argparse.ArgumentParser = commands.add_parser(
        name, help=DEMO_HELP + " (the same as plan demo)", description=DEMO_HELP[0].upper() + DEMO_HELP[1:] + "."
    )
    fill_demo_parser(demo, outputs=True)
    demo.set_defaults(run=run_plan)
    return demo


def fill_plan_parser(plan: argparse.ArgumentParser) -> None:
    sub = plan.add_subparsers(dest="analysis", required=True, metavar="ANALYSIS", parser_class=_OneLineErrors)

    def command(
        name: str, run: Callable[[argparse.Namespace], Result], help: str, *, picture: bool = True
    ) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help[0].upper() + help[1:] + ".")
        p.set_defaults(run_plan=run, plot=None, html=None)
        p.add_argument("--json", action="store_true", help="print JSON instead of tables")
        _html_arg(p)
        if picture:
            p.add_argument("--plot", metavar="FILE.png", help="also draw a picture (needs matplotlib)")
        return p

    fill_demo_parser(command("demo", _demo, DEMO_HELP))

    p = command("skew", _skew, "per-partition load, max/mean, CV, hot keys and a verdict")
    _key_args(p)
    p.add_argument("-n", "--partitions", nargs="+", type=_count, default=[12, 16], metavar="N",
                   help="partition counts (default: 12 16)")
    p.add_argument("--scheme", nargs="+", choices=SCHEMES, default=["java_string"],
                   help="hashing schemes (default: java_string, Java's default)")
    p.add_argument("--top", type=int, default=5, help="hot keys shown (default: %(default)s)")
    p.add_argument("--max-distinct", type=int, metavar="K",
                   help="--file: count exactly up to K distinct keys (default: 3,000,000), then with "
                   "DataSketches sketches (hot keys, HyperLogLog); the report says which")

    p = command("partitions", _partitions, "the partition count for a peak load, adjusted for measured skew")
    p.add_argument("--peak-write", type=_non_negative, required=True, metavar="RATE", help="peak write rate")
    p.add_argument("--per-partition-write", type=_positive, required=True, metavar="RATE",
                   help="write rate one partition sustains")
    p.add_argument("--peak-read", type=_non_negative, metavar="RATE", help="peak read rate (all subscriptions)")
    p.add_argument("--per-partition-read", type=_positive, metavar="RATE", help="read rate one partition sustains")
    p.add_argument("--headroom", type=_positive, default=1.3, help="headroom factor (default: %(default)s)")
    p.add_argument("--consumers", type=int, metavar="C", help="consumers of an Exclusive/Failover subscription")
    p.add_argument("--scheme", choices=SCHEMES, default="java_string", help="hashing scheme (default: %(default)s)")
    _key_args(p, required=False)
    _max_distinct_arg(p, "exact loads per count and a heavy-hitter summary for the hottest key")

    p = command("drift", _drift, "the keys and traffic that change partition from N to M partitions")
    _key_args(p)
    p.add_argument("--from", dest="from_partitions", type=_count, required=True, metavar="N")
    p.add_argument("--to", dest="to_partitions", type=_count, required=True, metavar="M")
    p.add_argument("--scheme", choices=SCHEMES, default="java_string", help="hashing scheme (default: %(default)s)")
    p.add_argument("--list-moved", type=int, metavar="K",
                   help="list the K heaviest moved keys (0: all; exact counting only)")
    _max_distinct_arg(p, "key shares from a uniform sample of the distinct keys (traffic stays exact)")

    p = command("divergence", _divergence, "the share of keys two hashing schemes route differently", picture=False)
    _key_args(p)
    p.add_argument("-n", "--partitions", nargs="+", type=_count, default=[12, 16], metavar="N")
    p.add_argument("--schemes", nargs=2, default=list(SCHEMES), metavar="SCHEME",
                   help="two Java schemes or client setups (go, cpp:java_string, kafka, ...; default: %(default)s)")
    _max_distinct_arg(p, "key shares from a uniform sample of the distinct keys (traffic stays exact)")

    p = command("clients", _clients, "the share of keys every pair of client setups routes differently",
                picture=False)
    _key_args(p)
    p.add_argument("-n", "--partitions", nargs="+", type=_count, default=[12, 16], metavar="N")
    p.add_argument("--setups", nargs="+", default=list(DEFAULT_CLIENT_SETUPS), metavar="SETUP",
                   help="client setups: PROFILE[:OPTION], CLIENT+java_router[:SCHEME] (a client with this "
                        "project's adapter) or kafka[:PARTITIONER] (default: %(default)s)")
    _max_distinct_arg(p, "key shares from a uniform sample of the distinct keys (traffic stays exact)")

    p = command("bundles", _bundles, "topic-partitions over namespace bundles, bundle count and split impact")
    p.add_argument("topics", nargs="*", metavar="TOPIC", help="topic names")
    p.add_argument("-f", "--file", metavar="PATH", help="a topic file: text (one per line), CSV or Parquet")
    p.add_argument("--format", choices=FORMATS, default="auto")
    p.add_argument("--topic-column", metavar="NAME", help="CSV/Parquet: the topic column (default: 'topic')")
    p.add_argument("--partitions-column", metavar="NAME", help="CSV/Parquet: partitions per topic (0: none)")
    p.add_argument("--weight-column", metavar="NAME", help="CSV/Parquet: traffic per topic")
    p.add_argument("--demo-data", action="store_true", help="use the built-in demo topics")
    p.add_argument("-p", "--partitions", type=int, metavar="N", help="partitions of every topic (default: none)")
    p.add_argument("-k", "--bundles", type=_count, default=4, metavar="K", help="bundles (default: %(default)s)")
    p.add_argument("--boundaries", nargs="+", metavar="HEX", help="an explicit layout (overrides -k)")
    p.add_argument("--max-per-bundle", type=_count, metavar="T", help="find the bundle count for at most T per bundle")
    p.add_argument("--split", nargs="?", const="", metavar="BUNDLE",
                   help="show what splitting BUNDLE (default: the fullest) moves")
    p.add_argument("--algorithm", choices=SPLIT_ALGORITHMS, default="range_equally_divide")
    p.add_argument("--positions", nargs="+", type=lambda t: int(t, 0), metavar="HASH",
                   help="split positions for the specified_positions algorithms")
    p.add_argument("--list-moved", type=int, default=20, metavar="K", help="moved topic-partitions listed (0: all)")
    p.add_argument(
        "--rules", choices=("4.2", "v4", "master"), default="4.2", help="topic-name rules"
    )
    _admin_args(p)

    p = command("autosplit", _autosplit,
                "the broker's automatic bundle splits, round after round, and the topics they move")
    _admin_args(p)
    p.add_argument("--demo-data", action="store_true", help="a built-in busy namespace (3,001 topics, one hot)")
    p.add_argument("-k", "--bundles", type=_count, default=4, metavar="K",
                   help="bundles now, in the default layout, without --admin-bundles (default: %(default)s)")
    p.add_argument("--load-manager", choices=("modular", "extensible"), default="modular",
                   help="the broker's load manager (default: %(default)s)")
    p.add_argument("--list-moved", type=int, default=20, metavar="K", help="moved topics listed (0: all)")
    g = p.add_argument_group("broker settings (broker.conf names; the broker's defaults)")
    for flag, default, kind in (
        ("loadBalancerNamespaceBundleMaxTopics", 1000, int),
        ("loadBalancerNamespaceBundleMaxSessions", 1000, int),
        ("loadBalancerNamespaceBundleMaxMsgRate", 30000, int),
        ("loadBalancerNamespaceBundleMaxBandwidthMbytes", 100, int),
        ("loadBalancerNamespaceMaximumBundles", 128, _count),
        ("flowOrQpsDifferenceThresholdPercentage", 10, int),
        ("loadBalancerMaxNumberOfBundlesToSplitPerCycle", 10, _count),
        ("loadBalancerNamespaceBundleSplitConditionHitCountThreshold", 3, int),
    ):
        g.add_argument(f"--{flag}", type=kind, default=default, metavar="N", help=f"default: {default}")
    g.add_argument("--defaultNamespaceBundleSplitAlgorithm", default="range_equally_divide",
                   choices=("range_equally_divide", "topic_count_equally_divide", "flow_or_qps_equally_divide"))

    p = command("key-shared", _key_shared, "traffic per consumer of a Key_Shared subscription, and rebalances")
    _key_args(p)
    p.add_argument("-c", "--consumers", type=_count, default=7, metavar="C", help="consumers (default: %(default)s)")
    p.add_argument("--consumer-names", nargs="+", metavar="NAME", help="consumer names (overrides -c)")
    p.add_argument("--selector", choices=SELECTOR_CHOICES, default="all", help="broker selector (default: all)")
    p.add_argument("--points", type=_count, default=100, help="consistent hashing points (default: %(default)s)")
    p.add_argument("--leave", metavar="NAME", help="the consumer that leaves (default: the last)")
    p.add_argument("--no-join", action="store_true", help="skip the join analysis")
    _max_distinct_arg(p, "traffic stays exact from per-slot sums; key shares from a uniform sample of the distinct keys")

    p = command("queue", _queue, "producer maxPendingMessages for a reconnect window, and its memory", picture=False)
    p.add_argument("--peak", type=_non_negative, required=True, metavar="MSG/S", help="peak messages per second")
    p.add_argument("--window", type=_non_negative, required=True, metavar="SECONDS", help="reconnect window")
    p.add_argument("--message-bytes", type=_non_negative, required=True, metavar="BYTES", help="average size")
    p.add_argument("--partitions", type=_count, metavar="N", help="partitions of the topic")
    p.add_argument("--max-mean", type=float, default=1.0, help="measured max/mean (default: %(default)s)")


def run_plan(args: argparse.Namespace) -> int:
    """Runs a parsed ``plan`` command: prints the result, draws the plot; 1 on bad input."""
    try:
        result = args.run_plan(args)
        if args.plot:
            from .plots import plot

            try:
                plot(result, args.plot)
            except TypeError as err:
                # A result without a picture (skew in sketch counting): one error line, no traceback.
                raise PlanInputError(f"--plot: {err}") from None
        if args.html:
            from .html import write_html

            write_html(result, args.html)
    except (PlanInputError, PulsarRoutingError, ValueError, OSError, ImportError, RuntimeError) as err:
        message = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        print(f"error: {message}", file=sys.stderr)
        return 1
    engine: Result | None = getattr(args, "engine", None)
    if args.json:
        data = result.to_dict()
        if engine is not None:
            data["engine"] = engine.to_dict()
        print(json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False))
    else:
        print(str(result) if engine is None else f"{result}\n\n{engine}")
    if args.plot:
        print(f"plot written to {args.plot}", file=sys.stderr)
    if args.html:
        print(f"HTML report written to {args.html}", file=sys.stderr)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``pulsar-routing-plan``: the ``plan`` subcommands on their own."""
    from .. import __version__

    parser = argparse.ArgumentParser(
        prog="pulsar-routing-plan",
        description="Capacity planning from a sample of real keys, on the exact routing of the core.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    fill_plan_parser(parser)
    args = parser.parse_args(argv)
    return run_plan(args)


if __name__ == "__main__":
    sys.exit(main())
