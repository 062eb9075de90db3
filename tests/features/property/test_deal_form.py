"""The analyzer's form (typed text <-> inputs), its results as shown, and the PDF deal sheet's text."""

from __future__ import annotations

import re

from marketplace.platform import texts as msg
from marketplace.features.property.rules_deal import DealDefaults, RehabLine, Targets, initial_analysis
from marketplace.features.property.rules_deal.form import (
    analysis_form,
    defaults_form,
    parse_number,
    read_analysis,
    read_defaults,
    read_lines,
)
from marketplace.features.property.rules_deal.report import lead_arv_basis, report
from marketplace.features.property.rules_deal.sheet import SheetComp, SheetLead, deal_sheet
from marketplace.platform.pdf import page_text, plain, wrap
from marketplace.features.property import texts_deal as text

FIRST = initial_analysis(asking_price=200_000, arv=350_000, rehab_estimate=30_000)


def form_of(analysis=FIRST, **typed):
    form, lines = analysis_form(analysis)
    return {**form, **typed}, lines


def test_typed_numbers():
    assert parse_number("$200,000") == 200_000
    assert parse_number(" 8 % ") == 8
    assert parse_number("1.25") == 1.25
    assert parse_number("") is None
    for junk in ("abc", "1e999", "nan", "--1", None, ["1"]):
        try:
            parse_number(junk)
        except ValueError:
            continue
        raise AssertionError(f"{junk!r} parsed")


def test_the_form_round_trips_an_analysis():
    form, lines = analysis_form(FIRST)
    assert form["purchase_price"] == "200,000" and form["vacancy_pct"] == "8" and form["min_dscr"] == "1.25"
    assert form["financing"] == "hard_money"
    assert lines == [{"label": "Lead's rehab estimate", "amount": "30,000"}]
    assert read_analysis(form, lines) == (FIRST, {})


def test_one_purchase_price_and_rehab_serve_every_strategy():
    form, _ = form_of(purchase_price="180000")
    analysis, errors = read_analysis(form, [{"label": "Roof", "amount": "12,000"}, {"label": "Paint", "amount": "3000.50"}])
    assert errors == {}
    assert analysis.flip.rehab_lines == (RehabLine("Roof", 12_000), RehabLine("Paint", 3_000.5))
    assert analysis.rental.purchase_price == analysis.flip.purchase_price == 180_000
    assert analysis.rental.rehab == 15_000.5


def test_each_problem_is_the_fields_own_sentence():
    form, lines = form_of(purchase_price="abc", vacancy_pct="120", term_years="30.5", loan_rate_pct="31",
                          holding_months="", min_profit="", financing="bitcoin")
    analysis, errors = read_analysis(form, [*lines, {"label": "", "amount": "-5"}])
    assert analysis is None
    assert errors == {
        "purchase_price": "Purchase price must be a number.",
        "vacancy_pct": "Vacancy must be a percentage from 0 to 100.",
        "term_years": "Mortgage term must be a whole number of years from 1 to 40.",
        "loan_rate_pct": "Hard-money rate must be a rate from 0% to 30%.",
        "holding_months": "Holding months must be a number.",
        "financing": msg.DEAL_FINANCING,
        "line-1-label": "Each rehab line needs a name of at most 60 characters.",
        "line-1-amount": "Rehab line 2 must be an amount from $0 to $100,000,000.",
    }


def test_empty_targets_are_no_targets():
    form, lines = form_of(min_profit="", min_roi_pct="", min_dscr="")
    analysis, errors = read_analysis(form, lines)
    assert errors == {} and analysis.targets == Targets(None, None, None)
    assert report(analysis).offer_note == msg.MAX_OFFER_NO_TARGETS


def test_too_many_rehab_lines():
    _, errors = read_lines([{"label": "x", "amount": "1"}] * 51)
    assert errors == {"lines": msg.DEAL_TOO_MANY_LINES}


def test_defaults_form():
    form = defaults_form(DealDefaults())
    assert form["down_payment_pct"] == "20" and form["term_years"] == "30" and form["min_profit"] == "25,000"
    assert read_defaults(form) == (DealDefaults(), {})
    defaults, errors = read_defaults({**form, "refi_ltv_pct": "101", "min_roi_pct": ""})
    assert defaults is None and errors == {"refi_ltv_pct": "Refinance loan-to-value must be a percentage from 0 to 100."}
    assert read_defaults({**form, "min_roi_pct": ""})[0].min_roi_pct is None


# --------------------------------------------------------------------------- results as shown


def hand_case():
    """Hard-money flip of tests/features/property/test_deal.py, a rental at 2,500/month, tax 3,000, insurance 1,200."""
    form, _ = form_of(monthly_holding_cost="1,000", monthly_rent="2,500", property_tax_annual="3,000",
                      insurance_annual="1,200")
    analysis, errors = read_analysis(form, [{"label": "Roof", "amount": "20,000"},
                                            {"label": "Kitchen", "amount": "10,000"}])
    assert errors == {}
    return analysis


def test_results_as_shown_with_their_formulas():
    r = report(hand_case())
    v = r.values
    # total cost 284,560; profit 350,000 - 284,560 = 65,440; ROI 65,440 / 284,560 = 23.0 %
    assert (v["flip_total_cost"], v["flip_profit"], v["flip_roi"]) == ("$284,560", "$65,440", "23.0%")
    # cash in 230,000 - 207,000 + 4,000 + 6,000 + 4,140 + 12,420 = 49,560; 65,440 / 49,560 = 132.0 %
    assert (v["flip_cash_in"], v["flip_coc"]) == ("$49,560", "132.0%")
    assert r.hows["flip_profit"] == "ARV $350,000 - total project cost $284,560"
    # NOI 30,000 - 2,400 - (3,000 + 1,200 + 5,400) = 18,000; payment on 160,000 at 7 %/30 y = 1,064.48
    assert v["rental_noi"] == "$18,000"
    assert v["rental_dscr"] == "1.41"  # 18,000 / 12,773.8
    assert v["rental_cash_flow"] == "$436"  # (18,000 - 12,773.8) / 12
    assert r.tones["flip_profit"] == "gain"
    assert v["offer_rule_70"] == "$215,000"  # 0.70 x 350,000 - 30,000
    assert r.offer_note.endswith("sets the maximum offer.")
    assert len(r.offer_targets) == 3


def test_no_loan_and_no_hold_say_so():
    form, lines = form_of(down_payment_pct="100", holding_months="0", financing="cash")
    v = report(read_analysis(form, lines)[0]).values
    assert v["rental_dscr"] == msg.DSCR_NO_LOAN
    assert v["flip_annualized"] == msg.ANNUALIZED_NO_HOLD


def test_arv_basis():
    assert lead_arv_basis(350_000) == ("Lead's ARV estimate ($350,000): the lead's market value x a renovation "
                                       "uplift, from its source. Not from comparable sales.")
    assert lead_arv_basis(None) == text.ARV_NONE_BASIS
    assert lead_arv_basis(120_000, "Assessed value x 1.2.").startswith("Lead's ARV estimate ($120,000): Assessed")


# --------------------------------------------------------------------------- the PDF


LEAD = SheetLead("4821 Juniper Hollow Ln", "Austin, TX 78704", "Probate", "3", "2.5", "1,850", 200_000, 265_000,
                 30_000, "")


def test_deal_sheet_is_one_page_with_the_facts_the_arv_and_each_strategy():
    pdf = deal_sheet(LEAD, hand_case(), arv_basis=lead_arv_basis(350_000), saved_on="Nov 25, 2026",
                     prepared_on="Nov 26, 2026")
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    assert pdf.count(b"/Type /Page ") == 1 and b"/Count 1" in pdf
    # the cross-reference table points at each object
    xref = int(re.search(rb"startxref\n(\d+)", pdf).group(1))
    offsets = [int(x) for x in re.findall(rb"(\d{10}) 00000 n", pdf[xref:])]
    for number, offset in enumerate(offsets, start=1):
        assert pdf[offset:].startswith(b"%d 0 obj" % number)
    shown = page_text(pdf)
    joined = "\n".join(shown)
    for expected in ("Deal sheet", "LeadVault - Nov 26, 2026", "4821 Juniper Hollow Ln", "Austin, TX 78704 - Probate",
                     "After-repair value: $350,000", "Analysis saved Nov 25, 2026.", "Flip", "Rental", "BRRRR",
                     "Max offer", "$65,440", "$49,560", "132.0%", "$18,000", "1.41", "$215,000", text.SHEET_NO_COMPS):
        assert expected in shown, expected
    assert "Lead's ARV estimate ($350,000)" in joined
    assert "All figures are estimates" in joined
    # every line stays on the page
    ys = [float(m) for m in re.findall(rb" ([\d.]+) Td", pdf)]
    assert min(ys) > 30 and max(ys) < 792


def test_deal_sheet_lists_comps_and_says_when_not_saved():
    comps = [SheetComp(f"{n} Main St, Austin", "2026-10-01", 340_000 + n, "1,800") for n in range(8)]
    shown = page_text(deal_sheet(LEAD, FIRST, arv_basis="Median of 8 comps.", comps=comps, saved_on=None,
                                 prepared_on="Nov 26, 2026"))
    assert text.SHEET_NOT_SAVED in shown
    assert "0 Main St, Austin" in shown and "5 Main St, Austin" in shown and "6 Main St, Austin" not in shown
    assert "$340,005" in shown


def test_pdf_text_is_plain_latin_1_and_wraps():
    assert plain("a \u2014 b \u2019 \u4e2d") == "a - b ' ?"
    lines = wrap("word " * 60, 10, 200)
    assert len(lines) > 1 and all(lines)


def test_labels_name_their_unit_once():
    from marketplace.features.property.rules_deal.form import BY_KEY
    labels = {key: f.labelled for key, f in BY_KEY.items()}
    assert labels["purchase_price"] == "Purchase price ($)"
    assert labels["holding_months"] == "Holding months"
    assert labels["monthly_rent"] == "Monthly rent ($)"
    assert labels["property_tax_annual"] == "Property tax (yearly) ($)"
    assert labels["mortgage_rate_pct"] == "Mortgage rate (%/year)"
    assert labels["min_dscr"] == "Minimum DSCR (ratio)"
