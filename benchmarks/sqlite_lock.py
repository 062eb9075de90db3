"""How long an import holds SQLite's write lock, and what another user's one-row write waits meanwhile.

    .venv/bin/python -m benchmarks.sqlite_lock                   # 5,000 rows, then a 1%-changed re-import
    .venv/bin/python -m benchmarks.sqlite_lock --records 20000

On a throwaway SQLite database (WAL, as the app runs it) it imports a real-shaped file
(``benchmarks._record_files.tax_file``: Philadelphia's tax-delinquency extract repeated, each row its own
property and current, so each makes a lead), then the same file with 1% of the rows changed, with
``records.service_imports.import_file`` (what ``python -m marketplace import-records`` runs) in a process
of its own, whose engine listeners time every write transaction from its ``BEGIN IMMEDIATE`` (the lock
taken) to its commit and count the rows it changed (SQLite's ``total_changes``). Meanwhile a bystander
thread in this process does what a user's click does to the database: one-row write transactions on a
connection of its own (``BEGIN IMMEDIATE``, one INSERT, ``COMMIT``) every ``--every`` seconds, timed from
the BEGIN to the end of the COMMIT. The floor is the same writes with no import, in the same run.

Prints two tables (milliseconds; median and p95 nearest rank): the import's write transactions, and the
bystander's write latency. Asserts nothing. Target: a transaction holds the lock about 100 ms at most.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._db import sqlite_database
from benchmarks._record_files import tax_file
from benchmarks._sampler import Sampler

FILE_DATASET = "phl-tax-delinquencies"


def p(samples: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..1)."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


class Bystander(Sampler):
    """One-row write transactions on a connection of their own, back to back every ``every`` seconds."""

    def __init__(self, db_path: str, every: float):
        super().__init__()
        self.db_path, self.every = db_path, every

    def _run(self) -> None:
        conn = sqlite3.connect(self.db_path, isolation_level=None, timeout=60)
        conn.execute("PRAGMA busy_timeout=60000")
        while not self._stop.is_set():
            t0 = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO bench_bystander (at) VALUES (?)", (time.time(),))
            conn.execute("COMMIT")
            self.samples.append((time.perf_counter() - t0) * 1000)
            time.sleep(self.every)
        conn.close()


def child(url: str, path: str, out: str) -> None:
    """The import, with every write transaction timed and its changed rows counted (to ``out``, JSON)."""
    from sqlalchemy import event

    from marketplace.platform.db import get_engine
    from marketplace.features.records.service_imports import import_file

    engine = get_engine(url)
    open_: dict[int, tuple[float, int]] = {}
    transactions: list[tuple[float, int]] = []

    @event.listens_for(engine, "begin")
    def _began(conn):  # runs after the engine's own BEGIN IMMEDIATE listener: the lock is held
        if conn.get_execution_options().get("isolation_level") == "AUTOCOMMIT":
            return  # a plain read: no transaction, no lock
        raw = conn.connection.driver_connection
        open_[id(raw)] = (time.perf_counter(), raw.total_changes)

    def _ended(conn):
        raw = conn.connection.driver_connection
        began = open_.pop(id(raw), None)
        if began is not None:  # one that wrote nothing held the lock all the same
            transactions.append(((time.perf_counter() - began[0]) * 1000, raw.total_changes - began[1]))

    event.listen(engine, "commit", _ended)
    event.listen(engine, "rollback", _ended)
    t0 = time.perf_counter()
    summary = import_file(FILE_DATASET, path, database_url=url)
    seconds = time.perf_counter() - t0
    Path(out).write_text(json.dumps({"transactions": transactions, "seconds": seconds,
                                     "summary": {k: summary.as_dict()[k] for k in (
                                         "status", "rows_read", "added", "updated", "unchanged", "closed",
                                         "leads_added", "leads_updated", "warning")}}))


def import_while_writing(url: str, path: Path, every: float) -> tuple[dict, list[float]]:
    db_path = url.split(":///", 1)[1]
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        with Bystander(db_path, every) as bystander:
            subprocess.run([sys.executable, "-m", "benchmarks.sqlite_lock", "--child", url, str(path), out.name],
                           check=True)
        return json.loads(Path(out.name).read_text()), bystander.samples


def stats(samples: list[float]) -> str:
    if not samples:
        return "| 0 | - | - | - |"
    return f"| {len(samples):,} | {p(samples, 0.5):.1f} | {p(samples, 0.95):.1f} | {max(samples):.1f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=5_000)
    parser.add_argument("--changed", type=float, default=0.01, help="share changed on the re-import")
    parser.add_argument("--every", type=float, default=0.05, help="seconds between the bystander's writes")
    parser.add_argument("--floor-seconds", type=float, default=4.0)
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    from marketplace.platform.config import PROJECT_ROOT

    os.chdir(PROJECT_ROOT)
    with sqlite_database() as url, tempfile.TemporaryDirectory(prefix="lv-lock-") as tmp:
        db_path = url.split(":///", 1)[1]
        with sqlite3.connect(db_path) as conn:
            conn.execute("CREATE TABLE bench_bystander (id INTEGER PRIMARY KEY, at REAL)")
        (Path(tmp) / "first").mkdir()
        (Path(tmp) / "changed").mkdir()
        first = tax_file(Path(tmp) / "first", args.records)
        second = tax_file(Path(tmp) / "changed", args.records, args.changed)
        n = len(range(0, args.records, round(1 / args.changed)))
        load = ["%.1f" % os.getloadavg()[0]]
        with Bystander(db_path, args.every) as floor:
            time.sleep(args.floor_seconds)
        passes = []
        for label, path in (("first import", first), (f"re-import, {n:,} changed", second)):
            result, samples = import_while_writing(url, path, args.every)
            passes.append((label, result, samples))
            load.append("%.1f" % os.getloadavg()[0])
            print(f"{label}: {result['seconds']:.1f} s, {result['summary']}", flush=True)

    print()
    print(f"SQLite write transactions of an import of {args.records:,} rows of {FILE_DATASET}, milliseconds "
          f"the lock is held (BEGIN IMMEDIATE to commit); load average (1 min): {', '.join(load)}")
    print("| pass | import s | write transactions | median ms | p95 ms | max ms | rows changed, max per transaction |")
    print("|---|---|---|---|---|---|---|")
    for label, result, _ in passes:
        held = [ms for ms, _ in result["transactions"]]
        rows = max((r for _, r in result["transactions"]), default=0)
        print(f"| {label} | {result['seconds']:.1f} {stats(held)} {rows:,} |")
    print()
    print(f"A bystander's one-row write transaction (BEGIN IMMEDIATE, INSERT, COMMIT every {args.every * 1000:.0f} "
          "ms on its own connection), milliseconds")
    print("| while | writes | median ms | p95 ms | max ms |")
    print("|---|---|---|---|---|")
    print(f"| no import (floor) {stats(floor.samples)}")
    for label, _, samples in passes:
        print(f"| {label} {stats(samples)}")


if __name__ == "__main__":
    main()
