"""Explorer lead operations: a super admin refreshes leads and fetches images."""

from __future__ import annotations

from playwright.sync_api import Page, expect
from sqlmodel import func, select

from marketplace.features.marketplace.rules_criteria import SearchCriteria
from marketplace.platform.db import session_scope
from marketplace.platform.models import Lead, LeadRefreshRun
from marketplace.features.scrape import service_seeding as seeding
from marketplace.features.scrape.source_builtin import BuiltinSource
from tests.browser.helpers import sign_in, visit


def _lead_count(url: str) -> int:
    with session_scope(url) as s:
        return s.exec(select(func.count()).select_from(Lead)).one()


def test_super_admin_refreshes_leads_and_fetches_images(page: Page, live_server, make_user):
    admin = make_user(admin=True)
    pending = BuiltinSource(seed=77).search(SearchCriteria(count=3))
    for row in pending:
        row.update(image_urls=[], primary_image_url=None, images_fetch_status="pending")
    seeding.insert_leads(pending, live_server.database_url)
    before = _lead_count(live_server.database_url)
    with session_scope(live_server.database_url) as s:  # other tests' runs in the shared database
        earlier_runs = set(s.exec(select(LeadRefreshRun.id)).all())

    sign_in(page, admin["email"], admin["password"])
    visit(page, "/explorerdev")
    expect(page.locator("#explorer-heading")).to_be_visible()

    page.locator("#explorer-run-refresh").click()
    expect(page.get_by_text("Leads Refreshed")).to_be_visible(timeout=30000)
    expect(page.get_by_text("40 leads added, 0 archived.")).to_be_visible()
    expect(page.locator("#explorer-refresh-runs")).to_contain_text("manual")
    expect(page.locator("#explorer-refresh-runs")).to_contain_text("completed")
    assert _lead_count(live_server.database_url) == before + 40
    with session_scope(live_server.database_url) as s:
        runs = s.exec(select(LeadRefreshRun.id, LeadRefreshRun.trigger)).all()
        assert [trigger for run_id, trigger in runs if run_id not in earlier_runs] == ["manual"]

    page.locator("#explorer-fetch-images").click()
    expect(page.get_by_text("Images Checked")).to_be_visible(timeout=30000)
    with session_scope(live_server.database_url) as s:
        statuses = s.exec(select(Lead.images_fetch_status).where(Lead.id.in_([r["id"] for r in pending]))).all()
    assert len(statuses) == 3
    assert all(status in {"no_images", "success"} for status in statuses), statuses
