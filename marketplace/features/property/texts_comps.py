"""Texts of the comparable sales: the property page's Comparable Sales card and its
refusals."""

from __future__ import annotations

TITLE = "Comparable Sales"
STEP_FIRST = "Sold in the last {months} months within {radius}"
STEP_WIDENED = "Widened to {widened}: fewer than {minimum} sales within {radius} in {months} months"
STEP_TOO_FEW = "Only {count} found within {radius} in {months} months."
NO_POSITION = "N/A: this property has no known location, so no sales can be measured against it"
ARV_BASIS = "Median $/sqft of {count} pinned {sales} x {sqft} sqft ({per_sqft}/sqft)"
ARV_RANGE = "Low-high: 25th-75th percentile $/sqft of the pinned sales x the living area"
ARV_NONE = "N/A: pin at least one sale to compute an ARV"
ARV_NO_SQFT = "N/A: this property has no living area on record"
NO_SALES = "No comparable sales found within 2 miles in the last 12 months."
SHOW_OUTLIERS = "Show {count} outlier{s}"
HIDE_OUTLIERS = "Hide outliers"
OUTLIER_NOTE = "Outlier: $/sqft beyond 2 standard deviations of these sales"
PIN_LABEL = "Pin {address} (sold {date})"
UNPIN_LABEL = "Unpin {address} (sold {date})"
APPROXIMATE = "approx., ZIP centre"
CRITERIA = "Same property type, living area within 20%, beds within 1."

# Where each source's sales come from (shown under the table).
BASIS_RECORDS = "Recorded sales (deeds) from public-record datasets: {datasets}."
BASIS_DEMO = ("Demo data (generated): a synthetic sales history drawn from the demo price model; these "
              "sales and addresses are not real.")
BASIS_RENTCAST = ("RentCast value-estimate comparables, retrieved {date}: listing prices of nearby homes "
                  "and the date each left the market (RentCast's data, not recorded deeds).")
BASIS_NONE = "This lead's source has no sales history."

LOCKED = ("Comparable sales unavailable", "Unlock this lead to see its comparable sales.")
FAILED = ("Comparable sales unavailable", "Could not load comparable sales. Please try again.")
SAVED = "Your comps are saved."
SOURCE_FAILED = "N/A: the sales source did not answer ({reason})."
RENTCAST_NO_KEY = "N/A: RentCast comparables need LEAD_SOURCE_API_KEY."
