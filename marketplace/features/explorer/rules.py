"""The developer explorer's leads table and CSV export: pure rules (SPEC 4, 5, 9).

- The table lists the marketplace's leads (private bulk-scrape deliveries are
  left out), newest first by default; the SPEC's sorts are offered too.
- Search: one box for a city, a state, a ZIP or a mix ("Austin", "TX",
  "78701", "Austin, TX", "Austin TX 78701"). ``parse_search`` turns the text
  into exact, index-friendly conditions: state = code, ZIP prefix (a range
  the ZIP index answers), city equal ignoring case.
- The developer CSV has the 23 ``CSV_COLUMNS`` (SPEC 9's 22 and Provenance); cells go through
  ``scrape.rules.neutralize`` so no cell runs as a spreadsheet formula.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from urllib.parse import urlencode

from marketplace.platform import pricing
from marketplace.features.marketplace import arv_used
from marketplace.platform.leads import US_STATES
from marketplace.features.marketplace import percent, usd
from marketplace.features.scrape import neutralize
from marketplace.features.records import display_city, display_street
from marketplace.platform.times import UTC_NAME, format_date
from marketplace.platform.texts import NO_PROVENANCE

PAGE_SIZES = (25, 50, 100)
DEFAULT_PAGE_SIZE = 25
SORTS = (
    ("newest", "Newest first"),
    ("roi_desc", "Highest ROI"),
    ("price_asc", "Lowest price"),
    ("zestimate_desc", "Highest market value"),
    ("sqft_asc", "Smallest size"),
)
SORT_VALUES = tuple(value for value, _ in SORTS)
DEFAULT_SORT = "newest"
STATUSES = (("all", "All"), ("active", "Active"), ("archived", "Archived"))
STATUS_VALUES = tuple(value for value, _ in STATUSES)
DEFAULT_STATUS = "all"
SEARCH_MAX_LENGTH = 100


# The developer CSV: SPEC 9's 22 columns, then "Provenance" (where each lead's data comes from:
# platform.leads.export_provenance), a deliberate 23rd.
CSV_COLUMNS = (
    "ID", "Created At", "Status", "Address", "City", "State", "Zip Code", "Lead Type", "Source",
    "Asking Price", "Market Value", "ARV", "Rehab Estimate", "ROI (%)", "Beds", "Baths", "Square Footage",
    "Confidence Score", "Credit Cost", "New", "High ROI", "Image Status", "Provenance",
)
# The lead fields the table and the CSV read (never raw_data or image lists).
LEAD_FIELDS = (
    "id", "created_at", "is_active", "address", "city", "state", "zip_code", "lead_type", "source",
    "asking_price", "zestimate", "arv", "rehab_estimate", "roi", "beds", "baths", "square_footage",
    "confidence_score", "credit_cost", "is_new", "is_high_roi", "images_fetch_status", "comps_arv", "roi_basis",
)

_ZIP = re.compile(r"^\d{1,5}(?:-\d{0,4})?$")
_SEPARATORS = re.compile(r"\s*,\s*|\s+")


# --------------------------------------------------------------------------- search


@dataclass(frozen=True)
class LeadSearch:
    """What the search box asks for; empty strings mean 'any'."""

    city: str = ""
    state: str = ""
    zip_prefix: str = ""

    @property
    def empty(self) -> bool:
        return not (self.city or self.state or self.zip_prefix)

    def describe(self) -> str:
        """'city "Austin", state TX, ZIP 787...' for the caption."""
        parts = []
        if self.city:
            parts.append(f'city "{self.city}"')
        if self.state:
            parts.append(f"state {self.state}")
        if self.zip_prefix:
            parts.append(f"ZIP {self.zip_prefix}" + ("" if len(self.zip_prefix) >= 5 else "..."))
        return ", ".join(parts)


def parse_search(text: object) -> LeadSearch:
    """'Austin' -> city; 'tx' -> state TX; '787' -> ZIP prefix; 'Austin, TX 78701' -> all three.

    A trailing ZIP (1-5 digits, optionally '-' and up to 4 more) and then a
    trailing two-letter state code are taken off the end; what is left is the
    city. Anything else (punctuation, a 6-digit number) stays in the city and
    simply matches nothing.
    """
    raw = " ".join(str(text if isinstance(text, str) else "")[:SEARCH_MAX_LENGTH].split())
    tokens = [t for t in _SEPARATORS.split(raw.strip(" ,")) if t]
    zip_prefix = state = ""
    if tokens and _ZIP.match(tokens[-1]):
        zip_prefix = tokens.pop().rstrip("-")
    if tokens and len(tokens[-1]) == 2 and tokens[-1].upper() in US_STATES:
        state = tokens.pop().upper()
    city = " ".join(tokens)
    return LeadSearch(city=city, state=state, zip_prefix=zip_prefix)


def zip_range(prefix: str) -> tuple[str, str | None]:
    """The ZIP prefix's five-digit part as a half-open range [low, high) a btree
    index answers under any collation: '787' -> ('787', '788'), '7899' ->
    ('7899', '79'), '999' -> ('999', None)."""
    digits = prefix.split("-", 1)[0]
    stem = digits.rstrip("9")
    if not stem:
        return digits, None
    return digits, stem[:-1] + str(int(stem[-1]) + 1)


# --------------------------------------------------------------------------- view


def parse_sort(value: object) -> str:
    return value if isinstance(value, str) and value in SORT_VALUES else DEFAULT_SORT


def parse_status(value: object) -> str:
    return value if isinstance(value, str) and value in STATUS_VALUES else DEFAULT_STATUS


def parse_page_size(value: object) -> int | None:
    try:
        size = int(str(value))
    except (TypeError, ValueError):
        return None
    return size if size in PAGE_SIZES else None


@dataclass(frozen=True)
class LeadView:
    """The table's current view: search text, status filter and sort (what an export covers)."""

    query: str = ""
    status: str = DEFAULT_STATUS
    sort: str = DEFAULT_SORT

    @classmethod
    def of(cls, query: object = "", status: object = DEFAULT_STATUS, sort: object = DEFAULT_SORT) -> LeadView:
        text = " ".join(str(query if isinstance(query, str) else "")[:SEARCH_MAX_LENGTH].split())
        return cls(query=text, status=parse_status(status), sort=parse_sort(sort))

    @property
    def search(self) -> LeadSearch:
        return parse_search(self.query)

    def params(self) -> str:
        """The canonical query string: the export link carries it and its token is bound to it."""
        return urlencode({"q": self.query, "status": self.status, "sort": self.sort})


# --------------------------------------------------------------------------- display


def _created(value: Any, zone_name: str) -> str:
    """The day the lead was added, in the viewer's zone and the app's one date format."""
    return format_date(value, zone_name) if isinstance(value, (datetime, date)) else ""


def table_row(lead: Mapping[str, Any], zone_name: str = UTC_NAME) -> dict[str, str]:
    """One table row as display strings (admins see the full address); dates in ``zone_name``."""
    return {
        "id": str(lead["id"]),
        "created": _created(lead.get("created_at"), zone_name),
        "address": display_street(lead.get("address")),
        "city": display_city(lead.get("city")),
        "state": lead.get("state") or "",
        "zip": lead.get("zip_code") or "",
        "lead_type": lead.get("lead_type") or "",
        "place": " ".join(part for part in (f"{display_city(lead.get('city'))},", lead.get("state") or "",
                                               lead.get("zip_code") or "") if part.strip(",")),
        "price": usd(lead.get("asking_price")),
        "market": usd(lead.get("zestimate")),
        "sqft": "N/A" if lead.get("square_footage") is None else f"{int(lead['square_footage']):,}",
        "roi": percent(lead.get("roi")),
        "confidence": str(pricing.display_confidence(lead.get("confidence_score"))),
        "cost": str(pricing.unlock_cost(lead.get("credit_cost"))),
        "image_status": lead.get("images_fetch_status") or "",
        "status": "Active" if lead.get("is_active") else "Archived",
    }


def range_label(page: int, page_size: int, total: int) -> str:
    """'Showing 1-25 of 1,234 leads' ('No leads' when empty)."""
    if total <= 0:
        return "No leads"
    first = (page - 1) * page_size + 1
    last = min(total, page * page_size)
    return f"Showing {first:,}-{last:,} of {total:,} lead{'s' if total != 1 else ''}"


def counts_label(active: int, archived: int) -> str:
    return f"{active:,} active, {archived:,} archived"


def view_total(status: str, active: int, archived: int) -> int:
    return {"active": active, "archived": archived}.get(status, active + archived)


# --------------------------------------------------------------------------- CSV


def csv_row(lead: Mapping[str, Any]) -> list[str]:
    """The 23 CSV cells of one lead, neutralised against formula injection."""
    created = lead.get("created_at")
    roi = lead.get("roi")
    return [neutralize(v) for v in (
        str(lead["id"]),
        created.isoformat() if isinstance(created, datetime) else created,
        "Active" if lead.get("is_active") else "Archived",
        display_street(lead.get("address")), display_city(lead.get("city")), lead.get("state"), lead.get("zip_code"),
        lead.get("lead_type"), lead.get("source"),
        # The ARV the ROI beside it rests on (marketplace.rules_headline: the comps ARV or the estimate).
        lead.get("asking_price"), lead.get("zestimate"),
        arv_used(lead.get("arv"), lead.get("comps_arv"), lead.get("roi_basis")), lead.get("rehab_estimate"),
        None if roi is None else round(float(roi), 1),
        lead.get("beds"), lead.get("baths"), lead.get("square_footage"),
        pricing.display_confidence(lead.get("confidence_score")),
        pricing.unlock_cost(lead.get("credit_cost")),
        bool(lead.get("is_new")), bool(lead.get("is_high_roi")),
        lead.get("images_fetch_status"), lead.get("provenance") or NO_PROVENANCE,
    )]


def csv_chunk(leads: Iterable[Mapping[str, Any]], header: bool = False) -> str:
    """CSV text of some leads (with the header row first when asked)."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n")
    if header:
        writer.writerow(CSV_COLUMNS)
    for lead in leads:
        writer.writerow(csv_row(lead))
    return out.getvalue()


def export_filename(day: date) -> str:
    """Named by date: leads-export-2026-11-23.csv."""
    return f"leads-export-{day:%Y-%m-%d}.csv"
