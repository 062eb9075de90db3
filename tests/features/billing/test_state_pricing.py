"""/pricing's referral box (``features/billing/state_pricing.py``), its real handlers on a real tab against the test
database: a blank code is 'blank' without a lookup; an unknown code is invalid and forgotten; the user's own
code is invalid and said so; another user's code is applied (upper-cased) and kept for the purchase."""

from __future__ import annotations

from marketplace.features.billing import service_referrals as referrals
from marketplace.features.billing.state_pricing import PricingState
from tests.platform.tabs import open_tab, seen


def _code_of(user) -> str:
    return referrals.stats(user.id).code


def test_blank_and_unknown_codes_are_refused_and_forgotten(db_url):
    tab = open_tab(PricingState, None, path="/pricing")
    seen(tab.load())
    assert (tab.referral_status, tab.applied_code, tab.apply_disabled) == ("", "", True)
    tab.set_referral_input("   ")
    assert seen(tab.apply_referral()) == [] and tab.referral_status == "blank"
    tab.set_referral_input("nosuchcode")
    assert tab.referral_status == ""
    seen(tab.apply_referral())
    assert (tab.referral_status, tab.referral_code, tab.applied_code, tab.own_code) == ("invalid", "", "", False)


def test_the_users_own_code_is_refused_and_anothers_applied(db_url, new_user):
    user, friend = new_user(), new_user()
    tab = open_tab(PricingState, user.id, path="/pricing")
    seen(tab.load())
    tab.set_referral_input(_code_of(user).lower())
    seen(tab.apply_referral())
    assert (tab.referral_status, tab.own_code, tab.referral_code) == ("invalid", True, "")
    tab.set_referral_input(_code_of(friend).lower())
    seen(tab.apply_referral())
    assert (tab.referral_status, tab.own_code) == ("valid", False)
    assert tab.referral_code == tab.applied_code == tab.referral_input == _code_of(friend).upper()
    again = open_tab(PricingState, user.id, path="/pricing")  # a reload re-validates the stored code
    again.referral_code = tab.referral_code
    seen(again.load())
    assert (again.referral_status, again.applied_code) == ("valid", _code_of(friend).upper())
    again.remove_referral()
    assert (again.referral_code, again.applied_code, again.referral_status) == ("", "", "")
