"""TopicName and get_partition_index: Java's parsing rules, Python's manners."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

import pulsar_routing as pr

# For calls that break the stub's types on purpose.
untyped: Any = pr


def test_short_and_full_names() -> None:
    topic = pr.TopicName("my-topic-partition-3")
    assert str(topic) == "persistent://public/default/my-topic-partition-3"
    assert topic.domain == "persistent"
    assert (topic.tenant, topic.namespace_portion, topic.namespace) == (
        "public",
        "default",
        "public/default",
    )
    assert topic.cluster is None
    assert topic.local_name == "my-topic-partition-3"
    assert topic.partition_index == 3 and topic.partitioned
    assert topic.partitioned_topic_name == "persistent://public/default/my-topic"
    assert topic.persistent
    assert topic.segment_descriptor is None
    assert topic.rules == "4.2"
    assert topic.crc32 == pr.crc32(str(topic))
    # getPartition appends unless the name already ends with that suffix.
    assert topic.partition(3) == str(topic)
    assert topic.partition(4) == "persistent://public/default/my-topic-partition-3-partition-4"
    assert topic.partition(-1) == str(topic)


def test_v1_names_and_encodings() -> None:
    v1 = pr.TopicName("non-persistent://tenant/cluster/ns/a b/é", rules="v4")
    assert v1.cluster == "cluster"
    assert v1.namespace == "tenant/cluster/ns"
    assert not v1.persistent
    assert v1.local_name == "a b/é"
    assert v1.encoded_local_name == "a+b%2F%C3%A9"
    assert v1.lookup_name == "non-persistent/tenant/cluster/ns/a+b%2F%C3%A9"
    assert v1.persistence_naming == "tenant/cluster/ns/non-persistent/a+b%2F%C3%A9"
    assert v1.rest_path == "non-persistent/tenant/cluster/ns/a+b%2F%C3%A9"


def test_master_rules() -> None:
    with pytest.raises(pr.TopicNameError, match="^V1 topic names"):
        pr.TopicName("persistent://tenant/cluster/ns/topic", rules="master")
    upper = pr.TopicName("PERSISTENT://t/ns/x", rules="master")
    assert str(upper) == "PERSISTENT://t/ns/x"
    assert upper.domain == "persistent"
    assert upper.rules == "master"
    # v4 lowers the domain, so the two names differ, and hash to different bundles.
    lowered = pr.TopicName("PERSISTENT://t/ns/x", rules="v4")
    assert str(lowered) == "persistent://t/ns/x"
    assert upper != lowered
    assert upper.crc32 != lowered.crc32
    segment = pr.TopicName("segment://t/ns/x/0000-ffff-1", rules="master")
    assert segment.segment_descriptor == "0000-ffff-1"
    with pytest.raises(pr.TopicNameError):
        segment.partition(3)


def test_the_default_is_pulsar_4_2() -> None:
    # Java 4.2.4's answers (the golden README's "Printing them again").
    v1 = "persistent://tenant/cluster/ns/topic"
    with pytest.raises(pr.TopicNameError) as raised:
        pr.TopicName(v1)
    assert str(raised.value) == (
        "V1 topic names (with cluster component) are no longer supported. "
        f"Please use the V2 format: '<domain>://tenant/namespace/topic'. Got: {v1}"
    )
    assert pr.TopicName(v1, rules="v4").cluster == "cluster"
    upper = pr.TopicName("PERSISTENT://public/default/upper")
    assert str(upper) == "PERSISTENT://public/default/upper"
    assert upper.rules == "4.2"
    with pytest.raises(pr.TopicNameError, match="^Invalid topic domain: 'segment'$"):
        pr.TopicName("segment://t/ns/x")
    assert pr.TopicName("segment://t/ns/x/0000-ffff-1", rules="master").segment_descriptor


def test_equality_hash_repr_and_pickle() -> None:
    short = pr.TopicName("my-topic")
    full = pr.TopicName("persistent://public/default/my-topic")
    assert short == full and hash(short) == hash(full)
    # The hash is the canonical name's, though a name never equals a str.
    assert hash(short) == hash(str(short))
    assert short != str(short)
    assert short != pr.TopicName("other")
    assert len({short, full, pr.TopicName("other")}) == 2
    assert repr(short) == "TopicName('persistent://public/default/my-topic')"
    master = pr.TopicName("PERSISTENT://t/ns/x", rules="master")
    assert repr(master) == "TopicName('PERSISTENT://t/ns/x', rules='master')"
    v1 = pr.TopicName("persistent://t/c/ns/x", rules="v4")
    assert repr(v1) == "TopicName('persistent://t/c/ns/x', rules='v4')"
    for topic in (short, master, v1, pr.TopicName("t/ns/ünï cødé")):
        assert eval(repr(topic), {"TopicName": pr.TopicName}) == topic
        clone = pickle.loads(pickle.dumps(topic))
        assert clone == topic and clone.rules == topic.rules
        assert copy.deepcopy(topic) == topic


def test_errors_carry_javas_messages() -> None:
    cases = {
        "a/b": "Invalid short topic name 'a/b', it should be in the format of "
        "<tenant>/<namespace>/<topic> or <topic>",
        "kafka://t/ns/x": "Invalid topic domain: 'kafka'",
        "persistent://t/ns/  ": "Invalid topic name: persistent://t/ns/  . "
        "Topic local name must not be blank.",
        "persistent://t!/ns/x": "Invalid named entity: t!",
    }
    for name, message in cases.items():
        with pytest.raises(pr.TopicNameError) as raised:
            pr.TopicName(name)
        assert str(raised.value) == message
        assert isinstance(raised.value, ValueError)


def test_bad_arguments() -> None:
    with pytest.raises(pr.PulsarRoutingError, match='unknown topic name rules "v5"'):
        pr.TopicName("x", rules="v5")
    with pytest.raises(TypeError):
        untyped.TopicName(42)
    with pytest.raises(TypeError):
        untyped.TopicName("x", "master")  # rules is keyword-only
    # A Java String may hold a lone surrogate; a topic name here may not.
    with pytest.raises(UnicodeEncodeError):
        pr.TopicName("x\ud800")
    with pytest.raises(OverflowError):
        pr.TopicName("x").partition(2**31)


@pytest.mark.parametrize(
    ("name", "index"),
    [
        ("x-partition-7", 7),
        ("x-partition-01", -1),
        ("x-partition-+1", -1),
        ("x-partition--1", -1),
        ("x-partition-2147483648", -1),
        ("x-partition-1-partition-2", 2),
        ("x-partition-\u0661\u0662", 12),  # Java's parseInt reads Unicode digits
        ("no-suffix", -1),
    ],
)
def test_get_partition_index(name: str, index: int) -> None:
    assert pr.get_partition_index(name) == index
