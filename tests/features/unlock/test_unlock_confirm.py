"""When an unlock asks first: credits at or above the threshold, question switched on."""

import pytest

from marketplace.platform.errors import UserError
from marketplace.features.unlock.rules_confirm import (
    DEFAULT_THRESHOLD,
    THRESHOLD_CHOICES,
    ConfirmPreference,
    clean_preference,
    needs_confirmation,
)


def test_defaults():
    assert ConfirmPreference() == ConfirmPreference(enabled=True, threshold=120) and DEFAULT_THRESHOLD == 120
    assert THRESHOLD_CHOICES == (60, 120, 150)


@pytest.mark.parametrize(("threshold", "cost", "asks"), [
    (120, 150, True), (120, 120, True), (120, 119, False), (120, 85, False), (120, 60, False), (120, 30, False),
    (60, 60, True), (60, 59, False), (60, 85, True), (150, 150, True), (150, 120, False),
])
def test_asks_at_or_above_the_threshold(threshold, cost, asks):
    assert needs_confirmation(ConfirmPreference(True, threshold), "credits", cost) is asks


def test_never_when_switched_off_or_paid_by_subscription():
    assert needs_confirmation(ConfirmPreference(False, 60), "credits", 150) is False
    assert needs_confirmation(ConfirmPreference(True, 60), "subscription", 0) is False


@pytest.mark.parametrize("bad", [(True, 100), ("true", 120), (True, "12O"), (True, 120.0), (True, False)])
def test_clean_refuses_anything_but_the_choices(bad):
    with pytest.raises(UserError):
        clean_preference(*bad)
    assert clean_preference(False, "60") == ConfirmPreference(False, 60)
