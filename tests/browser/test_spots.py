"""Scarce by design (issue 38, item 4) in the browser: a locked card says how many spots are left; a full
lead stays listed, says "Sold out" and has no unlock action; the "Spots left" filter hides it; "Unlock
exclusively for N credits" goes through the confirm step (spots, price, the cap) to "Exclusive" on the
buyer's card and property page, and "Sold out" for another investor. Screenshots at 1280 and 375 px."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import expect_toast, visit
from tests.browser.leads import make_lead, signed_in, store, unlock

ZIP = "05013"  # no other lead of the test database is in this ZIP


def _no_overflow(page: Page, element_id: str) -> None:
    """The element's content fits its box (nothing sticks out sideways at 375 px)."""
    widths = page.evaluate(
        "(id) => { const el = document.getElementById(id); const out = [el.scrollWidth, el.clientWidth];"
        " for (const child of el.querySelectorAll('*')) { const r = child.getBoundingClientRect();"
        " const box = el.getBoundingClientRect(); if (r.width && (r.right > box.right + 1 || r.left < box.left - 1))"
        " out.push(child.id || child.className || child.tagName); } return out; }", element_id)
    assert widths[0] <= widths[1] and widths[2:] == [], widths


def _shoot(page: Page, element_id: str, name: str) -> None:
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        element = page.locator(f"#{element_id}")
        element.scroll_into_view_if_needed()
        if width == 375:
            _no_overflow(page, element_id)
        element.screenshot(path=str(ARTIFACTS / f"spots-{name}-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})


def test_spots_sold_out_and_the_exclusive_flow(page: Page, browser, live_server, make_user):
    # Best ROI first (the default order): open, full, prize.
    open_lead = make_lead(zip_code=ZIP, roi=30.0, credit_cost=100, lead_type="Probate")
    full = make_lead(zip_code=ZIP, roi=20.0, credit_cost=100, lead_type="Probate")
    prize = make_lead(zip_code=ZIP, roi=10.0, credit_cost=100, lead_type="Probate")
    store(live_server, open_lead, full, prize)
    unlock(live_server, make_user(credits=100), open_lead)
    for _ in range(5):  # LEAD_MAX_HOLDERS defaults to 5
        unlock(live_server, make_user(credits=100), full)
    ids = {name: str(row["id"]) for name, row in (("open", open_lead), ("full", full), ("prize", prize))}
    buyer = make_user(credits=1_000)
    signed_in(page, live_server, buyer)
    visit(page, f"/marketplace?zip={ZIP}")

    # A locked card with spots left: the line, the unlock action and the exclusive offer beside it.
    expect(page.locator(f"#lead-spots-{ids['open']}")).to_have_text("4 of 5 spots left", timeout=30000)
    expect(page.locator(f"#lead-action-{ids['open']}")).to_have_text("Unlock for 100 credits")
    expect(page.locator(f"#lead-exclusive-{ids['open']}")).to_have_text("Unlock exclusively for 400 credits")
    expect(page.locator(f"#lead-held-{ids['open']}")).to_have_text("Unlocked by 1 investor")
    _shoot(page, f"lead-card-{ids['open']}", "card-open")

    # A full lead: listed, "Sold out", and no unlock action at all (plain text, no button, no offer).
    expect(page.locator(f"#lead-spots-{ids['full']}")).to_have_text("Sold out")
    sold_out = page.locator(f"#lead-action-{ids['full']}")
    expect(sold_out).to_have_text("Sold out")
    expect(sold_out).to_have_attribute("data-action", "sold_out")
    assert sold_out.evaluate("el => el.tagName") == "P"
    expect(page.locator(f"#lead-card-{ids['full']} button", has_text=re.compile("Unlock"))).to_have_count(0)
    expect(page.locator(f"#lead-exclusive-{ids['full']}")).to_have_count(0)
    expect(page.locator(f"#lead-held-{ids['full']}")).to_have_text("Unlocked by 5 investors")
    _shoot(page, f"lead-card-{ids['full']}", "card-sold-out")

    # "Spots left" hides it; its chip says so; the address bar keeps it.
    page.locator("#filter-group-spots").click()
    page.locator("#filter-spots-open").click()
    expect(page.locator("#result-count")).to_have_text("2 leads", timeout=20000)
    expect(page.locator(f"#lead-card-{ids['full']}")).to_have_count(0)
    expect(page.locator("#chip-spots-open")).to_contain_text("Spots left")
    page.keyboard.press("Escape")
    expect(page).to_have_url(re.compile(r"spots=open"))
    visit(page, f"/marketplace?zip={ZIP}")  # without it: the lead bought next stays on the page when it fills

    # Unlock exclusively: through the confirm step, which names the spots, the price and the cap.
    expect(page.locator(f"#lead-exclusive-{ids['prize']}")).to_have_text("Unlock exclusively for 500 credits")
    page.locator(f"#lead-exclusive-{ids['prize']}").click()
    dialog = page.locator("#unlock-confirm-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading")).to_have_text("Unlock this lead exclusively?")
    expect(page.locator("#unlock-confirm-cost")).to_have_text("500 credits")
    expect(page.locator("#unlock-confirm-before")).to_have_text("1,000 credits")
    expect(page.locator("#unlock-confirm-after")).to_have_text("500 credits")
    expect(page.locator("#unlock-confirm-spots")).to_have_text(
        "Takes all 5 spots left at 100 credits each; nobody else can unlock it after you.")
    expect(page.locator("#unlock-confirm-cap")).to_have_text("At most 5 investors can hold a lead.")
    expect(page.locator("#unlock-confirm-dont-ask")).to_have_count(0)  # it always asks
    expect(page.locator("#unlock-confirm-ok")).to_have_text("Unlock exclusively for 500 credits")
    _shoot(page, "unlock-confirm-dialog", "exclusive-dialog")
    page.locator("#unlock-confirm-ok").click()
    expect_toast(page, "Lead Unlocked!", "Lead unlocked for 500 credits. 500 credits remaining.")
    expect(page.locator(f"#lead-spots-{ids['prize']}")).to_have_text("Exclusive")
    expect(page.locator(f"#lead-action-{ids['prize']}")).to_have_text("View Details")
    expect(page.locator(f"#lead-exclusive-{ids['prize']}")).to_have_count(0)
    expect(page.locator("#available-credits")).to_have_text("500")
    _shoot(page, f"lead-card-{ids['prize']}", "card-exclusive")

    # The property page says it too.
    visit(page, f"/property/{ids['prize']}")
    expect(page.locator("#property-spots")).to_have_text("Exclusive", timeout=30000)
    expect(page.locator("#property-held")).to_have_text("Unlocked by 1 investor (you)")
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(ARTIFACTS / f"spots-property-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})

    # The pricing FAQ states the cap in one sentence.
    visit(page, "/pricing")
    faq = page.locator("#pricing-faq")
    expect(faq).to_contain_text("How many investors can hold the same lead?", timeout=30000)
    expect(faq).to_contain_text("At most 5 investors can hold a lead.")
    _shoot(page, "pricing-faq", "pricing-faq")

    # Another investor: the lead is sold out, with no unlock action (the filter hides it).
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    try:
        other = context.new_page()
        signed_in(other, live_server, make_user(credits=10_000))
        visit(other, f"/marketplace?zip={ZIP}")
        expect(other.locator(f"#lead-spots-{ids['prize']}")).to_have_text("Sold out", timeout=30000)
        expect(other.locator(f"#lead-action-{ids['prize']}")).to_have_text("Sold out")
        expect(other.locator(f"#lead-exclusive-{ids['prize']}")).to_have_count(0)
        expect(other.locator(f"#lead-exclusive-{ids['open']}")).to_have_text("Unlock exclusively for 400 credits")
    finally:
        context.close()
