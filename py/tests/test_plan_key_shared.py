"""pulsar_routing.plan Key_Shared balance, on the core's selectors.

Skipped until the build has the Key_Shared bindings (the selectors and
sticky_key_hash). The bindings are reached through an Any alias so that
mypy passes with or without them in the stub.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import pulsar_routing as pr
from pulsar_routing.plan import (
    KeySharedUnavailable,
    analyze_key_shared,
    exclusive_ranges,
    key_sample,
    key_shared_available,
    key_shared_balance,
    key_slots,
)
from pulsar_routing.plan import key_shared as ks_module

native: Any = pr

pytestmark = pytest.mark.skipif(
    not hasattr(pr, "ConsistentHashingSelector") or not hasattr(pr, "sticky_key_hash"),
    reason="this build has no Key_Shared bindings yet",
)

rng = np.random.default_rng(9)
KEYS = [f"order-{x}" for x in rng.integers(0, 10**9, size=5000)]
WEIGHTS = rng.integers(1, 20, size=5000).astype(np.float64)


def consumer_of_each_key(selector: Any, keys: list[str]) -> list[int]:
    """The reference: the core's own per-key selection."""
    out = []
    for key in keys:
        c = selector.select(native.sticky_key_hash(key.encode(), "consistent_hashing"))
        out.append(-1 if c is None else c)
    return out


def test_available() -> None:
    assert key_shared_available()


def test_consistent_hashing_traffic_matches_the_core() -> None:
    report = key_shared_balance(KEYS, 5, "consistent_hashing", weights=WEIGHTS)
    sel = native.ConsistentHashingSelector()
    for i in range(5):
        sel.add(i, f"consumer-{i}")
    owners = np.asarray(consumer_of_each_key(sel, KEYS))
    want = np.bincount(owners, weights=WEIGHTS, minlength=5)
    assert [c.traffic for c in report.consumers] == pytest.approx(want.tolist())
    assert [c.keys for c in report.consumers] == np.bincount(owners, minlength=5).tolist()
    assert sum(c.traffic_share for c in report.consumers) == pytest.approx(1.0)
    assert sum(c.slot_share for c in report.consumers) == pytest.approx(1.0)
    assert report.imbalance == pytest.approx(want.max() / want.mean())
    assert report.unassigned_traffic_share == 0


def test_key_slots_are_sticky_key_hashes() -> None:
    keys = ["a", "b", "Grüße"]
    slots = key_slots(key_sample(keys), "auto_split")
    sample = key_sample(keys)
    assert slots.tolist() == [native.sticky_key_hash(str(k).encode(), "auto_split") for k in sample.key_list()]
    raw = key_slots([b"\x00\x01"], "exclusive")
    assert raw.tolist() == [native.sticky_key_hash(b"\x00\x01", "exclusive")]


def test_consistent_join_moves_only_to_the_new_consumer() -> None:
    report = key_shared_balance(KEYS, 6, "consistent_hashing", weights=WEIGHTS)
    join = report.join
    assert join is not None and join.consumer == "consumer-6"
    assert join.gainers == ["consumer-6"]
    assert 0 < join.moved_traffic_share < 0.5
    # Consistent hashing never moves a range between two consumers that both stay:
    # what moves is exactly the new consumer's traffic.
    after = key_shared_balance(KEYS, 7, "consistent_hashing", weights=WEIGHTS, join=False)
    assert join.moved_traffic_share == pytest.approx(after.consumers[6].traffic_share)
    leave = report.leave
    assert leave is not None and leave.consumer == "consumer-5" and leave.losers == ["consumer-5"]
    assert leave.moved_traffic_share == pytest.approx(report.consumers[5].traffic_share)
    assert leave.orphaned_traffic_share == 0


def test_auto_split_shapes() -> None:
    four = key_shared_balance(KEYS, 4, "auto_split")
    assert [c.slot_share for c in four.consumers] == pytest.approx([0.25] * 4, abs=1e-4)
    three = key_shared_balance(KEYS, 3, "auto_split")
    assert sorted(round(c.slot_share, 2) for c in three.consumers) == [0.25, 0.25, 0.5]
    assert three.slot_imbalance == pytest.approx(1.5, abs=0.01)
    assert any("power of two" in n for n in three.notes)
    assert three.join is not None and len(three.join.losers) == 1


def test_exclusive_leave_orphans_its_range() -> None:
    report = key_shared_balance(KEYS, 4, "exclusive", weights=WEIGHTS, leave="consumer-1")
    assert report.join is None
    assert [c.slot_share for c in report.consumers] == pytest.approx([0.25] * 4, abs=1e-4)
    leave = report.leave
    assert leave is not None and leave.consumer == "consumer-1"
    assert leave.moved_traffic_share == 0
    assert leave.orphaned_traffic_share == pytest.approx(report.consumers[1].traffic_share)


def test_exclusive_ranges_tile_the_space() -> None:
    for n in (1, 3, 7, 1000):
        ranges = [r for rs in exclusive_ranges(n) for r in rs]
        assert ranges[0][0] == 0 and ranges[-1][1] == 65535
        assert all(a[1] + 1 == b[0] for a, b in zip(ranges, ranges[1:]))
        native.validate_sticky_ranges(ranges)


def test_names_keyless_and_analysis() -> None:
    report = key_shared_balance(["a", "b", None, None], ["x", "y"], "consistent_hashing")
    assert [c.name for c in report.consumers] == ["x", "y"]
    assert sum(c.traffic for c in report.consumers) == pytest.approx(4.0)
    analysis = analyze_key_shared(KEYS, 7)
    assert [r.selector for r in analysis.reports] == ["consistent_hashing", "auto_split", "exclusive"]
    text = str(analysis)
    assert "Key_Shared balance" in text and "consumer-6" in text
    assert analysis.to_dict()["reports"][0]["selector"] == "consistent_hashing"
    with pytest.raises(ValueError, match="no consumer named"):
        key_shared_balance(KEYS, 3, leave="nobody")
    with pytest.raises(ValueError, match="unknown selector"):
        key_shared_balance(KEYS, 3, "random")


def test_unavailable_bindings_raise_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> ks_module.Bindings:
        raise KeySharedUnavailable("no Key_Shared bindings")

    monkeypatch.setattr(ks_module, "_bindings", missing)
    assert not key_shared_available()
    with pytest.raises(KeySharedUnavailable):
        key_shared_balance(KEYS, 3)


def test_per_key_fallbacks_agree_with_the_batch_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """Builds without sticky_key_hashes / select_slots get the same answers, one call at a time."""
    real = ks_module._bindings()
    batch = key_shared_balance(KEYS[:500], 5, "consistent_hashing", weights=WEIGHTS[:500])

    class SelectOnly:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def add(self, *args: Any) -> Any:
            return self.inner.add(*args)

        def remove(self, consumer_id: int) -> Any:
            return self.inner.remove(consumer_id)

        def select(self, slot: int) -> int | None:
            result: int | None = self.inner.select(slot)
            return result

    def slow() -> ks_module.Bindings:
        return ks_module.Bindings(
            sticky_key_hash=real.sticky_key_hash,
            auto_split=lambda **kw: SelectOnly(real.auto_split(**kw)),
            consistent_hashing=lambda **kw: SelectOnly(real.consistent_hashing(**kw)),
            exclusive=lambda **kw: SelectOnly(real.exclusive(**kw)),
            sticky_key_hashes=None,
        )

    monkeypatch.setattr(ks_module, "_bindings", slow)
    assert key_shared_balance(KEYS[:500], 5, "consistent_hashing", weights=WEIGHTS[:500]) == batch
