"""What a paying user meets (issue 24 items 5, 9, 12), in Chromium against the live app.

- Pack bonuses: pricing, the purchase page, the TEST MODE checkout and the result
  show the same breakdown ('1,250 + 250 bonus (20%)'), and the referral
  first-purchase bonus separately ('+750').
- A purchase paid in a second tab updates the first tab's balance without a
  reload; neither the purchase page nor /pricing promises the referral bonus after.
- Every dashboard tab has an address (?tab=...), and Back/Forward move between tabs.
- Settings lists the purchase with a receipt (dialog and text download).

Screenshots of every screen touched, at 1280 and 375 px: test-artifacts/issue24-purchase/.
"""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect

from marketplace.platform.db import session_scope
from marketplace.platform.models import Profile
from marketplace.platform import ledger
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import at_rest, start_session, visit

SHOTS = ARTIFACTS / "issue24-purchase"
PRO_BREAKDOWN = "1,250 + 250 bonus (20%)"
ENTERPRISE_BREAKDOWN = "3,571 + 1,429 bonus (40%)"
PROMISE = "Referred buyers get 50% bonus credits on their first purchase."
PROMISE_USED = "The 50% referral bonus applies to a first purchase; this account has already made one."
TABS = ("unlocked", "scrapes", "referrals", "saved", "settings")


def shoot(page: Page, name: str, element: str | None = None) -> None:
    """Screenshots at 1280 and 375 px wide (the full page, or ``element`` only); the viewport is put back."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        at_rest(page)
        path = str(SHOTS / f"{name}-{width}.png")
        if element:
            page.locator(element).screenshot(path=path)
        else:
            page.screenshot(path=path, full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def referred_buyer(make_user, db: str) -> dict:
    referrer = make_user(first_name="Rita")
    buyer = make_user(first_name="Bea", credits=40)
    with session_scope(db) as session:
        profile = session.get(Profile, uuid.UUID(buyer["id"]))
        profile.referred_by = uuid.UUID(referrer["id"])
        session.add(profile)
    return buyer


def test_pro_purchase_breakdown_second_tab_balance_and_history(page: Page, live_server, make_user):
    db = live_server.database_url
    buyer = referred_buyer(make_user, db)
    start_session(page, db, buyer["id"])

    # Pricing: the breakdown on both bonus packs, and the first-purchase promise.
    visit(page, "/pricing")
    expect(page.locator("#pack-breakdown-pro")).to_have_text(PRO_BREAKDOWN)
    expect(page.locator("#pack-breakdown-enterprise")).to_have_text(ENTERPRISE_BREAKDOWN)
    expect(page.locator("#pack-breakdown-starter")).to_have_count(0)
    expect(page.locator("#pack-card-pro")).to_contain_text("20% bonus credits")
    expect(page.locator("#referral-promise")).to_have_text(PROMISE)
    shoot(page, "pricing")
    shoot(page, "pricing-packs", "#packs")

    # The purchase page: the same breakdown, the referral bonus on its own line.
    visit(page, "/purchase-credits?pack=pro")
    expect(page.locator("#pack-option-pro")).to_have_attribute("data-state", "checked")
    expect(page.locator("#pack-option-breakdown-pro")).to_have_text(PRO_BREAKDOWN)
    expect(page.locator("#summary-credits")).to_have_text("1,500")
    expect(page.locator("#summary-breakdown")).to_have_text(PRO_BREAKDOWN)
    expect(page.locator("#summary-bonus")).to_have_text("+750")
    expect(page.locator("#summary-total-credits")).to_have_text("2,250 credits")
    expect(page.locator("#purchase-balance")).to_have_text("40 credits")
    shoot(page, "purchase")

    # The checkout opens in a second tab: the same breakdown and the referral bonus.
    with page.context.expect_page() as opened:
        page.locator("#purchase-button").click()
    checkout = opened.value
    checkout.wait_for_url(re.compile(r"/demo-checkout/demo_cs_[\w-]+$"))
    expect(checkout.locator("#demo-checkout-credits")).to_have_text("1,500")
    expect(checkout.locator("#demo-checkout-breakdown")).to_have_text(PRO_BREAKDOWN)
    expect(checkout.locator("#demo-checkout-referral")).to_have_text("+750")
    shoot(checkout, "checkout")
    expect(page.locator("#checkout-opened")).to_be_visible()
    expect(page.locator("#lv-checkout-watch")).to_have_count(1)  # this tab watches the checkout it opened

    # Paid there: the result shows the same breakdown and the referral bonus apart.
    checkout.locator("#demo-checkout-pay").click()
    checkout.wait_for_url(re.compile(r"/credits-purchased\?session_id=demo_cs_[\w-]+$"))
    expect(checkout.locator("#purchase-credits-added")).to_have_text("2,250")
    expect(checkout.locator("#purchase-pack-credits")).to_have_text("1,500")
    expect(checkout.locator("#purchase-breakdown")).to_have_text(PRO_BREAKDOWN)
    expect(checkout.locator("#purchase-bonus")).to_have_text("+750")
    expect(checkout.locator("#purchase-new-balance")).to_have_text("2,290 credits")
    shoot(checkout, "result")

    # The first tab, never reloaded, follows: new balance, no referral bonus promised.
    page.evaluate("window.__lvNotReloaded = true")
    expect(page.locator("#purchase-balance")).to_have_text("2,290 credits")
    expect(page.locator("#summary-bonus")).to_have_count(0)
    expect(page.locator("#purchase-referral")).to_have_count(0)
    expect(page.locator("#summary-total-credits")).to_have_text("1,500 credits")
    expect(page.locator("#checkout-opened")).to_have_count(0)
    expect(page.locator("#lv-checkout-watch")).to_have_count(0)  # paid: the watch has stopped
    assert page.evaluate("window.__lvNotReloaded") is True
    visit(page, "/pricing")
    expect(page.locator("#referral-promise")).to_have_text(PROMISE_USED)
    shoot(page, "pricing-after-purchase", "#referral-box")

    # Settings, Purchases: the purchase, its split, and a receipt.
    visit(checkout, "/dashboard?tab=settings")
    expect(checkout.locator("#dashboard-tab-settings")).to_have_attribute("data-state", "active")
    table = checkout.locator("#dashboard-purchases-table")
    expect(table.locator("tbody tr")).to_have_count(1)
    row = table.locator("tbody tr").first
    for cell, text in zip(row.locator("td").all()[1:7], ("Pro", "$270.00", "1,500", "+250 (20%)", "+750", "Paid")):
        expect(cell).to_have_text(text)
    expect(row.locator("td").first).to_have_text(re.compile(r"^\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M \w+"))
    shoot(checkout, "dashboard-purchases", "#settings-purchases")
    row.get_by_role("button", name=re.compile("View receipt")).click()
    dialog = checkout.locator("#receipt-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#receipt-breakdown")).to_have_text(PRO_BREAKDOWN)
    expect(dialog.locator("#receipt-referral-bonus")).to_have_text("+750")
    expect(dialog.locator("#receipt-total")).to_have_text("2,250")
    expect(dialog.locator("#receipt-status")).to_have_text("Paid")
    expect(dialog.locator("#receipt-price")).to_have_text("$270.00")
    shoot(checkout, "receipt")
    with checkout.expect_download() as download:
        dialog.locator("#receipt-download").click()
    text = open(download.value.path(), encoding="utf-8").read()
    assert download.value.suggested_filename.startswith("leadvault-receipt-LV-")
    assert f"Pack credits:   1,500 ({PRO_BREAKDOWN})" in text
    assert "Referral bonus: +750" in text and "Total credits:  2,250" in text and "Status:         Paid" in text


def test_every_dashboard_tab_has_an_address_and_back_works(page: Page, live_server, make_user):
    user = make_user(first_name="Tab")
    start_session(page, live_server.database_url, user["id"])
    for tab in TABS:
        visit(page, f"/dashboard?tab={tab}")
        expect(page.locator(f"#dashboard-tab-{tab}")).to_have_attribute("data-state", "active")
    visit(page, "/dashboard?tab=settings")
    expect(page.locator("#dashboard-purchases-empty")).to_be_visible()
    shoot(page, "dashboard-purchases-empty")
    visit(page, "/dashboard?tab=nonsense")
    expect(page.locator("#dashboard-tab-unlocked")).to_have_attribute("data-state", "active")

    # Clicking a tab puts it in the address; Back and Forward move between tabs.
    visit(page, "/dashboard")
    expect(page.locator("#dashboard-tab-unlocked")).to_have_attribute("data-state", "active")
    page.locator("#dashboard-tab-scrapes").click()
    page.wait_for_url("**/dashboard?tab=scrapes")
    page.locator("#dashboard-tab-settings").click()
    page.wait_for_url("**/dashboard?tab=settings")
    expect(page.locator("#dashboard-tab-settings")).to_have_attribute("data-state", "active")
    page.go_back()
    page.wait_for_url("**/dashboard?tab=scrapes")
    expect(page.locator("#dashboard-tab-scrapes")).to_have_attribute("data-state", "active")
    page.go_back()
    page.wait_for_url(re.compile(r"/dashboard$"))
    expect(page.locator("#dashboard-tab-unlocked")).to_have_attribute("data-state", "active")
    page.go_forward()
    page.wait_for_url("**/dashboard?tab=scrapes")
    expect(page.locator("#dashboard-tab-scrapes")).to_have_attribute("data-state", "active")


def test_a_tab_coming_back_into_view_shows_credits_added_elsewhere(page: Page, live_server, make_user):
    """No checkout watched here: credits booked elsewhere (another device, the Stripe
    webhook) show when the window regains focus, without a reload."""
    db = live_server.database_url
    user = make_user(credits=40)
    start_session(page, db, user["id"])
    visit(page, "/marketplace")
    expect(page.locator("#available-credits")).to_have_text("40")
    expect(page.locator("#lv-checkout-watch")).to_have_count(0)  # nothing polls without a pending checkout
    with session_scope(db) as session:
        ledger.apply_credits(session, uuid.UUID(user["id"]), 500, "purchase", f"elsewhere-{uuid.uuid4().hex[:8]}")
    page.evaluate("window.__lvNotReloaded = true")
    # The window regains focus (again, until the page's own throttle of one check per 3 s lets it through).
    page.wait_for_function("""() => { window.dispatchEvent(new Event('focus'));
        return document.getElementById('available-credits').textContent.trim() === '540'; }""", polling=500)
    expect(page.locator("#available-credits")).to_have_text("540")
    assert page.evaluate("window.__lvNotReloaded") is True
