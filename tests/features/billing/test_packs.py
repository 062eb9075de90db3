"""Pack bonuses (SPEC 9): the whole-credit breakdown every screen shows."""

from __future__ import annotations

import pytest

from marketplace.features.billing import rules_packs as packs


def _pack(pack_id: str) -> packs.CreditPack:
    pack = packs.get_pack(pack_id)
    assert pack is not None
    return pack


def test_spec_totals_and_prices_stand():
    assert [(p.id, p.credits, p.price) for p in packs.PACKS] == [
        ("starter", 500, 100), ("pro", 1500, 270), ("enterprise", 5000, 750)]
    assert [f"${p.price_per_credit:.2f}" for p in packs.PACKS] == ["$0.20", "$0.18", "$0.15"]


@pytest.mark.parametrize("pack_id, base, bonus, text", [
    ("starter", 500, 0, "500"),
    ("pro", 1250, 250, "1,250 + 250 bonus (20%)"),
    ("enterprise", 3571, 1429, "3,571 + 1,429 bonus (40%)"),
])
def test_breakdown(pack_id, base, bonus, text):
    pack = _pack(pack_id)
    assert packs.base_credits(pack) == base
    assert packs.bonus_credits(pack) == bonus
    assert packs.breakdown_text(pack) == text


@pytest.mark.parametrize("pack_id", ["pro", "enterprise"])
def test_listed_bonus_is_kept_and_adds_up(pack_id):
    """'N% bonus credits' is true: the bonus is at least N% of the base (never less),
    rounds to N%, and base + bonus is exactly the pack's credits."""
    pack = _pack(pack_id)
    base, bonus = packs.base_credits(pack), packs.bonus_credits(pack)
    assert base + bonus == pack.credits
    assert bonus * 100 >= pack.bonus_percent * base
    assert round(100 * bonus / base) == pack.bonus_percent
    # The largest such base: one more base credit would break the promise.
    assert (pack.credits - base - 1) * 100 < pack.bonus_percent * (base + 1)
    assert f"{pack.bonus_percent}% bonus credits" in pack.features


def test_referral_bonus_is_separate_from_the_pack_bonus():
    pro = _pack("pro")
    assert packs.referral_bonus(pro, first_purchase=True, referred=True) == 750
    assert packs.referral_bonus(pro, first_purchase=False, referred=True) == 0
    assert packs.referral_bonus(pro, first_purchase=True, referred=False) == 0
