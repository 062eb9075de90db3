"""Bulk scrape rules (SPEC 3, 5, 8, 9): cost and volume discount, the scrape
form's defaults and clamps, and the CSV export (the webhook body: ``scrape.rules_webhook``).

Pure functions: no database, no Reflex. The page, the webhook API and the
explorer all go through these, so a rule is decided in one place.
"""

from __future__ import annotations

import csv
import io
import math
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from marketplace.features.marketplace import Range, SearchCriteria
from marketplace.platform.leads import US_STATES
from marketplace.features.records import display_city, display_street
from marketplace.platform.texts import NO_PROVENANCE, SCRAPE_SHORTFALL

# --------------------------------------------------------------------------- cost

CREDITS_PER_LEAD = 100
MIN_LEADS, MAX_LEADS, DEFAULT_LEADS = 1, 1000, 50
# (lowest lead count of the tier, discount percent): SPEC 9's table, which the
# user sees before paying. Where its parenthetical ("5% per full 10 leads
# beyond 30") disagrees between multiples of ten, the table rules.
DISCOUNT_TIERS: tuple[tuple[int, int], ...] = (
    (0, 0), (31, 5), (41, 10), (51, 15), (61, 20), (71, 25), (81, 30), (91, 35),
)


def tier_label(index: int) -> str:
    """'0-30', '31-40', ... '91+' for the tier table."""
    low = DISCOUNT_TIERS[index][0]
    if index + 1 == len(DISCOUNT_TIERS):
        return f"{low}+"
    return f"{low}-{DISCOUNT_TIERS[index + 1][0] - 1}"


def discount_percent(lead_count: int) -> int:
    """The volume discount for ``lead_count`` leads (0-35)."""
    percent = 0
    for low, pct in DISCOUNT_TIERS:
        if lead_count >= low:
            percent = pct
    return percent


def scrape_cost(lead_count: int) -> int:
    """Credits for ``lead_count`` leads: count x 100 minus the volume discount.
    Whole credits always (count x (100 - percent)), e.g. 91 leads -> 5,915."""
    if lead_count <= 0:
        return 0
    return lead_count * (CREDITS_PER_LEAD - discount_percent(lead_count))


def full_price(lead_count: int) -> int:
    return max(0, lead_count) * CREDITS_PER_LEAD


def leads_text(count: int) -> str:
    """'1 lead', '91 leads', '1,000 leads'."""
    return f"{count:,} lead{'' if count == 1 else 's'}"


def base_price_label(lead_count: int) -> str:
    """The cost panel's Base price: '1 lead x 100 = 100 credits', '91 leads x 100 = 9,100 credits'."""
    return f"{leads_text(lead_count)} x {CREDITS_PER_LEAD} = {full_price(lead_count):,} credits"


def balance_after_label(balance: int, cost: int) -> str:
    """Balance after scrape: '4,085 credits', or 'Short by 1,200 credits' when the scrape
    costs more than the balance (never a made-up 0)."""
    if balance < cost:
        short = cost - balance
        return f"Short by {short:,} credit{'' if short == 1 else 's'}"
    return f"{balance - cost:,} credits"


def delivered_shortfall(lead_count: int, delivered: int) -> str:
    """'' when every lead asked for was delivered; otherwise what the user is told (a scrape delivers and
    charges what matched, never an invented lead to make up the count)."""
    if delivered >= lead_count:
        return ""
    return SCRAPE_SHORTFALL.format(delivered=delivered, asked=lead_count)


def need_credits_message(cost: int, balance: int) -> str:
    return f"You need {cost:,} credits to run this scrape. You have {balance:,} credits."



def completed_message(leads: int, credits: int) -> str:
    return f"Successfully scraped {leads:,} leads. {credits:,} credits deducted."


# --------------------------------------------------------------------------- what a user holds

HOLDING_KEY_MAX = 300  # held_properties.key


def address_key(address: str | None, zip_code: str | None) -> tuple[str, str]:
    """The same property whatever the case and spacing: ('1234 oak st', '78701')."""
    return (" ".join((address or "").lower().split()), (zip_code or "").strip())


def holding_keys(address: str | None, zip_code: str | None, listing_id: str | None) -> list[str]:
    """The keys under which a delivered property is held by its user (``held_properties``):
    its source listing id and its address and ZIP. A second delivery of either is refused."""
    keys = []
    if listing_id:
        keys.append(f"listing:{listing_id}"[:HOLDING_KEY_MAX])
    street, zip_code = address_key(address, zip_code)
    if street:
        keys.append(f"address:{street}|{zip_code}"[:HOLDING_KEY_MAX])
    return keys


# --------------------------------------------------------------------------- the scrape form (SPEC 5)

DEFAULT_CONFIDENCE = 70
PRICE_DEFAULTS = (0, 1_000_000)
SIZE_DEFAULTS = (0, 10_000)
ROI_DEFAULTS = (0, 100)


def _number(value: Any) -> float | None:
    """A finite number from a form value ('1,000', 12, '12.5'); None otherwise."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        number = float(value)
    elif isinstance(value, str):
        text = value.strip().replace(",", "").replace("$", "")
        if not text or len(text) > 20:
            return None
        try:
            number = float(text)
        except ValueError:
            return None
    else:
        return None
    return number if math.isfinite(number) else None


def parse_lead_count(value: Any) -> int:
    """Number of Leads: a whole number 1-1000; 50 for anything unreadable."""
    number = _number(value)
    if number is None:
        return DEFAULT_LEADS
    return int(min(MAX_LEADS, max(MIN_LEADS, math.floor(number))))


def parse_confidence(value: Any) -> int:
    """Minimum Confidence: clamped 0-100, 70 on a non-number."""
    number = _number(value)
    if number is None:
        return DEFAULT_CONFIDENCE
    return int(min(100, max(0, round(number))))


def parse_at_least_zero(value: Any, default: int) -> int:
    """Price and size bounds: at least 0, the default when unreadable."""
    number = _number(value)
    if number is None:
        return default
    return int(max(0, min(number, 1_000_000_000)))


def parse_roi(value: Any, default: int) -> int:
    """ROI bounds: clamped 0-100, the default when unreadable."""
    number = _number(value)
    if number is None:
        return default
    return int(min(100, max(0, round(number))))


def parse_cities(text: Any) -> tuple[str, ...]:
    """Comma-separated, trimmed, empties dropped ("Austin, , Dallas" -> Austin, Dallas).
    A 'City ST' pair written as 'Austin, TX' stays one entry."""
    if not isinstance(text, str):
        return ()
    parts = [part.strip() for part in text[:2000].split(",")]
    cities: list[str] = []
    for part in parts:
        if not part:
            continue
        if part.upper() in US_STATES and cities and "," not in cities[-1]:
            cities[-1] = f"{cities[-1]}, {part.upper()}"  # "Austin, TX" is one city
        else:
            cities.append(part[:80])
    return tuple(dict.fromkeys(cities))[:50]


@dataclass(frozen=True)
class ScrapeRequest:
    """SPEC 3's bulk scrape request, already clamped."""

    lead_count: int = DEFAULT_LEADS
    cities: tuple[str, ...] = ()
    states: tuple[str, ...] = ()
    lead_types: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    price: tuple[int, int] = PRICE_DEFAULTS
    size: tuple[int, int] = SIZE_DEFAULTS
    roi: tuple[int, int] = ROI_DEFAULTS
    min_confidence: int = DEFAULT_CONFIDENCE
    extra: dict = field(default_factory=dict)
    bank_owned: bool = False  # the webhook's includeBankOwned (marketplace.rules_criteria.SearchCriteria.bank_owned)

    @property
    def expected_cost(self) -> int:
        return scrape_cost(self.lead_count)

    def problems(self) -> list[str]:
        """What makes the request impossible (min above max), in the user's words."""
        out = []
        for label, (low, high) in (("Price", self.price), ("Size", self.size), ("ROI", self.roi)):
            if low > high:
                out.append(f"{label}: the minimum ({low:,}) is above the maximum ({high:,}).")
        return out

    def criteria(self) -> SearchCriteria:
        return SearchCriteria(
            count=self.lead_count,
            cities=self.cities,
            states=self.states,
            lead_types=self.lead_types,
            sources=self.sources,
            price=Range(self.price[0], self.price[1]),
            sqft=Range(self.size[0], self.size[1]),
            # The form's ROI stops at 100 (SPEC 5): a maximum of 100 is '100% or more', not a cap that drops
            # the 121.6% leads the cards show.
            roi=Range(self.roi[0], None if self.roi[1] >= ROI_DEFAULTS[1] else self.roi[1]),
            confidence=Range(self.min_confidence, 100),
            bank_owned=self.bank_owned,
        )

    def as_dict(self) -> dict:
        """SPEC 3's field names, as stored and logged."""
        return {
            "leadCount": self.lead_count,
            "cities": list(self.cities),
            "states": list(self.states),
            "leadTypes": list(self.lead_types),
            "sources": list(self.sources),
            "priceRange": {"min": self.price[0], "max": self.price[1]},
            "propertySize": {"min": self.size[0], "max": self.size[1]},
            "roiRange": {"min": self.roi[0], "max": self.roi[1]},
            "minConfidence": self.min_confidence,
            "expectedCost": self.expected_cost,
            **({"bankOwned": True} if self.bank_owned else {}),
        }


def pick(values: Any, allowed: Iterable[str]) -> tuple[str, ...]:
    """Only known options, in the order offered, once each."""
    allowed = tuple(allowed)
    if not isinstance(values, (list, tuple)):
        return ()
    chosen = {v for v in values if isinstance(v, str)}
    return tuple(option for option in allowed if option in chosen)


# --------------------------------------------------------------------------- results table (SPEC 5)

RESULT_TAGS = (("new", "New"), ("high_roi", "High ROI"), ("vacant", "Vacant"), ("auction_soon", "Auction Soon"))
RESULT_SORTS = (("roi_desc", "Highest ROI"), ("newest", "Newest"), ("price_asc", "Lowest Price"),
                ("zestimate_desc", "Highest Market Value"), ("sqft_asc", "Smallest Size"))
RESULTS_PAGE_SIZE = 25


def result_matches(row: Mapping[str, Any], roi_bands: Iterable[str], sizes: Iterable[str],
                   tags: Iterable[str], today: date | None = None) -> bool:
    """SPEC 5's result filters: OR within a group, AND across groups ("Auction Soon": the row's sale date
    within 30 days of ``today``, marketplace.rules_sale_dates; no ``today``, no row is)."""
    from marketplace.features.marketplace import roi_band, size_band
    from marketplace.features.marketplace import is_auction_soon, parse_date

    roi_bands, sizes, tags = set(roi_bands), set(sizes), set(tags)
    if roi_bands and roi_band(row.get("roi")) not in roi_bands:
        return False
    if sizes and size_band(row.get("square_footage")) not in sizes:
        return False
    if tags:
        have = {
            "new": bool(row.get("is_new")),
            "high_roi": bool(row.get("is_high_roi")),
            "vacant": row.get("lead_type") == "Vacancy",
            "auction_soon": today is not None and is_auction_soon(parse_date(row.get("sale_date")), today),
        }
        if not any(have.get(tag) for tag in tags):
            return False
    return True


def _sort_key(sort: str):
    def missing_last(value, descending=False):
        if value is None:
            return (1, 0)
        return (0, -value if descending else value)

    keys = {
        "roi_desc": lambda r: missing_last(r.get("roi"), descending=True),
        "newest": lambda r: r.get("created_at") or "",
        "price_asc": lambda r: missing_last(r.get("asking_price")),
        "zestimate_desc": lambda r: missing_last(r.get("zestimate"), descending=True),
        "sqft_asc": lambda r: missing_last(r.get("square_footage")),
    }
    return keys.get(sort, keys["roi_desc"])


def filter_results(rows: Iterable[Mapping[str, Any]], roi_bands=(), sizes=(), tags=(),
                   sort: str = "roi_desc", today: date | None = None) -> list[Mapping[str, Any]]:
    chosen = [row for row in rows if result_matches(row, roi_bands, sizes, tags, today)]
    return sorted(chosen, key=_sort_key(sort), reverse=(sort == "newest"))


# --------------------------------------------------------------------------- CSV (SPEC 9)

# SPEC 9's 15 columns first and in order, then "Provenance" (a deliberate 16th: where each lead's data comes
# from, 'Demo data (generated)' or 'Public record: <publisher>, <dataset>'; marketplace.rules_leads.export_provenance), so
# an invented address can never pass for a real one once exported.
CSV_COLUMNS = ("Address", "City", "State", "Zip Code", "Lead Type", "Asking Price", "Market Value", "ARV",
               "Rehab Estimate", "ROI (%)", "Beds", "Baths", "Square Footage", "Confidence Score", "Created Date",
               "Provenance")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def neutralize(cell: Any) -> str:
    """A cell a spreadsheet will never run (every CSV export writes its cells through this one function):
    text starting with = + - @ (or a tab or carriage return), as written or after Unicode compatibility
    normalisation (NFKC: the full-width ``＝ ＋ － ＠``, the small and superscript forms, which a spreadsheet
    may read as the ASCII sign), gets a leading apostrophe; the text itself is kept as written. Numbers
    stay numbers."""
    if cell is None:
        return ""
    if isinstance(cell, bool):
        return "Yes" if cell else "No"
    if isinstance(cell, (int, float)):
        return f"{cell:g}" if isinstance(cell, float) else str(cell)
    text = str(cell)
    if text.startswith(_FORMULA_START) or (
            not text.isascii() and unicodedata.normalize("NFKC", text).startswith(_FORMULA_START)):
        return "'" + text
    return text


def csv_row(lead: Mapping[str, Any]) -> list[str]:
    created = lead.get("created_at")
    if isinstance(created, datetime):
        created = created.date().isoformat()
    elif isinstance(created, str):
        created = created[:10]
    roi = lead.get("roi")
    return [neutralize(v) for v in (
        display_street(lead.get("address")), display_city(lead.get("city")), lead.get("state"), lead.get("zip_code"), lead.get("lead_type"),
        lead.get("asking_price"), lead.get("zestimate"), lead.get("arv"), lead.get("rehab_estimate"),
        None if roi is None else round(float(roi), 1), lead.get("beds"), lead.get("baths"),
        lead.get("square_footage"), lead.get("confidence_score"), created,
        lead.get("provenance") or NO_PROVENANCE,
    )]


def csv_text(leads: Iterable[Mapping[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for lead in leads:
        writer.writerow(csv_row(lead))
    return out.getvalue()


def results_filename(day: datetime) -> str:
    """The bulk scraper's Download CSV: named by date."""
    return f"bulk-scrape-{day:%Y-%m-%d}.csv"


def stored_scrape_filename(lead_count: int, created: datetime) -> str:
    """The dashboard's export of a stored scrape: lead count and a timestamp."""
    return f"bulk-scrape-{lead_count}-leads-{created:%Y%m%d-%H%M%S}.csv"
