"""Topic to namespace bundle, and the broker's bundle splits.

:class:`NamespaceBundles` is a namespace's bundle layout (the broker's
default one of ``k`` bundles, or explicit boundaries): it finds a topic's
:class:`BundleRange` by the CRC-32 of the canonical topic name, for one
topic or many, and splits bundles with the broker's algorithms.
:func:`topic_bundle` names one topic's bundle; :func:`default_boundaries`,
:func:`parse_boundary` and :func:`validate_full_range` are the broker's
helpers for boundaries. A bad layout, range or split raises
:class:`BundleError` with the broker's message.

>>> from pulsar_routing.bundles import NamespaceBundles, topic_bundle
>>> topic_bundle("my-topic", 4)
'0x00000000_0x40000000'
>>> NamespaceBundles(4).bundle_for_topic("my-topic").key("public/default")
'public/default/0x00000000_0x40000000'
"""

from __future__ import annotations

from ._pulsar_routing import (
    BundleError,
    BundleRange,
    NamespaceBundles,
    default_boundaries,
    parse_boundary,
    topic_bundle,
    validate_full_range,
)

__all__ = [
    "BundleError",
    "BundleRange",
    "NamespaceBundles",
    "default_boundaries",
    "parse_boundary",
    "topic_bundle",
    "validate_full_range",
]
