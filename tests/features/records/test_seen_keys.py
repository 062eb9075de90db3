"""A run's seen record keys: a key seen twice is found however many keys came between (the table grows),
and every key comes back once, in the order seen, for closing the unseen ones."""

from __future__ import annotations

from marketplace.features.records.service_seen_keys import SeenKeys


def test_a_key_seen_twice_is_found_among_many():
    seen = SeenKeys()
    keys = [f"2026-{i:06d}" for i in range(5000)]
    try:
        assert all(seen.add(k) for k in keys)
        assert [seen.add(k) for k in ("2026-000000", "2026-004999", "2026-002500", "new")] == \
            [False, False, False, True]
        assert seen.count == 5001
        assert list(seen.keys()) == [*keys, "new"]
    finally:
        seen.close()


def test_membership_finds_every_key_seen_and_no_other():
    seen = SeenKeys()
    keys = [f"R-{i}" for i in range(3000)]  # past the first table's size: the probe crosses a grown table
    try:
        for key in keys:
            seen.add(key)
        assert all(key in seen for key in keys)
        assert not any(f"S-{i}" in seen for i in range(3000))
        assert seen.count == 3000  # asking adds nothing
    finally:
        seen.close()
