"""The "are you sure?" step before an expensive unlock (``features/unlock/state_confirm.py``), on the marketplace's
real handlers on a real tab against the test database: a lead at or above the user's threshold opens the
dialog and charges nothing; Cancel closes it; a confirm sent without a dialog does nothing; the dialog's
confirm unlocks the lead it held, once, and "Don't ask again" is stored."""

from __future__ import annotations

from marketplace.platform.db import session_scope
from marketplace.platform import ledger
from marketplace.features.unlock import service_prefs as unlock_prefs
from marketplace.features.marketplace.service import rebuild_facets_now
from marketplace.features.marketplace.state import MarketplaceState
from tests.factories import add_lead
from tests.platform.tabs import open_tab, seen, toasts


def _balance(user_id) -> int:
    with session_scope() as session:
        return ledger.balance(session, user_id)


def _market(new_user, credits: int = 500, cost: int = 150):
    user = new_user(credits=credits)
    lead = str(add_lead(address="77 Costly Ave", credit_cost=cost, lead_type="Probate"))
    rebuild_facets_now()  # the marketplace counts from the facets the refresh job keeps
    tab = open_tab(MarketplaceState, user.id, credits=credits, path="/marketplace")
    seen(tab.load())
    assert tab._card_of(lead) is not None
    return user, lead, tab


def test_an_expensive_unlock_asks_first_and_cancel_charges_nothing(db_url, new_user):
    user, lead, tab = _market(new_user)
    assert seen(tab.unlock(lead)) == []
    assert (tab.confirm_open, tab.confirm_cost, tab.confirm_before, tab.confirm_after) == (
        True, "150 credits", "500 credits", "350 credits")
    assert (tab.confirm_type, tab.confirm_place, tab._confirm_lead_id) == ("Probate", "Austin, TX 78701", lead)
    assert tab.confirm_guarantee == ""  # not a public-record lead: no county record can contradict it
    assert _balance(user.id) == 500
    tab.cancel_unlock()
    assert (tab.confirm_open, tab._confirm_lead_id) == (False, "")
    assert seen(tab.confirm_unlock()) == [] and _balance(user.id) == 500  # no dialog: nothing


def test_the_dialogs_confirm_unlocks_its_lead_once_and_dont_ask_is_stored(db_url, new_user):
    user, lead, tab = _market(new_user)
    seen(tab.unlock(lead))
    tab.set_confirm_dont_ask(True)
    events = seen(tab.confirm_unlock())
    assert toasts(events) == [("success", "Lead Unlocked!", "Lead unlocked for 150 credits. 350 credits remaining.")]
    assert (tab.confirm_open, tab.credits, _balance(user.id)) == (False, 350, 350)
    assert unlock_prefs.get_preference(user.id).enabled is False
    assert seen(tab.confirm_unlock()) == [] and _balance(user.id) == 350  # the dialog's lead is gone


def test_a_cheap_unlock_does_not_ask(db_url, new_user):
    user, lead, tab = _market(new_user, credits=500, cost=60)
    events = seen(tab.unlock(lead))
    assert not tab.confirm_open and [t[:2] for t in toasts(events)] == [("success", "Lead Unlocked!")]
    assert _balance(user.id) == 440


def test_a_public_record_lead_states_the_guarantee_in_the_confirm_step(db_url, new_user, monkeypatch):
    monkeypatch.setenv("GUARANTEE_DAYS", "21")
    user = new_user(credits=500)
    lead = str(add_lead(address="12 Record Row", credit_cost=150, lead_type="Vacancy", raw_data={
        "public_record": True, "proof": {"publisher": "Baltimore City DHCD", "title": "Vacant Building Notices"}}))
    rebuild_facets_now()
    tab = open_tab(MarketplaceState, user.id, credits=500, path="/marketplace")
    seen(tab.load())
    assert seen(tab.unlock(lead)) == [] and tab.confirm_open
    assert tab.confirm_guarantee == ("If the county's next record contradicts a lead within 21 days of your unlock, "
                                     "its credits come back automatically.")
    assert _balance(user.id) == 500
