"""Random requests per area, aimed at the traps of each operation.

Every generator takes a `random.Random` and returns one request (without
`id`). Nothing here knows an answer: the requests only describe inputs.
"""

from __future__ import annotations

import random
from typing import Callable

I32_MIN, I32_MAX = -(2**31), 2**31 - 1
I64_MIN, I64_MAX = -(2**63), 2**63 - 1
U32_MAX = 2**32 - 1

# ---- keys ---------------------------------------------------------------------


def u16hex(units: list[int]) -> str:
    return "".join(f"{u:04x}" for u in units)


def _char_units(r: random.Random) -> list[int]:
    """One character (or a lone surrogate) as UTF-16 units, across every
    UTF-8 width."""
    kind = r.random()
    if kind < 0.35:
        return [r.randrange(0x20, 0x7F)]
    if kind < 0.42:
        return [r.randrange(0, 0x20) if r.random() < 0.8 else 0x7F]
    if kind < 0.55:
        return [r.randrange(0x80, 0x800)]
    if kind < 0.70:
        u = r.randrange(0x800, 0x10000)
        while 0xD800 <= u <= 0xDFFF:
            u = r.randrange(0x800, 0x10000)
        return [u]
    if kind < 0.75:
        return [r.choice([0xFFFD, 0xFEFF, 0xFFFF, 0xFFFE, 0x800, 0x7FF, 0x80])]
    if kind < 0.90:
        cp = r.choice([0x10000, 0x10FFFF, 0x1F600, r.randrange(0x10000, 0x110000)])
        cp -= 0x10000
        return [0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF)]
    # Lone surrogates, and a pair in the wrong order.
    return r.choice(
        [
            [r.randrange(0xD800, 0xDC00)],
            [r.randrange(0xDC00, 0xE000)],
            [r.randrange(0xDC00, 0xE000), r.randrange(0xD800, 0xDC00)],
        ]
    )


def key_units(r: random.Random) -> list[int]:
    """A Java String: empty, ASCII, mixed widths, or long."""
    kind = r.random()
    if kind < 0.08:
        return []
    if kind < 0.35:
        return [r.randrange(0x20, 0x7F) for _ in range(r.randrange(1, 24))]
    if kind < 0.92:
        units: list[int] = []
        for _ in range(r.randrange(1, 20)):
            units += _char_units(r)
        return units
    # Long keys, a few KiB; mostly ASCII so Murmur3's blocks see all tails.
    n = r.randrange(256, 4097)
    if r.random() < 0.5:
        return [r.randrange(0x20, 0x7F) for _ in range(n)]
    units = []
    while len(units) < n:
        units += _char_units(r)
    return units


def _utf8_sample(r: random.Random) -> bytes:
    units = key_units(r)
    return "".join(map(chr, units)).encode("utf-8", "surrogatepass")


def key_bytes(r: random.Random) -> bytes:
    """A byte[] key: random, valid UTF-8, or broken UTF-8 (Java decodes it)."""
    kind = r.random()
    if kind < 0.1:
        return b""
    if kind < 0.4:
        return bytes(r.randrange(256) for _ in range(r.randrange(1, 40)))
    if kind < 0.6:
        return _utf8_sample(r)
    if kind < 0.9:
        # Malformed sequences between valid text.
        bad = [
            b"\x80",
            b"\xc0\x80",
            b"\xc1\xbf",
            b"\xe0\x80\x80",
            b"\xed\xa0\x80",
            b"\xed\xbf\xbf",
            b"\xf0\x80\x80\x80",
            b"\xf4\x90\x80\x80",
            b"\xf5",
            b"\xff",
            b"\xe2\x82",
            b"\xf0\x9f\x98",
            b"\xc3",
        ]
        out = b""
        for _ in range(r.randrange(1, 6)):
            out += r.choice(bad) if r.random() < 0.5 else _utf8_sample(r)[:8]
        return out
    return bytes(r.randrange(256) for _ in range(r.randrange(256, 4097)))


def _key_fields(r: random.Random, keyless: float) -> dict:
    x = r.random()
    if x < keyless:
        return {}
    if x < keyless + (1 - keyless) / 2:
        return {"key_u16hex": u16hex(key_units(r))}
    return {"key_bytes_hex": key_bytes(r).hex()}


# ---- numbers ------------------------------------------------------------------


def partition_count(r: random.Random) -> int:
    """1..2^31-1, weighted to small counts, powers of two and near 2^31."""
    x = r.random()
    if x < 0.40:
        return r.randrange(1, 17)
    if x < 0.55:
        return 2 ** r.randrange(0, 31)
    if x < 0.65:
        k = 2 ** r.randrange(1, 31)
        return max(1, min(I32_MAX, k + r.choice([-1, 1])))
    if x < 0.80:
        return I32_MAX - r.randrange(0, 1000)
    return r.randrange(1, I32_MAX + 1)


def any_i64(r: random.Random) -> int:
    x = r.random()
    if x < 0.2:
        return r.choice([I64_MIN, I64_MIN + 1, I64_MAX, I64_MAX - 1, 0, 1, -1, I32_MIN, I32_MAX])
    if x < 0.5:
        return r.randrange(-1000, 1000)
    if x < 0.7:
        return r.randrange(I32_MIN, I32_MAX + 1) * r.choice([1, -1])
    return r.randrange(I64_MIN, I64_MAX + 1)


def any_i32(r: random.Random) -> int:
    x = r.random()
    if x < 0.2:
        return r.choice([I32_MIN, I32_MIN + 1, I32_MAX, I32_MAX - 1, 0, 1, -1])
    if x < 0.6:
        return r.randrange(-100, 100)
    return r.randrange(I32_MIN, I32_MAX + 1)


# ---- client side ---------------------------------------------------------------


def gen_hash(r: random.Random) -> dict:
    if r.random() < 0.5:
        return {"op": "hash", "key_u16hex": u16hex(key_units(r))}
    return {"op": "hash", "key_bytes_hex": key_bytes(r).hex()}


def gen_sign_safe_mod(r: random.Random) -> dict:
    x = r.random()
    if x < 0.05:
        divisor = 0
    elif x < 0.5:
        divisor = any_i32(r)
    else:
        divisor = partition_count(r)
    return {"op": "sign_safe_mod", "dividend": any_i64(r), "divisor": divisor}


def gen_route(r: random.Random) -> dict:
    router = r.choice(["round_robin", "single"])
    # No 0: the core refuses a count of 0 by design (PartitionCount), where
    # Java divides by it; see the report of issue 23.
    n = partition_count(r)
    if router == "single":
        # The Java producer picks the fixed index in [0, n).
        start = r.randrange(0, max(n, 1))
    else:
        start = any_i32(r) if r.random() < 0.3 else r.randrange(0, max(n, 1))
    clock = any_i64(r) if r.random() < 0.4 else r.randrange(0, 2**41)
    req = {
        "op": "route",
        "router": router,
        "scheme": r.choice(["java_string", "murmur3_32"]),
        "num_partitions": n,
        "start_index": start,
        "batching": r.random() < 0.5,
        "partition_switch_ms": r.choice(
            [0, 1, 10, -5, r.randrange(1, 1000), I64_MAX, I64_MIN, any_i64(r)]
        ),
        "clock_ms": clock,
        "picks": r.randrange(1, 6),
    }
    req.update(_key_fields(r, keyless=0.4))
    return req


# ---- topics ---------------------------------------------------------------------

_NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=:."
_BAD_CHARS = [" ", "/", "%", "#", "?", "&", "*", "\n", "\t", "é", "日", "😀", "\\", "'", '"', "+", "~", "@", "!"]
_SUFFIXES = [
    "-partition-0",
    "-partition-1",
    "-partition-7",
    "-partition-01",
    "-partition--1",
    "-partition-+1",
    "-partition-",
    "-partition-2147483647",
    "-partition-2147483648",
    "-partition-99999999999",
    "-partition-١٢",
    "-partition-1-partition-2",
    "-partition-1x",
    "-partition- 1",
    "-PARTITION-1",
]


def _segment(r: random.Random, bad: float = 0.1) -> str:
    x = r.random()
    if x < 0.03:
        return ""
    chars = [r.choice(_NAME_CHARS) for _ in range(r.randrange(1, 12))]
    if r.random() < bad:
        chars.insert(r.randrange(len(chars) + 1), r.choice(_BAD_CHARS))
    return "".join(chars)


def _local_name(r: random.Random) -> str:
    x = r.random()
    if x < 0.05:
        return ""
    if x < 0.1:
        return r.choice([" ", "  ", "\t", "-partition-1", "partition"])
    name = _segment(r, bad=0.25)
    if r.random() < 0.15:
        name += "/" + _segment(r, bad=0.25)
    if r.random() < 0.3:
        name += r.choice(_SUFFIXES)
    if r.random() < 0.05:
        name = "".join(chr(c) for c in [r.choice([0x20AC, 0x1F600, 0x4E2D, 0xE9, 0x3000])]) + name
    return name


def topic_name(r: random.Random) -> str:
    """Valid and invalid names: every domain form, V1 and V2, short names."""
    domain = r.choices(
        ["persistent://", "non-persistent://", "", "bad"],
        weights=[45, 20, 30, 5],
    )[0]
    if domain == "bad":
        domain = r.choice(
            ["persistent:/", "persistent:", "Persistent://", "NON-PERSISTENT://", "segment://", "topic://", "http://", "://", "persistent:///", "x://"]
        )
    shape = r.random()
    local = _local_name(r)
    if domain == "" and shape < 0.4:
        # Short names: <topic> and the invalid two-part form.
        if r.random() < 0.8:
            return local
        return f"{_segment(r)}/{local}"
    if shape < 0.8:
        return f"{domain}{_segment(r)}/{_segment(r)}/{local}"
    if shape < 0.95:
        # V1: tenant/cluster/namespace/topic.
        return f"{domain}{_segment(r)}/{_segment(r)}/{_segment(r)}/{local}"
    return f"{domain}{_segment(r)}"


def gen_topic(r: random.Random) -> dict:
    return {"op": "topic", "name": topic_name(r)}


def gen_partition_index(r: random.Random) -> dict:
    if r.random() < 0.5:
        name = topic_name(r)
    else:
        name = r.choice(["", "x", "persistent://t/ns/x"]) + "".join(
            r.choice(_SUFFIXES) for _ in range(r.randrange(1, 3))
        )
        if r.random() < 0.3:
            name += str(r.choice([0, 7, I32_MAX, I32_MAX + 1, -3, r.randrange(0, 10**12)]))
    return {"op": "partition_index", "name": name}


# ---- bundles --------------------------------------------------------------------


def _halving_layout(r: random.Random, splits: int) -> list[int]:
    """A layout grown by a sequence of middle splits, as a namespace whose
    bundles were split one after the other looks."""
    b = [0, U32_MAX]
    for _ in range(splits):
        i = r.randrange(len(b) - 1)
        lo, hi = b[i], b[i + 1]
        if hi - lo < 2:
            continue
        b.insert(i + 1, lo + (hi - lo) // 2 + (r.randrange(-1, 2) if hi - lo > 8 else 0))
    return b


def layout(r: random.Random) -> list[int]:
    """Sorted unique boundaries from 0 to 0xffffffff."""
    x = r.random()
    if x < 0.25:
        n = r.choice([1, 2, 3, 4, 8, 16, r.randrange(1, 65)])
        return [i * (U32_MAX // n) if i < n else U32_MAX for i in range(n + 1)]
    if x < 0.55:
        return _halving_layout(r, r.randrange(0, 20))
    inner = sorted(set(r.randrange(1, U32_MAX) for _ in range(r.randrange(0, 40))))
    if r.random() < 0.1:
        # Neighbours one apart: bundles that cannot be split further.
        k = r.randrange(1, U32_MAX - 2)
        inner = sorted(set(inner + [k, k + 1]))
    return [0] + inner + [U32_MAX]


def bad_layout(r: random.Random) -> list[int]:
    good = layout(r)
    kind = r.randrange(7)
    if kind == 0:
        return []
    if kind == 1:
        return [r.choice([0, U32_MAX, 5])]
    if kind == 2 and len(good) > 2:
        i = r.randrange(1, len(good) - 1)
        return good[:i] + [good[i]] + good[i:]
    if kind == 3 and len(good) > 2:
        g = good[:]
        i = r.randrange(len(g) - 1)
        g[i], g[i + 1] = g[i + 1], g[i]
        return g
    if kind == 4:
        return good[1:] if len(good) > 2 else [7, U32_MAX]
    if kind == 5:
        return good[:-1] if len(good) > 2 else [0, 7]
    # Unsorted, at the ends: the layout reaches past the last boundary.
    return good[:-1] + [good[-2] // 2] if len(good) > 2 else [U32_MAX, 0]


def _hash_near(r: random.Random, b: list[int]) -> int:
    if b and r.random() < 0.6:
        h = r.choice(b) + r.choice([-1, 0, 0, 1])
    else:
        h = r.choice([0, U32_MAX, r.randrange(0, U32_MAX + 1)])
    return min(max(h, 0), U32_MAX)


def range_text(r: random.Random) -> str:
    """Bundle range text, valid and not, as the admin API and
    BundlesData read it (Long.decode)."""
    lo, hi = sorted([r.randrange(0, U32_MAX + 1), r.randrange(0, U32_MAX + 1)])
    x = r.random()
    if x < 0.4:
        return f"0x{lo:08x}_0x{hi:08x}"
    if x < 0.5:
        return f"0x{lo:08x}_0x{U32_MAX:08x}" if r.random() < 0.5 else f"0x00000000_0x{hi:08x}"
    forms = [
        f"0x{hi:08x}_0x{lo:08x}",
        f"0x{lo:08x}_0x{lo:08x}",
        f"0x{lo:08x}",
        f"0x{lo:08x}_",
        f"_0x{hi:08x}",
        "_",
        "",
        f"{lo}_{hi}",
        f"0X{lo:X}_0X{hi:X}",
        f"#{lo:x}_#{hi:x}",
        f"0{lo:o}_0{hi:o}",
        f"-0x{lo:x}_0x{hi:x}",
        f"+0x{lo:x}_0x{hi:x}",
        f"0x-{lo:x}_0x{hi:x}",
        f"0x{lo:x}_0x{hi:x}_0x{hi:x}",
        f" 0x{lo:x}_0x{hi:x}",
        f"0x{lo:x}_0x1{hi:016x}",
        f"0x{lo:x}_0x100000000",
        f"0x{lo:x}_99999999999999999999",
        f"0x{lo:x}_0xg",
        f"0x_0x{hi:x}",
        f"-_-",
        f"0x{lo:x}__0x{hi:x}",
        "0x00000000_0xffffffff",
        "-1_0",
        f"{lo}_-{hi}",
    ]
    return r.choice(forms)


def gen_bundles(r: random.Random) -> dict:
    x = r.random()
    if x < 0.15:
        n = r.choice([0, -1, I32_MIN, 1, 2, 3, 4, 16, 255, 256, 1024, r.randrange(1, 129), 2 ** r.randrange(0, 12)])
        return {"op": "bundles_default", "num_bundles": n}
    if x < 0.45:
        b = layout(r) if r.random() < 0.95 else bad_layout(r)
        return {"op": "topic_bundle", "topic": topic_name(r), "boundaries": b}
    if x < 0.75:
        b = layout(r) if r.random() < 0.9 else bad_layout(r)
        return {"op": "hash_bundle", "hash": _hash_near(r, b), "boundaries": b}
    return {"op": "parse_bundle_range", "range": range_text(r)}


_ALGORITHMS = [
    "range_equally_divide",
    "topic_count_equally_divide",
    "specified_positions_divide",
    "specified_positions_divide_force",
    "flow_or_qps_equally_divide",
]


def _target(r: random.Random, b: list[int]) -> str:
    # The protocol's target is one of the layout's bundles.
    if len(b) >= 2:
        i = r.randrange(len(b) - 1)
        return f"0x{b[i]:08x}_0x{b[i + 1]:08x}"
    return "0x00000000_0xffffffff"


def _rate(r: random.Random) -> float:
    x = r.random()
    if x < 0.2:
        return 0.0
    if x < 0.5:
        return float(r.randrange(0, 50000))
    if x < 0.8:
        return r.uniform(0, 40000)
    return r.uniform(0, 2e8)


def gen_split(r: random.Random) -> dict:
    b = layout(r) if r.random() < 0.97 else bad_layout(r)
    target = _target(r, b)
    if r.random() < 0.2:
        return {"op": "split_equal", "boundaries": b, "target": target,
                "parts": r.choice([0, 1, 2, 2, 3, 4, 8, r.randrange(1, 40)])}
    algorithm = r.choice(_ALGORITHMS)
    req: dict = {"op": "split", "algorithm": algorithm, "boundaries": b, "target": target}
    ntopics = r.choice([0, 1, 2, r.randrange(0, 30)])
    # The namespace service reports canonical names of the namespace.
    topics = list(dict.fromkeys(
        r.choice(["persistent://t/ns/", "non-persistent://t/ns/"])
        + (_segment(r, bad=0) or "x") + (r.choice(_SUFFIXES[:3]) if r.random() < 0.3 else "")
        for _ in range(ntopics)
    ))
    req["topics"] = topics
    if algorithm.startswith("specified"):
        try:
            lo_s, hi_s = target.split("_")
            lo, hi = int(lo_s, 16), int(hi_s, 16)
        except ValueError:
            lo, hi = 0, U32_MAX
        positions = []
        for _ in range(r.choice([0, 1, 2, r.randrange(0, 10)])):
            y = r.random()
            if y < 0.6 and hi - lo > 1:
                positions.append(r.randrange(lo + 1, hi))
            elif y < 0.8:
                positions.append(r.choice([lo, hi, lo - 1, hi + 1]))
            else:
                positions.append(r.choice([r.randrange(0, U32_MAX + 1), -5, U32_MAX + 10]))
        if positions and r.random() < 0.15:
            positions.append(positions[0])
        req["positions"] = positions
    if algorithm == "flow_or_qps_equally_divide":
        req["topic_stats"] = {
            t: [_rate(r) for _ in range(4)] for t in topics if r.random() < 0.85
        }
        req["flow_args"] = [
            r.choice([0, 1, 100, 1000, 30000, r.randrange(1, 100000)]),
            r.choice([0, 1, 10, 100, r.randrange(1, 1000)]),
            r.choice([0, 10, 50, 100, r.randrange(0, 200)]),
        ]
    return req


# ---- Key_Shared -------------------------------------------------------------------


def gen_key_shared_hash(r: random.Random) -> dict:
    x = r.random()
    if x < 0.05:
        key = b"NONE_KEY"
    elif x < 0.4:
        key = "".join(map(chr, key_units(r))).encode("utf-8", "surrogatepass")
    else:
        key = key_bytes(r)
    return {"op": "key_shared_hash", "key_hex": key.hex()}


def _consumer_name(r: random.Random) -> str:
    x = r.random()
    if x < 0.4:
        return r.choice(["c", "consumer", "a", "b", "", "consumer-1"])
    if x < 0.9:
        return "consumer-" + "".join(r.choice(_NAME_CHARS) for _ in range(r.randrange(0, 10)))
    return "".join(chr(c) for c in [r.choice([0xE9, 0x4E2D, 0x1F600, 0x41])] * r.randrange(1, 4))


def _range(r: random.Random) -> list[int]:
    x = r.random()
    if x < 0.75:
        s = r.randrange(0, 65536)
        e = min(65535, s + r.choice([0, 1, r.randrange(0, 4096), r.randrange(0, 65536)]))
        return [s, e]
    if x < 0.85:
        s = r.randrange(1, 65536)
        return [s, s - r.randrange(1, s + 1)]
    return r.choice([[0, 65535], [-1, 10], [65530, 70000], [65536, 65540], [I32_MIN, I32_MAX], [0, 0], [65535, 65535]])


def gen_key_shared(r: random.Random) -> dict:
    selector = r.choice(["auto_split", "consistent_hashing", "exclusive"])
    req: dict = {"op": "key_shared", "selector": selector}
    if selector == "auto_split":
        req["range_size"] = r.choices(
            [65536, 2 ** r.randrange(1, 17), r.choice([0, 1, 3, 1000, -2, 2**30])],
            weights=[60, 35, 5],
        )[0]
        hash_max = max(req["range_size"], 2) - 1
    elif selector == "consistent_hashing":
        req["points"] = r.choice([1, 2, 10, 100, 100, r.randrange(1, 300)])
        req["range_max"] = r.choices([65535, 2147483646, r.randrange(1, 5000)], weights=[70, 15, 15])[0]
        hash_max = req["range_max"]
    else:
        # The broker's only exclusive range size; the core's is fixed to it.
        req["range_size"] = 65536
        hash_max = 65535
    steps = []
    present: list[int] = []
    gone: list[int] = []
    next_id = r.randrange(0, 3)
    for _ in range(r.randrange(1, 31)):
        x = r.random()
        if x < 0.4 or not present:
            if gone and r.random() < 0.3:
                cid = gone.pop(r.randrange(len(gone)))
            else:
                cid = next_id
                next_id += r.randrange(1, 4)
            step = {"op": "add", "consumer_id": cid, "name": _consumer_name(r), "ranges": None}
            if selector == "exclusive":
                y = r.random()
                if y < 0.05:
                    step["ranges"] = None
                elif y < 0.08:
                    step["ranges"] = []
                else:
                    step["ranges"] = [_range(r) for _ in range(r.choice([1, 1, 1, 2, 3, r.randrange(1, 6)]))]
            steps.append(step)
            present.append(cid)
        elif x < 0.6:
            if r.random() < 0.85:
                cid = present.pop(r.randrange(len(present)))
                gone.append(cid)
            else:
                cid = next_id + 1000
            steps.append({"op": "remove", "consumer_id": cid})
        else:
            h = r.randrange(0, hash_max + 1) if r.random() < 0.95 else r.choice([0, hash_max, hash_max + 1])
            steps.append({"op": "select", "hash": h})
        # A failed add leaves the consumer out; the driver does not know
        # which adds fail, so an id stays "present" and may be removed.
    req["steps"] = steps
    return req


AREAS: dict[str, Callable[[random.Random], dict]] = {
    "hash": gen_hash,
    "sign_safe_mod": gen_sign_safe_mod,
    "route": gen_route,
    "topic": gen_topic,
    "partition_index": gen_partition_index,
    "bundles": gen_bundles,
    "split": gen_split,
    "key_shared_hash": gen_key_shared_hash,
    "key_shared": gen_key_shared,
}

# Relative share of the cases, by how much each case costs and how much
# room for mistakes its area has; every area gets at least a few.
WEIGHTS = {
    "hash": 14,
    "sign_safe_mod": 8,
    "route": 14,
    "topic": 14,
    "partition_index": 6,
    "bundles": 14,
    "split": 12,
    "key_shared_hash": 8,
    "key_shared": 10,
}
