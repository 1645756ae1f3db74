"""Key_Shared subscriptions: message key to consumer, as the broker assigns it.

:func:`sticky_key` resolves a message's sticky key from its fields
(:data:`NONE_KEY` when it has none), :func:`sticky_key_hash` and
:func:`sticky_key_hashes` reduce keys to a selector's slots. The broker's
three selectors, :class:`ConsistentHashingSelector` (the default),
:class:`AutoSplitSelector` and :class:`ExclusiveSelector`, give every slot
to a consumer, and each ``add`` and ``remove`` returns the :class:`Impact`
(the ranges each consumer lost and gained). :func:`ring_point` is one point
of a consumer's hash ring, :func:`validate_sticky_ranges` the Java client's
check of sticky ranges. Errors: :class:`ConsumerAssignError`,
:class:`SelectorConfigError` and :class:`KeySharedPolicyError`.

>>> from pulsar_routing.key_shared import ConsistentHashingSelector, sticky_key_hash
>>> selector = ConsistentHashingSelector()
>>> selector.add(1, "consumer-a")
Impact(removed={}, added={1: [(1, 65535)]})
>>> selector.select_key("order-17") == selector.select(sticky_key_hash("order-17", "consistent_hashing")) == 1
True
"""

from __future__ import annotations

from ._pulsar_routing import (
    NONE_KEY,
    AutoSplitSelector,
    ConsistentHashingSelector,
    ConsumerAssignError,
    ExclusiveSelector,
    Impact,
    KeySharedPolicyError,
    SelectorConfigError,
    ring_point,
    sticky_key,
    sticky_key_hash,
    sticky_key_hashes,
    validate_sticky_ranges,
)

__all__ = [
    "NONE_KEY",
    "AutoSplitSelector",
    "ConsistentHashingSelector",
    "ConsumerAssignError",
    "ExclusiveSelector",
    "Impact",
    "KeySharedPolicyError",
    "SelectorConfigError",
    "ring_point",
    "sticky_key",
    "sticky_key_hash",
    "sticky_key_hashes",
    "validate_sticky_ranges",
]
