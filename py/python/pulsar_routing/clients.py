"""Make another client route like Java: a router for its plug-in point.

The Java client's default router sends a key to ``JavaStringHash(key) % n``;
the Python client (over libpulsar, the C++ client) sends it by BoostHash, so
the same key reaches another partition. :func:`java_router` returns a
callable for ``pulsar.Client.create_producer(..., message_router=...)`` (the
Python client 3.8 and later) that routes as Java's
``RoundRobinPartitionMessageRouterImpl`` or
``SinglePartitionMessageRouterImpl`` does: keyed messages by Java's hash of
the key string, keyless ones round robin with Java's batching switch (or to
one partition), the start index drawn as Java draws it. It is a thin layer
over :class:`~pulsar_routing.routers.RoundRobinRouter` and
:class:`~pulsar_routing.routers.SinglePartitionRouter`; this module does
not import ``pulsar``.

>>> from pulsar_routing.clients import java_router
>>> class Message:  # what pulsar.Message offers the router
...     def __init__(self, key: str) -> None:
...         self.key = key
...     def partition_key(self) -> str:
...         return self.key
>>> router = java_router(start_index=3, batching=False)
>>> router(Message("user-42"), 12)
4
>>> router(Message(""), 12), router(Message(""), 12)
(3, 4)

Where the Python client cannot carry what Java sends, the router cannot
agree with Java either:

- ``send(partition_key="")`` sends no key (the client drops an empty one),
  so the router sees a keyless message and round-robins it; Java's
  ``key("")`` is a key, hashed to partition 0.
- A key with a lone surrogate cannot be sent: the client's ``send`` raises
  ``TypeError`` (it cannot encode the key as UTF-8) before routing. Java
  hashes such a key.
- The client casts the router's answer to a 16-bit ``short``, so a
  partition above 32767 would wrap (65537 becomes 1). For those the router
  answers -1, which the client refuses: the send fails with
  ``pulsar.exceptions.UnknownError`` instead of reaching the wrong
  partition. Keep such producers at 32767 partitions or fewer.
"""

from __future__ import annotations

import random
import threading
from typing import Callable, Protocol

from .routers import RoundRobinRouter, SinglePartitionRouter

__all__ = ["CPP_MAX_PARTITION", "JavaRouter", "RoutedMessage", "java_router"]

CPP_MAX_PARTITION = 32767
"""The highest partition the Python and C++ clients can address: they cast
the router's answer to a 16-bit ``short``."""

_MODES = ("round_robin", "single")


class RoutedMessage(Protocol):
    """What the router reads of a message: ``pulsar.Message`` is one."""

    def partition_key(self) -> str: ...


class JavaRouter:
    """A ``message_router`` for the Python client that routes as Java does.

    Made by :func:`java_router`; call it as the client does,
    ``router(message, num_partitions)``. Thread-safe: the client calls it on
    whichever thread sends.
    """

    __slots__ = ("_clock", "_lock", "_make", "_mode", "_router", "_scheme")

    def __init__(
        self,
        scheme: str,
        mode: str,
        batching: bool,
        partition_switch_ms: int,
        start_index: int | None,
        clock: Callable[[], int] | None,
    ) -> None:
        if mode not in _MODES:
            raise ValueError(f"mode must be one of {', '.join(map(repr, _MODES))}, not {mode!r}")
        self._scheme = scheme
        self._mode = mode
        self._clock = clock
        self._lock = threading.Lock()

        def make(start: int) -> RoundRobinRouter | SinglePartitionRouter:
            if mode == "single":
                return SinglePartitionRouter(start, scheme)
            return RoundRobinRouter(
                scheme, start_partition_index=start, batching=batching, partition_switch_ms=partition_switch_ms
            )

        self._make = make
        self._router: RoundRobinRouter | SinglePartitionRouter | None = None
        # Java draws the start when the producer is created, knowing the
        # partition count; the client tells this router the count only with
        # the first message, so without a given start it is drawn then.
        if start_index is not None:
            self._router = make(start_index)
        else:
            # Built now, so that a bad scheme fails here and not in a send.
            make(0)

    @property
    def scheme(self) -> str:
        """The hashing scheme for keyed messages."""
        return self._scheme

    @property
    def mode(self) -> str:
        """``"round_robin"`` or ``"single"``."""
        return self._mode

    @property
    def router(self) -> RoundRobinRouter | SinglePartitionRouter | None:
        """The core's router, or ``None`` before the first message when the
        start index is left to be drawn."""
        return self._router

    def _start(self, num_partitions: int) -> RoundRobinRouter | SinglePartitionRouter:
        with self._lock:
            if self._router is None:
                # ThreadLocalRandom.nextInt(numPartitions) in Java; Python's
                # random, so that random.seed() makes a run reproducible.
                self._router = self._make(random.randrange(num_partitions) if num_partitions > 0 else 0)
            return self._router

    def __call__(self, message: RoutedMessage, num_partitions: int) -> int:
        router = self._router or self._start(num_partitions)
        # The client hands an empty string for a message without a key.
        key = message.partition_key() or None
        if key is None and self._clock is not None:
            partition = router.choose_partition(None, num_partitions, now_ms=self._clock())
        else:
            partition = router.choose_partition(key, num_partitions)
        return partition if partition <= CPP_MAX_PARTITION else -1

    def __repr__(self) -> str:
        return f"JavaRouter({self._scheme!r}, {self._mode!r}, router={self._router!r})"


def java_router(
    scheme: str = "java_string",
    mode: str = "round_robin",
    *,
    batching: bool = True,
    partition_switch_ms: int = 10,
    start_index: int | None = None,
    clock: Callable[[], int] | None = None,
) -> JavaRouter:
    """A ``message_router`` for ``pulsar.Client.create_producer`` that routes as the Java client does.

    - ``scheme``: the hashing scheme of the Java producers to agree with,
      ``"java_string"`` (Java's default) or ``"murmur3_32"``.
    - ``mode``: ``"round_robin"`` (Java's default router) or ``"single"``
      (``SinglePartition``: keyless messages to one partition).
    - ``batching``, ``partition_switch_ms``: the round robin of keyless
      messages as a Java producer with batching on switches it, every
      ``partition_switch_ms`` of wall-clock time (10 with Java's defaults;
      :func:`~pulsar_routing.routers.partition_switch_ms` computes it from
      other settings), or message by message with batching off. These are
      the Java producer's settings, whatever the Python producer batches.
    - ``start_index``: the start of the round robin (or the single
      partition). ``None`` draws it as Java does, at random in ``[0, n)``,
      with the first message's partition count ``n``.
    - ``clock``: the time in Unix epoch milliseconds, read for keyless
      messages with batching; ``None`` reads the system clock.

    Raises ``ValueError`` for an unknown mode and
    :class:`~pulsar_routing.routers.UnknownHashingSchemeError` for an
    unknown scheme.
    """
    return JavaRouter(scheme, mode, batching, partition_switch_ms, start_index, clock)
