"""This project's answers through the Python package `pulsar_routing`, in
the protocol's answer format, for a share of the cases.

`answer` returns None for a request the package cannot be given as such
(a Java String with a lone surrogate, which a Python `str` holds but the
package, like any UTF-8 API, refuses): such cases are not counted for it.
"""

from __future__ import annotations

from typing import Any

import pulsar_routing as pr

_UNSUPPORTED = object()


def _text(u16hex: str) -> str | object:
    units = [int(u16hex[i : i + 4], 16) for i in range(0, len(u16hex), 4)]
    raw = b"".join(u.to_bytes(2, "big") for u in units)
    try:
        return raw.decode("utf-16-be")
    except UnicodeDecodeError:
        return _UNSUPPORTED


def _key(req: dict) -> Any:
    if req.get("key_u16hex") is not None:
        return _text(req["key_u16hex"])
    if req.get("key_bytes_hex") is not None:
        return bytes.fromhex(req["key_bytes_hex"])
    return None


def _hash(req: dict) -> dict:
    key = _key(req)
    if key is _UNSUPPORTED:
        raise _Skip
    if isinstance(key, str):
        return {"murmur3_32": pr.murmur3_32(key), "java_string": pr.java_string_hash(key)}
    return {"murmur3_32": pr.murmur3_32(key), "java_string": pr.java_string_hash_bytes(key)}


def _route(req: dict) -> dict:
    key = _key(req)
    if key is _UNSUPPORTED:
        raise _Skip
    n = req["num_partitions"]
    if req["router"] == "round_robin":
        router: Any = pr.RoundRobinRouter(
            req["scheme"],
            start_partition_index=req["start_index"],
            batching=req["batching"],
            partition_switch_ms=req["partition_switch_ms"],
        )
    else:
        router = pr.SinglePartitionRouter(req["start_index"], req["scheme"])
    picks = [router.choose_partition(key, n, now_ms=req["clock_ms"]) for _ in range(req.get("picks", 1))]
    return {"partitions": picks}


def _error(e: Exception) -> dict:
    return {"ok": False, "error_class": type(e).__name__, "error_message": str(e)}


def _topic(req: dict) -> dict:
    t = pr.TopicName(req["name"])
    out = {
        "to_string": str(t),
        "domain": t.domain,
        "tenant": t.tenant,
        "cluster": t.cluster,
        "namespace_portion": t.namespace_portion,
        "namespace": t.namespace,
        "local_name": t.local_name,
        "partition_index": t.partition_index,
        "partitioned_topic_name": t.partitioned_topic_name,
        "persistent": t.persistent,
        "lookup_name": t.lookup_name,
        "persistence_naming": t.persistence_naming,
        "rest_path": t.rest_path,
        "encoded_local_name": t.encoded_local_name,
    }
    try:
        out["partition_3"] = t.partition(3)
    except pr.PulsarRoutingError as e:
        err = _error(e)
        del err["ok"]
        out["partition_3_error"] = err
    return out


def _layout(req: dict) -> Any:
    return pr.NamespaceBundles.from_boundaries(req["boundaries"])


def _bundles_default(req: dict) -> dict:
    layout = pr.NamespaceBundles(req["num_bundles"])
    return {"boundaries": layout.boundaries(), "names": [str(b) for b in layout.bundles()]}


def _topic_bundle(req: dict) -> dict:
    t = pr.TopicName(req["topic"])
    layout = _layout(req)
    return {"crc32": t.crc32, "bundle": str(layout.bundle_for_topic(t, strict=True))}


def _parse_bundle_range(req: dict) -> dict:
    b = pr.BundleRange.parse(req["range"])
    return {"lower": b.lower, "upper": b.upper, "upper_closed": b.upper_closed, "bundle_range": str(b)}


def _split_kwargs(req: dict) -> dict:
    topics = req.get("topics") or []
    kw: dict = {"positions": req.get("positions"), "topics": topics}
    if req["algorithm"] == "flow_or_qps_equally_divide":
        stats = req.get("topic_stats") or {}
        kw["topic_stats"] = [stats.get(t) for t in topics]
        kw["max_msg_rate"], kw["max_bandwidth_mbytes"], kw["threshold_percent"] = req["flow_args"]
    return kw


def _split(req: dict) -> dict:
    layout = _layout(req)
    kw = _split_kwargs(req)
    points = layout.split_boundaries(req["target"], req["algorithm"], **kw)
    after = None
    if points:
        new_layout, _ = layout.split(req["target"], req["algorithm"], **kw)
        after = new_layout.boundaries()
    return {"split_boundaries": points, "boundaries_after": after}


def _split_equal(req: dict) -> dict:
    new_layout, _ = _layout(req).split_equally(req["target"], req["parts"])
    return {"boundaries_after": new_layout.boundaries()}


def _key_shared_hash(req: dict) -> dict:
    key = bytes.fromhex(req["key_hex"])
    classic = pr.ConsistentHashingSelector(1, 2147483646)
    return {
        "slot_0_65535": pr.sticky_key_hash(key, "auto_split"),
        "slot_1_65535": pr.sticky_key_hash(key, "consistent_hashing"),
        "slot_1_2147483646": classic.sticky_key_hash(key),
    }


def _ranges(sel: Any) -> dict:
    return {str(c): [list(r) for r in rs] for c, rs in sorted(sel.ranges_by_consumer().items())}


def _key_shared(req: dict) -> dict:
    kind = req["selector"]
    if kind == "auto_split":
        sel: Any = pr.AutoSplitSelector(req["range_size"])
    elif kind == "consistent_hashing":
        sel = pr.ConsistentHashingSelector(req["points"], req["range_max"])
    else:
        sel = pr.ExclusiveSelector()
    steps = []
    for step in req["steps"]:
        if step["op"] == "add":
            try:
                if kind == "exclusive":
                    sel.add(step["consumer_id"], step["name"], step["ranges"])
                else:
                    sel.add(step["consumer_id"], step["name"])
                steps.append({"ok": True, "ranges_by_consumer": _ranges(sel)})
            except pr.PulsarRoutingError as e:
                steps.append(_error(e))
        elif step["op"] == "remove":
            sel.remove(step["consumer_id"])
            steps.append({"ok": True, "ranges_by_consumer": _ranges(sel)})
        else:
            steps.append({"consumer_id": sel.select(step["hash"])})
    return {"steps": steps}


class _Skip(Exception):
    pass


_OPS = {
    "hash": _hash,
    "sign_safe_mod": lambda r: {"result": pr.sign_safe_mod(r["dividend"], r["divisor"])},
    "route": _route,
    "topic": _topic,
    "partition_index": lambda r: {"index": pr.get_partition_index(r["name"])},
    "bundles_default": _bundles_default,
    "topic_bundle": _topic_bundle,
    "hash_bundle": lambda r: {"bundle": str(_layout(r).bundle_for_hash(r["hash"], strict=True))},
    "parse_bundle_range": _parse_bundle_range,
    "split": _split,
    "split_equal": _split_equal,
    "key_shared_hash": _key_shared_hash,
    "key_shared": _key_shared,
}


def answer(req: dict) -> dict | None:
    op = _OPS.get(req["op"])
    if op is None:
        return None
    try:
        out = {"id": req.get("id"), "ok": True}
        out.update(op(req))
        return out
    except _Skip:
        return None
    except (pr.PulsarRoutingError, ValueError, OverflowError, TypeError) as e:
        out = {"id": req.get("id")}
        out.update(_error(e))
        return out
