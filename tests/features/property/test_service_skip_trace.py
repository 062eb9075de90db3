"""Owner contact (skip trace) on SQLite and PostgreSQL: charged once and only on a hit, a repeat free, a
concurrent twin charged once, nothing without an unlock or enough credits."""

from __future__ import annotations

import threading
import uuid
from datetime import datetime, timedelta, timezone

import pytest
import sqlalchemy as sa

from marketplace.platform import texts as msg
from marketplace.platform.errors import UserError
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import CreditLedger, OwnerContact, UserLead
from marketplace.platform import ledger
from marketplace.features.property import service_owner_contact as skip_trace
from marketplace.features.scrape.source_base import SourceError
from marketplace.features.property.rules_owner_contact import ContactResult
from tests.factories import add_lead
from tests.fakes.batchdata_skip_trace import FakeBatchDataSkipTrace

HIT = ContactResult("batchdata", False, "Jane Doe",
                    ({"number": "(512) 555-0142", "type": "Mobile", "dnc": False, "wrong": False},
                     {"number": "(512) 555-0177", "type": "Land Line", "dnc": True, "wrong": False}),
                    ("jane@example.com",))
MISS = ContactResult("batchdata", False, None)


class Provider:
    """A provider answering ``result`` and counting calls (``gate``: wait there first)."""

    name = "test"

    def __init__(self, result: ContactResult | Exception, gate: threading.Barrier | None = None):
        self.result, self.gate, self.calls = result, gate, []

    def lookup(self, address, city, state, zip_code, owner_name):
        self.calls.append((address, city, state, zip_code, owner_name))
        if self.gate is not None:
            self.gate.wait(timeout=10)
        if isinstance(self.result, Exception):
            raise self.result
        return self.result


def unlock(user_id, lead_id) -> None:
    with session_scope() as session:
        session.add(UserLead(user_id=user_id, lead_id=lead_id, credit_cost=120, purchase_type="credits"))


def balance(user_id) -> int:
    with session_scope() as session:
        return ledger.balance(session, user_id)


def count(model) -> int:
    with get_engine().connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(model.__table__)).scalar()


def spends(user_id) -> list[int]:
    with get_engine().connect() as conn:
        return list(conn.execute(sa.select(CreditLedger.__table__.c.delta).where(
            CreditLedger.__table__.c.user_id == user_id, CreditLedger.__table__.c.reason == "skip_trace")).scalars())


@pytest.fixture
def owned(db_url, new_user):
    user = new_user(credits=100)
    lead_id = add_lead(raw_data={"owner_name": "  Jane   Doe "})
    unlock(user.id, lead_id)
    return user, lead_id


def test_a_hit_is_charged_once_and_a_repeat_is_free(owned):
    user, lead_id = owned
    provider = Provider(HIT)
    view = skip_trace.find_owner_contact(user.id, str(lead_id), provider)
    assert provider.calls == [("12 Oak St", "Austin", "TX", "78701", "Jane Doe")]  # owner name from raw_data
    assert (view.status, view.credits_charged, view.charged_now, view.balance) == ("found", 2, 2, 98)
    assert view.phones == HIT.phones and view.emails == ("jane@example.com",)
    assert [p["dnc"] for p in view.phones] == [False, True]  # the Do Not Call number is marked
    assert view.demo is False and view.note is None
    repeat = skip_trace.find_owner_contact(user.id, lead_id, provider)
    assert len(provider.calls) == 1  # no second search
    assert (repeat.charged_now, repeat.balance, repeat.phones) == (0, None, view.phones)
    assert balance(user.id) == 98 and spends(user.id) == [-2]
    assert skip_trace.owner_contact(user.id, lead_id) == repeat


def test_a_miss_costs_nothing_and_is_not_searched_again(owned):
    user, lead_id = owned
    provider = Provider(MISS)
    view = skip_trace.find_owner_contact(user.id, lead_id, provider)
    assert (view.status, view.credits_charged, view.charged_now, view.phones, view.emails) == ("miss", 0, 0, (), ())
    assert skip_trace.find_owner_contact(user.id, lead_id, provider).status == "miss"
    assert len(provider.calls) == 1 and balance(user.id) == 100 and spends(user.id) == []


def test_a_miss_is_searched_again_after_30_days_and_charged_only_on_a_hit(owned):
    user, lead_id = owned
    day0 = datetime(2026, 10, 1, 9, 0, tzinfo=timezone.utc)
    missed = skip_trace.find_owner_contact(user.id, lead_id, Provider(MISS), now=day0)
    assert missed.retry_after == datetime(2026, 10, 31, 9, 0, tzinfo=timezone.utc)
    early = Provider(HIT)
    again = skip_trace.find_owner_contact(user.id, lead_id, early, now=day0 + timedelta(days=29, hours=23))
    assert early.calls == [] and again.status == "miss" and balance(user.id) == 100  # too soon: the stored miss
    late = Provider(HIT)
    found = skip_trace.find_owner_contact(user.id, lead_id, late, now=day0 + timedelta(days=30))
    assert len(late.calls) == 1 and (found.status, found.charged_now, found.balance) == ("found", 2, 98)
    assert found.created_at == day0 + timedelta(days=30) and found.retry_after is None
    assert count(OwnerContact) == 1 and spends(user.id) == [-2] and balance(user.id) == 98
    never = Provider(HIT)  # a hit is kept: never searched (or charged) again
    assert skip_trace.find_owner_contact(user.id, lead_id, never, now=day0 + timedelta(days=400)).charged_now == 0
    assert never.calls == [] and balance(user.id) == 98


def test_a_provider_failure_charges_and_stores_nothing(owned):
    user, lead_id = owned
    with pytest.raises(UserError) as exc:
        skip_trace.find_owner_contact(user.id, lead_id, Provider(SourceError("BatchData returned HTTP 500")))
    assert (exc.value.title, exc.value.message) == msg.SKIP_TRACE_FAILED
    assert count(OwnerContact) == 0 and balance(user.id) == 100


def test_too_few_credits_is_refused_before_asking_the_provider(db_url, new_user):
    user = new_user(credits=1)
    lead_id = add_lead()
    unlock(user.id, lead_id)
    provider = Provider(HIT)
    with pytest.raises(UserError) as exc:
        skip_trace.find_owner_contact(user.id, lead_id, provider)
    assert (exc.value.title, exc.value.message) == ("Insufficient Credits", "You have 1 credits but need 2.")
    assert provider.calls == [] and count(OwnerContact) == 0 and balance(user.id) == 1


def test_credits_spent_during_the_search_store_nothing(owned):
    user, lead_id = owned

    class Spender(Provider):
        def lookup(self, *args):
            with session_scope() as session:  # another tab spends the balance meanwhile
                ledger.apply_credits(session, user.id, -99, "unlock", "elsewhere")
            return super().lookup(*args)

    with pytest.raises(UserError) as exc:
        skip_trace.find_owner_contact(user.id, lead_id, Spender(HIT))
    assert exc.value.message == "You have 1 credits but need 2."
    assert count(OwnerContact) == 0 and balance(user.id) == 1 and spends(user.id) == []


def test_two_simultaneous_searches_charge_once(owned):
    user, lead_id = owned
    provider = Provider(HIT, gate=threading.Barrier(2))  # both pass the read step before either stores
    results, errors = [], []

    def search():
        try:
            results.append(skip_trace.find_owner_contact(user.id, lead_id, provider))
        except Exception as exc:  # surfaced by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=search) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == [] and len(provider.calls) == 2
    assert sorted(r.charged_now for r in results) == [0, 2]
    assert results[0].phones == results[1].phones
    assert balance(user.id) == 98 and spends(user.id) == [-2] and count(OwnerContact) == 1


def test_a_locked_lead_is_unreachable(owned, new_user):
    user, lead_id = owned
    skip_trace.find_owner_contact(user.id, lead_id, Provider(HIT))
    stranger = new_user(credits=100)
    provider = Provider(HIT)
    for call in (lambda: skip_trace.find_owner_contact(stranger.id, lead_id, provider),
                 lambda: skip_trace.owner_contact(stranger.id, lead_id),
                 lambda: skip_trace.mark_number_wrong(stranger.id, lead_id, "(512) 555-0142"),
                 lambda: skip_trace.find_owner_contact(stranger.id, uuid.uuid4(), provider)):
        with pytest.raises(UserError) as exc:
            call()
        assert (exc.value.title, exc.value.message) == msg.SKIP_TRACE_LOCKED
    assert provider.calls == [] and balance(stranger.id) == 100
    assert skip_trace.owner_contact(user.id, lead_id).phones[0]["wrong"] is False  # the owner's row untouched


def test_mark_a_number_wrong(owned):
    user, lead_id = owned
    with pytest.raises(UserError) as exc:
        skip_trace.mark_number_wrong(user.id, lead_id, "5125550142")
    assert (exc.value.title, exc.value.message) == msg.SKIP_TRACE_NO_RESULT
    skip_trace.find_owner_contact(user.id, lead_id, Provider(HIT))
    view = skip_trace.mark_number_wrong(user.id, lead_id, "1-512-555-0177")
    assert [p["wrong"] for p in view.phones] == [False, True]
    assert [p["wrong"] for p in skip_trace.owner_contact(user.id, lead_id).phones] == [False, True]
    assert [p["wrong"] for p in skip_trace.mark_number_wrong(user.id, lead_id, "5125550177", wrong=False).phones] \
        == [False, False]
    with pytest.raises(UserError) as exc:
        skip_trace.mark_number_wrong(user.id, lead_id, "5125550100")
    assert (exc.value.title, exc.value.message) == msg.NUMBER_NOT_LISTED
    assert balance(user.id) == 98  # marking is free


def test_demo_provider_end_to_end_says_it_is_demo(owned, monkeypatch):
    user, lead_id = owned
    monkeypatch.delenv("SKIP_TRACE_PROVIDER", raising=False)
    view = skip_trace.find_owner_contact(user.id, lead_id)
    assert view.demo and view.provider == "demo" and view.note == msg.SKIP_TRACE_DEMO_NOTE


def test_batchdata_through_the_fake_server(owned, monkeypatch):
    user, lead_id = owned
    with FakeBatchDataSkipTrace(api_key="k") as fake:
        monkeypatch.setenv("SKIP_TRACE_PROVIDER", "batchdata")
        monkeypatch.setenv("BATCHDATA_API_KEY", "k")
        monkeypatch.setenv("BATCHDATA_SKIP_TRACE_URL", fake.url)
        view = skip_trace.find_owner_contact(user.id, lead_id)
        assert fake.requests[0].body["requests"][0]["propertyAddress"]["street"] == "12 Oak St"
    assert (view.provider, view.status, view.charged_now, view.owner_name) == ("batchdata", "found", 2, "Jane Doe")
    assert [p["number"] for p in view.phones] == ["(512) 555-0142", "(512) 555-0177"]


def test_a_public_record_leads_owner_of_record_is_sent(db_url, new_user):
    from marketplace.platform.models import Property
    user = new_user(credits=100)
    with session_scope() as session:
        prop = Property(address_key="12 oak st|78701", address="12 Oak St", city="Austin", state="TX",
                        zip_code="78701", owner_name="SMITH  JOHN")
        session.add(prop)
        session.flush()
        prop_id = prop.id
    lead_id = add_lead(property_id=prop_id, raw_data={"owner_name": "Someone Else"})
    unlock(user.id, lead_id)
    provider = Provider(MISS)
    skip_trace.find_owner_contact(user.id, lead_id, provider)
    assert provider.calls[0][4] == "SMITH JOHN"
