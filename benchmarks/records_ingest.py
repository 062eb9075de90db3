"""Public-record ingestion speed (issue 23): 100,000 records, then a re-ingest with 1% changed, on PostgreSQL.

    .venv/bin/python -m benchmarks.records_ingest                       # a throwaway database on the server
                                                                        # of BENCH_POSTGRES_URL
    .venv/bin/python -m benchmarks.records_ingest --database-url postgresql://postgres@127.0.0.1:5432/lv_h16 \\
        --empty-first                                                   # an existing database (its public-
                                                                        # record rows are deleted first)
    .venv/bin/python -m benchmarks.records_ingest --records 10000       # smaller

The records are built from the real samples' shapes: every mapped row of each shipped dataset's sample
(``tests/fixtures/public_records``: tax delinquencies, sheriff and tax sales, vacant-building violations,
assessments, recorded sales) is repeated with deterministic new keys, parcel ids and house numbers until the
total is reached, in the samples' proportions, each dataset ingested as one full run
(``services.public_records.ingest``, the code the worker and ``import-records`` run). The re-ingest sends
the same records with 1% of them changed (an amount owed, else a notice date, else the as-of date): every
other record must come back ``unchanged``. Prints, per pass: records, seconds, rows/s, the writes
(added + updated + closed + archived), the leads added or updated, the peak resident memory of the process
(``resource.getrusage``), and the load average beside them (the machine is shared). Asserts nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import time
from datetime import date, timedelta
from types import SimpleNamespace

import sqlalchemy as sa

from marketplace import migrations
from marketplace.core.records import MappedRecord
from marketplace.models import utcnow

TODAY = date(2026, 11, 25)


def sample_records() -> dict[str, list[MappedRecord]]:
    """Every mapped row of each sample, by dataset (the HPI is a table of index points, not records)."""
    from marketplace.sources import opendata
    from tests.sources.opendata_helpers import DATASETS, SAMPLES, sample

    out = {}
    for dataset_id in SAMPLES:
        rows = [r for r in opendata.read_file(DATASETS[dataset_id], sample(dataset_id), today=TODAY)
                if isinstance(r, MappedRecord)]
        if rows:
            out[dataset_id] = rows
    return out


def _vary(record: MappedRecord, copy: int) -> MappedRecord:
    if copy == 0:
        return record
    street = (record.address or "MAIN ST").split(" ", 1)[-1]
    return dataclasses.replace(
        record, record_key=f"{record.record_key}~{copy}",
        parcel_id=f"{record.parcel_id}~{copy}" if record.parcel_id else None,
        address=f"{10_000 + copy} {street}")


def build(total: int) -> dict[str, list[MappedRecord]]:
    samples = sample_records()
    size = sum(len(rows) for rows in samples.values())
    built = {}
    for dataset_id, rows in samples.items():
        want = max(1, round(total * len(rows) / size))
        built[dataset_id] = [_vary(rows[i % len(rows)], i // len(rows)) for i in range(want)]
    return built


def changed(records: list[MappedRecord], share: float) -> tuple[list[MappedRecord], int]:
    step = max(1, round(1 / share))
    out, n = [], 0
    for i, r in enumerate(records):
        if i % step == 0:
            n += 1
            if r.amount_owed is not None:
                r = dataclasses.replace(r, amount_owed=r.amount_owed + 1)
            elif r.notice_date is not None:
                r = dataclasses.replace(r, notice_date=r.notice_date - timedelta(days=1))
            else:
                r = dataclasses.replace(r, as_of=(r.as_of or TODAY) - timedelta(days=1))
        out.append(r)
    return out, n


def ingest_all(url: str, built: dict[str, list[MappedRecord]], label: str) -> tuple:
    from marketplace.services import public_records
    from marketplace.sources import opendata

    known = opendata.load_datasets()
    titles = public_records.dataset_titles(known.values())
    totals = dict(rows=0, added=0, updated=0, unchanged=0, closed=0, archived=0, rejected=0, leads=0)
    t0 = time.perf_counter()
    for dataset_id, records in built.items():
        d = known[dataset_id]
        dataset = SimpleNamespace(id=d.id, title=d.title, publisher=d.publisher, state=getattr(d, "state", None),
                                  constants=getattr(d, "constants", {}), max_age_days=None)
        s = public_records.ingest(dataset, iter(records), mode="file", retrieved_at=utcnow(), full=True,
                                  today=TODAY, titles=titles, database_url=url)
        totals["rows"] += s.rows_read
        for name in ("added", "updated", "unchanged", "closed", "archived", "rejected"):
            totals[name] += getattr(s, name)
        totals["leads"] += s.leads_added + s.leads_updated
    seconds = time.perf_counter() - t0
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    writes = totals["added"] + totals["updated"] + totals["closed"] + totals["archived"]
    return (label, totals["rows"], seconds, totals["rows"] / seconds, writes, totals["unchanged"],
            totals["rejected"], totals["leads"], peak_mb, "%.1f %.1f %.1f" % os.getloadavg())


def empty_records(url: str) -> None:
    from marketplace.db import get_engine

    with get_engine(url).begin() as conn:
        conn.exec_driver_sql("DELETE FROM leads WHERE property_id IS NOT NULL")
        for table in ("property_signals", "recorded_sales", "dataset_runs", "hpi_points", "properties"):
            conn.exec_driver_sql(f"DELETE FROM {table}")


def run(url: str, total: int, share: float, once: bool = False) -> None:
    built = build(total)
    print(f"built {sum(map(len, built.values())):,} records from {len(built)} samples: "
          + ", ".join(f"{k} {len(v):,}" for k, v in built.items()), flush=True)
    rows = [ingest_all(url, built, "first ingest")]
    again, n = {}, 0
    for dataset_id, records in built.items():
        again[dataset_id], k = changed(records, share)
        n += k
    if not once:
        rows.append(ingest_all(url, again, f"re-ingest, {n:,} changed"))
    head = ("pass", "records", "seconds", "rows/s", "writes", "unchanged", "rejected", "leads +/~", "peak RSS MB",
            "load avg")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print(f"| {r[0]} | {r[1]:,} | {r[2]:.1f} | {r[3]:,.0f} | {r[4]:,} | {r[5]:,} | {r[6]:,} | {r[7]:,} | "
              f"{r[8]:.0f} | {r[9]} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("TEST_DATABASE_URL"),
                        help="a PostgreSQL database (default TEST_DATABASE_URL; none: a throwaway database; SQLite for benchmarks.event_loop)")
    parser.add_argument("--empty-first", action="store_true",
                        help="delete the database's public-record rows (and their leads) first")
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--changed", type=float, default=0.01, help="share changed on the re-ingest")
    parser.add_argument("--once", action="store_true", help="the first ingest only (benchmarks.event_loop's "
                                                            "worker process)")
    args = parser.parse_args()
    if args.database_url:
        from marketplace.config import normalize_database_url
        from marketplace.db import get_engine

        url = normalize_database_url(args.database_url)
        migrations.upgrade(url)
        with get_engine(url).connect() as conn:
            present = conn.execute(sa.text("SELECT count(*) FROM properties")).scalar_one()
        if present and not args.empty_first:
            parser.error(f"the database holds {present:,} properties: pass --empty-first to delete them")
        if args.empty_first:
            empty_records(url)
        run(url, args.records, args.changed, args.once)
        return
    from benchmarks._db import postgres_database

    with postgres_database() as url:
        run(url, args.records, args.changed, args.once)


if __name__ == "__main__":
    main()
