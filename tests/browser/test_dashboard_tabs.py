"""Dashboard tabs clicked faster than one round trip: the tabs follow the server's answer, so a click on a tab
the browser still showed as active (the previous click's answer not back yet) was once dropped. Every click
is carried out, in order: the last tab clicked is the one shown, in the address too."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.helpers import start_session, visit


def test_two_tab_clicks_within_one_round_trip_end_on_the_second(page: Page, live_server, make_user):
    user = make_user()
    start_session(page, live_server.database_url, user["id"])
    visit(page, "/dashboard?tab=settings")
    expect(page.locator("#dashboard-tab-settings")).to_have_attribute("data-state", "active")
    expect(page.locator("#dashboard-settings")).to_be_visible()
    for _ in range(3):  # Unlocked, then at once Settings (still shown as active): Settings wins every time
        page.locator("#dashboard-tab-unlocked").click()
        page.locator("#dashboard-tab-settings").click()
        expect(page).to_have_url(re.compile(r"/dashboard\?tab=settings$"))
        expect(page.locator("#dashboard-tab-settings")).to_have_attribute("data-state", "active")
        expect(page.locator("#dashboard-settings")).to_be_visible()
    page.locator("#dashboard-tab-referrals").click()
    page.locator("#dashboard-tab-scrapes").click()
    expect(page).to_have_url(re.compile(r"/dashboard\?tab=scrapes$"))
    expect(page.locator("#dashboard-tab-scrapes")).to_have_attribute("data-state", "active")
