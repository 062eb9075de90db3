"""Times show in the browser's own time zone, with its abbreviation (issue 14):
a Chromium context in New York reads Eastern times, EST in winter, EDT in summer."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone

import pytest
from playwright.sync_api import expect
from sqlmodel import select

from marketplace.platform import routes
from marketplace.platform.db import session_scope
from marketplace.platform.models import AuthSession
from tests.browser import leads
from tests.browser.helpers import start_session, visit

SIGNED_IN_AT = datetime(2026, 1, 15, 20, 7, tzinfo=timezone.utc)  # 3:07 PM EST
UNLOCKED_AT = datetime(2026, 7, 4, 15, 5, tzinfo=timezone.utc)  # 11:05 AM EDT


@pytest.fixture
def eastern_page(browser, live_server):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900},
                                  timezone_id="America/New_York")
    context.set_default_timeout(15000)
    yield context.new_page()
    context.close()


def test_session_and_unlock_times_are_eastern(eastern_page, live_server, make_user):
    page, db = eastern_page, live_server.database_url
    user = make_user(credits=500)
    row = leads.make_lead(credit_cost=120, is_active=True)
    leads.store(live_server, row)
    leads.unlock(live_server, user, row, UNLOCKED_AT)
    start_session(page, db, user["id"])
    with session_scope(db) as session:
        for record in session.exec(select(AuthSession).where(AuthSession.user_id == uuid.UUID(user["id"]))):
            record.created_at = SIGNED_IN_AT
            session.add(record)

    visit(page, routes.property_url(str(row["id"])))
    expect(page.locator("#property-unlocked-at")).to_have_text("Jul 4, 2026, 11:05 AM EDT", timeout=30000)

    visit(page, "/dashboard")
    page.locator("#dashboard-tab-settings").click()
    expect(page.locator("#settings-sessions")).to_contain_text("Signed in Jan 15, 2026, 3:07 PM EST")
    assert page.evaluate("localStorage.getItem('lv_tz')") == "America/New_York"
