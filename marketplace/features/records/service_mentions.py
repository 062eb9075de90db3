"""Every dataset that mentions a property's parcel, for the property page's Public record section (shown
only to a user who unlocked the lead: record keys, dates and links find the house).

A property is mentioned by
- each of its signals, open or closed (a distress list's record: its event or as-of date, the record's
  page on the portal when the dataset has one);
- its roll records: the newest roll record that names it (``properties.roll_record``, as of ``roll_as_of``)
  and the dataset that gave its value (``value_dataset_id``, for tax year ``value_year``) when another;
- its recorded sales: the sales of its market's sales datasets that name its parcel id
  (``recorded_sales.parcel_id``), or its street address and ZIP where the sale names no parcel.

Each mention links to the record's page when the dataset publishes one, else to the dataset's page on
its portal (``records.rules_market_coverage.dataset_page_url``), else to nothing. Grouped by dataset (by title),
newest date first within a dataset.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any, Iterable

import sqlalchemy as sa

from marketplace.features.records import (
    rules_market_coverage as market_coverage,
    rules_signal_currency as signal_currency,
)
from marketplace.platform.models import RecordedSale
from marketplace.features.records.service_titles import signal_label
from marketplace.features.records.service_titles import TitleLookup, dataset_files
from marketplace.features.records.source_opendata.markets import market_of, markets

sales_t = RecordedSale.__table__


@dataclass(frozen=True)
class DatasetMention:
    dataset_id: str
    title: str
    publisher: str
    role: str               # 'list', 'roll' or 'sales'
    what: str               # 'Tax sale', 'Roll record', 'Recorded sale: $45,000'
    record_key: str
    date: date | None       # the event date (a list), the as-of date (a roll record), the sale date
    date_label: str         # 'As of', 'Sold'
    url: str | None         # the record's page, else the dataset's page
    record_page: bool       # True when ``url`` is the record's own page


@lru_cache(maxsize=1)
def _pages() -> dict[str, str | None]:
    return {d.id: market_coverage.dataset_page_url(getattr(d, "protocol", ""), getattr(d, "endpoint", ""),
                                                   getattr(d, "resource", ""))
            for d in dataset_files().values()}


def _link(dataset_id: str, record_url: str | None) -> tuple[str | None, bool]:
    if record_url:
        return record_url, True
    return _pages().get(dataset_id), False


def _market(prop: Any, dataset_ids: Iterable[str]):
    """The property's market: that of a dataset that mentions it, else the one market of its state."""
    for dataset_id in dataset_ids:
        found = market_of(dataset_id)
        if found is not None:
            return found
    in_state = [m for m in markets().values() if m.state == prop.state]
    return in_state[0] if len(in_state) == 1 else None


def parcel_mentions(conn: Any, prop: Any, signal_rows: list[Any], titles: TitleLookup) -> list[DatasetMention]:
    """In the caller's transaction: the mentions of property ``prop`` (module docstring)."""
    out: list[DatasetMention] = []

    def add(dataset_id: str, role: str, what: str, key: str, day: date | None, label: str,
            record_url: str | None = None) -> None:
        title, publisher = titles(dataset_id)
        url, own = _link(dataset_id, record_url)
        out.append(DatasetMention(dataset_id, title, publisher, role, what, key, day, label, url, own))

    for s in signal_rows:
        day = signal_currency.event_date(s) or signal_currency.record_date(s)
        add(s.dataset_id, "list", signal_label(s.kind, s.sale_type), s.record_key, day, "As of", s.record_url)
    roll_ids = []
    roll = (prop.roll_record or "").split("/", 1)
    if roll[0]:
        roll_ids.append(roll[0])
        add(roll[0], "roll", "Roll record", roll[1] if len(roll) > 1 else "", prop.roll_as_of, "As of")
    if prop.value_dataset_id and prop.value_dataset_id not in roll_ids:
        roll_ids.append(prop.value_dataset_id)
        what = f"Assessed value, tax year {prop.value_year}" if prop.value_year else "Assessed value"
        add(prop.value_dataset_id, "roll", what, "", None, "As of")
    market = _market(prop, [*(s.dataset_id for s in signal_rows), *roll_ids])
    if market is not None and market.sales:
        by_place = []
        if prop.parcel_id:
            by_place.append(sa.and_(sales_t.c.state == prop.state, sales_t.c.parcel_id == prop.parcel_id))
        if prop.address and prop.zip_code:
            by_place.append(sa.and_(sales_t.c.parcel_id.is_(None), sales_t.c.zip_code == prop.zip_code,
                                    sa.func.upper(sales_t.c.address) == prop.address.upper()))
        if by_place:
            for sale in conn.execute(sa.select(sales_t).where(sales_t.c.dataset_id.in_(market.sales),
                                                             sa.or_(*by_place))):
                add(sale.dataset_id, "sales", f"Recorded sale: ${sale.price:,}", sale.record_key, sale.sale_date,
                    "Sold")
    out.sort(key=lambda m: (m.title.lower(), m.dataset_id, -(m.date.toordinal() if m.date else 0), m.record_key))
    return out
