"""Open (status) lists judged by the day they were taken (issue 38, item 1), from Baltimore's real open-notice
list and Philadelphia's delinquency extract imported the operator's way (``record_imports.import_file``, the
CLI's function), on SQLite and PostgreSQL:

- the list imported ``--as-of`` today makes a lead of every open notice with an address, however old
  (notices from 2000 to 2016), and the lead says the day its list was taken and when it was first seen;
- the same file without ``--as-of`` is as of the month its name gives (October 2016): no lead, and the
  summary says why in numbers;
- a later full snapshot without an item closes it ("no longer on the open list of ...") and moves the day of
  every item still on it; an older snapshot than the newest loaded changes nothing and says so;
- a list whose newest snapshot is older than the dataset's maximum age makes no leads;
- a file whose name gives no date is refused with one line asking for ``--as-of``.
"""

from __future__ import annotations

import csv
import shutil
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
import sqlalchemy as sa

from marketplace.features.marketplace import rules
from marketplace.features.marketplace.rules_cards import card_data
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.times import format_date
from marketplace.platform.models import DatasetRun, Lead, PropertySignal, utcnow
from marketplace.platform import ledger
from marketplace.features.unlock import service as unlocks
from marketplace.features.marketplace.service import query_page
from marketplace.features.records.service import OlderSnapshot
from marketplace.features.records.service_imports import AsOfRequired, import_file
from tests.factories import make_user

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
BALTIMORE = FIXTURES / "public_records_more" / "bal-vacant-building-notices" / "Vacant_Buildings_2016-10_sample.csv"
PHILADELPHIA = (FIXTURES / "public_records" / "phl-tax-delinquencies"
                / "real_estate_tax_delinquency_extract_2016-07_sample.csv")
TODAY = date(2026, 11, 28)
AT = datetime(2026, 11, 28, 14, 5, tzinfo=timezone.utc)
leads_t, signals_t, runs_t = Lead.__table__, PropertySignal.__table__, DatasetRun.__table__


def _rows() -> list[dict]:
    with BALTIMORE.open(encoding="utf-8-sig") as handle:
        return list(csv.DictReader(handle))


def _scalar(url, query):
    with get_engine(url).connect() as conn:
        return conn.execute(query).scalar_one()


def _active(url) -> int:
    return _scalar(url, sa.select(sa.func.count()).select_from(leads_t).where(leads_t.c.is_active == sa.true()))


def _import(url, path=BALTIMORE, *, as_of=None, today=TODAY, at=AT, **kwargs):
    return import_file("bal-vacant-building-notices", path, as_of=as_of, today=today, retrieved_at=at,
                       database_url=url, **kwargs)


def test_an_open_list_taken_today_makes_a_lead_of_every_open_notice_however_old(db_url):
    notices = _rows()
    with_address = [r for r in notices if r["BuildingAddress"].strip()]
    oldest = min(datetime.strptime(r["NoticeDate"][:10], "%m/%d/%Y").date() for r in notices)
    assert oldest.year <= 2004  # the list holds notices a decade older than its export
    summary = _import(db_url, as_of=TODAY)
    assert (summary.status, summary.snapshot, summary.leads_added) == ("ok", TODAY, len(with_address))
    assert summary.leads_note is None and summary.warning is None
    assert _active(db_url) == len(with_address)
    # every item is as of the list's day and keeps its own notice date
    with get_engine(db_url).connect() as conn:
        days = set(conn.execute(sa.select(signals_t.c.as_of).distinct()).scalars())
        flagged = set(conn.execute(sa.select(signals_t.c.status_list).distinct()).scalars())
        own = conn.execute(sa.select(sa.func.min(signals_t.c.notice_date))).scalar_one()
    assert (days, flagged, own) == ({TODAY}, {True}, oldest)
    # the card says the day its list was taken and when LeadVault first saw it (the day, locked)
    cards = query_page(rules.Filters(page_size=20), None, database_url=db_url).cards
    card = cards[0]
    assert card_data(card)["listed"] == "Baltimore City open list of Nov 28, 2026 · first seen Nov 28, 2026"
    # every card's chip: a notice of 2004 on today's open list is current (the chips read status_list too)
    assert all("Vacant" in c.signals for c in cards), [c.signals for c in cards]


def test_the_same_file_without_as_of_is_as_of_its_names_month_and_says_why_it_made_no_leads(db_url):
    summary = _import(db_url)
    assert (summary.snapshot, summary.leads_added, _active(db_url)) == (date(2016, 10, 1), 0, 0)
    age = (TODAY - date(2016, 10, 1)).days
    assert summary.leads_note == (f"0 leads: 250 records are history (list of Oct 1, 2016, {age:,} days old; "
                                  f"pass --as-of if this file is a current export)")
    # the run row the explorer's Sources panel shows ends with it too
    assert _scalar(db_url, sa.select(runs_t.c.warning)).endswith(summary.leads_note)


def test_a_later_snapshot_closes_what_left_the_list_and_dates_the_rest(db_url, tmp_path):
    # Real time here: the unlock below is stamped now, and the guarantee counts from it.
    now = utcnow()
    today, week_ago = now.date(), now.date() - timedelta(days=7)
    first = _import(db_url, as_of=week_ago, today=week_ago, at=now - timedelta(days=7))
    assert first.leads_added == _active(db_url) > 0
    rows = _rows()
    gone = rows[0]
    # an investor unlocks the lead of the notice the next list no longer holds (the guarantee below)
    with get_engine(db_url).connect() as conn:
        lead_id = conn.execute(sa.select(leads_t.c.id).join(signals_t, signals_t.c.property_id == leads_t.c.property_id)
                               .where(signals_t.c.record_key == gone["ReferenceID"])).scalar_one()
    buyer = make_user(db_url, credits=1_000)
    cost = unlocks.unlock_lead(buyer.id, lead_id, database_url=db_url).credits_deducted
    shorter = tmp_path / "open_notices.csv"
    with BALTIMORE.open(encoding="utf-8-sig") as handle:
        header = handle.readline()
    with shorter.open("w", encoding="utf-8", newline="") as out:
        out.write(header)
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writerows(rows[1:])
    later = _import(db_url, shorter, as_of=today, today=today, at=utcnow())
    assert (later.closed, later.added) == (1, 0)
    with get_engine(db_url).connect() as conn:
        closed = conn.execute(sa.select(signals_t.c.closed_reason, signals_t.c.as_of).where(
            signals_t.c.record_key == gone["ReferenceID"])).one()
        open_days = set(conn.execute(sa.select(signals_t.c.as_of).where(signals_t.c.status == "open")).scalars())
    assert closed.closed_reason == f"no longer on the open list of {format_date(today, 'UTC')}"
    assert open_days == {today}  # the items still on the list are as of the new list's day
    assert later.unchanged == len(rows) - 1  # the same items on a newer list: nothing rewritten
    # the county's next list contradicted the lead within the guarantee: its credits came back, once
    with session_scope(db_url) as session:
        assert ledger.balance(session, buyer.id) == ledger.ledger_sum(session, buyer.id) == 1_000
        assert [r.delta for r in ledger.history(session, buyer.id) if r.reason == "refund"] == [cost]
    # an older snapshot than the newest loaded changes nothing and says so
    before = _scalar(db_url, sa.select(sa.func.count()).select_from(runs_t))
    with pytest.raises(OlderSnapshot) as refused:
        _import(db_url, as_of=week_ago, today=today, at=utcnow())
    assert str(refused.value) == (f"bal-vacant-building-notices: this list of {format_date(week_ago, 'UTC')} is "
                                  f"older than the newest one loaded, the list of {format_date(today, 'UTC')}: "
                                  f"nothing changed")
    assert _scalar(db_url, sa.select(sa.func.count()).select_from(runs_t)) == before
    with get_engine(db_url).connect() as conn:
        assert conn.execute(sa.select(signals_t.c.status).where(
            signals_t.c.record_key == gone["ReferenceID"])).scalar_one() == "closed"


def test_a_list_older_than_the_maximum_age_makes_no_leads(db_url):
    taken = TODAY - timedelta(days=401)  # Baltimore's open list: 400 days
    summary = _import(db_url, as_of=taken)
    assert (summary.leads_added, _active(db_url)) == (0, 0)
    assert summary.leads_note.startswith("0 leads: 250 records are history (list of Oct 23, 2025, 401 days old")


def test_a_file_whose_name_gives_no_date_is_refused_asking_for_as_of(db_url, tmp_path):
    renamed = tmp_path / "phl_shape.csv"
    shutil.copy(PHILADELPHIA, renamed)
    with pytest.raises(AsOfRequired) as refused:
        import_file("phl-tax-delinquencies", renamed, today=TODAY, retrieved_at=AT, database_url=db_url)
    assert str(refused.value) == ("phl-tax-delinquencies is an open list and the name phl_shape.csv gives no date: "
                                  "pass --as-of YYYY-MM-DD, the day the export was taken")
    assert _scalar(db_url, sa.select(sa.func.count()).select_from(runs_t)) == 0  # nothing was stored
    with pytest.raises(ValueError, match="after today"):
        import_file("phl-tax-delinquencies", renamed, as_of=TODAY + timedelta(days=1), today=TODAY,
                    retrieved_at=AT, database_url=db_url)
    summary = import_file("phl-tax-delinquencies", renamed, as_of=TODAY, today=TODAY, retrieved_at=AT,
                          database_url=db_url)
    assert summary.leads_added > 0 and summary.snapshot == TODAY


def test_a_run_that_died_before_its_leads_leaves_them_to_the_next_by_the_list_s_day(db_url):
    """The properties a next run materialises (a run killed between its batches and its lead step) are those
    whose signal is current by ``rules_signal_currency``: an open list's notices of 2000-2016 while their
    list is young, none once the list is older than the dataset's maximum age."""
    from marketplace.features.records import service as public_records
    from marketplace.features.records.source_opendata.dataset import load_datasets

    summary = _import(db_url, as_of=TODAY)
    with session_scope(db_url) as session:
        session.execute(sa.delete(leads_t))
    max_age = load_datasets()["bal-vacant-building-notices"].max_age_days
    with get_engine(db_url).connect() as conn:
        young = public_records._leadless_properties(conn, "bal-vacant-building-notices", max_age, TODAY)
        old = public_records._leadless_properties(conn, "bal-vacant-building-notices", max_age,
                                                  TODAY + timedelta(days=max_age + 1))
    assert len(young) == summary.leads_added > 200
    assert old == set()
