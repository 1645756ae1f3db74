"""Every Java field of hash.jsonl and routing.jsonl, through the Python API."""

from __future__ import annotations

import base64
import itertools
from collections import defaultdict
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

import pulsar_routing as pr

from .golden import golden, rows


def test_hash_rows() -> None:
    hash_rows = golden("hash")
    assert len(hash_rows) > 1500, "hash.jsonl looks truncated"
    for row in hash_rows:
        data = bytes.fromhex(row["key_hex"])
        where = f"id {row['id']}"
        assert pr.murmur3_32(data) == row["murmur3_32"], where
        if "murmur3_32_raw" in row:
            # Java's value is a signed int; Python's is the same 32 bits, unsigned.
            assert pr.murmur3_32_raw(data) == row["murmur3_32_raw"] & 0xFFFFFFFF, where
        assert pr.java_string_hash_bytes(data) == row["java_string_hash"], where
        assert pr.java_string_hashcode_bytes(data) == row["java_string_hashcode_raw"], where
        decoded = pr.java_lossy_utf8(data)
        assert len(decoded.encode("utf-16-le")) // 2 == row["java_decoded_utf16_len"], where
        if "java_lossy_utf8_hex" in row:
            assert decoded.encode() == bytes.fromhex(row["java_lossy_utf8_hex"]), where
        assert pr.crc32(data) == row["crc32_bundle"], where

        # Other buffer types hash their bytes the same way.
        assert pr.murmur3_32(bytearray(data)) == row["murmur3_32"], where
        assert pr.crc32(memoryview(data)) == row["crc32_bundle"], where

        if row["utf8_valid"]:
            text = data.decode()
            assert text == row["key_utf8"]
            assert pr.java_string_hash(text) == row["java_string_hash"], where
            assert pr.java_string_hashcode(text) == row["java_string_hashcode_raw"], where
            assert pr.murmur3_32(text) == row["murmur3_32"], where
            assert pr.crc32(text) == row["crc32_bundle"], where

        # Streaming in uneven pieces gives the one-shot answer.
        for piece in (1, 2, 3, 5, 7):
            murmur, crc = pr.Murmur3Hasher(), pr.Crc32()
            for start in range(0, len(data), piece):
                murmur.update(data[start : start + piece])
                crc.update(data[start : start + piece])
            assert murmur.finalize() == row["murmur3_32"], where
            assert murmur.finalize_raw() == pr.murmur3_32_raw(data), where
            assert crc.finalize() == row["crc32_bundle"], where


def _keyed_rows() -> list[dict[str, Any]]:
    keyed = rows("routing", "keyed")
    assert len(keyed) > 10_000, "routing.jsonl looks truncated"
    return keyed


def test_keyed_rows() -> None:
    for row in _keyed_rows():
        key, n, scheme, expected = row["key"], row["num_partitions"], row["scheme"], row["partition"]
        assert bytes.fromhex(row["key_utf8_hex"]).decode() == key
        assert pr.partition_for_key(key, n, scheme) == expected, row
        # Both built-in routers route a keyed message the same way, at any time.
        round_robin = pr.RoundRobinRouter(scheme, start_partition_index=0)
        assert round_robin.choose_partition(key, n, now_ms=123_456) == expected, row
        single = pr.SinglePartitionRouter(-1, scheme)
        assert single.choose_partition(key, n) == expected, row
        assert pr.routing_key_hash(key, scheme) % n == expected, row


def _grouped(kind: str) -> dict[tuple[int, str], tuple[list[Any], list[int]]]:
    """Rows of ``kind`` by (num_partitions, scheme): (keys, partitions)."""
    groups: dict[tuple[int, str], tuple[list[Any], list[int]]] = defaultdict(lambda: ([], []))
    for row in rows("routing", kind):
        keys, expected = groups[(row["num_partitions"], row["scheme"])]
        keys.append(row["key"] if kind == "keyed" else bytes.fromhex(row["key_bytes_hex"]))
        expected.append(row["partition"])
    return groups


def test_keyed_rows_in_bulk() -> None:
    groups = _grouped("keyed")
    assert sum(len(keys) for keys, _ in groups.values()) == len(_keyed_rows())
    for (n, scheme), (keys, expected) in groups.items():
        want = np.array(expected, dtype=np.int32)
        where = f"n={n} scheme={scheme}"
        np.testing.assert_array_equal(pr.partitions_for_keys(keys, n, scheme), want, where)
        # numpy's fixed-width strings cannot end in NUL (numpy strips them),
        # so those few keys are left out of the U array.
        fits = [i for i, key in enumerate(keys) if not key.endswith("\0")]
        np.testing.assert_array_equal(
            pr.partitions_for_keys(np.array([keys[i] for i in fits], dtype=str), n, scheme),
            want[fits],
            where,
        )
        np.testing.assert_array_equal(
            pr.partitions_for_keys(np.array(keys, dtype=object), n, scheme), want, where
        )
        np.testing.assert_array_equal(
            pr.partitions_for_keys(pa.array(keys, pa.string()), n, scheme), want, where
        )
        np.testing.assert_array_equal(
            pr.partitions_for_keys(pa.array(keys, pa.large_string()), n, scheme), want, where
        )


def test_keyed_bytes_rows() -> None:
    keyed_bytes = rows("routing", "keyed_bytes")
    assert keyed_bytes
    for row in keyed_bytes:
        data, n, scheme, expected = (
            bytes.fromhex(row["key_bytes_hex"]),
            row["num_partitions"],
            row["scheme"],
            row["partition"],
        )
        # Java stores the padded standard Base64 text as the key.
        assert base64.b64encode(data).decode() == row["key"]
        assert pr.partition_for_key_bytes(data, n, scheme) == expected, row
        assert pr.partition_for_key(row["key"], n, scheme) == expected, row
        round_robin = pr.RoundRobinRouter(scheme, start_partition_index=7, batching=False)
        assert round_robin.choose_partition(data, n) == expected, row
        assert pr.SinglePartitionRouter(0, scheme).choose_partition(data, n) == expected, row
    for (n, scheme), (keys, expected) in _grouped("keyed_bytes").items():
        want = np.array(expected, dtype=np.int32)
        np.testing.assert_array_equal(pr.partitions_for_keys(keys, n, scheme), want)
        np.testing.assert_array_equal(
            pr.partitions_for_keys(np.array(keys, dtype=object), n, scheme), want
        )
        np.testing.assert_array_equal(
            pr.partitions_for_keys(pa.array(keys, pa.binary()), n, scheme), want
        )
        np.testing.assert_array_equal(
            pr.partitions_for_keys(pa.array(keys, pa.large_binary()), n, scheme), want
        )


def test_rr_batching_rows() -> None:
    batching = rows("routing", "rr_batching")
    assert batching
    for row in batching:
        router = pr.RoundRobinRouter(
            start_partition_index=row["start_ptn_idx"],
            partition_switch_ms=row["partition_switch_ms_arg"],
        )
        got = router.choose_partition(None, row["num_partitions"], now_ms=row["clock_ms"])
        assert got == row["partition"], row


def test_rr_sequence_rows() -> None:
    sequences = rows("routing", "rr_sequence")
    assert sequences
    for row in sequences:
        router = pr.RoundRobinRouter(start_partition_index=row["start_ptn_idx"], batching=False)
        picks = [router.choose_partition(None, row["num_partitions"]) for _ in range(12)]
        assert picks == row["sequence"], row


def test_single_no_key_rows() -> None:
    single = rows("routing", "single_no_key")
    assert single
    for row in single:
        router = pr.SinglePartitionRouter(row["partition_index_arg"])
        assert router.choose_partition(None, row["num_partitions"]) == row["partition"]


def test_sign_safe_mod_rows() -> None:
    cases = rows("routing", "sign_safe_mod")
    assert cases
    for row in cases:
        if "result" in row:
            assert pr.sign_safe_mod(row["dividend"], row["divisor"]) == row["result"], row
        else:
            assert row["error"] == "java.lang.ArithmeticException"
            with pytest.raises(pr.DivisionByZeroError, match="^/ by zero$"):
                pr.sign_safe_mod(row["dividend"], row["divisor"])


def test_every_routing_kind_is_checked() -> None:
    kinds = {row["kind"] for row in golden("routing")}
    checked = {"keyed", "keyed_bytes", "rr_batching", "rr_sequence", "single_no_key", "sign_safe_mod"}
    assert kinds == checked


def test_golden_keys_in_one_chunked_array() -> None:
    """All keyed rows of one (n, scheme) split over uneven, sliced chunks."""
    (n, scheme), (keys, expected) = max(_grouped("keyed").items(), key=lambda kv: len(kv[1][0]))
    whole = pa.array(["pad"] + keys + ["pad"], pa.string())
    cuts = list(itertools.accumulate([0, 1, 2, 3, 50, 400, len(keys)]))
    cuts = [c for c in cuts if c < len(keys)] + [len(keys)]
    chunks = [whole.slice(1 + lo, hi - lo) for lo, hi in zip(cuts, cuts[1:])]
    chunked = pa.chunked_array(chunks, pa.string())
    np.testing.assert_array_equal(
        pr.partitions_for_keys(chunked, n, scheme), np.array(expected, dtype=np.int32)
    )
