"""New-lead alerts (issue 15): after a refresh, every saved search with alerts on
is matched against the leads that refresh inserted (``leads.refresh_run_id``).

Matching is set-wise, in a fixed number of queries whatever the number of
searches or leads:

1. the refresh's new leads are read once (at most a few hundred rows) and
   grouped into cells, the distinct combinations of (type, ROI band, size band,
   new, high ROI); each cell offers its (group, value) facets
   (``core.saved_searches.lead_facets``: the marketplace filters' own rules);
2. one query joins ``saved_search_criteria`` with those facet rows (a VALUES
   list), grouped per (search, cell) and kept where every group the search
   constrains is matched; a search without filters matches every cell;
3. one query reads the searches with alerts on, of users not deleted.

Then one write transaction: one notification per user (``INSERT ... ON CONFLICT
DO NOTHING`` on UNIQUE(user_id, refresh_run_id), returning only the rows this
run inserted) and, for exactly those users, one digest e-mail in the outbox,
whose id is written on the notification in the same transaction. A re-run, or a
second worker running at the same time, inserts no notification and so sends
no e-mail: the database's unique key decides, not a lock in a process.

Choices: deleted accounts get nothing; an unconfirmed address gets the in-app
notification but no e-mail (the address may not be the user's). The digest
lists the searches with e-mail on (none: no e-mail), each with its own
one-click unsubscribe link; the ``List-Unsubscribe`` header's link turns e-mail
off for every search in that digest (what a mail client's Unsubscribe means:
no more of these e-mails).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from itertools import chain
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event

from marketplace import routes
from marketplace.config import get_settings
from marketplace.core import saved_searches as rules
from marketplace.db import get_engine, session_scope
from marketplace.models import Lead, Notification, SavedSearch, SavedSearchCriterion, User, utcnow
from marketplace.services.mail import send_mails

log = logging.getLogger("marketplace.alerts")

leads_t = Lead.__table__
searches_t = SavedSearch.__table__
criteria_t = SavedSearchCriterion.__table__
users_t = User.__table__
notifications_t = Notification.__table__
LEAD_COLUMNS = (leads_t.c.id, leads_t.c.address, leads_t.c.city, leads_t.c.state, leads_t.c.zip_code,
                leads_t.c.lead_type, leads_t.c.roi, leads_t.c.square_footage, leads_t.c.is_new,
                leads_t.c.is_high_roi, leads_t.c.credit_cost)


class _QueryCounter:
    """Statements sent to the database on the connections it watches."""

    def __init__(self):
        self.count = 0

    def watch(self, conn) -> None:
        event.listen(conn, "before_cursor_execute", self._seen)

    def _seen(self, *_args) -> None:
        self.count += 1


def _new_leads(conn, refresh_run_id: int) -> list:
    rows = conn.execute(sa.select(*LEAD_COLUMNS).where(leads_t.c.refresh_run_id == refresh_run_id,
                                                       leads_t.c.is_active == sa.true())).all()
    # Best first: the digest lists the highest ROI first.
    return sorted(rows, key=lambda r: (r.roi is None, -(r.roi or 0), str(r.id)))


def _cells(leads: list) -> tuple[dict[int, list[int]], list[tuple[int, str, str]]]:
    """{cell: indexes of its leads in ``leads`` (ascending: best first)} and the (cell, group,
    value) facet rows of the cells. Every lead is in exactly one cell."""
    keys: dict[frozenset, int] = {}
    members: dict[int, list[int]] = defaultdict(list)
    for index, lead in enumerate(leads):
        facets = rules.lead_facets(lead.lead_type, lead.roi, lead.square_footage, lead.is_new, lead.is_high_roi)
        members[keys.setdefault(facets, len(keys) + 1)].append(index)
    facet_rows = [(cell, group, value) for facets, cell in keys.items() for group, value in sorted(facets)]
    return members, facet_rows


@dataclass(frozen=True)
class _Match:
    """A search with alerts on and the cells of new leads it matches (its leads: their union)."""

    search: Any  # id, user_id, name, query, email_enabled, email, confirmed
    cells: tuple[int, ...]
    count: int


class _Best:
    """The first ``limit`` lead indexes of a set of cells, best first (many searches share one set)."""

    def __init__(self, members: dict[int, list[int]], limit: int):
        self.members, self.limit, self.known = members, limit, {}

    def __call__(self, cells) -> list[int]:
        key = cells if isinstance(cells, tuple) else tuple(sorted(cells))
        best = self.known.get(key)
        if best is None:
            best = self.known[key] = sorted(chain.from_iterable(self.members[c] for c in key))[:self.limit]
        return best


def _alerting():
    """Searches with alerts on, of accounts not deleted."""
    return (searches_t.join(users_t, users_t.c.id == searches_t.c.user_id),
            sa.and_(searches_t.c.alerts_enabled == sa.true(), users_t.c.deleted_at.is_(None)))


def _matches(conn, facet_rows: list[tuple[int, str, str]]) -> list:
    """Every search with alerts on that matches at least one cell, with its owner, and its cells
    as text ('3,7,12'; '*' for a search without filters, which matches them all): one query.

    The criteria of alerting searches are joined with the cells' facets on (group, value); per
    (search, cell) the groups hit are counted (one MAX per group: hash-aggregatable, no DISTINCT)
    and kept when they are all the search constrains; then one row per search."""
    facets = sa.values(sa.column("cell", sa.Integer), sa.column("grp", sa.String), sa.column("value", sa.String),
                       name="facets").data(facet_rows).cte("facets")
    joined, alerting = _alerting()
    alerting_criteria = (
        sa.select(criteria_t.c.saved_search_id.label("sid"), criteria_t.c.grp, criteria_t.c.value,
                  searches_t.c.criteria_groups.label("groups"))
        .select_from(criteria_t.join(joined, searches_t.c.id == criteria_t.c.saved_search_id))
        .where(alerting, searches_t.c.criteria_groups > 0)
        .cte("alerting_criteria")
        # Computed once: the planner cannot estimate the VALUES join and would otherwise look
        # the search and its user up again for each (criterion, cell) row.
        .prefix_with("MATERIALIZED")
    )
    groups_hit = sum(sa.func.max(sa.case((alerting_criteria.c.grp == group, 1), else_=0)) for group in rules.GROUPS)
    per_cell = (
        sa.select(alerting_criteria.c.sid, facets.c.cell)
        .select_from(alerting_criteria.join(facets, sa.and_(facets.c.grp == alerting_criteria.c.grp,
                                                            facets.c.value == alerting_criteria.c.value)))
        .group_by(alerting_criteria.c.sid, facets.c.cell, alerting_criteria.c.groups)
        .having(groups_hit == alerting_criteria.c.groups)
        .subquery("per_cell")
    )
    per_search = (
        sa.select(per_cell.c.sid, sa.func.aggregate_strings(sa.cast(per_cell.c.cell, sa.String), ",").label("cells"))
        .group_by(per_cell.c.sid)
        .subquery("per_search")
    )
    columns = (searches_t.c.id, searches_t.c.user_id, searches_t.c.name, searches_t.c.query,
               searches_t.c.email_enabled, users_t.c.email, users_t.c.email_confirmed_at.is_not(None).label("confirmed"))
    constrained = sa.select(*columns, per_search.c.cells).select_from(
        per_search.join(joined, searches_t.c.id == per_search.c.sid))
    unconstrained = sa.select(*columns, sa.literal("*").label("cells")).select_from(joined).where(
        alerting, searches_t.c.criteria_groups == 0)
    return conn.execute(sa.union_all(constrained, unconstrained)).all()


def _digest_leads(leads: list) -> list[rules.DigestLead]:
    return [rules.DigestLead(address=lead.address, city=lead.city, state=lead.state, zip_code=lead.zip_code,
                             lead_type=lead.lead_type, credit_cost=lead.credit_cost, roi=lead.roi) for lead in leads]


def _digest(matches: list[_Match], leads: list[rules.DigestLead], members: dict[int, list[int]], best: _Best,
            secret: str, base: str) -> dict | None:
    """The e-mail of one user: the searches with e-mail on, or None (none, or an unconfirmed address)."""
    mailed = [m for m in matches if m.search.email_enabled]
    owner = matches[0].search
    if not mailed or not owner.confirmed:
        return None

    def unsubscribe_url(ids: list[int]) -> str:
        return base + routes.alerts_unsubscribe_url(rules.unsubscribe_token(secret, owner.user_id, ids))

    sections = [
        rules.DigestSection(
            name=m.search.name, query=m.search.query, count=m.count,
            leads=tuple(leads[i] for i in best(m.cells)[:rules.DIGEST_MAX_MATCHES]),
            unsubscribe_url=unsubscribe_url([m.search.id]),
        )
        for m in mailed
    ]
    all_url = unsubscribe_url([m.search.id for m in mailed])
    lead_count = sum(len(members[c]) for c in set().union(*(m.cells for m in mailed)))
    subject, body = rules.digest_text(sections, lead_count, base, all_url)
    return {"to_address": owner.email, "subject": subject, "body": body,
            "headers": {"List-Unsubscribe": f"<{all_url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}}


def _insert_ignoring_duplicates(conn):
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    return insert(notifications_t).on_conflict_do_nothing(index_elements=["user_id", "refresh_run_id"])


def match_refresh(refresh_run_id: int, database_url: str | None = None) -> dict:
    """Notify every user whose saved searches (alerts on) match leads of this refresh; idempotent.

    Returns {refresh_run_id, new_leads, searches_matched, users_matched, users_notified, mails, queries}:
    ``users_notified`` and ``mails`` count only what this call wrote (0 on a re-run)."""
    counter = _QueryCounter()
    summary = {"refresh_run_id": refresh_run_id, "new_leads": 0, "searches_matched": 0, "users_matched": 0,
               "users_notified": 0, "mails": 0, "queries": 0}
    with get_engine(database_url).connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        counter.watch(conn)
        leads = _new_leads(conn, refresh_run_id)
        summary["new_leads"] = len(leads)
        if not leads:
            summary["queries"] = counter.count
            return summary
        members, facet_rows = _cells(leads)
        found = _matches(conn, facet_rows)
    all_cells = tuple(sorted(members))
    by_user: dict = defaultdict(list)
    for row in found:
        cells = all_cells if row.cells == "*" else tuple(sorted({int(c) for c in row.cells.split(",")}))
        by_user[row.user_id].append(_Match(row, cells, sum(len(members[c]) for c in cells)))
    summary.update(searches_matched=len(found), users_matched=len(by_user))
    if not by_user:
        summary["queries"] = counter.count
        return summary

    best = _Best(members, max(rules.NOTIFICATION_LEAD_IDS, rules.DIGEST_MAX_MATCHES))
    rows = []
    for user_id, matches in by_user.items():
        matches.sort(key=lambda m: (-m.count, m.search.name.lower(), m.search.id))
        cells = set().union(*(m.cells for m in matches))
        rows.append({
            "user_id": user_id, "refresh_run_id": refresh_run_id,
            "lead_count": sum(len(members[c]) for c in cells),
            "matches": {"searches": [{"id": m.search.id, "name": m.search.name, "query": m.search.query,
                                      "count": m.count} for m in matches],
                        "lead_ids": [str(leads[i].id) for i in best(cells)[:rules.NOTIFICATION_LEAD_IDS]]},
        })
    settings = get_settings()
    base = settings.public_url.rstrip("/")
    # Built before the transaction (it holds the notifications' keys, and SQLite's write lock);
    # only the users whose notification this run inserts get theirs.
    digest_leads = _digest_leads(leads)
    digests = {user_id: _digest(matches, digest_leads, members, best, settings.secret_key, base)
               for user_id, matches in by_user.items()}
    with session_scope(database_url) as session:
        conn = session.connection()
        counter.watch(conn)
        stamp = utcnow()
        for row in rows:
            row["created_at"] = stamp
        inserted = conn.execute(_insert_ignoring_duplicates(conn).returning(
            notifications_t.c.id, notifications_t.c.user_id), rows).all()
        mails, notified = [], []
        for notification_id, user_id in inserted:
            mail = digests[user_id]
            if mail is not None:
                mails.append(mail)
                notified.append(notification_id)
        outbox_ids = send_mails(session, mails)
        if outbox_ids:
            conn.execute(sa.update(notifications_t).where(notifications_t.c.id == sa.bindparam("nid"))
                         .values(outbox_id=sa.bindparam("oid")),
                         [{"nid": n, "oid": o} for n, o in zip(notified, outbox_ids)])
    summary.update(users_notified=len(inserted), mails=len(outbox_ids), queries=counter.count)
    log.info("saved-search alerts for refresh %s: %s", refresh_run_id, summary)
    return summary
