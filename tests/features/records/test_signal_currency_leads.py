"""Past events are never sold as new (public-record leads): a held sale closes its signal and makes no
Auction lead, a notice older than its dataset's maximum age is history, "New" means first seen and dated
within seven days; the property page lists the history with its event dates."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import sqlalchemy as sa

from marketplace.features.records import service_titles as record_titles
from marketplace.features.marketplace import rules
from marketplace.features.records.rules import MappedRecord
from marketplace.platform.db import get_engine
from marketplace.platform.models import Lead, Property, PropertySignal
from marketplace.features.records import (
    service as public_records,
    service_imports as record_imports,
        service_views as record_views,
)
from marketplace.features.unlock import service as unlocks
from marketplace.features.marketplace.service import query_page
from tests.factories import make_user
from tests.features.records.test_public_records import DS, SHERIFF, TAX, TITLES, ingest, sheriff, tax
from tests.features.records.opendata_helpers import sample

BALTIMORE = "bal-tax-sale-bidbaltimore"
TODAY = date(2026, 11, 25)
CHICAGO = DS("chi-vacant-buildings-violations", "Vacant and Abandoned Buildings - Violations",
             publisher="City of Chicago", state="IL", max_age_days=60)


def rows(url, model, *where):
    with get_engine(url).connect() as conn:
        return conn.execute(sa.select(model.__table__).where(*where)).all()


def at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, 0, tzinfo=timezone.utc)


def vacancy(key="11CP015666", issued=date(2026, 11, 15), **kw) -> MappedRecord:
    fields = dict(dataset_id=CHICAGO.id, record_key=key, kind="vacant", as_of=issued, notice_date=issued,
                  address="9332 S LASALLE ST", city="CHICAGO", state="IL", zip_code="60620")
    fields.update(kw)
    return MappedRecord(**fields)


def test_baltimore_2020_tax_sale_gives_history_not_an_active_auction_lead(db_url):
    summary = record_imports.import_file(BALTIMORE, sample(BALTIMORE), today=date(2026, 11, 27),
                                         retrieved_at=at(date(2026, 11, 27)))
    assert (summary.status, summary.rows_read, summary.leads_added) == ("ok", 231, 0)
    assert rows(db_url, Lead) == []  # no active Auction lead, no New badge: no lead at all
    assert query_page(rules.Filters(tags=("new",)), None, database_url=db_url).cards == []
    props, signals = rows(db_url, Property), rows(db_url, PropertySignal)
    assert len(props) > 200 and len(signals) == len(props)
    # Every signal is the 2020 sale, held: closed with the sale's date, shown as history with it.
    assert {(s.kind, s.sale_type, s.sale_date, s.status, s.closed_reason) for s in signals} == {
        ("sale_list", "tax", date(2020, 7, 23), "closed", "sale held on 2020-07-23")}
    titles = record_titles.titles()
    assert set(record_views.history_lines([], signals, titles, date(2026, 11, 27))) == {
        "Tax sale held Jul 23, 2020 (history)"}
    again = record_imports.import_file(BALTIMORE, sample(BALTIMORE), today=date(2026, 11, 27))
    assert (again.added, again.updated, again.unchanged) == (0, 0, summary.rows_read - summary.rejected)
    assert (again.leads_added, len(rows(db_url, Lead))) == (0, 0)


def test_baltimore_before_its_sale_is_an_auction_soon_lead_then_history_on_the_property_page(db_url):
    # The clock at the report's date: the sale is tomorrow.
    record_imports.import_file(BALTIMORE, sample(BALTIMORE), today=date(2020, 7, 22),
                               retrieved_at=at(date(2020, 7, 22)))
    leads = rows(db_url, Lead)
    assert len(leads) > 200
    assert {(lead.lead_type, lead.is_active, lead.is_new, lead.sale_date) for lead in leads} == {
        ("Auction", True, True, date(2020, 7, 23))}
    lead = leads[0]
    user = make_user(db_url, credits=100_000)
    unlocks.unlock_lead(user.id, lead.id, database_url=db_url)
    before = record_views.public_record_panel(lead.id, user.id, database_url=db_url, today=date(2020, 7, 22))
    assert ([c.label for c in before.chips], before.closed) == (["Tax sale"], [])
    # The day after the sale: the signal closes, the lead is archived and loses its New badge.
    result = public_records.rescore_leads(date(2020, 7, 24), titles=record_titles.titles())
    # Every row's signal closes, the 27 parcels without a ZIP (parcel-only, no lead) included.
    assert result["closed"] == len(rows(db_url, PropertySignal)) == 231 and result["archived"] == len(leads)
    after = rows(db_url, Lead, Lead.__table__.c.id == lead.id)[0]
    assert (after.is_active, after.is_new) == (False, False)
    panel = record_views.public_record_panel(lead.id, user.id, database_url=db_url, today=date(2020, 7, 24))
    assert (panel.chips, panel.closed) == ([], ["Tax sale held Jul 23, 2020 (history)"])


def test_a_notice_older_than_its_datasets_maximum_age_does_not_keep_a_lead_active(db_url):
    titles = record_titles.dataset_titles([CHICAGO, TAX, SHERIFF])
    public_records.ingest(CHICAGO, [vacancy()], mode="file", retrieved_at=at(TODAY), today=TODAY, titles=titles)
    (lead,) = rows(db_url, Lead)
    assert (lead.lead_type, lead.is_active) == ("Vacancy", True)
    user = make_user(db_url, credits=100_000)
    unlocks.unlock_lead(user.id, lead.id, database_url=db_url)
    # 61 days after the notice it is older than the dataset's 60 days: alone it keeps no lead.
    later = date(2026, 11, 15) + timedelta(days=61)
    assert public_records.rescore_leads(later, titles=titles)["archived"] == 1
    (lead,) = rows(db_url, Lead)
    assert (lead.is_active, lead.is_new) == (False, False)
    assert [s.status for s in rows(db_url, PropertySignal)] == ["open"]  # still in its dataset: history
    panel = record_views.public_record_panel(lead.id, user.id, titles=titles, database_url=db_url, today=later)
    assert (panel.chips, panel.closed) == ([], ["Vacancy notice of Nov 15, 2026 (history)"])
    # The same notice re-published with a new date makes the lead current again.
    public_records.ingest(CHICAGO, [vacancy(issued=later)], mode="file", retrieved_at=at(later), today=later,
                          titles=titles)
    assert rows(db_url, Lead)[0].is_active is True


def test_a_stale_notice_beside_a_current_signal_is_history_only(db_url):
    titles = record_titles.dataset_titles([CHICAGO, TAX, SHERIFF])
    old = vacancy(issued=date(2016, 10, 5), address="5818 WOODCREST AVE", city="PHILADELPHIA", state="PA",
                  zip_code="19131", parcel_id="522145900")
    public_records.ingest(CHICAGO, [old], mode="file", retrieved_at=at(TODAY), today=TODAY, titles=titles)
    assert rows(db_url, Lead) == []
    public_records.ingest(TAX, [tax()], mode="file", retrieved_at=at(TODAY), today=TODAY, titles=titles)
    (lead,) = rows(db_url, Lead)
    assert (lead.lead_type, lead.is_active, lead.signal_count) == ("Tax Delinquent", True, 1)
    assert not any("Vacant" in reason for reason in lead.raw_data["motivation_reasons"])
    user = make_user(db_url, credits=100_000)
    unlocks.unlock_lead(user.id, lead.id, database_url=db_url)
    panel = record_views.public_record_panel(lead.id, user.id, titles=titles, database_url=db_url, today=TODAY)
    assert [c.label for c in panel.chips] == ["Tax delinquent"]
    assert panel.closed == ["Vacancy notice of Oct 5, 2016 (history)"]
    with get_engine(db_url).connect() as conn:
        assert record_views.chip_labels(conn, [lead.property_id], titles=titles, today=TODAY) == {
            lead.property_id: ["Tax delinquent"]}


def test_new_means_first_seen_within_seven_days_from_a_current_record(db_url):
    three_days_ago = TODAY - timedelta(days=3)
    public_records.ingest(CHICAGO, [vacancy(issued=three_days_ago)], mode="file", retrieved_at=at(three_days_ago),
                          today=three_days_ago, titles=record_titles.dataset_titles([CHICAGO]))
    # A sale list first stored today from a 2016 row: its sale is ahead (current, Auction Soon), not New.
    ingest(SHERIFF, [sheriff(as_of=date(2016, 7, 1), sale=TODAY + timedelta(days=20))])
    public_records.rescore_leads(TODAY, titles=record_titles.dataset_titles([CHICAGO, SHERIFF, TAX]))
    by_type = {lead.lead_type: lead for lead in rows(db_url, Lead)}
    assert (by_type["Vacancy"].is_active, by_type["Vacancy"].is_new) == (True, True)
    assert (by_type["Auction"].is_active, by_type["Auction"].is_new) == (True, False)
    assert by_type["Auction"].sale_date == TODAY + timedelta(days=20)
    # Seven days after it was first seen the vacancy is no longer New (still current: 60 days).
    public_records.rescore_leads(three_days_ago + timedelta(days=7),
                                 titles=record_titles.dataset_titles([CHICAGO, SHERIFF, TAX]))
    vacancy_lead = rows(db_url, Lead, Lead.__table__.c.lead_type == "Vacancy")[0]
    assert (vacancy_lead.is_active, vacancy_lead.is_new) == (True, False)


def test_the_daily_generated_refresh_leaves_public_record_new_badges_alone(db_url):
    from marketplace.features.records.jobs_refresh import run_refresh
    from marketplace.features.scrape.source_builtin import BuiltinSource

    public_records.ingest(CHICAGO, [vacancy(issued=TODAY)], mode="file", retrieved_at=at(TODAY), today=TODAY,
                          titles=record_titles.dataset_titles([CHICAGO]))
    first = run_refresh(trigger="manual", force=True, source=BuiltinSource(seed=1), count=3, database_url=db_url)
    second = run_refresh(trigger="manual", force=True, source=BuiltinSource(seed=2), count=3, database_url=db_url)
    assert (first["status"], second["status"]) == ("completed", "completed")
    record_lead = rows(db_url, Lead, Lead.__table__.c.property_id.is_not(None))[0]
    generated_new = rows(db_url, Lead, Lead.__table__.c.property_id.is_(None), Lead.__table__.c.is_new == sa.true())
    assert record_lead.is_new is True
    assert len(generated_new) == 3  # the generated leads keep their rule: only the last run's are New
