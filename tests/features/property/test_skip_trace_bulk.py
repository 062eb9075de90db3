"""The bulk owner search on SQLite and PostgreSQL: the hits of a selection charged once in one ledger row,
misses free, leads already searched skipped, twin requests charged once, leads not unlocked ignored, the
balance equal to the ledger's sum, the provider batched and asked outside any transaction."""

from __future__ import annotations

import threading
import uuid
from datetime import datetime, timedelta, timezone

import pytest
import sqlalchemy as sa

from marketplace.platform.errors import UserError
from marketplace.features.property.rules_owner_contact import ContactResult
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import CreditLedger, OwnerContact, SkipTraceRun, UserLead
from marketplace.platform import ledger
from marketplace.features.property import (
    service_owner_contact as skip_trace,
    service_owner_contact_bulk as skip_trace_bulk,
)
from marketplace.features.scrape.source_base import SourceError
from marketplace.features.property.source_batchdata_skip_trace import BatchDataSkipTrace
from tests.factories import add_lead
from tests.fakes.batchdata_skip_trace import OWNER, FakeBatchDataSkipTrace

PHONE = {"number": "(512) 555-0142", "type": "Mobile", "dnc": False, "wrong": False}
NOW = datetime(2026, 11, 27, 12, 0, tzinfo=timezone.utc)


class Provider:
    """Finds the owner of the streets in ``hits`` (a miss elsewhere); records every batch it is asked."""

    name = "test"

    def __init__(self, hits: set[str], gate: threading.Barrier | None = None, fail: bool = False):
        self.hits, self.gate, self.fail, self.batches = hits, gate, fail, []

    def lookup_many(self, items):
        self.batches.append([i[0] for i in items])
        if self.gate is not None:
            self.gate.wait(timeout=10)
        if self.fail:
            raise SourceError("BatchData returned HTTP 500")
        return [ContactResult("batchdata", False, "Jane Doe", (PHONE,)) if i[0] in self.hits
                else ContactResult("batchdata", False, None) for i in items]


def unlock(user_id, *lead_ids) -> None:
    with session_scope() as session:
        for lead_id in lead_ids:
            session.add(UserLead(user_id=user_id, lead_id=uuid.UUID(str(lead_id)), credit_cost=120,
                                 purchase_type="credits"))


def balance(user_id) -> int:
    with session_scope() as session:
        return ledger.balance(session, user_id)


def ledger_sum(user_id) -> int:
    with session_scope() as session:
        return ledger.ledger_sum(session, user_id)


def bulk_rows(user_id) -> list[tuple[int, str]]:
    table = CreditLedger.__table__
    with get_engine().connect() as conn:
        return [tuple(r) for r in conn.execute(sa.select(table.c.delta, table.c.reason).where(
            table.c.user_id == user_id, table.c.reason.like("skip_trace%")))]


def contacts(user_id) -> dict[str, str]:
    with get_engine().connect() as conn:
        table = OwnerContact.__table__
        return {str(r.lead_id): r.status for r in conn.execute(sa.select(table).where(table.c.user_id == user_id))}


@pytest.fixture
def four(db_url, new_user):
    """A user with 100 credits (granted through the ledger) and four unlocked leads: two hits, two misses."""
    user = new_user(credits=100)
    leads = [add_lead(address=f"{n} Oak St") for n in (1, 2, 3, 4)]
    unlock(user.id, *leads)
    return user, [str(x) for x in leads]


def test_a_selection_charges_its_hits_once_in_one_ledger_row(four):
    user, leads = four
    quote = skip_trace_bulk.quote_bulk(user.id, leads, now=NOW)
    assert (len(quote.to_search), quote.already, quote.refused, quote.price, quote.max_cost, quote.balance) == \
        (4, 0, 0, 2, 8, 100)
    provider, seen = Provider({"1 Oak St", "3 Oak St"}), []
    result = skip_trace_bulk.find_owners(user.id, leads, provider, progress=lambda d, t: seen.append((d, t)),
                                         now=NOW)
    assert (result.searched, result.hits, result.misses, result.charged, result.balance) == (4, 2, 2, 4, 96)
    assert provider.batches == [["1 Oak St", "2 Oak St", "3 Oak St", "4 Oak St"]]  # one call for the batch
    assert seen == [(4, 4)]
    assert bulk_rows(user.id) == [(-4, "skip_trace_bulk")]  # one row: 2 hits x 2 credits; misses free
    assert balance(user.id) == 96 == ledger_sum(user.id)
    assert sorted(contacts(user.id).values()) == ["found", "found", "miss", "miss"]
    assert skip_trace.owner_contact(user.id, leads[0]).credits_charged == 2  # the property page shows it


def test_a_repeat_and_a_hand_sent_twin_charge_nothing_more(four):
    user, leads = four
    skip_trace_bulk.find_owners(user.id, leads, Provider({"1 Oak St"}), now=NOW)
    again = Provider({"1 Oak St", "2 Oak St"})
    result = skip_trace_bulk.find_owners(user.id, leads, again, now=NOW + timedelta(days=1))
    assert again.batches == [] and (result.run_id, result.charged, result.skipped) == (None, 0, 4)
    assert bulk_rows(user.id) == [(-2, "skip_trace_bulk")] and balance(user.id) == 98 == ledger_sum(user.id)


def test_two_simultaneous_runs_charge_once(four):
    user, leads = four
    gate = threading.Event()

    class Slow(Provider):
        def lookup_many(self, items):
            gate.wait(timeout=10)  # the first run holds its claim while the twin arrives
            return super().lookup_many(items)

    provider, results, errors = Slow({"1 Oak St", "2 Oak St"}), [], []

    def run():
        try:
            results.append(skip_trace_bulk.find_owners(user.id, leads, provider, now=NOW))
        except UserError as exc:
            errors.append((exc.title, exc.message))

    first = threading.Thread(target=run)
    first.start()
    for _ in range(200):  # the first run's claim is committed
        with get_engine().connect() as conn:
            if conn.execute(sa.select(sa.func.count()).select_from(SkipTraceRun.__table__)).scalar():
                break
        threading.Event().wait(0.05)
    run()  # the twin (a second tab, a double click)
    gate.set()
    first.join(timeout=60)
    assert errors == [("Search Already Running", "An owner search of your leads is already running. Wait for it "
                                                 "to finish, then try again.")]
    assert len(results) == 1 and results[0].charged == 4 and len(provider.batches) == 1
    assert bulk_rows(user.id) == [(-4, "skip_trace_bulk")] and balance(user.id) == 96 == ledger_sum(user.id)


def test_a_single_search_meanwhile_is_not_charged_twice(four):
    user, leads = four

    class Racing(Provider):
        def lookup_many(self, items):
            answers = super().lookup_many(items)
            skip_trace.find_owner_contact(user.id, leads[0], _single_hit(), now=NOW)  # the property page
            return answers

    result = skip_trace_bulk.find_owners(user.id, leads, Racing({"1 Oak St", "2 Oak St"}), now=NOW)
    assert (result.hits, result.skipped, result.charged) == (1, 1, 2)
    assert sorted(bulk_rows(user.id)) == [(-2, "skip_trace"), (-2, "skip_trace_bulk")]
    assert balance(user.id) == 96 == ledger_sum(user.id)


def _single_hit():
    class One:
        name = "test"

        def lookup(self, *args):
            return ContactResult("batchdata", False, "Jane Doe", (PHONE,))

    return One()


def test_leads_not_unlocked_are_ignored(four, new_user):
    user, leads = four
    stranger_lead = str(add_lead(address="9 Elm St"))
    other = new_user(credits=100)
    unlock(other.id, stranger_lead)
    provider = Provider({"9 Elm St", "1 Oak St"})
    result = skip_trace_bulk.find_owners(user.id, [stranger_lead, leads[0], "junk", 42, leads[0]], provider, now=NOW)
    assert provider.batches == [["1 Oak St"]] and (result.refused, result.hits, result.charged) == (2, 1, 2)
    assert list(contacts(user.id)) == [leads[0]] and contacts(other.id) == {}
    only_theirs = Provider({"9 Elm St"})
    nothing = skip_trace_bulk.find_owners(user.id, [stranger_lead], only_theirs, now=NOW)
    assert only_theirs.batches == [] and (nothing.charged, nothing.refused) == (0, 1)
    assert balance(user.id) == 98 == ledger_sum(user.id)


def test_a_miss_is_searched_again_after_30_days(four):
    user, leads = four
    skip_trace_bulk.find_owners(user.id, leads[:2], Provider(set()), now=NOW)
    early = Provider({"1 Oak St"})
    assert skip_trace_bulk.find_owners(user.id, leads[:2], early, now=NOW + timedelta(days=29)).charged == 0
    assert early.batches == []
    late = Provider({"1 Oak St"})
    result = skip_trace_bulk.find_owners(user.id, leads[:2], late, now=NOW + timedelta(days=30))
    assert late.batches == [["1 Oak St", "2 Oak St"]] and (result.hits, result.charged) == (1, 2)
    assert contacts(user.id) == {leads[0]: "found", leads[1]: "miss"}
    assert balance(user.id) == 98 == ledger_sum(user.id)


def test_too_few_credits_for_the_most_it_can_cost_is_refused_before_searching(db_url, new_user):
    user = new_user(credits=5)
    leads = [str(add_lead(address=f"{n} Oak St")) for n in (1, 2, 3)]
    unlock(user.id, *leads)
    provider = Provider({"1 Oak St"})
    with pytest.raises(UserError) as exc:
        skip_trace_bulk.find_owners(user.id, leads, provider, now=NOW)
    assert (exc.value.title, exc.value.message) == ("Insufficient Credits", "You have 5 credits but need 6.")
    assert provider.batches == [] and contacts(user.id) == {} and balance(user.id) == 5


def test_a_provider_failure_stores_and_charges_nothing_and_frees_the_run(four):
    user, leads = four
    with pytest.raises(UserError) as exc:
        skip_trace_bulk.find_owners(user.id, leads, Provider({"1 Oak St"}, fail=True), now=NOW)
    assert exc.value.title == "Owner Search Failed"
    assert contacts(user.id) == {} and balance(user.id) == 100 == ledger_sum(user.id)
    assert skip_trace_bulk.find_owners(user.id, leads, Provider({"1 Oak St"}), now=NOW).charged == 2  # not locked


def test_a_run_left_running_is_closed_after_30_minutes(four):
    user, leads = four
    with session_scope() as session:
        session.add(SkipTraceRun(user_id=user.id, status="running", created_at=NOW - timedelta(minutes=31)))
    assert skip_trace_bulk.find_owners(user.id, leads[:1], Provider({"1 Oak St"}), now=NOW).charged == 2


def test_batches_of_ten_show_progress(db_url, new_user):
    user = new_user(credits=100)
    leads = [str(add_lead(address=f"{n} Oak St")) for n in range(1, 13)]
    unlock(user.id, *leads)
    provider, seen = Provider({"12 Oak St"}), []
    result = skip_trace_bulk.find_owners(user.id, leads, provider, progress=lambda d, t: seen.append((d, t)), now=NOW)
    assert [len(b) for b in provider.batches] == [10, 2] and seen == [(10, 12), (12, 12)]
    assert (result.hits, result.charged, balance(user.id)) == (1, 2, 98)


def test_batchdata_answers_a_batch_in_one_request(db_url, new_user):
    user = new_user(credits=100)
    leads = [str(add_lead(address=street)) for street in ("12 Oak St", "14 Oak St")]
    unlock(user.id, *leads)
    with FakeBatchDataSkipTrace(api_key="k", persons={"12 oak st": [OWNER]}) as fake:
        result = skip_trace_bulk.find_owners(user.id, leads, BatchDataSkipTrace("k", fake.url), now=NOW)
        bodies = [r.body for r in fake.requests]
    assert len(bodies) == 1 and [i["requestId"] for i in bodies[0]["requests"]] == ["1", "2"]
    assert (result.hits, result.misses, result.charged) == (1, 1, 2)
    assert contacts(user.id) == {leads[0]: "found", leads[1]: "miss"}
