"""The marketplace map: every active lead matching the filters as
map points, and one lead's card for a marker.

``map_points`` is one query over the same conditions as the grid
(``marketplace.service``), reading only the id, the ZIP code and, for the
leads this user has unlocked, the coordinates: the database itself returns
NULL coordinates for every locked lead (a ``CASE`` on the unlock), so a locked
lead's own position never even reaches this process. ``marketplace.rules_map`` places
each lead (ZIP centre when locked) and builds the compact payload.
"""

from __future__ import annotations

import uuid

import sqlalchemy as sa

from marketplace.features.marketplace import rules_map as lead_map
from marketplace.features.marketplace import rules as marketplace_rules
from marketplace.platform.db import autocommit
from marketplace.features.records import service_views as record_views
from marketplace.platform.demo_data import listed_condition
from marketplace.features.marketplace.service import (
    CARD_COLUMNS,
    SORT_ORDER,
    LeadCard,
    _card,
    _lead_conditions,
    count_leads,
    leads_t,
    user_leads_t,
)


def _points_statement(filters: marketplace_rules.Filters, user_id: uuid.UUID | None, limit: int, conditions: list):
    if user_id is None:
        columns = (leads_t.c.id, leads_t.c.zip_code, sa.null().label("latitude"), sa.null().label("longitude"),
                   sa.false().label("unlocked"))
        source = leads_t
    else:
        unlocked = user_leads_t.c.lead_id.is_not(None)
        columns = (
            leads_t.c.id, leads_t.c.zip_code,
            sa.case((unlocked, leads_t.c.latitude), else_=sa.null()).label("latitude"),
            sa.case((unlocked, leads_t.c.longitude), else_=sa.null()).label("longitude"),
            unlocked.label("unlocked"),
        )
        source = leads_t.outerjoin(
            user_leads_t, sa.and_(user_leads_t.c.lead_id == leads_t.c.id, user_leads_t.c.user_id == user_id))
    return (
        sa.select(*columns)
        .select_from(source)
        .where(*conditions)
        .order_by(*SORT_ORDER[filters.sort])
        .limit(limit + 1)
    )


def map_points(filters: marketplace_rules.Filters, user_id: uuid.UUID | None = None, database_url: str | None = None,
               limit: int = lead_map.MAX_POINTS) -> lead_map.MapPoints:
    """Every active lead matching ``filters`` (the page and page size do not
    matter), placed for ``user_id`` (None: a visitor, every lead locked). At most
    ``limit`` leads, the first ones in the filters' sort; ``matched`` counts all."""
    with autocommit(database_url) as conn:
        conditions = _lead_conditions(filters, user_id)  # once: the points and, past the cap, the count
        rows = conn.execute(_points_statement(filters, user_id, limit, conditions)).all()
        capped = len(rows) > limit
        matched = count_leads(conn, filters, user_id, conditions) if capped else None
    return lead_map.build_points(rows[:limit], matched=matched, capped=capped)


def map_card(lead_id: str, user_id: uuid.UUID | None = None, database_url: str | None = None) -> LeadCard | None:
    """The grid's card of one active lead (address masked unless this user unlocked
    it), for a marker; None for an unknown, archived or malformed id."""
    try:
        key = uuid.UUID(str(lead_id))
    except ValueError:
        return None
    if user_id is not None:
        unlocked = sa.exists().where(user_leads_t.c.user_id == user_id,
                                     user_leads_t.c.lead_id == leads_t.c.id).label("unlocked")
    else:
        unlocked = sa.false().label("unlocked")
    statement = sa.select(*CARD_COLUMNS, unlocked).where(leads_t.c.id == key, listed_condition())
    with autocommit(database_url) as conn:
        row = conn.execute(statement).first()
        chips = record_views.chip_labels(conn, [row.property_id]) if row is not None else {}
    return None if row is None else _card(row, bool(row.unlocked), tuple(chips.get(row.property_id, ())))
