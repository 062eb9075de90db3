"""Unlock cost tiers, flags and the ROI formula at every boundary."""

import pytest

from marketplace.core import pricing


@pytest.mark.parametrize(
    ("confidence", "cost"),
    [(None, 85), (0, 85), (29, 85), (30, 30), (59, 30), (60, 60), (79, 60), (80, 120), (89, 120),
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
