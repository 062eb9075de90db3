"""The one unlock quote: the card's button, the confirmation step and what the
unlock service charges all come from ``unlock.rules.quote_unlock``."""

from __future__ import annotations

import dataclasses

import pytest

from marketplace.features.unlock.rules_confirm import ConfirmPreference
from marketplace.features.unlock.rules import UnlockQuote, quote_unlock


def quote(**facts) -> UnlockQuote:
    given = dict(signed_in=True, unlocked=False, credit_cost=150, balance=1000, lead_id="abc")
    return quote_unlock(**{**given, **facts})


def test_a_visitor_is_sent_to_login():
    q = quote(signed_in=False, unlocked=True, balance=0, subscribed=True, subscription_leads=3)
    assert (q.kind, q.label, q.href, q.credits, q.purchase_type, q.confirm) == ("login", "Login", "/auth", 0, "", False)


def test_an_unlocked_lead_shows_its_details():
    q = quote(unlocked=True, balance=0, preference=ConfirmPreference(True, 60))
    assert (q.kind, q.label, q.href, q.credits, q.confirm) == ("view", "View Details", "/property/abc", 0, False)


def test_a_subscriber_with_leads_left_spends_one_and_no_credits():
    q = quote(balance=0, subscribed=True, subscription_leads=2, preference=ConfirmPreference(True, 60))
    assert (q.kind, q.label, q.href, q.credits, q.purchase_type) == (
        "subscription", "Unlock with Subscription", "", 0, "subscription")
    assert q.confirm is False and (q.balance_before, q.balance_after) == (0, 0)


@pytest.mark.parametrize(("subscribed", "leads"), [(True, 0), (False, 5)])
def test_no_subscription_leads_means_credits(subscribed, leads):
    q = quote(balance=150, subscribed=subscribed, subscription_leads=leads)
    assert (q.kind, q.label, q.credits, q.purchase_type) == ("unlock", "Unlock for 150 credits", 150, "credits")


def test_a_balance_below_the_cost_is_insufficient():
    q = quote(balance=149)
    assert (q.kind, q.label, q.href, q.cost, q.credits, q.purchase_type) == (
        "insufficient", "Insufficient Credits - Buy More", "/purchase-credits", 150, 0, "")
    assert (q.balance_before, q.balance_after) == (149, 149)


def test_enough_credits_unlock_for_the_leads_cost():
    q = quote(balance=150)
    assert (q.kind, q.label, q.href, q.cost, q.credits, q.purchase_type) == (
        "unlock", "Unlock for 150 credits", "", 150, 150, "credits")
    assert (q.balance_before, q.balance_after, q.confirm) == (150, 0, False)  # no preference: never asks


def test_a_missing_cost_is_85():
    assert quote(credit_cost=None, balance=85).label == "Unlock for 85 credits"
    assert quote(credit_cost=None, balance=84).kind == "insufficient"


def test_large_costs_are_grouped():
    assert quote(credit_cost=1500, balance=2000).label == "Unlock for 1,500 credits"


@pytest.mark.parametrize(("preference", "cost", "asks"), [
    (ConfirmPreference(True, 120), 150, True), (ConfirmPreference(True, 120), 120, True),
    (ConfirmPreference(True, 120), 119, False), (ConfirmPreference(True, 60), 60, True),
    (ConfirmPreference(True, 150), 120, False), (ConfirmPreference(False, 60), 150, False),
])
def test_the_confirmation_follows_the_users_setting(preference, cost, asks):
    q = quote(credit_cost=cost, balance=1000, preference=preference)
    assert q.confirm is asks
    assert (q.balance_before, q.balance_after, q.credits) == (1000, 1000 - cost, cost)


def test_the_quote_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        quote().credits = 0  # type: ignore[misc]
