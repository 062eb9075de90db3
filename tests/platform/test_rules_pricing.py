"""Unlock cost tiers, flags and the ROI formula at every boundary."""

import pytest

from marketplace.platform import pricing


@pytest.mark.parametrize(
    ("confidence", "cost"),
    [(None, 85), (0, 30), (29, 30), (30, 30), (59, 30), (60, 60), (79, 60), (80, 120), (89, 120),
     (90, 150), (100, 150)],
)
def test_credit_cost_by_confidence(confidence, cost):
    assert pricing.credit_cost_for_confidence(confidence) == cost


def test_unlock_cost_defaults_to_85_and_otherwise_uses_the_leads_cost():
    assert pricing.unlock_cost(None) == 85
    assert pricing.unlock_cost(120) == 120
    assert pricing.unlock_cost(0) == 0


def test_confidence_displays_85_when_missing():
    assert pricing.display_confidence(None) == 85
    assert pricing.display_confidence(42) == 42


@pytest.mark.parametrize(("roi", "flag"), [(None, False), (19.9, False), (20.0, True), (35.5, True)])
def test_high_roi_threshold(roi, flag):
    assert pricing.is_high_roi(roi) is flag


def test_roi_formula_and_its_inverse():
    assert pricing.compute_roi(arv=300_000, asking_price=200_000, rehab_estimate=40_000) == 25.0
    assert pricing.compute_roi(None, 1, 1) is None
    assert pricing.compute_roi(100, 0, 0) is None
    asking = pricing.asking_price_for_roi(arv=300_000, rehab_estimate=40_000, roi_percent=25.0)
    assert asking == 200_000


# --------------------------------------------------------------------------- cost copy (one source: COST_TIERS)


def test_cost_tiers_and_bounds_follow_the_rule():
    assert pricing.cost_tiers() == [(90, 100, 150), (80, 89, 120), (60, 79, 60), (30, 59, 30)]
    assert pricing.cost_bounds() == (30, 150)
    assert pricing.typical_cost_range() == (85, 150)  # 80+: 120 or 150, or 85 without a credit_cost


def test_faq_states_the_rule_and_keeps_the_specs_typical_range():
    assert pricing.cost_faq_text() == (
        "A lead's price follows its confidence score: 150 credits at 90-100, 120 at 80-89, 60 at 60-79 and "
        "30 at 30-59 or below. A lead listed without a price costs 85. So a lead scored 80 or higher costs 120 or "
        "150 credits, or 85 where it has no price listed: typically 85-150 credits to unlock. "
        "The exact price is shown on every lead card before you unlock it.")


def test_the_pricing_faq_states_each_cost_once_and_as_the_rules_charge(monkeypatch):
    """The unlock answer no longer gives leads scored 80+ a price (85) no score gives them, and the skip-trace
    answer quotes the setting the search charges (2 credits by default, not the old 25)."""
    import importlib

    from marketplace.features.billing import page_pricing as page

    monkeypatch.delenv("SKIP_TRACE_CREDITS_PER_HIT", raising=False)
    faq = dict(importlib.reload(page).FAQ)
    unlock = faq["How much does a lead cost?"]
    assert "Leads scored 80 or higher typically cost 85-150" not in unlock
    assert "a lead scored 80 or higher costs 120 or 150 credits, or 85 where it has no price listed" in unlock
    contact = faq["Can I get the owner's phone number and e-mail?"]
    assert contact.startswith("Yes, for a lead you have unlocked: 2 credits per owner found, charged only when")
    assert "25" not in contact


def test_low_credit_banner_names_the_cheapest_and_dearest_unlock():
    assert pricing.low_credit_cost_text() == (
        "leads cost 30 to 150 credits to unlock, depending on their confidence score.")


def test_home_sample_card_costs_what_its_confidence_costs():
    from marketplace.features.marketplace.rules_samples import HERO_SAMPLE, HERO_SAMPLE_COST, HERO_SAMPLE_ROI

    assert HERO_SAMPLE["confidence"] == 92 and HERO_SAMPLE_COST == 150 == pricing.credit_cost_for_confidence(92)
    assert HERO_SAMPLE_ROI == 24.2  # (410,000 - 285,000 - 45,000) / (285,000 + 45,000)


def test_a_roi_that_rounds_to_zero_is_zero_not_negative_zero():
    import math

    from marketplace.platform.pricing import compute_roi

    for arv, asking, rehab in ((100_000, 100_000, 0), (99_990, 90_000, 10_000), (199_950, 150_000, 50_000)):
        roi = compute_roi(arv, asking, rehab)
        assert roi == 0.0 and math.copysign(1.0, roi) == 1.0, (arv, asking, rehab, roi)


def test_the_pricing_faq_and_the_unlock_confirm_step_state_the_guarantee_with_its_configured_days(monkeypatch):
    """One sentence each, the window read from GUARANTEE_DAYS."""
    import importlib

    from marketplace.features.unlock import rules_guarantee as guarantee
    from marketplace.features.billing import page_pricing as page

    monkeypatch.delenv("GUARANTEE_DAYS", raising=False)
    answer = dict(importlib.reload(page).FAQ)["What if the county's next record contradicts a lead?"]
    assert answer.startswith("If the county's next record contradicts a lead within 30 days of your unlock, its "
                             "credits come back automatically. ")
    monkeypatch.setenv("GUARANTEE_DAYS", "14")
    assert dict(importlib.reload(page).FAQ)["What if the county's next record contradicts a lead?"].startswith(
        "If the county's next record contradicts a lead within 14 days of your unlock")
    assert guarantee.promise(14) == ("If the county's next record contradicts a lead within 14 days of your unlock, "
                                     "its credits come back automatically.")
