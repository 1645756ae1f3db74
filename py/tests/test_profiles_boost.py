"""testdata/boost/boost_hash.jsonl.gz: boost::hash<std::string> printed by a
program compiled against real Boost headers (Debian, PyPI and
boostorg/container_hash release tags), with signed and unsigned char. Every
row must agree with the generation its release maps to, through the Python
API: the key hash by name, keyed routing of the cpp and python profiles, and
their routers."""

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

import pulsar_routing as pr

BOOST = Path(__file__).resolve().parents[2] / "testdata" / "boost" / "boost_hash.jsonl.gz"

# Boost release -> generation, from boostorg/container_hash's history.
GENERATIONS = [(33, 61, "1_33"), (62, 80, "1_62"), (81, 81, "1_81"), (82, 91, "1_82")]
PER_CHAR = {"1_33", "1_62"}


def generation(release: str) -> str:
    minor = int(release.split(".")[1])
    return next(name for low, high, name in GENERATIONS if low <= minor <= high)


def rows() -> list[dict[str, Any]]:
    with gzip.open(BOOST, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def test_every_row_agrees_with_its_generation() -> None:
    seen = set()
    all_rows = rows()
    assert len(all_rows) > 10_000
    for row in all_rows:
        gen = generation(row["boost"])
        seen.add(gen)
        unsigned = row["char"] == "unsigned"
        data = bytes.fromhex(row["key_hex"])
        name = f"cpp_boost_{gen}" + ("_unsigned_char" if unsigned and gen in PER_CHAR else "")
        assert pr.profile_key_hash_name("cpp", boost=row["boost"], unsigned_char=unsigned) == name
        assert pr.profile_key_hash(data, name) == row["hash"] & 0x7FFF_FFFF, row
        if gen == "1_62" and not unsigned:
            assert pr.boost_hash_1_74_x86_64_raw(data) == row["hash"], row
    assert seen == {name for _, _, name in GENERATIONS}


def test_profiles_route_with_the_named_boost() -> None:
    signed = [row for row in rows() if row["char"] == "signed"]
    for release in sorted({row["boost"] for row in signed}):
        subset = [row for row in signed if row["boost"] == release]
        keys = [bytes.fromhex(row["key_hex"]).decode("utf-8", "surrogateescape") for row in subset]
        text = [(k, row) for k, row in zip(keys, subset) if k.isprintable() and k]
        n = 13
        got = pr.profile_partitions([k for k, _ in text], n, "cpp", boost=release).tolist()
        assert got == [(row["hash"] & 0x7FFF_FFFF) % n for _, row in text], release
        python = pr.profile_partitions([k for k, _ in text], n, "python", boost=release).tolist()
        assert python == got
        router = pr.ProfileRouter("cpp", boost=release)
        assert [router.route(k, n, now_ns=0) for k, _ in text] == got


def test_python_default_is_the_current_wheel() -> None:
    """pulsar-client 3.6 and later bundle a C++ client built with Boost 1.83 or later."""
    for row in rows():
        if row["boost"] != "1.85" or row["char"] != "signed":
            continue
        key = bytes.fromhex(row["key_hex"])
        try:
            text = key.decode()
        except UnicodeDecodeError:
            continue
        if text:
            assert pr.profile_partition(text, 1009, "python") == (row["hash"] & 0x7FFF_FFFF) % 1009


@pytest.mark.parametrize("release", ["1.32", "1.92", "2.0", "1", "1.74.", "one"])
def test_unknown_releases_are_refused(release: str) -> None:
    with pytest.raises(pr.ProfileConfigError, match="Boost release"):
        pr.profile_partition("k", 3, "cpp", boost=release)


def test_boost_only_for_cpp_and_python() -> None:
    for profile in ("java", "go", "pulsar-rs", "dotpulsar"):
        with pytest.raises(pr.ProfileConfigError, match="does not use Boost"):
            pr.profile_partition("k", 3, profile, boost="1.74")
    with pytest.raises(pr.ProfileConfigError, match="boost= only"):
        pr.profile_partition("k", 3, "cpp", boost="1.85", boost_1_74_x86_64=True)


def test_options_a_client_lacks_are_refused() -> None:
    """Issue 15: `unsigned_char` describes C++ and Python builds; other clients raise, not ignore it."""
    for profile in ("java", "go", "pulsar-rs", "dotpulsar"):
        with pytest.raises(pr.ProfileConfigError, match="unsigned_char"):
            pr.profile_partition("k", 3, profile, unsigned_char=True)
        with pytest.raises(pr.ProfileConfigError, match="unsigned_char"):
            pr.ProfileRouter(profile, unsigned_char=True)
    assert pr.profile_partition("k", 3, "cpp", scheme="java_string", unsigned_char=True) is not None


def test_cpp_refuses_batching_max_messages_below_two() -> None:
    """C++'s setBatchingMaxMessages throws for 0 and 1 (a ValueError from pulsar-client)."""
    for profile in ("cpp", "python"):
        for max_messages in (0, 1):
            with pytest.raises(pr.ProfileConfigError, match="batchingMaxMessages needs to be greater than 1"):
                pr.ProfileRouter(profile, batching_max_messages=max_messages)
        pr.ProfileRouter(profile, batching_max_messages=2)
    pr.ProfileRouter("go", batching_max_messages=1)


def test_lazy_start_shifts_batching_by_one_message() -> None:
    """Measured on pulsar-client 3.13: with lazy_start_partitioned_producers and batching by M messages,
    the first keyless partition switch came after M - 1 messages (the producer's start routes one)."""
    for m in (2, 5, 10):
        for lazy, expected in ((False, m), (True, m - 1)):
            router = pr.ProfileRouter(
                "python",
                batching=True,
                batching_max_messages=m,
                batching_max_publish_delay_ns=10**12,
                lazy_start_partitioned_producers=lazy,
                start=3,
            )
            first = router.route(None, 7, now_ns=0)
            switched = next(i for i in range(1, 100) if router.route(None, 7, now_ns=0) != first)
            assert switched == expected, (m, lazy)
    with pytest.raises(pr.ProfileConfigError, match="lazy_start"):
        pr.ProfileRouter("go", lazy_start_partitioned_producers=True)
