"""Issue 24 leftovers in Chromium: /auth's heading for a first-time visitor, the bulk scraper's
results on a phone (cards, nothing sideways), 'Demo data (generated)' on the scraper's results and
the dashboard's unlocked leads, and a notification that opens its page before it is marked read
(item 17). Screenshots at 1280 and 375 px in test-artifacts/."""

from __future__ import annotations

import uuid
from datetime import date

from playwright.sync_api import Page, expect
from sqlmodel import select

from marketplace.features.marketplace import rules
from marketplace.platform.db import session_scope
from marketplace.platform.models import BulkScrape, LeadRefreshRun, Notification, SavedSearch
from marketplace.features.marketplace import service_notifications as notifications
from marketplace.features.marketplace.state_notifications import NotificationsState
from tests.browser import leads
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import at_rest, run_scrape, sign_in, start_session, visit
from tests.browser.ws_events import EventChannel

DEMO = "Demo data (generated)"


def shot(page: Page, name: str) -> None:
    at_rest(page)
    page.screenshot(path=str(ARTIFACTS / f"issue24-{name}.png"), full_page=True)


def test_auth_heading_is_neutral_until_someone_signed_in_on_this_browser(page: Page, make_user):
    visit(page, "/auth")
    heading = page.locator("#auth-heading")
    expect(heading).to_have_text("Sign in or create your account")
    shot(page, "auth-first-visit-1280")
    page.set_viewport_size({"width": 375, "height": 800})
    expect(heading).to_have_text("Sign in or create your account")
    shot(page, "auth-first-visit-375")
    page.locator("#tab-signup").click()
    expect(heading).to_have_text("Create your account")
    page.set_viewport_size({"width": 1280, "height": 900})

    user = make_user(first_name="Robin")
    sign_in(page, user["email"], user["password"])
    page.locator("#header-signout").click()
    page.wait_for_url("**/")
    visit(page, "/auth")
    expect(heading).to_have_text("Welcome back")
    assert page.evaluate("localStorage.getItem('lv_signed_in_before')") == "1"  # a flag, no personal data
    shot(page, "auth-returning-1280")
    page.locator("#tab-signup").click()
    expect(heading).to_have_text("Create your account")


def test_scrape_results_say_demo_data_and_stack_as_cards_on_a_phone(page: Page, live_server, make_user):
    user = make_user(credits=2_000)
    start_session(page, live_server.database_url, user["id"])
    visit(page, "/bulkscraper")
    run_scrape(page, 3, "Denver, CO")
    with session_scope(live_server.database_url) as s:
        scrape = s.exec(select(BulkScrape).where(BulkScrape.user_id == uuid.UUID(user["id"]))).one()
    assert {row["provenance"] for row in scrape.output} == {DEMO}  # the built-in source's leads

    table = page.locator("#results-table")
    expect(table).to_be_visible()
    expect(page.locator("#results-list")).to_be_hidden()
    expect(table.locator(".result-provenance")).to_have_count(3)
    expect(table.locator(".result-provenance").first).to_have_text(DEMO)
    first_address = table.locator("tbody tr").first.get_by_role("link").inner_text()
    shot(page, "scraper-results-1280")

    page.set_viewport_size({"width": 375, "height": 800})
    expect(table).to_be_hidden()
    items = page.locator("#results-list .result-item")
    expect(items).to_have_count(3)
    first = items.first
    for label in ("Asking", "Market Value", "ARV", "Rehab", "ROI", "Beds / Baths", "Sqft", "Confidence"):
        expect(first).to_contain_text(label)
    expect(first.locator(".result-provenance")).to_have_text(DEMO)
    link = first.get_by_role("link")
    expect(link).to_have_text(first_address)
    box = link.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.locator("#scrape-results").scroll_into_view_if_needed()
    shot(page, "scraper-results-375")
    link.click()
    page.wait_for_url("**/property/*")
    expect(page.locator("#property-provenance")).to_have_text(DEMO)


def test_dashboard_unlocked_leads_say_demo_data(page: Page, live_server, make_user):
    user = make_user(credits=500)
    lead = leads.make_lead()
    leads.store(live_server, lead)
    leads.unlock(live_server, user, lead)
    start_session(page, live_server.database_url, user["id"])
    visit(page, "/dashboard")
    table = page.locator("#dashboard-unlocked-table")
    expect(table).to_contain_text(lead["address"])
    expect(table.locator(".dashboard-unlocked-provenance")).to_have_text(DEMO)
    shot(page, "dashboard-unlocked-1280")
    page.set_viewport_size({"width": 375, "height": 800})
    item = page.locator("#dashboard-unlocked-list .dashboard-unlocked-item")
    expect(item).to_have_count(1)
    expect(item.locator(".dashboard-unlocked-provenance")).to_have_text(DEMO)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    shot(page, "dashboard-unlocked-375")


def test_a_followed_notification_opens_its_marketplace_then_is_read(page: Page, live_server, make_user):
    user = make_user()
    uid = uuid.UUID(user["id"])
    query = rules.Filters(lead_types=("Probate",)).to_query()
    with session_scope(live_server.database_url) as session:
        search = SavedSearch(user_id=uid, name="Probate leads", name_key="probate leads", query=query)
        session.add(search)
        run = LeadRefreshRun(run_key=f"left-{uuid.uuid4().hex[:12]}", run_date=date(2026, 11, 21), status="completed")
        session.add(run)
        session.flush()
        session.add(Notification(user_id=uid, refresh_run_id=run.id, lead_count=4, matches={
            "searches": [{"id": search.id, "name": search.name, "query": query, "count": 4}], "lead_ids": []}))
    [note] = notifications.list_notifications(uid)
    start_session(page, live_server.database_url, user["id"])
    visit(page, "/pricing")
    bell = page.locator("#notifications-button")
    expect(bell).to_have_attribute("aria-label", "Notifications, 1 unread")
    bell.click()
    page.locator(f"#notification-{note.id}").click()
    page.wait_for_url(f"**/marketplace?{query}")
    expect(page.get_by_role("button", name="Remove filter Probate")).to_be_visible()  # the search's filter
    # The page load after it marks it read (the session and the owner checked on the server).
    expect(bell).to_have_attribute("aria-label", "Notifications")
    assert notifications.unread_count(uid) == 0



def test_a_hand_sent_open_item_for_another_users_notification_marks_nothing(page: Page, live_server, make_user):
    user, other = make_user(), make_user()
    other_id = uuid.UUID(other["id"])
    with session_scope(live_server.database_url) as session:
        run = LeadRefreshRun(run_key=f"left-{uuid.uuid4().hex[:12]}", run_date=date(2026, 11, 22), status="completed")
        session.add(run)
        session.flush()
        session.add(Notification(user_id=other_id, refresh_run_id=run.id, lead_count=2,
                                 matches={"searches": [], "lead_ids": []}))
    [foreign] = notifications.list_notifications(other_id)
    channel = EventChannel(page)
    start_session(page, live_server.database_url, user["id"])
    visit(page, "/pricing")
    page.locator("#notifications-button").click()
    expect(page.locator("#notifications-empty")).to_be_visible()
    channel.emit(f"{NotificationsState.get_full_name()}.open_item", {"notification_id": str(foreign.id)})
    channel.settle()  # open_item was handled
    page.locator("#header-signout").wait_for()
    visit(page, "/about")  # the next page load's refresh_count would mark what open_item left
    expect(page.locator("#notifications-button")).to_have_attribute("aria-label", "Notifications")
    # visit waited for the ready signal: the page's loads, refresh_count among them, are done.
    assert notifications.unread_count(other_id) == 1
