"""Marketplace rules (SPEC sections 2, 4, 5 and 9): the filter registry (``FILTERS``, one
``FilterSpec`` row per filter) and the ``Filters`` value, sorts, masking, the refresh
countdown and money formatting. Pure functions only (pages: ``platform.paging``; a lead's
outside links: ``marketplace.rules_listing_links``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from urllib.parse import parse_qs, urlencode

from marketplace.features.marketplace import rules_filter_values as values
from marketplace.features.unlock import (
    HELD_BAND_BOUNDS,
    HELD_BANDS,
    HELD_SORT,
    SPOTS_FILTER,
    held_chip,
    spots_chip,
    spots_left,
)
from marketplace.platform.leads import LEAD_TYPES
from marketplace.platform.limits import MAX_PLACES
from marketplace.features.marketplace.rules_sale_dates import AUCTION_SOON_TAG, PACIFIC, is_auction_soon
from marketplace.platform.texts import BANK_OWNED_LABEL, COUNTDOWN
from marketplace.features.unlock import HELD_SORT_LABEL, SPOTS_OPTIONS
from marketplace.platform.text_keys import city_key

REFRESH_HOUR = 8
PAGE_SIZES = (20, 50, 100)
DEFAULT_PAGE_SIZE = 20
# Pictures of the next page's first cards (two rows of the widest grid) that the browser
# fetches while idle, so that Next page shows them without waiting; only once the user has
# stayed on a page this long (someone paging quickly through never waits for them, and the
# server draws no pictures for pages nobody opens).
PREFETCH_PICTURES = 8
PREFETCH_AFTER_MS = 1000
LOW_CREDIT_THRESHOLD = 30
MASK = "••••"

# Filter options: (value, label). Values are what the URL carries.
ROI_BANDS = (
    ("gt30", "Over 30%"),
    ("20-30", "20% - 30%"),
    ("10-20", "10% - 20%"),
    ("0-10", "Under 10%"),
    ("lt0", "Below 0%"),
    ("unknown", "Unknown"),
)
SIZE_BANDS = (
    ("small", "Up to 1,000 sqft"),
    ("medium", "1,001 - 2,000 sqft"),
    ("large", "Over 2,000 sqft"),
)
TAGS = (
    ("new", "New"),
    ("high_roi", "High ROI"),
    ("vacant", "Vacant"),
    ("auction_soon", "Auction Soon"),
    ("unlocked", "Unlocked"),
    # Public-record leads: signals and owner flags, which every viewer may filter on.
    ("two_signals", "2+ signals"),
    ("absentee", "Absentee owner"),
    ("out_of_state", "Out-of-state owner"),
    ("bank_owned", BANK_OWNED_LABEL),
)
SORTS = (
    ("roi_desc", "Highest ROI"),
    ("newest", "Newest"),
    ("price_asc", "Lowest Price"),
    ("zestimate_desc", "Highest Market Value"),
    ("sqft_asc", "Smallest Size"),
    ("motivation_desc", "Motivation (high to low)"),  # public-record leads' motivation score
    (HELD_SORT, HELD_SORT_LABEL),  # fewest investors holding the lead first (unlock.rules_holders)
)
DEFAULT_SORT = "roi_desc"
LEAD_TYPE_OPTIONS = LEAD_TYPES


# Band bounds, shared by roi_band()/size_band() and the SQL the services build:
# (lower, lower inclusive, upper, upper inclusive); None = unbounded.
ROI_BAND_BOUNDS = {
    "gt30": (30, False, None, False),
    "20-30": (20, True, 30, True),
    "10-20": (10, True, 20, False),
    "0-10": (0, False, 10, False),
    "lt0": (None, False, 0, False),  # a loss: never "Unknown", which is for leads without a figure
}
SIZE_BAND_BOUNDS = {
    "small": (None, False, 1000, True),
    "medium": (1000, False, 2000, True),
    "large": (2000, False, None, False),
}


def in_bounds(value: float, bounds: tuple) -> bool:
    lower, lower_inclusive, upper, upper_inclusive = bounds
    if lower is not None and (value < lower or (value == lower and not lower_inclusive)):
        return False
    if upper is not None and (value > upper or (value == upper and not upper_inclusive)):
        return False
    return True


def roi_band(roi: float | None) -> str:
    """SPEC 5: >30; 20-30 inclusive; 10 to under 20; under 10 and above 0; Unknown (none or 0); and
    "Below 0%" for a negative ROI (a loss is a figure, never Unknown)."""
    if roi is not None:
        for band, bounds in ROI_BAND_BOUNDS.items():
            if in_bounds(roi, bounds):
                return band
    return "unknown"


def size_band(sqft: int | None) -> str | None:
    """SPEC 5: up to 1,000; over 1,000 up to 2,000; over 2,000. None when unknown."""
    if sqft is not None:
        for band, bounds in SIZE_BAND_BOUNDS.items():
            if in_bounds(sqft, bounds):
                return band
    return None


@dataclass(frozen=True)
class Match:
    """A predicate over one lead's columns, declared here and applied twice: as SQL by
    ``marketplace.service`` (over ``leads``, or ``lead_facets`` when it has the columns) and
    on a lead's own values by ``holds`` (new-lead alerts). ``op``: 'true' (the flag is set;
    NULL, unknown, never matches), 'eq' / 'at_least' ``value``, 'bounds' (``value``:
    (lower, inclusive, upper, inclusive)), 'no_figure' (NULL or 0), 'sale_soon' (a sale date
    within marketplace.rules_sale_dates' window of today), 'unlocked' (the viewer holds the lead; a new
    lead is held by nobody), 'spot_left' (a spot left under LEAD_MAX_HOLDERS, unlock.rules_holders: the
    SQL reads the cap from the settings, ``holds`` from the lead's ``max_holders``, 0 = no cap)."""

    op: str
    column: str = ""
    value: object = None


# The columns ``lead_facets`` has beside its count: a filter only on these is counted there.
FACET_COLUMNS = frozenset({"lead_type", "roi_band", "size_band", "is_new", "is_high_roi"})


def facet_match(match: Match) -> bool:
    """Whether ``lead_facets`` answers ``match`` as ``leads`` would (a fact of its columns)."""
    return match.op in ("true", "eq") and match.column in FACET_COLUMNS


def holds(match: Match, lead: Mapping[str, object], today: date | None) -> bool:
    """``match`` on a lead's values (a mapping of its columns), as the SQL decides it."""
    value = lead.get(match.column) if match.column else None
    if match.op == "true":
        return value is True
    if match.op == "eq":
        return value == match.value
    if match.op == "at_least":
        return (value or 0) >= match.value
    if match.op == "bounds":
        return value is not None and in_bounds(value, match.value)
    if match.op == "no_figure":
        return value is None or value == 0
    if match.op == "sale_soon":
        return today is not None and is_auction_soon(value, today)
    if match.op == "spot_left":
        return spots_left(value, int(lead.get("max_holders") or 0), bool(lead.get("exclusive"))) != 0
    return False  # 'unlocked': nobody holds a lead an alert announces


@dataclass(frozen=True)
class FilterSpec:
    """One marketplace filter: everything about it is this row.

    ``field`` of ``Filters``; ``key`` in the URL (repeatable), in saved-search criteria and in
    element ids; ``options`` the checkboxes (value, label), None for typed values; ``clean`` one
    value (None: dropped); ``chip`` how its chip reads; at most ``limit`` values; ``commas``
    whether a URL value may list several. Options OR within a filter, filters AND.

    What it matches is either ``column`` (the value is the lead's column, compared after
    ``fold``; ``any_case``: the column lower-cased in SQL) or ``matches`` (each option's
    ``Match``); ``facet``: ``lead_facets``' column holding the option values. ``place``: alert
    matching checks it against the leads' place cells (marketplace.service_alerts). Adding a filter is a
    ``Filters`` field, a row here and its control (features/marketplace/view_filters.py)."""

    field: str
    key: str
    clean: Callable[[object], str | None]
    chip: Callable[[str], str]
    options: tuple[tuple[str, str], ...] | None = None
    limit: int = 50
    commas: bool = True
    column: str = ""
    fold: Callable[[str], str] = str
    any_case: bool = False
    facet: str = ""
    matches: Mapping[str, Match] | None = None
    place: bool = False

    def countable_from_facets(self, values: tuple[str, ...]) -> bool:
        """Whether ``lead_facets`` can count these values of this filter: ``facet`` holds them,
        or each value's ``Match`` reads only its columns."""
        return bool(self.facet) or (self.matches is not None and all(
            facet_match(self.matches[value]) for value in values))

    def offered(self, lead: Mapping[str, object], today: date | None) -> set[str]:
        """The values of this filter a lead offers to the alert criteria."""
        if self.column:
            value = lead.get(self.column)
            return {self.fold(value)} if value else set()
        return {option for option, match in self.matches.items() if holds(match, lead, today)}


def _option_of(options) -> Callable[[object], str | None]:
    allowed = frozenset(value for value, _ in options)
    return lambda value: value if isinstance(value, str) and value in allowed else None


def _labelled(options, prefix: str = "") -> Callable[[str], str]:
    labels = dict(options)
    return lambda value: prefix + labels.get(value, value)


TAG_MATCHES = {
    "new": Match("true", "is_new"),
    "high_roi": Match("true", "is_high_roi"),
    "vacant": Match("eq", "lead_type", "Vacancy"),
    AUCTION_SOON_TAG: Match("sale_soon", "sale_date"),
    "unlocked": Match("unlocked"),
    "two_signals": Match("at_least", "signal_count", 2),
    "absentee": Match("true", "absentee_owner"),
    "out_of_state": Match("true", "out_of_state_owner"),
    "bank_owned": Match("true", "bank_owned"),
}
ROI_MATCHES = {**{band: Match("bounds", "roi", bounds) for band, bounds in ROI_BAND_BOUNDS.items()},
               "unknown": Match("no_figure", "roi")}
HELD_MATCHES = {band: Match("bounds", "unlock_count", (low, True, high, True))
                for band, (low, high) in HELD_BAND_BOUNDS.items()}
LEAD_TYPE_CHOICES = tuple((v, v) for v in LEAD_TYPE_OPTIONS)
FILTERS = (
    FilterSpec("lead_types", "type", _option_of(LEAD_TYPE_CHOICES), str, LEAD_TYPE_CHOICES,
               column="lead_type", facet="lead_type"),
    FilterSpec("roi_ranges", "roi", _option_of(ROI_BANDS), _labelled(ROI_BANDS, "ROI "), ROI_BANDS,
               facet="roi_band", matches=ROI_MATCHES),
    FilterSpec("sizes", "size", _option_of(SIZE_BANDS), _labelled(SIZE_BANDS), SIZE_BANDS, facet="size_band",
               matches={band: Match("bounds", "square_footage", b) for band, b in SIZE_BAND_BOUNDS.items()}),
    FilterSpec("tags", "tag", _option_of(TAGS), _labelled(TAGS), TAGS, matches=TAG_MATCHES),
    FilterSpec("states", "state", values.clean_state, _labelled(values.STATE_NAMES.items()),
               column="state", place=True),
    FilterSpec("cities", "city", values.clean_city, str, limit=MAX_PLACES, commas=False,
               column="city", fold=city_key, any_case=True, place=True),
    FilterSpec("zips", "zip", values.clean_zip, "ZIP {}".format, limit=MAX_PLACES,
               column="zip_code", fold=lambda zip_code: zip_code[:5], place=True),
    # How many investors hold the lead (unlock.rules_holders): 'held=none' for leads nobody has unlocked yet.
    FilterSpec("held", "held", _option_of(HELD_BANDS), held_chip, HELD_BANDS, len(HELD_BANDS),
               matches=HELD_MATCHES),
    # The cap (LEAD_MAX_HOLDERS, unlock.rules_holders): 'spots=open' hides full (sold-out) leads.
    FilterSpec("spots", "spots", _option_of(SPOTS_OPTIONS), spots_chip, SPOTS_OPTIONS, len(SPOTS_OPTIONS),
               matches={SPOTS_FILTER: Match("spot_left", "unlock_count")}),
)
FILTER_BY_FIELD = {spec.field: spec for spec in FILTERS}
# Tags ``lead_facets`` cannot count (counted over ``leads``): the user's own, the public-record
# flags, and "Auction Soon", which depends on today's date.
LEAD_ONLY_TAGS = frozenset(tag for tag, match in TAG_MATCHES.items() if not facet_match(match))
SORT_VALUES = frozenset(value for value, _ in SORTS)
PRICE_KEYS = ("min_price", "max_price")  # the asking-price range: whole dollars, both ends included


def _same(a: str, b: str) -> bool:
    return a.lower() == b.lower()  # a city in any case is the same city


@dataclass(frozen=True)
class Filters:
    """Marketplace filter state. Within a group options OR; across groups AND; the asking-price
    range (either end optional) is one more group, which a lead without a price never matches."""

    lead_types: tuple[str, ...] = ()
    roi_ranges: tuple[str, ...] = ()
    sizes: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    states: tuple[str, ...] = ()
    cities: tuple[str, ...] = ()
    zips: tuple[str, ...] = ()
    held: tuple[str, ...] = ()
    spots: tuple[str, ...] = ()
    min_price: int | None = None
    max_price: int | None = None
    sort: str = DEFAULT_SORT
    page: int = 1
    page_size: int = DEFAULT_PAGE_SIZE

    @property
    def has_price(self) -> bool:
        return self.min_price is not None or self.max_price is not None

    @property
    def active_count(self) -> int:
        return sum(len(getattr(self, group.field)) for group in FILTERS) + (1 if self.has_price else 0)

    def toggled(self, group: str, value: str) -> Filters:
        """Add or remove one option; any filter change goes back to page 1. A value the group
        does not accept, or one past its limit, changes nothing but the page."""
        spec = FILTER_BY_FIELD[group]
        current = getattr(self, group)
        if any(_same(v, value) for v in current):
            return replace(self, **{group: tuple(v for v in current if not _same(v, value))}, page=1)
        cleaned = spec.clean(value)
        if cleaned is None or len(current) >= spec.limit:
            return replace(self, page=1)
        return replace(self, **{group: current + (cleaned,)}, page=1)

    def with_value(self, group: str, value: str) -> Filters:
        """``value`` added to the group (kept if already there, in any case)."""
        current = getattr(self, group)
        return replace(self, page=1) if any(_same(v, value) for v in current) else self.toggled(group, value)

    def with_price(self, min_price: int | None, max_price: int | None) -> Filters:
        return replace(self, min_price=min_price, max_price=max_price, page=1)

    def cleared(self) -> Filters:
        return Filters(sort=self.sort, page_size=self.page_size)

    def to_query(self) -> str:
        """The URL query string (only non-default values), for bookmarking and sharing."""
        params: list[tuple[str, str]] = []
        for group in FILTERS:
            params.extend((group.key, v) for v in getattr(self, group.field))
        params.extend((key, str(getattr(self, key))) for key in PRICE_KEYS if getattr(self, key) is not None)
        if self.sort != DEFAULT_SORT:
            params.append(("sort", self.sort))
        if self.page_size != DEFAULT_PAGE_SIZE:
            params.append(("per_page", str(self.page_size)))
        if self.page != 1:
            params.append(("page", str(self.page)))
        return urlencode(params)

    @classmethod
    def from_query(cls, query: str | dict) -> Filters:
        """Parse a query string; unknown or malformed values are dropped, never trusted. A price
        range whose minimum is above its maximum is dropped whole."""
        params = parse_qs(query) if isinstance(query, str) else {k: v if isinstance(v, list) else [v]
                                                                    for k, v in query.items()}

        def pick(group: FilterSpec) -> tuple[str, ...]:
            seen: list[str] = []
            for raw in params.get(group.key, []):
                for value in (str(raw).split(",") if group.commas else [str(raw)]):
                    cleaned = group.clean(value)
                    if cleaned is not None and not any(_same(v, cleaned) for v in seen) and len(seen) < group.limit:
                        seen.append(cleaned)
            return tuple(seen)

        low, high = (values.parse_price(str((params.get(key) or [""])[0])) for key in PRICE_KEYS)
        if low is not None and high is not None and low > high:
            low = high = None
        sort = (params.get("sort") or [DEFAULT_SORT])[0]
        page_size = _int((params.get("per_page") or [""])[0], DEFAULT_PAGE_SIZE)
        return cls(
            **{group.field: pick(group) for group in FILTERS},
            min_price=low,
            max_price=high,
            sort=sort if sort in {v for v, _ in SORTS} else DEFAULT_SORT,
            page=max(1, _int((params.get("page") or [""])[0], 1)),
            page_size=page_size if page_size in PAGE_SIZES else DEFAULT_PAGE_SIZE,
        )


def _int(text: str, default: int) -> int:
    try:
        return int(text)
    except (TypeError, ValueError):
        return default


def mask_address(address: str | None) -> str:
    """All words but the last replaced by dots: '1234 Maple Ridge Dr' -> '•••• •••• •••• Dr'."""
    words = (address or "").split()
    if len(words) <= 1:
        return MASK if words else ""
    return " ".join([MASK] * (len(words) - 1) + [words[-1]])


def next_refresh(now: datetime) -> datetime:
    """The next 8:00 AM Pacific after ``now`` (DST-correct)."""
    local = now.astimezone(PACIFIC)
    day = local.date()
    target = datetime(day.year, day.month, day.day, REFRESH_HOUR, tzinfo=PACIFIC)
    if target <= now:
        day = day + timedelta(days=1)
        target = datetime(day.year, day.month, day.day, REFRESH_HOUR, tzinfo=PACIFIC)
    return target


def refresh_countdown(now: datetime) -> str:
    """'Next refresh in: Xh Ym' (SPEC 2)."""
    seconds = int((next_refresh(now) - now).total_seconds())
    hours, minutes = divmod(max(0, seconds) // 60, 60)
    return COUNTDOWN.format(hours=hours, minutes=minutes)


def usd(value: int | float | None) -> str:
    """USD without decimals; 'N/A' when missing (SPEC 5)."""
    if value is None:
        return "N/A"
    sign = "-" if value < 0 else ""
    return f"{sign}${abs(round(value)):,.0f}"


def percent(value: float | None) -> str:
    """One decimal and a percent sign; a value that rounds to zero reads 0.0%, never -0.0%."""
    return "N/A" if value is None else f"{round(value, 1) + 0.0:.1f}%"
