"""The explorer's leads table and CSV export, as a super admin and as a plain user."""

from __future__ import annotations

import csv
import io
import json
import re
import time
import uuid
from datetime import timedelta

from playwright.sync_api import Page, expect
from sqlmodel import select

from marketplace.features.explorer import api_export as explorer_export
from marketplace.platform.config import reload_settings
from marketplace.features.explorer import rules
from marketplace.features.records.rules_address_display import display_city, display_street
from marketplace.platform.db import session_scope
from marketplace.platform.texts import DEMO_DATA_LINE, NO_PROVENANCE
from marketplace.platform.models import Lead, utcnow
from marketplace.platform import downloads
from marketplace.features.marketplace.service import rebuild_facets_now
from marketplace.features.explorer.state_leads import ExplorerLeadsState
from tests.browser.helpers import expect_toast, sign_in, visit


def _add_leads(database_url: str, city: str, count: int = 30, archived: int = 3) -> list[Lead]:
    """``count`` leads in a city of their own: ROI 1..count, the first ``archived`` archived, newest last."""
    base = utcnow() - timedelta(hours=2)
    rows = [
        Lead(address=f"{n + 1} Explorer Way", city=city, state="TX", zip_code=f"7{n:04d}", lead_type="Auction",
             source="test", roi=float(n + 1), asking_price=100_000 + n * 1000, confidence_score=90, credit_cost=150,
             is_active=n >= archived, created_at=base + timedelta(minutes=n), images_fetch_status="success",
             raw_data={"generated": True} if n % 2 else {})
        for n in range(count)
    ]
    with session_scope(database_url) as s:
        s.add_all(rows)
    return rows


def _open_explorer(page: Page, make_user) -> dict:
    admin = make_user(admin=True)
    sign_in(page, admin["email"], admin["password"])
    visit(page, "/explorerdev")
    expect(page.locator("#leads-section")).to_be_visible()
    expect(page.locator("#leads-range")).to_contain_text("Showing 1-")
    return admin


def _search(page: Page, text: str) -> None:
    page.locator("#leads-search").fill(text)
    page.locator("#leads-search-submit").click()


def _pick(page: Page, select_id: str, label: str) -> None:
    page.locator(f"#{select_id}").click()
    page.get_by_role("option", name=label, exact=True).click()


def test_super_admin_pages_searches_sorts_and_exports(page: Page, live_server, make_user):
    city = f"Qa{uuid.uuid4().hex[:8]}"
    rows = _add_leads(live_server.database_url, city)
    newest = sorted(rows, key=lambda r: r.created_at, reverse=True)
    _open_explorer(page, make_user)
    expect(page.locator("#leads-caption")).to_contain_text("delivered privately to a user's bulk scrape are not listed")

    # The table opens newest first: the newest marketplace lead in the database heads it
    # (other tests of the session may have added leads after ours).
    with session_scope(live_server.database_url) as session:
        top = session.exec(select(Lead).where(Lead.scrape_id.is_(None))
                           .order_by(Lead.created_at.desc(), Lead.id.desc()).limit(1)).one()
    expect(page.locator("#leads-table tbody tr").first).to_contain_text(display_street(top.address))
    _search(page, f"{city.lower()}, tx")
    expect(page.locator("#leads-range")).to_have_text("Showing 1-25 of 30 leads")
    expect(page.locator("#leads-counts")).to_have_text("27 active, 3 archived")
    expect(page.locator("#leads-table tbody tr")).to_have_count(25)
    first = page.locator(f"#lead-row-{newest[0].id}")
    for text in (newest[0].address, city, "TX", newest[0].zip_code, "Auction", "$129,000", "30.0%", "90", "150",
                 "success", "Active"):
        expect(first).to_contain_text(text)
    expect(page.locator(f"#lead-row-{newest[-1].id}")).to_have_count(0)

    page.locator("#leads-next").click()
    expect(page.locator("#leads-range")).to_have_text("Showing 26-30 of 30 leads")
    expect(page.locator("#leads-table tbody tr")).to_have_count(5)
    expect(page.locator(f"#lead-row-{newest[-1].id}")).to_contain_text("Archived")

    _pick(page, "leads-sort", "Lowest price")
    expect(page.locator("#leads-range")).to_have_text("Showing 1-25 of 30 leads")
    expect(page.locator("#leads-table tbody tr").first).to_contain_text("$100,000")
    _pick(page, "leads-status", "Archived")
    expect(page.locator("#leads-range")).to_have_text("Showing 1-3 of 3 leads")
    expect(page.locator("#leads-table tbody tr")).to_have_count(3)
    _pick(page, "leads-status", "Active")
    expect(page.locator("#leads-range")).to_have_text("Showing 1-25 of 27 leads")
    _pick(page, "leads-page-size", "50")
    expect(page.locator("#leads-range")).to_have_text("Showing 1-27 of 27 leads")

    # The export is the current view (search, Active, lowest price first), every page of it.
    with page.expect_download() as info:
        page.locator("#leads-export").click()
    download = info.value
    assert download.suggested_filename == f"leads-export-{utcnow():%Y-%m-%d}.csv"
    table = list(csv.reader(io.StringIO(open(download.path(), encoding="utf-8-sig").read())))
    # SPEC's 22 columns, then each row's Provenance
    assert table[0] == list(rules.CSV_COLUMNS) and len(table[0]) == 23 and table[0][-1] == "Provenance"
    expected = sorted((r for r in rows if r.is_active), key=lambda r: r.asking_price)
    assert [line[0] for line in table[1:]] == [str(r.id) for r in expected]
    assert {len(line) for line in table} == {23}
    # Each row's provenance: the odd ones are generated demo leads, the others say nothing of a source.
    assert [line[-1] for line in table[1:]] == [DEMO_DATA_LINE if r.raw_data else NO_PROVENANCE for r in expected]
    assert table[1][2:10] == ["Active", display_street(expected[0].address), display_city(city), "TX", expected[0].zip_code, "Auction", "test",
                              "103000"]

    # An empty view: an empty state, and no download.
    _search(page, f"Nowhere{uuid.uuid4().hex[:6]}")
    expect(page.locator("#leads-empty")).to_be_visible()
    expect(page.locator("#leads-range")).to_have_text("No leads")
    page.locator("#leads-export").click()
    expect_toast(page, "No Data", "No leads to export")
    page.locator("#leads-search-clear").click()
    expect(page.locator("#leads-search")).to_have_value("")
    expect(page.locator("#leads-range")).to_contain_text("Showing 1-")


def test_export_link_needs_a_super_admins_token(page: Page, live_server, make_user, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "browser-test-secret")  # sign as the live server does
    reload_settings()
    city = f"Qb{uuid.uuid4().hex[:8]}"
    _add_leads(live_server.database_url, city, count=3, archived=0)
    admin, plain = make_user(admin=True), make_user()
    view = rules.LeadView.of(city)
    ok = page.request.get(explorer_export.export_url(uuid.UUID(admin["id"]), view))
    assert ok.status == 200 and ok.text().count("Explorer Way") == 3
    params = view.params()
    for token in ("forged.1.abc",
                  explorer_export.export_token(uuid.UUID(plain["id"]), view),
                  downloads.make_token(explorer_export.PURPOSE, uuid.UUID(admin["id"]), params, now=time.time() - 600),
                  explorer_export.export_token(uuid.UUID(admin["id"]), rules.LeadView.of("TX"))):
        res = page.request.get(f"/api/explorer/leads.csv?{params}&token={token}")
        assert res.status in (403, 404)
        assert "Explorer Way" not in res.text()


def test_plain_user_gets_no_rows_from_the_leads_events(page: Page, live_server, make_user):
    """A plain user sends the table's events by hand (a marketplace click rewritten on the
    websocket): every handler re-checks rights on the server, so no row and no link come back."""
    city = f"Qc{uuid.uuid4().hex[:8]}"
    _add_leads(live_server.database_url, city, count=2, archived=2)  # not on the marketplace
    plain = make_user()
    base = ExplorerLeadsState.get_full_name()
    forged = iter([
        (f"{base}.load_leads", {}),
        (f"{base}.search_leads", {"form": {"q": city}}),
        (f"{base}.export_leads", {}),
    ])
    sent: list[str] = []
    received: list[str] = []

    def route(ws) -> None:
        server = ws.connect_to_server()

        def outgoing(message):
            if isinstance(message, str) and ".go_to_page" in message:
                name, payload = next(forged, (None, None))
                if name:
                    message = re.sub(r'"name":"[^"]*go_to_page"', f'"name":"{name}"', message, count=1)
                    message = re.sub(r'"payload":\{[^}]*\}', '"payload":' + json.dumps(payload), message, count=1)
                    sent.append(message)
            server.send(message)

        def incoming(message):
            received.append(str(message))
            ws.send(message)

        ws.on_message(outgoing)
        server.on_message(incoming)

    page.route_web_socket(re.compile(r".*/_event.*"), route)
    sign_in(page, plain["email"], plain["password"])
    _add_leads(live_server.database_url, f"Qd{uuid.uuid4().hex[:8]}", count=45, archived=0)  # a second page
    rebuild_facets_now(live_server.database_url)  # the marketplace counts its pages from the facets
    for _ in range(3):
        visit(page, "/marketplace")
        page.locator("[aria-label='Next page']").first.click()
        expect_toast(page, "Access Denied: You don't have super admin privileges")
        expect(page).to_have_url(re.compile(r"/$"))
    assert len(sent) == 3 and "export_leads" in sent[-1]
    assert not any("Explorer Way" in m or "/api/explorer/leads.csv" in m or city in m for m in received)
