"""The "are you sure?" step before an expensive unlock (``states/unlock_confirm.py``), on the marketplace's
real handlers on a stand-in tab against the test database: a lead at or above the user's threshold opens the
dialog and charges nothing; Cancel closes it; a confirm sent without a dialog does nothing; the dialog's
confirm unlocks the lead it held, once, and "Don't ask again" is stored."""

from __future__ import annotations

from marketplace.db import session_scope
from marketplace.services import ledger, unlock_prefs
from marketplace.services.marketplace import rebuild_facets_now
from marketplace.states.marketplace import MarketplaceState
from tests.factories import add_lead
from tests.states.stand_in import open_tab, seen, toasts


def _balance(user_id) -> int:
    with session_scope() as session:
        return ledger.balance(session, user_id)


async def _no_substates() -> list:
    return []


def _market(new_user, credits: int = 500, cost: int = 150):
    user = new_user(credits=credits)
    lead = str(add_lead(address="77 Costly Ave", credit_cost=cost, lead_type="Probate"))
    rebuild_facets_now()  # the marketplace counts from the facets the refresh job keeps
    tab = open_tab(MarketplaceState, user.id, credits=credits, path="/marketplace")
    tab._substates = _no_substates  # the map and location inputs are tested on their own
    seen(tab.load())
    assert tab._card_of(lead) is not None
    return user, lead, tab


def test_an_expensive_unlock_asks_first_and_cancel_charges_nothing(db_url, new_user):
    user, lead, tab = _market(new_user)
    assert seen(tab.unlock(lead)) == []
    assert (tab.confirm_open, tab.confirm_cost, tab.confirm_before, tab.confirm_after) == (
        True, "150 credits", "500 credits", "350 credits")
    assert (tab.confirm_type, tab.confirm_place, tab._confirm_lead_id) == ("Probate", "Austin, TX 78701", lead)
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
