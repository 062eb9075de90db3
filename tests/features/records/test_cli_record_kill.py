"""``kill -9`` of ``import-records`` in the middle of a file: every batch it committed is whole (its
properties have their leads), its run is failed once its heartbeat stops (``RECORD_DEAD_AFTER_SECONDS``),
and the next import of the dataset runs at once and completes the file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import date

import sqlalchemy as sa

from marketplace.platform.config import PROJECT_ROOT
from marketplace.platform.db import get_engine
from marketplace.platform.models import DatasetRun, Lead, Property, PropertySignal
from marketplace.features.records import service as public_records
from tests.features.records.test_cli_records import TAX_FILE, count, run

HEADER, *ROWS = TAX_FILE.read_text(encoding="utf-8-sig").splitlines(keepends=True)
COLUMNS = HEADER.rstrip("\r\n").split(",")
OPA, HOUSE, ADDRESS = COLUMNS.index("OPAnumber"), COLUMNS.index("House#"), COLUMNS.index("property_address")


def big_file(tmp_path, total: int):
    """``total`` rows of the extract, each its own parcel and address, named for this month (its records are
    current: each makes a lead)."""
    path = tmp_path / f"real_estate_tax_delinquency_extract_{date.today():%Y-%m}.csv"
    lines = [HEADER]
    for i in range(total):
        cells = ROWS[i % len(ROWS)].rstrip("\r\n").split(",")
        street = cells[ADDRESS].strip().split(" ", 1)[-1]
        cells[OPA], cells[HOUSE], cells[ADDRESS] = f"{900_000_000 + i}", str(20_000 + i), f"{20_000 + i} {street}"
        lines.append(",".join(cells) + "\n")
    path.write_text("".join(lines), encoding="utf-8")
    return path


def leadless() -> int:
    """Properties with an open signal and no lead."""
    signals, leads = PropertySignal.__table__, Lead.__table__
    with get_engine().connect() as conn:
        return conn.execute(sa.select(sa.func.count(sa.distinct(signals.c.property_id))).where(
            signals.c.status == "open",
            ~sa.exists().where(leads.c.property_id == signals.c.property_id))).scalar_one()


def test_kill_9_mid_import_fails_its_run_and_the_next_import_completes_the_file(db_url, tmp_path, monkeypatch):
    total = public_records.BATCH_SIZE + 1_000 if db_url.startswith("postgresql") else 1_000
    path = big_file(tmp_path, total)
    monkeypatch.setenv("RECORD_HEARTBEAT_SECONDS", "0.5")
    monkeypatch.setenv("RECORD_DEAD_AFTER_SECONDS", "3")
    proc = subprocess.Popen([sys.executable, "-m", "marketplace", "import-records", "phl-tax-delinquencies",
                             "--file", str(path)], cwd=PROJECT_ROOT, env=dict(os.environ), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None and count(Property) == 0:
            time.sleep(0.02)
        assert proc.poll() is None, "the import ended before it could be killed:\n" + proc.communicate()[0]
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    committed = count(Property)
    assert 0 < committed < total
    assert leadless() == 0  # every committed batch came with its leads
    assert count(Lead) == committed
    time.sleep(3.5)  # the dead run's heartbeat is now older than RECORD_DEAD_AFTER_SECONDS

    out = run("import-records", "phl-tax-delinquencies", "--file", str(path))
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[0].startswith(
        f"phl-tax-delinquencies: read {total}, added {total - committed}, updated 0, unchanged {committed}, "
        "closed 0, archived 0, rejected 0")
    with get_engine().connect() as conn:
        killed, finished = conn.execute(sa.select(DatasetRun.__table__).order_by(DatasetRun.__table__.c.id)).all()
    assert killed.status == "failed" and "no heartbeat since" in killed.error
    assert (finished.status, finished.rows_read) == ("ok", total)
    assert count(Property) == count(Lead) == total and leadless() == 0
