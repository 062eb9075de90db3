"""New-lead alerts: after a refresh, every saved search with alerts on
is matched against the leads that refresh inserted (``leads.refresh_run_id``).

Matching is set-wise, in a fixed number of queries whatever the number of
searches or leads:

1. the refresh's new leads are read once (at most a few hundred rows);
2. one query reads what the searches ask of places and prices: the state, city
   and ZIP criteria among the new leads' own values, and the distinct ends of
   the searches' price ranges;
3. the leads are grouped into cells: a *kind* cell per distinct (type, ROI band,
   size band, new, high ROI), a *place* cell per distinct (the places some
   search asks for, the price segment between two range ends); a place nobody
   asks for, or a price without ranges, splits no cell, and every price of a
   segment is inside the same ranges. Each cell offers its (group, value)
   facets (``marketplace.rules_saved_searches.lead_facets`` / ``place_facets``: the
   marketplace filters' own rules) and a priced place cell a price. Kinds and
   places are matched apart (a type criterion meets a few dozen kind cells, not
   every lead) and combined in Python: a search matches the leads of a kind
   cell it matches that are also in a place cell it matches;
4. one query joins ``saved_search_criteria`` with those facet rows (a VALUES
   list) and the searches' price ranges with the cells' prices (a range join),
   grouped per (search, cell) and kept where every group the search constrains
   there is matched (a lead without an asking price never matches a price range); a
   search without filters matches every cell, and it also reads the searches
   with alerts on, of users not deleted.

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
from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass
from itertools import chain
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event

from marketplace.platform import routes
from marketplace.platform.config import get_settings
from marketplace.features.marketplace import rules_saved_searches as search_rules
from marketplace.features.marketplace import rules_sale_dates as sale_dates
from marketplace.platform.db import autocommit, session_scope
from marketplace.platform.models import Lead, Notification, SavedSearch, SavedSearchCriterion, User, utcnow
from marketplace.platform.demo_data import generated_condition, listed_condition
from marketplace.platform.mail import send_mails

log = logging.getLogger("marketplace.alerts")

leads_t = Lead.__table__
searches_t = SavedSearch.__table__
criteria_t = SavedSearchCriterion.__table__
users_t = User.__table__
notifications_t = Notification.__table__
LEAD_COLUMNS = (leads_t.c.id, leads_t.c.address, leads_t.c.city, leads_t.c.state, leads_t.c.zip_code,
                leads_t.c.lead_type, leads_t.c.roi, leads_t.c.square_footage, leads_t.c.is_new,
                leads_t.c.is_high_roi, leads_t.c.credit_cost, leads_t.c.asking_price, leads_t.c.signal_count,
                leads_t.c.absentee_owner, leads_t.c.out_of_state_owner, leads_t.c.bank_owned, leads_t.c.sale_date,
                leads_t.c.unlock_count, generated_condition().label("demo"))


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
                                                       listed_condition())).all()
    # Best first: the digest lists the highest ROI first.
    return sorted(rows, key=lambda r: (r.roi is None, -(r.roi or 0), str(r.id)))


@dataclass(frozen=True)
class _Asked:
    """What the alerting searches ask of places and prices, for the new leads' cells."""

    places: frozenset[tuple[str, str]]  # (group, value) of place criteria among the new leads' values
    breaks: tuple[int, ...]  # sorted: every range starts at one (min) and ends before one (max + 1)

    def segment(self, price: int | None) -> int | None:
        return None if price is None else bisect_right(self.breaks, price)


def _asked(conn, leads: list) -> _Asked:
    """One query: the place criteria naming one of the new leads' places (any search: a criterion of a
    search with alerts off only splits a cell more) and the ends of the alerting searches' price ranges."""
    offered = set().union(*(search_rules.place_facets(lead.state, lead.city, lead.zip_code) for lead in leads))
    places = (sa.select(criteria_t.c.grp, criteria_t.c.value)
              .where(criteria_t.c.grp.in_(search_rules.PLACE_GROUPS), criteria_t.c.value.in_(sorted({v for _, v in offered})))
              .distinct())
    priced = searches_t.c.alerts_enabled == sa.true()
    ends = [sa.select(sa.literal(grp).label("grp"), sa.cast(column + shift, sa.String).label("value"))
            .where(priced, column.is_not(None)).distinct()
            for grp, column, shift in (("min", searches_t.c.min_price, 0), ("max", searches_t.c.max_price, 1))]
    rows = conn.execute(sa.union_all(places, *ends)).all()
    return _Asked(places=frozenset((g, v) for g, v in rows if (g, v) in offered),
                  breaks=tuple(sorted({int(v) for g, v in rows if g in ("min", "max")})))


@dataclass
class _Cells:
    """The new leads in cells. A lead is in one *kind* cell (type, ROI band, size band, new, high
    ROI: a few dozen) and one *place* cell (the places some search asks for and the price segment);
    the pair is its *full* cell, whose leads match exactly the same searches. Kind and place
    cells share one numbering: kind cells 1..kinds, place cells after them."""

    members: dict[int, list[int]]  # full cell -> indexes of its leads in ``leads`` (ascending: best first)
    full: dict[int, list[tuple[int, int]]]  # kind cell -> its (full cell, place cell) pairs
    kinds: int
    facet_rows: list[tuple[int, str, str]]  # (kind or place cell, group, value)
    price_rows: list[tuple[int, int]]  # (priced place cell, a price of its segment)

    def matched(self, kind_cells, place_cells) -> tuple[int, ...]:
        """The full cells of these kind and place cells (None: every one)."""
        kinds = self.full if kind_cells is None else kind_cells
        return tuple(sorted(cell for kind in kinds for cell, place in self.full.get(kind, ())
                            if place_cells is None or place in place_cells))


def _cells(leads: list, asked: _Asked) -> _Cells:
    today = sale_dates.local_today(utcnow())  # "Auction Soon" on the day the alert goes out
    kind_keys: dict[frozenset, int] = {}
    place_keys: dict[tuple, int] = {}
    full_keys: dict[tuple[int, int], int] = {}
    members: dict[int, list[int]] = defaultdict(list)
    places = []
    for index, lead in enumerate(leads):
        kind = kind_keys.setdefault(
            search_rules.lead_facets(lead.lead_type, lead.roi, lead.square_footage, lead.is_new, lead.is_high_roi,
                              lead.signal_count, lead.absentee_owner, lead.out_of_state_owner,
                              sale_date=lead.sale_date, today=today, unlock_count=lead.unlock_count,
                              bank_owned=lead.bank_owned),
            len(kind_keys) + 1)
        places.append((search_rules.place_facets(lead.state, lead.city, lead.zip_code) & asked.places,
                       asked.segment(lead.asking_price), lead.asking_price, kind))
    kinds = len(kind_keys)
    prices: dict[int, int] = {}
    for index, (facets, segment, price, kind) in enumerate(places):
        place = place_keys.setdefault((facets, segment), kinds + len(place_keys) + 1)
        if price is not None:
            prices.setdefault(place, price)
        members[full_keys.setdefault((kind, place), len(full_keys) + 1)].append(index)
    full: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for (kind, place), cell in full_keys.items():
        full[kind].append((cell, place))
    facet_rows = [(cell, group, value) for facets, cell in kind_keys.items() for group, value in sorted(facets)]
    facet_rows += [(cell, group, value) for (facets, _), cell in place_keys.items() for group, value in sorted(facets)]
    return _Cells(members=members, full=dict(full), kinds=kinds, facet_rows=facet_rows,
                  price_rows=sorted(prices.items()))


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


def _matches(conn, facet_rows: list[tuple[int, str, str]], price_rows: list[tuple[int, int]]) -> list:
    """Every search with alerts on that matches at least one kind or place cell, with its owner, and
    those cells as text ('3,7,12'; '' for a search without filters, which matches them all): one query.

    The criteria of alerting searches are joined with the cells' facets on (group, value); per
    (search, cell) the groups hit are counted (one MAX per group: hash-aggregatable, no DISTINCT)
    and kept when they are all the search constrains there (the kind groups on a kind cell, the
    place groups on a place cell); then one row per search. The price group
    is hit where the cell's price is inside the search's range (a range join over the searches
    with a range and the priced cells only)."""
    facets = sa.values(sa.column("cell", sa.Integer), sa.column("grp", sa.String), sa.column("value", sa.String),
                       name="facets").data(facet_rows).cte("facets")
    joined, alerting = _alerting()
    alerting_criteria = (
        sa.select(criteria_t.c.saved_search_id.label("sid"), criteria_t.c.grp, criteria_t.c.value,
                  # A hit on a place cell counts towards the place groups, on a kind cell the others.
                  sa.case((criteria_t.c.grp.in_(search_rules.PLACE_GROUPS), searches_t.c.place_groups),
                          else_=searches_t.c.criteria_groups - searches_t.c.place_groups).label("groups"))
        .select_from(criteria_t.join(joined, searches_t.c.id == criteria_t.c.saved_search_id))
        .where(alerting, searches_t.c.criteria_groups > 0)
        .cte("alerting_criteria")
        # Computed once: the planner cannot estimate the VALUES join and would otherwise look
        # the search and its user up again for each (criterion, cell) row.
        .prefix_with("MATERIALIZED")
    )
    hits = sa.select(alerting_criteria.c.sid, facets.c.cell, alerting_criteria.c.grp, alerting_criteria.c.groups) \
        .select_from(alerting_criteria.join(facets, sa.and_(facets.c.grp == alerting_criteria.c.grp,
                                                            facets.c.value == alerting_criteria.c.value)))
    if price_rows:
        cell_prices = sa.values(sa.column("cell", sa.Integer), sa.column("price", sa.Integer),
                                name="cell_prices").data(price_rows).cte("cell_prices")
        ranged = (sa.select(searches_t.c.id.label("sid"), searches_t.c.min_price, searches_t.c.max_price,
                            searches_t.c.place_groups.label("groups"))
                  .select_from(joined)
                  .where(alerting, sa.or_(searches_t.c.min_price.is_not(None), searches_t.c.max_price.is_not(None)))
                  .cte("ranged"))
        inside = sa.and_(sa.or_(ranged.c.min_price.is_(None), cell_prices.c.price >= ranged.c.min_price),
                         sa.or_(ranged.c.max_price.is_(None), cell_prices.c.price <= ranged.c.max_price))
        hits = sa.union_all(hits, sa.select(ranged.c.sid, cell_prices.c.cell, sa.literal(search_rules.PRICE),
                                            ranged.c.groups).select_from(ranged.join(cell_prices, inside)))
    hits = hits.subquery("hits")
    groups_hit = sum(sa.func.max(sa.case((hits.c.grp == group, 1), else_=0)) for group in search_rules.GROUPS + (search_rules.PRICE,))
    per_cell = (
        sa.select(hits.c.sid, hits.c.cell)
        .group_by(hits.c.sid, hits.c.cell, hits.c.groups)
        .having(groups_hit == hits.c.groups)
        .subquery("per_cell")
    )
    per_search = (
        sa.select(per_cell.c.sid, sa.func.aggregate_strings(sa.cast(per_cell.c.cell, sa.String), ",").label("cells"))
        .group_by(per_cell.c.sid)
        .subquery("per_search")
    )
    columns = (searches_t.c.id, searches_t.c.user_id, searches_t.c.name, searches_t.c.query,
               searches_t.c.email_enabled, searches_t.c.criteria_groups, searches_t.c.place_groups, users_t.c.email, users_t.c.email_confirmed_at.is_not(None).label("confirmed"))
    constrained = sa.select(*columns, per_search.c.cells).select_from(
        per_search.join(joined, searches_t.c.id == per_search.c.sid))
    unconstrained = sa.select(*columns, sa.literal("").label("cells")).select_from(joined).where(
        alerting, searches_t.c.criteria_groups == 0)
    return conn.execute(sa.union_all(constrained, unconstrained)).all()


def _digest_leads(leads: list) -> list[search_rules.DigestLead]:
    return [search_rules.DigestLead(address=lead.address, city=lead.city, state=lead.state, zip_code=lead.zip_code,
                             lead_type=lead.lead_type, credit_cost=lead.credit_cost, roi=lead.roi,
                                    demo=bool(lead.demo)) for lead in leads]


def _digest(matches: list[_Match], leads: list[search_rules.DigestLead], members: dict[int, list[int]], best: _Best,
            secret: str, base: str) -> dict | None:
    """The e-mail of one user: the searches with e-mail on, or None (none, or an unconfirmed address)."""
    mailed = [m for m in matches if m.search.email_enabled]
    owner = matches[0].search
    if not mailed or not owner.confirmed:
        return None

    def unsubscribe_url(ids: list[int]) -> str:
        return base + routes.alerts_unsubscribe_url(search_rules.unsubscribe_token(secret, owner.user_id, ids))

    sections = [
        search_rules.DigestSection(
            name=m.search.name, query=m.search.query, count=m.count,
            leads=tuple(leads[i] for i in best(m.cells)[:search_rules.DIGEST_MAX_MATCHES]),
            unsubscribe_url=unsubscribe_url([m.search.id]),
        )
        for m in mailed
    ]
    all_url = unsubscribe_url([m.search.id for m in mailed])
    lead_count = sum(len(members[c]) for c in set().union(*(m.cells for m in mailed)))
    subject, body = search_rules.digest_text(sections, lead_count, base, all_url)
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
    with autocommit(database_url) as conn:
        counter.watch(conn)
        leads = _new_leads(conn, refresh_run_id)
        summary["new_leads"] = len(leads)
        if not leads:
            summary["queries"] = counter.count
            return summary
        grouped = _cells(leads, _asked(conn, leads))
        found = _matches(conn, grouped.facet_rows, grouped.price_rows)
    members = grouped.members
    by_user: dict = defaultdict(list)
    matched_searches = 0
    for row in found:
        hit = {int(c) for c in row.cells.split(",")} if row.cells else set()
        kinds = {c for c in hit if c <= grouped.kinds} if row.criteria_groups > row.place_groups else None
        places = {c for c in hit if c > grouped.kinds} if row.place_groups else None
        cells = grouped.matched(kinds, places)
        if cells:  # kind cells and place cells that no lead has together match nothing
            matched_searches += 1
            by_user[row.user_id].append(_Match(row, cells, sum(len(members[c]) for c in cells)))
    summary.update(searches_matched=matched_searches, users_matched=len(by_user))
    if not by_user:
        summary["queries"] = counter.count
        return summary

    best = _Best(members, max(search_rules.NOTIFICATION_LEAD_IDS, search_rules.DIGEST_MAX_MATCHES))
    rows = []
    for user_id, matches in by_user.items():
        matches.sort(key=lambda m: (-m.count, m.search.name.lower(), m.search.id))
        cells = set().union(*(m.cells for m in matches))
        rows.append({
            "user_id": user_id, "refresh_run_id": refresh_run_id,
            "lead_count": sum(len(members[c]) for c in cells),
            "matches": {"searches": [{"id": m.search.id, "name": m.search.name, "query": m.search.query,
                                      "count": m.count} for m in matches],
                        "lead_ids": [str(leads[i].id) for i in best(cells)[:search_rules.NOTIFICATION_LEAD_IDS]]},
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
