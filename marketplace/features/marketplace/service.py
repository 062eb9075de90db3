"""The marketplace query: filters and sorts run in the database over all active
leads, with the page and the filtered count.

Counts come from ``lead_facets`` (a few hundred cells rebuilt whenever the
active leads change), so they cost the same for 1,000 or 1,000,000 leads; only
the "unlocked" tag, which depends on the user, counts through ``user_leads``.
How many investors hold each lead is its ``unlock_count`` column
(``unlock.service_counts``): read with the card's row, filtered ("held") and
sorted ("Least unlocked") through its index, never a count of ``user_leads``.
A locked lead's address never leaves this module unmasked.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from marketplace.features.marketplace import rules as marketplace_rules
from marketplace.features.records import rules_open_since as open_since
from marketplace.platform import paging
from marketplace.features.marketplace import rules_sale_dates as sale_dates
from marketplace.features.marketplace.rules_filter_values import CITY_SUGGESTIONS
from marketplace.platform.text_keys import city_key
from marketplace.features.unlock import HELD_SORT
from marketplace.platform.web.image_hosts import allowed_images
from marketplace.platform.leads import provenance_line
from marketplace.features.records import card_facts_line, card_last_sale, card_use_line
from marketplace.platform.pricing import display_confidence, unlock_cost
from marketplace.features.records import display_city, display_street
from marketplace.features.marketplace import rules_cards
from marketplace.platform.db import autocommit, get_engine
from marketplace.platform.models import Lead, LeadFacet, UserLead, utcnow
from marketplace.platform.config import get_settings
from marketplace.features.records import service_views as record_views
from marketplace.features.unlock import service_counts as unlock_counts
from marketplace.platform.demo_data import listed_condition

leads_t = Lead.__table__
facets_t = LeadFacet.__table__
user_leads_t = UserLead.__table__

SORT_ORDER = {
    "roi_desc": (leads_t.c.roi.desc().nulls_last(), leads_t.c.id),
    "newest": (leads_t.c.created_at.desc(), leads_t.c.id.desc()),
    "price_asc": (leads_t.c.asking_price.asc().nulls_last(), leads_t.c.id),
    "zestimate_desc": (leads_t.c.zestimate.desc().nulls_last(), leads_t.c.id),
    "sqft_asc": (leads_t.c.square_footage.asc().nulls_last(), leads_t.c.id),
    "motivation_desc": (leads_t.c.motivation_score.desc().nulls_last(), leads_t.c.id),
    # "Least unlocked": the fewest investors holding the lead first, the best ROI first among equals.
    HELD_SORT: (leads_t.c.unlock_count.asc(), leads_t.c.roi.desc().nulls_last(), leads_t.c.id),
}


LeadCard = rules_cards.card_dataclass(
    "LeadCard", __name__, "One card: everything the grid shows, with the address already masked if locked "
    "(its fields: marketplace.rules_cards.CARD_FIELDS).")


@dataclass(frozen=True)
class MarketplacePage:
    cards: list[LeadCard]
    total: int
    page: int
    pages: int
    filters: marketplace_rules.Filters
    # The pictures the first cards of the next page will show: the browser fetches them
    # while idle, so "Next page" does not wait for them (marketplace_rules.PREFETCH_PICTURES).
    next_pictures: list[str] = field(default_factory=list)


def _bounds_sql(column, bounds: tuple):
    lower, lower_inclusive, upper, upper_inclusive = bounds
    parts = []
    if lower is not None:
        parts.append(column >= lower if lower_inclusive else column > lower)
    if upper is not None:
        parts.append(column <= upper if upper_inclusive else column < upper)
    return sa.and_(*parts)


def _match_sql(table, match: marketplace_rules.Match, user_id: uuid.UUID | None, today: date):
    """``marketplace.rules.Match`` as SQL over ``table`` (``leads`` or ``lead_facets``)."""
    if match.op == "unlocked":  # signed out, nobody has unlocked anything: no lead matches
        return (leads_t.c.id.in_(sa.select(user_leads_t.c.lead_id).where(user_leads_t.c.user_id == user_id))
                if user_id is not None else sa.false())
    if match.op == "sale_soon":
        return auction_soon_condition(today)
    if match.op == "spot_left":  # LEAD_MAX_HOLDERS: the lead is not full
        return unlock_counts.has_spot(get_settings().lead_max_holders)
    column = table.c[match.column]
    if match.op == "true":  # NULL (unknown) never matches a flag's filter
        return column == sa.true()
    if match.op == "eq":
        return column == match.value
    if match.op == "at_least":
        return column >= match.value
    if match.op == "no_figure":
        return sa.or_(column.is_(None), column == 0)
    return _bounds_sql(column, match.value)


def auction_soon_condition(today: date):
    """marketplace.rules_sale_dates' rule in SQL: a sale date from ``today`` to 30 days ahead (a NULL date never matches)."""
    first, last = sale_dates.soon_window(today)
    return leads_t.c.sale_date.between(first, last)


def _filter_sql(spec: marketplace_rules.FilterSpec, values: tuple[str, ...], user_id: uuid.UUID | None, today: date):
    """One filter of the registry over ``leads``: its values OR."""
    if not spec.column:
        return sa.or_(*[_match_sql(leads_t, spec.matches[value], user_id, today) for value in values])
    if spec.any_case:  # lower(city) of the active leads has its own index on PostgreSQL (migration 0014)
        return sa.func.lower(leads_t.c[spec.column]).in_(sorted({spec.fold(value) for value in values}))
    return leads_t.c[spec.column].in_(values)


def _price_conditions(filters: marketplace_rules.Filters) -> list:
    """The asking-price range, both ends included; a lead without a price (NULL) never matches."""
    conditions = []
    if filters.min_price is not None:
        conditions.append(leads_t.c.asking_price >= filters.min_price)
    if filters.max_price is not None:
        conditions.append(leads_t.c.asking_price <= filters.max_price)
    return conditions


def _lead_conditions(filters: marketplace_rules.Filters, user_id: uuid.UUID | None, today: date | None = None) -> list:
    """The filters over ``leads``, built once per query and shared by its statements (``today``: the query's day,
    the local day now without it)."""
    conditions = [listed_condition()]  # active; in production never a generated (demo) lead
    today = today or sale_dates.local_today(utcnow())
    for spec in marketplace_rules.FILTERS:
        values = getattr(filters, spec.field)
        if values:
            conditions.append(_filter_sql(spec, values, user_id, today))
    return conditions + _price_conditions(filters)


def counted_from_facets(filters: marketplace_rules.Filters) -> bool:
    """Whether ``lead_facets`` can count this filter (no price, and every filter one it answers).
    Never in production: the facets count every active lead, and production lists no generated one."""
    if get_settings().is_production:
        return False
    return not filters.has_price and all(spec.countable_from_facets(getattr(filters, spec.field))
                                         for spec in marketplace_rules.FILTERS if getattr(filters, spec.field))


def _facet_conditions(filters: marketplace_rules.Filters) -> list:
    """Conditions over ``lead_facets`` for the filters it answers (see ``counted_from_facets``)."""
    conditions = []
    for spec in marketplace_rules.FILTERS:
        values = getattr(filters, spec.field)
        if values and spec.facet:
            conditions.append(facets_t.c[spec.facet].in_(values))
        elif values and spec.matches is not None:
            facts = [spec.matches[value] for value in values if marketplace_rules.facet_match(spec.matches[value])]
            if facts:
                conditions.append(sa.or_(*[_match_sql(facets_t, match, None, None) for match in facts]))
    return conditions


def count_leads(conn: Connection, filters: marketplace_rules.Filters, user_id: uuid.UUID | None,
                conditions: list | None = None) -> int:
    """The filtered count (``conditions``: the query's own ``_lead_conditions``, if built)."""
    if not counted_from_facets(filters):
        conditions = _lead_conditions(filters, user_id) if conditions is None else conditions
        return conn.execute(sa.select(sa.func.count()).select_from(leads_t).where(*conditions)).scalar_one()
    return conn.execute(
        sa.select(sa.func.coalesce(sa.func.sum(facets_t.c.lead_count), 0)).where(*_facet_conditions(filters))
    ).scalar_one()


def city_suggestions(states: tuple[str, ...] | list[str], database_url: str | None = None) -> list[str]:
    """The cities of the active leads in ``states`` (codes already checked), the ``CITY_SUGGESTIONS``
    with the most leads, alphabetically: one query over the (state, city) index. None for no state."""
    if not states:
        return []
    statement = (
        sa.select(leads_t.c.city)
        .where(listed_condition(), leads_t.c.state.in_(list(states)))
        .group_by(leads_t.c.city)
        .order_by(sa.func.count().desc(), leads_t.c.city)
        .limit(CITY_SUGGESTIONS)
    )
    with autocommit(database_url) as conn:
        cities = conn.execute(statement).scalars().all()
    unique: dict[str, str] = {}
    for city in cities:
        unique.setdefault(city_key(city), city)
    return sorted(unique.values(), key=str.lower)


def _pictures(row: Any) -> list[str]:
    """A lead's pictures as its card shows them (the primary first; known hosts only)."""
    return allowed_images(([row.primary_image_url] if row.primary_image_url else []) + list(row.image_urls or []))



def _listed(raw: Any) -> dict:
    """LeadCard's ``listed_*`` fields from a public-record lead's raw_data "listed" (records.service_leads)."""
    listed = raw.get("listed") if isinstance(raw, dict) else None
    if not isinstance(listed, dict):
        return {}

    def parse(kind, text):
        try:
            return kind.fromisoformat(text) if isinstance(text, str) else None
        except ValueError:
            return None

    return {"listed_place": str(listed.get("place") or ""), "listed_status": listed.get("status_list") is True,
            "listed_day": parse(date, listed.get("day")), "listed_seen": parse(datetime, listed.get("first_seen"))}


@dataclass
class _Read:
    """What one card's fields are read from: its row, and what the query knows besides."""

    row: Any
    unlocked: bool
    signals: tuple[str, ...]
    today: date
    public: bool  # a public-record lead (it has a property)

    @cached_property
    def open_item(self):
        return open_since.from_raw(self.row.raw_data) if self.public else None

    @cached_property
    def listed(self) -> dict:
        return _listed(self.row.raw_data if self.public else None)


def _sale_ahead(read: _Read) -> bool:
    return read.row.sale_date is not None and read.row.sale_date >= read.today


# The card fields not read as the leads column of their own name: (the columns read, how). Every other field of
# rules_cards.CARD_FIELDS is ``leads_t.c[name]``, read as it is.
_CARD_READERS: dict[str, tuple[tuple, Any]] = {
    "id": ((leads_t.c.id,), lambda r: str(r.row.id)),
    # Public records publish "0466 ROUNDVIEW ROAD": shown in reading case, then masked when locked.
    "address": ((leads_t.c.address,), lambda r: display_street(r.row.address) if r.unlocked
                else marketplace_rules.mask_address(display_street(r.row.address))),
    "unlocked": ((), lambda r: r.unlocked),
    "city": ((leads_t.c.city,), lambda r: display_city(r.row.city)),
    "confidence": ((leads_t.c.confidence_score,), lambda r: display_confidence(r.row.confidence_score)),
    "credit_cost": ((leads_t.c.credit_cost,), lambda r: unlock_cost(r.row.credit_cost)),
    "images": ((leads_t.c.primary_image_url, leads_t.c.image_urls),
               lambda r: _pictures(r.row)[:rules_cards.MAX_CARD_IMAGES]),
    "image_status": ((leads_t.c.images_fetch_status,), lambda r: r.row.images_fetch_status or "no_images"),
    "provenance": ((leads_t.c.raw_data, leads_t.c.source), lambda r: provenance_line(r.row.raw_data, r.row.source)),
    "signals": ((), lambda r: r.signals),
    "public_record": ((leads_t.c.property_id,), lambda r: r.public),
    "motivation_score": ((leads_t.c.motivation_score,), lambda r: r.row.motivation_score if r.public else None),
    "auction_soon": ((leads_t.c.sale_date,), lambda r: sale_dates.is_auction_soon(r.row.sale_date, r.today)),
    "sale_in": ((leads_t.c.sale_date,),
                lambda r: sale_dates.sale_in_text(r.row.sale_date, r.today) if _sale_ahead(r) else ""),
    "unlock_count": ((leads_t.c.unlock_count,), lambda r: r.row.unlock_count or 0),
    "exclusive": ((leads_t.c.exclusive,), lambda r: bool(r.row.exclusive)),
    "max_holders": ((), lambda r: get_settings().lead_max_holders),
    "comps_count": ((leads_t.c.comps_count,), lambda r: r.row.comps_count or 0),
    "roi_basis": ((leads_t.c.roi_basis,), lambda r: r.row.roi_basis or ""),
    "roll_line": ((leads_t.c.raw_data,), lambda r: card_facts_line(r.row.raw_data)),
    "roll_use": ((leads_t.c.raw_data,), lambda r: card_use_line(r.row.raw_data)),
    "last_sale": ((leads_t.c.raw_data,),
                  lambda r: rules_cards.shown_last_sale(card_last_sale(r.row.raw_data), r.unlocked)),
    "open_since_kind": ((leads_t.c.raw_data,), lambda r: item.kind if (item := r.open_item) else ""),
    "open_since": ((leads_t.c.raw_data,), lambda r: item.since if (item := r.open_item) else None),
    **{name: ((leads_t.c.raw_data,), lambda r, name=name, default=default: r.listed.get(name, default))
       for name, default in (("listed_place", ""), ("listed_status", False), ("listed_day", None),
                             ("listed_seen", None))},
}
_CARD_FIELD_READERS = {name: _CARD_READERS.get(name) or ((leads_t.c[name],), lambda r, name=name: getattr(r.row, name))
                       for name in rules_cards.CARD_FIELD_NAMES}
assert set(_CARD_READERS) <= set(rules_cards.CARD_FIELD_NAMES), "a card reader for a field LeadCard does not have"
assert [f.name for f in fields(LeadCard)] == list(rules_cards.CARD_FIELD_NAMES) == list(_CARD_FIELD_READERS)
# The columns a card reads, each once, in the fields' order.
CARD_COLUMNS = tuple(dict.fromkeys(column for columns, _read in _CARD_FIELD_READERS.values() for column in columns))


def _card(row: Any, unlocked: bool, signals: tuple[str, ...] = (), today: date | None = None) -> LeadCard:
    read = _Read(row, unlocked, signals, today or sale_dates.local_today(utcnow()), row.property_id is not None)
    return LeadCard(**{name: reader(read) for name, (_columns, reader) in _CARD_FIELD_READERS.items()})


def _page_statement(filters: marketplace_rules.Filters, page: int, user_id, unlocked_column, conditions: list | None = None):
    """Deferred join: find the page's ids first (an index-only scan for the
    unfiltered sorts, however deep the page), then read just those rows."""
    order = SORT_ORDER[filters.sort]
    ids = (
        sa.select(leads_t.c.id)
        .where(*(_lead_conditions(filters, user_id) if conditions is None else conditions))
        .order_by(*order)
        .limit(filters.page_size)
        .offset((page - 1) * filters.page_size)
        .subquery("page_ids")
    )
    return (
        sa.select(*CARD_COLUMNS, unlocked_column)
        .join_from(leads_t, ids, ids.c.id == leads_t.c.id)
        .order_by(*order)
    )


def _next_pictures_statement(filters: marketplace_rules.Filters, page: int, conditions: list):
    """The first ``PREFETCH_PICTURES`` leads of ``page``: their pictures only."""
    order = SORT_ORDER[filters.sort]
    ids = (
        sa.select(leads_t.c.id)
        .where(*conditions)
        .order_by(*order)
        .limit(min(filters.page_size, marketplace_rules.PREFETCH_PICTURES))
        .offset((page - 1) * filters.page_size)
        .subquery("next_ids")
    )
    return (
        sa.select(leads_t.c.primary_image_url, leads_t.c.image_urls)
        .join_from(leads_t, ids, ids.c.id == leads_t.c.id)
        .order_by(*order)
    )


def query_page(filters: marketplace_rules.Filters, user_id: uuid.UUID | None = None,
               database_url: str | None = None) -> MarketplacePage:
    """One page of active leads matching ``filters`` plus the filtered count.

    A page past the end is clamped to the last page.
    """
    if user_id is not None:
        unlocked_column = sa.exists().where(
            user_leads_t.c.user_id == user_id, user_leads_t.c.lead_id == leads_t.c.id
        ).label("unlocked")
    else:
        unlocked_column = sa.false().label("unlocked")
    # Two reads, no transaction needed: autocommit saves the BEGIN/ROLLBACK round trips.
    today = sale_dates.local_today(utcnow())  # once: the filters' "Auction Soon" and the cards' sale lines
    with autocommit(database_url) as conn:
        conditions = _lead_conditions(filters, user_id, today)  # once: the count, the page and the next pictures
        total = count_leads(conn, filters, user_id, conditions)
        pages = paging.total_pages(total, filters.page_size)
        page = min(filters.page, pages)
        rows = conn.execute(_page_statement(filters, page, user_id, unlocked_column, conditions)).all()
        upcoming = conn.execute(_next_pictures_statement(filters, page + 1, conditions)).all() if page < pages else []
        # The page's signal chips: one query for the whole page, none for a page without public records.
        chips = record_views.chip_labels(conn, [r.property_id for r in rows if r.property_id is not None])
    cards = [_card(r, bool(r.unlocked), tuple(chips.get(r.property_id, ())), today) for r in rows]
    next_pictures = [pictures[0] for r in upcoming if (pictures := _pictures(r))]
    return MarketplacePage(cards=cards, total=total, page=page, pages=pages,
                           filters=marketplace_rules.Filters(**{**filters.__dict__, "page": page}), next_pictures=next_pictures)


def rebuild_facets(conn: Connection) -> int:
    """Recount ``lead_facets`` from the active leads (inside the caller's transaction)."""
    roi_band = sa.case(
        *[(_bounds_sql(leads_t.c.roi, bounds), band) for band, bounds in marketplace_rules.ROI_BAND_BOUNDS.items()],
        else_="unknown",
    )
    size_band = sa.case(
        *[(_bounds_sql(leads_t.c.square_footage, bounds), band) for band, bounds in marketplace_rules.SIZE_BAND_BOUNDS.items()],
        else_="unknown",
    )
    grouped = (
        sa.select(leads_t.c.lead_type, roi_band.label("roi_band"), size_band.label("size_band"),
                  leads_t.c.is_new, leads_t.c.is_high_roi, sa.func.count().label("lead_count"))
        .where(leads_t.c.is_active == sa.true())
        .group_by(leads_t.c.lead_type, roi_band, size_band, leads_t.c.is_new, leads_t.c.is_high_roi)
    )
    conn.execute(sa.delete(facets_t))
    result = conn.execute(
        sa.insert(facets_t).from_select(
            ["lead_type", "roi_band", "size_band", "is_new", "is_high_roi", "lead_count"], grouped
        )
    )
    return result.rowcount or 0


def rebuild_facets_now(database_url: str | None = None) -> None:
    with get_engine(database_url).begin() as conn:
        rebuild_facets(conn)
