"""Markets where they show, in Chromium, from the real Cook County samples (tests/cook_samples.py: the
assessor's roll, this year's annual tax sale, the parcel sales), imported into the test app's database with
``record_imports.import_file`` (the CLI's function) after switching off the leads other tests left active;
everything is switched back at the end.

- The Done-when of public-record markets: every websocket frame of a signed-in user with credits who opens
  a locked Cook County lead (its property page, then its card) carries neither the owner's name nor the
  mailing address (the exact strings of the roll's row for the PIN, in any case); after the unlock through
  the card, the property page shows both, and the last recorded sale (price and date).
- The Location filter lists Cook County, IL (what it holds, its live leads, its newest record); picking it
  filters the marketplace to its state and the cities its leads are in.
- The property page's Public record section lists every dataset that mentions the parcel.

Screenshots at 1280 and 375 px go to test-artifacts/ (record-markets-*.png).
"""

from __future__ import annotations

import re
from datetime import date
from urllib.parse import urlencode

import pytest
import sqlalchemy as sa
from playwright.sync_api import Page, expect

from marketplace.features.records.rules_address_display import display_city, display_street
from marketplace.platform.limits import MAX_PLACES
from marketplace.features.records.rules_market_coverage import leads_text
from marketplace.platform.times import format_date
from marketplace.platform.db import get_engine
from marketplace.platform.models import Lead, Property
from tests.browser.conftest import ARTIFACTS, open_page
from tests.browser.helpers import at_rest, start_session, visit
from tests.browser.test_accessibility import axe_violations, describe
from tests.browser.test_marketplace_map import _set_active, collect_frames
from marketplace.features.records.service_markets import market_summaries, market_summary
from tests.cook_samples import import_cook, roll_row, sales_of

PIN = "24252010800000"  # 11904 ANN ST, BLUE ISLAND: on the roll, the tax sale and two recorded sales


@pytest.fixture
def page(browser, live_server, request):
    """The suite's page (conftest), in a context that lets the axe script in (bypass_csp: the app's
    Content-Security-Policy refuses injected scripts)."""
    yield from open_page(browser, live_server, request, bypass_csp=True)


@pytest.fixture(scope="module")
def cook(live_server, tmp_path_factory):
    url = live_server.database_url
    leads, props = Lead.__table__, Property.__table__
    with get_engine(url).connect() as conn:
        before = list(conn.execute(sa.select(leads.c.id).where(leads.c.is_active == sa.true())).scalars())
    _set_active(url, before, False)
    summaries = import_cook(tmp_path_factory.mktemp("cook"), database_url=url)
    assert all(s.status == "ok" for s in summaries.values()), summaries
    with get_engine(url).connect() as conn:
        rows = conn.execute(sa.select(leads.c.id, leads.c.credit_cost, props.c.parcel_id)
                            .join(props, props.c.id == leads.c.property_id)
                            .where(leads.c.is_active == sa.true())).all()
    _set_active(url, [r.id for r in rows], True)  # the facets follow
    try:
        yield {r.parcel_id: r for r in rows}
    finally:
        _set_active(url, [r.id for r in rows], False)
        _set_active(url, before, True)


def _shot(page: Page, name: str, locator=None) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    at_rest(page)
    (locator or page).screenshot(path=str(ARTIFACTS / f"record-markets-{name}.png"))


def _says(locator, *texts: str) -> None:
    """The row shows each of ``texts`` (its pieces are separate elements)."""
    for text in texts:
        expect(locator).to_contain_text(text)


def _found(frames: list[str], text: str) -> bool:
    return text.lower() in "\n".join(frames).lower()


def test_a_locked_cook_lead_sends_no_owner_and_the_unlock_shows_owner_mailing_and_last_sale(
        page: Page, cook, live_server, make_user):
    lead = cook[PIN]
    roll = roll_row(PIN)
    owner, mailing = roll["owner_address_name"], roll["mail_address_full"]  # THOMAS BURNS, 200 RUSSELL ST 8TH FLO
    last = sales_of(PIN)[0]
    price = f"${int(float(last['sale_price'])):,}"  # $245,000
    user = make_user(credits=1000)
    start_session(page, live_server.database_url, user["id"])
    frames = collect_frames(page)

    # Locked: the property page refuses, the card shows the masked lead.
    visit(page, f"/property/{lead.id}")
    expect(page.get_by_text("You don't have access to this property")).to_be_visible(timeout=30000)
    visit(page, "/marketplace?state=IL&city=Blue+Island")
    card = page.locator(f"#lead-card-{lead.id}")
    expect(card).to_be_visible(timeout=30000)
    expect(page.locator(f"#lead-chips-{lead.id} li").first).to_have_text("Tax sale")
    assert _found(frames, "Tax sale")  # the frames are the page's
    leaked = [text for text in (owner, mailing, roll["mail_address_name"]) if _found(frames, text)]
    assert leaked == []

    # The unlock, through the card (and the confirmation when the cost asks for one).
    button = page.locator(f"#lead-action-{lead.id}")
    expect(button).to_have_text(f"Unlock for {lead.credit_cost} credits")
    button.click()
    confirm = page.locator("#unlock-confirm-ok")
    if lead.credit_cost > 120:
        expect(confirm).to_be_visible()
        confirm.click()
    expect(button).to_have_text("View Details")

    visit(page, f"/property/{lead.id}")
    section = page.locator("#property-public-record")
    expect(section).to_be_visible(timeout=30000)
    expect(page.locator("#record-owner")).to_have_text(owner)
    expect(page.locator("#record-mailing")).to_contain_text(display_street(mailing))
    assert _found(frames, owner) and _found(frames, mailing)
    # The last recorded sale: its price and date on the page.
    expect(page.locator("body")).to_contain_text(price)
    expect(page.locator("body")).to_contain_text("Feb 24, 2022")

    # Every dataset that mentions the parcel, each linked (other tests of this live server may have
    # imported more of the same parcel's records: this test's four are among them).
    mentions = page.locator("#record-datasets .record-dataset")
    expect(mentions.first).to_be_visible()
    for texts in ((f"Record {PIN}2026", "Roll record", "As of Jan 1, 2026", "View the dataset"),
                  (f"Recorded sale: {price}", f"Record {last['row_id']}", "Sold Feb 24, 2022"),
                  ("Recorded sale: $75,500", "Sold Oct 1, 2021"),
                  ("Tax sale", "Record 24-25-201-080-0000 ")):
        row = mentions
        for text in texts:
            row = row.filter(has_text=text)
        expect(row.first).to_be_visible()
    _says(section, "Assessor - Parcel Addresses", "Cook County Assessor's Office", "Assessor - Parcel Sales",
          "Treasurer - Annual Tax Sale", "Cook County Treasurer's Office")
    shown = mentions.count()
    assert shown >= 4
    links = page.locator("#record-datasets .record-dataset-link")
    expect(links).to_have_count(shown)
    sales_link = page.locator('#record-datasets a[href="https://datacatalog.cookcountyil.gov/d/wvhk-k5uv"]').first
    expect(sales_link).to_have_attribute("target", "_blank")
    expect(sales_link).to_have_text(re.compile("^View the dataset"))
    violations = axe_violations(page)
    assert not violations, describe(violations)
    section.scroll_into_view_if_needed()
    _shot(page, "public-record-1280", section)
    page.set_viewport_size({"width": 375, "height": 800})
    expect(section).to_be_visible()
    _shot(page, "public-record-375", section)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # nothing overflows the phone
    page.set_viewport_size({"width": 1280, "height": 900})


def test_the_location_filter_lists_cook_county_and_picking_it_filters_to_its_cities(page: Page, cook, live_server):
    page.set_viewport_size({"width": 1280, "height": 800})
    visit(page, "/marketplace")
    expect(page.locator("#lead-grid")).to_be_visible(timeout=30000)
    page.locator("#filter-group-location").click()
    market = page.locator("#filter-market-cook-county-il")
    # The popover opens below its button inside the viewport (it once started at y = -168 px at 1280x800):
    # its "Covered markets" heading and its last field are reachable.
    expect(page.locator("#filter-markets-heading")).to_be_in_viewport()
    popover = page.locator("[role=dialog][aria-label='Location filters']")
    box, trigger = popover.bounding_box(), page.locator("#filter-group-location").bounding_box()
    assert box["y"] >= trigger["y"] + trigger["height"] and box["y"] + box["height"] <= 800, box
    page.locator("#filter-zip").scroll_into_view_if_needed()
    expect(page.locator("#filter-zip")).to_be_in_viewport()
    # Only markets with imported records are listed (other tests of this live server may have imported some).
    expect(page.locator("#filter-markets li")).to_have_count(len(market_summaries(database_url=live_server.database_url)))
    expect(market).to_contain_text("Cook County, IL")
    # What Cook holds: this test's roll, sales and tax sale, and whatever else of Cook's was imported here.
    summary = market_summary("cook-county-il", database_url=live_server.database_url)
    holds = summary.holds
    assert holds.startswith("Roll: Assessor - Parcel Addresses") and "Sales: Assessor - Parcel Sales" in holds
    assert "Lists: Treasurer - Annual Tax Sale" in holds
    expect(market).to_contain_text(holds)
    # This test's 29 tax-sale leads are live; its roll is as of Jan 1, 2026 (other tests may add newer Cook rows).
    assert summary.leads >= len(cook) and summary.newest >= date(2026, 1, 1)
    expect(market).to_contain_text(f"{leads_text(summary.leads)} · Newest record {format_date(summary.newest, 'UTC')}")
    # Axe over the open popover and the Cook cards under it (their signal and owner chips included).
    violations = axe_violations(page)
    assert not violations, describe(violations)
    _shot(page, "location-1280")
    market.click()
    grid = page.locator("#lead-grid")
    # The market's cities with the most live leads (this test's three among them when no other test added Cook's).
    cities = [display_city(c) for c in summary.cities[:MAX_PLACES]]
    assert {"Calumet Park", "Midlothian", "Blue Island"} <= set(display_city(c) for c in summary.cities)
    expect(grid).to_have_attribute("data-query", urlencode([("state", "IL")] + [("city", c) for c in cities]))
    if len(summary.cities) <= MAX_PLACES:
        expect(page.locator("#result-count")).to_have_text(f"{summary.leads:,} leads")
    else:  # the busiest cities only: this test's leads and some of the others
        expect(page.locator("#result-count")).to_have_text(re.compile(r"^[\d,]+ leads$"))
        assert int(page.locator("#result-count").inner_text().split()[0].replace(",", "")) >= len(cook)
    expect(page.locator("#filter-chips")).to_contain_text("Illinois")
    expect(page.locator("#filter-chips")).to_contain_text("Calumet Park")

    page.set_viewport_size({"width": 375, "height": 812})
    visit(page, "/marketplace")
    expect(page.locator("#lead-grid")).to_be_visible(timeout=30000)
    page.locator("#mobile-filters-button").click()
    sheet = page.locator("#filter-sheet")
    expect(sheet).to_be_visible()
    sheet_market = sheet.locator("#sheet-filter-market-cook-county-il")
    sheet_market.scroll_into_view_if_needed()
    expect(sheet_market).to_contain_text(leads_text(summary.leads))
    _shot(page, "location-375")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.set_viewport_size({"width": 1280, "height": 900})

