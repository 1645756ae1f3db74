"""Objects shared between threads: exact counts, no lost updates."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable

import numpy as np

import pulsar_routing as pr

THREADS = 8


def run_in_threads(work: Callable[[int], None]) -> None:
    start = threading.Barrier(THREADS)

    def target(index: int) -> None:
        start.wait()
        work(index)

    threads = [threading.Thread(target=target, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def test_shared_round_robin_router_counts_exactly() -> None:
    router = pr.RoundRobinRouter(start_partition_index=0, batching=False)
    n, per_thread = 7, 5_000
    counts: list[Counter[int]] = [Counter() for _ in range(THREADS)]

    def work(index: int) -> None:
        for _ in range(per_thread):
            counts[index][router.choose_partition(None, n)] += 1

    run_in_threads(work)
    total = sum(counts, Counter())
    # The picks are exactly the counter values 0 .. THREADS*per_thread-1, mod n.
    assert total == Counter(i % n for i in range(THREADS * per_thread))
    assert router.choose_partition(None, n) == (THREADS * per_thread) % n


def test_shared_hashers_lose_no_update() -> None:
    # Identical 4-byte-aligned chunks give the same hash in any order, and are
    # long enough to be hashed with the GIL released.
    chunk = bytes(range(256)) * 16
    murmur, crc = pr.Murmur3Hasher(), pr.Crc32()
    per_thread = 50

    def work(index: int) -> None:
        for _ in range(per_thread):
            murmur.update(chunk)
            crc.update(chunk)

    run_in_threads(work)
    whole = chunk * (THREADS * per_thread)
    assert murmur.finalize() == pr.murmur3_32(whole)
    assert crc.finalize() == pr.crc32(whole)


def test_concurrent_bulk_routing_agrees() -> None:
    keys = np.array([f"key-{i}" for i in range(20_000)])
    want = pr.partitions_for_keys(keys, 97)
    results: list[bool] = [False] * THREADS

    def work(index: int) -> None:
        results[index] = bool((pr.partitions_for_keys(keys, 97) == want).all())

    run_in_threads(work)
    assert all(results)


def test_concurrent_bundle_lookups_agree() -> None:
    # Long enough that the topics are parsed and hashed with the GIL released.
    topics = np.array([f"persistent://public/default/topic-{i}" for i in range(20_000)])
    layouts = [pr.NamespaceBundles(16), pr.NamespaceBundles.from_boundaries(pr.default_boundaries(16))]
    want = layouts[0].bundle_indexes(topics)
    results: list[bool] = [False] * THREADS

    def work(index: int) -> None:
        got = layouts[index % 2].bundle_indexes(topics)
        results[index] = bool((got == want).all())

    run_in_threads(work)
    assert all(results)
