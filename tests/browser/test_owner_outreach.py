"""The dashboard's bulk owner search with the built-in demo provider: select two unlocked leads (one the demo
provider finds, one it misses), the confirm step shows the most it can cost and the balance, the search
charges exactly hits x price (2 credits) in one ledger row, the statuses follow, and the owner export opens
in the HubSpot layout with its header row and DNC column. Screenshots at 1280 and 375 px."""

from __future__ import annotations

import csv
import io
import uuid

import sqlalchemy as sa
from playwright.sync_api import Page, expect

from marketplace.platform.db import get_engine
from marketplace.platform.models import CreditLedger
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import visit
from tests.browser.leads import make_lead, signed_in, store, unlock

# The demo provider's answers for these addresses (Austin, TX 78701): three phones (the last on the Do Not
# Call list) and an e-mail; and nothing.
HIT = "100 Contact Ln"
MISS = "103 Contact Ln"


def _charges(live_server, user_id: str) -> list[tuple[int, str]]:
    ledger = CreditLedger.__table__
    with get_engine(live_server.database_url).connect() as conn:
        return [(r.delta, r.reason) for r in conn.execute(sa.select(ledger.c.delta, ledger.c.reason).where(
            ledger.c.user_id == uuid.UUID(user_id), ledger.c.reason.like("skip_trace%")))]


def test_bulk_owner_search_of_two_selected_leads(page: Page, live_server, make_user):
    hit = make_lead(address=HIT, city="Austin", state="TX", zip_code="78701", credit_cost=120)
    miss = make_lead(address=MISS, city="Austin", state="TX", zip_code="78701", credit_cost=60)
    other = make_lead(credit_cost=30)
    store(live_server, hit, miss, other)
    user = make_user(credits=1000)
    for row in (hit, miss, other):
        unlock(live_server, user, row)  # 790 left
    signed_in(page, live_server, user)
    page.set_viewport_size({"width": 1280, "height": 900})
    visit(page, "/dashboard")

    section = page.locator("#owner-outreach")
    expect(section).to_be_visible(timeout=30000)
    expect(page.locator("#stat-credits")).to_have_text("790")
    find = page.locator("#owner-outreach-find")
    expect(find).to_have_text("Find owners for 0 selected")
    expect(find).to_be_disabled()
    page.get_by_role("checkbox", name=f"Select {HIT}").click()
    page.get_by_role("checkbox", name=f"Select {MISS}").click()
    expect(page.get_by_role("checkbox", name=f"Select {HIT}")).to_be_checked()
    expect(find).to_have_text("Find owners for 2 selected")
    find.click()
    expect(page.locator("#owner-outreach-confirm-text")).to_have_text(
        "Searches 2 of 2 selected leads. At most 4 credits: 2 credits per owner found, charged once for all hits; "
        "leads with no contact found are free.")
    expect(page.locator("#owner-outreach-confirm-balance")).to_have_text(
        "Balance: 790 credits, after the most it can cost: 786 credits")
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        section.screenshot(path=str(ARTIFACTS / f"issue31-owner-outreach-confirm-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    expect(page.locator("#owner-outreach-go")).to_have_text("Search 2 leads (at most 4 credits)")
    page.locator("#owner-outreach-go").click()

    expect(page.locator("#owner-outreach-summary")).to_have_text(
        "Last search: 1 of 2 owners found, 2 credits charged.", timeout=30000)
    expect(page.locator("#stat-credits")).to_have_text("788")  # exactly 1 hit x 2 credits
    assert _charges(live_server, user["id"]) == [(-2, "skip_trace_bulk")]
    rows = page.locator("#owner-outreach-list .owner-outreach-row")
    expect(rows.filter(has_text=HIT).locator(".owner-outreach-status")).to_have_text("Owner found")
    expect(rows.filter(has_text=MISS).locator(".owner-outreach-status")).to_contain_text(
        "No contact found · You may search again from ")
    expect(rows.filter(has_text=other["address"]).locator(".owner-outreach-status")).to_have_text("Not searched")
    expect(find).to_have_text("Find owners for 0 selected")
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        section.screenshot(path=str(ARTIFACTS / f"issue31-owner-outreach-done-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})

    # A second search of the same two (a hand-sent twin, or a second tab) is refused before any charge.
    page.get_by_role("checkbox", name=f"Select {HIT}").click()
    page.get_by_role("checkbox", name=f"Select {MISS}").click()
    find.click()
    expect(page.get_by_text("Every selected lead has been searched already")).to_be_visible()
    assert _charges(live_server, user["id"]) == [(-2, "skip_trace_bulk")]

    with page.expect_download() as info:
        page.locator("#owner-export-hubspot").click()
    assert info.value.suggested_filename.startswith("leadvault-owners-hubspot-")
    table = list(csv.reader(io.StringIO(open(info.value.path(), encoding="utf-8-sig").read())))
    assert table[0][:9] == ["First Name", "Last Name", "Email", "Phone Number", "Mobile Phone Number",
                            "Street Address", "City", "State/Region", "Postal Code"]
    assert len(table) == 2  # the one owner found; the miss and the unsearched lead have no row
    row = dict(zip(table[0], table[1]))
    assert row["Property Address"] == HIT and row["Contact Source"] == "Demo data (fictional)"
    assert row["DNC Phones"] == "(305) 555-0107"  # the demo's Do Not Call number, flagged
