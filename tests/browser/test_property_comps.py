"""/property/{id}: the Comparable Sales card (issue 25, item 1). A built-in (demo) lead's synthetic sales:
pin three, see the ARV change and survive a reload; a lead the user has not unlocked gets no comps,
whatever events are sent by hand."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone

import sqlalchemy as sa
from playwright.sync_api import Page, expect

from marketplace.features.property import rules_comps as rules
from marketplace.features.marketplace.rules import usd
from marketplace.platform.db import get_engine
from marketplace.platform.models import CompChoice
from marketplace.features.property import service_comps as comps
from marketplace.features.property.source_builtin_comps import BuiltinComps
from marketplace.features.property.source_comps import LeadFacts
from marketplace.features.property.state import PropertyState
from marketplace.features.property.state_comps import PropertyCompsState
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import reload, visit
from tests.browser.leads import make_lead, signed_in, store, unlock
from tests.browser.ws_events import EventChannel


def _selection(row: dict) -> tuple[rules.Selection, list[rules.Comp]]:
    facts = LeadFacts(row["id"], row["address"], row["city"], row["state"], row["zip_code"][:5], row["latitude"],
                      row["longitude"], row["square_footage"], row["beds"], row["baths"], "Single Family",
                      row["created_at"].date())
    sales = BuiltinComps().sales_near(facts, datetime.now(timezone.utc).date())
    subject = rules.Subject(row["latitude"], row["longitude"], row["square_footage"], row["beds"], "Single Family")
    return rules.select_comps(subject, sales, datetime.now(timezone.utc).date()), sales


def lead_with_comps(minimum: int = 4, outliers: int = 0, maximum: int = 999) -> dict:
    """A demo lead whose synthetic history gives ``minimum`` to ``maximum`` selected sales, with at least
    ``outliers`` of them outliers."""
    for _ in range(400):
        row = make_lead(square_footage=1_600, beds=3)
        selection = _selection(row)[0]
        if minimum <= len(selection.comps) <= maximum and len(rules.outliers(selection.comps)) >= outliers:
            return row
    raise AssertionError("no demo lead with enough comparable sales in 400 tries")


def choices(live_server, lead_id) -> int:
    """Stored comp choices of the lead (by anyone)."""
    table = CompChoice.__table__
    with get_engine(live_server.database_url).connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(table).where(table.c.lead_id == lead_id)).scalar()


def test_pin_three_comps_and_the_arv_changes_and_survives_a_reload(page: Page, live_server, make_user):
    row = lead_with_comps(outliers=1, maximum=10)  # one page: every outlier shows when asked for
    store(live_server, row)
    user = make_user(credits=1000)
    unlock(live_server, user, row)
    signed_in(page, live_server, user)
    visit(page, f"/property/{row['id']}")

    card = page.locator("#property-comps")
    expect(card.locator("#comps-table")).to_be_visible(timeout=30000)
    selection, _ = _selection(row)
    expect(card.locator("#comps-note")).to_have_text(selection.note)
    expect(card.locator("#comps-basis")).to_contain_text("Demo data (generated)")
    rows = card.locator("tr.comps-row")
    expect(rows.first.locator("td").first).to_contain_text("(demo)")

    # Unpin every pinned sale: no ARV.
    pinned = card.locator("tr.comps-row[data-pinned='1'] .comps-pin")
    while (left := pinned.count()):
        pinned.first.click()
        expect(pinned).to_have_count(left - 1)
    expect(card.locator("#comps-arv")).to_have_text("N/A")
    expect(card.locator("#comps-arv-basis")).to_have_text("N/A: pin at least one sale to compute an ARV")

    # Pin the first three rows: their median $/sqft x 1,600 sqft.
    ids = [rows.nth(i).get_attribute("data-id") for i in range(3)]
    for comp_id in ids:
        button = card.locator(f"tr.comps-row[data-id='{comp_id}'] .comps-pin")
        assert button.get_attribute("aria-label").startswith("Pin ")
        button.click()
        expect(card.locator(f"tr.comps-row[data-id='{comp_id}']")).to_have_attribute("data-pinned", "1")
        assert card.locator(f"tr.comps-row[data-id='{comp_id}'] .comps-pin").get_attribute(
            "aria-label").startswith("Unpin ")
    chosen = [s for s in selection.comps if s.comp.comp_id in ids]
    expected = rules.pinned_arv(1_600, chosen)
    expect(card.locator("#comps-arv")).to_have_text(usd(expected.value))
    expect(card.locator("#comps-arv-range")).to_have_text(f"Low-high: {usd(expected.low)} - {usd(expected.high)}")
    expect(card.locator("#comps-arv-basis")).to_have_text(expected.basis)
    expect(card.locator("#comps-pinned-count")).to_have_text("3 pinned")
    stored = comps.comp_arv(uuid.UUID(user["id"]), row["id"], live_server.database_url)
    assert (stored.value, stored.low, stored.high, stored.count) == (expected.value, expected.low, expected.high, 3)

    # The analyzer offers the pinned sales' ARV (it never replaces the user's figure by itself).
    offer = page.locator("#analyzer-comps-arv")
    expect(offer).to_have_text(f"Comparable sales give {usd(expected.value)} ({usd(expected.low)}-"
                               f"{usd(expected.high)}): {expected.basis}")
    arv_input = page.locator("#analyzer-arv-input")
    before = arv_input.input_value()
    assert before.replace(",", "") != str(expected.value)
    page.locator("#analyzer-use-comps-arv").click()
    expect(arv_input).to_have_value(str(expected.value))

    ARTIFACTS.mkdir(exist_ok=True)
    card.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "property-comps-1280.png"), full_page=True)

    # A reload restores the choice.
    reload(page)
    expect(card.locator("#comps-arv")).to_have_text(usd(expected.value), timeout=30000)
    expect(card.locator("tr.comps-row[data-pinned='1']")).to_have_count(3)
    assert sorted(card.locator("tr.comps-row[data-pinned='1']").evaluate_all(
        "rows => rows.map(r => r.dataset.id)")) == sorted(ids)
    expect(card.locator("#comps-map")).to_have_attribute("data-count", str(1 + rows.count()))

    # Outliers are hidden until asked for, and never pinned by default.
    hidden = rules.outliers(selection.comps)
    toggle = card.locator("#comps-outliers-toggle")
    label = f"Show {len(hidden)} outlier{'' if len(hidden) == 1 else 's'}"
    expect(toggle).to_have_text(label)
    expect(card.locator("tr.comps-row[data-outlier='1']")).to_have_count(0)
    toggle.click()
    expect(toggle).to_have_text("Hide outliers")
    shown = card.locator("tr.comps-row[data-outlier='1']")
    expect(shown).to_have_count(len(hidden))
    expect(shown.first).to_have_attribute("data-pinned", "")
    expect(shown.first.get_by_text("Outlier", exact=True)).to_be_visible()
    toggle.click()
    expect(toggle).to_have_text(label)

    page.set_viewport_size({"width": 375, "height": 800})
    expect(card.locator("#comps-arv")).to_have_text(usd(expected.value))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways at 375 px ({width} px)"
    card.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "property-comps-375.png"), full_page=True)


def test_a_locked_leads_comps_are_unreachable_by_url_and_hand_sent_events(page: Page, live_server, make_user):
    row = lead_with_comps(minimum=1)
    store(live_server, row)
    owner = make_user(credits=1000)
    unlock(live_server, owner, row)
    _, sales = _selection(row)
    other = make_user(credits=1000)
    channel = EventChannel(page)
    signed_in(page, live_server, other)
    visit(page, f"/property/{row['id']}")
    expect(page.locator("#property-not-found-message")).to_have_text("You don't have access to this property",
                                                                    timeout=20000)
    expect(page.locator("#property-comps")).to_have_count(0)

    name = PropertyCompsState.get_full_name()
    start = channel.emit(f"{PropertyState.get_full_name()}.load")  # the page's one load, sent again
    assert channel.wait_for(lambda text: "comps_status" in text, start)  # the events do reach the state
    for sale in sales[:5]:
        channel.emit(f"{name}.toggle_pin", {"comp_id": sale.comp_id})
    channel.emit(f"{name}.toggle_outliers")
    channel.emit(f"{name}.comps_go", {"delta": 1})
    # A tab's events are handled in order: once the load sent after them is answered, they were handled.
    mark = channel.emit(f"{PropertyState.get_full_name()}.load")
    assert channel.wait_for(lambda text: "comps_status" in text, mark)
    received = channel.text_since(start)
    assert "comps_status" in received  # the events did reach the state
    for sale in sales:
        assert sale.address not in received and sale.comp_id not in received
    assert choices(live_server, row["id"]) == 0
    expect(page.locator("#property-comps")).to_have_count(0)
