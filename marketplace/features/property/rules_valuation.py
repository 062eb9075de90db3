"""Values of a public-record property without a paid valuation service, honestly labelled.

Every function returns the number and the sentence the property page shows as its basis; a value that
cannot be computed is None with a basis starting "N/A: " that says why (SPEC: a missing value shows N/A).
Pure rules: the caller passes the records.

Market value (``market_value``)
  1. The assessor's market value where a dataset publishes one: "Assessor 2024 market value (Philadelphia
     OPA)". When the FHFA index covers the assessor's year and a later year, it is indexed forward to
     today's year (or the latest published year) and says so.
  2. Else the last recorded sale (token prices under $10,000 ignored), indexed forward with the annual FHFA
     house price index of its three-digit ZIP (``index_forward``): value x HPI(to year) / HPI(sale year),
     to $1,000, labelled an estimate. When the index does not cover the sale's year, the sale price is
     shown as it is, saying it is not indexed.
  3. Else N/A.

ARV (``arv``): the median $/sqft of recorded sales in the same ZIP over the last 12 months x the
  property's living area, to $1,000; low/high from the 25th/75th percentile $/sqft. At least 3 usable
  sales are needed: with fewer, the window widens to 24 months, then 36 months (``ARV_WINDOWS_MONTHS``),
  and the basis says so; still fewer than 3 -> N/A. Sales under $10,000 or under $10/sqft (token and
  family transfers) and sales without a living area are excluded, and the basis counts them.

Rehab (``rehab``): living area x a $/sqft tier (``REHAB_TIERS``): light $15, medium $30, heavy $45,
  full $60. The signals choose the tier: vacant or a code violation -> heavy; on a sale list or in
  foreclosure -> medium; otherwise (tax delinquent only, or nothing) -> light. Built before 1950 -> one
  tier up (full at most). To $100.

ROI (``roi``): ``platform.pricing.compute_roi`` against the asking price when there is one, else against the
  market value (public records carry no asking price), and the text says which.

Confidence (``confidence``): 100 minus the deductions in ``confidence``'s docstring, 0 at least; every
  deduction gives a reason.
"""

from __future__ import annotations

import calendar
import statistics
from dataclasses import dataclass
from datetime import date
from typing import Iterable, Sequence

from marketplace.platform import pricing
from marketplace.features.marketplace import usd
from marketplace.features.records import HpiPoint
from marketplace.platform.times import format_date

TOKEN_PRICE = 10_000            # a recorded sale under this is not a market sale
TOKEN_PRICE_PER_SQFT = 10       # nor one under this many $/sqft
ARV_MIN_SALES = 3
ARV_WINDOWS_MONTHS = (12, 24, 36)
REHAB_TIERS = (("light", 15), ("medium", 30), ("heavy", 45), ("full", 60))  # $/sqft
HEAVY_REHAB_KINDS = ("vacant", "code_violation")
MEDIUM_REHAB_KINDS = ("sale_list", "foreclosure")
OLD_BUILDING_BEFORE = 1950
HPI_SOURCE = "FHFA HPI ZIP3"

# How market_value's basis begins, by source (confidence reads them back).
ASSESSOR_BASIS = "Assessor "
INDEXED_SALE_BASIS = "Estimate from the last sale: "
UNINDEXED_SALE_BASIS = "Last sale (not indexed): "
NA_BASIS = "N/A: "


@dataclass(frozen=True)
class Sale:
    """One recorded sale (a deed), as a comparable."""

    price: int
    sale_date: date
    square_footage: int | None
    zip_code: str
    address: str | None = None


@dataclass(frozen=True)
class Estimate:
    value: int | None
    basis: str                      # the sentence the property page shows; "N/A: ..." when value is None
    low: int | None = None
    high: int | None = None
    sample_size: int = 0            # ARV: the sales used
    widened_steps: int = 0          # ARV: 0 = 12 months, 1 = 24 months, 2 = 36 months


def _day(value: date) -> str:
    return format_date(value, "UTC")


def _thousand(value: float) -> int:
    return int(round(value, -3))


def _hpi_zip3(hpi: Sequence[HpiPoint]) -> str | None:
    zips = {point.zip3 for point in hpi}
    if len(zips) > 1:
        raise ValueError(f"HPI points of several ZIP3 areas: {', '.join(sorted(zips))}")
    return next(iter(zips), None)


def index_forward(value: int, from_date: date, to_date: date, hpi: Sequence[HpiPoint]) -> int | None:
    """``value`` at ``from_date`` carried to ``to_date`` with an annual HPI (one ZIP3):
    value x HPI(to year) / HPI(from year), to $1,000.

    The to year is the latest year the index has up to ``to_date`` (so the latest published year when
    ``to_date`` is beyond the data); None when the index has no value for the from year, or the from year
    is after the to year."""
    _hpi_zip3(hpi)
    by_year = {point.year: point.index for point in hpi if point.index and point.index > 0}
    start = by_year.get(from_date.year)
    years = [year for year in by_year if year <= to_date.year]
    if start is None or not years or max(years) < from_date.year:
        return None
    return _thousand(value * by_year[max(years)] / start)


def _latest_year(hpi: Sequence[HpiPoint]) -> int | None:
    return max((p.year for p in hpi if p.index and p.index > 0), default=None)


def _indexed_words(to_year: int, today: date) -> str:
    latest = " (latest published)" if to_year < today.year else ""
    return f"to {to_year}{latest}"


def market_value(*, assessor_value: int | None, assessor_year: int | None, assessor_label: str,
                 last_sale: Sale | None, hpi: Sequence[HpiPoint], today: date) -> Estimate:
    """The market value and its basis (module docstring); ``hpi`` holds the property's ZIP3 points."""
    zip3 = _hpi_zip3(hpi)
    latest = _latest_year(hpi)
    source = f"{HPI_SOURCE} {zip3}"
    ends = f"{source} ends in {latest}" if zip3 and latest else "no FHFA HPI for this ZIP3 area"
    if assessor_value is not None and assessor_value > 0:
        if assessor_year is None:
            return Estimate(assessor_value, f"{ASSESSOR_BASIS}market value ({assessor_label}, year not published)")
        basis = f"{ASSESSOR_BASIS}{assessor_year} market value ({assessor_label})"
        if assessor_year >= today.year:
            return Estimate(assessor_value, basis)
        indexed = index_forward(assessor_value, date(assessor_year, 7, 1), today, hpi)
        if indexed is None or latest is None or latest <= assessor_year:
            return Estimate(assessor_value, f"{basis}, not indexed ({ends})")
        return Estimate(indexed, f"{ASSESSOR_BASIS}{assessor_year} market value {usd(assessor_value)} "
                                 f"({assessor_label}), indexed with {source} {_indexed_words(latest, today)}; "
                                 f"estimate")
    if last_sale is not None and not _is_token(last_sale) and last_sale.sale_date <= today:
        sold = f"{usd(last_sale.price)} on {_day(last_sale.sale_date)}"
        if last_sale.sale_date.year == today.year:
            return Estimate(last_sale.price, f"{INDEXED_SALE_BASIS}{sold} (this year: nothing to index)")
        indexed = index_forward(last_sale.price, last_sale.sale_date, today, hpi)
        if indexed is None or latest is None or latest <= last_sale.sale_date.year:
            return Estimate(last_sale.price, f"{UNINDEXED_SALE_BASIS}{sold} ({ends}); estimate")
        return Estimate(indexed, f"{INDEXED_SALE_BASIS}{sold}, indexed with {source} "
                                 f"{_indexed_words(latest, today)}")
    return Estimate(None, f"{NA_BASIS}no assessor value or market-price sale on record")


def _months_before(day: date, months: int) -> date:
    """The same day ``months`` calendar months earlier (the month's last day when it has fewer days)."""
    year, month = divmod(day.year * 12 + day.month - 1 - months, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def _is_token(sale: Sale) -> bool:
    """Under $10,000, or under $10/sqft when the living area is known: not a market sale."""
    area = sale.square_footage or 0
    return sale.price < TOKEN_PRICE or sale.price < TOKEN_PRICE_PER_SQFT * area


def arv(*, square_footage: int | None, zip_code: str, sales: Sequence[Sale], today: date) -> Estimate:
    """After-repair value from recent recorded sales in the same ZIP (module docstring)."""
    if not square_footage or square_footage <= 0:
        return Estimate(None, f"{NA_BASIS}no living area on record")
    in_zip = [s for s in sales if s.zip_code == zip_code and s.sale_date <= today]
    for step, months in enumerate(ARV_WINDOWS_MONTHS):
        since = _months_before(today, months)
        window = [s for s in in_zip if s.sale_date > since]
        no_area = [s for s in window if not s.square_footage or s.square_footage <= 0]
        sized = [s for s in window if s.square_footage and s.square_footage > 0]
        token = [s for s in sized if _is_token(s)]
        usable = [s for s in sized if not _is_token(s)]
        if len(usable) >= ARV_MIN_SALES:
            break
    excluded = []
    if token:
        excluded.append(f"{len(token)} under {usd(TOKEN_PRICE)} or ${TOKEN_PRICE_PER_SQFT}/sqft excluded")
    if no_area:
        excluded.append(f"{len(no_area)} without living area excluded")
    notes = "".join(f"; {text}" for text in excluded)
    if len(usable) < ARV_MIN_SALES:
        return Estimate(None, f"{NA_BASIS}{len(usable)} usable recorded sales in {zip_code} in "
                              f"{ARV_WINDOWS_MONTHS[-1]} months, {ARV_MIN_SALES} needed{notes}",
                        widened_steps=len(ARV_WINDOWS_MONTHS) - 1)
    per_sqft = sorted(s.price / s.square_footage for s in usable)
    median = statistics.median(per_sqft)
    low, _, high = statistics.quantiles(per_sqft, n=4, method="inclusive")
    widened = ""
    if step:
        widened = f" (widened to {months} months: fewer than {ARV_MIN_SALES} in {ARV_WINDOWS_MONTHS[step - 1]})"
    basis = (f"ARV: {len(usable)} sales in {zip_code} since {_day(since)}{widened}, median "
             f"${median:,.0f}/sqft x {square_footage:,} sqft (estimate){notes}")
    return Estimate(_thousand(median * square_footage), basis, low=_thousand(low * square_footage),
                    high=_thousand(high * square_footage), sample_size=len(usable), widened_steps=step)


def rehab(*, square_footage: int | None, kinds: Iterable[str], year_built: int | None, today: date) -> Estimate:
    """Rehab estimate: living area x the $/sqft tier the signals choose (module docstring)."""
    if not square_footage or square_footage <= 0:
        return Estimate(None, f"{NA_BASIS}no living area on record")
    present = set(kinds)
    heavy = [k for k in HEAVY_REHAB_KINDS if k in present]
    medium = [k for k in MEDIUM_REHAB_KINDS if k in present]
    tier, why = (2, heavy) if heavy else (1, medium) if medium else (0, sorted(present))
    notes = [", ".join(k.replace("_", " ") for k in why) if why else "no distress signal"]
    if year_built is None or year_built > today.year:
        notes.append("year built unknown")
    elif year_built < OLD_BUILDING_BEFORE:
        tier = min(tier + 1, len(REHAB_TIERS) - 1)
        notes.append(f"built {year_built}, before {OLD_BUILDING_BEFORE}: one tier up")
    else:
        notes.append(f"built {year_built}")
    name, rate = REHAB_TIERS[tier]
    value = int(round(square_footage * rate, -2))
    return Estimate(value, f"Rehab estimate: {name} tier, ${rate}/sqft x {square_footage:,} sqft "
                           f"({'; '.join(notes)})")


def roi(*, asking_price: int | None, market_value: int | None, arv: int | None,
        rehab: int | None) -> tuple[float | None, str]:
    """ROI (``platform.pricing.compute_roi``) against the asking price, else the market value; and which."""
    if asking_price is not None:
        price, against = asking_price, "ROI against the asking price"
    else:
        price, against = market_value, "ROI against the market value: no asking price on public records"
    missing = [name for name, value in (("ARV", arv), ("rehab estimate", rehab)) if value is None]
    if price is None:
        missing.insert(0, "asking price or market value")
    if missing:
        return None, f"{NA_BASIS}no {' or '.join(missing)}"
    value = pricing.compute_roi(arv, price, rehab)
    if value is None:
        return None, f"{NA_BASIS}nothing invested"
    return value, against


# Confidence deductions (points off 100).
NO_ADDRESS = 30
NO_ZIP = 20
NO_SQFT = 25
MARKET_VALUE_DEDUCTIONS = ((ASSESSOR_BASIS, 0), (INDEXED_SALE_BASIS, 10), (UNINDEXED_SALE_BASIS, 20),
                           (NA_BASIS, 30))
ARV_SAMPLE_DEDUCTIONS = ((10, 0), (5, 5), (3, 10), (1, 20), (0, 30))   # (at least n sales, points off)
WIDENED_STEP = 10
RECORD_AGE_YEAR = 5           # per full year beyond the first
RECORD_AGE_CAP = 30
NO_RECORD_DATE = 20


def confidence(*, has_address: bool, has_zip: bool, has_sqft: bool, market_value_basis: str,
               arv_sample_size: int, arv_widened_steps: int,
               newest_record_age_days: int | None) -> tuple[int, tuple[str, ...]]:
    """100 minus: no street address 30; no ZIP 20; no living area 25; market value from an indexed last
    sale 10, an unindexed last sale 20, none 30; ARV from 5-9 sales 5, 3-4 sales 10, 1-2 sales 20, none
    30; 10 per ARV widening step; newest record older than a year 5 per full year (1 year -> 0, 2 -> 5),
    at most 30, undated 20. At least 0. Returns the score and the reasons that lowered it."""
    reasons: list[tuple[int, str]] = []
    if not has_address:
        reasons.append((NO_ADDRESS, "No street address"))
    if not has_zip:
        reasons.append((NO_ZIP, "No ZIP code"))
    if not has_sqft:
        reasons.append((NO_SQFT, "No living area: no ARV or rehab estimate"))
    for prefix, points in MARKET_VALUE_DEDUCTIONS:
        if market_value_basis.startswith(prefix):
            if points:
                reasons.append((points, {INDEXED_SALE_BASIS: "Market value estimated from an indexed last sale",
                                         UNINDEXED_SALE_BASIS: "Market value from a last sale not indexed",
                                         NA_BASIS: "No market value"}[prefix]))
            break
    else:
        raise ValueError(f"not a market value basis: {market_value_basis!r}")
    for minimum, points in ARV_SAMPLE_DEDUCTIONS:
        if arv_sample_size >= minimum:
            if points:
                text = "No ARV: too few recorded sales" if minimum == 0 else f"ARV from only {arv_sample_size} sales"
                reasons.append((points, text))
            break
    if arv_sample_size and arv_widened_steps > 0:
        months = ARV_WINDOWS_MONTHS[min(arv_widened_steps, len(ARV_WINDOWS_MONTHS) - 1)]
        reasons.append((WIDENED_STEP * arv_widened_steps, f"ARV sales window widened to {months} months"))
    if newest_record_age_days is None:
        reasons.append((NO_RECORD_DATE, "No dated record"))
    else:
        years = max(0, newest_record_age_days) // 365
        points = min(RECORD_AGE_CAP, RECORD_AGE_YEAR * max(0, years - 1))
        if points:
            reasons.append((points, f"Newest record is {years} years old"))
    score = max(0, 100 - sum(points for points, _ in reasons))
    return score, tuple(f"{text} (-{points})" for points, text in reasons)
