"""The public-record source's comparable sales: deeds stored in ``recorded_sales`` by the sales datasets
(``marketplace/features/records/datasets/nyc-dof-rolling-sales.toml`` and the like), read inside the caller's transaction.

- Candidates: sales in the subject's three-digit ZIP area, dated in the 12 months before today (the widest
  step of ``property.rules_comps``); at most ``MAX_CANDIDATES``, newest first.
- Position: a deed carries no coordinates. A sale whose address and ZIP match a stored property with
  coordinates is placed there; any other at its ZIP code's centre, flagged approximate (the page says
  "approx., ZIP centre").
- Beds and baths come from that matched property when it has them (a deed has none); the property type is
  the dataset's building class read by ``property.rules_comps.property_type``.
- The subject's facts come from the lead's property (coordinates, living area, beds, class).
- A sale that is not arm's length (``recorded_sales.excluded_reason``, ``records.rules_arms_length``) is never a comp.
  A market with sales datasets of its own (``marketplace/features/records/markets``) takes its comps from those only
  (``records.service_sales.market_sales``); this reader serves the others.
"""

from __future__ import annotations

from datetime import date, timedelta

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from marketplace.features.records.rules_addresses import address_key
from marketplace.features.property import Comp, months_before, property_type
from marketplace.features.marketplace import zip_centre
from marketplace.platform.models import Property, RecordedSale

MAX_CANDIDATES = 2_000
CANDIDATE_MONTHS = 12

sales_t = RecordedSale.__table__
props_t = Property.__table__


def subject_property(conn: Connection, property_id: int):
    """The lead's property row (coordinates, living area, beds, baths, class), or None."""
    return conn.execute(sa.select(props_t.c.latitude, props_t.c.longitude, props_t.c.square_footage,
                                  props_t.c.beds, props_t.c.baths, props_t.c.property_class)
                        .where(props_t.c.id == property_id)).first()


def recorded_sales_near(conn: Connection, zip_code: str, today: date) -> tuple[list[Comp], list[str]]:
    """(the comps, the dataset ids they come from) of ``zip_code``'s three-digit area."""
    if not zip_code or len(zip_code) < 3:
        return [], []
    since = months_before(today, CANDIDATE_MONTHS) - timedelta(days=1)
    rows = conn.execute(
        sa.select(sales_t.c.id, sales_t.c.dataset_id, sales_t.c.record_key, sales_t.c.address,
                  sales_t.c.zip_code, sales_t.c.price, sales_t.c.sale_date, sales_t.c.square_footage,
                  sales_t.c.property_class)
        .where(sales_t.c.zip_code.like(f"{zip_code[:3]}%"), sales_t.c.sale_date > since,
               sales_t.c.sale_date <= today, sales_t.c.price > 0, sales_t.c.excluded_reason.is_(None))
        .order_by(sales_t.c.sale_date.desc(), sales_t.c.id).limit(MAX_CANDIDATES)
    ).all()
    keys = {(address_key(r.address), r.zip_code) for r in rows if r.address and r.zip_code}
    places = {}
    zips = sorted({z for _, z in keys})
    if zips:
        for p in conn.execute(sa.select(props_t.c.address_key, props_t.c.zip_code, props_t.c.latitude,
                                        props_t.c.longitude, props_t.c.beds, props_t.c.baths, props_t.c.city,
                                        props_t.c.state)
                              .where(props_t.c.zip_code.in_(zips),
                                     props_t.c.address_key.in_(sorted({k for k, _ in keys})))):
            places[(p.address_key, p.zip_code)] = p
    comps, datasets = [], set()
    for r in rows:
        place = places.get((address_key(r.address), r.zip_code))
        exact = place is not None and place.latitude is not None and place.longitude is not None
        position = (place.latitude, place.longitude) if exact else zip_centre(r.zip_code)
        comps.append(Comp(
            comp_id=f"sale:{r.id}", address=(r.address or "Address not recorded").strip(),
            city=(place.city if place is not None and place.city else ""),
            state=(place.state if place is not None else ""), zip_code=r.zip_code or "", sale_date=r.sale_date,
            price=r.price, square_footage=r.square_footage, beds=place.beds if place is not None else None,
            baths=place.baths if place is not None else None, property_type=property_type(r.property_class),
            latitude=position[0] if position else None, longitude=position[1] if position else None,
            approximate_position=not exact))
        datasets.add(r.dataset_id)
    return comps, sorted(datasets)
