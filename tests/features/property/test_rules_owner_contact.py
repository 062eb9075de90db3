"""The property page's Owner contact card (``features/property/state_owner_contact.py``), its real handlers on a
real tab (``property_tab``) against the test database: a hand-sent event for a lead the user has not unlocked
gets nothing and charges nothing; a hit charges 2 (the default price) once and sets the header balance; a miss is free; the
wrong-number mark is stored."""

from __future__ import annotations

import uuid

import sqlalchemy as sa

from marketplace.platform.db import get_engine
from marketplace.platform.models import CreditLedger, OwnerContact
from marketplace.features.unlock import service as unlocks
from marketplace.features.property.state_owner_contact import OwnerContactState
from tests import aio
from tests.factories import add_lead
from tests.features.property.property_tab import open_tab, section

HIT = "100 Contact Ln"  # the demo provider finds 3 phones (one on the Do Not Call list) and an e-mail
MISS = "103 Contact Ln"  # the demo provider finds nothing


class Tab:
    """The page's real tab (``property_tab``) opened at the lead, and its Owner contact section."""

    def __init__(self, user: uuid.UUID, lead_id: str, credits: int):
        self.page = open_tab(user, lead_id, credits)
        self.card = section(self.page, OwnerContactState)

    def __getattr__(self, name):
        return getattr(self.card, name)

    async def load(self):
        async for _ in self.page.load():
            pass

    def ask(self):
        return self.card.ask_owner_contact()

    def cancel(self):
        return self.card.cancel_owner_contact()

    def find(self):
        return self.card.find_owner_contact()

    def toggle(self, number):
        return self.card.toggle_wrong_number(number)


def _drain(gen) -> list:
    async def go():
        return [item async for item in gen]
    return aio.run(go())


def _spent(user_id) -> int:
    with get_engine().connect() as conn:
        return -sum(r.delta for r in conn.execute(sa.select(CreditLedger.__table__).where(
            CreditLedger.__table__.c.user_id == user_id, CreditLedger.__table__.c.reason == "skip_trace")))


def _contacts() -> int:
    with get_engine().connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(OwnerContact.__table__)).scalar_one()


def test_hand_sent_events_for_a_lead_not_unlocked_get_nothing_and_charge_nothing(db_url, new_user):
    user = new_user(credits=500)
    lead_id = str(add_lead(address=HIT))
    tab = Tab(user.id, lead_id, 500)
    aio.run(tab.load())
    assert tab.oc_status == ""
    toast = aio.run(tab.ask())
    assert "Unlock this lead to find the owner" in str(toast) and tab.oc_status == ""
    events = _drain(tab.find())
    assert "Unlock this lead to find the owner" in str(events)
    aio.run(tab.toggle("(212) 555-0188"))
    assert (tab.oc_phones, tab.credits, _spent(user.id), _contacts()) == ([], 500, 0, 0)


def test_a_hit_charges_once_and_a_reload_shows_it_free(db_url, new_user):
    user = new_user(credits=500)
    lead_id = str(add_lead(address=HIT, credit_cost=120))
    unlocks.unlock_lead(user.id, lead_id)
    tab = Tab(user.id, lead_id, 380)
    aio.run(tab.load())
    assert tab.oc_status == "idle"
    aio.run(tab.ask())
    assert (tab.oc_status, tab.oc_balance) == ("confirm", "Balance: 380 credits, after a hit: 378 credits")
    tab.cancel()
    assert tab.oc_status == "idle"
    aio.run(tab.ask())
    events = _drain(tab.find())
    assert tab.oc_status == "found" and tab.credits == 378 and _spent(user.id) == 2
    assert "2 credits charged. 378 credits remaining." in str(events)
    assert [p["number"] for p in tab.oc_phones] == ["(212) 555-0188", "(404) 555-0164", "(305) 555-0107"]
    assert [p["dnc"] for p in tab.oc_phones] == ["no", "no", "yes"]
    assert tab.oc_emails == ["owner11.121@example.com"] and tab.oc_demo
    assert tab.oc_source.startswith("Built-in demo provider, ") and tab.oc_source.endswith("2 credits charged")

    again = Tab(user.id, lead_id, 378)  # a reload: the stored result, nothing charged
    aio.run(again.load())
    assert again.oc_status == "found" and again.oc_phones == tab.oc_phones
    _drain(again.find())  # even a hand-sent search again is free
    assert (again.credits, _spent(user.id), _contacts()) == (378, 2, 1)

    aio.run(again.toggle("(404) 555-0164"))
    assert [p["wrong"] for p in again.oc_phones] == ["", "yes", ""]
    third = Tab(user.id, lead_id, 378)
    aio.run(third.load())
    assert [p["wrong"] for p in third.oc_phones] == ["", "yes", ""]
    aio.run(third.toggle("(404) 555-0164"))
    assert [p["wrong"] for p in third.oc_phones] == ["", "", ""]


def test_a_miss_is_free(db_url, new_user):
    user = new_user(credits=200)
    lead_id = str(add_lead(address=MISS, credit_cost=60))
    unlocks.unlock_lead(user.id, lead_id)
    tab = Tab(user.id, lead_id, 140)
    aio.run(tab.load())
    aio.run(tab.ask())
    _drain(tab.find())
    assert (tab.oc_status, tab.credits, _spent(user.id)) == ("miss", 140, 0)
    assert tab.oc_source.endswith("not charged")
    assert tab.oc_retry_on.startswith("You may search again from ") and not tab.oc_can_retry


def test_too_few_credits_is_said_before_the_confirm_step(db_url, new_user):
    user = new_user(credits=121)
    lead_id = str(add_lead(address=HIT, credit_cost=120))
    unlocks.unlock_lead(user.id, lead_id)
    tab = Tab(user.id, lead_id, 1)
    aio.run(tab.load())
    toast = aio.run(tab.ask())
    assert "You have 1 credits but need 2." in str(toast) and tab.oc_status == "idle"
    _drain(tab.find())  # a hand-sent search is refused by the service the same way
    assert (tab.oc_status, tab.credits, _spent(user.id), _contacts()) == ("idle", 1, 0, 0)


def test_a_miss_30_days_old_offers_search_again_and_a_hit_then_charges(db_url, new_user):
    from datetime import datetime, timedelta, timezone

    from marketplace.platform.db import session_scope

    user = new_user(credits=500)
    lead_id = str(add_lead(address=HIT, credit_cost=120))
    unlocks.unlock_lead(user.id, lead_id)
    with session_scope() as session:  # a miss stored 31 days ago (the provider knows the owner by now)
        session.add(OwnerContact(user_id=user.id, lead_id=uuid.UUID(lead_id), provider="demo", demo=True,
                                 status="miss", phones=[], emails=[], credits_charged=0,
                                 created_at=datetime.now(timezone.utc) - timedelta(days=31)))
    tab = Tab(user.id, lead_id, 380)
    aio.run(tab.load())
    assert (tab.oc_status, tab.oc_can_retry, tab.oc_retry_on) == ("miss", True, "")
    assert tab.oc_find_label == "Search again (2 credits, charged only if a contact is found)"
    aio.run(tab.ask())
    assert tab.oc_status == "confirm"
    tab.cancel()
    assert tab.oc_status == "miss"  # back to the miss and its Search again button
    aio.run(tab.ask())
    _drain(tab.find())
    assert (tab.oc_status, tab.credits, _spent(user.id), _contacts()) == ("found", 378, 2, 1)
    assert not tab.oc_can_retry
