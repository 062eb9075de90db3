"""Comparable sales: which recorded sales compare with a lead, which are outliers, and the
ARV of the sales the user pins. Pure rules: the caller passes the sales (``features/property/service_comps.py`` gets them from
the lead's source) and today's date.

Selection (``select_comps``)
  A sale compares with the subject when it sold within the step's months before today (and not after
  today), lies within the step's radius (great-circle distance, ``haversine_miles``), has a living area
  within 20 % of the subject's, is of the same property type and has a bedroom count within 1. A criterion
  the subject or the sale cannot answer (no beds on the deed, no type) is not applied to that pair; a sale
  without a living area or a price never compares (no $/sqft). A subject without a position has no
  comparable sales. The steps (``STEPS``): 0.5 mile and 6 months; when fewer than ``MIN_COMPS`` match, 1
  mile and 6 months, then 1 mile and 12 months, then 2 miles and 12 months, and ``step_note`` says which
  step was used and why.

Outliers (``outliers``): sales whose $/sqft lies more than 2 population standard deviations from the mean
  $/sqft of the selected sales. (With fewer than 6 sales none can: the largest z-score of n values is
  (n - 1) / sqrt(n).)

ARV (``pinned_arv``): the median $/sqft of the pinned sales x the subject's living area, to $1,000; low and
  high from the 25th and 75th percentile $/sqft of the pinned sales (inclusive method; one pinned sale: all
  three equal). No pinned sale, or no living area -> None.
"""

from __future__ import annotations

import calendar
import math
import re
import statistics
from dataclasses import dataclass
from datetime import date

from marketplace.features.property import texts_comps as text

MIN_COMPS = 3
SQFT_TOLERANCE = 0.20
BEDS_TOLERANCE = 1
OUTLIER_SD = 2.0
EARTH_RADIUS_MILES = 3958.8
MAX_STEP_RADIUS = 2.0


@dataclass(frozen=True)
class Step:
    miles: float
    months: int


STEPS = (Step(0.5, 6), Step(1.0, 6), Step(1.0, 12), Step(2.0, 12))


@dataclass(frozen=True)
class Subject:
    """The lead the comps are for."""

    latitude: float | None
    longitude: float | None
    square_footage: int | None
    beds: int | None
    property_type: str | None  # a ``property_type`` name, or None when unknown


@dataclass(frozen=True)
class Comp:
    """One recorded sale as a source reports it (``comp_id`` is stable within the lead's source)."""

    comp_id: str
    address: str
    city: str
    state: str
    zip_code: str
    sale_date: date
    price: int
    square_footage: int | None
    beds: int | None
    baths: float | None
    property_type: str | None
    latitude: float | None
    longitude: float | None
    approximate_position: bool = False  # placed at its ZIP code's centre (no coordinates on the record)


@dataclass(frozen=True)
class Scored:
    """A selected comp with its distance (miles) and price per square foot."""

    comp: Comp
    miles: float
    per_sqft: float


@dataclass(frozen=True)
class Selection:
    comps: tuple[Scored, ...]      # nearest first
    step: int                      # index into STEPS
    note: str                      # the words for the step (``step_note``)


@dataclass(frozen=True)
class Arv:
    value: int
    low: int
    high: int
    count: int
    per_sqft: float                # the median $/sqft
    basis: str


def haversine_miles(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in miles (Earth radius 3,958.8 miles)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_MILES * math.asin(min(1.0, math.sqrt(a)))


def months_before(day: date, months: int) -> date:
    """The same day ``months`` calendar months earlier (the month's last day when it has fewer days)."""
    year, month = divmod(day.year * 12 + day.month - 1 - months, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


_TYPE_WORDS = (  # first match wins; checked on the lower-cased text
    (("condo", "coop", "co-op", "cooperative", "apartment"), "Condo"),
    (("town", "rowhouse", "row house", "attached"), "Townhouse"),
    (("two family", "three family", "multi", "duplex", "triplex", "fourplex", "2-4", "walk-up", "walkup",
      "elevator"), "Multi-Family"),
    (("manufactured", "mobile"), "Manufactured"),
    (("land", "vacant lot", "lot"), "Land"),
    (("single", "one family", "detached", "residential", "house"), "Single Family"),
)


def property_type(raw: str | None) -> str | None:
    """A source's property type or building class as one of Single Family, Condo, Townhouse, Multi-Family,
    Manufactured, Land; None when unknown ("01 ONE FAMILY DWELLINGS" -> Single Family)."""
    words = re.sub(r"[^a-z0-9\- ]+", " ", (raw or "").lower())
    words = re.sub(r"\s+", " ", words).strip()
    if not words:
        return None
    for keys, name in _TYPE_WORDS:
        if any(re.search(rf"\b{re.escape(key)}", words) for key in keys):
            return name
    return None


def _matches(subject: Subject, comp: Comp, miles: float, since: date, today: date, step: Step) -> bool:
    if not since < comp.sale_date <= today or miles > step.miles:
        return False
    if subject.square_footage and abs(comp.square_footage - subject.square_footage) > \
            SQFT_TOLERANCE * subject.square_footage:
        return False
    if subject.property_type and comp.property_type and subject.property_type != comp.property_type:
        return False
    if subject.beds is not None and comp.beds is not None and abs(comp.beds - subject.beds) > BEDS_TOLERANCE:
        return False
    return True


def _usable(comp: Comp) -> bool:
    return (comp.price > 0 and bool(comp.square_footage) and comp.square_footage > 0
            and comp.latitude is not None and comp.longitude is not None)


def select_comps(subject: Subject, sales: list[Comp] | tuple[Comp, ...], today: date) -> Selection:
    """The comparable sales of ``subject`` among ``sales`` (module docstring), nearest first."""
    if subject.latitude is None or subject.longitude is None:
        return Selection((), len(STEPS) - 1, text.NO_POSITION)
    scored = []
    for comp in sales:
        if _usable(comp):
            miles = haversine_miles(subject.latitude, subject.longitude, comp.latitude, comp.longitude)
            scored.append(Scored(comp, miles, comp.price / comp.square_footage))
    found: list[Scored] = []
    for index, step in enumerate(STEPS):
        since = months_before(today, step.months)
        found = [s for s in scored if _matches(subject, s.comp, s.miles, since, today, step)]
        if len(found) >= MIN_COMPS:
            break
    found.sort(key=lambda s: (s.miles, -s.comp.sale_date.toordinal(), s.comp.comp_id))
    return Selection(tuple(found), index, step_note(index, len(found)))


def _miles(value: float) -> str:
    return f"{value:g} mile" if value == 1 or value < 1 else f"{value:g} miles"


def step_note(index: int, count: int) -> str:
    """What the selection did, in words: 'Sold in the last 6 months within 0.5 mile' or 'Widened to 1 mile:
    fewer than 3 sales within 0.5 mile in 6 months'; when even the last step has fewer than 3, it says so."""
    step = STEPS[index]
    if index == 0:
        return text.STEP_FIRST.format(months=step.months, radius=_miles(step.miles))
    before = STEPS[index - 1]
    widened = _miles(step.miles) if step.miles != before.miles else f"{step.months} months"
    note = text.STEP_WIDENED.format(widened=widened, minimum=MIN_COMPS, radius=_miles(before.miles),
                                    months=before.months)
    if count < MIN_COMPS and index == len(STEPS) - 1:
        # Two sentences: the widening note has no full stop of its own.
        note += ". " + text.STEP_TOO_FEW.format(count=count, radius=_miles(step.miles), months=step.months)
    return note


def outliers(selected: tuple[Scored, ...] | list[Scored]) -> frozenset[str]:
    """The comp ids whose $/sqft lies beyond 2 standard deviations of the selection's mean $/sqft."""
    values = [s.per_sqft for s in selected]
    if len(values) < 2:
        return frozenset()
    mean, sd = statistics.fmean(values), statistics.pstdev(values)
    if sd == 0:
        return frozenset()
    return frozenset(s.comp.comp_id for s in selected if abs(s.per_sqft - mean) > OUTLIER_SD * sd)


def default_pins(selected: tuple[Scored, ...] | list[Scored]) -> tuple[str, ...]:
    """Before the user chooses: every selected sale that is not an outlier."""
    hidden = outliers(selected)
    return tuple(s.comp.comp_id for s in selected if s.comp.comp_id not in hidden)


def _thousand(value: float) -> int:
    return int(round(value, -3))


def pinned_arv(subject_sqft: int | None, pinned: list[Scored] | tuple[Scored, ...]) -> Arv | None:
    """ARV from the pinned sales (module docstring); None without a pinned sale or a living area."""
    if not pinned or not subject_sqft or subject_sqft <= 0:
        return None
    values = sorted(s.per_sqft for s in pinned)
    median = statistics.median(values)
    if len(values) >= 2:
        low, _, high = statistics.quantiles(values, n=4, method="inclusive")
    else:
        low = high = median
    basis = text.ARV_BASIS.format(count=len(values), sales="sale" if len(values) == 1 else "sales",
                                  sqft=f"{subject_sqft:,}", per_sqft=f"${median:,.0f}")
    return Arv(_thousand(median * subject_sqft), _thousand(low * subject_sqft), _thousand(high * subject_sqft),
               len(values), median, basis)
