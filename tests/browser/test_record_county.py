"""A lead shows its county, in Chromium, from the real samples of tests/fixtures/public_records_more/
imported with ``record_imports.import_file`` into the test app's database (each market on a day its lists
were current: the samples are years old). Only the three leads looked at stay active while the module
runs; everything is switched back at the end.

- Philadelphia: a vacant building's card carries OPA's beds, baths, living area and market value with its
  basis; Baltimore: the card says the city's assessor roll is not configured, for the lowest tier.
- Cook County: every websocket frame of the locked lead is free of the owner's name and mailing address;
  after the unlock the property page shows both, the last recorded sale and comparable recorded sales.
  The Assessor's sales are imported on the day the page is read (all of them, up to 2025-10), the lists
  on their own day: the page's comps are the arm's-length sales of the last 36 months, never the
  multi-parcel and under-$1,000 sales of the sample.
Screenshots of the cards and the property page at 1280 and 375 px go to test-artifacts/.
"""

from __future__ import annotations

import json
from datetime import date

import pytest
import sqlalchemy as sa
from playwright.sync_api import Page, expect

from marketplace.features.records.rules_address_display import display_street
from marketplace.platform.db import get_engine
from marketplace.platform.models import Lead, Property, PropertySignal
from marketplace.features.records import service_imports as record_imports
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import start_session, visit
from tests.browser.test_marketplace_map import _set_active, collect_frames
from tests.features.records.test_records_more_import import AS_OF, MARKETS, MORE

DAYS = {"philadelphia": date(2024, 12, 1), "cook": date(2016, 12, 1), "baltimore": date(2016, 12, 1)}
PHL, COOK = "371437100", "25322170530000"  # 1240 W TUCKER ST; 12713 S MAY ST


@pytest.fixture(scope="module")
def county_leads(live_server):
    url = live_server.database_url
    leads, props = Lead.__table__, Property.__table__
    with get_engine(url).connect() as conn:
        before = list(conn.execute(sa.select(leads.c.id).where(leads.c.is_active == sa.true())).scalars())
    _set_active(url, before, False)
    for market, today in DAYS.items():
        # The sales first: read on another day, they would bring the leads around them to that day.
        first = ("cook-ccao-parcel-addresses", "cook-ccao-parcel-sales")
        ordered = sorted(MARKETS[market], key=lambda item: first.index(item[0]) if item[0] in first else 2)
        for dataset_id, path, partial, *_ in ordered:
            day = date.today() if dataset_id == "cook-ccao-parcel-sales" else today
            # an open list whose file name gives no date: as exported on the day it is imported
            run = record_imports.import_file(dataset_id, MORE / path, partial=partial, today=day,
                                             as_of=day if dataset_id in AS_OF else None, database_url=url)
            assert run.status == "ok", (dataset_id, run.error)
    # Another test on this shared server may have imported the same lists and switched their leads off: a
    # re-import of an unchanged list changes no lead, so the leads of the lists imported here are switched on.
    ids = {dataset_id for market in DAYS for dataset_id, *_ in MARKETS[market]}
    signals = PropertySignal.__table__
    with get_engine(url).connect() as conn:
        listed = list(conn.execute(sa.select(leads.c.id).join(signals, signals.c.property_id == leads.c.property_id)
                                   .where(signals.c.dataset_id.in_(sorted(ids)), signals.c.status == "open")
                                   .distinct()).scalars())
    _set_active(url, listed, True)
    with get_engine(url).connect() as conn:
        rows = conn.execute(sa.select(leads.c.id, leads.c.credit_cost, props.c.parcel_id, props.c.state,
                                      props.c.owner_name, props.c.mailing_address)
                            .join(props, props.c.id == leads.c.property_id)
                            .where(leads.c.is_active == sa.true())).all()
    made = [r.id for r in rows]
    shown = {"phl": next(r for r in rows if r.parcel_id == PHL), "cook": next(r for r in rows if r.parcel_id == COOK),
             "bal": sorted((r for r in rows if r.state == "MD"), key=lambda r: str(r.id))[0]}
    _set_active(url, [r.id for r in rows if r not in shown.values()], False)
    try:
        yield shown
    finally:
        _set_active(url, made, False)
        _set_active(url, before, True)


def _card_shot(page: Page, lead_id, name: str) -> None:
    card = page.locator(f"#lead-card-{lead_id}")
    card.scroll_into_view_if_needed()
    card.screenshot(path=str(ARTIFACTS / name))


def test_cards_and_the_cook_property_page_show_the_county(page: Page, county_leads, live_server, make_user):
    ARTIFACTS.mkdir(exist_ok=True)
    phl, cook, bal = county_leads["phl"], county_leads["cook"], county_leads["bal"]
    user = make_user(credits=500)
    start_session(page, live_server.database_url, user["id"])
    frames = collect_frames(page)
    visit(page, "/marketplace")
    expect(page.locator("[id^='lead-card-']")).to_have_count(3)
    expect(page.locator(f"#lead-facts-{phl.id}")).to_contain_text("3 bd")
    expect(page.locator(f"#lead-facts-{phl.id}")).to_contain_text("1 ba")
    expect(page.locator(f"#lead-facts-{phl.id}")).to_contain_text("1,104 sqft")
    expect(page.locator(f"#lead-roll-{phl.id}")).to_have_text(
        "Market value $75,000 · Philadelphia Office of Property Assessment, tax year 2022")
    expect(page.locator(f"#lead-use-{phl.id}")).to_have_text("Single family, built 1925")
    expect(page.locator(f"#lead-roll-{bal.id}")).to_have_text(
        "No property facts: Baltimore City's assessor roll is not configured")
    expect(page.locator(f"#lead-action-{bal.id}")).to_have_text("Unlock for 30 credits")
    _card_shot(page, phl.id, "county-card-phl-1280.png")
    _card_shot(page, bal.id, "county-card-bal-1280.png")
    page.set_viewport_size({"width": 375, "height": 800})
    _card_shot(page, phl.id, "county-card-phl-375.png")
    _card_shot(page, bal.id, "county-card-bal-375.png")
    page.set_viewport_size({"width": 1280, "height": 900})

    locked = "\n".join(frames)
    assert "Philadelphia Office of Property Assessment" in locked  # the frames are the page's
    assert cook.owner_name not in locked and cook.mailing_address not in locked

    button = page.locator(f"#lead-action-{cook.id}")
    button.click()
    expect(button).to_have_text("View Details")
    expect(page.locator(f"#lead-last-sale-{cook.id}")).to_contain_text("Last sale: $")
    visit(page, f"/property/{cook.id}")
    expect(page.locator("#record-owner")).to_have_text(cook.owner_name)
    expect(page.locator("#record-mailing")).to_contain_text(display_street(cook.mailing_address))
    expect(page.locator("#record-facts")).to_contain_text("$60,000 on Oct 17, 2025, Other deed")
    records = json.loads((MORE / "cook-ccao-parcel-sales" / "wvhk-k5uv_batch_000.json").read_text())["records"]
    expect(page.locator("#record-sales .record-sale")).to_have_count(sum(r["pin"] == COOK for r in records))
    comps = page.locator("#record-comps .record-comp")
    expect(comps.first).to_be_visible()
    assert comps.count() >= 3
    expect(page.locator("#record-comps")).to_contain_text("Assessor - Parcel Sales (Cook County Assessor's Office)")
    # The sample's sales of 2024 that are not arm's length: ten parcels sold for one $180,000, and $100 deeds.
    expect(page.locator("#record-comps")).not_to_contain_text("$180,000")
    expect(page.locator("#record-comps")).not_to_contain_text("$100 ")
    unlocked = "\n".join(frames)
    assert cook.owner_name in unlocked
    page.screenshot(path=str(ARTIFACTS / "county-property-cook-1280.png"), full_page=True)
    page.set_viewport_size({"width": 375, "height": 800})
    expect(page.locator("#property-public-record")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "county-property-cook-375.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
