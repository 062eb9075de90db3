"""The records refresh as a run of its own (issue 23, item 7): once a day across workers, its new leads
carry its id so saved-search alerts fire, BatchData lists ingest as their own dataset runs, and the worker
process (``python -m marketplace worker``) starts, pulls and stops on SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime, timedelta, timezone

import sqlalchemy as sa

from marketplace.platform.config import PROJECT_ROOT
from marketplace.features.marketplace.rules import PACIFIC, REFRESH_HOUR
from marketplace.platform.db import get_engine
from marketplace.features.records.jobs import run_records_refresh
from marketplace.platform.models import DatasetRun, Lead, LeadRefreshRun, Notification
from marketplace.features.marketplace import service_notifications as notifications
from marketplace.features.records import service_imports as record_imports
from marketplace.features.marketplace import service_saved_searches as searches
from marketplace.features.records import source_opendata as opendata
from tests.fakes.batchdata import FakeBatchData
from tests.features.records.opendata_helpers import redated_copy

MORNING = datetime(2026, 11, 21, 16, 0, tzinfo=timezone.utc)
CHICAGO_FILE = (PROJECT_ROOT / "tests" / "fixtures" / "public_records" / "chi-vacant-buildings-violations"
                / "vacant_and_abandoned_buildings_violations_sample.csv")


def _count(model, *where) -> int:
    with get_engine().connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(model.__table__).where(*where)).scalar_one()


def _chicago_portal(monkeypatch, tmp_path):
    """The live portal, played by the exported sample of the same dataset re-dated to the week before
    MORNING (the 2023 rows themselves are history: no leads)."""
    current = redated_copy(CHICAGO_FILE, "Issued Date", MORNING.date() - timedelta(days=7),
                           tmp_path / CHICAGO_FILE.name)
    monkeypatch.setattr(opendata, "fetch", lambda dataset, **kw: opendata.read_file(dataset, current,
                                                                                    today=kw.get("today")))
    monkeypatch.setenv("OPEN_DATA_DATASETS", "chi-vacant-buildings-violations")


def test_a_records_refresh_alerts_saved_searches_once_a_day(db_url, new_user, monkeypatch, tmp_path):
    _chicago_portal(monkeypatch, tmp_path)
    user = new_user(confirmed=True)
    searches.create_saved_search(user.id, "Everything", "")
    result = run_records_refresh(now=MORNING)
    assert (result["status"], result["run_key"]) == ("completed", "records:2026-11-21")
    added = _count(Lead, Lead.__table__.c.property_id.is_not(None))
    assert added > 100 and result["leads_added"] == added
    assert _count(Lead, Lead.__table__.c.refresh_run_id == result["run_id"]) == added
    [note] = notifications.list_notifications(user.id)
    assert note.title == f"{added} new leads match your saved searches"
    # Another worker the same Pacific day pulls nothing and sends nothing.
    assert run_records_refresh(now=MORNING)["status"] == "skipped"
    assert (_count(DatasetRun), _count(Notification)) == (1, 1)


def test_concurrent_workers_pull_once(db_url, monkeypatch, tmp_path):
    _chicago_portal(monkeypatch, tmp_path)
    results = []
    threads = [threading.Thread(target=lambda: results.append(run_records_refresh(now=MORNING)["status"]))
               for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["completed", "skipped", "skipped"]
    assert _count(DatasetRun) == 1
    assert _count(LeadRefreshRun, LeadRefreshRun.__table__.c.run_key == "records:2026-11-21") == 1


def test_batchdata_lists_are_ingested_each_as_its_own_dataset_run(db_url, monkeypatch):
    monkeypatch.delenv("OPEN_DATA_DATASETS", raising=False)
    with FakeBatchData(api_key="bd-key") as fake:
        monkeypatch.setenv("BATCHDATA_API_KEY", "bd-key")
        monkeypatch.setenv("BATCHDATA_BASE_URL", fake.url + "/")
        monkeypatch.setenv("BATCHDATA_LOCATION", "Phoenix, AZ")
        monkeypatch.setenv("BATCHDATA_LISTS", "noticeOfDefault,inherited")
        result = run_records_refresh(now=MORNING)
    assert result["status"] == "completed"
    by_id = {r["dataset_id"]: r for r in result["results"] if "dataset_id" in r}
    assert set(by_id) == {"batchdata-notice-of-default", "batchdata-inherited"}
    assert by_id["batchdata-notice-of-default"]["rows_read"] == 2  # the Tucson one is not in Phoenix
    assert by_id["batchdata-inherited"]["rows_read"] == 1
    assert set(record_imports.last_runs()) == {"batchdata-notice-of-default", "batchdata-inherited"}
    assert result["leads_added"] == _count(Lead, Lead.__table__.c.refresh_run_id == result["run_id"]) >= 2


def test_batchdata_needs_its_list_and_location(db_url, monkeypatch):
    monkeypatch.delenv("OPEN_DATA_DATASETS", raising=False)
    monkeypatch.setenv("BATCHDATA_API_KEY", "bd-key")
    monkeypatch.setenv("BATCHDATA_LISTS", "noticeOfDefault")
    monkeypatch.delenv("BATCHDATA_LOCATION", raising=False)
    result = run_records_refresh(now=MORNING)
    assert [r for r in result["results"] if "dataset_id" in r] == []
    assert _count(DatasetRun) == 0


def _worker(env: dict, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "marketplace", "worker", *args], cwd=PROJECT_ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def test_the_worker_exits_at_once_when_nothing_is_configured(db_url, monkeypatch):
    env = {k: v for k, v in os.environ.items() if k not in ("OPEN_DATA_DATASETS", "BATCHDATA_LISTS")}
    proc = _worker(env, "--if-configured")
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert "records worker: nothing to pull" in out


def test_the_worker_catches_up_then_stops_on_sigterm(db_url):
    # A download-only dataset: the pull skips it (no network), the rescore runs; the run row is written.
    env = dict(os.environ, OPEN_DATA_DATASETS="phl-sheriff-sales-bid4assets")
    proc = _worker(env, "--if-configured")
    deadline = time.monotonic() + 60
    lines = []
    try:
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            lines.append(line)
            if "records worker started" in line:
                break
        while time.monotonic() < deadline:
            with get_engine().connect() as conn:
                runs = conn.execute(sa.select(LeadRefreshRun.__table__.c.run_key,
                                              LeadRefreshRun.__table__.c.status)).all()
            if datetime.now(timezone.utc).astimezone(PACIFIC).hour < REFRESH_HOUR:
                break  # before 8:00 Pacific there is nothing to catch up
            if runs and runs[0].status == "completed":
                assert runs[0].run_key.startswith("records:")
                break
            time.sleep(0.5)
        else:
            raise AssertionError(f"no completed records run: {''.join(lines)}")
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0
    assert "records worker stopped" in out
