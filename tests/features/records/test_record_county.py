"""A public-record lead shows its county, from the real samples of shared/public-records-more imported
through ``import-records`` (``record_imports.import_file``), on SQLite and PostgreSQL. Every expected
figure is computed here from the fixture files.

The samples are years old: each market is imported on a day its distress lists were current (a record
older than its dataset's maximum age is history and makes no lead), and the page is read on that day.
- Philadelphia on 2024-12-01: each vacant building of the OPA overlap carries OPA's beds, baths, living
  area and market value (with its basis) on its card.
- Cook County on 2016-12-01 (the 2015 scavenger sale is current): after the unlock the property page has
  the owner of record, the last recorded sale and comparable sales from the Assessor's recorded sales,
  without the sale the Assessor flags as not arm's length; before it, nothing the page's service returns
  names the owner or the mailing address.
- Baltimore on 2016-12-01: the vacancy notices make leads that say "No property facts: Baltimore City's
  assessor roll is not configured" and cost the lowest unlock tier.
"""

from __future__ import annotations

import csv
import json
from datetime import date, datetime, timezone
from pathlib import Path

import sqlalchemy as sa

from marketplace.features.marketplace import rules_cards as lead_cards
from marketplace.platform import pricing
from marketplace.features.marketplace.rules import usd
from marketplace.features.property.rules import record_section
from marketplace.platform.db import get_engine
from marketplace.platform.models import Lead, Property
from marketplace.features.records import service_views as record_views
from marketplace.features.unlock import service as unlocks
from marketplace.features.marketplace.service_map import map_card
from marketplace.features.records.service_imports import import_file
from tests.factories import make_user
from tests.features.records.test_records_more_import import AS_OF, MORE, MARKETS

AT = datetime(2026, 11, 27, 8, 0, tzinfo=timezone.utc)
PHL_DAY, COOK_DAY, BAL_DAY = date(2024, 12, 1), date(2016, 12, 1), date(2016, 12, 1)


def _import(market: str, today: date) -> None:
    for dataset_id, path, partial, *_ in MARKETS[market]:
        # an open list whose file name gives no date: as exported on the day it is imported
        run = import_file(dataset_id, MORE / path, partial=partial, today=today, retrieved_at=AT,
                          as_of=today if dataset_id in AS_OF else None)
        assert run.status == "ok", (dataset_id, run.error)


def _leads_by_parcel(db_url) -> dict[str, object]:
    leads, props = Lead.__table__, Property.__table__
    with get_engine(db_url).connect() as conn:
        found = conn.execute(sa.select(props.c.parcel_id, leads.c.id, leads.c.credit_cost, leads.c.raw_data)
                             .join(props, props.c.id == leads.c.property_id).where(leads.c.is_active)).all()
    return {r.parcel_id: r for r in found}


def _card(db_url, lead_id, user_id=None):
    card = map_card(str(lead_id), user_id, database_url=db_url)
    assert card is not None
    return lead_cards.with_action(lead_cards.card_data(card), signed_in=user_id is not None, credits=0)


def _number(text: str) -> float | None:
    return float(text) if text.strip() else None


# ------------------------------------------------------------------------------------------- Philadelphia

def test_philadelphia_vacant_buildings_carry_opa_facts_and_value_on_their_card(db_url):
    _import("philadelphia", PHL_DAY)
    opa_file = MORE / "phl-opa-properties-vacant-overlap" / "opa_properties_public_vacant_overlap_sample.csv"
    with opa_file.open(newline="", encoding="utf-8") as f:
        opa = {row["parcel_number"].zfill(9): row for row in csv.DictReader(f)}
    buildings_file = MORE / "phl-vacant-indicators-2024-backup" / "vacant_buildings_backup_2024_06_24_sample.csv"
    with buildings_file.open(newline="", encoding="utf-8") as f:
        buildings = {row["opa_id"].zfill(9) for row in csv.DictReader(f)}
    overlap = sorted(buildings & set(opa))
    assert len(overlap) == 43  # the OPA overlap's buildings in these files (the rows set aside are gone)
    leads = _leads_by_parcel(db_url)
    checked = 0
    for parcel in overlap:
        row, lead = opa[parcel], leads[parcel]
        view = _card(db_url, lead.id)
        beds, baths, area = (_number(row[k]) for k in ("number_of_bedrooms", "number_of_bathrooms",
                                                       "total_livable_area"))
        assert view.beds == lead_cards.count_text(None if beds is None else int(beds), "bd"), parcel
        assert view.baths == lead_cards.count_text(baths, "ba"), parcel
        assert view.sqft == lead_cards.count_text(None if area is None else int(area), "sqft"), parcel
        value = int(float(row["market_value"]))
        year = row["assessment_date"][:4]
        assert view.roll_line == (f"Market value {usd(value)} · Philadelphia Office of Property Assessment, "
                                  f"tax year {year}"), parcel
        checked += beds is not None
    assert checked >= 20  # most overlap buildings have OPA's bedroom count
    # One spelled out: 1240 W TUCKER ST (OPA 371437100 in the sample: 3 beds, 1 bath, 1,104 sq ft, $75,000).
    tucker = next(p for p in overlap if opa[p]["location"] == "1240 W TUCKER ST")
    view = _card(db_url, leads[tucker].id)
    assert (view.beds, view.baths, view.sqft) == ("3 bd", "1 ba", "1,104 sqft")
    assert view.roll_line == "Market value $75,000 · Philadelphia Office of Property Assessment, tax year 2022"
    assert view.roll_use == "Single family, built 1925"
    assert view.last_sale == ""  # locked: the sale's date and price find the parcel


# ------------------------------------------------------------------------------------------------- Cook

COOK_SUBJECT = "25322170530000"  # 12713 S MAY ST, Calumet Park: on the 2015 scavenger sale


def _cook_fixtures():
    sales = json.loads((MORE / "cook-ccao-parcel-sales" / "wvhk-k5uv_batch_000.json").read_text())["records"]
    roll = json.loads((MORE / "cook-ccao-parcel-addresses" / "3723-97qp_batch_000_years2025-2026.json")
                      .read_text())["records"]
    newest = {}
    for row in sorted(roll, key=lambda r: float(r["year"])):
        newest[row["pin"]] = row  # the newest tax year's row is the property's
    return sales, newest


def _arms_length(sale: dict) -> bool:
    return (float(sale["sale_price"]) >= 1_000 and not sale.get("is_multisale")
            and float(sale.get("num_parcels_sale") or 1) <= 1
            and not any(v is True for k, v in sale.items() if k.startswith("sale_filter_")))


def _day(sale: dict) -> date:
    return date.fromisoformat(sale["sale_date"][:10])


def test_cook_property_page_after_the_unlock_has_owner_last_sale_and_recorded_comps(db_url):
    _import("cook", COOK_DAY)
    sales, roll = _cook_fixtures()
    subject = roll[COOK_SUBJECT]
    owner, mailing = subject["owner_address_name"], subject["mail_address_full"]
    lead = _leads_by_parcel(db_url)[COOK_SUBJECT]

    # Before the unlock: nothing the page's service, the card or the lead row holds names the owner.
    stranger = make_user(db_url, credits=0)
    locked = record_views.public_record_panel(lead.id, stranger.id, database_url=db_url, today=COOK_DAY)
    assert locked.owner is None and locked.sales is None
    for shown in (repr(locked), repr(record_section(locked)), repr(_card(db_url, lead.id, stranger.id)),
                  json.dumps(lead.raw_data)):
        assert owner not in shown and mailing not in shown

    user = make_user(db_url, credits=500)
    unlocks.unlock_lead(user.id, lead.id, database_url=db_url)
    panel = record_views.public_record_panel(lead.id, user.id, database_url=db_url, today=COOK_DAY)
    section = record_section(panel)
    assert section.owner["name"] == owner
    assert section.owner["mailing"].upper().startswith(mailing)

    # The last recorded sale of the parcel on that day, as the Assessor published it.
    own = sorted((s for s in sales if s["pin"] == COOK_SUBJECT and _day(s) <= COOK_DAY), key=_day)
    last = own[-1]
    assert (last["sale_price"], last["deed_type"], last["sale_filter_less_than_10k"]) == ("7000", "Other", True)
    facts = {f["label"]: f["value"] for f in section.facts}
    assert facts["Last sale"] == ("$7,000 on Jan 1, 2012, Other deed; not arm's length: "
                                  "Cook County Assessor's filter: under $10,000")
    assert facts["Last sale basis"] == "Assessor - Parcel Sales (Cook County Assessor's Office), sale of Jan 1, 2012"
    assert [(s["date"], s["price"]) for s in section.sales] == [
        (f"{_day(s):%b} {_day(s).day}, {_day(s).year}", usd(int(float(s["sale_price"])))) for s in reversed(own)]
    view = _card(db_url, lead.id, user.id)
    assert view.last_sale == "Last sale: " + facts["Last sale"]

    # Comparable sales: the Assessor's arm's-length sales of the last 36 months in the ZIP area (60827
    # has none then: the 604xx area), never the subject's own parcel.
    window = [s for s in sales if date(2013, 12, 1) < _day(s) <= COOK_DAY and s["pin"] != COOK_SUBJECT
              and s["pin"] in roll and roll[s["pin"]]["prop_address_zipcode_1"][:3] == "604"]
    expected = sorted((s for s in window if _arms_length(s)), key=lambda s: (_day(s), s["row_id"]), reverse=True)
    flagged = [s for s in window if not _arms_length(s)]
    assert len(expected) == 2 and len(flagged) == 1
    # The flagged one is real: a $1 deed the Assessor filters as under $10,000.
    assert (flagged[0]["pin"], flagged[0]["sale_price"], flagged[0]["sale_filter_less_than_10k"]) == (
        "28103000931085", "1.0", True)
    got = sorted(section.comps, key=lambda c: c["address"])
    assert [(c["address"], c["price"], c["basis"]) for c in got] == sorted(
        (roll[s["pin"]]["prop_address_full"], usd(int(float(s["sale_price"]))),
         f"Assessor - Parcel Sales (Cook County Assessor's Office), sale of {_day(s):%b} {_day(s).day}, {_day(s).year}")
        for s in expected)
    assert roll[flagged[0]["pin"]]["prop_address_full"] not in repr(section.comps)


# --------------------------------------------------------------------------------------------- Baltimore

def test_baltimore_leads_say_the_roll_is_not_configured_and_cost_the_lowest_tier(db_url):
    _import("baltimore", BAL_DAY)
    leads = list(_leads_by_parcel(db_url).values())
    assert len(leads) >= 40
    lowest = pricing.lowest_credit_cost()
    assert lowest == min(cost for _, cost in pricing.COST_TIERS) == 30
    for lead in leads:
        assert lead.credit_cost == lowest
        view = _card(db_url, lead.id)
        assert view.roll_line == "No property facts: Baltimore City's assessor roll is not configured"
        assert view.credit_cost == lowest
