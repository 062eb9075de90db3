"""Reads for the developer explorer's leads table and CSV export.

The table holds the marketplace's leads (``scrape_id IS NULL``; leads a bulk
scrape delivered belong to that user and are left out). A page is one
``LIMIT/OFFSET`` query over the view plus one count query, so only one page of
rows ever leaves the database. The search conditions are written for the
indexes of migration 0006: ``state = 'TX'`` (the (state, city) index), the
ZIP prefix as a half-open range on ``zip_code`` (any collation) and the city
compared lower-cased. The PostgreSQL partial indexes of migration 0007 give
each sort's order; ``_page_query`` and ``_counts_query`` say how deep pages and
the unfiltered counts avoid reading the whole table. The export streams the
whole view in the same order from one cursor (a server-side cursor on
PostgreSQL), ``batch`` rows at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import func

from marketplace.features.explorer import rules as explorer_rules
from marketplace.platform.leads import PROOF_KEY, export_provenance
from marketplace.platform.paging import total_pages
from marketplace.platform.db import city_in, get_engine, read_scope
from marketplace.platform.models import Lead
from marketplace.platform.demo_data import generated_condition

_COLUMNS = [Lead.__table__.c[name] for name in explorer_rules.LEAD_FIELDS]
_T = Lead.__table__.c


@dataclass(frozen=True)
class LeadPage:
    rows: list[dict[str, str]]  # display strings, one page
    page: int
    pages: int
    total: int  # rows in the view (search and status filter)
    active: int  # active / archived rows matching the search
    archived: int


def _search_conditions(search: explorer_rules.LeadSearch) -> list:
    conditions = [_T.scrape_id.is_(None)]
    if search.state:
        conditions.append(_T.state == search.state)
    if search.city:
        conditions.append(city_in(_T.city, [search.city]))
    if search.zip_prefix:
        low, high = explorer_rules.zip_range(search.zip_prefix)
        conditions.append(_T.zip_code >= low)
        if high is not None:
            conditions.append(_T.zip_code < high)
        if search.zip_prefix != low:  # ZIP+4 typed: the range narrows, LIKE decides
            conditions.append(_T.zip_code.like(search.zip_prefix + "%"))
    return conditions


def _conditions(view: explorer_rules.LeadView) -> list:
    conditions = _search_conditions(view.search)
    if view.status == "active":
        conditions.append(_T.is_active == sa.true())
    elif view.status == "archived":
        conditions.append(_T.is_active == sa.false())
    return conditions


def _order(sort: str) -> list:
    tie = [_T.created_at.desc(), _T.id.desc()]
    first = {
        "roi_desc": _T.roi.desc().nulls_last(),
        "price_asc": _T.asking_price.asc().nulls_last(),
        "zestimate_desc": _T.zestimate.desc().nulls_last(),
        "sqft_asc": _T.square_footage.asc().nulls_last(),
    }.get(sort)
    return tie if first is None else [first, *tie]


def _provenance_columns() -> tuple:
    """What ``platform.leads.export_provenance`` reads of ``raw_data``, as a few small JSON values (the export
    never reads a lead's whole raw record)."""
    raw = _T.raw_data
    return (generated_condition().label("_generated"), raw["public_record"].as_boolean().label("_public_record"),
            raw[(PROOF_KEY, "publisher")].as_string().label("_proof_publisher"),
            raw[(PROOF_KEY, "title")].as_string().label("_proof_title"), raw["provider"].as_string().label("_provider"))


def _with_provenance(row: dict) -> dict:
    """An exported row: the lead's fields and its provenance line (no helper columns)."""
    raw = ({"generated": True} if row.pop("_generated") else
           {"public_record": bool(row.pop("_public_record")),
            PROOF_KEY: {"publisher": row.pop("_proof_publisher"), "title": row.pop("_proof_title")},
            "provider": row.pop("_provider")})
    for key in ("_public_record", "_proof_publisher", "_proof_title", "_provider"):
        row.pop(key, None)
    return {**row, "provenance": export_provenance(raw, row.get("source"))}


def view_query(view: explorer_rules.LeadView, provenance: bool = False) -> sa.Select:
    """Every lead of the view, in the view's order (the table pages it, the export streams it with
    ``provenance``: the columns ``_with_provenance`` reads)."""
    columns = (*_COLUMNS, *_provenance_columns()) if provenance else _COLUMNS
    return sa.select(*columns).where(*_conditions(view)).order_by(*_order(view.sort))


def _page_query(view: explorer_rules.LeadView, limit: int, offset: int) -> sa.Select:
    """One page of the view. Past the first page the rows skipped by OFFSET are
    walked as ids only (on PostgreSQL an index-only scan of the sort's partial
    index when there is no filter) and only the page's rows are read in full."""
    if not offset:
        return view_query(view).limit(limit)
    order = _order(view.sort)
    ids = sa.select(_T.id).where(*_conditions(view)).order_by(*order).limit(limit).offset(offset).subquery("page_ids")
    return sa.select(*_COLUMNS).join_from(Lead.__table__, ids, _T.id == ids.c.id).order_by(*order)


def _tally(*conditions) -> sa.Select:
    """(rows, active rows) of the leads matching ``conditions``."""
    active = func.count().filter(_T.is_active == sa.true())
    return sa.select(func.count().label("n"), active.label("active")).select_from(Lead.__table__).where(*conditions)


def _counts_query(view: explorer_rules.LeadView) -> sa.Select:
    """(rows, active rows) of the view's search, status filter aside.

    Without a search: every lead minus the bulk-scrape deliveries, one
    statement (one snapshot), so exact. Every lead's ``is_active`` is read from
    an (is_active, ...) index alone (an index-only scan on PostgreSQL, no heap
    pages), and the deliveries are found through the scrape_id index; counting
    ``scrape_id IS NULL`` directly has to read the whole table."""
    if not view.search.empty:
        return _tally(*_search_conditions(view.search))
    every = _tally().subquery("every")
    scraped = _tally(_T.scrape_id.is_not(None)).subquery("scraped")
    both = every.join(scraped, sa.true())
    return sa.select(every.c.n - scraped.c.n, every.c.active - scraped.c.active).select_from(both)


def counts(view: explorer_rules.LeadView) -> tuple[int, int]:
    """(active, archived) leads matching the view's search, whatever its status filter."""
    query = _counts_query(view)
    with read_scope() as session:
        total, active = session.execute(query).one()
    return int(active), int(total) - int(active)


def page(view: explorer_rules.LeadView, number: int, page_size: int, known_counts: tuple[int, int] | None = None,
         zone_name: str = "UTC") -> LeadPage:
    """One page of the view (the page number is clamped to the last page).

    ``known_counts``: the (active, archived) counts of the same search from the
    previous page, so paging and sorting skip the count (a scan of the view)."""
    page_size = page_size if page_size in explorer_rules.PAGE_SIZES else explorer_rules.DEFAULT_PAGE_SIZE
    active, archived = known_counts if known_counts is not None else counts(view)
    total = explorer_rules.view_total(view.status, active, archived)
    pages = total_pages(total, page_size)
    number = min(max(1, number), pages)
    rows: list[dict[str, str]] = []
    if total:
        with read_scope() as session:
            result = session.execute(_page_query(view, page_size, (number - 1) * page_size))
            rows = [explorer_rules.table_row(lead, zone_name) for lead in result.mappings()]
    return LeadPage(rows=rows, page=number, pages=pages, total=total, active=active, archived=archived)


def has_leads(view: explorer_rules.LeadView) -> bool:
    """Whether the view holds at least one lead (an export of it is worth a link)."""
    query = sa.select(sa.literal(1)).select_from(Lead.__table__).where(*_conditions(view)).limit(1)
    with read_scope() as session:
        return session.execute(query).first() is not None


def iter_leads(view: explorer_rules.LeadView, batch: int = 1000) -> Iterator[list[dict]]:
    """The whole view in order, ``batch`` leads at a time, never more in memory, each with its
    ``provenance`` line.

    PostgreSQL: a server-side cursor inside a read-only transaction (a named
    cursor needs one). SQLite: the autocommit read connection of
    ``read_scope``; its cursor steps through the rows as they are fetched and
    takes no write lock. A generator: run it off the event loop.
    """
    engine = get_engine()
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            conn.exec_driver_sql("SET TRANSACTION READ ONLY")
            result = conn.execution_options(stream_results=True, max_row_buffer=batch).execute(
                view_query(view, provenance=True))
            for part in result.mappings().partitions(batch):
                yield [_with_provenance(dict(row)) for row in part]
            conn.rollback()
        return
    with read_scope() as session:
        result = session.connection().execution_options(stream_results=True).execute(
            view_query(view, provenance=True))
        for part in result.mappings().partitions(batch):
            yield [_with_provenance(dict(row)) for row in part]


def iter_csv(view: explorer_rules.LeadView, batch: int = 1000) -> Iterator[str]:
    """The developer CSV of the view as text chunks: BOM and header, then one chunk per batch."""
    yield "\ufeff" + explorer_rules.csv_chunk((), header=True)  # BOM: spreadsheets read the file as UTF-8
    for leads in iter_leads(view, batch):
        yield explorer_rules.csv_chunk(leads)
