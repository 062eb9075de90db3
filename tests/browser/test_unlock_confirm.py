"""The confirmation before an expensive unlock (issue 14): a 150-credit lead asks
first (one dialog for the page), Cancel spends nothing, Confirm unlocks, "Don't
ask again" makes the next one a single click and shows in Settings; a 60-credit
lead never asks at the default threshold (120)."""

from __future__ import annotations

import uuid

from playwright.sync_api import Page, expect

from marketplace.platform.db import session_scope
from marketplace.platform.models import Profile
from tests.browser import leads
from tests.browser.helpers import expect_toast, start_session, visit


def balance(db: str, user_id: str) -> int:
    with session_scope(db) as session:
        return session.get(Profile, uuid.UUID(user_id)).credits_remaining


def test_expensive_unlocks_ask_first_until_told_not_to(page: Page, live_server, make_user):
    db = live_server.database_url
    # At the top of the default order (ROI), so every card is on the first page.
    first, second, third = (leads.make_lead(credit_cost=150, confidence_score=95, roi=99.98 - i / 100,
                                            is_high_roi=True, is_active=True, lead_type="Probate")
                            for i in range(3))
    cheap = leads.make_lead(credit_cost=60, confidence_score=65, roi=99.9, is_high_roi=True, is_active=True)
    leads.store(live_server, first, second, third, cheap)
    user = make_user(credits=600)
    start_session(page, db, user["id"])
    visit(page, "/marketplace")
    dialog = page.locator("#unlock-confirm-dialog")
    credits = page.locator("#available-credits")

    def action(row: dict):
        return page.locator(f"#lead-action-{row['id']}")

    # 60 credits: below the default threshold, one click.
    expect(action(cheap)).to_have_text("Unlock for 60 credits", timeout=30000)
    action(cheap).click()
    expect_toast(page, "Lead Unlocked!", "Lead unlocked for 60 credits. 540 credits remaining.")
    expect(dialog).to_have_count(0)

    # 150 credits: the dialog, about this lead; Cancel spends nothing.
    expect(action(first)).to_have_text("Unlock for 150 credits")
    action(first).click()
    expect(dialog).to_be_visible()
    expect(page.locator("[role=alertdialog]")).to_have_count(1)
    place = f"{first['city']}, {first['state']} {first['zip_code']}"
    expect(page.locator("#unlock-confirm-lead")).to_have_text(f"Probate lead in {place}")
    expect(page.locator("#unlock-confirm-cost")).to_have_text("150 credits")
    expect(page.locator("#unlock-confirm-before")).to_have_text("540 credits")
    expect(page.locator("#unlock-confirm-after")).to_have_text("390 credits")
    expect(page.locator("#unlock-confirm-ok")).to_have_text("Unlock for 150 credits")
    # A generated lead has no county record to contradict it: no guarantee promised (tests/browser/test_refunds.py
    # has a public-record lead's).
    expect(page.locator("#unlock-confirm-guarantee")).to_have_count(0)
    page.screenshot(path="/tmp/lv/times/dialog-test.png")
    page.locator("#unlock-confirm-cancel").click()
    expect(dialog).to_have_count(0)
    expect(action(first)).to_have_text("Unlock for 150 credits")
    expect(credits).to_have_text("540")
    assert balance(db, user["id"]) == 540

    # Confirm: the ordinary unlock.
    action(first).click()
    page.locator("#unlock-confirm-ok").click()
    expect_toast(page, "Lead Unlocked!", "Lead unlocked for 150 credits. 390 credits remaining.")
    expect(action(first)).to_have_text("View Details")
    assert balance(db, user["id"]) == 390

    # "Don't ask again", then the next 150-credit unlock is one click.
    action(second).click()
    page.locator("#unlock-confirm-dont-ask").click()
    page.locator("#unlock-confirm-ok").click()
    expect_toast(page, "Lead Unlocked!", "Lead unlocked for 150 credits. 240 credits remaining.")
    expect(action(second)).to_have_text("View Details")
    action(third).click()
    expect_toast(page, "Lead Unlocked!", "Lead unlocked for 150 credits. 90 credits remaining.")
    expect(action(third)).to_have_text("View Details")
    expect(dialog).to_have_count(0)
    assert balance(db, user["id"]) == 90

    # Settings shows the switch off; switching it back on asks again from 120.
    visit(page, "/dashboard")
    page.locator("#dashboard-tab-settings").click()
    switch = page.locator("#settings-unlock-confirm")
    expect(switch).to_have_attribute("aria-checked", "false")
    expect(page.locator("#settings-unlock-summary")).to_have_text("Every unlock happens in one click.")
    switch.click()
    expect_toast(page, "Settings Saved", "Your unlock confirmation setting was updated.")
    expect(switch).to_have_attribute("aria-checked", "true")
    expect(page.locator("#settings-unlock-summary")).to_have_text("Unlocks of 120 credits or more ask first.")
    page.locator("#settings-unlock-confirmation").screenshot(path="/tmp/lv/times/settings-test.png")
