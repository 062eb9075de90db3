"""Layout defects of an investor's walk-through, measured in Chromium: the dashboard's View Details button
stays on one line at every width from 375 to 1440 px, and /marketplace on a 375 x 812 phone starts its first
card within the first screen (its header compact, every element the SPEC requires still there).
Screenshots in test-artifacts/walkthrough-*.png."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser import leads
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import at_rest, start_session, visit

WIDTHS = (375, 600, 768, 900, 1024, 1280, 1440)
# How many line boxes the button's label takes, and whether it overflows the button.
LABEL_LINES = """el => { const r = document.createRange(); r.selectNodeContents(el);
  return [r.getClientRects().length, el.scrollWidth - el.clientWidth]; }"""


def shot(page: Page, name: str) -> None:
    at_rest(page)
    page.screenshot(path=str(ARTIFACTS / f"walkthrough-{name}.png"), full_page=False)


def test_view_details_never_wraps(page: Page, live_server, make_user):
    user = make_user(credits=2_000)
    for address in ("4821 Northwest Cumberland Heights Boulevard Extension", "12 Elm St"):
        lead = leads.make_lead(is_active=True)
        lead["address"] = address + " " + lead["address"].rsplit(" ", 2)[1]  # unique
        leads.store(live_server, lead)
        leads.unlock(live_server, user, lead)
    start_session(page, live_server.database_url, user["id"])
    visit(page, "/dashboard")
    table = page.locator("#dashboard-unlocked-table")
    buttons = table.get_by_role("link", name="View Details")
    expect(buttons).to_have_count(2, timeout=30000)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        at_rest(page)
        if width < 768:  # phones: tappable cards, no button
            expect(table).to_be_hidden()
            expect(page.locator("#dashboard-unlocked-list .dashboard-unlocked-item")).to_have_count(2)
            continue
        for i in range(2):
            lines, overflow = buttons.nth(i).evaluate(LABEL_LINES)
            assert (lines, overflow <= 0) == (1, True), (width, i, lines, overflow)
        if width in (768, 1280):
            shot(page, f"view-details-{width}")


def test_marketplace_first_card_is_on_a_phones_first_screen(page: Page, live_server, make_user):
    leads.store(live_server, *[leads.make_lead(is_active=True) for _ in range(3)])
    user = make_user(credits=2_000)
    start_session(page, live_server.database_url, user["id"])
    page.set_viewport_size({"width": 375, "height": 812})
    visit(page, "/marketplace")
    first = page.locator("#lead-grid [id^='lead-card-']").first
    expect(first).to_be_visible(timeout=30000)
    at_rest(page)
    box = first.bounding_box()
    shot(page, "marketplace-375")
    assert box is not None and box["y"] < 400, box
    # The SPEC's header elements are all still there, compacted.
    for element in ("#available-credits", "#buy-more-credits", "#refresh-countdown", "#marketplace-disclaimer",
                    "#filter-bar", "#mobile-filters-button"):
        expect(page.locator(element)).to_be_visible()
    expect(page.locator("#marketplace-disclaimer")).to_contain_text("investment advice")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.locator("#mobile-filters-button").click()
    expect(page.locator("#sheet-page-size")).to_be_visible()  # the page size, in the filters sheet
    page.keyboard.press("Escape")
    page.set_viewport_size({"width": 1280, "height": 900})
    shot(page, "marketplace-1280")
