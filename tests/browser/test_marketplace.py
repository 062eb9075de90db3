"""/marketplace in Chromium: cards and their actions, unlocking, filters, sorts,
pagination, the URL state, the header block and the empty / sample / failure
states, checked against the live app's database.

The module works on a catalog of its own: the ``catalog`` fixture switches the
leads other tests left active off, inserts ``CATALOG_SIZE`` known leads (from
the built-in source, with a few edited for the edge cases), and at the end
deletes them (and the unlocks made of them) and switches the others back on.
Expected pages are computed here in Python from the catalog rows, with the
same ordering rules as the SQL (ties broken by id).
"""

from __future__ import annotations

import json
import math
import re
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

import pytest
import sqlalchemy as sa
from playwright.sync_api import Page, expect
from sqlmodel import func, select

from marketplace.features.marketplace import rules
from marketplace.platform import routes
from marketplace.platform.paging import pagination_window
from marketplace.features.marketplace import rules_sale_dates as sale_dates
from marketplace.features.marketplace.rules_criteria import SearchCriteria
from marketplace.platform.web.image_hosts import card_picture
from marketplace.features.unlock.rules_holders import HELD_SORT
from marketplace.platform.leads import is_generated
from marketplace.platform.pricing import is_high_roi
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.texts import ILLUSTRATION_NOTE, IMAGE_STATUS_TEXT
from marketplace.platform.models import CreditLedger, Lead, Profile, Subscription, UserLead, utcnow
from marketplace.platform import sessions as auth_sessions
from marketplace.features.scrape import service_seeding as seeding
from marketplace.platform import subscriptions
from marketplace.features.marketplace.service import rebuild_facets_now
from marketplace.features.unlock.service import unlock_lead
from marketplace.features.scrape.source_builtin import BuiltinSource
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import (
    click_settled,
    expect_toast,
    record_labels,
    recorded_labels,
    reload,
    scriptless_page,
    start_session,
    visit,
    wait_loaded,
)

CATALOG_SIZE = 235  # 12 pages of 20: enough for ellipses on both sides
GROUP_KEYS = {"lead_types": "type", "roi_ranges": "roi", "sizes": "size", "tags": "tag"}
POPOVER = {"lead_types": "#filter-group-type", "roi_ranges": "#filter-group-roi", "sizes": "#filter-group-size",
           "tags": "#filter-group-tag"}
SORT_LABELS = dict(rules.SORTS)


# --------------------------------------------------------------------------- data


@dataclass
class Catalog:
    rows: list[dict]
    url: str

    @property
    def by_id(self) -> dict[str, dict]:
        return {str(r["id"]): r for r in self.rows}

    def matching(self, filters: rules.Filters) -> list[dict]:
        return [r for r in self.rows if _matches(r, filters)]

    def expected(self, filters: rules.Filters) -> tuple[list[str], int]:
        """(ids of the page, filtered total), ordered like the SQL."""
        if filters.sort == HELD_SORT:  # how many hold each lead now (earlier tests unlock some)
            leads = Lead.__table__
            with get_engine(self.url).connect() as conn:
                counts = dict(conn.execute(sa.select(leads.c.id, leads.c.unlock_count).where(
                    leads.c.id.in_([r["id"] for r in self.rows]))).all())
            for row in self.rows:
                row["unlock_count"] = counts.get(row["id"], 0)
        rows = sorted(self.matching(filters), key=_SORT_KEYS[filters.sort])
        start = (filters.page - 1) * filters.page_size
        return [str(r["id"]) for r in rows[start:start + filters.page_size]], len(rows)


def _hex(row) -> str:
    return row["id"].hex  # SQLite stores UUIDs as 32 hex digits: ORDER BY id sorts these


def _desc(value) -> tuple:
    return (value is None, -(value or 0))


def _asc(value) -> tuple:
    return (value is None, value or 0)


_SORT_KEYS = {
    "roi_desc": lambda r: (*_desc(r["roi"]), _hex(r)),
    "newest": lambda r: (-r["created_at"].timestamp(), [-ord(c) for c in _hex(r)]),
    "price_asc": lambda r: (*_asc(r["asking_price"]), _hex(r)),
    "zestimate_desc": lambda r: (*_desc(r["zestimate"]), _hex(r)),
    "sqft_asc": lambda r: (*_asc(r["square_footage"]), _hex(r)),
    "motivation_desc": lambda r: (*_desc(r.get("motivation_score")), _hex(r)),
    HELD_SORT: lambda r: (r.get("unlock_count", 0), *_desc(r["roi"]), _hex(r)),
}


def _matches(row: dict, f: rules.Filters) -> bool:
    if f.lead_types and row["lead_type"] not in f.lead_types:
        return False
    if f.roi_ranges and rules.roi_band(row["roi"]) not in f.roi_ranges:
        return False
    if f.sizes and rules.size_band(row["square_footage"]) not in f.sizes:
        return False
    if f.tags:
        tag_hits = {
            "new": row["is_new"],
            "high_roi": row["is_high_roi"],
            "vacant": row["lead_type"] == "Vacancy",
            "auction_soon": sale_dates.is_auction_soon(row.get("sale_date"), sale_dates.local_today(utcnow())),
            "unlocked": False,  # signed out in these comparisons
            "two_signals": (row.get("signal_count") or 0) >= 2,
            "absentee": bool(row.get("absentee_owner")),
            "out_of_state": bool(row.get("out_of_state_owner")),
            "bank_owned": row.get("bank_owned") is True,
        }
        if not any(tag_hits[t] for t in f.tags):
            return False
    return True


def _set_active(url: str, ids: list, active: bool) -> None:
    leads = Lead.__table__
    with get_engine(url).begin() as conn:
        for start in range(0, len(ids), 500):
            conn.execute(sa.update(leads).where(leads.c.id.in_(ids[start:start + 500])).values(is_active=active))
    rebuild_facets_now(url)


PHOTO_HOST = "https://photos.zillowstatic.com"
# A picture the browser can load for any photo URL (the tests reach no outside host).
PHOTO_BODY = ("<svg xmlns='http://www.w3.org/2000/svg' width='400' height='240'>"
              "<rect width='400' height='240' fill='#8aa'/></svg>")


@pytest.fixture(scope="module")
def catalog(live_server):
    url = live_server.database_url
    rows = BuiltinSource(seed=8101).search(SearchCriteria(count=CATALOG_SIZE))
    now = utcnow()
    for i, row in enumerate(rows):
        row["created_at"] = now - timedelta(minutes=3 * i + (i * 7) % 5)
        row["is_new"] = i % 3 != 0
        row["external_id"] = f"mkt-test:{row['id']}"
    # Edge cases at the top of the default (ROI) order.
    rows[0].update(roi=99.9, is_high_roi=True, credit_cost=30, confidence_score=95,
                   image_urls=["/api/images/house/mkt-broken/99.svg"],  # a picture that fails (404)
                   primary_image_url="/api/images/house/mkt-broken/99.svg", images_fetch_status="success")
    rows[1].update(roi=99.5, is_high_roi=True, credit_cost=None, confidence_score=None, asking_price=None,
                   image_urls=[], primary_image_url=None, images_fetch_status="no_images")
    six = [f"{PHOTO_HOST}/fp/mkt-six-{rows[2]['id']}-{n}.jpg" for n in range(6)]  # a listing's photos
    rows[2].update(roi=99.0, is_high_roi=True, credit_cost=120, image_urls=six, primary_image_url=six[0],
                   images_fetch_status="success", raw_data={"parcel_id": "0123-456-7890"})
    rows[3].update(roi=98.0)  # a generated (demo) lead: one illustration, labelled
    # Unknown ROI band: none and zero.
    for i in (40, 41, 42):
        rows[i].update(roi=None if i != 42 else 0.0, is_high_roi=False)
    for row in rows[3:]:
        row["is_high_roi"] = is_high_roi(row["roi"])
    with session_scope(url) as session:
        previously_active = session.exec(select(Lead.id).where(Lead.is_active == sa.true())).all()
    _set_active(url, list(previously_active), False)
    seeding.insert_leads(rows, url)
    try:
        yield Catalog(rows=rows, url=url)
    finally:
        ids = [r["id"] for r in rows]
        with get_engine(url).begin() as conn:
            conn.execute(sa.delete(UserLead.__table__).where(UserLead.__table__.c.lead_id.in_(ids)))
            conn.execute(sa.delete(Lead.__table__).where(Lead.__table__.c.id.in_(ids)))
        _set_active(url, list(previously_active), True)


# --------------------------------------------------------------------------- page helpers


def grid_ids(page: Page, count: int | None = None) -> list[str]:
    """The grid's cards in order; with ``count``, once it shows that many (a page's cards appear a row at a time,
    ``features/marketplace/page.py``'s FIRST_CARDS and STEP_CARDS)."""
    if count is not None:
        expect(page.locator("#lead-grid [id^='lead-card-']")).to_have_count(count)
    return page.locator("#lead-grid [id^='lead-card-']").evaluate_all(
        "els => els.map(e => e.id.slice('lead-card-'.length))"
    )


def count_text(total: int) -> str:
    return f"{total:,} lead{'' if total == 1 else 's'}"


def wait_for_grid(page: Page, filters: rules.Filters) -> None:
    grid = page.locator("#lead-grid")
    expect(grid).to_have_attribute("data-query", filters.to_query())
    expect(grid).to_have_attribute("data-loading", "false")


def expect_page(page: Page, catalog: Catalog, filters: rules.Filters) -> list[str]:
    """The grid shows exactly the expected page and count for ``filters``."""
    wait_for_grid(page, filters)
    ids, total = catalog.expected(filters)
    expect(page.locator("#result-count")).to_have_text(count_text(total))
    assert grid_ids(page, len(ids)) == ids
    return ids


def open_marketplace(page: Page, query: str = "") -> None:
    visit(page, f"/marketplace{'?' + query if query else ''}")
    expect(page.locator("#lead-grid, #empty-results").first).to_be_visible(timeout=30000)


def collect_frames(page: Page) -> list[str]:
    frames: list[str] = []

    def on_socket(ws):
        ws.on("framereceived", lambda payload: frames.append(
            payload if isinstance(payload, str) else payload.decode("utf-8", "replace")))

    page.on("websocket", on_socket)
    return frames


def action(page: Page, lead_id: str):
    return page.locator(f"#lead-action-{lead_id}")


def balance(url: str, user_id: str) -> int:
    with session_scope(url) as s:
        return s.get(Profile, uuid.UUID(user_id)).credits_remaining


def ledger_sum(url: str, user_id: str) -> int:
    with session_scope(url) as s:
        return s.exec(select(func.coalesce(func.sum(CreditLedger.delta), 0))
                      .where(CreditLedger.user_id == uuid.UUID(user_id))).one()


def unlock_rows(url: str, user_id: str) -> list[UserLead]:
    with session_scope(url) as s:
        rows = s.exec(select(UserLead).where(UserLead.user_id == uuid.UUID(user_id))).all()
        for r in rows:
            s.expunge(r)
        return rows


def control(page: Page, group: str, value: str, prefix: str = "filter"):
    return page.locator(f"#{prefix}-{GROUP_KEYS[group]}-{value.replace(' ', '-')}")


def toggle(page: Page, group: str, value: str) -> None:
    checkbox = control(page, group, value)
    if not checkbox.is_visible():
        page.locator(POPOVER[group]).click()
    checkbox.click()


def close_popovers(page: Page) -> None:
    page.keyboard.press("Escape")
    expect(page.locator(".lv-pop:popover-open")).to_have_count(0)


def choose(page: Page, select: str, option: str) -> None:
    """Choose ``option`` (its label) in a native select, as a user's pick from its list does."""
    page.locator(select).select_option(label=option)


# --------------------------------------------------------------------------- visitors


def test_visitor_sees_masked_cards_with_login(page: Page, catalog: Catalog):
    frames = collect_frames(page)
    open_marketplace(page)
    filters = rules.Filters()
    ids = expect_page(page, catalog, filters)
    assert len(ids) == 20

    countdown = page.locator("#refresh-countdown")
    expect(countdown).to_have_text(re.compile(r"^Next refresh in: \d+h \d+m$"))
    # The next 8:00 AM Pacific, as the server computed it moments ago.
    hours, minutes = map(int, re.findall(r"\d+", countdown.text_content()))
    expected = rules.next_refresh(datetime.now(timezone.utc)) - datetime.now(timezone.utc)
    assert abs((hours * 60 + minutes) - expected.total_seconds() / 60) <= 2
    expect(page.locator("#marketplace-disclaimer")).to_contain_text("public records")
    expect(page.locator("#marketplace-disclaimer")).to_contain_text("investment advice")
    expect(page.locator("#available-credits")).to_have_count(0)
    expect(page.locator("#low-credit-banner")).to_have_count(0)

    for lead_id in ids:
        row = catalog.by_id[lead_id]
        expect(page.locator(f"#lead-address-{lead_id}")).to_have_text(rules.mask_address(row["address"]))
        expect(page.locator(f"#lead-city-{lead_id}")).to_have_text(f"{row['city']}, {row['state']} {row['zip_code']}")
        expect(action(page, lead_id)).to_have_text("Login")
        expect(action(page, lead_id)).to_have_attribute("href", "/auth")

    # Card contents of a fully known lead.
    top = catalog.rows[0]
    top_id = str(top["id"])
    card = page.locator(f"#lead-card-{top_id}")
    expect(card.get_by_text("New", exact=True)).to_have_count(1 if top["is_new"] else 0)
    expect(card.get_by_text("High ROI", exact=True)).to_be_visible()
    expect(card.get_by_text("30 credits", exact=True)).to_be_visible()
    expect(page.locator(f"#lead-type-{top_id}")).to_have_text(top["lead_type"])
    expect(page.locator(f"#lead-roi-{top_id}")).to_have_text("99.9%")
    expect(page.locator(f"#lead-asking-{top_id}")).to_have_text(rules.usd(top["asking_price"]))
    expect(page.locator(f"#lead-market-{top_id}")).to_have_text(rules.usd(top["zestimate"]))
    expect(page.locator(f"#lead-arv-{top_id}")).to_have_text(rules.usd(top["arv"]))
    expect(page.locator(f"#lead-rehab-{top_id}")).to_have_text(rules.usd(top["rehab_estimate"]))
    expect(page.locator(f"#lead-confidence-{top_id}")).to_have_text("95/100")
    expect(card.get_by_role("progressbar", name="Confidence 95 out of 100")).to_have_attribute("value", "95")
    # Missing values: N/A, default cost 85 and confidence 85.
    bare_id = str(catalog.rows[1]["id"])
    expect(page.locator(f"#lead-asking-{bare_id}")).to_have_text("N/A")
    expect(page.locator(f"#lead-card-{bare_id}").get_by_text("85 credits", exact=True)).to_be_visible()
    expect(page.locator(f"#lead-confidence-{bare_id}")).to_have_text("85/100")

    # The full address of no locked lead ever reached the browser.
    html = page.content()
    payload = "\n".join(frames)
    assert frames, "no websocket frames were recorded"
    for lead_id in ids:
        address = catalog.by_id[lead_id]["address"]
        assert address not in html
        assert address not in payload


def test_visitor_unlock_attempt_is_refused_by_the_server(page: Page, catalog: Catalog, live_server, make_user):
    """A session that dies while the page is open: the server answers the click."""
    user = make_user(credits=500)
    pair = start_session(page, live_server.database_url, user["id"])
    open_marketplace(page, "page=2")
    expect_page(page, catalog, rules.Filters(page=2))
    # Events run in order: once this page change is shown, the shell's session
    # check that fires after the first load has run too (with the live session).
    page.get_by_label("Page 1", exact=True).click()
    expect_page(page, catalog, rules.Filters())
    lead_id = str(catalog.rows[2]["id"])
    expect(action(page, lead_id)).to_have_text("Unlock for 120 credits")
    with session_scope(live_server.database_url) as s:
        auth_sessions.revoke_session(s, pair.access_token, pair.refresh_token)

    action(page, lead_id).click()
    expect_toast(page, "Authentication Required", "Please log in to unlock leads.")
    expect(action(page, lead_id)).to_have_text("Login")
    expect(page.locator("#available-credits")).to_have_count(0)
    assert unlock_rows(live_server.database_url, user["id"]) == []
    assert balance(live_server.database_url, user["id"]) == 500


# --------------------------------------------------------------------------- unlocking


def test_unlock_walks_every_card_state(page: Page, catalog: Catalog, live_server, make_user):
    url = live_server.database_url
    user = make_user(credits=180)
    start_session(page, url, user["id"])
    frames = collect_frames(page)
    open_marketplace(page)
    expect_page(page, catalog, rules.Filters())

    cheap, default_cost, target = (str(catalog.rows[i]["id"]) for i in range(3))
    target_address = catalog.rows[2]["address"]
    expect(page.locator("#available-credits")).to_have_text("180")
    expect(page.locator("#buy-more-credits")).to_have_attribute("href", "/purchase-credits")
    expect(page.locator("#low-credit-banner")).to_have_count(0)
    expect(action(page, cheap)).to_have_text("Unlock for 30 credits")
    expect(action(page, default_cost)).to_have_text("Unlock for 85 credits")
    expect(action(page, target)).to_have_text("Unlock for 120 credits")
    expect(page.locator(f"#lead-address-{target}")).to_have_text(rules.mask_address(target_address))
    assert target_address not in "\n".join(frames)

    record_labels(page, f"lead-action-{target}")
    action(page, target).click()
    # 120 credits reach the default confirmation threshold: the dialog asks first.
    page.locator("#unlock-confirm-ok").click()
    expect_toast(page, "Lead Unlocked!", "Lead unlocked for 120 credits. 60 credits remaining.")
    assert "Unlocking..." in recorded_labels(page)

    # The card opens up, credits drop everywhere, other cards recompute.
    expect(page.locator(f"#lead-address-{target}")).to_have_text(target_address)
    expect(action(page, target)).to_have_text("View Details")
    expect(action(page, target)).to_have_attribute("href", f"/property/{target}")
    expect(page.locator(f"#lead-card-{target}")).to_have_attribute("data-unlocked", "true")
    expect(page.locator("#available-credits")).to_have_text("60")
    expect(action(page, default_cost)).to_have_text("Insufficient Credits - Buy More")
    expect(action(page, default_cost)).to_have_attribute("href", "/purchase-credits")
    expect(action(page, cheap)).to_have_text("Unlock for 30 credits")
    for lead_id in grid_ids(page, rules.DEFAULT_PAGE_SIZE):
        cost = catalog.by_id[lead_id]["credit_cost"] or 85
        if lead_id != target and cost > 60:
            expect(action(page, lead_id)).to_have_text("Insufficient Credits - Buy More")

    # The database: one unlock row, the balance, and the ledger adds up.
    rows = unlock_rows(url, user["id"])
    assert [(str(r.lead_id), r.credit_cost, r.purchase_type) for r in rows] == [(target, 120, "credits")]
    assert balance(url, user["id"]) == 60 == ledger_sum(url, user["id"])

    # The full address arrived only with the unlock; other locked leads never.
    payload = "\n".join(frames)
    assert target_address in payload
    for lead_id in grid_ids(page, rules.DEFAULT_PAGE_SIZE):
        if lead_id != target:
            assert catalog.by_id[lead_id]["address"] not in payload

    # The "Unlocked" tag now finds exactly this lead.
    toggle(page, "tags", "unlocked")
    wait_for_grid(page, rules.Filters(tags=("unlocked",)))
    expect(page.locator("#result-count")).to_have_text("1 lead")
    assert grid_ids(page) == [target]
    close_popovers(page)
    page.locator("#clear-filters").click()
    wait_for_grid(page, rules.Filters())

    # A refusal from the server: the lead was unlocked meanwhile (another tab).
    unlock_lead(uuid.UUID(user["id"]), cheap, database_url=url)
    expect(action(page, cheap)).to_have_text("Unlock for 30 credits")  # this page does not know yet
    action(page, cheap).click()
    expect_toast(page, "Error", "You have already unlocked this lead.")
    expect(action(page, cheap)).to_have_text("View Details")
    expect(page.locator("#available-credits")).to_have_text("30")
    assert balance(url, user["id"]) == 30 == ledger_sum(url, user["id"])
    assert len(unlock_rows(url, user["id"])) == 2


def test_subscriber_unlocks_with_a_subscription_lead(page: Page, catalog: Catalog, live_server, make_user):
    """Subscription leads are spent before credits (the unlock service decides); the card says so."""
    url = live_server.database_url
    user = make_user(credits=10)
    with session_scope(url) as s:
        subscriptions.grant(s, uuid.UUID(user["id"]), "pro", leads=2, days=30)
    start_session(page, url, user["id"])
    open_marketplace(page)
    target = str(catalog.rows[2]["id"])
    expect(action(page, target)).to_have_text("Unlock with Subscription")
    action(page, target).click()
    expect_toast(page, "Lead Unlocked!", "Lead unlocked with your subscription. 1 subscription lead remaining.")
    expect(action(page, target)).to_have_text("View Details")
    expect(page.locator(f"#lead-address-{target}")).to_have_text(catalog.rows[2]["address"])
    expect(page.locator("#available-credits")).to_have_text("10")
    rows = unlock_rows(url, user["id"])
    assert [(str(r.lead_id), r.credit_cost, r.purchase_type) for r in rows] == [(target, 0, "subscription")]
    assert balance(url, user["id"]) == 10 == ledger_sum(url, user["id"])
    with session_scope(url) as s:
        assert s.get(Subscription, uuid.UUID(user["id"])).leads_remaining == 1


@pytest.mark.parametrize("credits, banner", [(29, True), (30, False)])
def test_low_credit_banner_and_insufficient_cards(page: Page, catalog: Catalog, live_server, make_user,
                                                  credits, banner):
    user = make_user(credits=credits)
    start_session(page, live_server.database_url, user["id"])
    open_marketplace(page)
    expect(page.locator("#available-credits")).to_have_text(str(credits))
    cheap = str(catalog.rows[0]["id"])
    if banner:
        expect(page.locator("#low-credit-banner")).to_be_visible()
        expect(page.locator("#low-credit-banner")).to_contain_text("running low on credits")
        expect(page.locator("#low-credit-buy")).to_have_attribute("href", "/purchase-credits")
        expect(action(page, cheap)).to_have_text("Insufficient Credits - Buy More")
    else:
        expect(action(page, cheap)).to_have_text("Unlock for 30 credits")
        expect(page.locator("#low-credit-banner")).to_have_count(0)
    for lead_id in grid_ids(page, rules.DEFAULT_PAGE_SIZE):
        cost = catalog.by_id[lead_id]["credit_cost"] or 85
        expected = f"Unlock for {cost} credits" if cost <= credits else "Insufficient Credits - Buy More"
        expect(action(page, lead_id)).to_have_text(expected)


# --------------------------------------------------------------------------- pagination


def pagination_labels(page: Page) -> list[str]:
    return page.locator("#pagination-pages > *").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label') || e.textContent.trim())"
    )


def window_labels(current: int, pages: int) -> list[str]:
    return [f"Page {n}" if n else "…" for n in pagination_window(current, pages)]


CARD_BATCHES = """window.__cardBatches = [];
new MutationObserver((records) => {
  let added = 0;
  for (const record of records) for (const node of record.addedNodes) {
    if (node.nodeType !== 1) continue;
    added += (node.id && node.id.startsWith("lead-card-") ? 1 : 0) + node.querySelectorAll("[id^='lead-card-']").length;
  }
  if (added) window.__cardBatches.push(added);
}).observe(document, {childList: true, subtree: true});"""


def test_a_page_of_cards_appears_a_row_at_a_time(page: Page, catalog: Catalog):
    """Issue 41: the first page's 20 cards are not rendered in one piece (on a phone about 400 ms in which a tap
    gets no answer): FIRST_CARDS come with the page's data, then STEP_CARDS per task of the browser's, in order.
    Each batch is what one task added to the page (a MutationObserver's callback runs once per task)."""
    from marketplace.features.marketplace.page import FIRST_CARDS, STEP_CARDS

    page.add_init_script(CARD_BATCHES)
    open_marketplace(page)
    ids = expect_page(page, catalog, rules.Filters())
    batches = page.evaluate("window.__cardBatches")
    assert sum(batches) == len(ids) == rules.DEFAULT_PAGE_SIZE
    assert batches[0] == FIRST_CARDS and max(batches) == STEP_CARDS, batches


def test_pagination_and_page_size(page: Page, catalog: Catalog):
    open_marketplace(page)
    pages = math.ceil(CATALOG_SIZE / 20)
    expect_page(page, catalog, rules.Filters())
    assert pagination_labels(page) == window_labels(1, pages)
    assert "…" in pagination_labels(page)
    expect(page.get_by_label("Page 1", exact=True)).to_have_attribute("aria-current", "page")
    expect(page.get_by_label("Previous page")).to_be_disabled()

    for number in (3, 5, 7):
        click_settled(page.get_by_label(f"Page {number}", exact=True))
        expect_page(page, catalog, rules.Filters(page=number))
        assert pagination_labels(page) == window_labels(number, pages)
        expect(page).to_have_url(re.compile(rf"/marketplace\?page={number}$"))
    # Both ellipses around the window of page 7.
    assert pagination_labels(page) == ["Page 1", "…", "Page 5", "Page 6", "Page 7", "Page 8", "Page 9", "…",
                                       "Page 12"]

    click_settled(page.get_by_label("Next page"))
    expect_page(page, catalog, rules.Filters(page=8))
    click_settled(page.get_by_label("Previous page"))
    expect_page(page, catalog, rules.Filters(page=7))

    click_settled(page.get_by_label(f"Page {pages}", exact=True))
    ids = expect_page(page, catalog, rules.Filters(page=pages))
    assert len(ids) == CATALOG_SIZE - 20 * (pages - 1)
    expect(page.get_by_label("Next page")).to_be_disabled()

    # A page size change goes back to page 1 (SPEC 4). The select is named by its visible label.
    expect(page.get_by_label("Per page", exact=True)).to_have_attribute("id", "page-size-select")
    choose(page, "#page-size-select", "50")
    ids = expect_page(page, catalog, rules.Filters(page_size=50))
    assert len(ids) == 50
    assert pagination_labels(page) == window_labels(1, math.ceil(CATALOG_SIZE / 50))
    expect(page).to_have_url(re.compile(r"/marketplace\?per_page=50$"))

    page.get_by_label("Page 2", exact=True).click()
    expect_page(page, catalog, rules.Filters(page_size=50, page=2))
    choose(page, "#page-size-select", "100")
    ids = expect_page(page, catalog, rules.Filters(page_size=100))
    assert len(ids) == 100
    assert pagination_labels(page) == ["Page 1", "Page 2", "Page 3"]


# --------------------------------------------------------------------------- filters and sorts


FILTER_CASES = [
    ("lead_types", value) for value in rules.LEAD_TYPE_OPTIONS
] + [("roi_ranges", v) for v, _ in rules.ROI_BANDS] + [("sizes", v) for v, _ in rules.SIZE_BANDS] + [
    # The user's own unlocked leads, and the public-record tags (this catalog has no public-record lead:
    # test_record_leads.py filters those).
    ("tags", v) for v, _ in rules.TAGS if v not in rules.LEAD_ONLY_TAGS
]


def test_each_filter_option_matches_the_database(page: Page, catalog: Catalog):
    open_marketplace(page)
    expect_page(page, catalog, rules.Filters())
    current_group = None
    for group, value in FILTER_CASES:
        if group != current_group and current_group is not None:
            close_popovers(page)
        current_group = group
        filters = rules.Filters().toggled(group, value)
        toggle(page, group, value)
        expect(control(page, group, value)).to_be_checked()
        ids = expect_page(page, catalog, filters)
        _, total = catalog.expected(filters)
        assert total > 0, f"the catalog has no lead for {group}={value}"
        if group == "lead_types":
            for lead_id in ids:
                expect(page.locator(f"#lead-type-{lead_id}")).to_have_text(value)
        toggle(page, group, value)
        expect(control(page, group, value)).not_to_be_checked()
        wait_for_grid(page, rules.Filters())
    close_popovers(page)

    # OR within a group, AND across groups.
    filters = rules.Filters().toggled("lead_types", "Auction").toggled("lead_types", "Probate")
    toggle(page, "lead_types", "Auction")
    toggle(page, "lead_types", "Probate")
    expect_page(page, catalog, filters)
    assert catalog.expected(filters)[1] == sum(
        catalog.expected(rules.Filters(lead_types=(t,)))[1] for t in ("Auction", "Probate"))
    close_popovers(page)
    filters = filters.toggled("roi_ranges", "20-30")
    toggle(page, "roi_ranges", "20-30")
    expect_page(page, catalog, filters)
    close_popovers(page)
    expect(page.locator("#filter-group-type")).to_contain_text("2")
    expect(page).to_have_url(re.compile(r"/marketplace\?type=Auction&type=Probate&roi=20-30$"))

    page.locator("#clear-filters").click()
    expect_page(page, catalog, rules.Filters())
    expect(page).to_have_url(re.compile(r"/marketplace$"))


def test_each_sort_matches_the_database(page: Page, catalog: Catalog):
    open_marketplace(page)
    expect(page.locator("#sort-select option:checked")).to_have_text("Highest ROI")
    expect_page(page, catalog, rules.Filters())
    for value, label in rules.SORTS[1:] + rules.SORTS[:1]:
        choose(page, "#sort-select", label)
        ids = expect_page(page, catalog, rules.Filters(sort=value))
        expect(page.locator("#sort-select option:checked")).to_have_text(label)
        if value == "roi_desc":
            shown = [page.locator(f"#lead-roi-{i}").text_content() for i in ids]
            expected = [rules.percent(catalog.by_id[i]["roi"]) for i in ids]
            assert shown == expected
    # Sorting keeps the filters and goes back to page 1.
    page.get_by_label("Page 2", exact=True).click()
    expect_page(page, catalog, rules.Filters(page=2))
    choose(page, "#sort-select", SORT_LABELS["price_asc"])
    expect_page(page, catalog, rules.Filters(sort="price_asc"))
    expect(page).to_have_url(re.compile(r"/marketplace\?sort=price_asc$"))


def test_filters_are_restored_from_the_url(page: Page, catalog: Catalog):
    open_marketplace(page, "type=Auction&roi=gt30")
    filters = rules.Filters(lead_types=("Auction",), roi_ranges=("gt30",))
    ids = expect_page(page, catalog, filters)
    assert ids
    for lead_id in ids:
        expect(page.locator(f"#lead-type-{lead_id}")).to_have_text("Auction")
        assert catalog.by_id[lead_id]["roi"] > 30
    page.locator("#filter-group-type").click()
    expect(page.locator("#filter-type-Auction")).to_be_checked()
    for other in rules.LEAD_TYPE_OPTIONS:
        if other != "Auction":
            expect(control(page, "lead_types", other)).not_to_be_checked()
    close_popovers(page)
    page.locator("#filter-group-roi").click()
    expect(page.locator("#filter-roi-gt30")).to_be_checked()
    expect(page.locator("#filter-roi-20-30")).not_to_be_checked()

    # A change rewrites the address bar; a reload brings the same view back.
    page.locator("#filter-roi-20-30").click()
    filters = filters.toggled("roi_ranges", "20-30")
    expect_page(page, catalog, filters)
    expect(page).to_have_url(re.compile(r"/marketplace\?type=Auction&roi=gt30&roi=20-30$"))
    reload(page)
    expect_page(page, catalog, filters)

    # Sort, page size and page come from the URL too; junk is ignored.
    open_marketplace(page, "sort=sqft_asc&per_page=50&page=2&type=Castle&roi=lots")
    expect_page(page, catalog, rules.Filters(sort="sqft_asc", page_size=50, page=2))
    expect(page.locator("#sort-select option:checked")).to_have_text("Smallest Size")
    expect(page.locator("#page-size-select option:checked")).to_have_text("50")
    expect(page).to_have_url(re.compile(r"/marketplace\?sort=sqft_asc&per_page=50&page=2$"))


def test_a_filter_panel_opens_below_its_button_and_closes_as_a_popover_does(page: Page, catalog: Catalog):
    """The bar's panels are the browser's popovers: below their button, inside the viewport; one open at a
    time; Escape closes the open one and gives the focus back to its button; a click outside closes it."""
    page.set_viewport_size({"width": 1280, "height": 800})
    open_marketplace(page)
    types, roi = page.locator("#filter-group-type"), page.locator("#filter-group-roi")
    panel = page.get_by_role("dialog", name="Lead Type filters")
    expect(panel).to_be_hidden()
    types.click()
    expect(panel).to_be_visible()
    expect(page.locator("#filter-type-Auction")).to_be_visible()
    box, button = panel.bounding_box(), types.bounding_box()
    assert button["y"] + button["height"] <= box["y"] <= button["y"] + button["height"] + 12, (box, button)
    assert box["x"] >= 0 and box["x"] + box["width"] <= 1280 and box["y"] + box["height"] <= 800, box
    page.locator("#filter-type-Auction").focus()
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(types).to_be_focused()
    types.click()
    roi.click()  # another group's button: its panel replaces this one
    expect(page.get_by_role("dialog", name="ROI filters")).to_be_visible()
    expect(panel).to_be_hidden()
    page.mouse.click(1272, 400)  # the page's margin, beside the cards
    expect(page.locator(".lv-pop:popover-open")).to_have_count(0)


def test_no_match_shows_clear_all_filters(page: Page, catalog: Catalog):
    open_marketplace(page, "type=Vacancy&tag=auction_soon")
    empty = page.locator("#empty-results")
    expect(empty).to_be_visible()
    expect(empty.get_by_role("heading")).to_have_text("No leads match your filters")
    expect(page.locator("#result-count")).to_have_text("0 leads")
    expect(page.locator("#lead-grid")).to_have_count(0)
    expect(page.locator("#sample-notice")).to_have_count(0)
    clear = page.locator("#empty-clear-filters")
    expect(clear).to_have_text("Clear All Filters")
    clear.click()
    expect_page(page, catalog, rules.Filters())
    expect(page).to_have_url(re.compile(r"/marketplace$"))


# --------------------------------------------------------------------------- images


def test_the_next_page_s_first_pictures_are_fetched_once_the_user_stays(page: Page, catalog: Catalog):
    open_marketplace(page, "page=3")
    expect_page(page, catalog, rules.Filters(page=3))
    click_settled(page.get_by_label("Next page"))
    expect_page(page, catalog, rules.Filters(page=4))
    # Once the user stays PREFETCH_AFTER_MS: the next page's first pictures, as its cards will show them.
    # (Page 3 fetched page 4's: the wait is for the ones fetched after page 4, not those still held.)
    page.wait_for_function(f"() => window.lvNextPicturesAfter === {json.dumps(routes.marketplace_url(rules.Filters(page=4).to_query()))}"
                           f" && window.lvNextPictures.length === {rules.PREFETCH_PICTURES}"
                           " && window.lvNextPictures.every((i) => i.complete && i.naturalWidth > 0)")
    fetched = page.evaluate("() => window.lvNextPictures.map((i) => i.currentSrc)")
    click_settled(page.get_by_label("Next page"))
    ids = expect_page(page, catalog, rules.Filters(page=5))
    shown = [page.locator(f"#lead-image-{lead_id}").evaluate("(el) => el.currentSrc") for lead_id in ids[:8]]
    assert fetched == shown and all(src.endswith("-400.jpg") for src in shown)


def test_images_placeholder_and_dialog(page: Page, catalog: Catalog):
    page.context.route(f"{PHOTO_HOST}/**", lambda route: route.fulfill(
        status=200, content_type="image/svg+xml", body=PHOTO_BODY))
    open_marketplace(page)
    expect_page(page, catalog, rules.Filters())
    broken, bare, six, demo = (str(catalog.rows[i]["id"]) for i in range(4))

    # A picture that fails to load swaps itself for the placeholder, which says so.
    expect(page.locator(f"#lead-image-{broken}")).to_have_attribute("data-fallback", "1")
    expect(page.locator(f"#lead-image-{broken}")).to_have_attribute("src", re.compile(r"^data:image/svg\+xml"))
    expect(page.locator(f"#lead-card-{broken}").get_by_text(IMAGE_STATUS_TEXT["failed"])).to_be_visible()
    # No pictures at all: the placeholder with the lead's image status (the property page's
    # text), and no dialog to open.
    expect(page.locator(f"#lead-image-{bare}")).to_have_attribute("src", re.compile(r"^data:image/svg\+xml"))
    expect(page.locator(f"#lead-card-{bare}").get_by_text(IMAGE_STATUS_TEXT["no_images"])).to_be_visible()
    expect(page.locator(f"#lead-card-{six}").get_by_text(IMAGE_STATUS_TEXT["failed"])).to_be_hidden()
    expect(page.locator(f"#lead-images-button-{bare}")).to_be_disabled()
    expect(page.locator(f"#lead-images-button-{bare}")).to_have_text("No Images")
    # A demo lead's one drawing on a card is a JPEG the size of the card (800 pixels for
    # denser screens), decoded off the main thread, labelled as an illustration.
    src, srcset = card_picture(catalog.rows[3]["image_urls"][0])
    picture = page.locator(f"#lead-image-{demo}")
    expect(picture).to_have_attribute("src", src)
    expect(picture).to_have_attribute("srcset", srcset)
    expect(picture).to_have_attribute("alt", ILLUSTRATION_NOTE)
    page.wait_for_function("(el) => el.complete && el.naturalWidth > 0", arg=picture.element_handle())
    assert picture.evaluate("(el) => [el.currentSrc.endsWith('-400.jpg'), el.naturalWidth]") == [True, 400]
    expect(page.locator(f"#lead-picture-note-{demo}")).to_have_text(ILLUSTRATION_NOTE)
    expect(page.locator(f"#lead-picture-note-{demo}")).to_be_visible()
    # The page holds no dialog content until one is opened.
    expect(page.locator("[id^='lead-images-dialog-']")).to_have_count(0)

    # Six photos: the dialog shows the primary one plus 3 more.
    button = page.locator(f"#lead-images-button-{six}")
    address = rules.mask_address(catalog.rows[2]["address"])
    expect(button).to_have_text("View Images (4)")
    expect(button).to_have_accessible_name(f"View Images (4), {address}")
    expect(page.locator(f"#lead-picture-note-{six}")).to_have_count(0)
    expect(page.locator(f"#lead-provenance-{six}")).to_have_count(0)
    button.click()
    dialog = page.locator(f"#lead-images-dialog-{six}")
    expect(dialog).to_be_visible()
    images = dialog.locator("img")
    expect(images).to_have_count(4)
    sources = images.evaluate_all("els => els.map(e => e.getAttribute('src'))")
    assert sources == catalog.rows[2]["image_urls"][:4]
    expect(dialog).to_contain_text(address)
    row = catalog.rows[2]
    expect(dialog).to_contain_text(f"{row['city']}, {row['state']} {row['zip_code']} · 4 photos")
    expect(dialog).not_to_contain_text("llustration")
    expect(images.first).to_have_attribute("alt", f"Photo 1 of {address}")
    # Issue 24 #16: a thumbnail is a button (keyboard reachable) that shows its picture large.
    dialog.get_by_role("button", name=f"Show large: Photo 3 of {address}").focus()
    page.keyboard.press("Enter")
    large = dialog.locator("#lead-images-large")
    expect(large).to_have_attribute("src", catalog.rows[2]["image_urls"][2])
    expect(large).to_have_attribute("alt", f"Photo 3 of {address}")
    dialog.get_by_role("button", name=f"Show large: Photo 1 of {address}").click()
    expect(large).to_have_attribute("src", catalog.rows[2]["image_urls"][0])
    page.get_by_label("Close images").click()
    expect(dialog).to_have_count(0)
    expect(button).to_be_focused()  # focus goes back to the card's button

    # A demo lead: its drawing is not counted as an image; the button says what it opens.
    button = page.locator(f"#lead-images-button-{demo}")
    address = rules.mask_address(catalog.rows[3]["address"])
    expect(button).to_have_text("View Illustration")
    expect(button).to_have_accessible_name(f"View Illustration, {address}")
    button.click()
    dialog = page.locator(f"#lead-images-dialog-{demo}")
    expect(dialog.locator("img")).to_have_count(1)
    expect(dialog.locator("img")).to_have_attribute("src", catalog.rows[3]["image_urls"][0])
    expect(dialog.locator("img")).to_have_attribute("alt", ILLUSTRATION_NOTE)
    expect(dialog).to_contain_text(f"· {ILLUSTRATION_NOTE}")
    page.get_by_label("Close images").click()
    expect(dialog).to_have_count(0)


def test_every_demo_lead_says_demo_data(page: Page, catalog: Catalog):
    """Issue 24: every generated lead's card says 'Demo data (generated)'; a lead from
    elsewhere does not; no card counts an illustration as an image."""
    open_marketplace(page)
    ids = expect_page(page, catalog, rules.Filters())
    rows = {str(row["id"]): row for row in catalog.rows}
    for lead_id in ids:
        provenance = page.locator(f"#lead-provenance-{lead_id}")
        if is_generated(rows[lead_id]["raw_data"]):
            expect(provenance).to_have_text("Demo data (generated)")
            expect(page.locator(f"#lead-images-button-{lead_id}")).not_to_have_text(re.compile(r"View Images"))
        else:
            expect(provenance).to_have_count(0)
    assert sum(is_generated(rows[lead_id]["raw_data"]) for lead_id in ids) >= len(ids) - 2
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        demo = page.locator(f"#lead-card-{catalog.rows[3]['id']}")
        demo.scroll_into_view_if_needed()
        demo.screenshot(path=str(ARTIFACTS / f"issue24-demo-card-{width}.png"))
    # The home page's sample card is demo data too.
    visit(page, "/")
    expect(page.locator("#hero-sample-provenance")).to_have_text(
        f"Demo data (generated) · {ILLUSTRATION_NOTE}", timeout=20000)
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        card = page.locator(".lv-sample-card")
        card.scroll_into_view_if_needed()
        card.screenshot(path=str(ARTIFACTS / f"issue24-home-sample-{width}.png"))


# --------------------------------------------------------------------------- phone


def test_phone_filters_open_in_a_sheet(page: Page, catalog: Catalog):
    page.set_viewport_size({"width": 375, "height": 812})
    open_marketplace(page)
    expect_page(page, catalog, rules.Filters())
    expect(page.locator("#filter-group-type")).to_be_hidden()
    page.locator("#mobile-filters-button").click()
    sheet = page.locator("#filter-sheet")
    expect(sheet).to_be_visible()
    page.locator("#sheet-filter-type-Auction").click()
    filters = rules.Filters(lead_types=("Auction",))
    wait_for_grid(page, filters)
    _, total = catalog.expected(filters)
    expect(page.locator("#sheet-show-results")).to_have_text(f"Show {count_text(total)}")
    sheet.get_by_role("radio", name="Lowest Price").click()
    filters = rules.Filters(lead_types=("Auction",), sort="price_asc")
    wait_for_grid(page, filters)
    page.locator("#sheet-show-results").click()
    expect(sheet).to_have_count(0)
    expect_page(page, catalog, filters)
    expect(page.locator("#mobile-filters-button")).to_contain_text("1")


# --------------------------------------------------------------------------- samples and failures


def test_sample_leads_when_no_lead_is_active(page: Page, catalog: Catalog, live_server, make_user):
    ids = [r["id"] for r in catalog.rows]
    _set_active(catalog.url, ids, False)
    try:
        open_marketplace(page)
        expect(page.locator("#sample-notice")).to_be_visible()
        expect(page.locator("#sample-notice")).to_contain_text("Sample leads")
        expect(page.locator("#result-count")).to_have_text("2 sample leads")
        assert grid_ids(page) == ["sample-austin", "sample-dallas"]
        for lead_id, city in (("sample-austin", "Austin, TX 78756"), ("sample-dallas", "Dallas, TX 75214")):
            card = page.locator(f"#lead-card-{lead_id}")
            expect(page.locator(f"#lead-city-{lead_id}")).to_have_text(city)
            expect(card.get_by_text("Sample", exact=True)).to_be_visible()
            expect(card).to_have_attribute("data-sample", "true")
            # Demo data, with one illustration (issue 24).
            expect(page.locator(f"#lead-provenance-{lead_id}")).to_have_text("Demo data (generated)")
            expect(page.locator(f"#lead-images-button-{lead_id}")).to_have_text("View Illustration")
            expect(page.locator(f"#lead-picture-note-{lead_id}")).to_have_text(ILLUSTRATION_NOTE)
            expect(action(page, lead_id)).to_have_text("Login")
            expect(action(page, lead_id)).to_have_attribute("href", "/auth")
        expect(page.locator("#pagination")).to_have_count(0)

        # Signed in, a sample cannot be unlocked.
        user = make_user(credits=500)
        start_session(page, live_server.database_url, user["id"])
        open_marketplace(page)
        expect(page.locator("#available-credits")).to_have_text("500")
        for lead_id in ("sample-austin", "sample-dallas"):
            expect(action(page, lead_id)).to_have_text("Sample lead")
            expect(action(page, lead_id)).to_be_disabled()
    finally:
        _set_active(catalog.url, ids, True)
    reload(page)
    expect_page(page, catalog, rules.Filters())
    expect(page.locator("#sample-notice")).to_have_count(0)


def test_load_failure_toast_and_retry(page: Page, catalog: Catalog):
    engine = get_engine(catalog.url)
    with engine.begin() as conn:
        conn.exec_driver_sql("ALTER TABLE lead_facets RENAME TO lead_facets_offline")
    try:
        open_marketplace(page)
        expect_toast(page, "Error", "Failed to load property leads. Please try again.")
        expect(page.locator("#sample-notice")).to_contain_text("couldn't load")
    finally:
        with engine.begin() as conn:
            conn.exec_driver_sql("ALTER TABLE lead_facets_offline RENAME TO lead_facets")
    page.locator("#marketplace-retry").click()
    expect_page(page, catalog, rules.Filters())
    expect(page.locator("#sample-notice")).to_have_count(0)


def test_the_loading_skeleton_shows_the_first_cards_picture_before_the_cards(browser, live_server, catalog: Catalog):
    """Issue 26 #2: the prerendered page (no scripts at all here) already shows the first card's
    picture, labelled, and it is the very file the first card then shows in its place, for the
    page's own filters (a query no other test asked for: the server's 10-second lookup is fresh)."""
    filters = rules.Filters(lead_types=("Probate",), page=2)
    ids, _ = catalog.expected(filters)
    url = "/marketplace?" + filters.to_query()

    with scriptless_page(browser, live_server.url, url, "/api/images/first-card-") as (page, redirects):
        picture = page.locator("#marketplace-first-picture")
        expect(picture).to_be_visible()
        wait_loaded(page, "marketplace-first-picture")
        expect(page.locator(".lv-lc-media-first .lv-lc-note")).to_have_text(ILLUSTRATION_NOTE)
        expect(page.locator("[id^='lead-card-']")).to_have_count(0)  # nothing but the prerendered page
        assert len(redirects) == 1 and redirects[0].startswith("/api/images/house/"), redirects
        box = picture.bounding_box()

    live = browser.new_context(base_url=live_server.url, viewport={"width": 412, "height": 900})
    try:
        page = live.new_page()
        visit(page, url)
        first = page.locator(f"#lead-image-{ids[0]}")
        expect(first).to_be_visible()
        page.wait_for_function(f"() => document.getElementById('lead-image-{ids[0]}').complete")
        assert first.evaluate("(el) => new URL(el.currentSrc).pathname") == redirects[0]
        card_box = first.bounding_box()
        # In its place, at its size; never larger (it would be the page's largest paint again).
        assert card_box["height"] == box["height"] and 0 <= box["width"] - card_box["width"] <= 1.5
        assert abs(card_box["x"] - box["x"]) <= 1.5
    finally:
        live.close()
