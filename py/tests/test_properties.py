"""Hypothesis properties: streaming equals one-shot, partitions stay in range,
the bulk path equals the one-key path, and the hashes match plain-Python
references of Java's definitions."""

from __future__ import annotations

from typing import Optional, Union

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import pulsar_routing as pr

schemes = st.sampled_from(["java_string", "murmur3_32"])
counts = st.one_of(st.integers(1, 300), st.integers(1, 2**31 - 1))
keys = st.one_of(st.none(), st.text(), st.binary())


def java_hashcode_reference(s: str) -> int:
    """String.hashCode() over UTF-16 units, as a signed 32-bit int."""
    units = s.encode("utf-16-le", "surrogatepass")
    h = 0
    for i in range(0, len(units), 2):
        h = (31 * h + int.from_bytes(units[i : i + 2], "little")) & 0xFFFFFFFF
    return h - 2**32 if h >= 2**31 else h


def sign_safe_mod_reference(dividend: int, divisor: int) -> int:
    """Java's (int)(dividend % divisor), plus divisor when negative, in int arithmetic."""
    m = abs(dividend) % abs(divisor) * (1 if dividend >= 0 else -1)
    if m < 0:
        m += divisor
    return (m + 2**31) % 2**32 - 2**31


@given(st.binary(), st.lists(st.integers(0, 64)))
def test_streaming_equals_one_shot(data: bytes, cuts: list[int]) -> None:
    murmur, crc = pr.Murmur3Hasher(), pr.Crc32()
    at = 0
    for cut in [*cuts, len(data)]:
        piece = data[at : at + cut]
        murmur.update(piece)
        crc.update(piece)
        at += len(piece)
    murmur.update(data[at:])
    crc.update(data[at:])
    assert murmur.finalize() == pr.murmur3_32(data)
    assert murmur.finalize_raw() == pr.murmur3_32_raw(data)
    assert murmur.finalize() == murmur.finalize_raw() & 0x7FFFFFFF
    assert crc.finalize() == pr.crc32(data)


@given(st.text())
def test_java_string_hash_matches_reference(s: str) -> None:
    assert pr.java_string_hashcode(s) == java_hashcode_reference(s)
    assert pr.java_string_hash(s) == java_hashcode_reference(s) & 0x7FFFFFFF


@given(st.text(alphabet=st.characters(exclude_categories=["Cs"])))
def test_str_and_utf8_bytes_agree(s: str) -> None:
    data = s.encode()
    assert pr.murmur3_32(s) == pr.murmur3_32(data)
    assert pr.crc32(s) == pr.crc32(data)
    assert pr.java_string_hash(s) == pr.java_string_hash_bytes(data)
    assert pr.java_lossy_utf8(data) == s


@given(keys, counts, schemes)
def test_partition_in_range(key: Optional[Union[str, bytes]], n: int, scheme: str) -> None:
    single = pr.SinglePartitionRouter(0, scheme)
    p = single.choose_partition(key, n)
    assert 0 <= p < n
    round_robin = pr.RoundRobinRouter(scheme, start_partition_index=-5)
    assert 0 <= round_robin.choose_partition(key, n, now_ms=-(2**40)) < n
    if key is not None:
        assert p == pr.routing_key_hash(key, scheme) % n


@given(st.lists(keys, max_size=50), counts, schemes)
def test_bulk_equals_one_key(
    key_list: list[Optional[Union[str, bytes]]], n: int, scheme: str
) -> None:
    want = [
        -1 if key is None else pr.routing_key_hash(key, scheme) % n
        for key in key_list
    ]
    assert pr.partitions_for_keys(key_list, n, scheme).tolist() == want
    text = [key for key in key_list if isinstance(key, str) and not key.endswith("\0")]
    text_want = [pr.partition_for_key(key, n, scheme) for key in text]
    assert pr.partitions_for_keys(np.array(text, dtype=str), n, scheme).tolist() == text_want


@given(st.integers(-(2**63), 2**63 - 1), st.integers(-(2**31), 2**31 - 1).filter(bool))
def test_sign_safe_mod_matches_java(dividend: int, divisor: int) -> None:
    got = pr.sign_safe_mod(dividend, divisor)
    assert got == sign_safe_mod_reference(dividend, divisor)
    if divisor > 0:
        assert got == dividend % divisor


@given(st.integers(-(2**31), 2**31 - 1), st.integers(1, 50))
def test_round_robin_counter_wraps_like_java(start: int, n: int) -> None:
    router = pr.RoundRobinRouter(start_partition_index=start, batching=False)
    for i in range(5):
        counter = (start + i + 2**31) % 2**32 - 2**31
        assert router.choose_partition(None, n) == counter % n
