"""How many investors hold a lead (leads.unlock_count): every write of an unlock record moves it in its
own transaction, never twice for one user, and the marketplace filters and sorts by it."""

from __future__ import annotations

import threading
import uuid
from datetime import date

import pytest
import sqlalchemy as sa

from marketplace.features.marketplace import rules
from marketplace.features.marketplace import rules_saved_searches as searches
from marketplace.features.scrape import rules as scrape_rules
from marketplace.features.unlock.rules_holders import HELD_SORT
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import Lead, LeadRefreshRun, UserLead
from marketplace.features.accounts import service_settings as account_settings
from marketplace.features.marketplace import service_alerts as alerts, service_saved_searches as saved_searches
from marketplace.features.marketplace import service_notifications as notifications
from marketplace.features.property import service as property_desk
from marketplace.features.scrape import service as scrapes
from marketplace.features.unlock import service_counts as unlock_counts, service as unlocks
from marketplace.features.marketplace.service import query_page
from marketplace.features.scrape.source_builtin import BuiltinSource
from tests import factories
from tests.features.records.test_record_inventory import ANY, import_current

leads_t = Lead.__table__


def _count(lead_id) -> int:
    with get_engine().connect() as conn:
        return conn.execute(sa.select(leads_t.c.unlock_count).where(leads_t.c.id == lead_id)).scalar_one()


def _consistent() -> None:
    """Every counter equals the live accounts holding an unlock record of the lead."""
    with get_engine().begin() as conn:
        assert unlock_counts.recount(conn) == 0


def _card(lead_id, user_id=None, **filters):
    page = query_page(rules.Filters(page_size=100, **filters), user_id)
    return next(card for card in page.cards if card.id == str(lead_id))


def _parallel(calls):
    barrier = threading.Barrier(len(calls))
    results = []

    def run(fn, args):
        barrier.wait()
        try:
            results.append(fn(*args))
        except unlocks.UnlockError as exc:
            results.append(exc)

    threads = [threading.Thread(target=run, args=call) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_two_investors_unlocking_a_lead_count_two(new_user):
    lead_id = factories.add_lead(credit_cost=100)
    first, second = new_user(credits=500), new_user(credits=500)
    assert _count(lead_id) == 0
    assert _card(lead_id).unlock_count == 0
    unlocks.unlock_lead(first.id, lead_id)
    assert _count(lead_id) == 1
    unlocks.unlock_lead(second.id, lead_id)
    assert _count(lead_id) == 2
    # Every viewer's card carries the count (signed out, a third user, a holder).
    assert _card(lead_id).unlock_count == 2
    assert _card(lead_id, new_user().id).unlock_count == 2
    assert _card(lead_id, first.id).unlock_count == 2
    # ... and the property page reads it with the lead.
    assert property_desk.load(first.id, str(lead_id)).lead.unlock_count == 2
    _consistent()


def test_a_second_unlock_by_the_same_user_counts_once(new_user):
    lead_id = factories.add_lead(credit_cost=100)
    user = new_user(credits=500)
    unlocks.unlock_lead(user.id, lead_id)
    with pytest.raises(unlocks.UnlockError) as err:
        unlocks.unlock_lead(user.id, lead_id)
    assert err.value.message == "You have already unlocked this lead."
    assert _count(lead_id) == 1
    _consistent()


def test_twin_unlocks_count_once_and_concurrent_investors_all_count(new_user):
    lead_id = factories.add_lead(credit_cost=100)
    user = new_user(credits=500)
    results = _parallel([(unlocks.unlock_lead, (user.id, lead_id)), (unlocks.unlock_lead, (user.id, lead_id))])
    assert sorted(type(r).__name__ for r in results) == ["UnlockError", "UnlockResult"]
    assert _count(lead_id) == 1
    # Four other investors at once: no increment is lost.
    others = [new_user(credits=500) for _ in range(4)]
    results = _parallel([(unlocks.unlock_lead, (other.id, lead_id)) for other in others])
    assert all(isinstance(r, unlocks.UnlockResult) for r in results)
    assert _count(lead_id) == 5
    _consistent()


def test_a_refused_unlock_does_not_count(new_user):
    lead_id = factories.add_lead(credit_cost=100)
    with pytest.raises(unlocks.UnlockError):
        unlocks.unlock_lead(new_user(credits=99).id, lead_id)  # too few credits: rolled back
    assert _count(lead_id) == 0
    _consistent()


def test_closing_an_account_takes_it_off_every_count_once(new_user):
    leads = [factories.add_lead(credit_cost=50) for _ in range(3)]
    leaving, staying = new_user(credits=500), new_user(credits=500)
    for lead_id in leads:
        unlocks.unlock_lead(leaving.id, lead_id)
    unlocks.unlock_lead(staying.id, leads[0])
    assert [_count(lead_id) for lead_id in leads] == [2, 1, 1]
    account_settings.delete_account(leaving.id, leaving.email)
    assert [_count(lead_id) for lead_id in leads] == [1, 0, 0]
    assert _card(leads[0], staying.id).unlock_count == 1
    # Its unlock records stay (the ledger refers to them); a second deletion is refused and changes nothing.
    with get_engine().connect() as conn:
        kept = conn.execute(sa.select(sa.func.count()).select_from(UserLead.__table__)
                            .where(UserLead.__table__.c.user_id == leaving.id)).scalar_one()
    assert kept == 3
    with pytest.raises(account_settings.SettingsError):
        account_settings.delete_account(leaving.id, leaving.email)
    assert [_count(lead_id) for lead_id in leads] == [1, 0, 0]
    _consistent()


def test_a_bulk_scrape_counts_its_buyer_on_every_lead_it_delivers(new_user):
    user = new_user(credits=10_000)
    result = scrapes.run_scrape(user.id, scrape_rules.ScrapeRequest(lead_count=3, cities=("Austin, TX",)),
                                source=BuiltinSource(seed=3))
    assert [_count(uuid.UUID(row["id"])) for row in result.leads] == [1, 1, 1]
    _consistent()


def test_a_bulk_scrape_of_inventory_leads_counts_on_the_listed_lead(db_url, new_user, monkeypatch, tmp_path):
    import_current(tmp_path)
    monkeypatch.setenv("OPEN_DATA_DATASETS", "chi-vacant-buildings-violations")
    buyer, other = new_user(credits=10_000), new_user(credits=10_000)
    result = scrapes.run_scrape(buyer.id, scrape_rules.ScrapeRequest(lead_count=2, states=("IL",), **ANY))
    delivered = [uuid.UUID(row["id"]) for row in result.leads]
    assert [_count(lead_id) for lead_id in delivered] == [1, 1]
    unlocks.unlock_lead(other.id, delivered[0])  # the same marketplace lead, unlocked by another investor
    assert _card(delivered[0], held=("1-2",)).unlock_count == 2
    _consistent()


def test_the_held_filter_and_the_least_unlocked_sort(new_user):
    held = {n: factories.add_lead(credit_cost=10, roi=10.0 + n) for n in (0, 1, 2, 3)}
    also_nobody = factories.add_lead(credit_cost=10, roi=None)
    users = [new_user(credits=100) for _ in range(3)]
    for n, lead_id in held.items():
        for user in users[:n]:
            unlocks.unlock_lead(user.id, lead_id)
    ids = lambda page: [card.id for card in page.cards]  # noqa: E731

    nobody = query_page(rules.Filters(held=("none",)))
    assert nobody.total == 2 and set(ids(nobody)) == {str(held[0]), str(also_nobody)}
    few = query_page(rules.Filters(held=("1-2",)))
    assert few.total == 2 and set(ids(few)) == {str(held[1]), str(held[2])}
    assert ids(query_page(rules.Filters(held=("3plus",)))) == [str(held[3])]
    assert query_page(rules.Filters(held=("none", "3plus"))).total == 3
    # Least unlocked first; among equals the best ROI first (a lead without one last).
    ordered = query_page(rules.Filters(sort=HELD_SORT))
    assert ids(ordered) == [str(held[0]), str(also_nobody), str(held[1]), str(held[2]), str(held[3])]
    assert [card.unlock_count for card in ordered.cards] == [0, 0, 1, 2, 3]
    # The URL carries both; junk values are dropped.
    filters = rules.Filters.from_query("held=none&held=1-2&held=everyone&sort=held_asc")
    assert (filters.held, filters.sort) == (("none", "1-2"), HELD_SORT)
    assert filters.to_query() == "held=none&held=1-2&sort=held_asc"


def test_a_saved_search_on_the_held_filter_counts_matches_alerts_and_says_what_it_asks(new_user):
    user = new_user(credits=100, confirmed=True)
    factories.add_lead(credit_cost=10)
    someone = factories.add_lead(credit_cost=10)
    unlocks.unlock_lead(new_user(credits=100).id, someone)
    saved = saved_searches.create_saved_search(user.id, "Untouched", "held=none&sort=held_asc")
    assert saved.summary == "Unlocked by nobody yet · sorted by Least unlocked"
    assert [(v.name, v.matches_now) for v in saved_searches.list_saved_searches(user.id)] == [("Untouched", 1)]
    held = saved_searches.create_saved_search(user.id, "Contested", "held=3plus")
    # The alert matches a refresh's new leads by how many hold them when it goes out: nobody, so far.
    with session_scope() as s:
        run = LeadRefreshRun(run_key="held", run_date=date(2026, 11, 27), status="completed")
        s.add(run)
        s.flush()
        run_id = run.id
    factories.add_lead(address="4 New Rd", refresh_run_id=run_id)
    alerts.match_refresh(run_id)
    [note] = notifications.list_notifications(user.id)
    assert note.body == "Untouched: 1" and "Contested" not in note.body and held.matches_now == 0
    assert searches.matches(rules.Filters(held=("1-2",)),
                            searches.lead_facets("Probate", 12.0, 1500, True, False, unlock_count=2))
    assert not searches.matches(rules.Filters(held=("none",)),
                                searches.lead_facets("Probate", 12.0, 1500, True, False, unlock_count=1))


def test_every_writer_of_unlock_records_keeps_the_count():
    """A module that inserts or deletes ``user_leads`` rows moves the counter in the same transaction
    (unlock.service_counts); a new writer that forgets fails here."""
    import re
    from pathlib import Path

    import marketplace

    root = Path(marketplace.__file__).parent
    writes = re.compile(r"UserLead\(|insert\(UserLead|delete\(UserLead|insert\(user_leads|delete\(user_leads"
                        r"|UserLead\.__table__\.delete|UserLead\.__table__\.insert")
    writers = sorted(str(path.relative_to(root)) for path in root.rglob("*.py")
                     if path.parts[-2] != "models" and writes.search(path.read_text()))
    assert writers == ["features/scrape/service.py", "features/unlock/service.py"]
    for name in writers:  # a marketplace lead's holder claims a spot of the cap (unlock_counts.claim)
        text = (root / name).read_text()
        assert "unlock_counts.added(" in text or "unlock_counts.claim(" in text, name
    assert "unlock_counts.removed_for_user(" in (root / "features" / "accounts" / "service_settings.py").read_text()
