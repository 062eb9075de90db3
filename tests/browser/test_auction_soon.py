"""'Auction Soon' is a sale date within 30 days (issue 24 item 9): a locked card with a date 10 days away
shows the tag and 'Sale in 10 days', one 45 days away shows the count without the tag, the tag filter
lists only the first; no calendar date reaches a locked card; after the unlock the property page and the
dashboard show the full date and its source ('Demo date' for a generated lead)."""

from __future__ import annotations

from datetime import timedelta

from playwright.sync_api import Page, expect

from marketplace.features.marketplace import rules_sale_dates as sale_dates
from marketplace.platform.times import format_date
from marketplace.platform.models import utcnow
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import visit
from tests.browser.leads import make_lead, signed_in, store, unlock

ZIP = "05009"  # no other lead of the test database is in this ZIP


def test_a_sale_within_thirty_days_carries_the_tag_and_the_property_page_shows_the_date(page: Page, live_server,
                                                                                      make_user):
    today = sale_dates.local_today(utcnow())
    soon_date, later_date = today + timedelta(days=10), today + timedelta(days=45)
    soon = make_lead(lead_type="Auction", zip_code=ZIP, sale_date=soon_date)
    later = make_lead(lead_type="Auction", zip_code=ZIP, sale_date=later_date)
    store(live_server, soon, later)
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(p if isinstance(p, str) else "")))

    visit(page, f"/marketplace?zip={ZIP}")
    soon_id, later_id = str(soon["id"]), str(later["id"])
    expect(page.locator(f"#lead-card-{soon_id}")).to_be_visible(timeout=30000)
    expect(page.locator(f"#lead-auction-soon-{soon_id}")).to_have_text("Auction Soon")
    expect(page.locator(f"#lead-sale-{soon_id}")).to_have_text("Sale in 10 days")
    expect(page.locator(f"#lead-auction-soon-{later_id}")).to_have_count(0)
    expect(page.locator(f"#lead-sale-{later_id}")).to_have_text("Sale in 45 days")
    # A locked card never receives the calendar date.
    for day in (soon_date, later_date):
        assert day.isoformat() not in page.content() and all(day.isoformat() not in f for f in frames)
        assert format_date(day, "UTC") not in page.content()
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        page.locator(f"#lead-card-{soon_id}").scroll_into_view_if_needed()
        page.locator(f"#lead-card-{soon_id}").screenshot(path=str(ARTIFACTS / f"issue24-auction-soon-card-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})

    visit(page, f"/marketplace?zip={ZIP}&tag=auction_soon")
    expect(page.locator("#result-count")).to_have_text("1 lead", timeout=30000)
    expect(page.locator(f"#lead-card-{soon_id}")).to_be_visible()
    expect(page.locator(f"#lead-card-{later_id}")).to_have_count(0)

    user = make_user(credits=1000)
    unlock(live_server, user, soon)
    signed_in(page, live_server, user)
    visit(page, f"/property/{soon_id}")
    expect(page.locator("#property-sale-date")).to_have_text(
        f"Sale date: {format_date(soon_date, 'UTC')} (in 10 days)", timeout=20000)
    expect(page.locator("#property-sale-source")).to_have_text("Demo date")
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        page.locator("#property-lead-info").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"issue24-sale-date-property-{width}.png"), full_page=False)
    page.set_viewport_size({"width": 1280, "height": 900})

    visit(page, "/dashboard")
    expect(page.locator("#dashboard-unlocked-table .dashboard-sale-date")).to_have_text(
        f"Sale date: {format_date(soon_date, 'UTC')} (in 10 days) · Demo date", timeout=20000)
