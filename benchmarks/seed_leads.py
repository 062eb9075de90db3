"""Seed throughput: rows per second of ``seed-leads`` on SQLite and PostgreSQL.

    .venv/bin/python -m benchmarks.seed_leads                # 100,000 leads on each
    .venv/bin/python -m benchmarks.seed_leads --rows 1000000 --only postgres

PostgreSQL comes from BENCH_POSTGRES_URL (default: the local server, trust
auth); a temporary database is created and dropped.
"""

from __future__ import annotations

import argparse
import time

import sqlalchemy as sa

from benchmarks._db import postgres_database, sqlite_database
from marketplace.platform.db import get_engine
from marketplace.features.scrape.service_seeding import seed_leads


def measure(url: str, rows: int) -> tuple[float, int]:
    started = time.perf_counter()
    seed_leads(rows, seed=1, progress=False, database_url=url)
    elapsed = time.perf_counter() - started
    with get_engine(url).connect() as conn:
        stored = conn.execute(sa.text("SELECT count(*) FROM leads")).scalar_one()
    return elapsed, stored


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--only", choices=("sqlite", "postgres"))
    args = parser.parse_args()
    backends = [("sqlite", sqlite_database), ("postgres", postgres_database)]
    print(f"{'database':<10} {'rows':>10} {'seconds':>9} {'rows/s':>10}")
    for name, factory in backends:
        if args.only and args.only != name:
            continue
        with factory() as url:
            elapsed, stored = measure(url, args.rows)
        assert stored == args.rows, (stored, args.rows)
        print(f"{name:<10} {stored:>10,} {elapsed:>9.1f} {stored / elapsed:>10,.0f}", flush=True)


if __name__ == "__main__":
    main()
