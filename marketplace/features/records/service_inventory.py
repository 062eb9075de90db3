"""The ingested public-record leads as a lead source for the bulk scraper, the webhook API and the
explorer's manual scrape.

``scrape_source()`` is what a scrape draws from: this inventory whenever there is a real one (the open-data
source is configured, ``LeadSettings.records_configured``: ``OPEN_DATA_DATASETS`` non-empty or BatchData
lists; or active public-record leads exist, ``platform.demo_data.has_real_inventory``) and always in
production; only a pure demo install asks the configured generator (``sources.get_source()``: the built-in
demo leads by default, so ``make run`` stays offline on generated leads, labelled demo data). When fewer
leads match than asked, the scrape delivers and charges those and says "Only N of M matched"; it never
tops up with invented ones.

``PublicRecordInventory.search(criteria)`` reads active public-record leads (``leads.property_id`` set)
matching the criteria, best motivation first, one page after another across calls (a scrape asks in chunks;
the source keeps its place). Criteria on public-record leads:

- cities ("Austin" or "Austin, TX"), states, lead types and sources as on generated leads (the source of a
  public-record lead is its dataset's short title, so a scrape limited to listing sites finds none);
- there is no asking price on a public record: the price range applies to the estimated market value
  (``zestimate``, the basis is on the lead); square footage, ROI and confidence as stored;
- a value a record lacks (N/A) matches only a range left at the form's full default, never a narrowed one:
  an unknown value is never claimed to be inside the investor's range.

Candidates carry the marketplace lead's own ``id`` and ``property_id`` and no ``external_id``: a scrape of a
public-record lead is a purchase of that lead (``scrape.service.store`` records the user's unlock of it
instead of storing a copy), so the buyer sees on its property page exactly what an unlock shows, owner name
and mailing address included, while the scrape's output (page, CSV, webhook JSON) lists the lead's address
and values as for every scrape and never the owner's personal data. A lead with no spot left
(``LEAD_MAX_HOLDERS``, ``unlock.rules_holders``) is never a candidate. What the user already holds (an unlock,
an earlier scrape) is left out by the scrape's own checks.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from marketplace.platform.config import get_settings, lead_settings
from marketplace.features.scrape import rules as scrape_rules
from marketplace.platform.db import read_scope
from marketplace.platform.models import Lead
from marketplace.platform.demo_data import has_real_inventory
from marketplace.features.unlock import has_spot

leads_t = Lead.__table__
NAME = "public_records"


def scrape_source() -> Any:
    """The source scrapes draw from (module docstring): this inventory in production, when records are
    configured, or whenever real (public-record or BatchData) leads exist; only a pure demo install
    asks the generator."""
    if get_settings().is_production or lead_settings().records_configured or has_real_inventory():
        return PublicRecordInventory()
    from marketplace.features.scrape import get_source

    return get_source()


def _range(column, rng, default: tuple[float, float]):
    """``column`` inside ``rng``; NULL passes only when ``rng`` covers the form's whole default range."""
    if rng.min is None and rng.max is None:
        return None
    inside = sa.and_(*([column >= rng.min] if rng.min is not None else []),
                     *([column <= rng.max] if rng.max is not None else []))
    whole = (rng.min is None or rng.min <= default[0]) and (rng.max is None or rng.max >= default[1])
    return sa.or_(inside, column.is_(None)) if whole else inside


def _conditions(criteria) -> list:
    # Only leads with a spot left under LEAD_MAX_HOLDERS (the scrape claims it in its own transaction).
    where = [leads_t.c.is_active == sa.true(), leads_t.c.property_id.is_not(None),
             has_spot(get_settings().lead_max_holders)]
    if criteria.cities:
        places = []
        for text in criteria.cities:
            city, _, state = text.partition(",")
            cond = sa.func.upper(leads_t.c.city) == city.strip().upper()
            places.append(sa.and_(cond, leads_t.c.state == state.strip().upper()) if state.strip() else cond)
        where.append(sa.or_(*places))
    if criteria.states:
        where.append(leads_t.c.state.in_([s.upper() for s in criteria.states]))
    bank_owned = leads_t.c.bank_owned == sa.true()
    if criteria.lead_types:
        by_type = leads_t.c.lead_type.in_(list(criteria.lead_types))
        where.append(sa.or_(by_type, bank_owned) if getattr(criteria, "bank_owned", False) else by_type)
    elif getattr(criteria, "bank_owned", False):
        where.append(bank_owned)
    if criteria.sources:
        where.append(leads_t.c.source.in_(list(criteria.sources)))
    for column, rng, default in ((leads_t.c.zestimate, criteria.price, scrape_rules.PRICE_DEFAULTS),
                                 (leads_t.c.square_footage, criteria.sqft, scrape_rules.SIZE_DEFAULTS),
                                 (leads_t.c.roi, criteria.roi, scrape_rules.ROI_DEFAULTS),
                                 (leads_t.c.confidence_score, criteria.confidence, (0, 100)),
                                 (leads_t.c.beds, criteria.beds, (0, 100))):
        cond = _range(column, rng, default)
        if cond is not None:
            where.append(cond)
    return where


class PublicRecordInventory:
    """A lead source over the ingested public-record leads (module docstring)."""

    name = NAME

    def __init__(self) -> None:
        self._offset = 0

    def search(self, criteria) -> list[dict]:
        criteria.validate()
        query = (sa.select(leads_t).where(*_conditions(criteria))
                 .order_by(leads_t.c.motivation_score.desc().nulls_last(), leads_t.c.id)
                 .offset(self._offset).limit(criteria.count))
        with read_scope() as session:
            rows = session.connection().execute(query).mappings().all()
        self._offset += len(rows)
        return [{**row, "external_id": None, "is_new": False} for row in rows]

    search_partial = search
