"""The planner lists the clients with a java_router adapter (python+java_router,
cpp+java_router): they route as Java, but for what the client cannot carry."""

from __future__ import annotations

import pytest

from pulsar_routing.plan.cli import main
from pulsar_routing.plan.clients import DEFAULT_CLIENT_SETUPS, client_divergence, setup_partitions
from pulsar_routing.profiles import ProfileConfigError, profile_partitions

KEYS = ["user-42", "é", "键", "😀", "order-17", "polygenelubricants"]


@pytest.mark.parametrize("client", ["python", "cpp"])
@pytest.mark.parametrize("scheme", ["java_string", "murmur3_32"])
def test_adapted_clients_route_as_java(client: str, scheme: str) -> None:
    for n in (1, 7, 12, 1000):
        java = profile_partitions(KEYS, n, "java", scheme=scheme).tolist()
        setup = f"{client}+java_router" + ("" if scheme == "java_string" else f":{scheme}")
        assert setup_partitions(KEYS, n, setup).tolist() == java


def test_what_the_adapted_clients_cannot_carry() -> None:
    keys = ["", b"raw", "user-42"]
    assert setup_partitions(keys, 12, "python+java_router").tolist() == [-1, -2, 4]
    assert setup_partitions(keys, 12, "cpp+java_router").tolist() == [0, -2, 4]
    many = [f"key-{i}" for i in range(500)]
    java = profile_partitions(many, 70_000, "java").tolist()
    got = setup_partitions(many, 70_000, "cpp+java_router").tolist()
    assert got == [p if p <= 32767 else -2 for p in java] and -2 in got


def test_unknown_adapters_are_refused() -> None:
    with pytest.raises(ProfileConfigError):
        setup_partitions(KEYS, 12, "python+boost_router")
    with pytest.raises(ProfileConfigError):
        setup_partitions(KEYS, 12, "dotpulsar+java_router")


def test_the_report_shows_the_adapter_brings_keys_back_to_java() -> None:
    assert {"python+java_router", "cpp+java_router"} <= set(DEFAULT_CLIENT_SETUPS)
    keys = [f"customer-{i:06d}" for i in range(2000)]
    report = client_divergence(keys, [12, 16])
    share = {(p.setup_a, p.setup_b, p.partitions): p.differing_key_share for p in report.pairs}
    for n in (12, 16):
        assert share["java", "python+java_router", n] == 0.0
        assert share["java", "cpp+java_router", n] == 0.0
        assert share["java", "python", n] > 0.5
    assert any("java_router" in note for note in report.notes)


def test_cli_lists_the_adapted_clients(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["clients", "--demo-data", "orders", "-n", "12"]) == 0
    out = capsys.readouterr().out
    assert "python+java_router" in out and "cpp+java_router" in out
    assert main(["divergence", "--demo-data", "orders", "-n", "12",
                 "--schemes", "java", "python+java_router"]) == 0
