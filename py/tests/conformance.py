"""The conformance scenarios (testdata/conformance/README.md) through the Python API.

`python -m tests.conformance [FILE...]` from `py/` runs every scenario of
the files (the committed ones by default), prints one line per
disagreement and ends with `conformance python: N/M scenarios agree`;
py/tests/test_conformance.py runs each scenario as a pytest test.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pulsar_routing as pr

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "testdata" / "conformance"

Json = Any


class Disagreement(Exception):
    """A step whose outcome is not the scenario's."""


def committed_files() -> list[Path]:
    return sorted(SCENARIOS.glob("*.jsonl"))


def load(files: Iterable[Path]) -> list[tuple[str, dict[str, Json]]]:
    """Every scenario of the files, with `file:line` for messages."""
    scenarios = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                scenarios.append((f"{path.name}:{number}", json.loads(line)))
    return scenarios


# --- values -----------------------------------------------------------------


def data(value: Json) -> str | bytes | None:
    """A key or a byte string: text, {"hex": ...} or null."""
    if isinstance(value, dict):
        return bytes.fromhex(value["hex"])
    return value  # type: ignore[no-any-return]


def rules_of(a: dict[str, Any]) -> dict[str, Any]:
    """The scenario's topic-name rules, or none so that the binding's own
    default (what the other runners assume) is what runs."""
    return {"rules": a["rules"]} if "rules" in a else {}


def integer(value: Json) -> int:
    """An integer, written as a JSON number or (beyond 2^53) as a decimal string."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise Disagreement(f"not an integer: {value!r}")
    return int(value)


def opt_int(args: dict[str, Json], name: str) -> int | None:
    return None if args.get(name) is None else integer(args[name])


def ranges(value: dict[int, list[tuple[int, int]]]) -> Json:
    return {str(consumer): [list(r) for r in rs] for consumer, rs in value.items()}


def impact(value: pr.Impact) -> Json:
    return {"removed": ranges(value.removed), "added": ranges(value.added)}


def split(result: tuple[pr.NamespaceBundles, list[pr.BundleRange]]) -> Json:
    layout, new = result
    return {"boundaries": layout.boundaries(), "new_bundles": [str(b) for b in new]}


TOPIC_FIELDS = (
    "domain tenant cluster namespace_portion namespace local_name partition_index "
    "partitioned_topic_name lookup_name persistence_naming rest_path "
    "encoded_local_name crc32"
).split()
ACTION_FIELDS = (
    "kind logical_address physical_address authoritative use_proxy redirects attempt "
    "at_ms delay_ms partitions error_kind error reason"
).split()
READINESS_FIELDS = (
    "node reason is_ready state in_flight max_in_flight backoff_remaining_ms"
).split()


def fields(obj: object, names: Iterable[str]) -> Json:
    return {name: getattr(obj, name) for name in names}


def topic_name(t: pr.TopicName) -> Json:
    return {"str": str(t), **fields(t, TOPIC_FIELDS)}


# --- constructors and operations --------------------------------------------

Args = dict[str, Json]


def profile_options(a: Args) -> dict[str, Any]:
    return {
        "scheme": a.get("scheme"),
        "mode": a.get("mode"),
        "unsigned_char": a.get("unsigned_char", False),
        "boost_1_74_x86_64": a.get("boost_1_74_x86_64", False),
    }


def sender_gate(a: Args) -> pr.SenderGate:
    config = pr.SenderConfig(
        a.get("max_in_flight", 5),
        a.get("enable_idempotence", True),
        reconnect_backoff_ms=a.get("reconnect_backoff_ms", 50),
        reconnect_backoff_max_ms=a.get("reconnect_backoff_max_ms", 1000),
        metadata_max_age_ms=a.get("metadata_max_age_ms", 300000),
    )
    return pr.SenderGate([integer(n) for n in a["nodes"]], config)


def layout(a: Args) -> pr.NamespaceBundles:
    if "boundaries" in a:
        return pr.NamespaceBundles.from_boundaries([integer(b) for b in a["boundaries"]])
    return pr.NamespaceBundles(integer(a["num_bundles"]))


def custom_router(a: Args) -> pr.CustomRouter:
    answer = integer(a["returns"])
    return pr.CustomRouter(lambda key, n: answer)


NEW: dict[str, Callable[[Args], Any]] = {
    "RoundRobinRouter": lambda a: pr.RoundRobinRouter(
        a.get("scheme", "java_string"),
        start_partition_index=integer(a.get("start_partition_index", 0)),
        batching=a.get("batching", True),
        partition_switch_ms=integer(a.get("partition_switch_ms", 10)),
    ),
    "SinglePartitionRouter": lambda a: pr.SinglePartitionRouter(
        integer(a["partition_index"]), a.get("scheme", "java_string")
    ),
    "CustomRouter": custom_router,
    "ProfileRouter": lambda a: pr.ProfileRouter(
        a.get("profile", "java"),
        **profile_options(a),
        batching=a.get("batching"),
        start=integer(a.get("start", 0)),
        created_ns=integer(a.get("created_ns", 0)),
    ),
    "KafkaBuiltInPartitioner": lambda a: pr.KafkaBuiltInPartitioner(integer(a["sticky_batch_size"])),
    "KafkaJavaClientPartitioner": lambda a: pr.KafkaJavaClientPartitioner(
        integer(a.get("batch_size", 16384)), ignore_keys=a.get("ignore_keys", False)
    ),
    "LibrdkafkaProducer": lambda a: pr.LibrdkafkaProducer(
        a.get("partitioner", "consistent_random"), integer(a.get("sticky_linger_ms", 10))
    ),
    "TopicName": lambda a: pr.TopicName(a["name"], **rules_of(a)),
    "NamespaceBundles": layout,
    "AutoSplitSelector": lambda a: pr.AutoSplitSelector(integer(a.get("range_size", 65536))),
    "ConsistentHashingSelector": lambda a: pr.ConsistentHashingSelector(
        integer(a.get("points", 100)), integer(a.get("range_max", 65535))
    ),
    "ExclusiveSelector": lambda a: pr.ExclusiveSelector(legacy=a.get("legacy", False)),
    "TopicLookup": lambda a: pr.TopicLookup(
        a["service_address"],
        use_tls=a.get("use_tls", False),
        max_redirects=integer(a.get("max_redirects", 20)),
        profile=a.get("profile", "java"),
        operation_timeout_ms=integer(a.get("operation_timeout_ms", 30000)),
        lookup_timeout_ms=opt_int(a, "lookup_timeout_ms"),
        retry=a.get("retry", True),
        detect_redirect_loops=a.get("detect_redirect_loops", False),
        jitter_seed=integer(a.get("jitter_seed", 0)),
    ),
    "PartitionedMetadataLookup": lambda a: pr.PartitionedMetadataLookup(
        a["service_address"],
        operation_timeout_ms=integer(a.get("operation_timeout_ms", 30000)),
        metadata_auto_creation=a.get("metadata_auto_creation", True),
        use_fallback_for_non_pip344=a.get("use_fallback_for_non_pip344", False),
        jitter_seed=integer(a.get("jitter_seed", 0)),
    ),
    "LookupCoalescer": lambda a: pr.LookupCoalescer(integer(a.get("capacity", 1024))),
    "MetadataCoalescer": lambda a: pr.MetadataCoalescer(integer(a.get("capacity", 1024))),
    "LookupThrottle": lambda a: pr.LookupThrottle(
        integer(a.get("concurrent_lookup_requests", 5000)),
        integer(a.get("max_lookup_requests", 50000)),
    ),
    "SenderConfig": lambda a: pr.SenderConfig(
        integer(a.get("max_in_flight", 5)), a.get("enable_idempotence", True)
    ),
    "SenderGate": sender_gate,
    "KeyCounts": lambda a: pr.KeyCounts(),
    "PendingQueue": lambda a: pr.PendingQueue(
        integer(a.get("max_pending_messages", 0)), a.get("block_if_queue_full", False)
    ),
}

# What `expect` of a `new` step compares: the object's fields.
NEW_FIELDS: dict[str, Callable[[Any], Json]] = {"TopicName": topic_name}


def mode(name: str | None) -> pr.MessageRoutingMode | None:
    return None if name is None else getattr(pr.MessageRoutingMode, name)


def mode_name(m: pr.MessageRoutingMode) -> str:
    for name in ("RoundRobinPartition", "SinglePartition", "CustomPartition"):
        if m == getattr(pr.MessageRoutingMode, name):
            return name
    raise Disagreement(f"unknown routing mode {m!r}")


def bundles_split(b: pr.NamespaceBundles, a: Args) -> Json:
    options = {
        name: a[name]
        for name in ("positions", "topics", "topic_stats", "max_msg_rate", "max_bandwidth_mbytes", "threshold_percent")
        if name in a
    }
    return split(
        b.split(a["bundle"], a.get("algorithm", "range_equally_divide"), **rules_of(a), **options)
    )


def sticky_key(a: Args) -> Json:
    key = pr.sticky_key(
        ordering_key=data(a.get("ordering_key")),
        partition_key=data(a.get("partition_key")),
        partition_key_b64_encoded=a.get("partition_key_b64_encoded", False),
        producer_name=data(a.get("producer_name")),
        sequence_id=opt_int(a, "sequence_id"),
    )
    return {"hex": key.hex()}


def action(value: pr.LookupAction) -> Json:
    return fields(value, ACTION_FIELDS)


def readiness(value: pr.Readiness) -> Json:
    return fields(value, READINESS_FIELDS)


def lookup_response(lookup: pr.TopicLookup, a: Args) -> Json:
    return action(
        lookup.on_response(
            a["kind"],
            integer(a["now_ms"]),
            broker_service_url=a.get("broker_service_url"),
            broker_service_url_tls=a.get("broker_service_url_tls"),
            authoritative=a.get("authoritative", False),
            proxy_through_service_url=a.get("proxy_through_service_url", False),
            error=a.get("error"),
            message=a.get("message"),
        )
    )


def metadata_response(lookup: pr.PartitionedMetadataLookup, a: Args) -> Json:
    return action(
        lookup.on_response(
            integer(a["now_ms"]),
            partitions=integer(a.get("partitions", 0)),
            error=a.get("error"),
            message=a.get("message"),
            failed=a.get("failed", False),
        )
    )


def metadata_key(a: Args) -> tuple[str, bool, bool]:
    return (a["topic"], a.get("metadata_auto_creation", True), a.get("use_fallback_for_non_pip344", False))


def selector_ops(cls: str) -> dict[str, Callable[[Any, Args], Json]]:
    return {
        f"{cls}.add": lambda s, a: impact(
            s.add(
                integer(a["consumer_id"]),
                a["name"],
                None if a.get("ranges") is None else [tuple(integer(x) for x in r) for r in a["ranges"]],
            )
        ),
        f"{cls}.remove": lambda s, a: impact(s.remove(integer(a["consumer_id"]))),
        f"{cls}.select": lambda s, a: s.select(integer(a["slot"])),
        f"{cls}.select_key": lambda s, a: s.select_key(data(a["key"])),
        f"{cls}.assignments": lambda s, a: [list(x) for x in s.assignments()],
    }


FUNCTIONS: dict[str, Callable[[Args], Json]] = {
    # Hashes.
    "murmur3_32": lambda a: pr.murmur3_32(data(a["data"])),  # type: ignore[arg-type]
    "murmur3_32_raw": lambda a: pr.murmur3_32_raw(data(a["data"])),  # type: ignore[arg-type]
    "crc32": lambda a: pr.crc32(data(a["data"])),  # type: ignore[arg-type]
    "java_string_hash": lambda a: pr.java_string_hash(a["s"]),
    "java_string_hashcode": lambda a: pr.java_string_hashcode(a["s"]),
    "java_string_hash_bytes": lambda a: pr.java_string_hash_bytes(as_bytes(a["data"])),
    "sign_safe_mod": lambda a: pr.sign_safe_mod(integer(a["dividend"]), integer(a["divisor"])),
    "kafka_murmur2": lambda a: pr.kafka_murmur2(data(a["data"])),  # type: ignore[arg-type]
    "kafka_to_positive": lambda a: pr.kafka_to_positive(integer(a["hash"])),
    "kafka_fnv1a": lambda a: pr.kafka_fnv1a(data(a["data"])),  # type: ignore[arg-type]
    # Keys, partitions, routers.
    "partition_for_key": lambda a: pr.partition_for_key(
        a["key"], integer(a["num_partitions"]), a.get("scheme", "java_string")
    ),
    "partition_for_key_bytes": lambda a: pr.partition_for_key_bytes(
        as_bytes(a["key"]), integer(a["num_partitions"]), a.get("scheme", "java_string")
    ),
    "partitions_for_keys": lambda a: pr.partitions_for_keys(
        list(a["keys"]), integer(a["num_partitions"]), a.get("scheme", "java_string")
    ).tolist(),
    "check_partition": lambda a: pr.check_partition(integer(a["partition"]), integer(a["num_partitions"])),
    "resolve_routing_mode": lambda a: mode_name(
        pr.resolve_routing_mode(mode(a["mode"]), a["custom_router_set"])
    ),
    "partition_switch_ms": lambda a: pr.partition_switch_ms(
        integer(a.get("frequency", 10)), integer(a.get("max_publish_delay_us", 1000))
    ),
    # Profiles.
    "profile_partition": lambda a: pr.profile_partition(
        data(a["key"]), integer(a["num_partitions"]), a.get("profile", "java"), **profile_options(a)
    ),
    "profile_partitions": lambda a: pr.profile_partitions(
        [data(k) for k in a["keys"]], integer(a["num_partitions"]), a.get("profile", "java"), **profile_options(a)
    ).tolist(),
    "profile_key_hash": lambda a: pr.profile_key_hash(data(a["data"]), a["hash"]),  # type: ignore[arg-type]
    "go_partition_index": lambda a: pr.go_partition_index(a["topic"]),
    "cpp_partition_index": lambda a: pr.cpp_partition_index(a["local_name"]),
    "cpp_partitioned_producer_check": lambda a: pr.cpp_partitioned_producer_check(
        integer(a["partition"]), integer(a["num_partitions"])
    ),
    # Kafka.
    "kafka_partition": lambda a: pr.kafka_partition(
        data(a["key"]), integer(a["num_partitions"]), a.get("partitioner", "java")
    ),
    "librdkafka_partition": lambda a: pr.librdkafka_partition(
        data(a["key"]),
        integer(a["num_partitions"]),
        a["partitioner"],
        integer(a["random"]),
        second_random=opt_int(a, "second_random"),
        available=None if a.get("available") is None else [integer(x) for x in a["available"]],
    ),
    # Topic names and bundles.
    "get_partition_index": lambda a: pr.get_partition_index(a["topic"]),
    "topic_bundle": lambda a: pr.topic_bundle(
        a["topic"], integer(a.get("num_bundles", 4)), **rules_of(a)
    ),
    "default_boundaries": lambda a: pr.default_boundaries(integer(a["num_bundles"])),
    "parse_boundary": lambda a: pr.parse_boundary(a["text"]),
    "BundleRange.parse": lambda a: str(pr.BundleRange.parse(a["text"])),
    "validate_full_range": lambda a: pr.validate_full_range(a["boundaries"]),
    # Key_Shared.
    "sticky_key_hash": lambda a: pr.sticky_key_hash(data(a["key"]), a["selector"]),  # type: ignore[arg-type]
    "sticky_key": sticky_key,
    "validate_sticky_ranges": lambda a: pr.validate_sticky_ranges(
        [tuple(integer(x) for x in r) for r in a["ranges"]]
    ),
    "ring_point": lambda a: pr.ring_point(
        data(a["name"]),  # type: ignore[arg-type]
        integer(a["name_index"]),
        integer(a["i"]),
        integer(a.get("range_max", 65535)),
    ),
    # Lookup and sender.
    "producer_start_topics": lambda a: pr.producer_start_topics(a["topic"], integer(a["partitions"])),
    "required_max_pending_messages": lambda a: pr.required_max_pending_messages(
        integer(a["peak_rate_per_sec"]), integer(a["reconnect_window_ms"])
    ),
}


def as_bytes(value: Json) -> bytes:
    out = data(value)
    return out.encode() if isinstance(out, str) else out  # type: ignore[return-value]


def key_counts_sorted(c: pr.KeyCounts) -> Json:
    """Every key as {"hex"}, text or not."""
    return [[{"hex": (k.encode() if isinstance(k, str) else k).hex()}, w] for k, w in c.sorted()]


def jitter(a: Args) -> float:
    return float(a.get("jitter", 0.5))


METHODS: dict[str, Callable[[Any, Args], Json]] = {
    "RoundRobinRouter.choose_partition": lambda r, a: r.choose_partition(
        data(a["key"]), integer(a["num_partitions"]), now_ms=integer(a["now_ms"])
    ),
    "SinglePartitionRouter.choose_partition": lambda r, a: r.choose_partition(
        data(a["key"]), integer(a["num_partitions"]), now_ms=0
    ),
    "CustomRouter.choose_partition": lambda r, a: r.choose_partition(
        data(a["key"]), integer(a["num_partitions"]), now_ms=0
    ),
    "ProfileRouter.route": lambda r, a: r.route(
        data(a["key"]),
        integer(a["num_partitions"]),
        now_ns=integer(a["now_ns"]),
        payload_len=integer(a.get("payload_len", 0)),
    ),
    "KafkaBuiltInPartitioner.peek_partition": lambda p, a: p.peek_partition(
        integer(a["num_partitions"]), integer(a["random"])
    ),
    "KafkaBuiltInPartitioner.update_partition_info": lambda p, a: p.update_partition_info(
        integer(a["appended_bytes"]), a["enable_switch"], integer(a["num_partitions"]), integer(a["random"])
    ),
    "KafkaJavaClientPartitioner.append": lambda p, a: p.append(
        data(a["key"]),
        integer(a["appended_bytes"]),
        a["enable_switch"],
        integer(a["num_partitions"]),
        integer(a["random"]),
    ),
    "LibrdkafkaProducer.partition": lambda p, a: p.partition(
        data(a["key"]), integer(a["num_partitions"]), integer(a["now_us"]), integer(a["random"])
    ),
    "TopicName.partition": lambda t, a: t.partition(integer(a["index"])),
    "NamespaceBundles.boundaries": lambda b, a: b.boundaries(),
    "NamespaceBundles.bundles": lambda b, a: [str(x) for x in b.bundles()],
    "NamespaceBundles.bundle_for_hash": lambda b, a: str(
        b.bundle_for_hash(integer(a["hash"]), strict=a.get("strict", False))
    ),
    "NamespaceBundles.bundle_for_topic": lambda b, a: str(
        b.bundle_for_topic(a["topic"], **rules_of(a))
    ),
    "NamespaceBundles.validate_bundle": lambda b, a: b.validate_bundle(a["bundle"]),
    "NamespaceBundles.split": bundles_split,
    "NamespaceBundles.split_equally": lambda b, a: split(
        b.split_equally(a["bundle"], integer(a.get("parts", 2)))
    ),
    **selector_ops("AutoSplitSelector"),
    **selector_ops("ConsistentHashingSelector"),
    **selector_ops("ExclusiveSelector"),
    "TopicLookup.start": lambda x, a: action(x.start(integer(a["now_ms"]))),
    "TopicLookup.on_response": lookup_response,
    "TopicLookup.on_connection_failed": lambda x, a: action(x.on_connection_failed(integer(a["now_ms"]))),
    "TopicLookup.on_request_timeout": lambda x, a: action(x.on_request_timeout(integer(a["now_ms"]))),
    "TopicLookup.on_throttled": lambda x, a: action(
        x.on_throttled(integer(a["now_ms"]), integer(a.get("in_flight", 0)), integer(a.get("queued", 0)))
    ),
    "TopicLookup.on_retry_timer": lambda x, a: action(x.on_retry_timer(integer(a["now_ms"]))),
    "PartitionedMetadataLookup.start": lambda x, a: action(x.start(integer(a["now_ms"]))),
    "PartitionedMetadataLookup.on_connected": lambda x, a: action(
        x.on_connected(a["supports_pip344"], integer(a["now_ms"]))
    ),
    "PartitionedMetadataLookup.on_response": metadata_response,
    "PartitionedMetadataLookup.on_connection_failed": lambda x, a: action(
        x.on_connection_failed(integer(a["now_ms"]))
    ),
    "PartitionedMetadataLookup.on_retry_timer": lambda x, a: action(x.on_retry_timer(integer(a["now_ms"]))),
    "LookupCoalescer.join": lambda c, a: c.join(a["topic"], a.get("properties") or None),
    "LookupCoalescer.complete": lambda c, a: len(c.complete(a["topic"], a.get("properties") or None)),
    "LookupCoalescer.len": lambda c, a: len(c),
    "MetadataCoalescer.join": lambda c, a: c.join(*metadata_key(a)),
    "MetadataCoalescer.complete": lambda c, a: len(c.complete(*metadata_key(a))),
    "MetadataCoalescer.len": lambda c, a: len(c),
    "LookupThrottle.acquire": lambda t, a: t.acquire(),
    "LookupThrottle.release": lambda t, a: t.release(),
    "LookupThrottle.in_flight": lambda t, a: t.in_flight,
    "LookupThrottle.queued": lambda t, a: t.queued,
    "SenderGate.ready": lambda g, a: readiness(g.ready(integer(a["node"]), integer(a["now_ms"]))),
    "SenderGate.check": lambda g, a: readiness(g.check(integer(a["node"]), integer(a["now_ms"]))),
    "SenderGate.send": lambda g, a: readiness(g.send(integer(a["node"]), integer(a["now_ms"]))),
    "SenderGate.connection_event": lambda g, a: g.connection_event(
        integer(a["node"]), a["event"], integer(a["now_ms"]), jitter(a)
    ),
    "SenderGate.response": lambda g, a: g.response(integer(a["node"]), a.get("outcome", "success")),
    "SenderGate.throttle": lambda g, a: g.throttle(integer(a["node"]), integer(a["until_ms"])),
    "SenderGate.request_metadata_update": lambda g, a: g.request_metadata_update(),
    "SenderGate.metadata_fetch_started": lambda g, a: g.metadata_fetch_started(),
    "SenderGate.metadata_updated": lambda g, a: g.metadata_updated(integer(a["now_ms"]), jitter(a)),
    "SenderGate.time_to_next_metadata_update": lambda g, a: g.time_to_next_metadata_update(
        integer(a["now_ms"])
    ),
    "SenderGate.connection_state": lambda g, a: g.connection_state(integer(a["node"])),
    "SenderGate.in_flight": lambda g, a: g.in_flight(integer(a["node"])),
    "KeyCounts.add": lambda c, a: c.add([data(a["key"])], [float(a.get("weight", 1))]),
    "KeyCounts.add_keyless": lambda c, a: c.add_keyless(float(a.get("weight", 1))),
    "KeyCounts.add_batch": lambda c, a: c.add(
        [data(k) for k in a["keys"]], None if a.get("weights") is None else [float(w) for w in a["weights"]]
    ),
    "KeyCounts.sorted": lambda c, a: key_counts_sorted(c),
    "KeyCounts.len": lambda c, a: len(c),
    "KeyCounts.rows": lambda c, a: c.rows,
    "KeyCounts.total_key_bytes": lambda c, a: c.total_key_bytes,
    "KeyCounts.keyless_weight": lambda c, a: c.keyless_weight,
    "PendingQueue.check": lambda q, a: q.check(),
    "PendingQueue.try_enqueue": lambda q, a: q.try_enqueue(),
    "PendingQueue.complete": lambda q, a: q.complete(integer(a.get("n", 1))),
    "PendingQueue.pending": lambda q, a: q.pending,
}


# --- errors -----------------------------------------------------------------

# The exception class of each error kind, by prefix (longest first) or name.
ERROR_CLASSES: list[tuple[str, type[BaseException]]] = [
    ("partition_count_", pr.PartitionCountError),
    ("division_by_zero", pr.DivisionByZeroError),
    ("illegal_partition_index", pr.IllegalPartitionIndexError),
    ("custom_mode_without_router", pr.RoutingConfigError),
    ("router_without_custom_mode", pr.RoutingConfigError),
    ("switch_frequency_too_small", pr.RoutingConfigError),
    ("batch_delay_too_small", pr.RoutingConfigError),
    ("unknown_hashing_scheme", pr.UnknownHashingSchemeError),
    ("unknown_topic_name_rules", pr.PulsarRoutingError),
    ("topic_name_", pr.TopicNameError),
    ("go_atoi_", pr.PulsarRoutingError),
    ("range_size_", pr.SelectorConfigError),
    ("key_hash_range_too_large", pr.SelectorConfigError),
    ("unknown_selector_kind", pr.SelectorConfigError),
    ("sticky_range", pr.KeySharedPolicyError),
    ("no_more_range", pr.ConsumerAssignError),
    ("hash_range_", pr.ConsumerAssignError),
    ("legacy_hash_range_", pr.ConsumerAssignError),
    ("own_hash_ranges_conflict", pr.ConsumerAssignError),
    ("empty_hash_ranges", pr.ConsumerAssignError),
    ("duplicate_consumer", pr.ConsumerAssignError),
    ("unknown_client_profile", pr.ProfileConfigError),
    ("unknown_client_hashing_scheme", pr.ProfileConfigError),
    ("unknown_profile_", pr.ProfileConfigError),
    ("profile_scheme_unsupported", pr.ProfileConfigError),
    ("python_scheme_not_selectable", pr.ProfileConfigError),
    ("unknown_librdkafka_partitioner", pr.ProfileConfigError),
    ("boost_hash_not_reproducible", pr.ProfileRouteError),
    ("profile_", pr.ProfileRouteError),
    ("kafka_invalid_sticky_batch_size", pr.ProfileConfigError),
    ("kafka_", pr.KafkaPartitionError),
    ("librdkafka_", pr.KafkaPartitionError),
    ("lookup_", pr.TopicLookupError),
    ("sender_max_in_flight_", pr.SenderConfigError),
    ("sender_not_ready", pr.SenderNotReadyError),
    ("sender_", pr.SenderError),
    ("producer_queue_", pr.ProducerQueueIsFullError),
    ("max_pending_messages_negative", pr.PulsarRoutingError),
    ("key_counts_", pr.KeyCountsError),
]

def error_class(kind: str) -> type[BaseException]:
    for prefix, cls in ERROR_CLASSES:
        if kind.startswith(prefix):
            return cls
    # The bundle kinds share no prefix; every other kind is listed above.
    return pr.BundleError


# --- comparison and the runner ----------------------------------------------


def agrees(expected: Json, actual: Json, top: bool = True) -> bool:
    if isinstance(expected, dict) and isinstance(actual, dict):
        if "hex" in expected and set(expected) == {"hex"}:
            return expected == actual
        keys = expected.keys() if top else expected.keys() | actual.keys()
        return all(k in actual and k in expected and agrees(expected[k], actual[k], False) for k in keys)
    if isinstance(expected, list) and isinstance(actual, (list, tuple)):
        return len(expected) == len(actual) and all(agrees(e, x, False) for e, x in zip(expected, actual))
    if isinstance(expected, str) and isinstance(actual, int) and not isinstance(actual, bool):
        return expected.lstrip("-").isdigit() and int(expected) == actual
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    return bool(expected == actual)


def result_of(value: Any) -> Json:
    if isinstance(value, bytes):
        return {"hex": value.hex()}
    if isinstance(value, tuple):
        return list(value)
    return value


def run_step(objects: dict[str, Any], types: dict[str, str], step: dict[str, Json]) -> None:
    args: Args = step.get("args", {})
    if "new" in step:
        kind = step["new"]
        if kind not in NEW:
            raise Disagreement(f"unknown type {kind!r}")
        call: Callable[[], Json] = lambda: NEW[kind](args)  # noqa: E731
        target = kind
    elif "on" in step:
        target = step["call"]
        if target not in METHODS:
            raise Disagreement(f"unknown method {target!r}")
        name = step["on"]
        if name not in objects:
            raise Disagreement(f"no object named {name!r}")
        if types[name] != target.split(".")[0]:
            raise Disagreement(f"{name!r} is a {types[name]}, not a {target.split('.')[0]}")
        obj = objects[name]
        call = lambda: METHODS[target](obj, args)  # noqa: E731
    else:
        target = step["call"]
        if target not in FUNCTIONS:
            raise Disagreement(f"unknown function {target!r}")
        call = lambda: FUNCTIONS[target](args)  # noqa: E731
    try:
        value = call()
    except (ValueError, ZeroDivisionError) as err:
        if "error" not in step:
            raise Disagreement(f"{target} raised {type(err).__name__}: {err}") from err
        want = step["error"]
        cls = error_class(want["kind"])
        if not isinstance(err, cls) or str(err) != want["message"]:
            raise Disagreement(
                f"{target}: expected {cls.__name__}({want['message']!r}), got {type(err).__name__}({str(err)!r})"
            ) from err
        return
    if "error" in step:
        raise Disagreement(f"{target}: expected error {step['error']}, got {result_of(value)!r}")
    if "new" in step:
        objects[step["as"]] = value
        types[step["as"]] = step["new"]
        if "expect" in step:
            value = NEW_FIELDS[step["new"]](value)
    if "expect" in step:
        actual = result_of(value)
        if not agrees(step["expect"], actual):
            raise Disagreement(f"{target}: expected {json.dumps(step['expect'])}, got {json.dumps(actual)}")


def run_scenario(scenario: dict[str, Json]) -> str | None:
    """None when every step agrees, else what disagreed first."""
    objects: dict[str, Any] = {}
    types: dict[str, str] = {}
    for index, step in enumerate(scenario["steps"]):
        try:
            run_step(objects, types, step)
        except Disagreement as what:
            return f"step {index}: {what}"
        except Exception as err:  # noqa: BLE001 - any other failure is a disagreement
            return f"step {index}: {type(err).__name__}: {err}"
    return None


def main(argv: list[str]) -> int:
    files = [Path(f) for f in argv] or committed_files()
    scenarios = load(files)
    agreed = 0
    for where, scenario in scenarios:
        failure = run_scenario(scenario)
        if failure is None:
            agreed += 1
        else:
            print(f"FAIL {scenario['name']} ({where}) {failure}")
    print(f"conformance python: {agreed}/{len(scenarios)} scenarios agree")
    return 0 if agreed == len(scenarios) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
