"""The developer explorer's leads table and CSV export on 1,000,000 PostgreSQL leads.

    .venv/bin/python -m benchmarks.explorer_leads               # 1,000,000 leads
    .venv/bin/python -m benchmarks.explorer_leads --rows 100000
    .venv/bin/python -m benchmarks.explorer_leads --keep lv_bench   # seed once, re-measure later

A fresh database on BENCH_POSTGRES_URL's server (created and dropped) is filled
with the built-in source through ``seed-leads`` (COPY in batches, generated in
parallel), then each read of the table runs ``--repeat`` times (median shown):
first page, a deep page, searches, counts, every sort; and the full CSV export
of the whole table (time, bytes, and the peak of Python memory while it
streams, measured with tracemalloc on a second pass).

``--keep NAME`` uses the database NAME on that server instead and leaves it
there: created and seeded on the first run, migrated to head (then ANALYZE)
and reused as is on later runs when it holds exactly ``--rows`` leads.
``--skip-export`` measures only the table's reads.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import time
import tracemalloc

import sqlalchemy as sa

from benchmarks._db import PG_ADMIN_URL, postgres_database
from marketplace.platform import migrations
from marketplace.platform.config import normalize_database_url, reload_settings
from marketplace.platform.db import dispose_engines, get_engine
from marketplace.features.explorer import rules
from marketplace.features.explorer import service_leads as explorer_leads
from marketplace.features.scrape.service_seeding import seed_leads


def timed(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000, result


@contextlib.contextmanager
def kept_database(name: str):
    """The database ``name`` on BENCH_POSTGRES_URL's server (created when missing, never dropped), at head."""
    if not name.isidentifier():
        raise SystemExit(f"--keep: {name!r} is not a plain database name")
    admin_url = normalize_database_url(PG_ADMIN_URL)
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        if conn.exec_driver_sql("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).first() is None:
            conn.exec_driver_sql(f"CREATE DATABASE {name}")
    admin.dispose()
    url = admin_url.rsplit("/", 1)[0] + f"/{name}"
    migrations.upgrade(url)
    try:
        yield url
    finally:
        dispose_engines()


def seed(url: str, rows: int, reuse: bool) -> None:
    if reuse:
        with get_engine(url).connect() as conn:
            have = conn.exec_driver_sql("SELECT count(*) FROM leads").scalar_one()
        if have == rows:
            with get_engine(url).connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.exec_driver_sql("ANALYZE leads")  # statistics for indexes a new migration added
            print(f"reusing {have:,} leads (at {migrations.current_revision(url)}, analyzed)\n")
            return
        if have:
            raise SystemExit(f"--keep: the database holds {have:,} leads, not {rows:,}: drop it or pass --rows {have}")
    started = time.perf_counter()
    seed_leads(rows, seed=1, progress=False, database_url=url)
    print(f"seeded {rows:,} leads in {time.perf_counter() - started:.1f} s (COPY, VACUUM ANALYZE)\n")


def export(view: rules.LeadView) -> tuple[int, int]:
    size = lines = 0
    for chunk in explorer_leads.iter_csv(view):
        size += len(chunk.encode("utf-8"))
        lines += chunk.count("\r\n")
    return size, lines - 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--keep", metavar="NAME", help="use and keep the database NAME (seeded once, reused)")
    parser.add_argument("--skip-export", action="store_true", help="measure the table's reads only")
    args = parser.parse_args()
    with (kept_database(args.keep) if args.keep else postgres_database()) as url:
        os.environ["DATABASE_URL"] = url
        reload_settings()
        seed(url, args.rows, reuse=bool(args.keep))

        newest = rules.LeadView.of()
        deep = args.rows // 2 // 50
        cases = [
            ("first page (newest, 50)", lambda: explorer_leads.page(newest, 1, 50)),
            (f"deep page {deep:,} (newest, 50)", lambda: explorer_leads.page(newest, deep, 50)),
            ("last page (newest, 100)", lambda: explorer_leads.page(newest, 10**9, 100)),
            ("active only, first page", lambda: explorer_leads.page(rules.LeadView.of(status="active"), 1, 50)),
            ("counts only (whole table)", lambda: explorer_leads.counts(newest)),
            ('search "TX"', lambda: explorer_leads.page(rules.LeadView.of("TX"), 1, 50)),
            ('search "Austin, TX"', lambda: explorer_leads.page(rules.LeadView.of("Austin, TX"), 1, 50)),
            ('search "austin" (city only)', lambda: explorer_leads.page(rules.LeadView.of("austin"), 1, 50)),
            ('search "787" (ZIP prefix)', lambda: explorer_leads.page(rules.LeadView.of("787"), 1, 50)),
            ('search "78701"', lambda: explorer_leads.page(rules.LeadView.of("78701"), 1, 50)),
            ('search "Nowhere" (empty)', lambda: explorer_leads.page(rules.LeadView.of("Nowhere"), 1, 50)),
        ] + [
            (f"sort {sort}, first page", lambda sort=sort: explorer_leads.page(rules.LeadView.of(sort=sort), 1, 50))
            for sort in rules.SORT_VALUES if sort != "newest"
        ]
        print(f"{'read':<34} {'ms (median)':>12} {'rows in view':>14}")
        for label, fn in cases:
            ms, result = timed(fn, args.repeat)
            total = result.total if hasattr(result, "total") else sum(result)
            print(f"{label:<34} {ms:>12.1f} {total:>14,}", flush=True)

        if args.skip_export:
            return
        print()
        for label, view in (("export all, newest", newest), ("export all, roi_desc", rules.LeadView.of(sort="roi_desc")),
                            ('export "TX", newest', rules.LeadView.of("TX"))):
            started = time.perf_counter()
            size, rows = export(view)
            seconds = time.perf_counter() - started
            tracemalloc.start()
            export(view)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            print(f"{label:<22} {rows:>10,} rows {size / 1e6:>8.1f} MB {seconds:>7.1f} s "
                  f"{rows / seconds:>9,.0f} rows/s  peak Python memory {peak / 1e6:.1f} MB", flush=True)


if __name__ == "__main__":
    main()
