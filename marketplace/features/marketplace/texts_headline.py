"""Texts of a lead's headline numbers: which ARV the card's and the property page's ROI and profit rest on
(``marketplace.rules_headline``)."""

from __future__ import annotations

ROI_VS_COMPS = "ROI vs comps ARV"
ROI_VS_ESTIMATE = "ROI vs estimated ARV"
NO_FIGURE = "Est. ROI"
ARV_COMPS = "Comps ARV"
ARV_ESTIMATE = "Est. ARV"
AT_MARKET_VALUE = " at market value"  # a public record has no asking price: its ROI is against the market value
BASIS_COMPS = "ARV from {count} comparable sales (default selection)"
BASIS_ESTIMATE = "ARV estimated: fewer than {minimum} comparable sales"
BASIS_ESTIMATE_ONLY = "ARV estimated: no comparable sales checked"
# Enough comparable sales, but no living area to price them per square foot (a comps ARV is $/sqft x area).
BASIS_NO_AREA = "ARV estimated: no living area on record to price {count} comparable sales"
DISAGREE = "Comps ARV {comps} is {percent}% {direction} the estimate"
# The property page: the comps card below uses the user's own pins; the headline the default selection.
PAGE_COMPS = ("From {count} comparable sales, the default selection (all but outliers; the Comparable Sales "
              "card uses your pins). Estimate: {estimate}.")
PAGE_ESTIMATE = "{estimate_basis} Fewer than {minimum} comparable sales, so the estimate is used."
PAGE_NO_AREA = ("{estimate_basis} No living area on record to price the {count} comparable sales per square "
                "foot, so the estimate is used.")
