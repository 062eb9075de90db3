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


def _cells(leads: list) -> tuple[dict[int, list], list[tuple[int, str, str]]]:
    """{cell: leads (best first)} and the (cell, group, value) facet rows of the cells."""
    keys: dict[frozenset, int] = {}
    members: dict[int, list] = defaultdict(list)
    for lead in leads:
        facets = rules.lead_facets(lead.lead_type, lead.roi, lead.square_footage, lead.is_new, lead.is_high_roi)
        members[keys.setdefault(facets, len(keys) + 1)].append(lead)
    facet_rows = [(cell, group, value) for facets, cell in keys.items() for group, value in sorted(facets)]
    return members, facet_rows


def _alerting():
    """Searches with alerts on, of accounts not deleted."""
    return (searches_t.join(users_t, users_t.c.id == searches_t.c.user_id),
            sa.and_(searches_t.c.alerts_enabled == sa.true(), users_t.c.deleted_at.is_(None)))


def _matches(conn, facet_rows: list[tuple[int, str, str]], cell_ids: list[int]) -> list[tuple[int, int]]:
    """(search id, cell) for every search with alerts on and every cell it matches: one query."""
    facets = sa.values(sa.column("cell", sa.Integer), sa.column("grp", sa.String), sa.column("value", sa.String),
                       name="facets").data(facet_rows).cte("facets")
    cells = sa.values(sa.column("cell", sa.Integer), name="cells").data([(c,) for c in cell_ids]).cte("cells")
    joined, alerting = _alerting()
    constrained = (
        sa.select(criteria_t.c.saved_search_id, facets.c.cell)
        .select_from(criteria_t.join(facets, sa.and_(facets.c.grp == criteria_t.c.grp,
                                                     facets.c.value == criteria_t.c.value))
                     .join(joined, searches_t.c.id == criteria_t.c.saved_search_id))
        .where(alerting, searches_t.c.criteria_groups > 0)
        .group_by(criteria_t.c.saved_search_id, facets.c.cell)
        .having(sa.func.count(sa.distinct(criteria_t.c.grp)) == sa.func.max(searches_t.c.criteria_groups))
    )
    unconstrained = (
        sa.select(searches_t.c.id, cells.c.cell)
        .select_from(joined.join(cells, sa.true()))
        .where(alerting, searches_t.c.criteria_groups == 0)
    )
    return [(row[0], row[1]) for row in conn.execute(sa.union_all(constrained, unconstrained))]


def _searches(conn) -> dict[int, object]:
    joined, alerting = _alerting()
    rows = conn.execute(
        sa.select(searches_t.c.id, searches_t.c.user_id, searches_t.c.name, searches_t.c.query,
                  searches_t.c.email_enabled, searches_t.c.created_at, users_t.c.email, users_t.c.email_confirmed_at)
        .select_from(joined).where(alerting)
    ).all()
    return {row.id: row for row in rows}


def _digest(user_searches: list, leads_of: dict[int, list], secret: str, base: str) -> dict | None:
    """The e-mail of one user: the searches with e-mail on, or None."""
    mailed = [s for s in user_searches if s.email_enabled]
    first = user_searches[0]
    if not mailed or first.email_confirmed_at is None:
        return None
    sections = [
        rules.DigestSection(
            name=s.name, query=s.query, count=len(leads_of[s.id]),
            leads=tuple(rules.DigestLead(address=l.address, city=l.city, state=l.state, zip_code=l.zip_code,
                                         lead_type=l.lead_type, credit_cost=l.credit_cost, roi=l.roi)
                        for l in leads_of[s.id][:rules.DIGEST_MAX_MATCHES]),
            unsubscribe_url=base + routes.alerts_unsubscribe_url(rules.unsubscribe_token(secret, first.user_id, [s.id])),
        )
        for s in mailed
    ]
    all_url = base + routes.alerts_unsubscribe_url(rules.unsubscribe_token(secret, first.user_id, [s.id for s in mailed]))
    lead_count = len({lead.id for s in mailed for lead in leads_of[s.id]})
    subject, body = rules.digest_text(sections, lead_count, base, all_url)
    return {"to_address": first.email, "subject": subject, "body": body,
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
        pairs = _matches(conn, facet_rows, sorted(members))
        searches = _searches(conn) if pairs else {}
    cells_of: dict[int, list[int]] = defaultdict(list)
    for search_id, cell in pairs:
        if search_id in searches:
            cells_of[search_id].append(cell)
    order = {lead.id: n for n, lead in enumerate(leads)}
    leads_of = {sid: sorted((lead for cell in cells for lead in members[cell]), key=lambda lead: order[lead.id])
                for sid, cells in cells_of.items()}
    by_user: dict = defaultdict(list)
    for sid in leads_of:
        by_user[searches[sid].user_id].append(searches[sid])
    summary.update(searches_matched=len(leads_of), users_matched=len(by_user))
    if not by_user:
        summary["queries"] = counter.count
        return summary

    rows = []
    for user_id, user_searches in by_user.items():
        user_searches.sort(key=lambda s: (-len(leads_of[s.id]), s.name.lower(), s.id))
        distinct = sorted({lead.id for s in user_searches for lead in leads_of[s.id]}, key=order.__getitem__)
        rows.append({
            "user_id": user_id, "refresh_run_id": refresh_run_id, "lead_count": len(distinct),
            "matches": {"searches": [{"id": s.id, "name": s.name, "query": s.query, "count": len(leads_of[s.id])}
                                     for s in user_searches],
                        "lead_ids": [str(i) for i in distinct[:rules.NOTIFICATION_LEAD_IDS]]},
        })
    settings = get_settings()
    base = settings.public_url.rstrip("/")
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
            mail = _digest(by_user[user_id], leads_of, settings.secret_key, base)
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
