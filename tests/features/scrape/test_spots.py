"""Scarce by design (issue 38, item 4): a lead is held by at most LEAD_MAX_HOLDERS investors. Unlocks,
subscription unlocks, exclusive unlocks, bulk scrapes and webhook deliveries never exceed the cap, also
when they race; a refused purchase charges nothing; every balance equals its ledger; "Unlocked by N
investors", the holders filter and the "Spots left" filter agree. On SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import uuid

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlmodel import select

from marketplace.platform.web import ratelimit
from marketplace.features.scrape import api_webhook as webhook
from marketplace.api import create_api
from marketplace.platform.config import reload_settings
from marketplace.features.marketplace import rules
from marketplace.features.scrape import rules as scrape_rules
from marketplace.features.marketplace.rules_cards import card_data, with_action
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import CreditLedger, Lead, Property, UserLead
from marketplace.features.accounts import service_settings as account_settings
from marketplace.platform import ledger
from marketplace.features.scrape import service as scrapes, service_webhooks as webhooks
from marketplace.platform import subscriptions
from marketplace.features.unlock import service_counts as unlock_counts, service as unlocks
from marketplace.features.marketplace.service import query_page
from tests import factories
from tests.features.records.test_record_inventory import ANY

leads_t = Lead.__table__
SOLD_OUT = ("Sold Out", "This lead sold out while you were deciding; no credits were taken.")


@pytest.fixture
def cap(db_url, monkeypatch):
    """Set LEAD_MAX_HOLDERS for the test (settings are read afresh for every test)."""
    def _set(value: int) -> None:
        monkeypatch.setenv("LEAD_MAX_HOLDERS", str(value))
        reload_settings()
    return _set


def _holders(lead_id) -> tuple[int, bool]:
    with get_engine().connect() as conn:
        row = conn.execute(sa.select(leads_t.c.unlock_count, leads_t.c.exclusive).where(leads_t.c.id == lead_id)).one()
    return row.unlock_count, row.exclusive


def _records(lead_id) -> list[tuple]:
    with session_scope() as s:
        return sorted((str(r.user_id), r.purchase_type, r.credit_cost)
                      for r in s.exec(select(UserLead).where(UserLead.lead_id == lead_id)).all())


def _balance(user_id) -> int:
    """The balance, after checking that it equals the ledger."""
    with session_scope() as s:
        assert ledger.balance(s, user_id) == ledger.ledger_sum(s, user_id)
        return ledger.balance(s, user_id)


def _consistent() -> None:
    with get_engine().begin() as conn:
        assert unlock_counts.recount(conn) == 0


def _view(lead_id, user=None, credits=0, **filters):
    """The card as ``user`` sees it (None: a visitor), or None when the filters hide it."""
    page = query_page(rules.Filters(page_size=100, **filters), user.id if user else None)
    card = next((c for c in page.cards if c.id == str(lead_id)), None)
    return None if card is None else with_action(card_data(card), user is not None, credits)


def _refused(user_id, lead_id, **kw) -> tuple[str, str]:
    with pytest.raises(unlocks.UnlockError) as err:
        unlocks.unlock_lead(user_id, lead_id, **kw)
    return err.value.title, err.value.message


# --------------------------------------------------------------------------- unlocks


def test_no_cap_means_any_number_of_holders(cap, new_user):
    cap(0)
    lead_id = factories.add_lead(credit_cost=100)
    users = [new_user(credits=100) for _ in range(7)]
    for user in users:
        unlocks.unlock_lead(user.id, lead_id)
    assert _holders(lead_id) == (7, False)
    card = _view(lead_id, new_user(credits=500), 500)
    assert (card.spots, card.action_label, card.exclusive_label) == ("", "Unlock for 100 credits", "")
    assert card.held_by == "Unlocked by 7 investors"
    assert _view(lead_id, spots=("open",)) is not None  # no cap: never full
    _consistent()


def test_a_full_lead_refuses_the_next_unlock_and_charges_nothing(cap, new_user):
    cap(2)
    lead_id = factories.add_lead(credit_cost=100)
    first, second, third = new_user(credits=500), new_user(credits=500), new_user(credits=500)
    unlocks.unlock_lead(first.id, lead_id)
    assert _view(lead_id, third, 500).spots == "1 of 2 spots left"
    unlocks.unlock_lead(second.id, lead_id)
    assert _refused(third.id, lead_id) == SOLD_OUT
    assert _balance(third.id) == 500 and _holders(lead_id) == (2, False)
    assert [r[0] for r in _records(lead_id)] == sorted([str(first.id), str(second.id)])
    # Everyone else sees "Sold out" and no unlock action; a holder still sees View Details.
    other = _view(lead_id, third, 500)
    assert (other.spots, other.action_kind, other.action_label, other.exclusive_label) == (
        "Sold out", "sold_out", "Sold out", "")
    assert _view(lead_id).action_kind == "sold_out"  # a visitor too
    holder = _view(lead_id, first, 400)
    assert (holder.spots, holder.action_label) == ("Sold out", "View Details")
    assert holder.held_by == "Unlocked by 2 investors (you and 1 other)"
    # It stays listed; "Spots left" hides it, "Unlocked by 1-2 investors" still finds it.
    assert _view(lead_id) is not None
    assert _view(lead_id, spots=("open",)) is None
    assert _view(lead_id, held=("1-2",)) is not None
    _consistent()


def test_a_subscription_lead_is_not_spent_on_a_full_lead(cap, new_user):
    cap(1)
    lead_id = factories.add_lead(credit_cost=100)
    unlocks.unlock_lead(new_user(credits=100).id, lead_id)
    subscriber = new_user(credits=0)
    with session_scope() as s:
        subscriptions.grant(s, subscriber.id, "Pro", leads=2, days=30)
    assert _refused(subscriber.id, lead_id) == SOLD_OUT
    with session_scope() as s:
        assert subscriptions.check_subscription(s, subscriber.id).leads_remaining == 2
    other = factories.add_lead(credit_cost=100)
    assert unlocks.unlock_lead(subscriber.id, other).purchase_type == "subscription"  # with a spot: as always
    assert _holders(other) == (1, False)
    _consistent()


def test_the_shortfall_message_is_unchanged_with_a_cap(cap, new_user):
    cap(5)
    lead_id = factories.add_lead(credit_cost=150)
    assert _refused(new_user(credits=100).id, lead_id) == ("Error", "You have 100 credits but need 150.")
    assert _holders(lead_id) == (0, False)


# --------------------------------------------------------------------------- exclusive


def test_an_exclusive_unlock_takes_every_spot_in_one_debit(cap, new_user):
    cap(5)
    lead_id = factories.add_lead(credit_cost=150)
    buyer, other = new_user(credits=1_000), new_user(credits=1_000)
    card = _view(lead_id, buyer, 1_000)
    assert (card.spots, card.action_label, card.exclusive_label) == (
        "5 of 5 spots left", "Unlock for 150 credits", "Unlock exclusively for 750 credits")
    result = unlocks.unlock_lead(buyer.id, lead_id, exclusive=True, expected_spots=5)
    assert (result.credits_deducted, result.remaining_credits, result.purchase_type, result.spots) == (
        750, 250, "exclusive", 5)
    assert _balance(buyer.id) == 250
    # One debit referencing the unlock (the lead, as every unlock's), one record saying what it was.
    with session_scope() as s:
        rows = s.exec(select(CreditLedger).where(CreditLedger.user_id == buyer.id, CreditLedger.delta < 0)).all()
    assert [(r.delta, r.reason, r.reference_id) for r in rows] == [(-750, "unlock", str(lead_id))]
    assert _records(lead_id) == [(str(buyer.id), "exclusive", 750)]
    assert _holders(lead_id) == (1, True)
    # "Exclusive" to its holder, "Sold out" to everyone else; the count stays one investor.
    mine = _view(lead_id, buyer, 250)
    assert (mine.spots, mine.action_label, mine.held_by) == ("Exclusive", "View Details", "Unlocked by 1 investor (you)")
    theirs = _view(lead_id, other, 1_000)
    assert (theirs.spots, theirs.action_kind, theirs.exclusive_label) == ("Sold out", "sold_out", "")
    assert _refused(other.id, lead_id) == SOLD_OUT
    assert _refused(other.id, lead_id, exclusive=True, expected_spots=4) == SOLD_OUT
    assert _balance(other.id) == 1_000
    assert _view(lead_id, spots=("open",)) is None and _view(lead_id, held=("1-2",)) is not None
    _consistent()


def test_exclusive_after_others_takes_the_spots_left_and_reads_sold_out(cap, new_user):
    cap(5)
    lead_id = factories.add_lead(credit_cost=100)
    early = new_user(credits=100)
    unlocks.unlock_lead(early.id, lead_id)
    late = new_user(credits=400)
    assert _view(lead_id, late, 400).exclusive_label == "Unlock exclusively for 400 credits"
    assert unlocks.unlock_lead(late.id, lead_id, exclusive=True, expected_spots=4).credits_deducted == 400
    assert _holders(lead_id) == (2, True)
    # Not the only holder: the lead is full, but not "Exclusive" to either of them.
    assert _view(lead_id, late).spots == "Sold out"
    assert _view(lead_id, early).held_by == "Unlocked by 2 investors (you and 1 other)"
    _consistent()


def test_an_exclusive_price_that_changed_meanwhile_charges_nothing(cap, new_user):
    cap(5)
    lead_id = factories.add_lead(credit_cost=100)
    buyer = new_user(credits=1_000)
    unlocks.unlock_lead(new_user(credits=100).id, lead_id)  # someone else took a spot after the dialog opened
    assert _refused(buyer.id, lead_id, exclusive=True, expected_spots=5) == (
        "Spots Changed", "Another investor unlocked this lead while you were deciding, so the exclusive price "
        "changed; no credits were taken. The card shows the new price.")
    assert _balance(buyer.id) == 1_000 and _holders(lead_id) == (1, False)


def test_exclusive_needs_credits_for_every_spot_and_a_cap(cap, new_user):
    cap(5)
    lead_id = factories.add_lead(credit_cost=150)
    poor = new_user(credits=700)
    assert _view(lead_id, poor, 700).exclusive_label == ""  # not covered: not offered
    assert _refused(poor.id, lead_id, exclusive=True, expected_spots=5) == ("Error", "You have 700 credits but need 750.")
    assert _balance(poor.id) == 700 and _holders(lead_id) == (0, False)
    cap(0)
    rich = new_user(credits=10_000)
    assert _refused(rich.id, lead_id, exclusive=True) == (
        "Not Available", "An exclusive unlock needs a cap on holders, at least 2 spots left and enough credits "
        "for all of them; no credits were taken.")
    assert _balance(rich.id) == 10_000


def test_closing_the_exclusive_holders_account_opens_the_lead_again(cap, new_user):
    cap(3)
    lead_id = factories.add_lead(credit_cost=50)
    holder = new_user(credits=1_000)
    unlocks.unlock_lead(holder.id, lead_id, exclusive=True, expected_spots=3)
    account_settings.delete_account(holder.id, holder.email)
    assert _holders(lead_id) == (0, False)
    assert _view(lead_id, new_user(credits=0)).spots == "3 of 3 spots left"
    _consistent()


# --------------------------------------------------------------------------- scrapes and the webhook


def public_record_lead(state: str = "WY", n: int = 1, **fields) -> uuid.UUID:
    """An active public-record lead (its own property) the bulk scraper's inventory offers."""
    with session_scope() as s:
        prop = Property(address=f"{n} Spot Rd", address_key=f"{n} spot rd", city="Cheyenne", state=state,
                        zip_code="82001")
        s.add(prop)
        s.flush()
        prop_id = prop.id
    return factories.add_lead(property_id=prop_id, address=f"{n} Spot Rd", city="Cheyenne", state=state,
                              zip_code="82001", external_id=f"pr:{prop_id}", is_new=False, asking_price=None,
                              zestimate=90_000, roi=20.0, square_footage=1_200, confidence_score=80,
                              motivation_score=90 - n, credit_cost=100, **fields)


def _wyoming(count: int) -> scrape_rules.ScrapeRequest:
    return scrape_rules.ScrapeRequest(lead_count=count, states=("WY",), **ANY)


def test_a_scrape_draws_only_leads_with_a_spot_left(cap, new_user, monkeypatch):
    cap(1)
    monkeypatch.setenv("OPEN_DATA_DATASETS", "chi-vacant-buildings-violations")  # the public-record inventory
    full, free = public_record_lead(n=1), public_record_lead(n=2)
    unlocks.unlock_lead(new_user(credits=100).id, full)
    buyer = new_user(credits=1_000)
    result = scrapes.run_scrape(buyer.id, _wyoming(2))
    assert [row["id"] for row in result.leads] == [str(free)]
    assert (result.leads_generated, result.credits_used) == (1, 100)  # only the delivered lead is charged
    assert result.shortfall.startswith("Only 1 of 2")
    assert _balance(buyer.id) == 900
    assert _holders(full) == (1, False) and _holders(free) == (1, False)
    # Nothing left with a spot: refused, nothing charged.
    with pytest.raises(scrapes.ScrapeError) as err:
        scrapes.run_scrape(new_user(credits=1_000).id, _wyoming(1))
    assert err.value.message == "No leads matched your criteria; nothing was charged. Try widening the ranges."
    _consistent()


def test_a_lead_that_filled_between_the_search_and_the_charge_is_not_delivered(cap, new_user, monkeypatch):
    cap(1)
    monkeypatch.setenv("OPEN_DATA_DATASETS", "chi-vacant-buildings-violations")
    first, second = public_record_lead(n=1), public_record_lead(n=2)
    buyer = new_user(credits=1_000)
    request = scrapes.pin_request(_wyoming(2))
    found = scrapes.generate_or_fail(buyer.id, request, None, None)  # both had a spot when searched
    unlocks.unlock_lead(new_user(credits=100).id, first)  # ... then the first filled
    result = scrapes.store(buyer.id, request, found, origin="ui", charge=True)
    assert [row["id"] for row in result.leads] == [str(second)] and result.credits_used == 100
    late = new_user(credits=1_000)  # the same two leads found: both full now
    with pytest.raises(scrapes.ScrapeError) as err:  # every lead found sold out meanwhile
        scrapes.store(late.id, request, found, origin="ui", charge=True)
    assert err.value.message == ("Every lead found sold out meanwhile (other investors took the last spots); "
                                 "nothing was charged. Try again for other leads.")
    assert _balance(late.id) == 1_000 and _holders(first) == (1, False) and _holders(second) == (1, False)
    _consistent()


@pytest.fixture
def client(db_url, monkeypatch):
    monkeypatch.setattr(webhook, "webhook_limiter", ratelimit.Limiter(f"spots-{uuid.uuid4().hex}", 1_000))
    monkeypatch.setattr(webhooks, "refusals", webhooks.RefusalCounter())
    with TestClient(create_api()) as c:
        yield c


def _call(client, user_id, key, count: int = 1):
    return client.post(f"/functions/v1/webhook-bulk-scrape/{user_id}", json={"leadCount": count, "location": "WY"},
                       headers={"content-type": "application/json", "x-webhook-auth": key})


def test_the_webhook_delivers_only_leads_with_a_spot_left(cap, client, new_user, monkeypatch):
    cap(1)
    monkeypatch.setenv("OPEN_DATA_DATASETS", "chi-vacant-buildings-violations")
    full, free = public_record_lead(n=1), public_record_lead(n=2)
    unlocks.unlock_lead(new_user(credits=100).id, full)
    caller = new_user(credits=1_000)
    key = webhooks.regenerate_key(caller.id)
    res = _call(client, caller.id, key, 2)
    assert res.status_code == 200
    body = res.json()
    assert [lead["id"] for lead in body["output"]] == [str(free)] and body["credits_used"] == 100
    res = _call(client, caller.id, key, 1)  # nothing left with a spot
    assert res.status_code == 400 and _balance(caller.id) == 900
    _consistent()


# --------------------------------------------------------------------------- races: a lead with 2 spots


def _race(calls) -> list:
    """Run every call at once (a barrier releases them together); their results or refusals."""
    barrier = threading.Barrier(len(calls))
    results: list = []

    def run(fn, *args, **kw):
        barrier.wait()
        try:
            results.append(fn(*args, **kw))
        except (unlocks.UnlockError, scrapes.ScrapeError) as exc:
            results.append(exc)

    threads = [threading.Thread(target=run, args=call[:-1], kwargs=call[-1]) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_twenty_parallel_unlocks_of_a_lead_with_2_spots_make_2_holders(cap, new_user):
    cap(2)
    lead_id = factories.add_lead(credit_cost=100)
    users = [new_user(credits=300) for _ in range(20)]
    results = _race([(unlocks.unlock_lead, u.id, lead_id, {}) for u in users])
    assert sum(isinstance(r, unlocks.UnlockResult) for r in results) == 2
    assert [(r.title, r.message) for r in results if isinstance(r, unlocks.UnlockError)] == [SOLD_OUT] * 18
    assert _holders(lead_id) == (2, False) and len(_records(lead_id)) == 2
    assert sorted(300 - _balance(u.id) for u in users) == [0] * 18 + [100, 100]
    _consistent()


def test_twenty_parallel_unlocks_and_exclusive_unlocks_never_exceed_the_cap(cap, new_user):
    cap(2)
    lead_id = factories.add_lead(credit_cost=100)
    users = [new_user(credits=300) for _ in range(20)]
    # Half ask for an ordinary unlock, half for the exclusive one (both spots, 200 credits).
    results = _race([(unlocks.unlock_lead, u.id, lead_id, {"exclusive": n % 2 == 1, "expected_spots": 2})
                     for n, u in enumerate(users)])
    won = [r for r in results if isinstance(r, unlocks.UnlockResult)]
    refused = [r for r in results if isinstance(r, unlocks.UnlockError)]
    count, exclusive = _holders(lead_id)
    assert len(won) + len(refused) == 20 and len(_records(lead_id)) == count == len(won)
    assert count == 2 or (count == 1 and exclusive and won[0].purchase_type == "exclusive")
    assert {r.title for r in refused} <= {"Sold Out", "Spots Changed"}
    assert sum(300 - _balance(u.id) for u in users) == sum(r.credits_deducted for r in won)
    _consistent()


def test_twenty_parallel_scrapes_of_a_lead_with_2_spots_make_2_holders(cap, new_user, monkeypatch):
    cap(2)
    monkeypatch.setenv("OPEN_DATA_DATASETS", "chi-vacant-buildings-violations")
    lead_id = public_record_lead()
    users = [new_user(credits=1_000) for _ in range(20)]
    results = _race([(scrapes.run_scrape, u.id, _wyoming(1), {}) for u in users])
    delivered = [r for r in results if isinstance(r, scrapes.ScrapeResult)]
    assert len(delivered) == 2 and _holders(lead_id) == (2, False) and len(_records(lead_id)) == 2
    assert all(isinstance(r, scrapes.ScrapeError) for r in results if r not in delivered)
    assert sorted(1_000 - _balance(u.id) for u in users) == [0] * 18 + [100, 100]
    _consistent()


def test_twenty_parallel_webhook_calls_on_a_lead_with_2_spots_make_2_holders(cap, client, new_user, monkeypatch):
    cap(2)
    monkeypatch.setenv("OPEN_DATA_DATASETS", "chi-vacant-buildings-violations")
    lead_id = public_record_lead()
    callers = [(u, webhooks.regenerate_key(u.id)) for u in (new_user(credits=1_000) for _ in range(20))]
    results = _race([(_call, client, u.id, key, {}) for u, key in callers])
    statuses = sorted(r.status_code for r in results)
    assert statuses == [200, 200] + [400] * 18
    assert _holders(lead_id) == (2, False) and len(_records(lead_id)) == 2
    assert sorted(1_000 - _balance(u.id) for u, _ in callers) == [0] * 18 + [100, 100]
    _consistent()
