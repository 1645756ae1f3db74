"""Topic names, parsed as the broker's ``TopicName.get`` parses them.

:class:`TopicName` gives a name's parts and its canonical form (the text
the broker hashes to place the topic in a bundle), under the rules of the
4.2 release by default (checked against Pulsar 4.2.4), of an older 4.x line
that still accepts V1 names (``rules="v4"``) or of 5.0
(``rules="master"``); :func:`get_partition_index`
is Java's ``TopicName.getPartitionIndex``. A name Java rejects raises
:class:`TopicNameError` with Java's message.

>>> from pulsar_routing.topics import TopicName, get_partition_index
>>> str(TopicName("my-topic-partition-3"))
'persistent://public/default/my-topic-partition-3'
>>> get_partition_index("x-partition-01")
-1
"""

from __future__ import annotations

from ._pulsar_routing import TopicName, TopicNameError, get_partition_index

__all__ = ["TopicName", "TopicNameError", "get_partition_index"]
