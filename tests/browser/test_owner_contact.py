"""The property page's Owner contact card (issue 25 item 3) with the built-in demo provider: the confirm
step shows the balance after a hit, the search charges 2 credits (the default price) exactly once, a reload shows the stored
result without a second charge, a Do Not Call number carries its badge, Mark wrong survives a reload, and
a miss says it was free, when it may be searched again, and carries no demo note."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from playwright.sync_api import Page, expect

from marketplace.platform.db import get_engine
from marketplace.platform.models import CreditLedger
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import record_labels, recorded_labels, reload, visit
from tests.browser.leads import make_lead, signed_in, store, unlock

# What the demo provider answers for these addresses (Austin, TX 78701): three phones, the last on the
# Do Not Call list, and an e-mail; and nothing.
HIT = "100 Contact Ln"
MISS = "103 Contact Ln"
FIND = "Find owner phone and e-mail (2 credits, charged only if a contact is found)"


def _charges(live_server, user_id: str) -> list[int]:
    ledger = CreditLedger.__table__
    with get_engine(live_server.database_url).connect() as conn:
        return [r.delta for r in conn.execute(sa.select(ledger.c.delta).where(
            ledger.c.user_id == uuid.UUID(user_id), ledger.c.reason == "skip_trace"))]


def test_find_owner_phone_charges_once_and_keeps_the_result(page: Page, live_server, make_user):
    lead = make_lead(address=HIT, city="Austin", state="TX", zip_code="78701", credit_cost=120)
    store(live_server, lead)
    user = make_user(credits=1000)
    unlock(live_server, user, lead)  # 880 left
    signed_in(page, live_server, user)
    visit(page, f"/property/{lead['id']}")
    card = page.locator("#owner-contact")
    expect(page.locator("#owner-contact-find")).to_have_text(FIND, timeout=20000)
    expect(page.locator("#owner-contact-credits")).to_have_text("Your balance: 880 credits")
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        card.screenshot(path=str(ARTIFACTS / f"issue25-owner-contact-button-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})

    record_labels(page, "owner-contact-credits")
    page.locator("#owner-contact-find").click()
    expect(page.locator("#owner-contact-balance")).to_have_text("Balance: 880 credits, after a hit: 878 credits")
    page.locator("#owner-contact-cancel").click()
    expect(page.locator("#owner-contact-find")).to_be_visible()
    page.locator("#owner-contact-find").click()
    page.locator("#owner-contact-go").click()
    phones = page.locator("#owner-contact-phones .owner-contact-phone")
    expect(phones).to_have_count(3)
    expect(page.locator("#owner-contact-credits")).to_have_text("Your balance: 878 credits")
    balances = [label for i, label in enumerate(recorded_labels(page)) if i == 0 or label != recorded_labels(page)[i - 1]]
    assert balances == ["Your balance: 880 credits", "Your balance: 878 credits"]  # one drop of 2
    assert _charges(live_server, user["id"]) == [-2]
    expect(phones.nth(0)).to_contain_text("(212) 555-0188")
    expect(phones.nth(0)).to_contain_text("Mobile")
    expect(phones.nth(0).locator(".owner-contact-dnc")).to_have_count(0)
    # Every number shows its Do Not Call status, as the exports do (Yes / No / Unknown).
    for i in range(3):
        expect(phones.nth(i).locator(".owner-contact-dnc, .owner-contact-dnc-clear, .owner-contact-dnc-unknown")
               ).to_have_count(1)
    dnc = phones.nth(2).locator(".owner-contact-dnc")
    expect(dnc).to_have_text("Do not call")
    expect(phones.nth(2)).to_contain_text("National Do Not Call Registry")
    expect(page.locator("#owner-contact-emails")).to_have_text("owner11.121@example.com")
    expect(page.locator("#owner-contact-demo")).to_contain_text("Demo data")
    expect(page.locator("#owner-contact-source")).to_contain_text("Built-in demo provider, ")
    expect(page.locator("#owner-contact-source")).to_contain_text("2 credits charged")

    wrong = phones.nth(1).locator(".owner-contact-wrong")
    expect(wrong).to_have_text("Mark wrong")
    wrong.click()
    expect(phones.nth(1).locator(".owner-contact-wrong-badge")).to_have_text("Wrong number")
    expect(wrong).to_have_text("Not wrong")
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        card.screenshot(path=str(ARTIFACTS / f"issue25-owner-contact-found-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})

    reload(page)
    expect(phones).to_have_count(3, timeout=20000)
    expect(phones.nth(1).locator(".owner-contact-wrong-badge")).to_have_text("Wrong number")
    expect(phones.nth(2).locator(".owner-contact-dnc")).to_have_text("Do not call")
    expect(page.locator("#owner-contact-find")).to_have_count(0)
    expect(page.locator("#owner-contact-credits")).to_have_text("Your balance: 878 credits")
    assert _charges(live_server, user["id"]) == [-2]


def test_a_miss_is_free_and_says_so(page: Page, live_server, make_user):
    lead = make_lead(address=MISS, city="Austin", state="TX", zip_code="78701", credit_cost=60)
    store(live_server, lead)
    user = make_user(credits=500)
    unlock(live_server, user, lead)
    signed_in(page, live_server, user)
    visit(page, f"/property/{lead['id']}")
    page.locator("#owner-contact-find").click(timeout=20000)
    page.locator("#owner-contact-go").click()
    expect(page.locator("#owner-contact-miss")).to_have_text("No contact found. You were not charged.")
    # no "fictional numbers" demo note over a result that has no numbers; when it may be searched again
    expect(page.locator("#owner-contact-demo")).to_have_count(0)
    expect(page.locator("#owner-contact-retry-on")).to_contain_text("You may search again from ")
    expect(page.locator("#owner-contact-credits")).to_have_text("Your balance: 440 credits")
    assert _charges(live_server, user["id"]) == []
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        page.locator("#owner-contact").screenshot(path=str(ARTIFACTS / f"issue25-owner-contact-miss-{width}.png"))
