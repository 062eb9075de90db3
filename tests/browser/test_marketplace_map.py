"""/marketplace's Map view in Chromium (issue 15): the Grid | Map switch in the
URL, clusters with counts for the default filters, a marker's card that
unlocks (with the confirmation dialog), and, reading every websocket frame, no
locked lead's own coordinates ever sent to the browser (they arrive with the
unlock); the property page's small map.

The module works on a catalog of its own (like test_marketplace.py): the
leads other tests left active are switched off, ``CATALOG_SIZE`` built-in
leads inserted (three with an unknown ZIP code, one alone in Fairbanks, AK so
that its marker stands unclustered), and everything restored at the end.
"""

from __future__ import annotations

import json
import re
import uuid
from urllib.parse import parse_qs, urlparse

import pytest
import sqlalchemy as sa
from playwright.sync_api import Page, expect
from sqlmodel import select

from marketplace.features.marketplace import rules_map as lead_map
from marketplace.features.marketplace.rules_criteria import SearchCriteria
from marketplace.features.marketplace.rules import mask_address
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import Lead, UserLead
from marketplace.features.scrape import service_seeding as seeding
from marketplace.features.marketplace.service import rebuild_facets_now
from marketplace.features.scrape.source_builtin import BuiltinSource
from tests.browser.helpers import at_rest, expect_toast, reload, start_session, visit, wait_until

CATALOG_SIZE = 150
UNKNOWN_ZIP = 3
# Fairbanks, AK (ZIP 99701, centre 64.836, -147.710): far from every other lead.
LONE = dict(city="Fairbanks", state="AK", zip_code="99701", latitude=64.8512345, longitude=-147.7234567,
            lead_type="Probate", credit_cost=120, roi=12.5)


def _set_active(url: str, ids: list, active: bool) -> None:
    leads = Lead.__table__
    with get_engine(url).begin() as conn:
        for start in range(0, len(ids), 500):
            conn.execute(sa.update(leads).where(leads.c.id.in_(ids[start:start + 500])).values(is_active=active))
    rebuild_facets_now(url)


@pytest.fixture(scope="module")
def catalog(live_server):
    url = live_server.database_url
    rows = BuiltinSource(seed=9151).search(SearchCriteria(count=CATALOG_SIZE))
    for row in rows:
        row["external_id"] = f"map-test:{row['id']}"
    for row in rows[:UNKNOWN_ZIP]:
        row["zip_code"] = "00000"  # not a ZIP: locked, it cannot be placed
    rows[-1].update(LONE)
    with session_scope(url) as session:
        previously_active = session.exec(select(Lead.id).where(Lead.is_active == sa.true())).all()
    _set_active(url, list(previously_active), False)
    seeding.insert_leads(rows, url)
    try:
        yield {str(r["id"]): r for r in rows}
    finally:
        ids = [r["id"] for r in rows]
        with get_engine(url).begin() as conn:
            conn.execute(sa.delete(UserLead.__table__).where(UserLead.__table__.c.lead_id.in_(ids)))
            conn.execute(sa.delete(Lead.__table__).where(Lead.__table__.c.id.in_(ids)))
        _set_active(url, list(previously_active), True)


def collect_frames(page: Page) -> list[str]:
    frames: list[str] = []

    def on_socket(ws):
        ws.on("framereceived", lambda payload: frames.append(
            payload if isinstance(payload, str) else payload.decode("utf-8", "replace")))

    page.on("websocket", on_socket)
    return frames


def own_coordinate_texts(row: dict) -> list[str]:
    """How a lead's own latitude/longitude would read in a frame (JSON numbers, 4-6 decimals)."""
    texts = []
    for value in (row["latitude"], row["longitude"]):
        for decimals in (4, 5, 6):
            text = json.dumps(round(value, decimals))
            if len(text.split(".")[-1]) > lead_map.CENTRE_DECIMALS:  # finer than any ZIP centre
                texts.append(text)
    return texts


def expect_query(page: Page, expected: dict) -> None:
    """The address bar's query becomes ``expected`` (it is rewritten just after the view updates)."""
    wait_until(lambda: parse_qs(urlparse(page.url).query) == expected, page=page, every=0.25,
               message=f"the address bar's query is {parse_qs(urlparse(page.url).query)}, not {expected}")


def map_ready(page: Page, count: int) -> None:
    expect(page.locator("[data-count]").filter(has=page.locator("#marketplace-map"))).to_have_attribute(
        "data-count", str(count))
    expect(page.locator("#marketplace-map .lv-map-cluster, #marketplace-map .lv-map-pin").first).to_be_visible()


def cluster_total(page: Page, expected: int) -> int:
    """The leads in the clusters plus the single markers shown, once the map settled
    (while it zooms, the clusters of two zoom levels are briefly both on screen)."""
    def total() -> int:
        counts = page.locator("#marketplace-map .lv-map-cluster span:first-child").all_text_contents()
        singles = page.locator("#marketplace-map .lv-map-pin").count()
        return sum(int(c.replace(",", "")) for c in counts) + singles

    try:
        wait_until(lambda: total() == expected, page=page, every=0.25)
    except AssertionError:
        pass  # the caller asserts the figure it gets
    return total()


def test_map_from_the_url_shows_clusters_with_counts(page: Page, catalog):
    frames = collect_frames(page)
    visit(page, "/marketplace?view=map&page=3&per_page=50")
    placed = CATALOG_SIZE - UNKNOWN_ZIP
    map_ready(page, placed)
    # The page number means nothing on the map: the address bar drops it, keeps the rest.
    expect(page).to_have_url(re.compile(r"/marketplace\?per_page=50&view=map$"))
    expect(page.locator("#view-map")).to_have_attribute("data-state", "on")
    expect(page.locator("#lead-grid")).to_have_count(0)
    expect(page.locator("#pagination")).to_have_count(0)
    # No page size on the map (it shows every match); the sort stays: it picks the leads when capped.
    expect(page.locator("#page-size-select")).to_have_count(0)
    expect(page.locator("#sort-select")).to_be_visible()
    expect(page.locator("#map-caption")).to_have_text(
        f"{placed} leads on the map. 3 leads without a known location are not on the map.")
    # Clusters with a count each, and every placed lead is in one of them or on its own.
    clusters = page.locator("#marketplace-map .lv-map-cluster")
    expect(clusters.first).to_be_visible()
    expect(clusters.first).to_have_text(re.compile(r"^\d[\d,]* leads, zoom in$"))
    assert cluster_total(page, placed) == placed
    # The lone Fairbanks lead stands on its own, at its ZIP centre (a locked marker).
    lone_id = next(i for i, r in catalog.items() if r["city"] == "Fairbanks")
    lone = page.locator(f"#marketplace-map .lv-map-pin[data-lead='{lead_map.lead_token(lone_id)}']")
    expect(lone).to_have_attribute("title", "Locked lead, ZIP code area: open its card")
    expect(lone).to_have_class(re.compile("lv-map-pin-locked"))

    # A visitor's marker card: the grid's card, address masked, Login.
    lone.click()
    expect(page.locator("#map-card-panel")).to_be_visible()
    expect(page.locator(f"#lead-address-{lone_id}")).to_have_text(mask_address(catalog[lone_id]["address"]))
    expect(page.locator(f"#lead-action-{lone_id}")).to_have_text("Login")
    expect(page.locator(f"#lead-action-{lone_id}")).to_have_attribute("href", "/auth")
    expect(lone).to_have_class(re.compile("lv-map-pin-selected"))

    payload = "\n".join(frames)
    assert frames, "no websocket frames were recorded"
    for row in catalog.values():
        for text in own_coordinate_texts(row):
            assert text not in payload, f"a locked lead's own coordinate {text} reached the browser"


def test_switch_keeps_the_view_with_the_filters(page: Page, catalog):
    visit(page, "/marketplace?type=Probate")
    expect(page.locator("#lead-grid")).to_be_visible(timeout=30000)
    page.locator("#view-map").click()
    probate = [r for r in catalog.values() if r["lead_type"] == "Probate" and r["zip_code"] != "00000"]
    map_ready(page, len(probate))
    expect_query(page, {"type": ["Probate"], "view": ["map"]})
    # A filter change keeps the map; so does a reload.
    page.locator("#filter-group-type").click()
    page.locator("#filter-type-Auction").click()
    page.keyboard.press("Escape")
    both = [r for r in catalog.values() if r["lead_type"] in ("Probate", "Auction") and r["zip_code"] != "00000"]
    map_ready(page, len(both))
    expect_query(page, {"type": ["Probate", "Auction"], "view": ["map"]})
    reload(page)
    map_ready(page, len(both))
    expect_query(page, {"type": ["Probate", "Auction"], "view": ["map"]})
    page.locator("#view-grid").click()
    expect(page.locator("#lead-grid")).to_be_visible()
    expect(page.locator("#marketplace-map")).to_have_count(0)
    expect(page.locator("#page-size-select")).to_be_visible()
    expect_query(page, {"type": ["Probate", "Auction"]})


def test_marker_opens_from_the_keyboard(page: Page, catalog):
    """Enter and Space on a focused marker open its card like a click; Space does not scroll."""
    visit(page, "/marketplace?view=map")
    map_ready(page, CATALOG_SIZE - UNKNOWN_ZIP)
    lone_id = next(i for i, r in catalog.items() if r["city"] == "Fairbanks")
    marker = page.locator(f"#marketplace-map .lv-map-pin[data-lead='{lead_map.lead_token(lone_id)}']")
    panel = page.locator("#map-card-panel")
    # An opened card is brought on screen with its action (issue 24 #13), the same for both keys:
    # Space does not also scroll the page down.
    scrolled = {}
    for key in ("Enter", " "):
        page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
        marker.focus()
        expect(marker).to_be_focused()
        page.keyboard.press(key)
        expect(panel).to_be_visible()
        expect(page.locator(f"#lead-action-{lone_id}")).to_have_text("Login")
        expect(marker).to_have_class(re.compile("lv-map-pin-selected"))
        expect(page.locator(f"#lead-action-{lone_id}")).to_be_in_viewport()  # the card brought on screen
        at_rest(page)  # smooth scrolling over
        scrolled[key] = page.evaluate("window.scrollY")
        page.locator("#map-card-close").click()
        expect(panel).to_have_count(0)
    assert scrolled["Enter"] == scrolled[" "], f"Space scrolled the page: {scrolled}"


def test_map_card_stays_under_the_header_and_filter_bar(page: Page, catalog):
    """Scrolled, the card panel (and the map) passes under the sticky header and filter bar."""
    visit(page, "/marketplace?view=map")
    map_ready(page, CATALOG_SIZE - UNKNOWN_ZIP)
    lone_id = next(i for i, r in catalog.items() if r["city"] == "Fairbanks")
    page.locator(f"#marketplace-map .lv-map-pin[data-lead='{lead_map.lead_token(lone_id)}']").click()
    panel = page.locator("#map-card-panel")
    expect(panel).to_be_visible()
    expect(panel).to_be_in_viewport()  # the card has been brought on screen (issue 24 #13)
    at_rest(page)
    # Scroll until the panel's top is just under the viewport's top: it spans the header and the bar.
    page.evaluate("window.scrollBy({top: document.getElementById('map-card-panel').getBoundingClientRect().top - 8,"
                  " behavior: 'instant'})")
    at_rest(page)
    boxes = page.evaluate("""() => {
        const r = (el) => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
        return {panel: r(document.getElementById('map-card-panel')), header: r(document.querySelector('.lv-header')),
                bar: r(document.getElementById('filter-bar'))};
    }""")
    left, top, right, bottom = boxes["panel"]
    assert top <= boxes["header"][1] + 10 and bottom > boxes["bar"][3], boxes  # the panel is under both
    covered = page.evaluate("""([boxes, xs]) => {
        const hits = [];
        for (const name of ['header', 'bar']) {
            const [, top, , bottom] = boxes[name];
            for (let y = top + 2; y < bottom - 1; y += 6) {
                for (const x of xs) {
                    const el = document.elementFromPoint(x, y);
                    if (!el || el.closest('.lv-map-wrap')) hits.push([name, x, Math.round(y)]);
                }
            }
        }
        return hits;
    }""", [boxes, [left + 4, (left + right) / 2, right - 4]])
    assert covered == [], f"the map paints over the header or filter bar at {covered[:5]}"


@pytest.mark.parametrize("width,height", [(1280, 800), (375, 740)])
def test_map_card_fits_with_its_action_below_the_filter_bar(page: Page, catalog, live_server, make_user,
                                                           width, height):
    """Issue 24 #13: the opened card's top is below the sticky filter bar and its action
    (Login, Unlock) is on screen, on a laptop and on a phone, signed out and in."""
    page.set_viewport_size({"width": width, "height": height})
    lone_id = next(i for i, r in catalog.items() if r["city"] == "Fairbanks")
    for label in ("Login", re.compile(r"^Unlock for \d+ credits$")):
        visit(page, "/marketplace?view=map")
        map_ready(page, CATALOG_SIZE - UNKNOWN_ZIP)
        page.locator(f"#marketplace-map .lv-map-pin[data-lead='{lead_map.lead_token(lone_id)}']").click()
        action = page.locator(f"#lead-action-{lone_id}")
        expect(action).to_have_text(label)
        expect(action).to_be_in_viewport()  # the panel is brought on screen once rendered
        at_rest(page)
        box = page.evaluate("""(id) => {
            const r = (el) => el.getBoundingClientRect();
            const a = r(document.getElementById('lead-action-' + id)), p = r(document.getElementById('map-card-panel'));
            return {action: [a.top, a.bottom], panel_top: p.top, bar: r(document.getElementById('filter-bar')).bottom,
                    height: window.innerHeight};
        }""", lone_id)
        assert box["bar"] <= box["action"][0] and box["action"][1] <= box["height"], box
        if width > 640:  # over the map: the whole panel is below the bar
            assert box["panel_top"] >= box["bar"], box
        hit = page.evaluate("""(id) => { const a = document.getElementById('lead-action-' + id).getBoundingClientRect();
            return document.elementFromPoint(a.left + a.width / 2, a.top + a.height / 2)?.closest('#lead-action-' + id) !== null; }""",
                            lone_id)
        assert hit, "the action is covered"
        start_session(page, live_server.database_url, make_user(credits=500)["id"])


def test_marker_card_unlocks_and_the_marker_moves(page: Page, catalog, live_server, make_user):
    url = live_server.database_url
    user = make_user(credits=500)
    start_session(page, url, user["id"])
    frames = collect_frames(page)
    visit(page, "/marketplace?view=map")
    map_ready(page, CATALOG_SIZE - UNKNOWN_ZIP)
    lone_id = next(i for i, r in catalog.items() if r["city"] == "Fairbanks")
    token = lead_map.lead_token(lone_id)
    marker = page.locator(f"#marketplace-map .lv-map-pin[data-lead='{token}']")
    marker.click()

    panel = page.locator("#map-card-panel")
    expect(panel).to_be_visible()
    expect(page.locator(f"#lead-address-{lone_id}")).to_have_text(mask_address(catalog[lone_id]["address"]))
    expect(page.locator(f"#lead-city-{lone_id}")).to_have_text("Fairbanks, AK 99701")
    expect(marker).to_have_class(re.compile("lv-map-pin-selected"))
    button = page.locator(f"#lead-action-{lone_id}")
    expect(button).to_have_text("Unlock for 120 credits")
    before = "\n".join(frames)
    for text in own_coordinate_texts(catalog[lone_id]):
        assert text not in before

    button.click()
    # 120 credits reach the default threshold: the page's one confirmation dialog asks first.
    expect(page.locator("#unlock-confirm-lead")).to_have_text("Probate lead in Fairbanks, AK 99701")
    page.locator("#unlock-confirm-ok").click()
    expect_toast(page, "Lead Unlocked!", "Lead unlocked for 120 credits. 380 credits remaining.")
    expect(button).to_have_text("View Details")
    expect(button).to_have_attribute("href", f"/property/{lone_id}")
    expect(page.locator(f"#lead-address-{lone_id}")).to_have_text(catalog[lone_id]["address"])
    with session_scope(url) as s:
        assert s.exec(select(UserLead).where(UserLead.lead_id == uuid.UUID(lone_id))).one().credit_cost == 120

    # The marker moved to the lead's own coordinates: they reached the browser only now.
    expect(marker).to_have_class(re.compile("lv-map-pin-selected"))
    after = "\n".join(frames)
    assert json.dumps(round(LONE["latitude"], 5)) in after and json.dumps(round(LONE["longitude"], 5)) in after
    position = page.evaluate(
        "token => { const el = document.querySelector(`.lv-map-pin[data-lead='${token}']`);"
        " return el && el.style.transform; }", token)
    assert position  # placed by Leaflet
    for lead_id, row in catalog.items():
        if lead_id != lone_id:
            for text in own_coordinate_texts(row):
                assert text not in after

    page.locator("#map-card-close").click()
    expect(panel).to_have_count(0)
    expect(marker).to_have_class(re.compile("lv-map-pin-open"))


def test_marker_card_without_enough_credits(page: Page, catalog, live_server, make_user):
    user = make_user(credits=10)
    start_session(page, live_server.database_url, user["id"])
    visit(page, "/marketplace?view=map")
    map_ready(page, CATALOG_SIZE - UNKNOWN_ZIP)
    lone_id = next(i for i, r in catalog.items() if r["city"] == "Fairbanks")
    page.locator(f"#marketplace-map .lv-map-pin[data-lead='{lead_map.lead_token(lone_id)}']").click()
    action = page.locator(f"#lead-action-{lone_id}")
    expect(action).to_have_text("Insufficient Credits - Buy More")
    expect(action).to_have_attribute("href", "/purchase-credits")


def test_property_page_small_map(page: Page, catalog, live_server, make_user):
    from marketplace.features.unlock.service import unlock_lead

    user = make_user(credits=500)
    lead_id = next(i for i, r in catalog.items() if r["zip_code"] not in ("00000", "99701"))
    unlock_lead(uuid.UUID(user["id"]), lead_id, database_url=live_server.database_url)
    start_session(page, live_server.database_url, user["id"])
    visit(page, f"/property/{lead_id}")
    small = page.locator("#property-map")
    expect(small).to_have_attribute("data-count", "1")
    small.scroll_into_view_if_needed()  # the map loads as it nears the viewport (assets/lead_map_deferred.jsx)
    expect(small.locator(".lv-map-pin-open")).to_be_visible()
    row = catalog[lead_id]
    expect(small).to_have_attribute("aria-label", f"Map: {row['address']}, {row['city']}, {row['state']} {row['zip_code']}")


def test_property_page_map_loads_only_when_scrolled_near_on_a_phone(page: Page, catalog, live_server, make_user):
    """Issue 41: the Location card is far below the fold on a phone; its map (Leaflet, ~80 KB of script) loads
    when the card nears the viewport, not with the page. A box of the map's size holds its place meanwhile."""
    from marketplace.features.unlock.service import unlock_lead

    user = make_user(credits=500)
    lead_id = next(i for i, r in catalog.items() if r["zip_code"] not in ("00000", "99701"))
    unlock_lead(uuid.UUID(user["id"]), lead_id, database_url=live_server.database_url)
    map_scripts: list[str] = []
    page.on("request", lambda request: map_scripts.append(request.url)
            if re.search(r"/assets/lead_map-[^/]*\.js$", request.url) else None)
    page.set_viewport_size({"width": 375, "height": 740})
    start_session(page, live_server.database_url, user["id"])
    visit(page, f"/property/{lead_id}")
    small = page.locator("#property-map")
    expect(small).to_have_attribute("data-count", "1")
    waiting = small.locator("[data-map-deferred='true']")
    expect(waiting).to_have_count(1)
    assert waiting.bounding_box()["height"] == 200  # the small map's height on a phone (lead_map.css)
    assert small.locator(".leaflet-container").count() == 0 and map_scripts == []
    small.scroll_into_view_if_needed()
    expect(small.locator(".lv-map-pin-open")).to_be_visible()
    expect(waiting).to_have_count(0)
    assert len(map_scripts) == 1, map_scripts
