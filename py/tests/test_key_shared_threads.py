"""Selectors shared between threads: no lost update, and every lookup sees a
whole state (before or after an add or remove, never half of one)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

import pulsar_routing as pr

THREADS = 8
# Long enough that the keys are hashed and looked up with the GIL released.
KEYS = np.array([f"key-{i}" for i in range(5000)])


def run_in_threads(work: Callable[[int], None]) -> None:
    start = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def target(index: int) -> None:
        start.wait()
        try:
            work(index)
        except BaseException as err:  # re-raised in the main thread
            errors.append(err)

    threads = [threading.Thread(target=target, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def test_concurrent_exclusive_adds_and_lookups() -> None:
    # Each thread adds its own consumers, on ranges no other thread uses,
    # while looking keys up: every answer is -1 or the slot's one owner.
    sel = pr.ExclusiveSelector()
    per_thread, width = 40, 200
    owner_of_slot = np.full(65536, -1, dtype=np.int64)
    plan: list[list[tuple[int, tuple[int, int]]]] = [[] for _ in range(THREADS)]
    for t in range(THREADS):
        for k in range(per_thread):
            consumer = t * per_thread + k
            start = consumer * width
            plan[t].append((consumer, (start, start + width - 1)))
            owner_of_slot[start : start + width] = consumer
    slots = pr.sticky_key_hashes(KEYS, "exclusive").astype(np.int64)
    allowed = owner_of_slot[slots]

    def work(index: int) -> None:
        for consumer, declared in plan[index]:
            sel.add(consumer, f"c{consumer}", [declared])
            got = sel.select_keys(KEYS)
            assert ((got == -1) | (got == allowed)).all()

    run_in_threads(work)
    assert len(sel) == THREADS * per_thread
    np.testing.assert_array_equal(sel.select_keys(KEYS), allowed)
    assert sel.ranges_by_consumer() == {c: [r] for p in plan for c, r in p}


def test_readers_see_whole_states() -> None:
    # One thread adds and removes a consumer over and over; the others look
    # keys up. Removing the consumer just added restores the ring exactly,
    # so every lookup must give one of two answers.
    sel = pr.ConsistentHashingSelector()
    for i in range(50):
        sel.add(i, f"consumer-{i}")
    without = sel.select_keys(KEYS)
    with_it = sel.copy()
    with_it.add(999, "flapping")
    with_flapping = with_it.select_keys(KEYS)
    assert (without != with_flapping).any()
    seen = [0, 0]
    readers_done = threading.Barrier(THREADS - 1, action=lambda: done.set())
    done = threading.Event()

    def work(index: int) -> None:
        if index == 0:
            # The only writer: its own lookups between its updates are exact.
            while not done.is_set():
                sel.add(999, "flapping")
                np.testing.assert_array_equal(sel.select_keys(KEYS), with_flapping)
                sel.remove(999)
                np.testing.assert_array_equal(sel.select_keys(KEYS), without)
            return
        for _ in range(60):
            got = sel.select_keys(KEYS)
            if (got == without).all():
                seen[0] += 1
            else:
                np.testing.assert_array_equal(got, with_flapping)
                seen[1] += 1
        readers_done.wait()

    run_in_threads(work)
    assert sum(seen) == (THREADS - 1) * 60
    # Both states were seen (each is about half of the time).
    assert min(seen) > 0, seen
    np.testing.assert_array_equal(sel.select_keys(KEYS), without)


def test_concurrent_adds_lose_nothing() -> None:
    # Adds from every thread, each far past a new selector's capacity, so
    # the storage grows while others wait for the lock.
    auto, consistent = pr.AutoSplitSelector(), pr.ConsistentHashingSelector(points=10)
    per_thread = 100

    def work(index: int) -> None:
        for k in range(per_thread):
            consumer = index * per_thread + k
            auto.add(consumer, "")
            consistent.add(consumer, f"c{consumer}")
            assert consumer in auto and consumer in consistent

    run_in_threads(work)
    everyone = list(range(THREADS * per_thread))
    assert auto.consumers() == consistent.consumers() == everyone
    assignments = auto.assignments()
    assert assignments[0][0] == 0 and assignments[-1][1] == 65536
    assert all(a[1] + 1 == b[0] for a, b in zip(assignments, assignments[1:]))
