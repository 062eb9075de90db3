"""A parcel's recorded sales and the comparable sales of its market, as a public-record lead shows them.
Pure: ``records.service_sales`` reads the rows.

- History: every recorded sale of the parcel (joined by the county's parcel id, else by street address and
  ZIP), newest first, each with its price, date, deed type and, when it is not arm's length, why
  (``records.rules_arms_length``). The last sale is the newest one dated today or earlier, arm's length or not (a
  $10 quit-claim deed is the parcel's last transfer: it is shown with its reason, never as a value).
- Comparable sales: only the market's own sales datasets (``marketplace/features/records/markets/<id>.toml``, role
  ``sales``), only arm's-length sales, never a sale of the subject's parcel or address, sold within
  ``COMPS_MONTHS`` before today. Sales in the subject's ZIP first; when fewer than ``property.rules_comps.MIN_COMPS``,
  its three-digit ZIP area; when still fewer, the whole market (a suburb's ZIP3 may hold no sale). Of the same property type when both are known. Nearest first where both have a
  position, then newest; at most ``MAX_COMPS``. Each comp names its basis: the dataset and the sale date
  ("Assessor - Parcel Sales (Cook County Assessor's Office), sale of Jan 17, 2025").
- Comps ARV by price: where the sales carry no living area (a county's sales list prints the price and
  the parcel only, so ``property.rules_comps``' $/sqft selection has nothing to work with), the median price of the
  comparable sales, to $1,000, when there are at least ``MIN_COMPS``.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, replace
from datetime import date

from marketplace.features.property import MIN_COMPS, haversine_miles, months_before
from marketplace.features.marketplace import usd
from marketplace.platform.times import format_date

COMPS_MONTHS = 36  # a county's arm's-length sales are few per ZIP: three years give a usable sample
MAX_COMPS = 10


@dataclass(frozen=True)
class SaleRecord:
    """One recorded sale as a lead reads it."""

    sale_id: int
    dataset_id: str
    title: str                      # the dataset's title
    publisher: str
    parcel_id: str | None
    address: str                    # the sale's street, else its parcel's property's; '' when neither
    zip_code: str
    sale_date: date
    price: int
    deed_type: str | None
    excluded_reason: str | None     # None: arm's length
    latitude: float | None = None
    longitude: float | None = None
    square_footage: int | None = None
    beds: int | None = None
    property_type: str | None = None
    property_id: int | None = None  # the stored property the sale belongs to (parcel or address)

    @property
    def arms_length(self) -> bool:
        return self.excluded_reason is None

    @property
    def basis(self) -> str:
        """'Assessor - Parcel Sales (Cook County Assessor's Office), sale of Jan 17, 2025'."""
        source = f"{self.title} ({self.publisher})" if self.publisher and self.publisher != self.title \
            else self.title
        return f"{source}, sale of {format_date(self.sale_date, 'UTC')}"


def sale_text(sale: SaleRecord) -> str:
    """'$45,000 on Apr 7, 2017, Warranty deed' (+ '; not arm's length: token price under $1,000')."""
    text = f"{usd(sale.price)} on {format_date(sale.sale_date, 'UTC')}"
    if sale.deed_type:
        text += f", {sale.deed_type} deed"
    if sale.excluded_reason:
        text += f"; not arm's length: {sale.excluded_reason}"
    return text


def history(sales: list[SaleRecord], today: date) -> list[SaleRecord]:
    """The parcel's sales dated today or earlier, newest first (one row per recorded sale)."""
    return sorted((s for s in sales if s.sale_date <= today), key=lambda s: (s.sale_date, s.sale_id),
                  reverse=True)


def last_sale(sales: list[SaleRecord], today: date) -> SaleRecord | None:
    shown = history(sales, today)
    return shown[0] if shown else None


def comparable(sales: list[SaleRecord], *, subject_property_id: int | None, subject_parcel: str | None,
               subject_address: str, subject_zip: str, subject_type: str | None,
               position: tuple[float, float] | None, today: date) -> list[SaleRecord]:
    """The comparable sales of the subject among its market's ``sales`` (module docstring)."""
    since = months_before(today, COMPS_MONTHS)
    own_address = (subject_address or "").strip().upper()

    def usable(s: SaleRecord) -> bool:
        if not s.arms_length or not since < s.sale_date <= today:
            return False
        if subject_property_id is not None and s.property_id == subject_property_id:
            return False
        if subject_parcel and s.parcel_id == subject_parcel:
            return False
        if own_address and s.address.strip().upper() == own_address and s.zip_code == subject_zip:
            return False
        return not (subject_type and s.property_type and s.property_type != subject_type)

    candidates = [s for s in sales if usable(s)]
    chosen = [s for s in candidates if subject_zip and s.zip_code == subject_zip]
    if len(chosen) < MIN_COMPS:
        chosen = [s for s in candidates if subject_zip and s.zip_code[:3] == subject_zip[:3]]
    if len(chosen) < MIN_COMPS:
        chosen = candidates

    def order(s: SaleRecord) -> tuple:
        miles = haversine_miles(position[0], position[1], s.latitude, s.longitude) \
            if position is not None and s.latitude is not None and s.longitude is not None else float("inf")
        return (miles, -s.sale_date.toordinal(), s.sale_id)

    return sorted(chosen, key=order)[:MAX_COMPS]


def median_price_arv(comps: list[SaleRecord]) -> int | None:
    """The median price of the comparable sales to $1,000; None with fewer than ``MIN_COMPS``."""
    if len(comps) < MIN_COMPS:
        return None
    return int(round(statistics.median(s.price for s in comps) / 1000.0)) * 1000


def arv_basis(comps: list[SaleRecord], subject_zip: str) -> str:
    """'Median price of 5 arm's-length recorded sales in ZIP 60827 (Assessor - Parcel Sales), Jan 11,
    2024 - Oct 17, 2025'; '' without enough comps."""
    if len(comps) < MIN_COMPS:
        return ""
    area = f"ZIP {subject_zip}" if all(s.zip_code == subject_zip for s in comps) \
        else f"ZIP area {subject_zip[:3]}xx" if all(s.zip_code[:3] == subject_zip[:3] for s in comps) \
        else "the county, nearest first"
    titles = ", ".join(sorted({s.title for s in comps}))
    first, last = min(s.sale_date for s in comps), max(s.sale_date for s in comps)
    return (f"Median price of {len(comps)} arm's-length recorded sales in {area} ({titles}), "
            f"{format_date(first, 'UTC')} - {format_date(last, 'UTC')}")


def located(sale: SaleRecord, *, address: str | None, zip_code: str | None, latitude: float | None,
            longitude: float | None, square_footage: int | None, beds: int | None, property_id: int | None,
            property_type: str | None) -> SaleRecord:
    """The sale with what its parcel's stored property knows (street, ZIP, position, size), where the sale
    itself does not say."""
    return replace(sale, address=sale.address or (address or ""), zip_code=sale.zip_code or (zip_code or ""),
                   latitude=latitude, longitude=longitude, square_footage=sale.square_footage or square_footage,
                   beds=beds, property_id=property_id, property_type=sale.property_type or property_type)
