"""Public-record ingestion speed on PostgreSQL: ``import-records`` of a real-shaped file against psql's
``\\copy`` of the same file (the floor), first import and a 1%-changed re-import.

    .venv/bin/python -m benchmarks.records_ingest                       # 100,000 rows, a throwaway database
                                                                        # on the server of BENCH_POSTGRES_URL
    .venv/bin/python -m benchmarks.records_ingest --sizes 100000,1000000 \\
        --database-url postgresql://postgres@127.0.0.1:5432/lv_h7 --empty-first

The file is Chicago's vacant-building violations export (``chi-vacant-buildings-violations``, the sample's
260 rows with their columns and values) repeated to ``--records`` rows, each copy with its own docket
number and house number; the re-import file has 1% of its rows' "Current Amount Due" raised by $1. In one
run it measures: the reader and mapper alone (``opendata.read_file``, in this process, rows/s on one
core); psql's ``\\copy`` of the file into a table of text columns; ``python -m marketplace
import-records`` of the file end to end (a process of its own: wall seconds and its peak resident memory
from ``wait4``); the same for the changed file; each import's ratio to the ``\\copy``; the load average
beside them (the machine is shared). ``--sizes`` runs several sizes in one run (each on emptied record
tables) and prints one table of them all at the end. Prints a table; asserts nothing. Targets: each import within 10x of
the ``\\copy``, 1,000,000 rows under 300 MB peak RSS, the reader at 50,000 rows/s.

``--once`` is the older in-memory mode ``benchmarks.event_loop`` runs as its ingesting worker: records
built from the nine samples' shapes, ingested once through ``records.service.ingest``.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from datetime import date, timedelta
from types import SimpleNamespace

import sqlalchemy as sa

from marketplace.platform import migrations
from marketplace.features.records.rules import MappedRecord
from marketplace.platform.models import utcnow

TODAY = date(2026, 11, 25)


def sample_records() -> dict[str, list[MappedRecord]]:
    """Every mapped row of each sample, by dataset (the HPI is a table of index points, not records)."""
    from marketplace.features.records import source_opendata as opendata
    from tests.features.records.opendata_helpers import DATASETS, SAMPLES, sample

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
    from marketplace.features.records import service as public_records
    from marketplace.features.records import source_opendata as opendata

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
    from marketplace.platform.db import get_engine

    with get_engine(url).begin() as conn:
        conn.exec_driver_sql("DELETE FROM leads WHERE property_id IS NOT NULL")
        for table in ("property_signals", "recorded_sales", "dataset_runs", "hpi_points", "properties"):
            conn.exec_driver_sql(f"DELETE FROM {table}")


def run(url: str, total: int, share: float, once: bool = False) -> None:
    """The in-memory mode (``--once``; ``benchmarks.event_loop``'s worker)."""
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


FILE_DATASET = "chi-vacant-buildings-violations"


def write_file(path: Path, total: int, share: float = 0.0, current: float = 0.0) -> tuple[list[str], int]:
    """``total`` rows of the Chicago export's shape at ``path`` (``share`` of them with the amount due
    raised by $1; ``current`` of them issued 7-56 days before today, so they make leads as a live export's
    recent notices do: the sample's own dates are history); returns the header and how many rows changed."""
    from tests.features.records.opendata_helpers import sample

    with sample(FILE_DATASET).open(newline="", encoding="utf-8-sig") as handle:
        header, *rows = list(csv.reader(handle))
    docket, address, due = header.index("Docket Number"), header.index("Property Address"), \
        header.index("Current Amount Due")
    step = round(1 / share) if share else 0
    every = round(1 / current) if current else 0
    issued = header.index("Issued Date")
    changed_rows = 0
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(header)
        for i in range(total):
            row = list(rows[i % len(rows)])
            copy = i // len(rows)
            if copy:
                row[docket] = f"{row[docket]}-{copy}"
                row[address] = f"{copy} {row[address].strip().split(' ', 1)[-1]}"
            if every and i % every == 0:  # the same rows in both files: a re-import keeps their leads
                row[issued] = (date.today() - timedelta(days=7 + (i // every) % 50)).strftime("%m/%d/%Y")
            if step and i % step == 0:
                row[due] = f"{float(row[due] or 0) + 1:.2f}"
                changed_rows += 1
            writer.writerow(row)
    return header, changed_rows


def reader_speed(path: Path) -> tuple[int, float]:
    """The reader and mapper alone: (rows, CPU seconds of this process: one core, whatever the load)."""
    from marketplace.features.records import source_opendata as opendata

    dataset = opendata.load_datasets()[FILE_DATASET]
    t0 = time.process_time()
    result = opendata.tally(opendata.read_file(dataset, path, today=TODAY))
    return result.rows, time.process_time() - t0


def copy_floor(url: str, path: Path, header: list[str]) -> float:
    """Seconds of psql's ``\\copy`` of the file into a table of text columns (created, then dropped)."""
    columns = ", ".join(f"c{i} text" for i in range(len(header)))
    psql = ["psql", url.replace("postgresql+psycopg://", "postgresql://"), "-q", "-v", "ON_ERROR_STOP=1"]
    subprocess.run([*psql, "-c", f"DROP TABLE IF EXISTS bench_copy; CREATE TABLE bench_copy ({columns})"],
                   check=True)
    t0 = time.perf_counter()
    subprocess.run([*psql, "-c", f"\\copy bench_copy FROM '{path}' WITH (FORMAT csv, HEADER true)"], check=True)
    seconds = time.perf_counter() - t0
    subprocess.run([*psql, "-c", "DROP TABLE bench_copy"], check=True)
    return seconds


def import_records(url: str, path: Path) -> tuple[float, float, str, float]:
    """``python -m marketplace import-records`` of the file: (seconds, peak RSS MB, its summary line, its
    CPU seconds: user + system, which the other processes' load moves less than the wall time)."""
    env = dict(os.environ, DATABASE_URL=url)
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "marketplace", "import-records", FILE_DATASET, "--file",
                             str(path)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"import-records failed ({proc.returncode}):\n{out}")
    return seconds, usage.ru_maxrss / 1024, out.splitlines()[0], usage.ru_utime + usage.ru_stime


HEAD = ("pass", "rows", "import-records s", "its CPU s", "rows/s", "\\copy s", "ratio", "peak RSS MB", "load avg")


def table(lines: list[tuple]) -> None:
    print("| " + " | ".join(HEAD) + " |")
    print("|" + "---|" * len(HEAD))
    for label, rows, seconds, floor, rss, load, _, cpu in lines:
        print(f"| {label} | {rows:,} | {seconds:.1f} | {cpu:.1f} | {rows / seconds:,.0f} | {floor:.2f} | "
              f"{seconds / floor:.0f}x | {rss:.0f} | {load} |")


def run_file(url: str, total: int, share: float, current: float = 0.0) -> list[tuple]:
    from marketplace.platform.config import PROJECT_ROOT

    with tempfile.TemporaryDirectory(prefix="lv-records-") as tmp:
        first, second = Path(tmp) / "violations.csv", Path(tmp) / "violations_changed.csv"
        header, _ = write_file(first, total, current=current)
        _, n = write_file(second, total, share, current=current)
        size = first.stat().st_size / 1e6
        print(f"{total:,} rows of {FILE_DATASET} ({size:.0f} MB, {current:.0%} of them current); re-import "
              f"file: {n:,} rows changed", flush=True)
        rows, seconds = reader_speed(first)
        print(f"reader + mapper alone: {rows:,} rows in {seconds:.1f} CPU s = {rows / seconds:,.0f} rows/s "
              f"(load avg {'%.1f %.1f %.1f' % os.getloadavg()})", flush=True)
        os.chdir(PROJECT_ROOT)
        lines = []
        for label, path in (("first import", first), (f"re-import, {n:,} changed", second)):
            floor = copy_floor(url, path, header)
            seconds, rss, summary, cpu = import_records(url, path)
            lines.append((label, total, seconds, floor, rss, "%.1f %.1f %.1f" % os.getloadavg(), summary, cpu))
            print(f"{label}: {seconds:.1f} s ({cpu:.1f} CPU s), \\copy {floor:.2f} s; {summary}", flush=True)
    table(lines)
    return lines


def run_sizes(url: str, sizes: list[int], share: float, current: float = 0.0) -> None:
    """``run_file`` for each size (the record tables emptied before each), then one table of all."""
    lines: list[tuple] = []
    for total in sizes:
        empty_records(url)
        lines.extend(run_file(url, total, share, current))
    if len(sizes) > 1:
        table(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("TEST_DATABASE_URL"),
                        help="a PostgreSQL database (default TEST_DATABASE_URL; none: a throwaway database; SQLite for benchmarks.event_loop)")
    parser.add_argument("--empty-first", action="store_true",
                        help="delete the database's public-record rows (and their leads) first")
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--sizes", help="comma list of sizes, each run in turn (e.g. 100000,1000000); "
                                        "overrides --records")
    parser.add_argument("--changed", type=float, default=0.01, help="share changed on the re-ingest")
    parser.add_argument("--current", type=float, default=0.0,
                        help="share of rows issued in the last 8 weeks, which make leads (default 0: the "
                             "sample's dates, all history in 2026: properties and signals, no leads)")
    parser.add_argument("--once", action="store_true", help="the first ingest only (benchmarks.event_loop's "
                                                            "worker process)")
    args = parser.parse_args()
    sizes = [int(n) for n in args.sizes.split(",")] if args.sizes else [args.records]
    if args.database_url:
        from marketplace.platform.config import normalize_database_url
        from marketplace.platform.db import get_engine

        url = normalize_database_url(args.database_url)
        migrations.upgrade(url)
        with get_engine(url).connect() as conn:
            present = conn.execute(sa.text("SELECT count(*) FROM properties")).scalar_one()
        if present and not args.empty_first:
            parser.error(f"the database holds {present:,} properties: pass --empty-first to delete them")
        if args.empty_first:
            empty_records(url)
        if args.once:
            run(url, args.records, args.changed, True)
        else:
            run_sizes(url, sizes, args.changed, args.current)
        return
    from benchmarks._db import postgres_database

    with postgres_database() as url:
        if args.once:
            run(url, args.records, args.changed, True)
        else:
            run_sizes(url, sizes, args.changed, args.current)


if __name__ == "__main__":
    main()
