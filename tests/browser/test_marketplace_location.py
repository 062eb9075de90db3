"""Location and asking-price filters on /marketplace (issue 24 #8), in the browser: the
State select, City (with suggestions) and ZIP, Min/Max price, the chips, the URL and a
reload, Clear All Filters, a saved search with them and its alert on a matching new
lead, and the phone sheet. Screenshots of the bar (1280) and the sheet (375) go to
test-artifacts/."""

from __future__ import annotations

import uuid
from datetime import date

import pytest
import sqlalchemy as sa
from playwright.sync_api import Page, expect
from sqlmodel import select

from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import Lead, LeadRefreshRun, UserLead
from marketplace.features.marketplace import service_alerts as alerts, service_saved_searches as saved_searches
from marketplace.features.marketplace import service_notifications as notifications
from marketplace.features.marketplace.service import rebuild_facets_now
from tests.browser import leads
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import at_rest, expect_toast, reload, start_session, visit
from tests.browser.test_marketplace import _set_active

NOTE = "Leads without an asking price are hidden while a price range is set."


@pytest.fixture(scope="module")
def places(live_server):
    """Only these leads are active while the module runs (ROI orders them)."""
    url = live_server.database_url
    spec = {
        "austin": dict(state="TX", city="Austin", zip_code="78701", asking_price=150000, roi=40.0),
        "austin_na": dict(state="TX", city="Austin", zip_code="78701", asking_price=None, roi=39.0),
        "dallas": dict(state="TX", city="Dallas", zip_code="75201", asking_price=400000, roi=38.0),
        "houston": dict(state="TX", city="Houston", zip_code="77002", asking_price=90000, roi=37.0),
        "fresno": dict(state="CA", city="Fresno", zip_code="93650", asking_price=120000, roi=36.0),
        "tulsa": dict(state="OK", city="Tulsa", zip_code="74103", asking_price=100000, roi=35.0),
    }
    rows = {name: leads.make_lead(**fields, is_new=True) for name, fields in spec.items()}
    with session_scope(url) as session:
        before = session.exec(select(Lead.id).where(Lead.is_active == sa.true())).all()
    _set_active(url, list(before), False)
    leads.store(live_server, *rows.values())
    rebuild_facets_now(url)
    try:
        yield {name: str(row["id"]) for name, row in rows.items()}
    finally:
        with get_engine(url).begin() as conn:
            conn.execute(sa.delete(UserLead.__table__))
            conn.execute(sa.update(Lead.__table__).where(Lead.__table__.c.id.in_([r["id"] for r in rows.values()]))
                         .values(is_active=False))
        _set_active(url, list(before), True)


def grid_ids(page: Page) -> list[str]:
    return page.locator("#lead-grid [id^='lead-card-']").evaluate_all(
        "els => els.map(e => e.id.slice('lead-card-'.length))")


def expect_grid(page: Page, query: str, ids: list[str]) -> None:
    grid = page.locator("#lead-grid")
    expect(grid).to_have_attribute("data-query", query)
    expect(grid).to_have_attribute("data-loading", "false")
    page.wait_for_function(f"document.location.search === {('?' + query) if query else ''!r}")
    expect(page.locator("#result-count")).to_have_text(f"{len(ids)} lead{'' if len(ids) == 1 else 's'}")
    # A page's cards appear a row at a time (features/marketplace/page.py's STEP_CARDS): all of them, then their order.
    expect(page.locator("#lead-grid [id^='lead-card-']")).to_have_count(len(ids))
    assert grid_ids(page) == ids


def shot(page: Page, name: str) -> None:
    at_rest(page)  # popovers and sheets done opening
    page.screenshot(path=str(ARTIFACTS / f"location-filters-{name}.png"))


def test_filter_by_state_and_price_reload_save_and_alert(page: Page, places, live_server, make_user):
    db = live_server.database_url
    user = make_user()
    start_session(page, db, user["id"])
    visit(page, "/marketplace")
    expect(page.locator("#lead-grid")).to_be_visible(timeout=30000)
    expect_grid(page, "", [places[n] for n in ("austin", "austin_na", "dallas", "houston", "fresno", "tulsa")])

    # State: TX
    page.locator("#filter-group-location").click()
    expect(page.get_by_label("State", exact=True)).to_be_visible()
    page.locator("#filter-state").select_option("TX")
    texas = [places[n] for n in ("austin", "austin_na", "dallas", "houston")]
    expect_grid(page, "state=TX", texas)
    # City suggestions: the cities of Texas in the inventory.
    expect(page.locator("#filter-city-options option")).to_have_count(3)
    assert page.locator("#filter-city-options option").evaluate_all("els => els.map(e => e.value)") == [
        "Austin", "Dallas", "Houston"]
    shot(page, "location-popover-1280")
    page.keyboard.press("Escape")

    # Price: a minimum above the maximum applies nothing and says so.
    page.locator("#filter-group-price").click()
    expect(page.locator("#filter-price-note")).to_have_text(NOTE)
    page.get_by_label("Min price").fill("500000")
    page.get_by_label("Max price").fill("100000")
    page.locator("#filter-price-apply").click()
    expect(page.locator("#filter-price-error")).to_have_text(
        "The minimum price is above the maximum price. Nothing was applied.")
    expect_grid(page, "state=TX", texas)
    page.get_by_label("Min price").fill("12.50")
    page.get_by_label("Min price").press("Enter")
    expect(page.locator("#filter-price-error")).to_have_text("Enter a whole-dollar price from $0 to $1,000,000,000.")
    # $100,000 - $300,000: only the Austin lead with a price (Dallas is dearer, Houston cheaper,
    # the other Austin lead has no asking price).
    page.get_by_label("Min price").fill("100000")
    page.get_by_label("Max price").fill("$300,000")
    page.locator("#filter-price-apply").click()
    query = "state=TX&min_price=100000&max_price=300000"
    expect_grid(page, query, [places["austin"]])
    expect(page.locator("#filter-price-error")).to_have_count(0)
    expect(page.get_by_label("Min price")).to_have_value("$100,000")
    expect(page.get_by_label("Max price")).to_have_value("$300,000")
    page.keyboard.press("Escape")
    chips = page.locator("#filter-chips")
    expect(chips.locator("[data-chip]")).to_have_count(2)
    expect(page.locator("#chip-states-TX")).to_contain_text("Texas")
    expect(page.locator("#chip-price")).to_contain_text("Price $100,000 - $300,000")
    expect(page.locator("#filter-group-location")).to_contain_text("1")
    shot(page, "bar-1280")

    # The URL carries them; a reload keeps them.
    reload(page)
    expect_grid(page, query, [places["austin"]])
    expect(page.locator("#chip-price")).to_contain_text("Price $100,000 - $300,000")
    page.locator("#filter-group-price").click()
    expect(page.get_by_label("Min price")).to_have_value("$100,000")
    page.keyboard.press("Escape")

    # Save it: the summary reads the filters; the row keeps the range.
    page.locator("#save-search-button").click()
    expect(page.locator("#save-search-summary")).to_have_text(
        "TX · Asking price $100,000 - $300,000 · sorted by Highest ROI")
    page.locator("#save-search-name").fill("Texas 100-300k")
    page.locator("#save-search-save").click()
    expect_toast(page, "Search Saved", "'Texas 100-300k' is in your dashboard under Saved Searches.")
    [saved] = saved_searches.list_saved_searches(uuid.UUID(user["id"]))
    assert (saved.query, saved.matches_now) == (query, 1)

    # A refresh brings a matching lead (and three that do not match): the alert names only it.
    with session_scope(db) as session:
        run = LeadRefreshRun(run_key=f"loc-{uuid.uuid4().hex[:8]}", run_date=date(2026, 11, 25), status="completed")
        session.add(run)
        session.flush()
        run_id = run.id
    fresh = [leads.make_lead(state="TX", city="Round Rock", zip_code="78664", asking_price=200000, roi=20.0,
                             refresh_run_id=run_id),
             leads.make_lead(state="TX", city="Austin", zip_code="78701", asking_price=None, refresh_run_id=run_id),
             leads.make_lead(state="TX", city="Austin", zip_code="78701", asking_price=350000, refresh_run_id=run_id),
             leads.make_lead(state="CA", city="Fresno", zip_code="93650", asking_price=200000, refresh_run_id=run_id)]
    leads.store(live_server, *fresh)
    try:
        summary = alerts.match_refresh(run_id, db)
        assert summary["new_leads"] == 4
        [note] = notifications.list_notifications(uuid.UUID(user["id"]))
        assert (note.title, note.body) == ("1 new lead matches your saved searches", "Texas 100-300k: 1")
        reload(page)
        expect(page.locator("#notifications-count")).to_have_text("1")
        page.locator("#notifications-button").click()
        expect(page.locator(f"#notification-{note.id}")).to_contain_text("Texas 100-300k: 1")
        page.keyboard.press("Escape")
    finally:
        _set_active(db, [row["id"] for row in fresh], False)

    # A city from the suggestions (any case), then chips remove one filter at a time.
    visit(page, f"/marketplace?{query}")
    expect_grid(page, query, [places["austin"]])
    page.locator("#chip-price-remove").click()
    expect_grid(page, "state=TX", texas)
    page.locator("#filter-group-location").click()
    page.get_by_label("City", exact=True).fill("austin")
    page.locator("#filter-city-add").click()
    expect_grid(page, "state=TX&city=austin", [places["austin"], places["austin_na"]])
    page.get_by_label("ZIP code", exact=True).fill("7870")
    page.locator("#filter-zip-add").click()
    expect(page.locator("#filter-location-error")).to_have_text("Enter a five-digit ZIP code.")
    expect_grid(page, "state=TX&city=austin", [places["austin"], places["austin_na"]])
    page.keyboard.press("Escape")
    page.locator("#chip-states-TX-remove").click()
    expect_grid(page, "city=austin", [places["austin"], places["austin_na"]])

    # Junk in the URL is ignored, never a crash.
    visit(page, "/marketplace?state=XX&city=" + "y" * 150 + "&zip=abc&min_price=-5&max_price=lots")
    expect_grid(page, "", [places[n] for n in ("austin", "austin_na", "dallas", "houston", "fresno", "tulsa")])
    visit(page, "/marketplace?state=OK&state=CA&min_price=100000")
    expect_grid(page, "state=OK&state=CA&min_price=100000", [places["fresno"], places["tulsa"]])
    page.locator("#clear-filters").click()
    expect_grid(page, "", [places[n] for n in ("austin", "austin_na", "dallas", "houston", "fresno", "tulsa")])
    expect(page.locator("#filter-chips")).to_have_count(0)


def test_location_and_price_in_the_phone_sheet(page: Page, places):
    page.set_viewport_size({"width": 375, "height": 812})
    visit(page, "/marketplace")
    expect(page.locator("#lead-grid")).to_be_visible(timeout=30000)
    expect(page.locator("#filter-group-location")).to_be_hidden()
    page.locator("#mobile-filters-button").click()
    sheet = page.locator("#filter-sheet")
    expect(sheet).to_be_visible()
    sheet.get_by_role("group", name="Location").scroll_into_view_if_needed()
    sheet.locator("#sheet-filter-state").select_option("TX")
    expect_grid(page, "state=TX", [places[n] for n in ("austin", "austin_na", "dallas", "houston")])
    expect(sheet.locator("#sheet-filter-city-options option")).to_have_count(3)
    sheet.locator("#sheet-filter-state").scroll_into_view_if_needed()
    shot(page, "sheet-location-375")
    sheet.get_by_label("Max price").fill("160000")
    sheet.locator("#sheet-filter-price-apply").click()
    expect_grid(page, "state=TX&max_price=160000", [places["austin"], places["houston"]])
    expect(sheet.locator("#sheet-filter-price-note")).to_have_text(NOTE)
    expect(page.locator("#sheet-show-results")).to_have_text("Show 2 leads")
    sheet.locator("#sheet-filter-price-note").scroll_into_view_if_needed()
    shot(page, "sheet-375")
    page.locator("#sheet-show-results").click()
    expect(sheet).to_have_count(0)
    expect(page.locator("#mobile-filters-button")).to_contain_text("2")
    expect(page.locator("#chip-price")).to_contain_text("Price up to $160,000")
    shot(page, "bar-375")
