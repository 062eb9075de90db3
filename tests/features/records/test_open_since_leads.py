"""How long a status item has been open (issue 38, item 2), from real samples imported the operator's way
(``record_imports.import_file``), on SQLite and PostgreSQL: the lead keeps its longest-open item, the
locked card shows its year and nothing private, the unlocked card and the property page its day, and the
motivation score counts it.

The samples are old lists (Baltimore's open notices exported in October 2016, Philadelphia's delinquency
extract of July 2016): they are imported as of their export day (``today``), when their items were
current, and the card is looked at from a viewer's day of 2026.
"""

from __future__ import annotations

import csv
import dataclasses
from datetime import date, datetime, timezone
from pathlib import Path

import sqlalchemy as sa

from marketplace.features.marketplace import rules
from marketplace.features.records import rules_open_since as open_since
from marketplace.features.marketplace.rules_cards import card_data, with_action
from marketplace.features.property.rules import property_view
from marketplace.platform.db import get_engine
from marketplace.platform.models import Lead
from marketplace.features.property import service as property_desk
from marketplace.features.unlock import service as unlocks
from marketplace.features.marketplace.service_map import map_card
from marketplace.features.marketplace.service import query_page
from marketplace.features.records.service_imports import import_file
from marketplace.features.marketplace.rules_criteria import SearchCriteria
from marketplace.features.scrape.source_builtin import BuiltinSource
from tests.factories import add_lead, make_user

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
BALTIMORE = FIXTURES / "public_records_more" / "bal-vacant-building-notices" / "Vacant_Buildings_2016-10_sample.csv"
PHILADELPHIA = (FIXTURES / "public_records" / "phl-tax-delinquencies"
                / "real_estate_tax_delinquency_extract_2016-07_sample.csv")
EXPORTED = date(2016, 10, 22)  # Baltimore's export day (PROVENANCE: between 2016-03 and 2016-10-22)
VIEWER_DAY = date(2026, 7, 13)
AT = datetime(2016, 10, 22, 12, 0, tzinfo=timezone.utc)


def _leads(url) -> list:
    with get_engine(url).connect() as conn:
        return conn.execute(sa.select(Lead.__table__).where(Lead.__table__.c.is_active == sa.true())).all()


def _notice(address: str) -> date:
    """The file's own NoticeDate of the notice at ``address`` (the exact string the test looks for)."""
    with BALTIMORE.open(encoding="utf-8-sig") as handle:
        for row in csv.DictReader(handle):
            if row["BuildingAddress"].strip() == address:
                return datetime.strptime(row["NoticeDate"][:10], "%m/%d/%Y").date()
    raise AssertionError(address)


def test_a_vacancy_lead_shows_how_long_its_notice_has_been_open(db_url):
    summary = import_file("bal-vacant-building-notices", BALTIMORE, today=EXPORTED, retrieved_at=AT,
                          database_url=db_url)
    assert summary.leads_added > 0
    leads = _leads(db_url)
    assert leads and all(lead.lead_type == "Vacancy" for lead in leads)
    # every lead keeps its notice's own date, never the list's day
    for lead in leads:
        item = open_since.from_raw(lead.raw_data)
        assert item is not None and item.kind == "vacant" and item.title == "Vacant Building Notices"
        assert item.since == _notice(lead.address.strip())
    lead = next(lead for lead in leads if lead.address.strip() == "1909 W NORTH AVE")
    assert open_since.from_raw(lead.raw_data).since == date(2016, 3, 10)
    # scored on the import day: 10 for the vacancy, under a year open -> no time-open points
    assert "Vacant since Mar 10, 2016 (7 months)" in lead.raw_data["motivation_reasons"]

    # the locked card: the year only, nothing that finds the house
    assert len(leads) == 250  # an open list: every notice with an address makes a lead, however old
    card = next(c for number in (1, 2, 3) for c in query_page(rules.Filters(page=number, page_size=100), None,
                                                              database_url=db_url).cards if c.id == str(lead.id))
    assert (card.open_since_kind, card.open_since) == ("vacant", date(2016, 3, 10))
    shown = with_action(card_data(card, today=VIEWER_DAY), signed_in=False, credits=0)
    assert shown.open_since == "Vacant since 2016 (10 years)"
    every_value = " ".join(str(v) for v in dataclasses.asdict(shown).values())
    for private in ("Mar 10", "2016-03-10", "03/10/2016", "1909", "W NORTH", "0002 019"):
        assert private not in every_value

    # unlocked: the day on the card and on the property page, with what the date is
    user = make_user(email="since@example.com", credits=500, confirmed=True)
    unlocks.unlock_lead(user.id, str(lead.id), database_url=db_url)
    card = next(c for number in (1, 2, 3) for c in query_page(rules.Filters(page=number, page_size=100), user.id,
                                                              database_url=db_url).cards if c.id == str(lead.id))
    assert card_data(card, today=VIEWER_DAY)["open_since"] == "Vacant since Mar 10, 2016 (10 years)"
    desk = property_desk.load(user.id, str(lead.id), database_url=db_url)
    view = property_view(desk.lead, desk.unlock, viewer_today=VIEWER_DAY)
    assert view.details["open_since"] == "Vacant since Mar 10, 2016 (10 years)"
    assert view.details["open_since_basis"] == "Notice date from Vacant Building Notices"


def test_a_delinquency_lead_shows_its_first_tax_year_owed(db_url):
    import_file("phl-tax-delinquencies", PHILADELPHIA, today=date(2016, 8, 1), retrieved_at=AT, database_url=db_url)
    leads = _leads(db_url)
    assert leads and all(lead.lead_type == "Tax Delinquent" for lead in leads)
    with PHILADELPHIA.open(encoding="utf-8-sig") as handle:
        oldest = {row["OPAnumber"].strip().zfill(9): row["oldestYearOwed"].strip() for row in csv.DictReader(handle)}
    with get_engine(db_url).connect() as conn:
        parcels = dict(conn.execute(sa.text("SELECT id, parcel_id FROM properties")).all())
    for lead in leads:
        item = open_since.from_raw(lead.raw_data)
        first_year = oldest[parcels[lead.property_id]]  # '19780101': the tax year 1978
        assert (item.kind, item.since) == ("tax_delinquent", date(int(first_year[:4]), 1, 1))
    lead = min(leads, key=lambda lead: open_since.from_raw(lead.raw_data).since)
    since = open_since.from_raw(lead.raw_data).since
    years = VIEWER_DAY.year - since.year  # from January 1 of the first year owed to Jul 13, 2026
    card = map_card(str(lead.id), None, database_url=db_url)  # the grid's card of one lead
    line = f"Delinquent since tax year {since.year} ({years} years)"
    assert card_data(card, today=VIEWER_DAY)["open_since"] == line  # a tax year is not private
    # counted in the score on the import day, with its reason (2 points a full year, at most 10)
    held = 2016 - since.year  # to Aug 1, 2016
    assert since.year <= 2011  # open 5 years or more on the import day: the full 10 points
    assert f"Delinquent since tax year {since.year} ({held} years)" in lead.raw_data["motivation_reasons"]


def test_a_generated_vacancy_or_delinquency_lead_shows_no_since(db_url):
    # The demo generator makes no vacancy or delinquency date: its leads show none, and stay marked demo.
    made = BuiltinSource(seed=38).search(SearchCriteria(count=12, lead_types=("Vacancy", "Tax Delinquent")))
    assert {r["lead_type"] for r in made} == {"Vacancy", "Tax Delinquent"}
    assert all(open_since.from_raw(r["raw_data"]) is None for r in made)
    lead_id = add_lead(db_url, lead_type="Vacancy", raw_data=made[0]["raw_data"])
    card = map_card(str(lead_id), None, database_url=db_url)
    assert (card.open_since_kind, card.open_since, card.provenance) == ("", None, "Demo data (generated)")
    assert card_data(card, today=VIEWER_DAY)["open_since"] == ""
