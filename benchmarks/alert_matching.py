"""Saved-search alert matching on PostgreSQL: 1,000,000 leads, 2,000 users,
10,000 saved searches, a 500-lead refresh.

    .venv/bin/python -m benchmarks.alert_matching                     # a fresh database, dropped after
    .venv/bin/python -m benchmarks.alert_matching --keep lv_bench     # seed once, re-measure later
    .venv/bin/python -m benchmarks.alert_matching --places            # searches with places and prices too

The leads come from ``seed-leads`` (as ``benchmarks.explorer_leads``; ``--keep``
reuses a database holding exactly ``--rows`` leads). The users (90% with a
confirmed address, 1% deleted) and their saved searches (varied filters drawn
like a marketplace user's: one or two lead types, ROI bands, sizes, tags or no
filter at all; alerts on for 90%, e-mail for 80%) are inserted directly (no
Argon2 for 2,000 passwords). A refresh run then gets ``--new`` new leads from
the built-in source, and ``marketplace.service_alerts.match_refresh`` is timed: the first
run (notifications and e-mails written) and a re-run (nothing written twice).
Queries are counted with a ``before_cursor_execute`` listener on the engine.
Afterwards the refresh's leads, notifications and e-mails are removed, so a
kept database stays at ``--rows`` leads.
"""

from __future__ import annotations

import argparse
import os
import random
import time
import uuid
from datetime import timedelta

import sqlalchemy as sa
from sqlalchemy import event

from benchmarks._db import postgres_database
from benchmarks.explorer_leads import kept_database, seed
from marketplace.platform.config import reload_settings
from marketplace.features.marketplace import rules_saved_searches as rules
from marketplace.features.marketplace.rules_criteria import SearchCriteria
from marketplace.features.marketplace.rules import LEAD_TYPE_OPTIONS, Filters
from marketplace.platform.db import get_engine
from marketplace.platform.models import (
    EmailOutbox,
    Lead,
    LeadRefreshRun,
    Notification,
    SavedSearch,
    SavedSearchCriterion,
    User,
    utcnow,
)
from marketplace.features.marketplace import service_alerts as alerts, service_saved_searches as saved_searches
from marketplace.features.scrape.service_seeding import insert_leads
from marketplace.features.scrape.source_builtin import BuiltinSource
from marketplace.features.scrape.source_markets import DEFAULT_MARKETS

BENCH_DOMAIN = "alerts-bench.example.com"


PLACES = False  # --places: some searches also name states, cities, ZIP codes and price ranges


def random_places(rng: random.Random) -> dict:
    """Location and price filters: a state for a quarter of the searches, a city or a ZIP
    code for some, an asking-price range for a third (round amounts, as people type them)."""
    if not PLACES:
        return {}
    fields: dict = {}
    if rng.random() < 0.25:
        fields["states"] = tuple(rng.sample(sorted({s for _, s in DEFAULT_MARKETS}), rng.choice((1, 1, 2))))
    if rng.random() < 0.1:
        fields["cities"] = (rng.choice(DEFAULT_MARKETS)[0],)
    if rng.random() < 0.05:
        fields["zips"] = (f"{rng.randint(10000, 99999)}",)
    if rng.random() < 0.33:
        low = rng.choice((None, 50_000, 100_000, 150_000, 200_000, 250_000))
        high = rng.choice((None, 200_000, 300_000, 400_000, 500_000, 750_000))
        if low is not None and high is not None and low > high:
            low, high = high, low
        fields.update(min_price=low, max_price=high)
    return fields


def random_filters(rng: random.Random) -> Filters:
    """A marketplace user's filters: most pick a lead type or two, many an ROI band, some size or tags."""
    if rng.random() < 0.12:
        return Filters(sort=rng.choice(("roi_desc", "newest")))
    types = tuple(rng.sample(LEAD_TYPE_OPTIONS, rng.choice((1, 1, 2)))) if rng.random() < 0.65 else ()
    rois = tuple(rng.sample(("gt30", "20-30", "10-20", "0-10"), rng.choice((1, 1, 2)))) if rng.random() < 0.45 else ()
    sizes = tuple(rng.sample(("small", "medium", "large"), 1)) if rng.random() < 0.2 else ()
    tags = (tuple(rng.sample(("new", "high_roi", "vacant", "auction_soon", "unlocked"), rng.choice((1, 2))))
            if rng.random() < 0.3 else ())
    return Filters(lead_types=types, roi_ranges=rois, sizes=sizes, tags=tags,
                   sort=rng.choice(("roi_desc", "newest", "price_asc")), **random_places(rng))


def seed_searches(url: str, users: int, searches: int) -> None:
    engine = get_engine(url)
    with engine.connect() as conn:
        have = conn.execute(sa.select(sa.func.count()).select_from(SavedSearch)).scalar_one()
    if have == searches:
        print(f"reusing {users:,} users and {have:,} saved searches\n")
        return
    if have:
        raise SystemExit(f"--keep: the database holds {have:,} saved searches, not {searches:,}")
    rng = random.Random(15)
    now = utcnow()
    user_rows = [{"id": uuid.uuid4(), "email": f"user{n}@{BENCH_DOMAIN}", "password_hash": "-", "created_at": now,
                  "email_confirmed_at": now if rng.random() < 0.9 else None,
                  "deleted_at": now if rng.random() < 0.01 else None} for n in range(users)]
    search_rows, criteria_rows = [], []
    for n in range(searches):
        filters = random_filters(rng)
        search_rows.append({"id": n + 1, "user_id": user_rows[n % users]["id"], "name": f"Search {n // users + 1}",
                            "name_key": f"search {n // users + 1}", "query": filters.to_query(),
                            "criteria_groups": rules.criteria_groups(filters), "alerts_enabled": rng.random() < 0.9,
                            "place_groups": rules.place_groups(filters),
                            "min_price": filters.min_price, "max_price": filters.max_price,
                            "email_enabled": rng.random() < 0.8, "created_at": now})
        criteria_rows += [{"saved_search_id": n + 1, "grp": g, "value": v} for g, v in rules.criteria(filters)]
    with engine.begin() as conn:
        conn.execute(sa.insert(User.__table__), user_rows)
        conn.execute(sa.insert(SavedSearch.__table__), search_rows)
        conn.execute(sa.insert(SavedSearchCriterion.__table__), criteria_rows)
        conn.exec_driver_sql("SELECT setval(pg_get_serial_sequence('saved_searches', 'id'), %s)", (searches,))
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql("ANALYZE saved_searches, saved_search_criteria, users")
    print(f"inserted {users:,} users, {searches:,} saved searches, {len(criteria_rows):,} criteria rows\n")


def new_refresh(url: str, count: int) -> int:
    now = utcnow()
    with get_engine(url).begin() as conn:
        run_id = conn.execute(sa.insert(LeadRefreshRun.__table__).values(
            run_key=f"bench:{uuid.uuid4().hex[:12]}", run_date=now.date(), trigger="manual", status="completed",
            started_at=now, finished_at=now, leads_added=count).returning(LeadRefreshRun.__table__.c.id)).scalar_one()
    rows = BuiltinSource(seed=int(time.time())).search(SearchCriteria(count=count))
    for row in rows:
        row.update(created_at=now, is_new=True, refresh_run_id=run_id, external_id=f"bench-{uuid.uuid4().hex}")
    insert_leads(rows, url, rebuild=False)
    with get_engine(url).connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql("ANALYZE leads")
    return run_id


def heavy_user(url: str, rng: random.Random) -> uuid.UUID:
    """A user with the most searches allowed, created and last opened 30 days ago (a long
    'new since opened' window), one of them with the user-dependent 'unlocked' tag."""
    created = utcnow() - timedelta(days=30)
    user_id = uuid.uuid4()
    with get_engine(url).begin() as conn:
        conn.execute(sa.insert(User.__table__).values(id=user_id, email=f"heavy-{user_id.hex[:8]}@{BENCH_DOMAIN}",
                                                      password_hash="-", created_at=created))
        for n in range(rules.MAX_SAVED_SEARCHES):
            filters = Filters(tags=("unlocked",)) if n == 0 else random_filters(rng)
            conn.execute(sa.insert(SavedSearch.__table__).values(
                user_id=user_id, name=f"Heavy {n}", name_key=f"heavy {n}", query=filters.to_query(),
                criteria_groups=rules.criteria_groups(filters), place_groups=rules.place_groups(filters),
                min_price=filters.min_price,
                max_price=filters.max_price, created_at=created, last_opened_at=created))
    return user_id


def clean_up(url: str, run_id: int, user_id: uuid.UUID | None = None) -> None:
    with get_engine(url).begin() as conn:
        if user_id is not None:
            conn.execute(sa.delete(User.__table__).where(User.__table__.c.id == user_id))
        outbox = conn.execute(sa.select(Notification.__table__.c.outbox_id)
                              .where(Notification.__table__.c.refresh_run_id == run_id)).scalars().all()
        conn.execute(sa.delete(Notification.__table__).where(Notification.__table__.c.refresh_run_id == run_id))
        ids = [i for i in outbox if i is not None]
        for start in range(0, len(ids), 5000):
            conn.execute(sa.delete(EmailOutbox.__table__).where(EmailOutbox.__table__.c.id.in_(ids[start:start + 5000])))
        conn.execute(sa.delete(Lead.__table__).where(Lead.__table__.c.refresh_run_id == run_id))
        conn.execute(sa.delete(LeadRefreshRun.__table__).where(LeadRefreshRun.__table__.c.id == run_id))


class Queries:
    def __init__(self, engine):
        self.count = 0
        event.listen(engine, "before_cursor_execute", self._seen)

    def _seen(self, *_args) -> None:
        self.count += 1


def measure(label: str, fn, queries: Queries) -> tuple[str, float, int, object]:
    before = queries.count
    started = time.perf_counter()
    result = fn()
    return label, time.perf_counter() - started, queries.count - before, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--users", type=int, default=2_000)
    parser.add_argument("--searches", type=int, default=10_000)
    parser.add_argument("--new", type=int, default=500, help="leads the refresh adds")
    parser.add_argument("--keep", metavar="NAME", help="use and keep the database NAME (seeded once, reused)")
    parser.add_argument("--places", action="store_true",
                        help="searches also filter by state, city, ZIP code and asking price")
    args = parser.parse_args()
    global PLACES
    PLACES = args.places
    with (kept_database(args.keep) if args.keep else postgres_database()) as url:
        os.environ["DATABASE_URL"] = url
        reload_settings()
        seed(url, args.rows, reuse=bool(args.keep))
        seed_searches(url, args.users, args.searches)
        run_id = new_refresh(url, args.new)
        queries = Queries(get_engine(url))
        heavy = None
        try:
            first = measure("match_refresh, first run", lambda: alerts.match_refresh(run_id, url), queries)
            again = measure("match_refresh, re-run (nothing new)", lambda: alerts.match_refresh(run_id, url), queries)
            heavy = heavy_user(url, random.Random(25))
            listed = measure("list_saved_searches (25 searches, opened 30 days ago)",
                             lambda: saved_searches.list_saved_searches(heavy), queries)
        finally:
            clean_up(url, run_id, heavy)
        summary = first[3]
        print(f"{args.rows:,} leads, {args.users:,} users, {args.searches:,} saved searches, "
              f"a refresh of {summary['new_leads']:,} new leads\n")
        print("| step | time | queries | result |")
        print("| --- | ---: | ---: | --- |")
        for label, seconds, count, result in (first, again, listed):
            if isinstance(result, dict):
                text = (f"{result['searches_matched']:,} searches matched, {result['users_matched']:,} users; "
                        f"{result['users_notified']:,} notifications, {result['mails']:,} e-mails written")
            else:
                text = f"{len(result)} searches with counts"
            print(f"| {label} | {seconds:.2f} s | {count} | {text} |")


if __name__ == "__main__":
    main()
