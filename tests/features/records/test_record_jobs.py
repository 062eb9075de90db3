"""The explorer's Sources panel rows and "Run now" (issue 23, item 7): a queued job that the records worker
(a process of its own) completes from the portal; download-only and disabled datasets refused with their
hint; never two jobs of one dataset at once."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from datetime import date, timedelta

import pytest
import sqlalchemy as sa

from marketplace.platform.config import PROJECT_ROOT
from marketplace.platform.errors import UserError
from marketplace.platform.db import get_engine
from marketplace.platform.models import Lead, RecordJob, utcnow
from marketplace.features.records import service_imports as record_imports, service_jobs as record_jobs
from marketplace.features.records import source_opendata as opendata
from tests.factories import records_refreshed_today
from tests.fakes.portal import FakePortal, api_rows
from tests.fakes.portal_datasets import datasets_dir
from tests.features.records.opendata_helpers import DATASETS, sample

CHICAGO = "chi-vacant-buildings-violations"


def _served() -> list[dict]:
    dataset = DATASETS[CHICAGO]
    kind, rows = opendata.files.rows_from_file(dataset, sample(CHICAGO))
    rows = list(rows)
    return rows if kind == "api" else api_rows(dataset, rows)


def test_run_now_is_refused_with_the_datasets_hint(db_url, monkeypatch):
    monkeypatch.setenv("OPEN_DATA_DATASETS", CHICAGO)
    with pytest.raises(UserError, match="published as a download: use import-records"):
        record_jobs.enqueue("phl-sheriff-sales-bid4assets", None)
    with pytest.raises(UserError, match="not enabled: add it to OPEN_DATA_DATASETS"):
        record_jobs.enqueue("nyc-dof-rolling-sales", None)
    with pytest.raises(UserError, match="Unknown dataset"):
        record_jobs.enqueue("../etc/passwd", None)
    first = record_jobs.enqueue(CHICAGO, None)
    assert first.status == "queued"
    assert record_jobs.enqueue(CHICAGO, None).id == first.id  # never queued twice
    with get_engine().connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(RecordJob.__table__)).scalar_one() == 1
    assert record_jobs.claim_next().id == first.id
    assert record_jobs.claim_next() is None  # taken once
    assert record_jobs.enqueue(CHICAGO, None).id == first.id  # running
    with get_engine().begin() as conn:  # its worker died: no heartbeat for two minutes (RECORD_DEAD_AFTER_SECONDS 60)
        gone = utcnow() - timedelta(minutes=2)
        conn.execute(sa.update(RecordJob.__table__).values(started_at=gone, heartbeat_at=gone))
    assert record_jobs.enqueue(CHICAGO, None).id != first.id


def test_the_panel_lists_every_dataset_with_its_run_and_stale_warning(db_url, monkeypatch):
    monkeypatch.setenv("OPEN_DATA_DATASETS", CHICAGO)
    record_imports.import_file("phl-tax-delinquencies", sample("phl-tax-delinquencies"), today=date(2026, 11, 25))
    rows = {r["id"]: r for r in record_jobs.panel_rows("America/New_York", today=date(2026, 11, 25))
            if r["kind"] == "dataset"}
    assert set(rows) == set(DATASETS) and len(rows) == 28
    tax = rows["phl-tax-delinquencies"]
    assert (tax["read"], tax["added"], tax["rejected"], tax["newest"]) == ("259", "259", "0", "Jul 1, 2016")
    assert tax["warning"] == f"Stale: {(date(2026, 11, 25) - date(2016, 7, 1)).days:,} days old (max 90)"
    assert tax["last_run"].endswith("(file, ok)") and ("EST" in tax["last_run"] or "EDT" in tax["last_run"])
    assert (tax["can_run"], tax["hint"]) == (False, "not enabled: add it to OPEN_DATA_DATASETS")
    assert (rows["phl-sheriff-sales-bid4assets"]["can_run"], rows["phl-sheriff-sales-bid4assets"]["hint"]) == (
        False, "published as a download: use import-records")
    assert (rows[CHICAGO]["can_run"], rows[CHICAGO]["last_run"], rows[CHICAGO]["read"]) == (True, "Never", "N/A")


DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b[A-Z][a-z]{2} \d{1,2}, \d{4}\b")


def test_the_newest_record_is_stated_once_from_the_run(db_url):
    """The Chicago row's note once named its newest violation itself, disagreeing with the Newest record
    column: the date now comes only from the run, in the app's one date format; note and warning name none."""
    record_imports.import_file(CHICAGO, sample(CHICAGO), today=date(2026, 11, 25))
    row = {r["id"]: r for r in record_jobs.panel_rows("America/Chicago", today=date(2026, 11, 25))}[CHICAGO]
    assert row["newest"] == "Sep 18, 2023"
    assert row["warning"] == "Stale: 1,164 days old (max 60)"
    assert row["note"] and not DATE.search(row["note"]) and not DATE.search(row["warning"])
    for dataset in DATASETS.values():  # no note claims a newest date the column could contradict
        assert not re.search(r"newest[^.;]*\d{4}-\d{2}", dataset.status_note or ""), dataset.id


def test_a_queued_run_is_completed_by_the_worker_process_from_the_portal(db_url, monkeypatch, tmp_path):
    # The portal serves the sample re-dated to last week (its 2023 notices are history, not leads).
    week_ago = (date.today() - timedelta(days=7)).isoformat() + "T00:00:00.000"
    served = [{**row, "issued_date": week_ago} for row in _served()]
    with FakePortal("socrata", served, resource=DATASETS[CHICAGO].resource) as portal:
        folder = datasets_dir(tmp_path / "datasets", CHICAGO, portal.url)
        monkeypatch.setenv("OPEN_DATA_DIR", str(folder))
        monkeypatch.setenv("OPEN_DATA_DATASETS", CHICAGO)
        job = record_jobs.enqueue(CHICAGO, None)
        records_refreshed_today()  # the worker runs this job only, whatever the hour
        proc = subprocess.Popen([sys.executable, "-m", "marketplace", "worker"], cwd=PROJECT_ROOT,
                                env=dict(os.environ), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                status = record_jobs.get(job.id)
                if status.status in ("ok", "failed"):
                    break
                time.sleep(0.5)
            proc.send_signal(signal.SIGTERM)
            out = proc.communicate(timeout=60)[0]
        finally:
            if proc.poll() is None:
                proc.kill()
    assert (status.status, status.error) == ("ok", None), out
    assert portal.requests and portal.requests[0].path == f"/resource/{DATASETS[CHICAGO].resource}.json"
    row = {r["id"]: r for r in record_jobs.panel_rows("UTC")}[CHICAGO]
    assert (row["job"], row["read"]) == ("ok", "260"), row
    with get_engine().connect() as conn:
        leads = conn.execute(sa.select(sa.func.count()).select_from(Lead.__table__).where(
            Lead.__table__.c.lead_type == "Vacancy", Lead.__table__.c.refresh_run_id.is_not(None))).scalar_one()
    assert leads > 100  # the run's new leads carry a refresh run: saved-search alerts match them
    assert proc.returncode == 0
