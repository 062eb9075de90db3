"""What a paying user meets first (issue 24 #11, #16): pages that do not jump while
they load (cumulative layout shift under 0.05, a layout metric, not a time), the
dashboard's greeting on a first visit, /legal's tab following Back, and the home
page's sample card masked like a locked marketplace card."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from marketplace.features.marketplace.rules import mask_address
from marketplace.features.marketplace.rules_samples import HERO_SAMPLE
from tests.browser.helpers import at_rest, start_session, visit

CLS_LIMIT = 0.05
# Every layout shift not caused by the user, summed (the Layout Instability API).
CLS_OBSERVER = """
window.__cls = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__cls += entry.value;
}).observe({type: 'layout-shift', buffered: true});
"""
# What each page shows once loaded (then it has nothing left to move).
LOADED = {
    "/": "#hero-cta-marketplace",
    "/marketplace": "#lead-grid, #empty-results, #sample-notice",
    "/bulkscraper": "#scraper-auth-required, #scraper-start",
    "/pricing": "#pricing-packs",
    "/dashboard": "#dashboard-greeting",
}


def _cls(page: Page, path: str) -> float:
    visit(page, path)
    page.locator(LOADED[path]).first.wait_for()
    page.wait_for_load_state("networkidle")
    # Late shifts count too: the ready signal (visit) comes once the session resolved and the page's
    # loads are done; then fonts loaded and nothing moving.
    at_rest(page)
    return page.evaluate("window.__cls")


@pytest.mark.parametrize("width", [1280, 375])
def test_pages_do_not_shift_while_they_load(page: Page, live_server, make_user, width):
    page.set_viewport_size({"width": width, "height": 800 if width > 500 else 740})
    page.add_init_script(CLS_OBSERVER)
    shifts = {f"visitor {path}": _cls(page, path) for path in ("/", "/marketplace", "/bulkscraper", "/pricing")}
    user = make_user(credits=500)
    start_session(page, live_server.database_url, user["id"])
    for path in ("/dashboard", "/marketplace", "/bulkscraper", "/pricing"):
        shifts[f"signed in {path}"] = _cls(page, path)
    assert {name: round(value, 3) for name, value in shifts.items() if value >= CLS_LIMIT} == {}, shifts


def test_dashboard_says_welcome_on_the_first_visit_and_welcome_back_after(page: Page, live_server, make_user):
    user = make_user(first_name="Ada")
    start_session(page, live_server.database_url, user["id"])
    visit(page, "/dashboard")
    expect(page.locator("#dashboard-greeting")).to_have_text("Welcome, Ada!")
    page.context.clear_cookies()
    page.evaluate("localStorage.clear(); sessionStorage.clear()")
    start_session(page, live_server.database_url, user["id"])  # signed in again, another session
    visit(page, "/dashboard")
    expect(page.locator("#dashboard-greeting")).to_have_text("Welcome back, Ada!")


def test_legal_tab_follows_the_hash_on_back_and_forward(page: Page):
    """SPEC 2: the tab is chosen from the URL hash, also when Back changes it."""
    visit(page, "/legal#terms")
    expect(page.locator("#legal-tab-terms")).to_have_attribute("aria-selected", "true")
    page.evaluate("window.location.hash = 'disclaimer'")  # a link to another tab: a new history entry
    expect(page.locator("#legal-tab-disclaimer")).to_have_attribute("aria-selected", "true")
    page.go_back()
    expect(page).to_have_url(re.compile(r"/legal#terms$"))
    expect(page.locator("#legal-tab-terms")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#legal-terms")).to_be_visible()
    page.go_forward()
    expect(page.locator("#legal-tab-disclaimer")).to_have_attribute("aria-selected", "true")


def test_home_sample_card_masks_the_street(page: Page):
    visit(page, "/")
    address = page.locator("#hero-sample-address")
    expect(address).to_have_text(mask_address(HERO_SAMPLE["address"]))
    street = HERO_SAMPLE["address"].split()[1]
    expect(page.locator(".lv-sample-card")).not_to_contain_text(street)
    expect(page.locator(".lv-sample-card")).to_contain_text("2 ba")
