"""/explorerdev as a super admin: the manual scrape (defaults, refusals, new leads
in the results and on /marketplace, no charge), the scheduler line, and the
super admin's own -sp webhook key and request log."""

from __future__ import annotations

import uuid

import httpx
from playwright.sync_api import Page, expect
from sqlmodel import func, select

from marketplace.platform.db import session_scope
from marketplace.platform.models import BulkScrape, CreditLedger, Lead, WebhookRequest
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import (
    at_rest,
    expect_toast,
    record_labels,
    recorded_labels,
    reload,
    sign_in,
    visit,
    wait_until,
)


def _counts(url: str, admin_id: str) -> tuple[int, int, int]:
    with session_scope(url) as s:
        return (
            s.exec(select(func.count()).select_from(Lead)).one(),
            s.exec(select(func.count()).select_from(BulkScrape).where(BulkScrape.user_id == uuid.UUID(admin_id))).one(),
            s.exec(select(func.count()).select_from(CreditLedger)
                   .where(CreditLedger.user_id == uuid.UUID(admin_id))).one(),
        )


def _open_explorer(page: Page, make_user, credits: int = 0) -> dict:
    admin = make_user(admin=True, credits=credits)
    sign_in(page, admin["email"], admin["password"])
    visit(page, "/explorerdev")
    expect(page.locator("#explorer-heading")).to_be_visible()
    return admin


def test_manual_scrape_adds_new_leads_to_the_marketplace(page: Page, live_server, make_user):
    db = live_server.database_url
    admin = _open_explorer(page, make_user, credits=40)
    # The test server runs with LEAD_REFRESH_SCHEDULER=off.
    expect(page.locator("#explorer-next-run")).to_have_text("Scheduler off")
    expect(page.locator("#explorer-next-run-in")).to_have_count(0)

    # SPEC 9's defaults.
    for field, value in (("leadCount", "25"), ("minPrice", "150000"), ("maxPrice", "550000"), ("minSqft", "1000"),
                         ("maxSqft", "3000"), ("minBeds", "2"), ("maxBeds", "6"), ("minConfidence", "70"),
                         ("maxConfidence", "100"), ("roiThreshold", "15")):
        expect(page.locator(f"#dev-{field}")).to_have_value(value)
    for code in ("AZ", "TX", "FL", "GA", "CO", "NV"):
        expect(page.locator(f"#dev-state-{code}")).to_have_attribute("aria-pressed", "true")
    for code in ("CA", "NY", "IL", "OH", "PA", "MI"):
        expect(page.locator(f"#dev-state-{code}")).to_have_attribute("aria-pressed", "false")
    for slug in ("Probate", "Pre-Foreclosure", "Auction", "Make-Me-Move"):
        expect(page.locator(f"#dev-type-{slug}")).to_have_attribute("aria-pressed", "true")
    for slug in ("Tax-Delinquent", "Vacancy"):
        expect(page.locator(f"#dev-type-{slug}")).to_have_attribute("aria-pressed", "false")

    # Refused input changes nothing.
    before = _counts(db, admin["id"])
    page.locator("#dev-minBeds").fill("5")
    page.locator("#dev-maxBeds").fill("3")
    page.locator("#dev-leadCount").fill("101")
    page.locator("#dev-scrape-run").click()
    expect(page.locator("#dev-scrape-problems")).to_contain_text("Minimum beds (5) is above maximum beds (3).")
    expect(page.locator("#dev-scrape-problems")).to_contain_text("Lead count must be between 1 and 100.")
    expect_toast(page, "Check the scrape parameters",
                 "Lead count must be between 1 and 100. Minimum beds (5) is above maximum beds (3).")
    assert _counts(db, admin["id"]) == before
    # Reset to defaults; a state can be switched off and on again.
    page.locator("#dev-scrape-reset").click()
    expect(page.locator("#dev-minBeds")).to_have_value("2")
    expect(page.locator("#dev-leadCount")).to_have_value("25")
    expect(page.locator("#dev-scrape-problems")).to_have_count(0)
    page.locator("#dev-state-AZ").click()
    expect(page.locator("#dev-state-AZ")).to_have_attribute("aria-pressed", "false")
    page.locator("#dev-state-AZ").click()
    expect(page.locator("#dev-state-AZ")).to_have_attribute("aria-pressed", "true")

    # Run with the defaults: 'Scraping...' while it runs, then the new leads.
    record_labels(page, "dev-scrape-run")
    page.locator("#dev-scrape-run").click()
    expect_toast(page, "Scrape Completed!", "Added 25 leads to the marketplace.")
    assert "Scraping..." in recorded_labels(page)
    expect(page.locator("#dev-scrape-run")).to_have_text("Run Scrape")
    expect(page.locator("#dev-scrape-run")).to_be_enabled()
    expect(page.locator("#dev-scrape-results tbody tr")).to_have_count(25)
    expect(page.locator("#dev-scrape-result-label")).to_have_text("25 new leads added")

    leads, scrape_rows, ledger_rows = _counts(db, admin["id"])
    assert (leads, scrape_rows, ledger_rows) == (before[0] + 25, before[1] + 1, before[2])  # nothing charged
    with session_scope(db) as s:
        scrape = s.exec(select(BulkScrape).where(BulkScrape.user_id == uuid.UUID(admin["id"]))).one()
        assert (scrape.origin, scrape.credits_used, scrape.leads_generated) == ("explorer", 0, 25)
        ids = [row["id"] for row in scrape.output]
        new = s.exec(select(Lead).where(Lead.id.in_([uuid.UUID(i) for i in ids]))).all()
        assert len(new) == 25 and all(lead.is_active and lead.is_new for lead in new)
    first = scrape.output[0]
    expect(page.locator("#dev-scrape-results")).to_contain_text(first["address"])
    # The overview counts moved too.
    with session_scope(db) as s:
        total = s.exec(select(func.count()).select_from(Lead).where(Lead.scrape_id.is_(None))).one()
    expect(page.locator("#explorer-leads")).to_have_text(f"{total:,}")
    # ... and the leads table, read again: its total and, newest first, the scrape's leads on top.
    expect(page.locator("#leads-range")).to_contain_text(f"of {total:,} leads")
    newest = {row["address"] for row in scrape.output}
    top = page.locator("#leads-table tbody tr").first
    expect(top).to_be_visible()
    assert any(address in top.inner_text() for address in newest)
    # The admin's balance is untouched.
    with session_scope(db) as s:
        from marketplace.platform import ledger

        assert ledger.balance(s, uuid.UUID(admin["id"])) == 40

    # On the marketplace, newest first: the new leads, flagged New.
    visit(page, "/marketplace?sort=newest&per_page=50")
    card = page.locator(f"#lead-card-{first['id']}")
    expect(card).to_be_visible()
    expect(card).to_contain_text("New")
    expect(page.locator(f"#lead-city-{first['id']}")).to_contain_text(first["city"])
    for lead_id in ids[1:5]:
        expect(page.locator(f"#lead-card-{lead_id}")).to_be_visible()

    # Screenshots of the explorer's sections (looked at by the author).
    visit(page, "/explorerdev")
    expect(page.locator("#dev-scrape")).to_be_visible()
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        at_rest(page)
        page.locator("#dev-scrape").screenshot(path=str(ARTIFACTS / f"explorer-scrape-{width}.png"))
        page.locator("#explorer-webhook").screenshot(path=str(ARTIFACTS / f"explorer-webhook-{width}.png"))
        page.locator("#explorer-lead-ops").screenshot(path=str(ARTIFACTS / f"explorer-ops-{width}.png"))


def test_manual_scrape_failure_says_why(page: Page, live_server, make_user):
    admin = _open_explorer(page, make_user)
    before = _counts(live_server.database_url, admin["id"])
    page.locator("#dev-minPrice").fill("0")
    page.locator("#dev-maxPrice").fill("5000")
    page.locator("#dev-scrape-run").click()
    expect_toast(page, "Scrape Failed", "No leads are priced below $10,000.")
    expect(page.locator("#dev-scrape-error")).to_have_text("No leads are priced below $10,000.")
    expect(page.locator("#dev-scrape-run")).to_have_text("Run Scrape")
    assert _counts(live_server.database_url, admin["id"]) == before


def test_super_admin_webhook_key_and_sp_request_log(page: Page, live_server, make_user):
    admin = _open_explorer(page, make_user)
    sp_path = f"/functions/v1/webhook-bulk-scrape-sp/{admin['id']}"
    expect(page.locator("#webhook-log-empty")).to_be_visible()
    expect(page.locator("#webhook-endpoint")).to_have_text(f"{live_server.url}{sp_path}")
    expect(page.locator("#webhook-generate")).to_have_text("Generate")
    page.locator("#webhook-generate").click()
    expect_toast(page, "New webhook auth key generated")
    key = page.locator("#webhook-key-new").inner_text().strip()
    assert key.startswith("lvwh_")
    expect(page.locator("#webhook-generate")).to_have_text("Regenerate")
    expect(page.locator("#webhook-example")).to_contain_text(key)
    expect(page.locator("#webhook-example")).to_contain_text(sp_path)
    page.locator("#webhook-copy-key").click()
    expect_toast(page, "Copied")

    sp = httpx.post(f"{live_server.url}{sp_path}", json={"leadCount": 2, "location": "Dallas, TX"},
                    headers={"x-webhook-auth": key}, timeout=60)
    assert sp.status_code == 200 and sp.json()["credits_used"] == 0
    # The charged endpoint is not the super admin's log (402: no credits).
    plain = httpx.post(f"{live_server.url}/functions/v1/webhook-bulk-scrape/{admin['id']}",
                       json={"leadCount": 2, "location": "Dallas, TX"}, headers={"x-webhook-auth": key}, timeout=60)
    assert plain.status_code == 402

    def logged() -> int:
        with session_scope(live_server.database_url) as s:
            return s.exec(select(func.count()).select_from(WebhookRequest)
                          .where(WebhookRequest.user_id == uuid.UUID(admin["id"]))).one()

    wait_until(lambda: logged() == 2, message="both requests logged")
    page.locator("#webhook-log-refresh").click()
    expect(page.locator("#webhook-log tbody tr")).to_have_count(1)
    expect(page.locator("#webhook-log")).to_contain_text("200")
    expect(page.locator("#webhook-log")).to_contain_text(sp_path)

    # After a reload the key is shown masked, never in full.
    reload(page)
    expect(page.locator("#webhook-key")).to_contain_text(key[-4:])
    expect(page.locator("#webhook-key-new")).to_have_count(0)
    expect(page.locator("#webhook-generate")).to_have_text("Regenerate")
    expect(page.locator("#webhook-log tbody tr")).to_have_count(1)
