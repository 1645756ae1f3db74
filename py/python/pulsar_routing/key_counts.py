"""Distinct keys and their summed weights: the exact sample a capacity plan starts from.

:class:`KeyCounts` counts rows of keys (``str``, ``bytes``, or pyarrow
string and binary arrays, ``None`` and nulls being keyless rows) once, in
Rust, and gives the distinct keys back in byte order, as Python pairs or as
one pyarrow array ready for :func:`pulsar_routing.partitions_for_keys`. A
bad weight raises :class:`KeyCountsError` and adds nothing.

>>> from pulsar_routing.key_counts import KeyCounts
>>> counts = KeyCounts()
>>> counts.add(["b", "a", "b", None], weights=[1.0, 2.0, 3.0, 5.0])
>>> counts.sorted()
[('a', 2.0), ('b', 4.0)]
>>> len(counts), counts.rows, counts.keyless_weight
(2, 4, 5.0)
"""

from __future__ import annotations

from ._pulsar_routing import KeyCounts, KeyCountsError

__all__ = ["KeyCounts", "KeyCountsError"]
