"""Who may open what: /dashboard, /explorerdev, the 404 page and referral capture."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

from playwright.sync_api import Page, expect
from sqlmodel import func, select

from marketplace.db import session_scope
from marketplace.models import Lead, Profile, User, UserLead, utcnow
from marketplace.services.dashboard import month_start
from tests.browser.helpers import sign_in

ACCESS_DENIED = "Access Denied: You don't have super admin privileges"

# Installed before any page script: remembers whether an element ever existed,
# so a test can prove that protected UI never flashed.
WATCH_SCRIPT = """
(() => {
  window.__seen = {};
  const ids = %s;
  const check = () => { for (const id of ids) { if (document.getElementById(id)) window.__seen[id] = true; } };
  new MutationObserver(check).observe(document, {childList: true, subtree: true});
  document.addEventListener('DOMContentLoaded', check);
})();
"""


def watch_for(page: Page, *element_ids: str) -> None:
    page.add_init_script(WATCH_SCRIPT % list(element_ids))


def ever_seen(page: Page, element_id: str) -> bool:
    return bool(page.evaluate(f"!!(window.__seen && window.__seen[{element_id!r}])"))


def expect_toast(page: Page, text: str) -> None:
    expect(page.locator("[data-sonner-toast]").filter(has_text=text).first).to_be_visible()


def home_url(live_server) -> str:
    return f"{live_server.url}/"


# --------------------------------------------------------------------------- /dashboard


def test_dashboard_redirects_visitor_to_auth(page: Page):
    watch_for(page, "dashboard-content", "dashboard-greeting")
    page.goto("/dashboard")
    page.wait_for_url(re.compile(r"/auth/?$"))
    expect(page.locator("#signin-email")).to_be_visible()
    assert not ever_seen(page, "dashboard-content")
    assert not ever_seen(page, "dashboard-greeting")


def test_dashboard_shows_the_users_numbers(page: Page, live_server, make_user):
    user = make_user(first_name="", credits=1500)
    user_id = uuid.UUID(user["id"])
    now = utcnow()
    last_month = month_start(now) - timedelta(days=1)
    with session_scope(live_server.database_url) as session:
        rows = [
            ("12 Elm Street", 20.0, max(now - timedelta(minutes=5), month_start(now))),
            ("34 Oak Avenue", 25.0, now),
            ("56 Pine Road", None, last_month),
        ]
        for address, roi, unlocked_at in rows:
            lead = Lead(address=address, city="Austin", state="TX", zip_code="78701", lead_type="Probate",
                        source="test", roi=roi, credit_cost=85)
            session.add(lead)
            session.flush()
            session.add(UserLead(user_id=user_id, lead_id=lead.id, unlocked_at=unlocked_at, credit_cost=85))

    sign_in(page, user["email"], user["password"])
    prefix = user["email"].split("@")[0]
    expect(page.locator("#dashboard-greeting")).to_have_text(f"Welcome back, {prefix}!")
    expect(page.locator("#dashboard-credits")).to_have_text("1,500 credits")
    expect(page.locator("#dashboard-buy-credits")).to_have_attribute("href", "/purchase-credits")
    expect(page.locator("#stat-leads-unlocked")).to_have_text("3")
    expect(page.locator("#stat-credits")).to_have_text("1,500")
    expect(page.locator("#stat-avg-roi")).to_have_text("22.5%")
    expect(page.locator("#stat-this-month")).to_have_text("2")

    table_rows = page.locator("#dashboard-unlocked-table tbody tr")
    expect(table_rows).to_have_count(3)
    expect(table_rows.nth(0)).to_contain_text("34 Oak Avenue")
    expect(table_rows.nth(2)).to_contain_text("56 Pine Road")
    expect(table_rows.nth(2)).to_contain_text("—")

    page.locator("#dashboard-tab-scrapes").click()
    expect(page.get_by_text("No bulk scrapes yet.")).to_be_visible()

    page.locator("#dashboard-tab-referrals").click()
    with session_scope(live_server.database_url) as session:
        code = session.get(Profile, user_id).referral_code
    expect(page.locator("#dashboard-referral-code")).to_have_text(code)

    page.locator("#dashboard-tab-settings").click()
    expect(page.locator("#settings-email")).to_have_value(user["email"])
    expect(page.locator("#settings-last-name")).to_have_value("Investor")
    expect(page.locator("#settings-email")).to_have_attribute("readonly", "")


def test_dashboard_empty_states(page: Page, make_user):
    user = make_user(first_name="Nia", credits=0)
    sign_in(page, user["email"], user["password"])
    expect(page.locator("#dashboard-greeting")).to_have_text("Welcome back, Nia!")
    expect(page.locator("#dashboard-credits")).to_have_text("0 credits")
    expect(page.locator("#stat-avg-roi")).to_have_text("—")
    expect(page.locator("#stat-this-month")).to_have_text("0")
    expect(page.get_by_text("You haven't unlocked any leads yet.")).to_be_visible()
    browse = page.locator("#dashboard-browse")
    expect(browse).to_have_text("Browse Marketplace")
    browse.click()
    page.wait_for_url(re.compile(r"/marketplace/?$"))


# --------------------------------------------------------------------------- /explorerdev


def test_explorer_sends_visitor_home(page: Page, live_server):
    watch_for(page, "explorer-heading")
    page.goto("/explorerdev")
    page.wait_for_url(home_url(live_server))
    expect(page.locator("#header-login")).to_be_visible()
    assert not ever_seen(page, "explorer-heading")


def test_explorer_refuses_plain_user(page: Page, live_server, make_user):
    user = make_user()
    sign_in(page, user["email"], user["password"])
    watch_for(page, "explorer-heading")
    page.goto("/explorerdev")
    page.wait_for_url(home_url(live_server))
    expect_toast(page, ACCESS_DENIED)
    assert not ever_seen(page, "explorer-heading")


def test_explorer_open_for_super_admin(page: Page, live_server, make_user):
    admin = make_user(admin=True)
    sign_in(page, admin["email"], admin["password"])
    page.goto("/explorerdev")
    expect(page.locator("#explorer-heading")).to_have_text("Developer Explorer")
    expect(page).to_have_url(re.compile(r"/explorerdev/?$"))
    with session_scope(live_server.database_url) as session:
        users = session.exec(select(func.count()).select_from(User)).one()
        leads = session.exec(select(func.count()).select_from(Lead)).one()
        active = session.exec(select(func.count()).select_from(Lead).where(Lead.is_active)).one()
        unlocks = session.exec(select(func.count()).select_from(UserLead)).one()
    expect(page.locator("#explorer-users")).to_have_text(f"{users:,}")
    expect(page.locator("#explorer-leads")).to_have_text(f"{leads:,}")
    expect(page.locator("#explorer-active-leads")).to_have_text(f"{active:,}")
    expect(page.locator("#explorer-unlocks")).to_have_text(f"{unlocks:,}")


# --------------------------------------------------------------------------- 404 and referral capture


def test_unknown_path_shows_404(page: Page, live_server):
    page.goto("/some/unknown/path")
    home = page.get_by_text("Return to Home")
    expect(home).to_be_visible()
    home.click()
    page.wait_for_url(home_url(live_server))


def test_referral_segment_is_captured(page: Page, live_server):
    page.goto("/ABC123")
    page.wait_for_url(home_url(live_server))
    assert page.evaluate("window.sessionStorage.getItem('referral_code')") == "ABC123"
