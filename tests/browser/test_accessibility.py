"""Accessibility: axe-core over every page, signed out and signed in; zero violations.

axe-core (pinned in tests/browser/axe/package.json, installed by `make test` with
the venv's npm) is injected into each page once it has settled, and runs the WCAG
2.0/2.1/2.2 A and AA rules plus axe's best practices. A test fails listing every
violation: rule id, impact, the selectors of the offending elements and axe's help.

One browser tab per role (visitor, member with credits and an unlocked lead, the same member at 375 px,
super admin) is reused across the pages, so the run stays short. Contexts ask for
reduced motion: dialogs and toasts are checked at rest, not half faded in.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Callable

import pytest
import sqlalchemy as sa
from playwright.sync_api import Page, expect

from marketplace.platform.web.image_hosts import house_image_urls
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import Lead, LeadRefreshRun, Notification, PipelineEntry, utcnow
from marketplace.features.billing import service as purchases
from marketplace.features.marketplace import service_saved_searches as saved_searches
from marketplace.features.marketplace.service import rebuild_facets_now
from tests.browser import leads
from tests.browser.helpers import at_rest, expect_toast, visit
from tests.factories import make_user

AXE_JS = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]

RUN_AXE = """
async (tags) => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: n.failureSummary})),
  }));
}
"""


@dataclass
class World:
    visitor: Page
    member: Page
    admin: Page
    phone: Page  # the member at 375 px
    unlocked_id: str  # unlocked by the member before the run
    to_unlock_id: str  # the member unlocks this one in the browser (30 credits)
    gallery_id: str  # has pictures: its View Images dialog is opened
    costly_id: str  # 150 credits: unlocking it asks for confirmation first
    checkout_id: str  # the member's open demo checkout


@pytest.fixture(scope="module")
def world(browser, live_server):
    assert AXE_JS.exists(), f"{AXE_JS} is missing: `make test` installs it (npm ci in tests/browser/axe)"
    db = live_server.database_url
    member = make_user(db, credits=1000)
    admin = make_user(db, admin=True)
    member_dict = {"id": str(member.id)}
    # Top of the default (highest ROI) order, so they are on the first page.
    rows = []
    for roi, cost in ((99.99, 120), (99.98, 30), (99.97, 85), (99.96, 150)):
        pictures = house_image_urls(f"a11y-{uuid.uuid4().hex[:8]}", 4)
        rows.append(leads.make_lead(roi=roi, is_high_roi=True, credit_cost=cost, image_urls=pictures,
                                    primary_image_url=pictures[0], images_fetch_status="success"))
    leads.store(live_server, *rows)
    leads.unlock(live_server, member_dict, rows[0])
    checkout = purchases.start_purchase(member.id, "starter")
    # Saved Searches tab and the bell: a saved search and one unread alert (a read one too)
    search = saved_searches.create_saved_search(member.id, "Probate over 30% ROI", "type=Probate&roi=gt30")
    with session_scope(db) as session:
        for n in range(2):
            run = LeadRefreshRun(run_key=f"a11y-{uuid.uuid4().hex[:12]}", run_date=date(2026, 11, 21),
                                 status="completed")
            session.add(run)
            session.flush()
            session.add(Notification(user_id=member.id, refresh_run_id=run.id, lead_count=3 + n,
                                     read_at=utcnow() if n else None,
                                     matches={"searches": [{"id": search.id, "name": search.name,
                                                            "query": search.query, "count": 3 + n}],
                                              "lead_ids": []}))
        # Pipeline tab, property card and bell: the unlocked lead has an offer and an overdue follow-up.
        session.add(PipelineEntry(user_id=member.id, lead_id=uuid.UUID(str(rows[0]["id"])), stage="offer_made",
                                  offer_amount=180_000,
                                  follow_up_date=date(2026, 1, 5)))

    contexts = []

    def tab(user_id: str | None, width: int = 1280) -> Page:
        # bypass_csp: the app's Content-Security-Policy would refuse the injected axe script.
        context = browser.new_context(base_url=live_server.url, viewport={"width": width, "height": 900},
                                      reduced_motion="reduce", bypass_csp=True)
        context.set_default_timeout(20000)
        contexts.append(context)
        page = context.new_page()
        if user_id:
            leads.signed_in(page, live_server, {"id": user_id})
        return page

    try:
        yield World(visitor=tab(None), member=tab(str(member.id)), admin=tab(str(admin.id)),
                    phone=tab(str(member.id), width=375), unlocked_id=str(rows[0]["id"]),
                    to_unlock_id=str(rows[1]["id"]), gallery_id=str(rows[2]["id"]), costly_id=str(rows[3]["id"]),
                    checkout_id=str(checkout.id))
    finally:
        for context in contexts:
            context.close()
        table = Lead.__table__
        with get_engine(db).begin() as conn:
            conn.execute(sa.update(table).where(table.c.id.in_([r["id"] for r in rows])).values(is_active=False))
        rebuild_facets_now(db)


# --------------------------------------------------------------------------- the pages


def loaded(path: str, ready: str, wait_until: str = "load") -> Callable[[Page, World], None]:
    """Open ``path`` (hydrated, unless ``wait_until`` says otherwise) until ``ready`` shows."""
    def step(page: Page, world: World) -> None:
        if wait_until == "load":
            visit(page, path.format(w=world))
        else:
            page.goto(path.format(w=world), wait_until=wait_until)
        expect(page.locator(ready.format(w=world)).first).to_be_visible(timeout=30000)
    return step


def grid(page: Page) -> None:
    visit(page, "/marketplace")
    expect(page.locator("#lead-grid")).to_be_visible(timeout=30000)


def marketplace_member(page: Page, world: World) -> None:
    grid(page)
    expect(page.locator("#available-credits")).to_be_visible()


def images_dialog(page: Page, world: World) -> None:
    marketplace_member(page, world)
    page.locator(f"#lead-images-button-{world.gallery_id}").click()
    expect(page.locator(f"#lead-images-dialog-{world.gallery_id} img").first).to_be_visible()


def unlock_toast(page: Page, world: World) -> None:
    marketplace_member(page, world)
    page.locator(f"#lead-action-{world.to_unlock_id}").click()
    expect_toast(page, "Lead Unlocked!")
    page.locator("[data-sonner-toast]").first.hover()  # a hovered toast stays while axe runs


def unlock_confirmation(page: Page, world: World) -> None:
    marketplace_member(page, world)
    page.locator(f"#lead-action-{world.costly_id}").click()
    expect(page.locator("#unlock-confirm-dialog")).to_be_visible()


def map_view(page: Page, world: World) -> None:
    visit(page, "/marketplace?view=map")
    expect(page.locator("#marketplace-map .lv-map-cluster, #marketplace-map .lv-map-pin").first).to_be_visible(
        timeout=30000)


def map_card(page: Page, world: World) -> None:
    """The map with a marker's card open: clusters clicked (zoom in, then spread) until a marker shows.
    Clicks are dispatched: Leaflet keeps markers a viewport beyond the visible map in the page."""
    map_view(page, world)
    pins = page.locator("#marketplace-map .lv-map-pin")
    for _ in range(12):
        if pins.count():
            break
        page.locator("#marketplace-map .lv-map-cluster").first.dispatch_event("click")
        at_rest(page)  # the zoom (or the spread) is over
    pins.first.dispatch_event("click")
    expect(page.locator("#map-card-panel [id^='lead-action-']")).to_be_visible()
    # Back to the top once the phone layout brought the card into view (the click scrolled the
    # marker into view, the map's controls under the sticky filter bar).
    at_rest(page)
    page.evaluate("window.scrollTo(0, 0)")


def tab(path: str, name: str, ready: str) -> Callable[[Page, World], None]:
    """Open ``path`` (a full load even when only the hash differs), then the tab ``name``."""
    def step(page: Page, world: World) -> None:
        page.goto("about:blank")
        visit(page, path)
        page.get_by_role("tab", name=name).click()
        expect(page.get_by_role("tab", name=name)).to_have_attribute("aria-selected", "true")
        expect(page.locator(ready).first).to_be_visible(timeout=30000)
    return step


def opened(path: str, trigger: str, ready: str) -> Callable[[Page, World], None]:
    """Open ``path``, then a popover or menu with ``trigger``."""
    def step(page: Page, world: World) -> None:
        visit(page, path)
        page.locator(trigger).click()
        expect(page.locator(ready)).to_be_visible()
    return step


def credits_purchased_error(page: Page, world: World) -> None:
    visit(page, "/credits-purchased?session_id=demo_cs_doesnotexist")
    expect(page.locator("#purchase-error")).to_have_text("Failed to verify purchase")
    expect_toast(page, "Failed to verify purchase")
    page.locator("[data-sonner-toast]").first.hover()


def analyzer(tab_name: str, invalid: tuple[str, str] | None = None) -> Callable[[Page, World], None]:
    """The property page's Deal Analyzer on tab ``tab_name``; ``invalid``: (field key, text) typed so that
    the field shows its problem."""
    def step(page: Page, world: World) -> None:
        visit(page, f"/property/{world.unlocked_id}")
        page.locator(f"#analyzer-tab-{tab_name}").click()
        expect(page.locator(f"#analyzer-tab-{tab_name}")).to_have_attribute("aria-selected", "true")
        if invalid is not None:
            key, typed = invalid
            page.locator(f"#analyzer-{key}-input").fill(typed)
            expect(page.locator(f"#analyzer-{key}-error")).not_to_be_empty()
    return step


ACTIVE_PANEL = "[role=tabpanel][data-state=active]"

PAGES: list[tuple[str, str, Callable[[Page, World], None]]] = [
    ("home", "visitor", loaded("/", "#hero-cta-marketplace")),
    ("marketplace", "visitor", loaded("/marketplace", "#lead-grid")),
    ("bulkscraper", "visitor", loaded("/bulkscraper", "h1")),
    ("pricing", "visitor", loaded("/pricing", "#pack-card-starter")),
    ("about", "visitor", loaded("/about", "h1")),
    ("contact", "visitor", loaded("/contact", "h1")),
    ("legal-privacy", "visitor", tab("/legal#privacy", "Privacy Policy", "#legal-privacy")),
    ("legal-terms", "visitor", tab("/legal#terms", "Terms of Service", "#legal-terms")),
    ("legal-disclaimer", "visitor", tab("/legal#disclaimer", "Investment Disclaimer", "#legal-disclaimer")),
    ("auth-sign-in", "visitor", tab("/auth", "Sign In", "#signin-email")),
    ("auth-sign-up", "visitor", tab("/auth", "Sign Up", "#signup-email")),
    # The page as it opens (prerendered), before the refused link sends the browser back to /auth.
    ("auth-callback-invalid-link", "visitor", loaded("/auth/callback?token=not-a-real-token", "#callback-heading",
                                                    wait_until="domcontentloaded")),
    ("auth-reset-request", "visitor", loaded("/auth/reset", "#reset-email")),
    ("auth-reset-invalid-link", "visitor", loaded("/auth/reset?token=not-a-real-token", "#reset-invalid-panel")),
    ("property-signed-out", "visitor", loaded("/property/{w.unlocked_id}", "#property-login")),
    ("not-found", "visitor", loaded("/no-such-page", "h1")),
    ("not-found-nested", "visitor", loaded("/no/such/page", "h1")),
    ("marketplace-member", "member", marketplace_member),
    ("marketplace-view-images", "member", images_dialog),
    ("marketplace-lead-unlocked-toast", "member", unlock_toast),
    ("marketplace-unlock-confirmation", "member", unlock_confirmation),
    ("marketplace-type-filter-open", "member", opened("/marketplace", "#filter-group-type", "#filter-type-Auction")),
    ("marketplace-map", "visitor", map_view),
    ("marketplace-map-member", "member", map_view),
    ("marketplace-map-card", "member", map_card),
    ("bulkscraper-member-states-open", "member", opened("/bulkscraper", "#scraper-states", "#scraper-state-TX")),
    ("bulkscraper-member-webhook", "member", loaded("/bulkscraper?section=webhook", "#webhook-panel")),
    ("dashboard-unlocked-leads", "member", tab("/dashboard", "Unlocked Leads", "table")),
    ("dashboard-bulk-scrapes", "member", tab("/dashboard", "Bulk Scrapes", ACTIVE_PANEL)),
    ("dashboard-referrals", "member", tab("/dashboard", "Referrals", ACTIVE_PANEL)),
    ("dashboard-settings", "member", tab("/dashboard", "Settings", ACTIVE_PANEL)),
    ("dashboard-saved-searches", "member", tab("/dashboard", "Saved Searches", "#saved-searches-list")),
    ("dashboard-pipeline", "member", tab("/dashboard", "Pipeline", "#pipeline-board [data-lead-id]")),
    ("marketplace-save-search-dialog", "member", opened("/marketplace", "#save-search-button", "#save-search-dialog")),
    ("notifications-popover", "member", opened("/dashboard", "#notifications-button", "#notifications-list")),
    ("property-unlocked", "member", loaded("/property/{w.unlocked_id}", "#property-image-primary")),
    ("property-comps", "member", loaded("/property/{w.unlocked_id}", "#comps-arv")),
    ("property-analyzer-rental", "member", analyzer("rental")),
    ("property-analyzer-brrrr", "member", analyzer("brrrr")),
    ("property-analyzer-offer-invalid", "member", analyzer("offer", ("min_dscr", "11"))),
    ("purchase-credits", "member", loaded("/purchase-credits", "#purchase-balance")),
    ("credits-purchased-error", "member", credits_purchased_error),
    ("demo-checkout", "member", loaded("/demo-checkout/{w.checkout_id}", "#demo-checkout-pay")),
    ("explorerdev-super-admin", "admin", loaded("/explorerdev", "#explorer-heading")),
    ("phone-home-menu-open", "phone", opened("/", "#header-menu-button", "[role=dialog][data-vaul-drawer]")),
    ("phone-marketplace-filter-sheet", "phone", opened("/marketplace", "#mobile-filters-button", "#filter-sheet")),
    ("phone-marketplace-map-card", "phone", map_card),
    ("phone-property-comps", "phone", loaded("/property/{w.unlocked_id}", "#comps-arv")),
    ("phone-dashboard", "phone", tab("/dashboard", "Unlocked Leads", ACTIVE_PANEL)),
    ("phone-dashboard-saved-searches", "phone", tab("/dashboard", "Saved Searches", "#saved-searches-list")),
    ("phone-dashboard-pipeline", "phone", tab("/dashboard", "Pipeline", "#pipeline-board [data-lead-id]")),
    ("phone-notifications-popover", "phone", opened("/marketplace", "#notifications-button", "#notifications-list")),
    ("phone-property-analyzer", "phone", analyzer("flip")),
]


def axe_violations(page: Page) -> list[dict]:
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE_JS))
    return page.evaluate(RUN_AXE, AXE_TAGS)


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"]:
            summary = " ".join((node["summary"] or "").split())
            lines.append(f"    {node['target']}  -- {summary[:300]}")
    return "\n".join(lines)


@pytest.mark.parametrize("role,step", [pytest.param(role, step, id=name) for name, role, step in PAGES])
def test_page_has_no_axe_violations(world: World, role: str, step):
    page = getattr(world, role)
    step(page, world)
    violations = axe_violations(page)
    assert not violations, f"{page.url}: {len(violations)} axe violation(s)\n{describe(violations)}"
