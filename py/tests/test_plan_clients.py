"""pulsar_routing.plan: cross-client divergence over every pair of client setups."""

from __future__ import annotations

import json

import numpy as np
import pytest

import pulsar_routing as pr
from pulsar_routing.__main__ import main
from pulsar_routing.plan import (
    DEFAULT_CLIENT_SETUPS,
    ClientDivergenceReport,
    client_divergence,
    demo_orders,
    divergence,
    run_demo,
    setup_partitions,
)

KEYS = [f"customer-{i * 7919}" for i in range(20_000)]


def test_go_and_java_agree_on_ascii_keys_for_powers_of_two() -> None:
    report = client_divergence(KEYS, [12, 16, 32], ["java", "go"])
    assert report.share("go", "java", 16) == 0.0
    assert report.share("java", "go", 32) == 0.0
    assert report.share("java", "go", 12) > 0.3
    assert report.share("java", "java", 12) == 0.0
    with pytest.raises(KeyError):
        report.share("java", "kafka", 12)


def test_every_pair() -> None:
    report = client_divergence(KEYS, [12, 16])
    assert report.setups == list(DEFAULT_CLIENT_SETUPS)
    k = len(report.setups)
    assert len(report.pairs) == k * (k - 1) // 2 * 2
    # Murmur3_32Hash: Java and C++ agree; DotPulsar and pulsar-rs (unmasked) only for powers of two.
    assert report.share("java:murmur3_32", "dotpulsar", 16) == 0.0
    assert 0.4 < report.share("java:murmur3_32", "dotpulsar", 12) < 0.6
    assert report.share("pulsar-rs:round_robin", "dotpulsar", 12) == 0.0
    assert report.share("java", "cpp:java_string", 12) == 0.0  # ASCII keys: signed char is harmless
    # Kafka murmur2 against Pulsar's Murmur3_32: unrelated hashes.
    assert report.share("kafka", "java:murmur3_32", 12) == pytest.approx(1 - 1 / 12, abs=0.02)
    data = json.loads(report.to_json())
    assert data["pairs"][0]["setup_a"] == "java"
    assert "Cross-client divergence" in str(report)


def test_pairs_match_the_bindings() -> None:
    report = client_divergence(KEYS[:5000], 12, ["go", "kafka"])
    (pair,) = report.pairs
    go = pr.profile_partitions(KEYS[:5000], 12, "go")
    kafka = pr.kafka_partitions(KEYS[:5000], 12)
    assert pair.differing_keys == int((go != kafka).sum())
    assert pair.differing_traffic_share == pytest.approx(pair.differing_key_share)


def test_keyless_keys_and_weights() -> None:
    keys = ["", "a", "b"]
    report = client_divergence(keys, 16, ["java", "go"], weights=[10, 1, 1])
    (pair,) = report.pairs
    assert (pair.differing_keys, pair.keyless_keys) == (1, 1)  # Go routes "" as keyless
    assert pair.differing_traffic_share == pytest.approx(10 / 12)


def test_unreproducible_and_unknown_setups() -> None:
    report = client_divergence(KEYS[:100], 12, ["java", "cpp", "python", "go"])
    assert report.setups == ["java", "python", "go"]  # Python's Boost is the wheel's
    assert set(report.skipped) == {"cpp"} and "BoostHash" in report.skipped["cpp"]
    assert "skipped cpp" in str(report)
    with pytest.raises(pr.ProfileConfigError):
        client_divergence(KEYS[:10], 12, ["java", "nope"])
    with pytest.raises(pr.ProfileConfigError):
        setup_partitions(KEYS[:10], 12, "kafka:sticky")


def test_setup_partitions() -> None:
    keys = np.array(KEYS[:100], dtype=object)
    assert setup_partitions(keys, 12, "cpp:boost_1_74_x86_64").tolist() == pr.profile_partitions(
        keys, 12, "cpp", scheme="boost", boost="1.74"
    ).tolist()
    for option, release in [("boost_1_74", "1.74"), ("boost_1_81", "1.81"), ("boost_1_84", "1.84")]:
        for profile in ("cpp", "python"):
            assert (
                setup_partitions(keys, 12, f"{profile}:{option}").tolist()
                == pr.profile_partitions(keys, 12, profile, boost=release).tolist()
            )
    assert setup_partitions(keys, 12, "python").tolist() == setup_partitions(keys, 12, "python:boost_1_85").tolist()
    with pytest.raises(pr.ProfileConfigError):
        setup_partitions(keys, 12, "cpp:boost_1_99")
    assert (setup_partitions(keys, 12, "pulsar-rs") == -1).all()
    assert setup_partitions(keys, 12, "kafka:fnv1a").tolist() == pr.kafka_partitions(keys, 12, "fnv1a").tolist()


def test_boost_generations_diverge() -> None:
    """Moving from a C++ build with Boost 1.74 to the current wheel moves almost every key."""
    report = client_divergence(KEYS[:5000], [12, 16], ["cpp:boost_1_74", "python", "python:boost_1_84"])
    assert report.share("cpp:boost_1_74", "python", 12) > 0.85
    assert report.share("python", "python:boost_1_84", 16) == 0.0
    assert any("Boost" in note and "cpp:boost_1_74" in note for note in report.notes)


def test_divergence_takes_client_setups() -> None:
    report = divergence(KEYS, [12, 16], "java", "go")
    assert [r.differing_keys for r in report.rows][1] == 0
    assert report.rows[0].differing_keys == client_divergence(KEYS, 12, ["java", "go"]).pairs[0].differing_keys
    assert divergence(KEYS, 12, "java_string", "java").rows[0].differing_keys == 0


def test_demo_and_cli(capsys: pytest.CaptureFixture[str]) -> None:
    demo = run_demo(key_shared=False)
    assert isinstance(demo.client_divergence, ClientDivergenceReport)
    assert "every pair of clients" in str(demo)
    assert main(["plan", "clients", "--demo-data", "orders", "-n", "12", "16", "--setups", "java", "go", "kafka"]) == 0
    out = capsys.readouterr().out
    assert "java" in out and "kafka" in out
    assert main(["plan", "clients", "--demo-data", "orders", "-n", "16", "--setups", "java", "go", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pairs"][0]["differing_keys"] == 0
    assert len(demo_orders().keys) > 0


def test_cpp_short_cast_is_reported_above_32767_partitions() -> None:
    from pulsar_routing.plan import client_divergence

    keys = [f"user-{i}" for i in range(2_000)]
    report = client_divergence(keys, 100_000, ["java:murmur3_32", "cpp:murmur3_32"])
    # Keys whose partition is below 32768 agree; the rest move or fail.
    java = pr.partitions_for_keys(keys, 100_000, scheme="murmur3_32")
    moved = int((java >= 32_768).sum())
    (pair,) = report.pairs
    assert pair.differing_keys == moved
    assert pair.keyless_keys == 0
    assert any("fails the send" in note and "cpp:murmur3_32" in note for note in report.notes)
    # Above 32767 partitions C++ and Python producers are warned about even
    # when no sampled key fails (lazy start indexes producers with a short).
    report = client_divergence(["a"], 40_000, ["java", "python"])
    assert any("more than 32767" in note and "python" in note for note in report.notes)
    assert not any("more than 32767" in n for n in client_divergence(["a"], 32_767, ["python"]).notes)
