"""Who may open what: /dashboard (and its numbers and Unlocked Leads), /explorerdev,
the 404 page and referral capture."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import sqlalchemy as sa
from playwright.sync_api import Page, expect
from sqlmodel import func, select

from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import Lead, Profile, User, UserLead, utcnow
from marketplace.features.dashboard.service import month_start
from tests.browser.helpers import sign_in, visit
from tests.browser.leads import make_lead, store, unlock

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
    visit(page, "/dashboard")
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
    expect(page.locator("#dashboard-greeting")).to_have_text(re.compile(rf"^Welcome(?: back)?, {re.escape(prefix)}!$"))
    expect(page.locator("#dashboard-credits")).to_have_text("1,500 credits")
    expect(page.locator("#dashboard-buy-credits")).to_have_attribute("href", "/purchase-credits")
    expect(page.locator("#stat-leads-unlocked")).to_have_text("3")
    expect(page.locator("#stat-credits")).to_have_text("1,500")
    expect(page.locator("#stat-avg-roi")).to_have_text("22.5%")
    expect(page.locator("#stat-this-month")).to_have_text("2")

    table_rows = page.locator("#dashboard-unlocked-table tbody tr")
    expect(table_rows).to_have_count(3)
    # Every column is named, the View Details one too (for screen readers only).
    expect(page.locator("#dashboard-unlocked-table thead th")).to_have_text(
        ["Property", "Type", "ROI", "Credits", "Unlocked", "Details"])
    expect(table_rows.nth(0)).to_contain_text("34 Oak Avenue")
    expect(table_rows.nth(2)).to_contain_text("56 Pine Road")
    expect(table_rows.nth(2)).to_contain_text("N/A")

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
    expect(page.locator("#dashboard-greeting")).to_have_text(re.compile(r"^Welcome(?: back)?, Nia!$"))
    expect(page.locator("#dashboard-credits")).to_have_text("0 credits")
    expect(page.locator("#stat-avg-roi")).to_have_text("N/A")
    expect(page.locator("#stat-this-month")).to_have_text("0")
    expect(page.get_by_text("You haven't unlocked any leads yet.")).to_be_visible()
    browse = page.locator("#dashboard-browse")
    expect(browse).to_have_text("Browse Marketplace")
    browse.click()
    page.wait_for_url(re.compile(r"/marketplace/?$"))


def test_dashboard_unlocked_leads_link_to_their_property_pages(page: Page, live_server, make_user):
    """Stats against known data, the list newest first, and each row opening its property page."""
    user = make_user(first_name="Ava", credits=1000)
    now = utcnow()
    start = month_start(now)
    # No sale dates: each row's first cell is exactly address, place and the demo label.
    older = make_lead(roi=10.0, credit_cost=100, city="Tampa", state="FL", zip_code="33602", lead_type="Auction",
                      sale_date=None)
    early = make_lead(roi=20.0, credit_cost=120, city="Miami", state="FL", zip_code="33101", lead_type="Probate")
    latest = make_lead(roi=None, credit_cost=60, city="Denver", state="CO", zip_code="80202", lead_type="Vacancy")
    store(live_server, older, early, latest)
    unlock(live_server, user, older, start - timedelta(days=3))  # last month
    unlock(live_server, user, early, start)  # the first instant of this month counts
    unlock(live_server, user, latest, now)

    sign_in(page, user["email"], user["password"])
    expect(page.locator("#stat-leads-unlocked")).to_have_text("3")
    expect(page.locator("#stat-credits")).to_have_text("720")  # 1,000 - 100 - 120 - 60
    expect(page.locator("#dashboard-credits")).to_have_text("720 credits")
    expect(page.locator("#stat-avg-roi")).to_have_text("15.0%")  # (10 + 20) / 2; the lead without ROI is left out
    expect(page.locator("#stat-this-month")).to_have_text("2")

    rows = page.locator("#dashboard-unlocked-table tbody tr")
    expect(rows).to_have_count(3)
    for index, (lead, place, roi, cost) in enumerate([
        (latest, "Denver, CO 80202", "N/A", "60"),
        (early, "Miami, FL 33101", "20.0%", "120"),
        (older, "Tampa, FL 33602", "10.0%", "100"),
    ]):
        row = rows.nth(index)
        # The test leads are generated ones: the row says so, as the card does.
        expect(row.locator("td").nth(0)).to_have_text(lead["address"] + place + "Demo data (generated)")
        expect(row.locator("td").nth(1)).to_have_text(lead["lead_type"])
        expect(row.locator("td").nth(2)).to_have_text(roi)
        expect(row.locator("td").nth(3)).to_have_text(cost)
        expect(row.get_by_role("link", name="View Details")).to_have_attribute("href", f"/property/{lead['id']}")
    expect(page.locator("#dashboard-unlocked-summary")).to_have_text("Showing 3 of 3 unlocked leads, newest first")
    expect(page.locator("#dashboard-load-more")).to_have_count(0)

    rows.nth(1).get_by_role("link", name="View Details").click()
    page.wait_for_url(re.compile(rf"/property/{early['id']}/?$"))
    expect(page.locator("#property-address")).to_have_text(early["address"])
    expect(page.locator("#property-credits-paid")).to_have_text("120 credits")

    page.go_back()
    page.wait_for_url(re.compile(r"/dashboard/?$"))
    rows.nth(0).get_by_role("link", name=latest["address"]).click()
    page.wait_for_url(re.compile(rf"/property/{latest['id']}/?$"))
    expect(page.locator("#property-address")).to_have_text(latest["address"])


def test_dashboard_unlocked_leads_load_more(page: Page, live_server, make_user):
    user = make_user(credits=0)
    user_id = uuid.UUID(user["id"])
    now = utcnow()
    with session_scope(live_server.database_url) as session:
        for n in range(55):
            lead = Lead(address=f"{n + 1} Paging Street", city="Austin", state="TX", zip_code="78701",
                        lead_type="Probate", source="test", roi=12.0, credit_cost=30)
            session.add(lead)
            session.flush()
            session.add(UserLead(user_id=user_id, lead_id=lead.id, unlocked_at=now - timedelta(minutes=n),
                                 credit_cost=30))
    sign_in(page, user["email"], user["password"])
    rows = page.locator("#dashboard-unlocked-table tbody tr")
    expect(rows).to_have_count(50)
    expect(rows.first).to_contain_text("1 Paging Street")
    expect(rows.last).to_contain_text("50 Paging Street")
    expect(page.locator("#dashboard-unlocked-summary")).to_have_text("Showing 50 of 55 unlocked leads, newest first")
    page.locator("#dashboard-load-more").click()
    expect(rows).to_have_count(55)
    expect(rows.last).to_contain_text("55 Paging Street")
    expect(page.locator("#dashboard-unlocked-summary")).to_have_text("Showing 55 of 55 unlocked leads, newest first")
    expect(page.locator("#dashboard-load-more")).to_have_count(0)


def test_dashboard_load_failure_shows_no_made_up_numbers(page: Page, live_server, make_user):
    user = make_user(credits=500)
    lead = make_lead()
    store(live_server, lead)
    unlock(live_server, user, lead)
    # A corrupt unlock row (SQLite stores UUIDs as 32 hex digits): reading it fails.
    with get_engine(live_server.database_url).begin() as conn:
        conn.execute(sa.text("UPDATE user_leads SET unlocked_at = 'garbage' WHERE user_id = :u"),
                     {"u": uuid.UUID(user["id"]).hex})
    sign_in(page, user["email"], user["password"])
    expect_toast(page, "Failed to load dashboard data.")
    expect(page.locator("#dashboard-load-error")).to_contain_text("Failed to load dashboard data.")
    expect(page.locator("#stat-leads-unlocked")).to_have_count(0)
    expect(page.locator("#dashboard-unlocked-empty")).to_have_count(0)
    assert lead["address"] not in page.content()


# --------------------------------------------------------------------------- /explorerdev


def test_explorer_sends_visitor_home(page: Page, live_server):
    watch_for(page, "explorer-heading")
    visit(page, "/explorerdev")
    page.wait_for_url(home_url(live_server))
    expect(page.locator("#header-login")).to_be_visible()
    assert not ever_seen(page, "explorer-heading")


def test_explorer_refuses_plain_user(page: Page, live_server, make_user):
    user = make_user()
    sign_in(page, user["email"], user["password"])
    watch_for(page, "explorer-heading")
    visit(page, "/explorerdev")
    page.wait_for_url(home_url(live_server))
    expect_toast(page, ACCESS_DENIED)
    assert not ever_seen(page, "explorer-heading")


def test_explorer_open_for_super_admin(page: Page, live_server, make_user):
    admin = make_user(admin=True)
    sign_in(page, admin["email"], admin["password"])
    visit(page, "/explorerdev")
    expect(page.locator("#explorer-heading")).to_have_text("Developer Explorer")
    expect(page).to_have_url(re.compile(r"/explorerdev/?$"))
    with session_scope(live_server.database_url) as session:
        users = session.exec(select(func.count()).select_from(User).where(User.deleted_at.is_(None))).one()
        # The marketplace's leads: private bulk-scrape deliveries are not counted.
        leads = session.exec(select(func.count()).select_from(Lead).where(Lead.scrape_id.is_(None))).one()
        active = session.exec(select(func.count()).select_from(Lead).where(Lead.is_active, Lead.scrape_id.is_(None))).one()
        unlocks = session.exec(select(func.count()).select_from(UserLead)
                               .where(UserLead.purchase_type != "bulk_scrape")).one()
    expect(page.locator("#explorer-users")).to_have_text(f"{users:,}")
    expect(page.locator("#explorer-leads")).to_have_text(f"{leads:,}")
    expect(page.locator("#explorer-active-leads")).to_have_text(f"{active:,}")
    expect(page.locator("#explorer-unlocks")).to_have_text(f"{unlocks:,}")


# --------------------------------------------------------------------------- 404 and referral capture


def test_unknown_path_shows_404(page: Page, live_server):
    visit(page, "/some/unknown/path")
    home = page.get_by_text("Return to Home")
    expect(home).to_be_visible()
    home.click()
    page.wait_for_url(home_url(live_server))


def test_referral_segment_is_captured(page: Page, live_server):
    visit(page, "/ABC123")
    page.wait_for_url(home_url(live_server))
    assert page.evaluate("window.sessionStorage.getItem('referral_code')") == "ABC123"
