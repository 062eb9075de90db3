"""Saved searches and alerts (issue 15), in the browser: "Save search" on /marketplace,
the dashboard's Saved Searches tab (rename, switches, open, delete, the 25 limit), and
the whole alert path: a saved search, the refresh CLI run against the live server's
database, the header bell's unread count and list, the digest e-mail in the outbox and
its one-click unsubscribe link."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid

from playwright.sync_api import Page, expect
from sqlmodel import select

from marketplace.platform.config import PROJECT_ROOT
from marketplace.platform.db import session_scope
from marketplace.platform.models import EmailOutbox
from marketplace.features.marketplace import service_notifications as notifications
from marketplace.features.marketplace import service_saved_searches as saved_searches
from tests.browser import leads
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import at_rest, expect_toast, reload, start_session, visit

LIMIT = ("Saved Search Limit", "You can save up to 25 searches. Delete one to save another.")
STOP_LINK_RE = re.compile(r"Stop e-mails for this search: (\S+)")


def shot(page: Page, name: str) -> None:
    at_rest(page)  # dialogs and popovers done fading in
    page.screenshot(path=str(ARTIFACTS / f"saved-searches-{name}.png"))


def searches(user: dict) -> list[saved_searches.SavedSearchView]:
    return saved_searches.list_saved_searches(uuid.UUID(user["id"]))


def filter_marketplace(page: Page, group: str, value: str, query: str) -> None:
    """Tick one filter in the bar's popover; the grid then shows ``query``."""
    visit(page, "/marketplace")
    expect(page.locator("#lead-grid, #empty-results").first).to_be_visible(timeout=30000)
    page.locator(f"#filter-group-{group}").click()
    page.locator(f"#filter-{group}-{value}").click()
    page.keyboard.press("Escape")
    expect(page.locator("#lead-grid, #empty-results").first).to_be_visible()
    page.wait_for_function(f"document.location.search === '?{query}'")


def save_search(page: Page, name: str | None = None) -> None:
    page.locator("#save-search-button").click()
    expect(page.locator("#save-search-dialog")).to_be_visible()
    if name is not None:
        page.locator("#save-search-name").fill(name)
    page.locator("#save-search-save").click()


def open_tab(page: Page) -> None:
    visit(page, "/dashboard")
    page.locator("#dashboard-tab-saved").click()
    expect(page.locator("#saved-searches-list, #saved-searches-empty").first).to_be_visible(timeout=30000)


def switch(page: Page, kind: str, search_id: int):
    return page.locator(f"#saved-search-{kind}-{search_id}")


# --------------------------------------------------------------------------- save, list, manage


def test_save_a_search_then_rename_toggle_open_and_delete_it(page: Page, live_server, make_user):
    user = make_user()
    leads.store(live_server, *(leads.make_lead(lead_type="Probate") for _ in range(2)))
    start_session(page, live_server.database_url, user["id"])

    filter_marketplace(page, "type", "Probate", "type=Probate")
    count = page.locator("#result-count").inner_text()  # '12 leads': what the marketplace shows for it
    matches = int(count.split()[0].replace(",", ""))
    assert matches >= 2

    page.locator("#save-search-button").click()
    dialog = page.locator("#save-search-dialog")
    expect(dialog).to_be_visible()
    summary = "Probate · sorted by Highest ROI"
    expect(page.locator("#save-search-summary")).to_have_text(summary)
    expect(page.locator("#save-search-name")).to_have_value("Probate")  # the filters, from the summary
    shot(page, "save-dialog-1280")
    page.locator("#save-search-name").fill("Probate deals")
    page.locator("#save-search-save").click()
    expect_toast(page, "Search Saved", "'Probate deals' is in your dashboard under Saved Searches.")
    expect(dialog).to_be_hidden()

    [stored] = searches(user)
    assert (stored.name, stored.query, stored.alerts_enabled, stored.email_enabled) == (
        "Probate deals", "type=Probate", True, True)
    sid = stored.id

    open_tab(page)
    expect(page.locator("#saved-searches-count")).to_have_text("1 of 25")
    expect(page.locator(f"#saved-search-name-{sid}")).to_have_text("Probate deals")
    expect(page.locator(f"#saved-search-summary-{sid}")).to_have_text(summary)
    expect(page.locator(f"#saved-search-matches-{sid}")).to_have_text(
        f"{matches:,} match{'' if matches == 1 else 'es'} now")
    expect(page.locator(f"#saved-search-new-{sid}")).to_have_count(0)  # nothing new yet
    expect(switch(page, "alerts", sid)).to_have_attribute("aria-checked", "true")
    expect(switch(page, "email", sid)).to_have_attribute("aria-checked", "true")
    shot(page, "tab-1280")

    # Rename
    page.locator(f"#saved-search-rename-{sid}").click()
    expect(page.locator("#saved-search-rename-input")).to_have_value("Probate deals")
    page.locator("#saved-search-rename-input").fill("Probate, all sizes")
    page.locator("#saved-search-rename-save").click()
    expect_toast(page, "Search Renamed", "It is now called 'Probate, all sizes'.")
    expect(page.locator(f"#saved-search-name-{sid}")).to_have_text("Probate, all sizes")
    assert searches(user)[0].name == "Probate, all sizes"

    # The switches, each stored and still off after a reload
    switch(page, "email", sid).click()
    expect(switch(page, "email", sid)).to_have_attribute("aria-checked", "false")
    switch(page, "alerts", sid).click()
    expect(switch(page, "alerts", sid)).to_have_attribute("aria-checked", "false")
    expect(switch(page, "email", sid)).to_be_disabled()  # no alerts, no e-mail
    stored = searches(user)[0]
    assert (stored.alerts_enabled, stored.email_enabled) == (False, False)
    open_tab(page)
    expect(switch(page, "alerts", sid)).to_have_attribute("aria-checked", "false")
    expect(switch(page, "email", sid)).to_have_attribute("aria-checked", "false")
    switch(page, "alerts", sid).click()
    expect(switch(page, "alerts", sid)).to_have_attribute("aria-checked", "true")
    expect(switch(page, "email", sid)).to_be_enabled()
    assert searches(user)[0].alerts_enabled is True

    # Open: the marketplace with its filters
    page.locator(f"#saved-search-open-{sid}").click()
    page.wait_for_url("**/marketplace?type=Probate")
    expect(page.locator("#filter-group-type")).to_contain_text("1")
    expect(page.locator("#result-count")).to_have_text(count)

    # Delete (Cancel first changes nothing)
    open_tab(page)
    page.locator(f"#saved-search-delete-{sid}").click()
    expect(page.locator("#saved-search-delete-dialog")).to_contain_text('"Probate, all sizes" and its alerts')
    page.locator("#saved-search-delete-cancel").click()
    expect(page.locator(f"#saved-search-{sid}")).to_be_visible()
    page.locator(f"#saved-search-delete-{sid}").click()
    page.locator("#saved-search-delete-confirm").click()
    expect_toast(page, "Search Deleted", "'Probate, all sizes' and its alerts are gone.")
    expect(page.locator(f"#saved-search-{sid}")).to_have_count(0)
    expect(page.locator("#saved-searches-empty")).to_contain_text("Save search")
    expect(page.locator("#saved-searches-count")).to_have_text("0 of 25")
    assert searches(user) == []


def test_the_limit_of_25_and_a_taken_name(page: Page, live_server, make_user):
    user = make_user()
    uid = uuid.UUID(user["id"])
    for n in range(24):
        saved_searches.create_saved_search(uid, f"Search {n + 1}", "type=Auction")
    start_session(page, live_server.database_url, user["id"])

    filter_marketplace(page, "type", "Auction", "type=Auction")
    save_search(page, "Search 3")  # a name the user already has
    expect_toast(page, "Name Taken", "You already have a saved search named 'Search 3'.")
    expect(page.locator("#save-search-dialog")).to_be_visible()  # stays open to pick another name
    page.locator("#save-search-name").fill("Number 25")
    page.locator("#save-search-save").click()
    expect_toast(page, "Search Saved", "'Number 25' is in your dashboard under Saved Searches.")
    assert len(searches(user)) == 25

    save_search(page, "Number 26")
    expect_toast(page, *LIMIT)
    expect(page.locator("#save-search-dialog")).to_be_visible()
    assert len(searches(user)) == 25

    open_tab(page)
    expect(page.locator("#saved-searches-count")).to_have_text("25 of 25")
    expect(page.locator("#saved-searches-list > *")).to_have_count(25)


def test_visitors_are_sent_to_sign_in_and_have_no_bell(page: Page, live_server):
    visit(page, "/marketplace")
    link = page.locator("#save-search-signin")
    expect(link).to_have_text("Sign in to save")
    expect(link).to_have_accessible_name("Sign in to save this search")
    expect(page.locator("#save-search-button")).to_have_count(0)
    expect(page.locator("#notifications-button")).to_have_count(0)
    link.click()
    page.wait_for_url("**/auth")


# --------------------------------------------------------------------------- the alert path, end to end


def run_refresh(live_server) -> None:
    """`python -m marketplace refresh-leads --force` against the live server's database,
    with its secret and site URL (the e-mail's signed links must work on that server)."""
    env = {**os.environ, "DATABASE_URL": live_server.database_url, "SECRET_KEY": "browser-test-secret",
           "SITE_URL": live_server.url, "MARKETPLACE_DATA_DIR": str(live_server.data_dir),
           "LEAD_REFRESH_COUNT": "40"}
    done = subprocess.run([sys.executable, "-m", "marketplace", "refresh-leads", "--force"], cwd=PROJECT_ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def digest_for(db: str, email: str) -> EmailOutbox:
    with session_scope(db) as session:
        rows = session.exec(select(EmailOutbox).where(EmailOutbox.to_address == email)).all()
        session.expunge_all()
    digests = [row for row in rows if STOP_LINK_RE.search(row.body)]
    assert len(digests) == 1, [row.subject for row in rows]
    return digests[0]


def test_refresh_alerts_the_bell_and_the_unsubscribe_link(page: Page, live_server, make_user):
    db = live_server.database_url
    user = make_user()
    uid = uuid.UUID(user["id"])
    start_session(page, db, user["id"])

    # Every lead of a refresh is new: a search on the New tag matches them all.
    filter_marketplace(page, "tag", "new", "tag=new")
    save_search(page, "Fresh leads")
    expect_toast(page, "Search Saved", "'Fresh leads' is in your dashboard under Saved Searches.")
    [search] = searches(user)
    visit(page, "/dashboard")
    bell = page.locator("#notifications-button")
    expect(bell).to_have_attribute("aria-label", "Notifications")
    expect(page.locator("#notifications-count")).to_have_count(0)
    bell.click()
    expect(page.locator("#notifications-empty")).to_contain_text("No notifications yet")
    page.keyboard.press("Escape")

    run_refresh(live_server)

    [note] = notifications.list_notifications(uid)
    assert re.fullmatch(r"\d+ new leads? match(es)? your saved searches", note.title), note.title
    assert notifications.unread_count(uid) == 1
    reload(page)
    expect(bell).to_have_attribute("aria-label", "Notifications, 1 unread")
    expect(page.locator("#notifications-count")).to_have_text("1")
    bell.click()
    item = page.locator(f"#notification-{note.id}")
    expect(item).to_contain_text(note.title)
    expect(item).to_contain_text(note.body)
    expect(item).to_have_attribute("data-unread", "true")
    shot(page, "bell-1280")
    page.locator("#notifications-mark-all").click()
    expect(item).to_have_attribute("data-unread", "false")
    expect(bell).to_have_attribute("aria-label", "Notifications")
    expect(page.locator("#notifications-count")).to_have_count(0)
    assert notifications.unread_count(uid) == 0
    item.click()
    page.wait_for_url(re.compile(re.escape(note.url) + "$"))

    # The tab: new since last opened
    new = searches(user)[0].new_since_opened
    assert new >= 1
    open_tab(page)
    expect(page.locator(f"#saved-search-new-{search.id}")).to_have_text(f"{new:,} new")

    # The digest e-mail and its one-click unsubscribe link (no sign-in)
    mail = digest_for(db, user["email"])
    assert "Fresh leads" in mail.body
    link = STOP_LINK_RE.search(mail.body).group(1)
    assert link.startswith(live_server.url)
    # Opened in a browser that is not signed in: the page asks, its button turns e-mail off.
    stranger = page.context.browser.new_context()
    try:
        mail_page = stranger.new_page()
        assert visit(mail_page, link).status == 200
        expect(mail_page.get_by_role("heading", name="Stop alert e-mails?")).to_be_visible()
        expect(mail_page.get_by_role("status")).to_contain_text("'Fresh leads'")
        assert searches(user)[0].email_enabled  # the link alone changes nothing
        mail_page.get_by_role("button", name="Stop these e-mails").click()
        expect(mail_page.get_by_role("heading", name="E-mail alerts off")).to_be_visible()
        expect(mail_page.get_by_role("status")).to_have_text("E-mail alerts for 'Fresh leads' are off.")
        expect(mail_page.get_by_role("button", name="Turn e-mails back on")).to_be_visible()
    finally:
        stranger.close()
    stored = searches(user)[0]
    assert (stored.alerts_enabled, stored.email_enabled) == (True, False)
    open_tab(page)
    expect(switch(page, "email", search.id)).to_have_attribute("aria-checked", "false")
    expect(switch(page, "alerts", search.id)).to_have_attribute("aria-checked", "true")

    # Open resets "new since last opened"
    page.locator(f"#saved-search-open-{search.id}").click()
    page.wait_for_url("**/marketplace?tag=new")
    open_tab(page)
    expect(page.locator(f"#saved-search-name-{search.id}")).to_have_text("Fresh leads")
    expect(page.locator(f"#saved-search-new-{search.id}")).to_have_count(0)


# --------------------------------------------------------------------------- phones


def test_on_a_phone(page: Page, live_server, make_user):
    """At 375 px: the six dashboard tabs on one row inside the screen, the save dialog
    and the bell's popover inside the screen, nothing wider than the page."""
    user = make_user()
    saved_searches.create_saved_search(uuid.UUID(user["id"]), "Vacant auctions", "type=Auction&tag=vacant")
    page.set_viewport_size({"width": 375, "height": 800})
    start_session(page, live_server.database_url, user["id"])

    open_tab(page)
    tabs = [page.locator(f"#dashboard-tab-{value}") for value in ("unlocked", "pipeline", "scrapes", "referrals",
                                                                   "settings", "saved")]
    boxes = [tab.bounding_box() for tab in tabs]
    assert len({round(box["y"]) for box in boxes}) == 1, boxes
    assert all(box["x"] >= 0 and box["x"] + box["width"] <= 375 for box in boxes), boxes
    expect(tabs[-1]).to_have_accessible_name("Saved Searches")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    shot(page, "tab-375")

    page.locator("#notifications-button").click()
    popover = page.locator("#notifications-popover")
    expect(popover).to_be_visible()
    box = popover.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375, box
    shot(page, "bell-375")
    page.keyboard.press("Escape")

    visit(page, "/marketplace")
    page.locator("#save-search-button").click()
    dialog = page.locator("#save-search-dialog")
    expect(dialog).to_be_visible()
    box = dialog.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375, box
    shot(page, "save-dialog-375")
