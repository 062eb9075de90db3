"""A public-record property's recorded sales and its market's comparable sales (``records.rules_recorded_comps``),
read inside the caller's transaction.

- ``parcel_sales(conn, props, titles)``: each property's recorded sales, joined by ``(state, parcel_id)``
  (a county's sales list names the parcel, not the street) and by street address and ZIP.
- ``market_sales(conn, market, zip_code, today, titles)``: the arm's-length sales of the market's own
  sales datasets (``marketplace/features/records/markets/<id>.toml``, role ``sales``) in the ZIP's three-digit area within
  ``records.rules_recorded_comps.COMPS_MONTHS`` (fewer than ``MIN_COMPS`` there: the market's newest, up to
  ``MAX_MARKET_SALES``), each placed where its parcel's stored property is (street, ZIP,
  position, living area, beds). A market without a sales dataset has none.
- ``as_comps``: those sales as ``property.rules_comps.Comp`` (the comps page and the $/sqft ARV).
- ``sales_view(conn, prop, market, today, titles)``: what the property page shows (history, last sale,
  comparable sales with their basis, the comps ARV by price).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any, Callable, Iterable

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from marketplace.platform import bulk_rows
from marketplace.features.records import rules_recorded_comps as recorded_comps
from marketplace.features.marketplace import rules_headline as headline
from marketplace.features.records import rules_roll_facts as roll_facts
from marketplace.features.records.rules_addresses import address_key
from marketplace.features.property import MIN_COMPS, Comp, months_before, property_type
from marketplace.features.marketplace import zip_centre
from marketplace.platform.models import Property, RecordedSale
from marketplace.features.records.source_opendata.markets import market_of

sales_t = RecordedSale.__table__
props_t = Property.__table__
MAX_MARKET_SALES = 2_000

Titles = Callable[[str], tuple[str, str]]


def _record(r: Any, titles: Titles) -> recorded_comps.SaleRecord:
    title, publisher = titles(r.dataset_id)
    return recorded_comps.SaleRecord(
        sale_id=r.id, dataset_id=r.dataset_id, title=title, publisher=publisher, parcel_id=r.parcel_id,
        address=(r.address or "").strip(), zip_code=r.zip_code or "", sale_date=r.sale_date, price=r.price,
        deed_type=r.deed_type, excluded_reason=r.excluded_reason, square_footage=r.square_footage,
        property_type=property_type(r.property_class))


def parcel_sales(conn: Connection, props: Iterable[Any], titles: Titles) -> dict[int, list[recorded_comps.SaleRecord]]:
    """Each property's recorded sales (any dataset), by parcel and by street address and ZIP."""
    props = [p for p in props if p is not None]
    found: dict[int, dict[int, recorded_comps.SaleRecord]] = {p.id: {} for p in props}
    by_parcel = {(p.state, p.parcel_id): p.id for p in props if p.parcel_id}
    by_address = {(p.address_key, p.zip_code): p.id for p in props if p.address_key and p.zip_code}
    for state in sorted({s for s, _ in by_parcel}):
        ids = sorted(pid for s, pid in by_parcel if s == state)
        for start in range(0, len(ids), bulk_rows.IN_CHUNK):
            for r in conn.execute(sa.select(sales_t).where(sales_t.c.state == state,
                                                           sales_t.c.parcel_id.in_(ids[start:start + bulk_rows.IN_CHUNK]))):
                owner = by_parcel.get((state, r.parcel_id))
                if owner is not None:
                    found[owner][r.id] = _record(r, titles)
    zips = sorted({z for _, z in by_address})
    for start in range(0, len(zips), bulk_rows.IN_CHUNK):
        for r in conn.execute(sa.select(sales_t).where(sales_t.c.zip_code.in_(zips[start:start + bulk_rows.IN_CHUNK]),
                                                       sales_t.c.address.is_not(None))):
            owner = by_address.get((address_key(r.address), r.zip_code))
            if owner is not None:
                found[owner][r.id] = _record(r, titles)
    return {pid: list(sales.values()) for pid, sales in found.items()}


def market_sales(conn: Connection, market: Any, zip_code: str | None, today: date,
                 titles: Titles) -> list[recorded_comps.SaleRecord]:
    """The market's arm's-length recorded sales around ``zip_code`` (module docstring), newest first."""
    if market is None or not market.sales or not zip_code or len(zip_code) < 3:
        return []
    found = _market_rows(conn, market, zip_code[:3], today, titles)
    if len(found) < MIN_COMPS:
        seen = {s.sale_id for s in found}
        found += [s for s in _market_rows(conn, market, "", today, titles) if s.sale_id not in seen]
    return found


def _market_rows(conn: Connection, market: Any, zip3: str, today: date, titles: Titles) -> list[recorded_comps.SaleRecord]:
    since = months_before(today, recorded_comps.COMPS_MONTHS) - timedelta(days=1)
    joined = sales_t.outerjoin(props_t, sa.and_(props_t.c.state == sales_t.c.state,
                                                props_t.c.parcel_id == sales_t.c.parcel_id))
    zip_of = sa.func.coalesce(sales_t.c.zip_code, props_t.c.zip_code)
    rows = conn.execute(
        sa.select(sales_t, props_t.c.id.label("p_id"), props_t.c.address.label("p_address"),
                  props_t.c.zip_code.label("p_zip"), props_t.c.latitude.label("p_lat"),
                  props_t.c.longitude.label("p_lng"), props_t.c.square_footage.label("p_sqft"),
                  props_t.c.beds.label("p_beds"), props_t.c.property_class.label("p_class"))
        .select_from(joined)
        .where(sales_t.c.dataset_id.in_(list(market.sales)), sales_t.c.excluded_reason.is_(None),
               sales_t.c.price > 0, sales_t.c.sale_date > since, sales_t.c.sale_date <= today,
               zip_of.like(f"{zip3}%"))
        .order_by(sales_t.c.sale_date.desc(), sales_t.c.id).limit(MAX_MARKET_SALES)
    ).all()
    return [recorded_comps.located(_record(r, titles), address=r.p_address, zip_code=r.p_zip, latitude=r.p_lat,
                          longitude=r.p_lng, square_footage=r.p_sqft, beds=r.p_beds, property_id=r.p_id,
                          property_type=property_type(r.p_class))
            for r in rows]


def market_for(signals: Iterable[Any]) -> Any:
    """The market of a property's signals (``marketplace/features/records/markets``): the first dataset's that has one."""
    for dataset_id in sorted({s.dataset_id for s in signals}):
        market = market_of(dataset_id)
        if market is not None:
            return market
    return None


def cached_market_sales(conn: Connection, market: Any, zip_code: str, today: date, titles: Titles,
                        cache: dict) -> list[recorded_comps.SaleRecord] | None:
    """``market_sales`` read once per (market, ZIP3) into ``cache``; None for a market without sales
    datasets (its leads take every recorded sale of the area, ``comps_records``)."""
    if market is None or not market.sales:
        return None
    area = (market.id, (zip_code or "")[:3])
    if area not in cache:
        cache[area] = market_sales(conn, market, zip_code, today, titles)
    return cache[area]


def county_inputs(signals: list[Any], parcel_sales: list[recorded_comps.SaleRecord] | None,
                  market_sales: list[recorded_comps.SaleRecord] | None, comps: list[Comp] | None,
                  today: date) -> tuple[Any, list[recorded_comps.SaleRecord], list[Comp] | None, recorded_comps.SaleRecord | None]:
    """What a lead's market adds to its values: (the market, the parcel's sales newest first, the comps
    property.rules_comps selects from: the market's own ``market_sales`` where it has sales datasets, else
    ``comps``, the parcel's last arm's-length sale: a market value basis where the roll prints none)."""
    county = market_for(signals)
    recorded = recorded_comps.history(parcel_sales or [], today)
    if county is not None and county.sales:
        comps = as_comps(market_sales or [])
    return county, recorded, comps, next((s for s in recorded if s.arms_length), None)


def county_raw(prop: Any, county: Any, recorded: list[recorded_comps.SaleRecord], comps_basis: str) -> dict:
    """The lead's ``raw_data`` entries of its market: the roll facts, the last sale (recorded, else the
    roll's own), the basis of a comps ARV by price."""
    last = recorded[0] if recorded else roll_facts.roll_sale(prop, county)
    return {roll_facts.ROLL_KEY: roll_facts.roll_summary(prop, county),
            roll_facts.LAST_SALE_KEY: roll_facts.last_sale_summary(last),
            **({"comps_arv_basis": comps_basis} if comps_basis else {})}


def price_comps_arv(prop: Any, sales: list[recorded_comps.SaleRecord] | None, today: date,
                    by_area: headline.CompsArv) -> tuple[headline.CompsArv, str]:
    """The lead's comps ARV: ``by_area`` ($/sqft of the default selection) when it has one, else the median
    price of the comparable recorded sales (``records.rules_recorded_comps``) with its basis sentence."""
    if by_area.value is not None or not sales:
        return by_area, ""
    chosen = comparable_of(prop, sales, today)
    value = recorded_comps.median_price_arv(chosen)
    if value is None:
        return by_area, ""
    return headline.CompsArv(value, len(chosen)), recorded_comps.arv_basis(chosen, prop.zip_code)


def as_comps(sales: Iterable[recorded_comps.SaleRecord]) -> list[Comp]:
    """The sales as ``property.rules_comps`` reads them (placed at the ZIP's centre without a position)."""
    comps = []
    for s in sales:
        exact = s.latitude is not None and s.longitude is not None
        position = (s.latitude, s.longitude) if exact else zip_centre(s.zip_code)
        comps.append(Comp(comp_id=f"sale:{s.sale_id}", address=s.address or "Address not recorded", city="",
                          state="", zip_code=s.zip_code, sale_date=s.sale_date, price=s.price,
                          square_footage=s.square_footage, beds=s.beds, baths=None, property_type=s.property_type,
                          latitude=position[0] if position else None, longitude=position[1] if position else None,
                          approximate_position=not exact))
    return comps


def comparable_of(prop: Any, sales: list[recorded_comps.SaleRecord], today: date) -> list[recorded_comps.SaleRecord]:
    position = (prop.latitude, prop.longitude) if prop.latitude is not None and prop.longitude is not None \
        else zip_centre(prop.zip_code)
    return recorded_comps.comparable(sales, subject_property_id=prop.id, subject_parcel=prop.parcel_id,
                            subject_address=prop.address, subject_zip=prop.zip_code,
                            subject_type=property_type(prop.property_class), position=position, today=today)


@dataclass(frozen=True)
class SalesView:
    """The property page's recorded sales (unlocked viewers only: dates and prices find the parcel)."""

    last_sale: str = ""                                   # 'Last sale: $45,000 on Apr 7, 2017, Warranty deed'
    last_sale_basis: str = ""
    history: list[dict[str, str]] = field(default_factory=list)  # date, price, deed, note, basis
    comps: list[dict[str, str]] = field(default_factory=list)    # address, date, price, deed, basis
    comps_arv: int | None = None
    comps_arv_basis: str = ""


def _row(s: recorded_comps.SaleRecord, address: bool = False) -> dict[str, str]:
    from marketplace.features.marketplace import usd
    from marketplace.platform.times import format_date

    row = {"date": format_date(s.sale_date, "UTC"), "price": usd(s.price), "deed": s.deed_type or "",
           "note": f"Not arm's length: {s.excluded_reason}" if s.excluded_reason else "", "basis": s.basis}
    if address:
        row["address"] = s.address or "Address not recorded"
    return row


def sales_view(conn: Connection, prop: Any, market: Any, today: date, titles: Titles) -> SalesView:
    own = recorded_comps.history(parcel_sales(conn, [prop], titles).get(prop.id, []), today)
    comps = comparable_of(prop, market_sales(conn, market, prop.zip_code, today, titles), today)
    last = own[0] if own else roll_facts.roll_sale(prop, market)
    return SalesView(
        last_sale=f"Last sale: {recorded_comps.sale_text(last)}" if last else "",
        last_sale_basis=last.basis if last else "",
        history=[_row(s) for s in own], comps=[_row(s, address=True) for s in comps],
        comps_arv=recorded_comps.median_price_arv(comps), comps_arv_basis=recorded_comps.arv_basis(comps, prop.zip_code))
