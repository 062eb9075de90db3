"""The county-record guarantee in Chromium (issue 38, item 5): a public-record lead's unlock confirm step states
the guarantee; the lead unlocked, then closed by a full re-import of its open list without it, reads Closed in
the dashboard's Unlocked Leads tab with the county's reason and the credits back, on a desktop (the table) and
on a phone (the cards); the bell says the same. Screenshots at 1280 and 375 px go to test-artifacts/."""

from __future__ import annotations

import uuid
from datetime import timedelta

import sqlalchemy as sa
from playwright.sync_api import Page, expect

from marketplace.features.records.rules import MappedRecord
from marketplace.platform.times import format_date
from marketplace.platform.db import get_engine, read_scope
from marketplace.platform.models import Lead, utcnow
from marketplace.features.records import service as public_records
from marketplace.features.unlock import service as unlocks
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import expect_toast, start_session, visit
from tests.features.unlock.test_refunds import TITLES, VACANT, vacant


def _record_lead(database_url: str) -> tuple[MappedRecord, MappedRecord, Lead]:
    """A Baltimore vacancy lead read three days ago from its open list (and a neighbour on the same list)."""
    tag = uuid.uuid4().hex[:6].upper()
    mine = vacant(f"B-{tag}", address=f"{int(tag, 16) % 900 + 100} MAIN ST", parcel=f"B-{tag}")
    other = vacant(f"B-{tag}-2", address=f"{int(tag, 16) % 900 + 100} ELM ST", parcel=f"B-{tag}-2")
    start = utcnow() - timedelta(days=3)
    public_records.ingest(VACANT, [mine, other], mode="file", retrieved_at=start, today=start.date(), titles=TITLES,
                          database_url=database_url)
    with read_scope(database_url) as session:
        lead = session.exec(sa.select(Lead).where(Lead.address == mine.address)).scalars().one()
    return mine, other, lead


def _close(database_url: str, mine: MappedRecord, other: MappedRecord) -> str:
    """The open list read again today without ``mine``; the reason the county gives."""
    # a list of two: one leaving is more than a full read may drop unasked (--allow-drop: the list did shrink)
    public_records.ingest(VACANT, [other], mode="file", titles=TITLES, database_url=database_url, allow_drop=True)
    return (f"the vacancy notice at {mine.address.title()} left Baltimore City's open list on "
            f"{format_date(utcnow().date(), 'UTC')}")


def _refunded_unlock(database_url: str, make_user) -> tuple[dict, str, int]:
    """A user whose unlock the county contradicted: (user, the reason, the credits back)."""
    mine, other, lead = _record_lead(database_url)
    user = make_user(credits=1000)
    unlocks.unlock_lead(uuid.UUID(user["id"]), lead.id, database_url=database_url)
    return user, _close(database_url, mine, other), lead.credit_cost


def test_an_unlock_confirmed_with_the_guarantee_comes_back_closed_with_its_reason(page: Page, live_server, make_user):
    db = live_server.database_url
    mine, other, lead = _record_lead(db)
    with get_engine(db).begin() as conn:  # dear enough to ask first (the default threshold is 120 credits)
        conn.execute(sa.update(Lead.__table__).where(Lead.__table__.c.id == lead.id).values(credit_cost=150))
    user = make_user(credits=1000)
    start_session(page, db, user["id"])
    visit(page, f"/marketplace?zip={mine.zip_code}")
    action = page.locator(f"#lead-action-{lead.id}")
    expect(action).to_have_text("Unlock for 150 credits", timeout=30000)
    action.click()
    guarantee = page.locator("#unlock-confirm-guarantee")
    expect(guarantee).to_have_text("If the county's next record contradicts a lead within 30 days of your unlock, "
                                   "its credits come back automatically.")
    page.screenshot(path=str(ARTIFACTS / "refund-unlock-confirm-1280.png"))
    page.set_viewport_size({"width": 375, "height": 800})
    expect(guarantee).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "refund-unlock-confirm-375.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.locator("#unlock-confirm-ok").click()
    expect_toast(page, "Lead Unlocked!", "Lead unlocked for 150 credits. 850 credits remaining.")

    reason = _close(db, mine, other)
    visit(page, "/dashboard")
    expect(page.locator("#dashboard-credits")).to_have_text("1,000 credits")  # 850 + the 150 back
    table = page.locator("#dashboard-unlocked-table")
    expect(table.locator(".dashboard-closed-badge")).to_have_text("Closed")
    expect(table.locator(".dashboard-closed-reason")).to_have_text(f"Closed: {reason} · 150 credits back")
    expect(table.get_by_text("Archived")).to_have_count(0)
    expect(page.locator("#dashboard-unlocked-list")).to_be_hidden()
    page.screenshot(path=str(ARTIFACTS / "refund-dashboard-1280.png"), full_page=True)

    # The bell tells the same, and its notification opens this tab.
    bell = page.locator("#notifications-button")
    expect(bell).to_have_attribute("aria-label", "Notifications, 1 unread")
    bell.click()
    item = page.locator("#notifications-list li a")
    expect(item).to_have_count(1)
    expect(item).to_contain_text(f"150 credits back: {reason}")
    expect(item).to_have_attribute("href", "/dashboard?tab=unlocked")
    page.keyboard.press("Escape")

    page.set_viewport_size({"width": 375, "height": 800})
    cards = page.locator("#dashboard-unlocked-list")
    expect(cards.locator(".dashboard-closed-badge")).to_have_text("Closed")
    expect(cards.locator(".dashboard-closed-reason")).to_have_text(f"Closed: {reason} · 150 credits back")
    expect(page.locator("#dashboard-unlocked-table")).to_be_hidden()
    page.screenshot(path=str(ARTIFACTS / "refund-dashboard-375.png"), full_page=True)


def test_the_closed_row_passes_axe(browser, live_server, make_user, request):
    """axe-core (as tests/browser/test_accessibility.py runs it) over the tab with a refunded row, both widths."""
    from tests.browser.conftest import open_page
    from tests.browser.test_accessibility import AXE_JS, AXE_TAGS, RUN_AXE

    user, _reason, _credits = _refunded_unlock(live_server.database_url, make_user)
    pages = open_page(browser, live_server, request, bypass_csp=True, reduced_motion="reduce")
    page = next(pages)
    start_session(page, live_server.database_url, user["id"])
    visit(page, "/dashboard")
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        expect(page.locator(".dashboard-closed-reason").locator("visible=true")).to_have_count(1)
        page.add_script_tag(path=str(AXE_JS))
        assert page.evaluate(RUN_AXE, AXE_TAGS) == [], width
    next(pages, None)
