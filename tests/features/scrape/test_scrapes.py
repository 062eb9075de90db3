"""Bulk scrapes: the charge, the stored rows, duplicates, partial delivery, and
failures that leave credits and rows exactly as they were."""

from __future__ import annotations

import threading
import uuid

import pytest
from sqlmodel import func, select

from marketplace.features.scrape import rules
from marketplace.features.marketplace.rules_criteria import SearchCriteria
from marketplace.features.marketplace.rules import Filters
from marketplace.platform.db import session_scope
from marketplace.platform.models import BulkScrape, CreditLedger, Lead, UserLead
from marketplace.platform import ledger
from marketplace.features.scrape import service_history as scrape_history, service as scrapes
from marketplace.features.marketplace.service import query_page
from marketplace.features.scrape.source_base import SourceError
from marketplace.features.scrape.source_builtin import BuiltinSource

AUSTIN = rules.ScrapeRequest(lead_count=91, cities=("Austin, TX",))


class ListSource:
    """A lead source that hands out a fixed list of built-in leads, at most ``limit`` in all."""

    name = "list"

    def __init__(self, leads: list[dict], fail_after: int | None = None):
        self.leads = list(leads)
        self.calls = 0
        self.fail_after = fail_after

    def search(self, criteria: SearchCriteria) -> list[dict]:
        self.calls += 1
        if self.fail_after is not None and self.calls > self.fail_after:
            raise SourceError("provider went away (HTTP 503)")
        batch, self.leads = self.leads[:criteria.count], self.leads[criteria.count:]
        return batch


def _builtin(n: int, seed: int = 5) -> list[dict]:
    return BuiltinSource(seed=seed).search(SearchCriteria(count=n, cities=("Austin, TX",)))


def _counts(user_id):
    with session_scope() as s:
        return (
            ledger.balance(s, user_id),
            s.exec(select(func.count()).select_from(UserLead).where(UserLead.user_id == user_id)).one(),
            s.exec(select(func.count()).select_from(BulkScrape)).one(),
            s.exec(select(func.count()).select_from(Lead)).one(),
            s.exec(select(func.count()).select_from(CreditLedger).where(CreditLedger.user_id == user_id)).one(),
        )


def _invariant(user_id):
    with session_scope() as s:
        assert ledger.balance(s, user_id) == ledger.ledger_sum(s, user_id)


def test_a_scrape_charges_the_discounted_cost_and_stores_everything(new_user):
    user = new_user(credits=10_000)
    result = scrapes.run_scrape(user.id, AUSTIN, source=BuiltinSource(seed=1))
    assert (result.leads_generated, result.credits_used, result.balance) == (91, 5_915, 4_085)
    assert result.shortfall == ""
    assert len(result.leads) == 91 and all(row["city"] == "Austin" for row in result.leads)
    with session_scope() as s:
        scrape = s.get(BulkScrape, result.scrape_id)
        assert (scrape.user_id, scrape.lead_count, scrape.leads_generated, scrape.credits_used) == (user.id, 91, 91, 5_915)
        assert scrape.params["leadCount"] == 91 and scrape.params["expectedCost"] == 5_915
        assert [row["id"] for row in scrape.output] == [row["id"] for row in result.leads]
        unlocks = s.exec(select(UserLead).where(UserLead.user_id == user.id)).all()
        assert len(unlocks) == 91
        assert {u.purchase_type for u in unlocks} == {"bulk_scrape"}
        assert sum(u.credit_cost for u in unlocks) == 5_915
        leads = s.exec(select(Lead).where(Lead.scrape_id == result.scrape_id)).all()
        assert len(leads) == 91 and not any(lead.is_active for lead in leads)
        entry = s.exec(select(CreditLedger).where(CreditLedger.reason == "bulk_scrape")).one()
        assert (entry.delta, entry.reference_id) == (-5_915, str(result.scrape_id))
    _invariant(user.id)
    # Never listed on the marketplace.
    page = query_page(Filters(page_size=100), user.id)
    assert page.total == 0


def test_insufficient_credits_charges_nothing(new_user):
    user = new_user(credits=5_914)
    before = _counts(user.id)
    with pytest.raises(scrapes.ScrapeError) as err:
        scrapes.run_scrape(user.id, AUSTIN, source=BuiltinSource(seed=1))
    assert isinstance(err.value, scrapes.ScrapeInsufficientCredits)
    assert err.value.message == "You need 5,915 credits to run this scrape. You have 5,914 credits."
    assert _counts(user.id) == before


def test_a_source_failure_midway_leaves_everything_as_it_was(new_user, caplog):
    user = new_user(credits=100_000)
    before = _counts(user.id)
    source = ListSource(_builtin(300), fail_after=2)  # two chunks of 100, then the provider fails
    with pytest.raises(scrapes.SourceUnavailable) as err:
        scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=300), source=source)
    # The user is told the source is unavailable; the provider's words go to the server log only.
    assert (err.value.title, err.value.message) == (
        "Scrape Failed", "The lead source is unavailable right now; nothing was charged. Please try again later.")
    assert "provider went away" in caplog.text
    assert _counts(user.id) == before


def test_a_failure_inside_the_transaction_rolls_back_every_row(new_user, monkeypatch):
    user = new_user(credits=10_000)
    before = _counts(user.id)

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(ledger, "apply_credits", broken)
    with pytest.raises(RuntimeError):
        scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=20), source=BuiltinSource(seed=2))
    assert _counts(user.id) == before


def test_fewer_leads_than_asked_are_charged_as_delivered(new_user):
    user = new_user(credits=10_000)
    source = ListSource(_builtin(35))
    result = scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=60), source=source)
    assert (result.lead_count, result.leads_generated) == (60, 35)
    assert result.credits_used == rules.scrape_cost(35) == 3_325  # the tier of 35 leads (5%), not of 60
    assert result.balance == 10_000 - 3_325
    assert result.shortfall == "Only 35 of 60 matched your criteria; you were charged for the 35 delivered."
    _invariant(user.id)


def test_properties_the_user_holds_are_never_returned_or_charged_again(new_user):
    user = new_user(credits=10_000)
    leads = _builtin(10, seed=9)
    first = scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=10), source=ListSource(leads))
    assert first.leads_generated == 10
    # The same ten properties again (new listing ids, same addresses), plus five new ones.
    again = [{**lead, "external_id": f"other:{uuid.uuid4()}"} for lead in leads] + _builtin(5, seed=10)
    second = scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=10), source=ListSource(again))
    assert second.leads_generated == 5
    assert {row["address"] for row in second.leads}.isdisjoint({row["address"] for row in first.leads})
    assert second.credits_used == 500
    # Another user may get them.
    other = new_user(credits=10_000)
    third = scrapes.run_scrape(other.id, rules.ScrapeRequest(lead_count=10), source=ListSource(leads))
    assert third.leads_generated == 10


def test_a_marketplace_listing_is_not_handed_out_by_a_scrape(new_user):
    from marketplace.features.scrape.service_seeding import insert_leads

    user = new_user(credits=10_000)
    listed = _builtin(3, seed=21)
    insert_leads(listed)
    result = scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=3),
                                source=ListSource(listed + _builtin(3, seed=22)))
    assert result.leads_generated == 3
    assert {row["address"] for row in result.leads}.isdisjoint({lead["address"] for lead in listed})


def test_uncharged_scrape_for_super_admin_variant(new_user):
    user = new_user(credits=0)
    result = scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=5), source=BuiltinSource(seed=3),
                                charge=False, origin="webhook")
    assert (result.leads_generated, result.credits_used, result.balance) == (5, 0, 0)
    _invariant(user.id)


def test_impossible_criteria_are_refused_without_a_charge(new_user):
    user = new_user(credits=10_000)
    before = _counts(user.id)
    with pytest.raises(scrapes.ScrapeError) as err:
        scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=5, price=(500_000, 100_000)))
    assert err.value.message == "Price: the minimum (500,000) is above the maximum (100,000)."
    with pytest.raises(scrapes.ScrapeError) as err:
        scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=5, cities=("Atlantis, TX",)))
    assert "Atlantis" in err.value.message
    assert _counts(user.id) == before


def _in_parallel(scrape, n: int) -> tuple[list, list]:
    """Run ``scrape(i)`` for i in range(n) on n threads at once: (results, ScrapeErrors)."""
    results, errors = [], []

    def go(i):
        try:
            results.append(scrape(i))
        except scrapes.ScrapeError as exc:
            errors.append(exc)

    threads = [threading.Thread(target=go, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results, errors


def test_parallel_scrapes_never_overdraw(new_user):
    user = new_user(credits=rules.scrape_cost(40) * 2 + 10)
    results, errors = _in_parallel(lambda seed: scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=40),
                                                                   source=BuiltinSource(seed=seed)), 5)
    assert len(results) == 2 and len(errors) == 3
    assert {type(e) for e in errors} == {scrapes.ScrapeInsufficientCredits}
    with session_scope() as s:
        assert ledger.balance(s, user.id) == 10
        assert s.exec(select(func.count()).select_from(BulkScrape)).one() == 2
        assert s.exec(select(func.count()).select_from(Lead)).one() == 80
    _invariant(user.id)


class SameListings:
    """A deterministic source (as the HTTP sources are): the same query returns the same listings.
    After the last chunk it waits at ``barrier``, so every scrape has read what the user holds
    before any of them stores (the window two tabs, a tab and a webhook call, or a retry hit)."""

    name = "same"

    def __init__(self, leads: list[dict]):
        self.leads = leads

    def search(self, criteria: SearchCriteria) -> list[dict]:
        return [dict(lead) for lead in self.leads[:criteria.count]]


@pytest.mark.parametrize("same_address_only", [False, True])
def test_two_concurrent_scrapes_never_deliver_or_charge_a_property_twice(new_user, same_address_only):
    """Issue 22, finding 1: fails on the unfixed code (both scrapes charged for the same 10 listings)."""
    user = new_user(credits=10_000)
    leads = [{**lead, "external_id": f"rentcast:{i}"} for i, lead in enumerate(_builtin(10, seed=31))]
    barrier = threading.Barrier(2, timeout=20)

    def progress(done, total):
        if done == total:  # generation finished: the held check has run
            barrier.wait()

    def scrape(n):
        listings = leads if not same_address_only else [{**lead, "external_id": f"t{n}:{i}"}
                                                         for i, lead in enumerate(leads)]
        return scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=10), source=SameListings(listings),
                                  progress=progress)

    results, errors = _in_parallel(scrape, 2)
    assert len(results) == 1, (results, errors)
    assert [e.message for e in errors] == [
        "Every lead found was delivered to you meanwhile by another scrape; nothing was charged. "
        "Run the scrape again for new leads."]
    assert results[0].credits_used == 1_000
    balance, unlocks, scrapes_stored, leads_stored, ledger_rows = _counts(user.id)
    assert (balance, unlocks, scrapes_stored, leads_stored) == (9_000, 10, 1, 10)
    _invariant(user.id)


def test_the_database_refuses_a_second_delivery_that_slips_past_the_check(new_user, monkeypatch):
    """The held_properties key backs the locked re-check: with the check switched off, the second
    delivery of the same listing still charges nothing."""
    user = new_user(credits=10_000)
    leads = [{**lead, "external_id": f"rentcast:{i}"} for i, lead in enumerate(_builtin(3, seed=32))]
    scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=3), source=SameListings(leads))
    before = _counts(user.id)
    monkeypatch.setattr(scrapes, "_held", lambda session, user_id, candidates: (set(), set()))
    with pytest.raises(scrapes.ScrapeError) as err:
        scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=3), source=SameListings(leads))
    assert "delivered to you meanwhile" in err.value.message
    assert _counts(user.id) == before


def test_a_city_without_a_state_is_the_largest_of_that_name(new_user):
    """Issue 24 item 6: 'Austin, Dallas' with no state is Austin, TX and Dallas, TX, as stored."""
    user = new_user(credits=10_000)
    request = rules.ScrapeRequest(lead_count=40, cities=("Austin", "Dallas"))
    result = scrapes.run_scrape(user.id, request, source=BuiltinSource(seed=2))
    assert {(row["city"], row["state"]) for row in result.leads} == {("Austin", "TX"), ("Dallas", "TX")}
    with session_scope() as s:
        assert s.get(BulkScrape, result.scrape_id).params["cities"] == ["Austin, TX", "Dallas, TX"]
    # With states selected, a city matches only within them.
    within = scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=5, cities=("Austin",), states=("NV",)),
                                source=BuiltinSource(seed=2))
    assert {(row["city"], row["state"]) for row in within.leads} == {("Austin", "NV")}


def test_an_unknown_city_is_refused_before_anything_is_charged(new_user):
    user = new_user(credits=10_000)
    before = _counts(user.id)
    with pytest.raises(scrapes.ScrapeError) as err:
        scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=5, cities=("Austin",), states=("CA",)))
    assert err.value.message == "No such city in CA: Austin."
    assert _counts(user.id) == before


def test_last_scrape_is_the_newest_from_the_page(new_user):
    """Issue 24 item 14: the page shows the last scrape's results again after a reload."""
    user, other = new_user(credits=10_000), new_user(credits=10_000)
    assert scrape_history.last_scrape(user.id) is None
    first = scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=3, cities=("Austin, TX",)),
                               source=BuiltinSource(seed=4))
    second = scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=2, cities=("Dallas, TX",)),
                                source=BuiltinSource(seed=4))
    scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=1, cities=("Miami, FL",)),
                       source=BuiltinSource(seed=4), origin="webhook")
    scrapes.run_scrape(other.id, rules.ScrapeRequest(lead_count=1), source=BuiltinSource(seed=4))
    last = scrape_history.last_scrape(user.id)
    assert first.scrape_id != second.scrape_id
    assert (last.id, last.lead_count, last.leads_generated, last.credits_used) == (second.scrape_id, 2, 2, 200)
    assert [row["id"] for row in last.output] == [row["id"] for row in second.leads]
    assert {row["city"] for row in last.output} == {"Dallas"} and last.shortfall == ""
