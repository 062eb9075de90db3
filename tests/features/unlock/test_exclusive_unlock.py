"""Scarce by design on the marketplace's real handlers (a real tab, the test database): the unlock
confirm step states the cap; "Unlock exclusively for N credits" always goes through it with its spots and
price; a lead that filled, or whose exclusive price changed, while the dialog was open refuses with an
Error toast (title and message), charges nothing and shows the card again as it is now."""

from __future__ import annotations

import pytest

from marketplace.platform.config import reload_settings
from marketplace.features.unlock import service as unlocks
from tests.platform.tabs import seen, toasts
from tests.features.marketplace.test_unlock_confirm import _balance, _market


@pytest.fixture(autouse=True)
def cap_of_5(db_url, monkeypatch):
    monkeypatch.setenv("LEAD_MAX_HOLDERS", "5")
    reload_settings()


def _card(tab, lead):
    return next(card for card in tab.cards if card.id == lead)


def test_the_confirm_step_states_the_cap(new_user):
    _user, lead, tab = _market(new_user)
    seen(tab.unlock(lead))
    assert (tab.confirm_open, tab.confirm_title, tab.confirm_exclusive) == (True, "Unlock this lead?", False)
    assert tab.confirm_cap == "At most 5 investors can hold a lead."
    assert tab.confirm_spots == ""


def test_exclusive_goes_through_the_confirm_step_and_reads_exclusive(new_user):
    user, lead, tab = _market(new_user, credits=1_000)
    card = _card(tab, lead)
    assert (card.spots, card.action_label, card.exclusive_label) == (
        "5 of 5 spots left", "Unlock for 150 credits", "Unlock exclusively for 750 credits")
    assert seen(tab.unlock_exclusive(lead)) == []
    assert (tab.confirm_open, tab.confirm_title, tab.confirm_label) == (
        True, "Unlock this lead exclusively?", "Unlock exclusively for 750 credits")
    assert (tab.confirm_cost, tab.confirm_before, tab.confirm_after) == ("750 credits", "1,000 credits", "250 credits")
    assert tab.confirm_spots == ("Takes all 5 spots left at 150 credits each; nobody else can unlock it after you.")
    assert tab.confirm_cap == "At most 5 investors can hold a lead."
    assert tab.confirm_exclusive and _balance(user.id) == 1_000  # asking charges nothing
    events = seen(tab.confirm_unlock())
    assert toasts(events) == [("success", "Lead Unlocked!", "Lead unlocked for 750 credits. 250 credits remaining.")]
    assert (tab.credits, _balance(user.id)) == (250, 250)
    mine = _card(tab, lead)
    assert (mine.spots, mine.action_label, mine.exclusive_label) == ("Exclusive", "View Details", "")


def test_a_lead_that_sold_out_while_deciding_refuses_and_turns_sold_out(new_user, monkeypatch):
    monkeypatch.setenv("LEAD_MAX_HOLDERS", "2")
    reload_settings()
    user, lead, tab = _market(new_user)
    seen(tab.unlock(lead))  # the dialog is open ...
    for _ in range(2):  # ... while two other investors take both spots
        unlocks.unlock_lead(new_user(credits=500).id, lead)
    events = seen(tab.confirm_unlock())
    assert toasts(events) == [("error", "Sold Out", "This lead sold out while you were deciding; no credits were taken.")]
    assert _balance(user.id) == 500
    card = _card(tab, lead)
    assert (card.spots, card.action_kind, card.action_label, card.exclusive_label) == (
        "Sold out", "sold_out", "Sold out", "")


def test_an_exclusive_price_that_changed_while_deciding_charges_nothing(new_user):
    user, lead, tab = _market(new_user, credits=1_000)
    seen(tab.unlock_exclusive(lead))
    unlocks.unlock_lead(new_user(credits=500).id, lead)  # one spot went meanwhile: 4 left, 600 credits
    events = seen(tab.confirm_unlock())
    assert toasts(events) == [("error", "Spots Changed", "Another investor unlocked this lead while you were "
                               "deciding, so the exclusive price changed; no credits were taken. The card shows "
                               "the new price.")]
    assert _balance(user.id) == 1_000
    assert _card(tab, lead).exclusive_label == "Unlock exclusively for 600 credits"


def test_no_exclusive_offer_means_no_dialog(new_user):
    _user, lead, tab = _market(new_user, credits=700)  # 5 x 150 = 750: not covered
    assert _card(tab, lead).exclusive_label == ""
    assert seen(tab.unlock_exclusive(lead)) == [] and not tab.confirm_open
