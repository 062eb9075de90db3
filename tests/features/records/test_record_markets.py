"""Markets as the imported records cover them (records.service_markets), the datasets that mention a
parcel (records.service_mentions through record_views.public_record_panel) and the explorer's Sources
rows grouped by market (records.service_jobs.panel_rows): on SQLite and PostgreSQL, from the real Cook
County samples (tests/cook_samples.py)."""

from __future__ import annotations

import re
from datetime import date, datetime

import pytest
import sqlalchemy as sa

from marketplace.platform.db import get_engine
from marketplace.platform.models import Lead, Property
from marketplace.features.records import service_jobs as record_jobs
from marketplace.features.unlock import service as unlocks
from marketplace.features.records.service_imports import import_file
from marketplace.features.records.service_markets import market_summaries, market_summary
from marketplace.features.records.service_views import public_record_panel
from tests.cook_samples import MORE, import_cook, roll_row, sales_of
from tests.factories import make_user

TODAY = date(2026, 11, 27)
PIN = "24252010800000"  # 11904 ANN ST, BLUE ISLAND: on the roll, the 2011-2014 tax sales and two sales
COOK_HOLDS = ("Roll: Assessor - Parcel Addresses · Sales: Assessor - Parcel Sales · "
              "Lists: Treasurer - Annual Tax Sale")


def _lead_of(url: str, pin: str) -> Lead:
    leads, props = Lead.__table__, Property.__table__
    with get_engine(url).connect() as conn:
        return conn.execute(sa.select(leads).join(props, props.c.id == leads.c.property_id)
                            .where(props.c.parcel_id == pin)).one()


def test_no_market_is_covered_before_an_import_and_each_says_what_it_lacks(db_url):
    assert market_summaries() == []
    everything = {m.id: m for m in market_summaries(covered_only=False)}
    assert sorted(everything) == ["allegheny-county-pa", "atlantic-county-nj", "baltimore-city-md", "cook-county-il",
                                  "cuyahoga-county-oh", "kent-county-mi", "new-york-city-ny", "philadelphia-pa"]
    assert everything["philadelphia-pa"].completeness == (
        ("Roll", "configured, not imported"), ("Sales", "missing"), ("Lists", "configured, not imported"))
    assert (everything["cook-county-il"].leads, everything["cook-county-il"].newest,
            everything["cook-county-il"].last_run) == (0, None, None)


def test_the_roll_alone_covers_cook_with_no_live_lead(db_url):
    assert import_file("cook-ccao-parcel-addresses", MORE / "cook-ccao-parcel-addresses" /
                       "3723-97qp_batch_000_years2025-2026.json", today=TODAY).status == "ok"
    (cook,) = market_summaries()
    assert (cook.id, cook.name, cook.state, cook.holds, cook.leads, cook.cities) == (
        "cook-county-il", "Cook County, IL", "IL", "Roll: Assessor - Parcel Addresses", 0, ())
    assert cook.completeness == (("Roll", "imported"), ("Sales", "configured, not imported"),
                                 ("Lists", "configured, not imported"))
    assert cook.newest == date(2026, 1, 1)  # tax year 2026 of the roll


def test_cook_with_this_years_tax_sale_counts_its_live_leads_and_their_cities(db_url, tmp_path):
    imported = import_cook(tmp_path, today=TODAY)
    assert {k: (s.status, s.leads_added) for k, s in imported.items()} == {
        "cook-ccao-parcel-addresses": ("ok", 0), "cook-treasurer-annual-tax-sale": ("ok", 29),
        "cook-ccao-parcel-sales": ("ok", 0)}
    # Everything else stays uncovered: only Cook is offered.
    (cook,) = market_summaries()
    assert cook.holds == COOK_HOLDS
    assert cook.leads == 29  # every tax-sale PIN the roll names (several PINs may share a street address)
    assert cook.cities == ("CALUMET PARK", "MIDLOTHIAN", "BLUE ISLAND")  # 23, 5 and 1 leads
    assert cook.newest == date(2026, 1, 1)
    assert isinstance(cook.last_run, datetime)
    assert market_summary("cook-county-il") == cook
    assert market_summary("philadelphia-pa") is None and market_summary("nowhere") is None
    # A lead switched off is not live.
    leads, lead_id = Lead.__table__, _lead_of(db_url, PIN).id
    with get_engine(db_url).begin() as conn:
        conn.execute(sa.update(leads).where(leads.c.id == lead_id).values(is_active=False))
    assert market_summary("cook-county-il").leads == 28
    assert market_summary("cook-county-il").cities == ("CALUMET PARK", "MIDLOTHIAN")


def test_the_public_record_panel_lists_every_dataset_that_mentions_the_parcel_to_the_unlocker_only(
        db_url, tmp_path):
    import_cook(tmp_path, today=TODAY)
    lead = _lead_of(db_url, PIN)
    buyer, stranger = make_user(credits=500), make_user(credits=500)
    assert public_record_panel(lead.id, stranger.id, today=TODAY).datasets == []
    unlocks.unlock_lead(buyer.id, lead.id)
    panel = public_record_panel(lead.id, buyer.id, today=TODAY)
    got = [(m.title, m.what, m.record_key, m.date, m.url, m.record_page) for m in panel.datasets]
    sales = sales_of(PIN)
    assert [int(float(s["sale_price"])) for s in sales] == [245000, 75500]
    year = TODAY.year
    assert got == [
        ("Assessor - Parcel Addresses", "Roll record", f"{PIN}2026", date(2026, 1, 1),
         "https://datacatalog.cookcountyil.gov/d/3723-97qp", False),
        ("Assessor - Parcel Sales", "Recorded sale: $245,000", sales[0]["row_id"], date(2022, 2, 24),
         "https://datacatalog.cookcountyil.gov/d/wvhk-k5uv", False),
        ("Assessor - Parcel Sales", "Recorded sale: $75,500", sales[1]["row_id"], date(2021, 10, 1),
         "https://datacatalog.cookcountyil.gov/d/wvhk-k5uv", False),
        ("Treasurer - Annual Tax Sale", "Tax sale", f"24-25-201-080-0000 {year}", date(year, 1, 1),
         "https://datacatalog.cookcountyil.gov/d/55ju-2fs9", False),
    ]
    assert {m.publisher for m in panel.datasets} == {"Cook County Assessor's Office", "Cook County Treasurer's Office"}
    assert panel.owner.name == roll_row(PIN)["owner_address_name"]


def test_the_sources_rows_come_grouped_by_market_with_completeness_and_freshness(db_url, tmp_path):
    import_cook(tmp_path, today=TODAY)
    rows = record_jobs.panel_rows("America/Chicago", today=TODAY)
    headers = [r for r in rows if r["kind"] == "market"]
    assert [h["title"] for h in headers] == [
        "Allegheny County, PA", "Atlantic County, NJ", "Baltimore City, MD", "Cook County, IL",
        "Cuyahoga County, OH", "Kent County, MI", "New York City, NY", "Philadelphia, PA", "Every market"]
    start = rows.index(next(h for h in headers if h["title"] == "Cook County, IL"))
    cook = rows[start]
    assert cook["completeness"] == "Roll: imported · Sales: imported · Lists: imported"
    assert cook["newest"] == "Newest record Jan 1, 2026"
    assert re.fullmatch(r"last run \w{3} \d{1,2}, \d{4}, \d{1,2}:\d\d [AP]M C[SD]T", cook["last_run"])
    assert cook["can_run"] is False
    members = []
    for row in rows[start + 1:]:
        if row["kind"] == "market":
            break
        members.append(row["title"])
    assert members == ["Assessor - Parcel Addresses", "Assessor - Parcel Sales",  # by title
                       "Assessor - Single and Multi-Family Improvement Characteristics",
                       "Residential Sales with Certified Assessments (cmfproperty)", "Treasurer - Annual Tax Sale",
                       "Treasurer - Scavenger Tax Sale", "Vacant and Abandoned Buildings - Violations"]
    # every dataset once, each under one header
    datasets = [r["id"] for r in rows if r["kind"] == "dataset"]
    assert len(datasets) == len(set(datasets)) == 28
    assert rows[-1]["id"] == "fhfa-hpi-zip3" and rows[-2]["title"] == "Every market"
    kent = next(h for h in headers if h["title"] == "Kent County, MI")
    assert (kent["completeness"], kent["newest"], kent["last_run"]) == (
        "Roll: configured, not imported · Sales: missing · Lists: missing", "No record imported", "never run")
