"""Texts of the deal analyzer's page section, its Settings card and its PDF deal sheet.

The input checks' sentences (``DEAL_NUMBER``, ``DEAL_MONEY``, ...) and the field labels (``DEAL_FIELDS``) live
in ``messages/__init__.py`` beside ``property.rules_deal.inputs``, which raises them; this module holds what the page,
the Settings card and the sheet add. Formula lines ("how") are filled with the figures they use by
``property.rules_deal.report``.
"""

from __future__ import annotations

ANALYZER_TITLE = "Deal Analyzer"
ANALYZER_SUBTITLE = "Flip, rental, BRRRR and your maximum offer, recomputed as you type. Saved for you only."
TAB_LABELS = {"flip": "Flip", "rental": "Rental", "brrrr": "BRRRR", "offer": "Max offer"}

# Units shown inside each field (after the label) and read by screen readers with it.
UNITS = {"money": "$", "money_month": "$/month", "money_year": "$/year", "percent": "%", "rate": "%/year",
         "points": "% of loan", "months": "months", "years": "years", "dscr": "ratio"}

ARV_LEAD_BASIS = "Lead's ARV estimate ({value}): {how}. Not from comparable sales."
ARV_LEAD_HOW = "the lead's market value x a renovation uplift, from its source"
ARV_NONE_BASIS = "The lead has no ARV estimate: enter your own (N/A until then)."
ARV_DEFAULT_HINT = "Starts at the default: "

REHAB_TITLE = "Rehab budget"
REHAB_HINT = "Edit, add or remove lines; the budget is their sum."
REHAB_LINE_LABEL = "Rehab item {n}"
REHAB_LINE_AMOUNT = "Rehab item {n} cost"
REHAB_NEW_LINE = "New item"
REHAB_ADD = "Add line"
REHAB_REMOVE = "Remove rehab item {n}"
REHAB_TOTAL = "Rehab total"
REHAB_FROM_FLIP = "Cash invested includes the Flip tab's rehab budget, paid in cash: "
FINANCING_LABEL = "Financing"
FINANCING_CHOICES = {"cash": "Cash", "hard_money": "Hard-money loan"}
TARGETS_HINT = "Leave a target empty to ignore it."

# Save indicator (its id: analyzer-save-status)
SAVE_PENDING = "Saving..."
SAVED = "Saved"
SAVED_AT = "Saved {when}"
NOT_SAVED_INVALID = "Not saved: fix the marked fields."
SAVE_FAILED = "Not saved: the server could not store the analysis. Your next change tries again."
NOT_SAVED_YET = "Not saved yet: starts from the lead's figures and your defaults."
RESULTS_STALE = "Results are for the last valid inputs: fix the marked fields to update them."
RESET_BUTTON = "Reset to my defaults"
RESET_DONE = ("Analysis Reset", "The analysis starts again from the lead's figures and your defaults.")
RESET_HINT = "Your defaults are set in Dashboard > Settings > Deal defaults."
DOWNLOAD_SHEET = "Download deal sheet (PDF)"
ANALYZER_LOAD_FAILED = ("Error", "Failed to load the deal analysis.")
ANALYZER_DISCLAIMER = ("Estimates from the figures above, not investment advice: check rents, costs and loan "
                       "terms with local sources before making an offer.")

# Result labels (the page and the PDF)
RESULT_LABELS = {
    "flip_total_cost": "Total project cost", "flip_cash_in": "Total cash in", "flip_profit": "Profit",
    "flip_roi": "ROI", "flip_annualized": "Annualized ROI", "flip_coc": "Cash-on-cash",
    "rental_noi": "NOI (yearly)", "rental_cap": "Cap rate", "rental_cash_flow": "Monthly cash flow",
    "rental_coc": "Cash-on-cash", "rental_dscr": "DSCR",
    "brrrr_refi_loan": "Refinance loan", "brrrr_cash_out": "Cash out at refinance",
    "brrrr_cash_left": "Cash left in the deal", "brrrr_cash_flow": "Monthly cash flow",
    "brrrr_coc": "Cash-on-cash after refinance", "brrrr_dscr": "DSCR",
    "offer_rule_70": "70% rule", "offer_max": "Maximum offer",
}
# How each result is computed; {placeholders} are filled with the analysis' own figures.
HOW = {
    "flip_total_cost": "Purchase + rehab + buying costs {buying} + holding {holding} + points {points} "
                       "+ interest {interest} + selling costs {selling}",
    "flip_cash_in": "Purchase + rehab - loan {loan} + buying costs + holding + points + interest",
    "flip_profit": "ARV {arv} - total project cost {total_cost}",
    "flip_roi": "Profit / total project cost",
    "flip_annualized": "(1 + ROI) ^ (12 / {months} months) - 1",
    "flip_coc": "Profit / total cash in",
    "rental_noi": "Rent {gross}/yr - vacancy {vacancy} - expenses {expenses} (tax, insurance, management, "
                  "maintenance, capex)",
    "rental_cap": "NOI / purchase price",
    "rental_cash_flow": "(NOI - mortgage {payment}/month x 12) / 12",
    "rental_coc": "Yearly cash flow / cash invested {invested} (down payment + buying costs + rehab)",
    "rental_dscr": "NOI / yearly mortgage payments {debt}",
    "brrrr_refi_loan": "ARV x {ltv} loan-to-value",
    "brrrr_cash_out": "Refinance loan - closing costs {costs} - hard-money payoff {payoff}",
    "brrrr_cash_left": "The flip's total cash in {cash_in} - cash out",
    "brrrr_cash_flow": "(NOI {noi} - new mortgage {payment}/month x 12) / 12",
    "brrrr_coc": "Yearly cash flow / cash left in the deal",
    "brrrr_dscr": "NOI / yearly payments on the refinance loan {debt}",
    "offer_rule_70": "0.70 x ARV {arv} - rehab {rehab}",
    "offer_max": "The highest price meeting every target you set, solved with the formulas above",
}
NA = "N/A"
OFFER_BY_TARGET = "{target}: {price}"  # each target's own highest price
OFFER_NO_PRICE = "no price"
RULE_70_NEGATIVE = "The 70% rule allows no offer: the rehab is more than 70% of the ARV."

# Settings: Deal defaults card
DEFAULTS_TITLE = "Deal defaults"
DEFAULTS_SUBTITLE = "What a new deal analysis starts from. Existing analyses keep their own figures."
DEFAULTS_SAVE = "Save defaults"
DEFAULTS_SAVED = ("Defaults Saved", "New deal analyses start from these figures.")
DEFAULTS_LOAD_FAILED = ("Error", "Failed to load your deal defaults.")
DEFAULTS_SAVE_FAILED = ("Error", "Failed to save your deal defaults.")
DEFAULTS_GROUPS = {"rental": "Rental and mortgage", "flip": "Flip and hard money", "brrrr": "BRRRR refinance",
                   "targets": "Maximum-offer targets"}

# The PDF deal sheet
SHEET_TITLE = "Deal sheet"
SHEET_PREPARED = "Prepared {date} for {email}"
SHEET_FACTS = "The lead"
SHEET_ARV = "After-repair value"
SHEET_COMPS = "Comparable sales"
SHEET_COMPS_ARV = "ARV from the pinned sales: {arv}"
ARV_TYPED_BASIS = "Entered on the analyzer (the default was: {default})"
ARV_COMPS_BASIS = "From comparable sales: {basis}"
COMPS_ARV_OFFER = "Comparable sales give {value} ({low}-{high}): {basis}"
USE_COMPS_ARV = "Use this ARV"
USE_COMPS_ARV_LABEL = "Use this ARV from comparable sales in the analysis"
SHEET_NO_COMPS = "No comparable sales attached: the ARV above is the lead's own estimate."
SHEET_COMP_COLUMNS = ("Address", "Sold", "Price", "Sq ft")
SHEET_INPUTS = "Inputs"
SHEET_NOT_SAVED = "Not saved yet: the lead's figures and your defaults."
SHEET_DISCLAIMER = ("All figures are estimates computed from the inputs shown, not facts and not investment "
                    "advice. Verify the property, its value, rents, costs and financing independently before "
                    "making an offer.")
SHEET_FILENAME = "deal-sheet-{slug}.pdf"
SHEET_NOT_FOUND = "Not found"

# A first analysis' rent, taxes and insurance (property.rules_deal.estimates): each an estimate with its basis.
ESTIMATE_HINT = "Starts at an estimate: "
RENT_BASIS = ("{base} {value} / gross rent multiplier {grm} = {rent} a month (a rule of thumb, not a rent "
              "survey)")
TAX_BASIS = "{base} {value} x {rate}% a year ({where})"
TAX_STATE = "{state}'s effective rate on owner-occupied homes: Tax Foundation 2023, Census ACS 2021"
TAX_DEFAULT = "median state effective rate: Tax Foundation 2023, Census ACS 2021; this state's own is not on file"
INSURANCE_BASIS = "{base} {value} x {rate}% a year (a stated rule of thumb; ask an insurer)"
HOLDING_BASIS = "taxes {tax} + insurance {insurance} a year / 12 (utilities not included)"
NO_VALUE_BASIS = "N/A: the lead has no market value or asking price to estimate from; enter your own"
BASE_MARKET = "market value"
BASE_ASKING = "asking price"
# The ARV line after "Use this ARV": the comps' figure is the one in use.
ARV_IN_USE_COMPS = "In use: the ARV from comparable sales, {value}: {basis}"
ARV_HEADLINE_COMPS = ("Comparable sales ARV ({value}): the default selection of {count} sales, the ARV the "
                      "lead's card rests on (the lead's estimate: {estimate})")
