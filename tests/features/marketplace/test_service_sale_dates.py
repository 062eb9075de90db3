"""'Auction Soon' is a sale date within 30 days (issue 24 item 9): the marketplace filter and count, saved
searches and their alerts, public-record leads' dates, demo dates. SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import date, timedelta

import sqlalchemy as sa

from marketplace.features.marketplace import rules_sale_dates as sale_dates
from marketplace.features.marketplace import rules
from marketplace.features.marketplace.rules_criteria import SearchCriteria
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import Lead, LeadRefreshRun, Notification, utcnow
from marketplace.features.marketplace import service_alerts as alerts, service as svc
from marketplace.features.marketplace import service_saved_searches as searches
from marketplace.features.scrape.source_builtin import BuiltinSource
from tests.factories import add_lead
from tests.features.records.test_public_records import SHERIFF, TODAY as RECORDS_TODAY, ingest, rows, sheriff


def _today() -> date:
    return sale_dates.local_today(utcnow())


def _dated_leads(**extra) -> dict[str, str]:
    """Leads at -1, 0, 29, 30, 31 and 45 days, and none; by label -> id."""
    today = _today()
    made = {}
    for label, offset, lead_type in (("past", -1, "Auction"), ("today", 0, "Auction"), ("d29", 29, "Auction"),
                                     ("d30", 30, "Pre-Foreclosure"), ("d31", 31, "Auction"), ("d45", 45, "Auction"),
                                     ("probate10", 10, "Probate")):
        made[label] = str(add_lead(address=f"{offset + 100} Sale St", lead_type=lead_type,
                                   sale_date=today + timedelta(days=offset), **extra))
    made["undated"] = str(add_lead(address="1 Undated St", lead_type="Auction", **extra))
    return made


def test_the_filter_returns_exactly_the_leads_with_a_sale_within_thirty_days(db_url):
    made = _dated_leads()
    add_lead(address="2 Gone St", lead_type="Auction", sale_date=_today() + timedelta(days=3), is_active=False)
    page = svc.query_page(rules.Filters(tags=("auction_soon",), page_size=50))
    assert sorted(c.id for c in page.cards) == sorted(made[k] for k in ("today", "d29", "d30", "probate10"))
    assert page.total == 4
    assert all(c.auction_soon for c in page.cards)
    # Tags combine with OR; a type filter with AND.
    both = svc.query_page(rules.Filters(tags=("auction_soon",), lead_types=("Auction",), page_size=50))
    assert sorted(c.id for c in both.cards) == sorted(made[k] for k in ("today", "d29"))


def test_cards_carry_the_tag_and_the_day_count_never_the_date(db_url):
    made = _dated_leads()
    cards = {c.id: c for c in svc.query_page(rules.Filters(page_size=50)).cards}
    assert (cards[made["d29"]].auction_soon, cards[made["d29"]].sale_in) == (True, "Sale in 29 days")
    assert (cards[made["d45"]].auction_soon, cards[made["d45"]].sale_in) == (False, "Sale in 45 days")
    assert (cards[made["today"]].sale_in, cards[made["past"]].sale_in, cards[made["undated"]].sale_in) == (
        "Sale today", "", "")
    assert not cards[made["past"]].auction_soon and not cards[made["undated"]].auction_soon
    assert not hasattr(cards[made["d29"]], "sale_date")


def test_saved_searches_count_and_alert_by_the_same_rule(db_url, new_user):
    user = new_user(confirmed=True)
    soon = searches.create_saved_search(user.id, "Auctions soon", "tag=auction_soon")
    with session_scope() as s:
        run = LeadRefreshRun(run_key="sale-dates", run_date=_today(), status="completed")
        s.add(run)
        s.flush()
        run_id = run.id
    made = _dated_leads(refresh_run_id=run_id)
    [view] = searches.list_saved_searches(user.id)
    assert view.id == soon.id and view.matches_now == 4
    summary = alerts.match_refresh(run_id)
    assert summary["new_leads"] == len(made)
    with get_engine().connect() as conn:
        [note] = conn.execute(sa.select(Notification.__table__)).all()
    assert note.lead_count == 4
    assert sorted(note.matches["lead_ids"]) == sorted(made[k] for k in ("today", "d29", "d30", "probate10"))


def test_a_public_record_lead_takes_its_next_sale_date_from_the_sale_list(db_url):
    ingest(SHERIFF, [sheriff(sale=RECORDS_TODAY + timedelta(days=20))])
    [lead] = rows(db_url, Lead)
    assert lead.sale_date == RECORDS_TODAY + timedelta(days=20)
    assert sale_dates.source_text(lead.raw_data) == (
        "Sheriff sale date from Sheriff Sales (Bid4Assets), retrieved Nov 25, 2026")


def test_the_generator_dates_its_auction_and_pre_foreclosure_leads_only():
    leads = BuiltinSource(seed=3).search(SearchCriteria(count=200))
    dated = [r for r in leads if r["sale_date"] is not None]
    assert {r["lead_type"] for r in dated} == {"Auction", "Pre-Foreclosure"}
    assert all(r["lead_type"] not in sale_dates.DATED_DEMO_TYPES for r in leads if r["sale_date"] is None)
    made_on = sale_dates.local_today(leads[0]["created_at"])
    assert all(made_on + timedelta(days=1) <= r["sale_date"] <= made_on + timedelta(days=90) for r in dated)
    again = BuiltinSource(seed=3).search(SearchCriteria(count=200))
    assert [r["sale_date"] for r in again] == [r["sale_date"] for r in leads]
