"""Saved searches: a user's named marketplace filters, with what matches now.

Each public function opens its own scope. A search belongs to one user: another
user's id or a missing id is ``SAVED_SEARCH_NOT_FOUND`` and changes nothing.
The counts of a list cost two queries whatever the number of searches: one
over ``lead_facets`` (matches now) and one over the leads refreshes added since
the oldest 'last opened' (new since opened), each a column of conditional sums,
one per search; a third over the user's own unlocks when a search has the
user-dependent 'unlocked' tag; a fourth over the leads matching a search with a
state, city, ZIP or price filter (``lead_facets`` has no such columns), through
the leads' indexes.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from marketplace.platform import texts as messages, routes
from marketplace.features.marketplace import rules_saved_searches as search_rules
from marketplace.platform.errors import UserError
from marketplace.platform.db import read_scope, session_scope
from marketplace.platform.models import LeadRefreshRun, SavedSearch, SavedSearchCriterion, User, utcnow
from marketplace.platform.demo_data import listed_condition
from marketplace.features.marketplace.service import (
    _facet_conditions,
    _lead_conditions,
    counted_from_facets,
    facets_t,
    leads_t,
    user_leads_t,
)

searches_t = SavedSearch.__table__
runs_t = LeadRefreshRun.__table__
criteria_t = SavedSearchCriterion.__table__
users_t = User.__table__


@dataclass(frozen=True)
class SavedSearchView:
    id: int
    name: str
    query: str
    summary: str
    matches_now: int
    new_since_opened: int
    alerts_enabled: bool
    email_enabled: bool
    created_at: datetime


def _not_found() -> UserError:
    return UserError(*messages.SAVED_SEARCH_NOT_FOUND)


def _search_id(search_id: object) -> int:
    if isinstance(search_id, bool) or not isinstance(search_id, int) or not 0 < search_id < 2**63:
        raise _not_found()
    return search_id


def _matches_now(conn, user_id: uuid.UUID, rows: list, filters: dict) -> dict[int, int]:
    """Active leads matching each search now: one query over ``lead_facets`` for all of them; one
    over the user's own unlocks when a search has the 'unlocked' tag, counted as
    |other tags| + |unlocked| - |both|; and one over the leads matching any of the searches with
    a place or price filter, through their indexes (never a scan of every lead)."""
    facet_filters, by_leads = {}, []
    for row in rows:
        f = filters[row.id]
        without_unlocked = replace(f, tags=tuple(t for t in f.tags if t != "unlocked"))
        if not counted_from_facets(without_unlocked):
            by_leads.append(row.id)
            facet_filters[row.id] = None
            continue
        others = without_unlocked.tags
        facet_filters[row.id] = f if others == f.tags else (without_unlocked if others else None)
    sums = [sa.func.coalesce(sa.func.sum(sa.case((sa.and_(sa.true(), *_facet_conditions(ff)), facets_t.c.lead_count),
                                                 else_=0)), 0) if ff is not None else sa.literal(0)
            for ff in facet_filters.values()]
    counts = {sid: int(n) for sid, n in zip(facet_filters, conn.execute(sa.select(*sums)).one())}
    unlocked = [row.id for row in rows if "unlocked" in filters[row.id].tags and row.id not in by_leads]
    if unlocked:
        columns = []
        for sid in unlocked:
            base, others = replace(filters[sid], tags=()), facet_filters[sid]
            columns.append(sa.func.sum(sa.case((sa.and_(*_lead_conditions(base, None)), 1), else_=0)))
            columns.append(sa.func.sum(sa.case((sa.and_(*_lead_conditions(others, None)), 1), else_=0))
                           if others is not None else sa.literal(0))
        values = conn.execute(sa.select(*columns).select_from(
            leads_t.join(user_leads_t, user_leads_t.c.lead_id == leads_t.c.id)).where(
            user_leads_t.c.user_id == user_id)).one()
        for n, sid in enumerate(unlocked):
            counts[sid] += int(values[2 * n] or 0) - int(values[2 * n + 1] or 0)
    if by_leads:
        matching = [sa.and_(*_lead_conditions(filters[sid], user_id)[1:]) for sid in by_leads]
        values = conn.execute(
            sa.select(*[sa.func.coalesce(sa.func.sum(sa.case((m, 1), else_=0)), 0) for m in matching])
            .where(listed_condition(), sa.or_(*matching))
        ).one()
        counts.update({sid: int(n) for sid, n in zip(by_leads, values)})
    return counts


def _counts(conn, user_id: uuid.UUID, rows: list) -> dict[int, tuple[int, int]]:
    """{search id: (matches now, new since opened)} in two or three queries whatever the number of searches.

    'New since opened' counts the matching leads that refreshes added after the search was last
    opened (or saved): the leads of those runs only (``leads.refresh_run_id``), so the query reads a
    few hundred leads a day, never the whole table (seeded or scraped leads never count as new)."""
    if not rows:
        return {}
    filters = {row.id: search_rules.stored_filters(row.query) for row in rows}
    now_counts = _matches_now(conn, user_id, rows, filters)
    since = {row.id: row.last_opened_at or row.created_at for row in rows}
    oldest = min(since.values())
    new_sums = [
        sa.func.coalesce(sa.func.sum(sa.case(
            (sa.and_(leads_t.c.created_at > since[row.id], *_lead_conditions(filters[row.id], user_id)[1:]), 1),
            else_=0)), 0)
        for row in rows
    ]
    new_counts = conn.execute(
        sa.select(*new_sums).where(
            listed_condition(), leads_t.c.created_at > oldest,
            leads_t.c.refresh_run_id.in_(sa.select(runs_t.c.id).where(runs_t.c.started_at >= oldest)))
    ).one()
    return {row.id: (now_counts[row.id], int(new)) for row, new in zip(rows, new_counts)}


def _views(conn, user_id: uuid.UUID, rows: list) -> list[SavedSearchView]:
    counts = _counts(conn, user_id, rows)
    return [
        SavedSearchView(id=row.id, name=row.name, query=row.query, summary=search_rules.query_summary(row.query),
                        matches_now=counts[row.id][0], new_since_opened=counts[row.id][1],
                        alerts_enabled=row.alerts_enabled, email_enabled=row.email_enabled,
                        created_at=row.created_at)
        for row in rows
    ]


def _rows(conn, user_id: uuid.UUID, search_id: int | None = None) -> list:
    statement = sa.select(searches_t).where(searches_t.c.user_id == user_id)
    if search_id is not None:
        statement = statement.where(searches_t.c.id == search_id)
    return conn.execute(statement.order_by(searches_t.c.created_at.desc(), searches_t.c.id.desc())).all()


def _one_view(user_id: uuid.UUID, search_id: int) -> SavedSearchView:
    with read_scope() as session:
        conn = session.connection()
        rows = _rows(conn, user_id, search_id)
        if not rows:
            raise _not_found()
        return _views(conn, user_id, rows)[0]


def create_saved_search(user_id: uuid.UUID, name: str, query: str) -> SavedSearchView:
    """Save ``query`` (a marketplace query string; page and page size dropped) under ``name``:
    at most ``MAX_SAVED_SEARCHES`` per user, names unique per user whatever their case;
    alerts and e-mail on."""
    name = search_rules.clean_name(name)
    filters = search_rules.stored_filters(query if isinstance(query, str) else "")
    try:
        with session_scope() as session:
            conn = session.connection()
            # The user's row, locked (PostgreSQL; SQLite's BEGIN IMMEDIATE already serialises):
            # two saves at once cannot both take the 25th place.
            user = conn.execute(sa.select(users_t.c.id).where(users_t.c.id == user_id, users_t.c.deleted_at.is_(None))
                                .with_for_update()).first()
            if user is None:
                raise UserError(*messages.NOT_SIGNED_IN)
            taken = conn.execute(sa.select(sa.func.count()).select_from(searches_t)
                                 .where(searches_t.c.user_id == user_id)).scalar_one()
            if taken >= search_rules.MAX_SAVED_SEARCHES:
                raise UserError(*messages.SAVED_SEARCH_LIMIT)
            if conn.execute(sa.select(searches_t.c.id).where(searches_t.c.user_id == user_id,
                                                             searches_t.c.name_key == search_rules.name_key(name))).first():
                raise search_rules.name_taken(name)
            search_id = conn.execute(
                sa.insert(searches_t).values(user_id=user_id, name=name, name_key=search_rules.name_key(name),
                                             query=filters.to_query(), criteria_groups=search_rules.criteria_groups(filters),
                                             place_groups=search_rules.place_groups(filters),
                                             min_price=filters.min_price, max_price=filters.max_price,
                                             alerts_enabled=True, email_enabled=True, created_at=utcnow())
                .returning(searches_t.c.id)
            ).scalar_one()
            rows = [{"saved_search_id": search_id, "grp": g, "value": v} for g, v in search_rules.criteria(filters)]
            if rows:
                conn.execute(sa.insert(criteria_t), rows)
    except IntegrityError:
        raise search_rules.name_taken(name) from None
    return _one_view(user_id, search_id)


def list_saved_searches(user_id: uuid.UUID) -> list[SavedSearchView]:
    """The user's saved searches, newest first, with their counts."""
    with read_scope() as session:
        conn = session.connection()
        return _views(conn, user_id, _rows(conn, user_id))


def _update(user_id: uuid.UUID, search_id: object, **values) -> int:
    search_id = _search_id(search_id)
    with session_scope() as session:
        changed = session.connection().execute(
            sa.update(searches_t).where(searches_t.c.id == search_id, searches_t.c.user_id == user_id).values(**values)
        ).rowcount
    if not changed:
        raise _not_found()
    return search_id


def rename_saved_search(user_id: uuid.UUID, search_id: int, name: str) -> SavedSearchView:
    name = search_rules.clean_name(name)
    search_id = _search_id(search_id)
    try:
        with session_scope() as session:
            conn = session.connection()
            other = conn.execute(sa.select(searches_t.c.id).where(
                searches_t.c.user_id == user_id, searches_t.c.name_key == search_rules.name_key(name),
                searches_t.c.id != search_id)).first()
            exists = conn.execute(sa.select(searches_t.c.id).where(searches_t.c.id == search_id,
                                                                   searches_t.c.user_id == user_id)).first()
            if exists is None:
                raise _not_found()
            if other is not None:
                raise search_rules.name_taken(name)
            conn.execute(sa.update(searches_t).where(searches_t.c.id == search_id)
                         .values(name=name, name_key=search_rules.name_key(name)))
    except IntegrityError:
        raise search_rules.name_taken(name) from None
    return _one_view(user_id, search_id)


def delete_saved_search(user_id: uuid.UUID, search_id: int) -> None:
    search_id = _search_id(search_id)
    with session_scope() as session:
        deleted = session.connection().execute(
            sa.delete(searches_t).where(searches_t.c.id == search_id, searches_t.c.user_id == user_id)
        ).rowcount
    if not deleted:
        raise _not_found()


def set_alerts(user_id: uuid.UUID, search_id: int, enabled: bool) -> SavedSearchView:
    """Alerts on or off: off, the search is left out of every refresh's matching (no notification, no e-mail)."""
    return _one_view(user_id, _update(user_id, search_id, alerts_enabled=enabled is True))


def set_email(user_id: uuid.UUID, search_id: int, enabled: bool) -> SavedSearchView:
    """The digest e-mail for this search on or off (its in-app notifications stay)."""
    return _one_view(user_id, _update(user_id, search_id, email_enabled=enabled is True))


def open_saved_search(user_id: uuid.UUID, search_id: int) -> str:
    """Mark the search opened now ('new since opened' starts again) and return its marketplace URL."""
    search_id = _search_id(search_id)
    with session_scope() as session:
        query = session.connection().execute(
            sa.update(searches_t).where(searches_t.c.id == search_id, searches_t.c.user_id == user_id)
            .values(last_opened_at=utcnow()).returning(searches_t.c.query)
        ).scalar_one_or_none()
    if query is None:
        raise _not_found()
    return routes.marketplace_url(query)


def unsubscribe_email(token: str, enabled: bool | None = False) -> list[str]:
    """The unsubscribe link of an alert e-mail (no sign-in): the names of the searches the signed
    token names, after turning their e-mail off (``enabled=False``), back on (``True``), or
    without changing anything (``None``: the page that asks first). A bad or forged token is
    ``UNSUBSCRIBE_INVALID``, one whose searches (or account) no longer exist
    ``UNSUBSCRIBE_GONE``; either changes nothing."""
    from marketplace.platform.config import get_settings

    read = search_rules.read_unsubscribe_token(get_settings().secret_key, token)
    if read is None:
        raise UserError(*messages.UNSUBSCRIBE_INVALID)
    user_id, search_ids = read
    mine = (searches_t.c.user_id == user_id, searches_t.c.id.in_(search_ids),
            searches_t.c.user_id.in_(sa.select(users_t.c.id).where(users_t.c.deleted_at.is_(None))))
    if enabled is None:
        with read_scope() as session:
            names = session.connection().execute(sa.select(searches_t.c.id, searches_t.c.name).where(*mine)).all()
    else:
        with session_scope() as session:
            names = session.connection().execute(
                sa.update(searches_t).where(*mine).values(email_enabled=enabled)
                .returning(searches_t.c.id, searches_t.c.name)
            ).all()
    if not names:
        raise UserError(*messages.UNSUBSCRIBE_GONE)
    order = {sid: n for n, sid in enumerate(search_ids)}
    return [name for _, name in sorted(names, key=lambda row: order[row[0]])]
