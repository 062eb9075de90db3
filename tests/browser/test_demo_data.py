"""A demo install says so: the demo-data banner on every page (public, signed in, super admin, the demo
checkout and the 404 page), the note beside the claims about public records, and a real-only install
shows neither. The test server runs without a public-record source, on generated leads: a demo install."""

from __future__ import annotations

import uuid
from datetime import date

import sqlalchemy as sa
from playwright.sync_api import Page, expect

from marketplace.platform.db import get_engine
from marketplace.platform.models import Lead
from marketplace.features.billing import service as purchases
from marketplace.features.records import service_imports as record_imports
from marketplace.platform.demo_data import DEMO_CHECK_SECONDS, generated_condition
from marketplace.features.marketplace.service import rebuild_facets_now
from tests.browser import leads
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import start_session, visit, wait_until
from tests.features.records.opendata_helpers import chicago_as_of

BANNER = "Demo install: the leads on this site are generated demo data, not public records."
NOTE = "This demo install serves generated demo data."
PUBLIC = ["/", "/marketplace", "/bulkscraper", "/pricing", "/about", "/contact", "/legal", "/legal/terms",
          "/legal/disclaimer", "/auth", "/auth/reset", "/purchase-credits", "/no-such-page/at-all"]
SIGNED_IN = ["/dashboard", "/marketplace", "/bulkscraper", "/purchase-credits", "/property/{lead}",
             "/demo-checkout/{checkout}"]
# Where a claim about public records is made, and its note is shown beside it on a demo install.
CLAIMS = {"/": "100% legal public-record data", "/pricing": "100% legal public-record data",
          "/about": "100% legal public-record data", "/marketplace": "derived from public records",
          "/contact": "Leads come from public records", "/legal/disclaimer": "lawfully available public records",
          "/auth": "LeadVault turns public records"}


def _banner(page: Page, path: str) -> None:
    visit(page, path)
    banner = page.locator("#demo-data-banner")
    expect(banner, f"{path}: demo banner").to_have_text(BANNER)
    expect(banner, f"{path}: demo banner").to_be_visible()
    expect(page.locator("#demo-data-banner")).to_have_count(1)


def banner_shown(page: Page, shown: bool) -> None:
    """Open the home page until the demo banner is ``shown`` or not: the server caches its answer for
    ``DEMO_CHECK_SECONDS``, so a change in the database shows once that answer expired."""
    def now() -> bool:
        visit(page, "/")  # waits for the ready signal: the page's check of demo data is done
        return (page.locator("#demo-data-banner").count() == 1) == shown
    wait_until(now, timeout=DEMO_CHECK_SECONDS + 15, message=f"the demo banner is {'not ' if shown else ''}shown")


def test_a_demo_install_shows_its_banner_on_every_page(page: Page, live_server, make_user):
    row = leads.make_lead()
    leads.store(live_server, row)
    for path in PUBLIC:
        _banner(page, path)
    for path, claim in CLAIMS.items():
        visit(page, path)
        footer = page.locator("#footer-legal-note")
        expect(footer).to_contain_text("100% legal public-record data.")
        expect(footer).to_contain_text(NOTE)
        expect(page.get_by_text(claim).first).to_be_visible()
        expect(page.locator("main .lv-demo-claim-note").filter(has_text=NOTE).first,
               f"{path}: the claim's note").to_be_visible()

    user = make_user(credits=500)
    leads.unlock(live_server, user, row)
    checkout = purchases.start_purchase(uuid.UUID(user["id"]), "starter")
    start_session(page, live_server.database_url, user["id"])
    for path in SIGNED_IN:
        _banner(page, path.format(lead=row["id"], checkout=checkout.id))
    # The property page's "estimates derived from public records" and the pricing FAQ's "an estimate from
    # public data" are claims too.
    visit(page, f"/property/{row['id']}")
    expect(page.locator("#property-figures-note")).to_contain_text("derived from public records")
    expect(page.locator("#property-figures-note .lv-demo-claim-note")).to_have_text(" " + NOTE)
    visit(page, "/pricing")
    expect(page.locator("#pricing-faq .lv-demo-claim-note")).to_have_count(1)
    expect(page.locator("#pricing-faq p").filter(has_text="estimate from public data")).to_contain_text(NOTE)
    admin = make_user(admin=True)
    start_session(page, live_server.database_url, admin["id"])
    _banner(page, "/explorerdev")

    page.set_viewport_size({"width": 375, "height": 740})
    visit(page, "/")
    expect(page.locator("#demo-data-banner")).to_be_visible()
    box = page.locator("#demo-data-banner").bounding_box()
    assert box is not None and box["width"] <= 375 and box["y"] == 0
    page.screenshot(path=str(ARTIFACTS / "demo-banner-375.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    visit(page, "/")
    page.screenshot(path=str(ARTIFACTS / "demo-banner-1280.png"))


def test_a_real_only_install_shows_no_banner_and_plain_claims(page: Page, live_server):
    """No generated lead listed and a real inventory: the page load's check takes the banner and the
    notes away (an install configured with a public-record source never prerenders them)."""
    engine = get_engine(live_server.database_url)
    leads_t = Lead.__table__
    with engine.begin() as conn:
        generated = conn.execute(sa.select(leads_t.c.id).where(
            leads_t.c.is_active == sa.true(), generated_condition())).scalars().all()
        records_before = set(conn.execute(sa.select(leads_t.c.id).where(
            leads_t.c.is_active == sa.true(), leads_t.c.property_id.is_not(None))).scalars())
    try:
        with engine.begin() as conn:
            conn.execute(sa.update(leads_t).where(leads_t.c.id.in_(generated)).values(is_active=False))
        rebuild_facets_now(live_server.database_url)
        # The sample re-dated to the week before: its 2023 notices themselves are history (no leads).
        record_imports.import_file("chi-vacant-buildings-violations", chicago_as_of(date(2026, 11, 18)),
                                   today=date(2026, 11, 25), database_url=live_server.database_url)
        banner_shown(page, False)  # the server's cached answer expired
        for path in ("/", "/pricing", "/marketplace", "/about"):
            visit(page, path)
            page.wait_for_load_state("networkidle")
            expect(page.locator("#demo-data-banner"), f"{path}: no demo banner").to_have_count(0)
            expect(page.locator(".lv-demo-claim-note"), f"{path}: no demo note").to_have_count(0)
            expect(page.locator("#footer-legal-note")).to_have_text(
                "100% legal public-record data. LeadVault does not broker real-estate transactions and nothing on "
                "this site is investment advice.")
    finally:
        with engine.begin() as conn:
            conn.execute(sa.update(leads_t).where(leads_t.c.id.in_(generated)).values(is_active=True))
            conn.execute(sa.update(leads_t).where(leads_t.c.property_id.is_not(None),
                                                  leads_t.c.id.not_in(records_before)).values(is_active=False))
        rebuild_facets_now(live_server.database_url)
        # Let the server's cached "real only" answer expire: the tests after this one meet a demo install again.
        banner_shown(page, True)

