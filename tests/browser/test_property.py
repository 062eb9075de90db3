"""/property/{id}: an unlocked lead in full, and 'Property Not Found' for everyone else.

Leads come from the built-in source (``BuiltinSource(seed=N)``) with the fields
each case needs overwritten, are stored with ``insert_leads`` and unlocked with
the real ``unlock_lead`` service, so credits, costs and unlock times are the
ones the app itself wrote.
"""

from __future__ import annotations

import json

import re
import uuid
from datetime import datetime, timezone
from urllib.parse import quote_plus

import sqlalchemy as sa
from playwright.sync_api import Page, expect

from marketplace.platform.web.image_hosts import illustration_url
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import Lead
from tests.browser import leads as lead_fixtures
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import scriptless_page, visit, wait_loaded
from tests.browser.leads import make_lead, signed_in, store

NOT_FOUND_TITLE = "Property Not Found"
UNLOCKED_AT = datetime(2026, 3, 4, 15, 5, tzinfo=timezone.utc)
UNLOCKED_AT_TEXT = "Mar 4, 2026, 3:05 PM UTC"
LISTING = "https://www.zillow.com/homedetails/4821-Juniper-Hollow-Ln-Austin-TX-78704/12345678_zpid/"


def unlock(live_server, user: dict, row: dict, unlocked_at: datetime = UNLOCKED_AT) -> None:
    lead_fixtures.unlock(live_server, user, row, unlocked_at)


def record_frames(page: Page) -> list[str]:
    """Every websocket frame the browser receives from now on."""
    frames: list[str] = []

    def on_socket(ws):
        ws.on("framereceived", lambda payload: frames.append(payload if isinstance(payload, str)
                                                              else payload.decode("utf-8", "replace")))

    page.on("websocket", on_socket)
    return frames


def expect_not_found(page: Page, message: str) -> None:
    expect(page.locator("#property-not-found")).to_have_text(NOT_FOUND_TITLE, timeout=20000)
    expect(page.locator("#property-not-found-message")).to_have_text(message)
    back = page.locator("#property-back-marketplace")
    expect(back).to_have_text("Back to Marketplace")
    expect(back).to_have_attribute("href", "/marketplace")
    expect(page.locator("#property-content")).to_have_count(0)


def assert_never_sent(page: Page, frames: list[str], *texts: str) -> None:
    html = page.content()
    assert frames, "no websocket frames were recorded"
    for text in texts:
        assert text not in html, f"{text!r} is in the page HTML"
        for frame in frames:
            assert text not in frame, f"{text!r} was sent over the websocket"


# --------------------------------------------------------------------------- shown


def listing_photos(key: str, n: int) -> list[str]:
    return [f"https://photos.zillowstatic.com/fp/{key}-{i}.jpg" for i in range(n)]


def serve_photos(page: Page) -> None:
    """The tests reach no outside host: every listing photo is a small picture."""
    page.context.route("https://photos.zillowstatic.com/**", lambda route: route.fulfill(
        status=200, content_type="image/svg+xml",
        body="<svg xmlns='http://www.w3.org/2000/svg' width='400' height='300'><rect width='400' height='300' fill='#8aa'/></svg>"))


def test_unlocked_lead_shows_every_section(page: Page, live_server, make_user):
    key = uuid.uuid4().hex[:12]
    lead = make_lead(
        city="Austin", state="TX", zip_code="78704", lead_type="Probate", source="County Probate Records",
        asking_price=200_000, zestimate=265_000, arv=350_000, rehab_estimate=30_000, roi=18.4,
        beds=3, baths=2.5, square_footage=1850, confidence_score=92, credit_cost=120, is_active=True,
        image_urls=listing_photos(key, 6), images_fetch_status="success",
        raw_data={"zillow_url": LISTING, "owner_name": "Mary Smith", "year_built": 1978, "county": "Travis County",
                  "parcel_id": "123-45-6789"},
    )
    store(live_server, lead)
    user = make_user(credits=1000)
    unlock(live_server, user, lead)
    signed_in(page, live_server, user)
    serve_photos(page)
    visit(page, f"/property/{lead['id']}")

    address = lead["address"]
    expect(page.locator("#property-address")).to_have_text(address, timeout=20000)
    expect(page).to_have_title("Property Details | LeadVault")
    # A lead from a listing source: not demo data, photos.
    expect(page.locator("#property-provenance")).to_have_count(0)
    expect(page.locator("#property-picture-note")).to_have_count(0)
    expect(page.locator("#property-place")).to_have_text("Austin, TX 78704")
    expect(page.locator("#property-lead-type-badge")).to_have_text("Probate")
    expect(page.locator("#property-archived")).to_have_count(0)

    # Details
    expect(page.locator("#property-beds")).to_have_text("3")
    expect(page.locator("#property-baths")).to_have_text("2.5")
    expect(page.locator("#property-sqft")).to_have_text("1,850")
    expect(page.locator("#property-street")).to_have_text(address)
    expect(page.locator("#property-city-state-zip")).to_have_text("Austin, TX 78704")
    details = page.locator("#property-details")
    expect(details).to_contain_text("OwnerMary Smith")
    expect(details).to_contain_text("Year built1978")
    expect(details).to_contain_text("CountyTravis County")
    expect(details).to_contain_text("Parcel ID123-45-6789")

    # Financial analysis: profit = 350,000 - 200,000 - 30,000
    expect(page.locator("#property-asking")).to_have_text("$200,000")
    expect(page.locator("#property-market-value")).to_have_text("$265,000")
    expect(page.locator("#property-arv")).to_have_text("$350,000")
    expect(page.locator("#property-rehab")).to_have_text("$30,000")
    expect(page.locator("#property-profit")).to_have_text("Potential Profit $120,000")
    roi = page.locator("#property-roi")
    expect(roi).to_have_text("18.4%")
    expect(roi).to_have_attribute("data-accent-color", "grass")
    expect(roi).to_have_class(re.compile(r"rt-variant-solid"))

    # Lead information
    expect(page.locator("#property-lead-type")).to_have_text("Probate")
    expect(page.locator("#property-source")).to_have_text("County Probate Records")
    expect(page.locator("#property-confidence")).to_have_text("92/100")
    expect(page.locator("#property-unlocked-at")).to_have_text(UNLOCKED_AT_TEXT)
    expect(page.locator("#property-credits-paid")).to_have_text("120 credits")
    expect(page.locator("#property-purchase-type")).to_have_text("Credits")

    # Images: primary + 3, the 4th says +2 more; the dialog has all 6.
    gallery = page.locator("#property-images")
    expect(gallery.locator("img")).to_have_count(4)
    expect(gallery.locator("img").first).to_have_attribute("src", listing_photos(key, 1)[0])
    expect(page.locator("#property-more-overlay")).to_have_text("+2 more")
    expect(gallery.locator("button").nth(3).locator("#property-more-overlay")).to_have_count(1)
    expect(page.locator("#property-image-status")).to_have_count(0)
    expect(page.get_by_role("button", name="View all photos", exact=True)).to_have_count(1)
    expect(page.get_by_role("button", name="+2 more, View all photos", exact=True)).to_have_count(1)
    expect(page.get_by_role("button", name="View photo", exact=True)).to_have_count(2)
    expect(gallery.locator("img").first).to_have_attribute("alt", "Property photo 1")
    page.locator("#property-more-overlay").click()
    dialog = page.locator("#property-gallery-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading")).to_have_text("All photos")
    expect(dialog).to_contain_text(f"6 photos of {address}")
    expect(dialog).not_to_contain_text("llustration")
    expect(dialog.locator("img")).to_have_count(6)
    expect(dialog.locator("img").last).to_have_attribute("src", listing_photos(key, 6)[5])
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)

    # External links: the listing from raw_data, a maps search, a web search; all in a new tab.
    full = quote_plus(f"{address}, Austin, TX 78704")
    listing = page.locator("#link-listing")
    expect(listing).to_have_attribute("href", LISTING)
    expect(listing).to_contain_text("View Listing")
    expect(page.locator("#link-maps")).to_have_attribute("href", f"https://www.google.com/maps/search/?api=1&query={full}")
    expect(page.locator("#link-web")).to_have_attribute("href", f"https://www.google.com/search?q={full}")
    for link_id in ("link-listing", "link-maps", "link-web"):
        link = page.locator(f"#{link_id}")
        expect(link).to_have_attribute("target", "_blank")
        expect(link).to_have_attribute("rel", re.compile(r"\bnoopener\b"))
    # A click opens a new tab and leaves this page where it was.
    page.context.route("https://www.google.com/**", lambda route: route.fulfill(status=200, body="maps"))
    with page.expect_popup() as popup:
        page.locator("#link-maps").click()
    assert popup.value.url.startswith("https://www.google.com/maps/search/")
    popup.value.close()
    expect(page).to_have_url(re.compile(rf"/property/{lead['id']}/?$"))


SECTIONS = ["property-address", "property-comps", "property-analyzer", "owner-contact", "property-pipeline",
            "property-figures-note"]
SECTION_BATCHES = """window.__sections = [];
new MutationObserver((records) => {
  const found = [];
  for (const record of records) for (const node of record.addedNodes) {
    if (node.nodeType !== 1) continue;
    for (const id of %s) if (node.id === id || node.querySelector("#" + id)) found.push(id);
  }
  if (found.length) window.__sections.push(found);
}).observe(document, {childList: true, subtree: true});"""


def test_the_page_renders_its_first_screen_then_each_section_below_in_a_task_of_its_own(page: Page, live_server,
                                                                                         make_user):
    """Issue 41: the page's data arrives in one piece; its top (address, pictures, figures) renders with it, then
    the comps, the deal desk, the owner contact, the pipeline and the closing note each in a task of its own, in page order
    (platform/ui/deferred.py), so a phone never renders the whole page in one task. Each batch is what one
    task added to the page (a MutationObserver's callback runs once per task)."""
    lead = make_lead(city="Austin", state="TX", zip_code="78704", lead_type="Probate", asking_price=200_000,
                     arv=350_000, rehab_estimate=30_000, roi=18.4, beds=3, baths=2, square_footage=1500,
                     credit_cost=120, is_active=True)
    store(live_server, lead)
    user = make_user(credits=1000)
    unlock(live_server, user, lead)
    signed_in(page, live_server, user)
    page.add_init_script(SECTION_BATCHES % json.dumps(SECTIONS))
    visit(page, f"/property/{lead['id']}")
    expect(page.locator("#property-figures-note")).to_be_visible()
    assert page.evaluate("window.__sections") == [[section] for section in SECTIONS]


def test_a_demo_lead_says_so_shows_one_labelled_illustration_and_links_to_no_listing(page: Page, live_server,
                                                                                     make_user):
    """Issue 24: a generated lead (as the built-in source makes it, untouched)."""
    lead = make_lead()
    assert lead["raw_data"]["generated"] is True and len(lead["image_urls"]) == 1
    store(live_server, lead)
    user = make_user(credits=1000)
    unlock(live_server, user, lead)
    signed_in(page, live_server, user)
    visit(page, f"/property/{lead['id']}")
    expect(page.locator("#property-address")).to_have_text(lead["address"], timeout=20000)
    expect(page.locator("#property-provenance")).to_have_text("Demo data (generated)")
    # The source was invented with the lead: never a record office it came from.
    expect(page.locator("#property-source")).to_have_text(f"{lead['source']} (invented for the demo, not a record)")
    gallery = page.locator("#property-images")
    expect(gallery.locator("img")).to_have_count(1)
    expect(gallery.locator("img")).to_have_attribute("src", lead["image_urls"][0])
    # The tile's visible note says what the picture is: the picture itself is decorative, and the
    # button's name carries the note (what a sighted user reads is what a screen reader announces).
    expect(gallery.locator("img")).to_have_attribute("alt", "")
    expect(page.locator("#property-picture-note")).to_have_text("Illustration, not a photo of this property")
    expect(page.locator("#property-picture-note")).to_be_visible()
    expect(page.locator("#property-more-overlay")).to_have_count(0)
    expect(page.get_by_role("button", name="View illustration: Illustration, not a photo of this property",
                            exact=True)).to_have_count(1)
    # The drawing is the lead's own: its key carries the lead's beds and square footage.
    assert lead["image_urls"][0] == illustration_url(str(lead["id"]), lead["beds"], lead["square_footage"])
    full = quote_plus(f"{lead['address']}, {lead['city']}, {lead['state']} {lead['zip_code']}")
    listing = page.locator("#link-listing")
    expect(listing).to_have_attribute("href", f"https://www.zillow.com/homes/{full}_rb/")
    expect(listing).to_contain_text("Search on Zillow")
    page.wait_for_function("() => [...document.querySelectorAll('#property-images img')]"
                           ".every((i) => i.complete && i.naturalWidth > 0)")
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(ARTIFACTS / f"issue24-demo-property-{width}.png"), full_page=False)
    page.locator("#property-image-primary").click()
    dialog = page.locator("#property-gallery-dialog")
    expect(dialog.get_by_role("heading")).to_have_text("Illustration")
    expect(dialog).to_contain_text("Illustration, not a photo of this property")
    expect(dialog.locator("img")).to_have_count(1)


def test_the_shell_shows_the_leads_drawing_before_any_script_where_the_gallery_shows_it(browser, page: Page,
                                                                                       live_server, make_user):
    """Issue 41: every /property/{id} is served the page's prerendered shell. With no script at all it
    already shows this lead's own drawing, labelled, as large as the gallery shows it; the page then
    shows the very same file in that place (a phone's largest paint comes with the HTML)."""
    lead = make_lead()
    store(live_server, lead)
    user = make_user(credits=1000)
    unlock(live_server, user, lead)

    with scriptless_page(browser, live_server.url, f"/property/{lead['id']}",
                         "/api/images/property-picture") as (bare, redirects):
        picture = bare.locator("#property-shell-picture")
        expect(picture).to_be_visible()
        expect(bare.get_by_text("Loading property details...")).to_be_visible()
        expect(bare.get_by_text("Illustration, not a photo of this property")).to_be_visible()
        wait_loaded(bare, "property-shell-picture")
        assert redirects == [lead["image_urls"][0]]
        box = picture.bounding_box()

    page.set_viewport_size({"width": 412, "height": 900})
    signed_in(page, live_server, user)
    visit(page, f"/property/{lead['id']}")
    shown = page.locator("#property-images img")
    expect(shown).to_have_attribute("src", lead["image_urls"][0], timeout=20000)
    page.wait_for_function("() => document.querySelector('#property-images img').complete")
    gallery_box = shown.bounding_box()
    # In its place, as wide, and never smaller (the gallery's would be the page's largest paint again).
    assert abs(gallery_box["width"] - box["width"]) <= 1 and abs(gallery_box["x"] - box["x"]) <= 1
    assert 0 <= box["height"] - gallery_box["height"] <= 0.02 * gallery_box["height"]
    expect(page.locator("#property-shell-picture")).to_have_count(0)


def test_loss_plain_roi_missing_numbers_and_listing_search(page: Page, live_server, make_user):
    loss = make_lead(
        city="Dallas", state="TX", zip_code="75201", asking_price=300_000, zestimate=310_000, arv=250_000,
        rehab_estimate=20_000, roi=15.0, image_urls=listing_photos(uuid.uuid4().hex[:12], 4),
        images_fetch_status="success", raw_data={"listing_url": "https://example.com/homes/1", "url": "http://www.zillow.com/x"},
    )
    unknown = make_lead(
        asking_price=150_000, zestimate=None, arv=None, rehab_estimate=25_000, roi=None, beds=None, baths=None,
        square_footage=None, confidence_score=None, credit_cost=None, raw_data={},
    )
    store(live_server, loss, unknown)
    user = make_user(credits=1000)
    unlock(live_server, user, loss)
    unlock(live_server, user, unknown)
    signed_in(page, live_server, user)
    serve_photos(page)

    visit(page, f"/property/{loss['id']}")
    expect(page.locator("#property-address")).to_have_text(loss["address"], timeout=20000)
    expect(page.locator("#property-profit")).to_have_text("Potential Loss $70,000")
    expect(page.locator("#property-profit-panel")).to_have_attribute("data-kind", "loss")
    roi = page.locator("#property-roi")
    expect(roi).to_have_text("15.0%")  # not above 15: not emphasised
    expect(roi).to_have_attribute("data-accent-color", "gray")
    expect(roi).to_have_class(re.compile(r"rt-variant-soft"))
    # Exactly 4 images: no overlay.
    expect(page.locator("#property-images img")).to_have_count(4)
    expect(page.locator("#property-more-overlay")).to_have_count(0)
    # Neither raw_data URL is an https URL on a listing site: a listing-site search instead.
    full = quote_plus(f"{loss['address']}, Dallas, TX 75201")
    listing = page.locator("#link-listing")
    expect(listing).to_have_attribute("href", f"https://www.zillow.com/homes/{full}_rb/")
    expect(listing).to_contain_text("Search on Zillow")
    expect(listing).to_have_attribute("target", "_blank")

    visit(page, f"/property/{unknown['id']}")
    expect(page.locator("#property-address")).to_have_text(unknown["address"], timeout=20000)
    expect(page.locator("#property-profit")).to_have_text("Potential Profit N/A")
    expect(page.locator("#property-arv")).to_have_text("N/A")
    expect(page.locator("#property-market-value")).to_have_text("N/A")
    expect(page.locator("#property-asking")).to_have_text("$150,000")
    expect(page.locator("#property-roi")).to_have_text("N/A")
    expect(page.locator("#property-roi")).to_have_attribute("data-accent-color", "gray")
    expect(page.locator("#property-beds")).to_have_text("N/A")
    expect(page.locator("#property-baths")).to_have_text("N/A")
    expect(page.locator("#property-sqft")).to_have_text("N/A")
    expect(page.locator("#property-confidence")).to_have_text("85/100")
    expect(page.locator("#property-credits-paid")).to_have_text("85 credits")


def test_image_placeholders_by_status_and_broken_images(page: Page, live_server, make_user):
    cases = {
        "pending": "Images are being verified",
        "failed": "Images could not be loaded",
        "no_images": "No images available",
    }
    leads = {status: make_lead(image_urls=[], images_fetch_status=status) for status in cases}
    # Only known hosts over HTTPS are shown; the one on our own host that 404s falls back to a
    # placeholder.
    broken = make_lead(
        image_urls=[*listing_photos("okhouse", 1), "https://evil.example.com/a.jpg",
                    "http://photos.zillowstatic.com/insecure.jpg", "/api/images/missing/0.png"],
        images_fetch_status="success",
    )
    store(live_server, *leads.values(), broken)
    user = make_user(credits=2000)
    for row in [*leads.values(), broken]:
        unlock(live_server, user, row)
    signed_in(page, live_server, user)
    serve_photos(page)

    for status, text in cases.items():
        visit(page, f"/property/{leads[status]['id']}")
        expect(page.locator("#property-address")).to_have_text(leads[status]["address"], timeout=20000)
        expect(page.locator("#property-image-status")).to_have_text(text)
        expect(page.locator("#property-images")).to_have_count(0)

    visit(page, f"/property/{broken['id']}")
    expect(page.locator("#property-address")).to_have_text(broken["address"], timeout=20000)
    gallery = page.locator("#property-images")
    expect(gallery.locator(".property-image-fallback")).to_have_count(1)
    expect(gallery.locator(".property-image-fallback")).to_have_text("Image unavailable")
    expect(gallery.locator("img")).to_have_count(1)
    expect(gallery.locator("img")).to_have_attribute("src", listing_photos("okhouse", 1)[0])
    html = page.content()
    assert "evil.example.com" not in html and "insecure.jpg" not in html


def test_listing_pictures_are_photos(page: Page, live_server, make_user):
    """Pictures from a listing source are photos; a lead waiting for pictures says photos will come."""
    urls = [f"https://photos.zillowstatic.com/fp/{uuid.uuid4().hex}-{n}.jpg" for n in range(2)]
    listed = make_lead(image_urls=urls, images_fetch_status="success")
    waiting = make_lead(image_urls=[], images_fetch_status="pending")
    store(live_server, listed, waiting)
    user = make_user(credits=1000)
    unlock(live_server, user, listed)
    unlock(live_server, user, waiting)
    page.context.route("https://photos.zillowstatic.com/**", lambda route: route.fulfill(
        status=200, content_type="image/svg+xml", body="<svg xmlns='http://www.w3.org/2000/svg'/>"))
    signed_in(page, live_server, user)

    visit(page, f"/property/{listed['id']}")
    expect(page.locator("#property-address")).to_have_text(listed["address"], timeout=20000)
    expect(page.get_by_role("button", name="View all photos", exact=True)).to_have_count(1)
    expect(page.get_by_role("button", name="View photo", exact=True)).to_have_count(1)
    page.locator("#property-image-primary").click()
    dialog = page.locator("#property-gallery-dialog")
    expect(dialog.get_by_role("heading")).to_have_text("All photos")
    expect(dialog).to_contain_text(f"2 photos of {listed['address']}")

    visit(page, f"/property/{waiting['id']}")
    expect(page.locator("#property-address")).to_have_text(waiting["address"], timeout=20000)
    expect(page.locator("#property-image-status")).to_have_text("Images are being verified")
    expect(page.locator("#property-pictures-later")).to_have_text("Photos appear here as soon as they are available.")


def test_archived_unlocked_lead_stays_readable(page: Page, live_server, make_user):
    lead = make_lead()
    store(live_server, lead)
    user = make_user(credits=1000)
    unlock(live_server, user, lead)
    with session_scope(live_server.database_url) as session:
        stored = session.get(Lead, lead["id"])
        stored.is_active = False
        session.add(stored)
    signed_in(page, live_server, user)
    visit(page, f"/property/{lead['id']}")
    expect(page.locator("#property-address")).to_have_text(lead["address"], timeout=20000)
    expect(page.locator("#property-archived")).to_have_text("Archived")


# --------------------------------------------------------------------------- not found


def test_lead_not_unlocked_by_this_user_is_never_sent(page: Page, live_server, make_user):
    lead = make_lead(raw_data={"owner_name": "Zebulon Quartermaine"})
    store(live_server, lead)
    owner = make_user(credits=1000)
    unlock(live_server, owner, lead)  # unlocked by someone else
    other = make_user(credits=1000)
    frames = record_frames(page)
    signed_in(page, live_server, other)
    visit(page, f"/property/{lead['id']}")
    expect_not_found(page, "You don't have access to this property")
    expect(page.locator("#property-login")).to_have_count(0)
    assert_never_sent(page, frames, lead["address"], "Zebulon Quartermaine")


def test_unknown_and_malformed_ids(page: Page, live_server, make_user):
    user = make_user(credits=0)
    signed_in(page, live_server, user)
    visit(page, f"/property/{uuid.uuid4()}")
    expect_not_found(page, "Property not found")
    visit(page, "/property/not-a-real-id")
    expect_not_found(page, "Property not found")
    page.locator("#property-back-marketplace").click()
    page.wait_for_url(re.compile(r"/marketplace/?$"))


def test_signed_out_visitor_gets_not_found_with_login(page: Page, live_server, make_user):
    lead = make_lead()
    store(live_server, lead)
    user = make_user(credits=1000)
    unlock(live_server, user, lead)
    frames = record_frames(page)
    visit(page, f"/property/{lead['id']}")
    expect_not_found(page, "Please log in to view this property.")
    login = page.locator("#property-login")
    expect(login).to_have_text("Login")
    expect(login).to_have_attribute("href", "/auth")
    assert_never_sent(page, frames, lead["address"])
    login.click()
    page.wait_for_url(re.compile(r"/auth/?$"))


def test_unreadable_lead_shows_load_failure(page: Page, live_server, make_user):
    lead = make_lead()
    store(live_server, lead)
    user = make_user(credits=1000)
    unlock(live_server, user, lead)
    # A corrupt unlock row (the live app's database is SQLite, where UUIDs are
    # stored as 32 hex digits): the timestamp cannot be parsed when it is read.
    with get_engine(live_server.database_url).begin() as conn:
        conn.execute(sa.text("UPDATE user_leads SET unlocked_at = 'garbage' WHERE user_id = :u"),
                     {"u": uuid.UUID(user["id"]).hex})
    signed_in(page, live_server, user)
    visit(page, f"/property/{lead['id']}")
    expect(page.locator("[data-sonner-toast]").filter(has_text="Failed to load property details.").first).to_be_visible(
        timeout=20000)
    expect(page.locator("#property-load-error")).to_have_text("Failed to load property details.")
    expect(page.locator("#property-content")).to_have_count(0)
    assert lead["address"] not in page.content()
