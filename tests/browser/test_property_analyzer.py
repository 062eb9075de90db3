"""The property page's Deal Analyzer and Settings > Deal defaults, in Chromium against the prod app.

The hand-computed case (a lead asking $200,000, ARV $350,000, rehab estimate $30,000; built-in defaults:
hard money 90 % of cost at 12 % and 2 points, 6-month hold, 2 % buying and 8 % selling costs, 20 % down at
7 % for 30 years, vacancy 8 %, management 8 %, maintenance 5 %, capex 5 %; targets $25,000 profit, 15 % ROI,
DSCR 1.25). The user types a $1,000 monthly holding cost, splits the rehab into Roof $20,000 and Kitchen
$10,000, and a rent of $2,500/month with $3,000 tax and $1,200 insurance a year:

- flip: loan 0.9 x 230,000 = 207,000; points 4,140; interest 207,000 x 1 % x 6 = 12,420; total cost
  200,000 + 30,000 + 4,000 + 6,000 + 4,140 + 12,420 + 28,000 = 284,560; profit 350,000 - 284,560 = $65,440;
  cash in 230,000 - 207,000 + 4,000 + 6,000 + 4,140 + 12,420 = $49,560; cash-on-cash 65,440 / 49,560 = 132.0 %.
- rental: NOI 30,000 - 2,400 - (3,000 + 1,200 + 18 % x 30,000) = $18,000; payment on 160,000 at 7 %/30 y is
  1,064.48 a month, 12,773.76 a year; DSCR 18,000 / 12,773.76 = 1.41.
- maximum offer: 70 % rule 0.70 x 350,000 - 30,000 = $215,000. At price p the total cost is 1.092 p + 66,160;
  profit >= 25,000 up to p = 258,840 / 1.092 = 237,032; ROI >= 15 % up to 273,916 / 1.2558 = 218,120;
  DSCR >= 1.25 up to 14,400 / (12 x 0.8 x 0.0066530) = 225,461. The ROI binds: $218,120.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import sqlalchemy as sa
from playwright.sync_api import Page, expect

from marketplace.features.property.state_analyzer import SAVE_DELAY
from marketplace.features.property.rules_deal.estimates import lead_estimates
from marketplace.features.marketplace.rules import usd
from marketplace.platform.pdf import page_text
from marketplace.platform.db import session_scope
from marketplace.platform.models import DealAnalysisRow, DealDefaultsRow
from marketplace.features.property import service_deals as deals
from marketplace.platform import downloads
from marketplace.features.property.state_analyzer import AnalyzerState
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import expect_toast, reload, stays, visit
from tests.browser.leads import make_lead, signed_in, store, unlock
from tests.browser.ws_events import EventChannel

SAVED = re.compile(r"^Saved .+")


def field(page: Page, key: str):
    return page.locator(f"#analyzer-{key}-input")


def analyzer_lead(live_server, make_user, **overrides):
    lead = make_lead(asking_price=200_000, zestimate=265_000, arv=350_000, rehab_estimate=30_000, is_active=True,
                     address=f"{uuid.uuid4().int % 9000 + 100} Analyzer Way", **overrides)
    store(live_server, lead)
    user = make_user(credits=1000)
    unlock(live_server, user, lead)
    return user, lead


def open_analyzer(page: Page, lead: dict) -> None:
    visit(page, f"/property/{lead['id']}")
    expect(page.locator("#property-analyzer")).to_be_visible(timeout=30000)
    expect(field(page, "purchase_price")).to_have_value("200,000")


def saved_rows(live_server, user: dict) -> list[dict]:
    with session_scope(live_server.database_url) as s:
        rows = s.execute(sa.select(DealAnalysisRow.__table__.c.inputs)
                         .where(DealAnalysisRow.__table__.c.user_id == uuid.UUID(user["id"]))).all()
    return [row[0] for row in rows]


def type_into(page: Page, key: str, typed: str) -> None:
    """Key by key, as a user types over what the field showed."""
    box = field(page, key)
    box.click()
    box.press("Control+A")
    box.press_sequentially(typed, delay=25)


def type_hand_case(page: Page) -> None:
    type_into(page, "monthly_holding_cost", "1,000")
    page.locator("#analyzer-line-0-label").fill("Roof")
    page.locator("#analyzer-line-0-amount").fill("20,000")
    page.locator("#analyzer-add-line").click()
    expect(page.locator("#analyzer-line-1-label")).to_have_value("New item")
    page.locator("#analyzer-line-1-label").fill("Kitchen")
    page.locator("#analyzer-line-1-amount").fill("10,000")


def test_typing_updates_every_strategy_and_the_analysis_is_saved(page: Page, live_server, make_user):
    user, lead = analyzer_lead(live_server, make_user)
    signed_in(page, live_server, user)
    open_analyzer(page, lead)
    expect(page.locator("#analyzer-save-status")).to_have_text(
        "Not saved yet: starts from the lead's figures and your defaults.")
    expect(page.locator("#analyzer-arv-basis")).to_have_text(
        "Starts at the default: Lead's ARV estimate ($350,000): the lead's market value x a renovation uplift, "
        "from its source. Not from comparable sales.")
    # The lead's figures before any typing: profit 350,000 - 278,560, less 6 months of the estimated taxes and
    # insurance (property.rules_deal.estimates: the holding cost never starts at $0)
    holding = lead_estimates(lead["zestimate"], lead["asking_price"], lead["state"])["monthly_holding_cost"]
    assert holding.value > 0
    expect(page.locator("#analyzer-monthly_holding_cost-basis")).to_have_text("Starts at an estimate: " + holding.basis)
    expect(page.locator("#analyzer-flip_profit")).to_have_text(usd(71_440 - 6 * holding.value))

    type_hand_case(page)
    expect(page.locator("#analyzer-rehab-total")).to_have_text("$30,000")
    expect(page.locator("#analyzer-flip_profit")).to_have_text("$65,440")
    expect(page.locator("#analyzer-flip_profit-how")).to_have_text("ARV $350,000 - total project cost $284,560")
    expect(page.locator("#analyzer-flip_cash_in")).to_have_text("$49,560")
    expect(page.locator("#analyzer-flip_coc")).to_have_text("132.0%")

    page.locator("#analyzer-tab-rental").click()
    type_into(page, "monthly_rent", "2500")
    field(page, "property_tax_annual").fill("3000")
    field(page, "insurance_annual").fill("1,200")
    expect(page.locator("#analyzer-rental_noi")).to_have_text("$18,000")
    expect(page.locator("#analyzer-rental_dscr")).to_have_text("1.41")
    expect(page.locator("#analyzer-rental_dscr-how")).to_have_text("NOI / yearly mortgage payments $12,774")

    page.locator("#analyzer-tab-offer").click()
    expect(page.locator("#analyzer-offer_rule_70")).to_have_text("$215,000")
    expect(page.locator("#analyzer-offer_max")).to_have_text("$218,120")
    expect(page.locator("#analyzer-offer-note")).to_have_text("Minimum ROI sets the maximum offer.")
    expect(page.locator("#analyzer-offer-targets li")).to_have_text(
        ["Minimum profit: $237,032", "Minimum ROI: $218,120", "Minimum DSCR: $225,461"])

    # A problem shows next to its field; the results keep the last valid figures and nothing is saved.
    field(page, "min_dscr").fill("11")
    expect(page.locator("#analyzer-min_dscr-error")).to_have_text("Minimum DSCR must be a ratio from 0 to 10.")
    expect(field(page, "min_dscr")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#analyzer-save-status")).to_have_text("Not saved: fix the marked fields.")
    field(page, "min_dscr").fill("")  # no DSCR target: profit and ROI remain
    expect(page.locator("#analyzer-min_dscr-error")).to_have_text("")
    expect(page.locator("#analyzer-offer-targets li")).to_have_count(2)
    expect(page.locator("#analyzer-save-status")).to_have_text(SAVED, timeout=10000)

    rows = saved_rows(live_server, user)
    assert len(rows) == 1
    assert rows[0]["flip"]["rehab_lines"] == [{"label": "Roof", "amount": 20000.0}, {"label": "Kitchen", "amount": 10000.0}]
    assert rows[0]["rental"]["monthly_rent"] == 2500 and rows[0]["targets"]["min_dscr"] is None

    # Restored on reload
    reload(page)
    expect(page.locator("#property-analyzer")).to_be_visible(timeout=30000)
    expect(page.locator("#analyzer-save-status")).to_have_text(SAVED)
    expect(page.locator("#analyzer-line-1-label")).to_have_value("Kitchen")
    expect(page.locator("#analyzer-flip_profit")).to_have_text("$65,440")
    page.locator("#analyzer-tab-offer").click()
    expect(field(page, "min_dscr")).to_have_value("")
    expect(page.locator("#analyzer-offer_max")).to_have_text("$218,120")

    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        page.locator("#analyzer-tab-flip").click()
        page.locator("#property-analyzer").screenshot(path=str(ARTIFACTS / f"analyzer-flip-{width}.png"))
        page.locator("#analyzer-tab-offer").click()
        page.locator("#property-analyzer").screenshot(path=str(ARTIFACTS / f"analyzer-offer-{width}.png"))
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page scrolls sideways at {width} px"
    page.set_viewport_size({"width": 1280, "height": 900})

    # The PDF deal sheet downloads with the saved analysis
    with page.expect_download() as download_info:
        page.locator("#analyzer-download").click()
    download = download_info.value
    assert download.suggested_filename.startswith("deal-sheet-") and download.suggested_filename.endswith(".pdf")
    shown = page_text(Path(download.path()).read_bytes())
    for expected in (lead["address"], "After-repair value: $350,000", "$65,440", "$49,560", "132.0%", "1.41",
                     "$218,120", "Minimum ROI sets the maximum offer."):
        assert expected in shown, expected

    # Reset to my defaults: the lead's figures again
    page.locator("#analyzer-reset").click()
    expect_toast(page, "Analysis Reset", "The analysis starts again from the lead's figures and your defaults.")
    expect(page.locator("#analyzer-flip_profit")).to_have_text(usd(71_440 - 6 * holding.value))
    expect(page.locator("#analyzer-line-0-label")).to_have_value("Lead's rehab estimate")
    expect(page.locator("#analyzer-line-1-label")).to_have_count(0)
    expect(page.locator("#analyzer-save-status")).to_have_text(SAVED, timeout=10000)


def test_a_locked_lead_analysis_is_unreachable(page: Page, live_server, make_user):
    user, mine = analyzer_lead(live_server, make_user)
    locked = make_lead(asking_price=123_456, arv=654_321, rehab_estimate=11_111, is_active=True,
                       address=f"{uuid.uuid4().int % 9000 + 100} Locked Analyzer Road")
    store(live_server, locked)
    channel = EventChannel(page)
    signed_in(page, live_server, user)
    visit(page, f"/property/{locked['id']}")
    expect(page.locator("#property-not-found")).to_have_text("Property Not Found", timeout=30000)
    expect(page.locator("#property-analyzer")).to_have_count(0)

    name = AnalyzerState.get_full_name()
    start = len(channel.received)
    for handler, payload in (("load", {}), ("set_field", {"key": "purchase_price", "value": "1"}),
                             ("set_financing", {"value": "cash"}), ("add_line", {}),
                             ("set_line", {"index": 0, "part": "amount", "value": "5"}),
                             ("remove_line", {"index": 0}), ("save_soon", {}),
                             ("reset_to_defaults", {}), ("download_sheet", {})):
        channel.emit(f"{name}.{handler}", payload)
    channel.emit(f"{name}.setvar", {"var_name": "status", "value": "shown"})
    channel.settle()  # every event above was handled ...
    # ... and the saver's debounce went by several times over without a save
    stays(lambda: saved_rows(live_server, user) == [], 4 * SAVE_DELAY, "a locked lead's analysis was saved")
    received = channel.text_since(start)
    for secret in (locked["address"], "654,321", "654321", "123,456", "11,111", "sheet.pdf"):
        assert secret not in received, secret
    assert saved_rows(live_server, user) == []
    expect(page.locator("#property-analyzer")).to_have_count(0)

    # The sheet's URL: the user's own signed link for the locked lead, another user's lead, no token
    api = page.context.request
    token = downloads.make_token(downloads.DEAL_SHEET, uuid.UUID(user["id"]), str(locked["id"]))
    for url in (f"/api/deals/{locked['id']}/sheet.pdf?token={token}", f"/api/deals/{mine['id']}/sheet.pdf",
                f"/api/deals/{mine['id']}/sheet.pdf?token={token}"):
        res = api.get(url)
        assert res.status == 404, url
        assert b"%PDF" not in res.body()
    with session_scope(live_server.database_url) as s:
        assert s.execute(sa.select(sa.func.count()).select_from(DealAnalysisRow.__table__)
                         .where(DealAnalysisRow.__table__.c.lead_id == locked["id"])).scalar() == 0


def test_deal_defaults_in_settings(page: Page, live_server, make_user):
    user, lead = analyzer_lead(live_server, make_user)
    signed_in(page, live_server, user)
    visit(page, "/dashboard?tab=settings")
    card = page.locator("#settings-deal-defaults")
    expect(page.locator("#deal-default-down_payment_pct")).to_have_value("20", timeout=30000)
    expect(page.locator("#deal-default-term_years")).to_have_value("30")
    expect(page.locator("#deal-default-refi_ltv_pct")).to_have_value("75")

    page.locator("#deal-default-refi_ltv_pct").fill("101")
    page.locator("#deal-default-holding_months").fill("6.5")
    page.locator("#deal-defaults-save").click()
    expect(page.locator("#deal-default-refi_ltv_pct-error")).to_have_text(
        "Refinance loan-to-value must be a percentage from 0 to 100.")
    expect(page.locator("#deal-default-holding_months-error")).to_have_text(
        "Holding months must be a whole number of months from 0 to 60.")
    expect_toast(page, "Check the deal inputs")
    with session_scope(live_server.database_url) as s:
        assert s.get(DealDefaultsRow, uuid.UUID(user["id"])) is None

    page.locator("#deal-default-refi_ltv_pct").fill("70")
    page.locator("#deal-default-holding_months").fill("4")
    page.locator("#deal-default-down_payment_pct").fill("25")
    page.locator("#deal-default-min_roi_pct").fill("")
    page.locator("#deal-defaults-save").click()
    expect_toast(page, "Defaults Saved", "New deal analyses start from these figures.")
    expect(page.locator("#deal-default-refi_ltv_pct-error")).to_have_text("")
    saved = deals.load_defaults(uuid.UUID(user["id"]), live_server.database_url)
    assert (saved.refi_ltv_pct, saved.holding_months, saved.down_payment_pct, saved.min_roi_pct) == (70, 4, 25, None)
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        card.screenshot(path=str(ARTIFACTS / f"settings-deal-defaults-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})

    # A new analysis starts from them
    open_analyzer(page, lead)
    expect(field(page, "holding_months")).to_have_value("4")
    page.locator("#analyzer-tab-rental").click()
    expect(field(page, "down_payment_pct")).to_have_value("25")
