"""The marketplace query: filters and sorts run in the database over all active
leads, with the page and the filtered count.

Counts come from ``lead_facets`` (a few hundred cells rebuilt whenever the
active leads change), so they cost the same for 1,000 or 1,000,000 leads; only
the "unlocked" tag, which depends on the user, counts through ``user_leads``.
How many investors hold each lead is its ``unlock_count`` column
(``services.unlock_counts``): read with the card's row, filtered ("held") and
sorted ("Least unlocked") through its index, never a count of ``user_leads``.
A locked lead's address never leaves this module unmasked.
"""

from __future__ import annotations

import uuid
from datetime import date
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from marketplace.core import marketplace as marketplace_rules
from marketplace.core import sale_dates
from marketplace.core.filter_values import CITY_SUGGESTIONS, city_key
from marketplace.core.holders import HELD_SORT
from marketplace.core.images import allowed_images
from marketplace.core.leads import provenance_line
from marketplace.core.roll_facts import card_facts_line, card_last_sale, card_use_line
from marketplace.core.pricing import display_confidence, unlock_cost
from marketplace.core.address_display import display_city, display_street
from marketplace.core.lead_cards import MAX_CARD_IMAGES
from marketplace.db import autocommit, get_engine
from marketplace.models import Lead, LeadFacet, UserLead, utcnow
from marketplace.config import get_settings
from marketplace.services import record_views
from marketplace.services.demo_data import listed_condition

leads_t = Lead.__table__
facets_t = LeadFacet.__table__
user_leads_t = UserLead.__table__

CARD_COLUMNS = (
    leads_t.c.id, leads_t.c.address, leads_t.c.city, leads_t.c.state, leads_t.c.zip_code, leads_t.c.lead_type,
    leads_t.c.asking_price, leads_t.c.zestimate, leads_t.c.arv, leads_t.c.rehab_estimate, leads_t.c.roi,
    leads_t.c.beds, leads_t.c.baths, leads_t.c.square_footage, leads_t.c.confidence_score,
    leads_t.c.credit_cost, leads_t.c.is_new, leads_t.c.is_high_roi, leads_t.c.image_urls,
    leads_t.c.primary_image_url, leads_t.c.images_fetch_status, leads_t.c.created_at, leads_t.c.raw_data,
    leads_t.c.source, leads_t.c.property_id, leads_t.c.motivation_score, leads_t.c.signal_count,
    leads_t.c.absentee_owner, leads_t.c.out_of_state_owner, leads_t.c.bank_owned, leads_t.c.sale_date,
    leads_t.c.unlock_count, leads_t.c.comps_arv, leads_t.c.comps_count, leads_t.c.roi_basis,
)
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


@dataclass(frozen=True)
class LeadCard:
    """One card: everything the grid shows, with the address already masked if locked."""

    id: str
    address: str
    unlocked: bool
    city: str
    state: str
    zip_code: str
    lead_type: str
    asking_price: int | None
    zestimate: int | None
    arv: int | None
    rehab_estimate: int | None
    roi: float | None
    beds: int | None
    baths: float | None
    square_footage: int | None
    confidence: int
    credit_cost: int
    is_new: bool
    is_high_roi: bool
    images: list[str]
    image_status: str = "no_images"  # leads.images_fetch_status: why a lead has no pictures
    provenance: str = ""  # core.leads.provenance_line: 'Demo data (generated)'
    # Public-record leads: open signals' labels (record_views.chip_labels), the owner flags
    # and the motivation score; every viewer sees these (no owner name or address).
    signals: tuple[str, ...] = ()
    # Owner flags: True, False or None (unknown: no mailing address / owner name on record).
    absentee_owner: bool | None = None
    out_of_state_owner: bool | None = None
    bank_owned: bool | None = None
    public_record: bool = False
    motivation_score: int | None = None
    # The sale date as every viewer may see it (record_views' privacy note): the tag and the day count,
    # never the calendar date on a card.
    auction_soon: bool = False
    sale_in: str = ""  # 'Sale in 17 days' (core.sale_dates.sale_in_text); '' without a date ahead
    # How many investors hold the lead (leads.unlock_count, core.holders): a count, never who.
    unlock_count: int = 0
    # The headline (core.headline): the ROI rests on the comps ARV ('comps') or the estimate.
    comps_arv: int | None = None
    comps_count: int = 0
    roi_basis: str = ""
    # The county roll's values and basis, or why there are none (core.roll_facts.card_facts_line); the
    # last recorded sale, unlocked cards only.
    roll_line: str = ""
    roll_use: str = ""  # 'Single family, built 1925' (core.roll_facts.card_use_line)
    last_sale: str = ""


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
    """``core.marketplace.Match`` as SQL over ``table`` (``leads`` or ``lead_facets``)."""
    if match.op == "unlocked":  # signed out, nobody has unlocked anything: no lead matches
        return (leads_t.c.id.in_(sa.select(user_leads_t.c.lead_id).where(user_leads_t.c.user_id == user_id))
                if user_id is not None else sa.false())
    if match.op == "sale_soon":
        return auction_soon_condition(today)
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
    """core.sale_dates' rule in SQL: a sale date from ``today`` to 30 days ahead (a NULL date never matches)."""
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


def _lead_conditions(filters: marketplace_rules.Filters, user_id: uuid.UUID | None) -> list:
    """The filters over ``leads``, built once per query and shared by its statements."""
    conditions = [listed_condition()]  # active; in production never a generated (demo) lead
    today = sale_dates.local_today(utcnow())
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


def _card(row: Any, unlocked: bool, signals: tuple[str, ...] = (), today: date | None = None) -> LeadCard:
    images = _pictures(row)
    today = today or sale_dates.local_today(utcnow())
    ahead = row.sale_date is not None and row.sale_date >= today
    return LeadCard(
        id=str(row.id),
        # Public records publish "0466 ROUNDVIEW ROAD": shown in reading case, then masked when locked.
        address=display_street(row.address) if unlocked else marketplace_rules.mask_address(display_street(row.address)),
        unlocked=unlocked,
        city=display_city(row.city),
        state=row.state,
        zip_code=row.zip_code,
        lead_type=row.lead_type,
        asking_price=row.asking_price,
        zestimate=row.zestimate,
        arv=row.arv,
        rehab_estimate=row.rehab_estimate,
        roi=row.roi,
        beds=row.beds,
        baths=row.baths,
        square_footage=row.square_footage,
        confidence=display_confidence(row.confidence_score),
        credit_cost=unlock_cost(row.credit_cost),
        is_new=row.is_new,
        is_high_roi=row.is_high_roi,
        images=images[:MAX_CARD_IMAGES],
        image_status=row.images_fetch_status or "no_images",
        provenance=provenance_line(row.raw_data, row.source),
        signals=signals,
        absentee_owner=row.absentee_owner,
        out_of_state_owner=row.out_of_state_owner,
        bank_owned=row.bank_owned,
        public_record=row.property_id is not None,
        motivation_score=row.motivation_score if row.property_id is not None else None,
        auction_soon=sale_dates.is_auction_soon(row.sale_date, today),
        sale_in=sale_dates.sale_in_text(row.sale_date, today) if ahead else "",
        unlock_count=row.unlock_count or 0,
        comps_arv=row.comps_arv,
        comps_count=row.comps_count or 0,
        roi_basis=row.roi_basis or "",
        roll_line=card_facts_line(row.raw_data),
        roll_use=card_use_line(row.raw_data),
        last_sale=card_last_sale(row.raw_data) if unlocked else "",
    )


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
    with autocommit(database_url) as conn:
        conditions = _lead_conditions(filters, user_id)  # once: the count, the page and the next pictures
        total = count_leads(conn, filters, user_id, conditions)
        pages = marketplace_rules.total_pages(total, filters.page_size)
        page = min(filters.page, pages)
        rows = conn.execute(_page_statement(filters, page, user_id, unlocked_column, conditions)).all()
        upcoming = conn.execute(_next_pictures_statement(filters, page + 1, conditions)).all() if page < pages else []
        # The page's signal chips: one query for the whole page, none for a page without public records.
        chips = record_views.chip_labels(conn, [r.property_id for r in rows if r.property_id is not None])
    today = sale_dates.local_today(utcnow())
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
