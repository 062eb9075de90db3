"""Pipeline speed for a bulk scraper's account: one user with N unlocked leads (default 5,000), a fifth of
them with pipeline entries (stages, follow-ups, a note each).

    .venv/bin/python -m benchmarks.pipeline [--leads 5000] [--runs 20] [--postgres]

Times what the Pipeline tab and the bell ask the database: the board (six counts and the first 20 cards of
each column), the board under a filter (city and overdue follow-ups), "Show more" deep in the New column,
the bell's due follow-ups, and the CSV's rows. Prints a table of the median and 95th-percentile time per
call; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid
from collections.abc import Callable
from datetime import date, timedelta

from benchmarks._db import postgres_database, sqlite_database
from marketplace.platform.config import reload_settings
from marketplace.features.property import rules_pipeline as rules
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import Lead, PipelineEntry, PipelineNote, UserLead, utcnow
from marketplace.features.property import service_pipeline as pipeline
from tests.factories import LEAD_DEFAULTS, make_user

TODAY = date(2026, 11, 25)
CITIES = ("Austin", "Dallas", "Houston", "Phoenix", "Tampa")


def _seed(url: str, count: int) -> uuid.UUID:
    user = make_user(url)
    with session_scope(url) as session:
        for n in range(count):
            lead_id = uuid.uuid4()
            session.add(Lead(**{**LEAD_DEFAULTS, "id": lead_id, "address": f"{n} Bench St",
                                "city": CITIES[n % len(CITIES)]}))
            session.add(UserLead(user_id=user.id, lead_id=lead_id, credit_cost=100, purchase_type="credits"))
            if n % 5 == 0:
                stage = rules.STAGE_KEYS[(n // 5) % len(rules.STAGE_KEYS)]
                entry = PipelineEntry(user_id=user.id, lead_id=lead_id, stage=stage,
                                      dead_reason="Sold" if stage == "dead" else None,
                                      follow_up_date=None if stage in rules.FINISHED else
                                      TODAY + timedelta(days=(n % 21) - 10))
                session.add(entry)
                session.flush()
                session.add(PipelineNote(entry_id=entry.id, body="Called the owner", created_at=utcnow()))
            if n % 500 == 499:
                session.flush()
    return user.id


def _time(call: Callable[[], object], runs: int) -> list[float]:
    call()  # warm up
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1e3)
    return sorted(samples)


def run(url: str, leads: int, runs: int, backend: str) -> None:
    import os
    os.environ["DATABASE_URL"] = url
    reload_settings()
    user_id = _seed(url, leads)
    if url.startswith("postgresql"):
        # Statistics as autovacuum keeps them (a just-seeded table has none: the planner then guesses 18 rows
        # where there are 5,000 and picks a nested loop that takes seconds).
        with get_engine(url).connect() as conn:
            conn.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql("ANALYZE")
    everything = rules.BoardFilters()
    filtered = rules.BoardFilters.of(city="Austin", follow_up="overdue")
    cases: list[tuple[str, Callable[[], object]]] = [
        ("board (6 counts, 6 x 20 cards)", lambda: pipeline.board(user_id, everything, TODAY)),
        ("board, city + overdue filter", lambda: pipeline.board(user_id, filtered, TODAY)),
        ("Show more at card 400 of New", lambda: pipeline.column_cards(user_id, everything, TODAY, "new", 400)),
        ("bell: due follow-ups", lambda: pipeline.due_follow_ups(user_id, TODAY)),
        ("CSV rows (all leads)", lambda: sum(1 for _ in pipeline.csv_leads(user_id))),
    ]
    print(f"\n{backend}: {leads:,} unlocked leads, {leads // 5:,} entries")
    print(f"{'call':<34} {'median ms':>10} {'p95 ms':>10}")
    for name, call in cases:
        samples = _time(call, runs)
        p95 = samples[min(len(samples) - 1, int(len(samples) * 0.95))]
        print(f"{name:<34} {statistics.median(samples):>10.1f} {p95:>10.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leads", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--postgres", action="store_true", help="also on PostgreSQL (BENCH_POSTGRES_URL)")
    args = parser.parse_args()
    with sqlite_database() as url:
        run(url, args.leads, args.runs, "SQLite")
    if args.postgres:
        with postgres_database() as url:
            run(url, args.leads, args.runs, "PostgreSQL")


if __name__ == "__main__":
    main()
