"""The one-page PDF deal sheet: the lead's facts, the ARV with its basis and the
comparable sales behind it, the saved analysis of each strategy (inputs, results and how each is
computed), the date, and the disclaimer that every figure is an estimate.

Pure: ``deal_sheet`` takes plain values and returns the PDF's bytes (``platform.pdf``). Everything is laid
out on one US Letter page: the rehab budget is shown as its total, at most ``MAX_COMPS`` comparable sales
are listed, and long sentences are cut to a few lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from marketplace.features.property.rules_deal.inputs import DealAnalysis
from marketplace.features.property.rules_deal.report import Report, report
from marketplace.features.marketplace import percent, usd
from marketplace.platform.pdf import PAGE_HEIGHT, PAGE_WIDTH, Page, document, text_width, wrap
from marketplace.features.property import texts_deal as text

MARGIN = 44
MAX_COMPS = 6
GRAY = 0.4


@dataclass(frozen=True)
class SheetLead:
    """The lead's facts as the sheet prints them (the service reads them from an unlocked lead)."""

    address: str
    place: str  # 'Austin, TX 78704'
    lead_type: str
    beds: str  # display strings: '3', '2.5', '1,850', 'N/A'
    baths: str
    sqft: str
    asking_price: float | None
    market_value: float | None
    rehab_estimate: float | None
    provenance: str = ""  # 'Demo data (generated)' for demo leads


@dataclass(frozen=True)
class SheetComp:
    """One comparable sale behind the ARV (filled by the comps feature; none yet)."""

    address: str
    sold_on: str
    price: float | None
    sqft: str


class _Column:
    """A cursor going down one column of the page."""

    def __init__(self, page: Page, x: float, width: float, y: float):
        self.page, self.x, self.width, self.y = page, x, width, y

    def heading(self, title: str, size: float = 11) -> None:
        self.y -= size + 4
        self.page.text(self.x, self.y, title, size, bold=True)
        self.y -= 4
        self.page.line(self.x, self.y, self.x + self.width, self.y)

    def row(self, label: str, value: str, how: str = "", bold: bool = False) -> None:
        self.y -= 11
        self.page.text(self.x, self.y, label, 8.5, gray=0.15)
        if text_width(label, 8.5) + text_width(value, 8.5, bold) + 8 > self.width:  # the value on a line of its own
            self.y -= 10
        self.page.text_right(self.x + self.width, self.y, value, 8.5, bold=bold)
        if how:
            for line in wrap(how, 6.5, self.width)[:2]:
                self.y -= 8
                self.page.text(self.x + 6, self.y, line, 6.5, gray=GRAY)

    def note(self, sentence: str, size: float = 7.5, lines: int = 3, gray: float = GRAY) -> None:
        for line in wrap(sentence, size, self.width)[:lines]:
            self.y -= size + 2
            self.page.text(self.x, self.y, line, size, gray=gray)

    def gap(self, points: float = 6) -> None:
        self.y -= points


def _pct(value: float) -> str:
    return percent(value).replace(".0%", "%")


def _flip(col: _Column, a: DealAnalysis, r: Report) -> None:
    f = a.flip
    col.heading(text.TAB_LABELS["flip"])
    col.row("Purchase price", usd(f.purchase_price))
    col.row("ARV", usd(f.arv))
    col.row(f"Rehab ({len(f.rehab_lines)} line{'s' if len(f.rehab_lines) != 1 else ''})", usd(f.rehab))
    col.row("Holding", f"{f.holding_months} months x {usd(f.monthly_holding_cost)}")
    col.row("Closing costs (buy / sell)", f"{_pct(f.buy_closing_pct)} / {_pct(f.sell_closing_pct)}")
    col.row("Financing", text.FINANCING_CHOICES["cash"] if f.financing == "cash" else
            f"Hard money {_pct(f.loan_to_cost_pct)} LTC, {_pct(f.loan_rate_pct)}, {f.loan_points_pct:g} pts")
    col.gap(3)
    for key in ("flip_total_cost", "flip_cash_in", "flip_profit", "flip_roi", "flip_annualized", "flip_coc"):
        col.row(text.RESULT_LABELS[key], r.values[key], r.hows[key], bold=True)


def _rental(col: _Column, a: DealAnalysis, r: Report) -> None:
    i = a.rental
    col.heading(text.TAB_LABELS["rental"])
    col.row("Rent", f"{usd(i.monthly_rent)}/month, vacancy {_pct(i.vacancy_pct)}")
    col.row("Tax / insurance (yearly)", f"{usd(i.property_tax_annual)} / {usd(i.insurance_annual)}")
    col.row("Mgmt / maint. / capex", f"{_pct(i.management_pct)} / {_pct(i.maintenance_pct)} / {_pct(i.capex_pct)}")
    col.row("Mortgage", f"{_pct(i.down_payment_pct)} down, {_pct(i.mortgage_rate_pct)}, {i.term_years} years")
    col.gap(3)
    for key in ("rental_noi", "rental_cap", "rental_cash_flow", "rental_coc", "rental_dscr"):
        col.row(text.RESULT_LABELS[key], r.values[key], r.hows[key], bold=True)


def _brrrr(col: _Column, a: DealAnalysis, r: Report) -> None:
    col.heading(text.TAB_LABELS["brrrr"])
    col.row("Refinance", f"{_pct(a.refi_ltv_pct)} of ARV, {_pct(a.refi_rate_pct)}, {a.refi_term_years} years")
    col.row("Refinance closing costs", _pct(a.refi_closing_pct))
    col.gap(3)
    for key in ("brrrr_refi_loan", "brrrr_cash_out", "brrrr_cash_left", "brrrr_cash_flow", "brrrr_coc",
                "brrrr_dscr"):
        col.row(text.RESULT_LABELS[key], r.values[key], r.hows[key], bold=True)


def _offer(col: _Column, a: DealAnalysis, r: Report) -> None:
    t = a.targets
    col.heading(text.TAB_LABELS["offer"])
    col.row("Minimum profit", usd(t.min_profit) if t.min_profit is not None else text.NA)
    col.row("Minimum ROI", _pct(t.min_roi_pct) if t.min_roi_pct is not None else text.NA)
    col.row("Minimum DSCR", f"{t.min_dscr:.2f}" if t.min_dscr is not None else text.NA)
    col.gap(3)
    col.row(text.RESULT_LABELS["offer_rule_70"], r.values["offer_rule_70"], r.hows["offer_rule_70"], bold=True)
    col.row(text.RESULT_LABELS["offer_max"], r.values["offer_max"], r.hows["offer_max"], bold=True)
    col.note(r.offer_note, 7.5, 2, gray=0.15)
    for line in r.offer_targets:
        col.note(line, 7.5, 1)


def deal_sheet(lead: SheetLead, analysis: DealAnalysis, *, arv_basis: str, comps: Sequence[SheetComp] = (),
               comps_arv: str = "",
               saved_on: str | None, prepared_on: str) -> bytes:
    """The PDF (``prepared_on``: today, ``saved_on``: when the analysis was saved, both as the reader's
    dates ('Nov 25, 2026'); ``saved_on`` None: not saved yet)."""
    r = report(analysis)
    page = Page()
    width = PAGE_WIDTH - 2 * MARGIN
    top = _Column(page, MARGIN, width, PAGE_HEIGHT - MARGIN)
    top.y -= 16
    page.text(MARGIN, top.y, text.SHEET_TITLE, 18, bold=True)
    page.text_right(PAGE_WIDTH - MARGIN, top.y, f"LeadVault - {prepared_on}", 9, gray=GRAY)
    for line in wrap(lead.address, 13, width, bold=True)[:2]:
        top.y -= 17
        page.text(MARGIN, top.y, line, 13, bold=True)
    top.note(" - ".join(part for part in (lead.place, lead.lead_type) if part), 9, 1, gray=0.2)
    if lead.provenance:
        top.note(lead.provenance, 8, 2, gray=0.2)
    top.note(f"{lead.beds} beds, {lead.baths} baths, {lead.sqft} sq ft. Asking {usd(lead.asking_price)}, "
             f"market value {usd(lead.market_value)}, rehab estimate {usd(lead.rehab_estimate)}: the lead's "
             "figures from its source.", 8.5, 2, gray=0.2)
    top.note(text.SHEET_NOT_SAVED if saved_on is None else f"Analysis saved {saved_on}.", 8, 1)

    top.heading(f"{text.SHEET_ARV}: {usd(analysis.flip.arv)}")
    top.note(arv_basis, 8, 2, gray=0.2)
    top.gap(2)
    top.heading(text.SHEET_COMPS, 10)
    if comps_arv:
        top.note(text.SHEET_COMPS_ARV.format(arv=comps_arv), 8, 2, gray=0.2)
    if not comps:
        top.note(text.SHEET_NO_COMPS, 8, 1)
    else:
        stops = (0, width * 0.55, width * 0.72, width * 0.9)
        top.y -= 10
        for stop, title in zip(stops, text.SHEET_COMP_COLUMNS):
            page.text(MARGIN + stop, top.y, title, 7.5, bold=True)
        for comp in comps[:MAX_COMPS]:
            top.y -= 10
            cells = (wrap(comp.address, 7.5, width * 0.53)[0], comp.sold_on, usd(comp.price), comp.sqft)
            for stop, cell in zip(stops, cells):
                page.text(MARGIN + stop, top.y, cell, 7.5)
    top.gap(6)

    gutter = 24
    half = (width - gutter) / 2
    y = top.y
    for left_part, right_part in ((_flip, _rental), (_brrrr, _offer)):
        left = _Column(page, MARGIN, half, y)
        right = _Column(page, MARGIN + half + gutter, half, y)
        left_part(left, analysis, r)
        right_part(right, analysis, r)
        y = min(left.y, right.y) - 8

    bottom = _Column(page, MARGIN, width, min(y, MARGIN + 40))
    page.line(MARGIN, bottom.y - 2, MARGIN + width, bottom.y - 2)
    bottom.gap(2)
    bottom.note(text.SHEET_DISCLAIMER, 7.5, 3, gray=0.25)
    return document(page, f"{text.SHEET_TITLE}: {lead.address}")
