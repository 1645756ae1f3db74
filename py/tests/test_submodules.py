"""The package's submodules, one per core module: each holds its names, the
top level still holds every name it held, and the planner sees only the
public API."""

from __future__ import annotations

import ast
import doctest
import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest

import pulsar_routing as pr
from pulsar_routing import _pulsar_routing

# The package's `__all__` before the submodules existed, written out so that
# a name dropped from the top level fails here rather than in a user's code.
TOP_LEVEL_BEFORE = """
    Backoff CoalescingTableFullError LookupAction LookupCoalescer
    LookupFailedError LookupThrottle LookupTimeoutError MetadataCoalescer
    PartitionedMetadataLookup RedirectLoopError TooManyRedirectsError
    TooManyRequestsError TopicLookup TopicLookupError producer_start_topics
    PendingQueue ProducerQueueIsFullError Readiness
    required_max_pending_messages SenderConfig SenderConfigError SenderError
    SenderGate SenderNotReadyError KAFKA_MURMUR2_SEED NONE_KEY
    AutoSplitSelector BundleError BundleRange ConsistentHashingSelector
    ConsumerAssignError Crc32 CustomRouter DivisionByZeroError
    ExclusiveSelector IllegalPartitionIndexError Impact
    KafkaBuiltInPartitioner KafkaJavaClientPartitioner KafkaMurmur2Hasher
    KafkaPartitionError KeySharedPolicyError LibrdkafkaProducer
    MessageRouter MessageRoutingMode Murmur3Hasher NamespaceBundles
    PartitionCountError ProfileConfigError ProfileRouteError ProfileRouter
    PulsarRoutingError RoundRobinRouter RoutingConfigError
    SelectorConfigError SinglePartitionRouter TopicName TopicNameError
    UnknownHashingSchemeError __version__ boost_hash_1_74_x86_64_raw
    check_partition cpp_partition_index cpp_partitioned_producer_check crc32
    default_boundaries get_partition_index go_atoi go_partition_index
    java_lossy_utf8 java_string_hash java_string_hash_bytes
    java_string_hashcode java_string_hashcode_bytes kafka_fnv1a
    kafka_murmur2 kafka_partition kafka_partition_load_stats
    kafka_partitions kafka_to_positive librdkafka_default_sticky_linger_ms
    librdkafka_partition librdkafka_random_partition murmur3_32
    murmur3_32_raw parse_boundary partition_for_key partition_for_key_bytes
    partition_switch_ms partitions_for_keys profile_key_hash
    profile_key_hash_name profile_partition profile_partitions
    resolve_routing_mode ring_point routing_key_hash sign_safe_mod
    sticky_key sticky_key_hash sticky_key_hashes topic_bundle
    validate_full_range validate_sticky_ranges
""".split()

# What belongs to the package itself: the base of every submodule's errors,
# and the version.
PACKAGE_OWN = {"PulsarRoutingError", "__version__"}

# Each submodule's exact `__all__`, following the core's module map (the
# crate root's hashes and sign_safe_mod in `hashes`; its routers, routing
# keys and partition count in `routers`; `topic_name` as `topics`).
SUBMODULES: dict[str, set[str]] = {
    "hashes": set(
        """
        Crc32 DivisionByZeroError Murmur3Hasher crc32 java_lossy_utf8
        java_string_hash java_string_hash_bytes java_string_hashcode
        java_string_hashcode_bytes murmur3_32 murmur3_32_raw
        sign_safe_mod
        """.split()
    ),
    "routers": set(
        """
        CustomRouter IllegalPartitionIndexError MessageRouter
        MessageRoutingMode PartitionCountError RoundRobinRouter
        RoutingConfigError SinglePartitionRouter
        UnknownHashingSchemeError check_partition partition_for_key
        partition_for_key_bytes partition_switch_ms partitions_for_keys
        resolve_routing_mode routing_key_hash
        """.split()
    ),
    "topics": {"TopicName", "TopicNameError", "get_partition_index"},
    "bundles": set(
        """
        BundleError BundleRange NamespaceBundles default_boundaries
        parse_boundary topic_bundle validate_full_range
        """.split()
    ),
    "key_shared": set(
        """
        NONE_KEY AutoSplitSelector ConsistentHashingSelector
        ConsumerAssignError ExclusiveSelector Impact
        KeySharedPolicyError SelectorConfigError ring_point sticky_key
        sticky_key_hash sticky_key_hashes validate_sticky_ranges
        """.split()
    ),
    "lookup": set(
        """
        Backoff CoalescingTableFullError LookupAction LookupCoalescer
        LookupFailedError LookupThrottle LookupTimeoutError
        MetadataCoalescer PartitionedMetadataLookup RedirectLoopError
        ReplayStep TooManyRedirectsError TooManyRequestsError
        TopicLookup TopicLookupError explain producer_start_topics
        replay
        """.split()
    ),
    "sender": set(
        """
        PendingQueue ProducerQueueIsFullError Readiness ReplayStep
        SenderConfig SenderConfigError SenderError SenderGate
        SenderNotReadyError replay required_max_pending_messages
        """.split()
    ),
    "profiles": set(
        """
        ProfileConfigError ProfileRouteError ProfileRouter
        boost_hash_1_74_x86_64_raw cpp_partition_index
        cpp_partitioned_producer_check go_atoi go_partition_index
        profile_key_hash profile_key_hash_name profile_partition
        profile_partitions
        """.split()
    ),
    "key_counts": {"KeyCounts", "KeyCountsError"},
    "kafka": set(
        """
        KAFKA_MURMUR2_SEED KafkaBuiltInPartitioner
        KafkaJavaClientPartitioner KafkaMurmur2Hasher
        KafkaPartitionError LibrdkafkaProducer kafka_fnv1a kafka_murmur2
        kafka_partition kafka_partition_load_stats kafka_partitions
        kafka_to_positive librdkafka_default_sticky_linger_ms
        librdkafka_partition librdkafka_random_partition
        """.split()
    ),
}

# The pure-Python replays, reached through their submodule only: the two
# `replay`s and `ReplayStep`s are different functions and classes.
SUBMODULE_ONLY = {"lookup": {"ReplayStep", "explain", "replay"}, "sender": {"ReplayStep", "replay"}}

PACKAGE_DIR = Path(pr.__file__).resolve().parent
README = PACKAGE_DIR.parents[1] / "README.md"


def submodule(name: str) -> ModuleType:
    return importlib.import_module(f"pulsar_routing.{name}")


def test_every_name_of_the_top_level_before_is_still_there() -> None:
    assert len(TOP_LEVEL_BEFORE) == len(set(TOP_LEVEL_BEFORE))
    missing = [name for name in TOP_LEVEL_BEFORE if not hasattr(pr, name)]
    assert missing == []
    assert set(TOP_LEVEL_BEFORE) <= set(pr.__all__)
    star: dict[str, object] = {}
    exec("from pulsar_routing import *", star)
    assert set(TOP_LEVEL_BEFORE) <= set(star)


@pytest.mark.parametrize("name", sorted(SUBMODULES))
def test_submodule_all_is_exact(name: str) -> None:
    module = submodule(name)
    assert len(module.__all__) == len(set(module.__all__))
    assert set(module.__all__) == SUBMODULES[name]
    for attr in module.__all__:
        assert hasattr(module, attr), f"{name}.{attr}"
    star: dict[str, object] = {}
    exec(f"from pulsar_routing.{name} import *", star)
    assert set(star) - {"__builtins__"} == SUBMODULES[name]


@pytest.mark.parametrize("name", sorted(SUBMODULES))
def test_submodule_names_are_the_top_level_objects(name: str) -> None:
    module = submodule(name)
    for attr in SUBMODULES[name] - SUBMODULE_ONLY.get(name, set()):
        assert getattr(module, attr) is getattr(pr, attr), f"{name}.{attr}"
        # A re-export of the native object, not a wrapper around it.
        if hasattr(_pulsar_routing, attr):
            assert getattr(module, attr) is getattr(_pulsar_routing, attr), f"{name}.{attr}"


def test_every_public_name_lives_in_exactly_one_submodule() -> None:
    homes: dict[str, list[str]] = {}
    for name, attrs in SUBMODULES.items():
        for attr in attrs - SUBMODULE_ONLY.get(name, set()):
            homes.setdefault(attr, []).append(name)
    assert {attr: where for attr, where in homes.items() if len(where) > 1} == {}
    assert set(homes) | PACKAGE_OWN == set(pr.__all__)
    assert not set(homes) & PACKAGE_OWN
    # Whatever the native module offers has a home, so a name added there
    # without one fails here.
    native = {attr for attr in dir(_pulsar_routing) if not attr.startswith("_")}
    assert native - set(homes) == {"PulsarRoutingError"}
    # The replays stay out of the top level, where two `replay`s would clash.
    for attrs in SUBMODULE_ONLY.values():
        assert not attrs & set(pr.__all__)


def test_submodules_are_attributes_of_the_package() -> None:
    for name in [*SUBMODULES, "plan"]:
        # The planner is imported on first use (numpy, rich), hence the order.
        module = submodule(name)
        assert getattr(pr, name) is module
        # A submodule never hides a top-level name of the same spelling.
        assert name not in pr.__all__


def test_message_router_protocol_lives_in_routers() -> None:
    assert pr.MessageRouter is submodule("routers").MessageRouter
    assert pr.MessageRouter.__module__ == "pulsar_routing.routers"


@pytest.mark.parametrize("name", sorted(SUBMODULES))
def test_submodule_docstring_examples(name: str) -> None:
    module = submodule(name)
    assert module.__doc__
    result = doctest.testmod(module, raise_on_error=False, verbose=False)
    assert result.attempted > 0
    assert result.failed == 0


def _private(name: str) -> bool:
    """An underscored name that is not a dunder such as ``__version__``."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _private_imports(path: Path, package: str) -> list[str]:
    """What `path`, a module of `package`, imports past the public API."""
    planner = "pulsar_routing.plan"
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        where = f"{path.name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                if any(_private(part) for part in alias.name.split(".")):
                    found.append(f"{where}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if not module.startswith("pulsar_routing"):
                continue
            if any(_private(part) for part in module.split(".")):
                found.append(f"{where}: from {module}")
            # The planner's own underscored helpers are its business; the
            # package's are not.
            if module == planner or module.startswith(planner + "."):
                continue
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{where}: from {module} import {alias.name}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            # importlib.import_module("pulsar_routing._pulsar_routing") and the like.
            if re.search(r"\b_pulsar_routing\b", node.value):
                found.append(f"{where}: string {node.value!r}")
        elif isinstance(node, ast.Attribute) and node.attr == "_pulsar_routing":
            found.append(f"{where}: attribute _pulsar_routing")
    return found


def test_planner_uses_only_the_public_api() -> None:
    sources = sorted((PACKAGE_DIR / "plan").rglob("*.py"))
    assert len(sources) > 5
    found = [
        line
        for path in sources
        for line in _private_imports(path, ".".join(path.relative_to(PACKAGE_DIR.parent).parts[:-1]))
    ]
    assert found == []


def test_the_planner_check_catches_private_imports(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from .._pulsar_routing import sticky_key\n"
        "from .. import _pulsar_routing as native\n"
        "from pulsar_routing import _private\n"
        "import pulsar_routing._pulsar_routing\n"
        "def f():\n"
        "    from ..key_shared import _hidden\n"
        "from .inputs import _pyarrow\n"
        "from .. import __version__\n"
        "from ..key_shared import sticky_key_hash\n",
        encoding="utf-8",
    )
    found = _private_imports(bad, "pulsar_routing.plan")
    assert sorted(line.split(": ", 1)[1] for line in found) == sorted([
        "from pulsar_routing._pulsar_routing",
        "from pulsar_routing import _pulsar_routing",
        "from pulsar_routing import _private",
        "import pulsar_routing._pulsar_routing",
        "from pulsar_routing.key_shared import _hidden",
    ])


def test_readme_lists_every_submodule() -> None:
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Modules\n", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `pulsar_routing\.(\w+)` \|", section, re.MULTILINE))
    assert listed == {*SUBMODULES, "plan"}
