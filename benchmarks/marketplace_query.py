"""Marketplace query latency: the service (page + filtered count) beside the same
SQL run straight through psycopg (the floor), p50 and p95.

    .venv/bin/python -m benchmarks.marketplace_query              # 1,000,000 leads on PostgreSQL
    .venv/bin/python -m benchmarks.marketplace_query --rows 100000 --runs 50

PostgreSQL comes from BENCH_POSTGRES_URL (default: the local server); a
temporary database is created, seeded and dropped.
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid

import psycopg
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from benchmarks._db import postgres_database
from marketplace.features.marketplace.rules import Filters
from marketplace.features.marketplace import service as svc
from marketplace.features.scrape.service_seeding import seed_leads

CASES = [
    ("page 1, default sort (roi_desc)", Filters()),
    ("deep page 2,000 (offset 39,980)", Filters(page=2000)),
    ("Probate+Auction, ROI > 30, newest", Filters(lead_types=("Probate", "Auction"), roi_ranges=("gt30",),
                                                  sort="newest")),
    ("size 1-2k sqft + tag new, price asc", Filters(sizes=("medium",), tags=("new",), sort="price_asc")),
    ("Vacancy, ROI 10-30, 100 per page", Filters(lead_types=("Vacancy",), roi_ranges=("10-20", "20-30"),
                                                 page_size=100, sort="zestimate_desc")),
    # Location and price: counted over leads through their indexes.
    ("TX, $100k-$300k, price asc", Filters(states=("TX",), min_price=100_000, max_price=300_000, sort="price_asc")),
    ("city Austin (any case), newest", Filters(cities=("austin",), sort="newest")),
    ("ZIP 78701 or 33101", Filters(zips=("78701", "33101"))),
    ("up to $150k, ROI > 30", Filters(max_price=150_000, roi_ranges=("gt30",))),
    # Auction Soon: a sale date within 30 days, counted over leads (ix_leads_active_sale_date).
    ("tag Auction Soon, default sort", Filters(tags=("auction_soon",))),
    ("Auction Soon, ROI > 30, newest", Filters(tags=("auction_soon",), roi_ranges=("gt30",), sort="newest")),
]


def _sql(stmt) -> str:
    return str(stmt.compile(dialect=postgresql.dialect(), compile_kwargs={"literal_binds": True}))


def _raw_statements(filters: Filters) -> tuple[str, str]:
    page_stmt = svc._page_statement(filters, filters.page, None, sa.false().label("unlocked"))
    if svc.counted_from_facets(filters):
        count_stmt = sa.select(sa.func.coalesce(sa.func.sum(svc.facets_t.c.lead_count), 0)).where(
            *svc._facet_conditions(filters))
    else:
        count_stmt = sa.select(sa.func.count()).select_from(svc.leads_t).where(*svc._lead_conditions(filters, None))
    return _sql(count_stmt), _sql(page_stmt)


def _timed(fn, runs: int) -> list[float]:
    fn()  # warm up caches and the connection pool
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def _p(samples: list[float], q: float) -> float:
    return statistics.quantiles(samples, n=100, method="inclusive")[int(q) - 1] if len(samples) > 1 else samples[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=100)
    args = parser.parse_args()
    with postgres_database() as url:
        started = time.perf_counter()
        seed_leads(args.rows, seed=1, progress=False, database_url=url)
        print(f"seeded {args.rows:,} leads in {time.perf_counter() - started:.1f}s; {args.runs} runs per case\n")
        raw_url = url.replace("postgresql+psycopg://", "postgresql://")
        header = f"{'case':<38} {'service p50':>11} {'p95':>7} {'raw SQL p50':>11} {'p95':>7} {'ratio p95':>9}"
        print(header)
        print("-" * len(header))
        user = uuid.uuid4()
        with psycopg.connect(raw_url) as raw:
            for name, filters in CASES:
                count_sql, page_sql = _raw_statements(filters)

                def raw_query():
                    with raw.cursor() as cur:
                        cur.execute(count_sql)
                        cur.fetchone()
                        cur.execute(page_sql)
                        cur.fetchall()

                service = _timed(lambda: svc.query_page(filters, user_id=user, database_url=url), args.runs)
                floor = _timed(raw_query, args.runs)
                print(f"{name:<38} {_p(service, 50):>9.2f}ms {_p(service, 95):>5.2f}ms "
                      f"{_p(floor, 50):>9.2f}ms {_p(floor, 95):>5.2f}ms {_p(service, 95) / _p(floor, 95):>8.1f}x",
                      flush=True)


if __name__ == "__main__":
    main()
