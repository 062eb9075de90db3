"""Dataset pulls as jobs on the records queue (``features/records/jobs_queue.py``): Procrastinate on PostgreSQL, the worker's
own in-process run on SQLite. "Run now" and the daily refresh queue the same job; two workers never pull
one dataset at once; a worker killed mid-job leaves its run failed (heartbeat) and the job is retried."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from datetime import date, datetime, timedelta, timezone

import pytest
import sqlalchemy as sa

from marketplace.platform.config import PROJECT_ROOT
from marketplace.platform.db import get_engine
from marketplace.features.records import jobs_queue as queue
from marketplace.features.records.jobs_heartbeat import heartbeat
from marketplace.platform.models import DatasetRun, LeadRefreshRun, RecordJob, utcnow
from marketplace.features.records import (
    service as public_records,
    service_imports as record_imports,
    service_jobs as record_jobs,
    service_runs as record_runs,
)
from marketplace.features.records import source_opendata as opendata
from tests.factories import records_refreshed_today
from tests.fakes.portal import FakePortal, api_rows
from tests.fakes.portal_datasets import datasets_dir
from tests.features.records.opendata_helpers import DATASETS, sample

CHICAGO = "chi-vacant-buildings-violations"
SOME = 30  # rows the portal serves where the count does not matter
MORNING = datetime(2026, 11, 21, 16, 0, tzinfo=timezone.utc)
runs_t, jobs_t = DatasetRun.__table__, RecordJob.__table__


@pytest.fixture
def queue_db(db_url):
    """The test database with an empty queue (Procrastinate's tables are not the app's: emptied here)."""
    if queue.backend() == "procrastinate":
        queue.ensure_schema()
        with get_engine().begin() as conn:
            conn.exec_driver_sql("TRUNCATE procrastinate_jobs, procrastinate_workers, procrastinate_periodic_defers "
                                 "RESTART IDENTITY CASCADE")
    yield db_url


def _waiting() -> list[tuple]:
    """Procrastinate's waiting jobs: (task, args, lock, queueing lock)."""
    with get_engine().connect() as conn:
        return [tuple(r) for r in conn.execute(sa.text(
            "SELECT task_name, args, lock, queueing_lock FROM procrastinate_jobs WHERE status = 'todo' "
            "ORDER BY id"))]


def _served() -> list[dict]:
    dataset = DATASETS[CHICAGO]
    kind, rows = opendata.files.rows_from_file(dataset, sample(CHICAGO))
    rows = list(rows)
    rows = rows if kind == "api" else api_rows(dataset, rows)
    # Re-dated to last week: the sample's 2023 notices themselves are history (no leads).
    week_ago = (date.today() - timedelta(days=7)).isoformat() + "T00:00:00.000"
    return [{**row, "issued_date": week_ago} for row in rows]


def _portal(tmp_path, monkeypatch, rows: list[dict]):
    fake = FakePortal("socrata", rows, resource=DATASETS[CHICAGO].resource).start()
    monkeypatch.setenv("OPEN_DATA_DIR", str(datasets_dir(tmp_path / "datasets", CHICAGO, fake.url)))
    monkeypatch.setenv("OPEN_DATA_DATASETS", CHICAGO)
    return fake


@pytest.fixture
def portal(tmp_path, monkeypatch):
    """Chicago's portal, played by a local server with the exported sample."""
    fake = _portal(tmp_path, monkeypatch, _served())
    yield fake
    fake.stop()


@pytest.fixture
def small_portal(tmp_path, monkeypatch):
    """The same with its first ``SOME`` rows (where the count does not matter: shorter pulls)."""
    fake = _portal(tmp_path, monkeypatch, _served()[:SOME])
    yield fake
    fake.stop()


def _runs(dataset_id: str = CHICAGO) -> list:
    with get_engine().connect() as conn:
        return conn.execute(sa.select(runs_t).where(runs_t.c.dataset_id == dataset_id).order_by(runs_t.c.id)).all()


def test_run_now_queues_the_pull_as_a_job_once(queue_db, monkeypatch):
    monkeypatch.setenv("OPEN_DATA_DATASETS", CHICAGO)
    job = queue.run_now(CHICAGO, None)
    assert (job.status, job.trigger, job.new) == ("queued", "manual", True)
    assert queue.run_now(CHICAGO, None).id == job.id  # asked twice: one job
    assert [j.id for j in record_jobs.queued()] == [job.id]
    if queue.backend() == "procrastinate":
        assert _waiting() == [(queue.PULL_TASK, {"job_id": job.id}, f"dataset:{CHICAGO}", f"record-job:{job.id}")]
    else:  # the embedded default needs no queue server: the worker runs the queued row itself
        assert not sa.inspect(get_engine()).has_table("procrastinate_jobs")


def test_the_daily_refresh_queues_one_job_per_configured_dataset(queue_db, monkeypatch):
    monkeypatch.setenv("OPEN_DATA_DATASETS", f"{CHICAGO},nyc-dof-rolling-sales,phl-sheriff-sales-bid4assets")
    result = queue.enqueue_daily(now=MORNING)
    assert (result["status"], result["run_key"]) == ("queued", "records:2026-11-21")
    jobs = record_jobs.queued()
    assert sorted(j.dataset_id for j in jobs) == [CHICAGO, "nyc-dof-rolling-sales"]  # the download is not pulled
    assert {(j.trigger, j.refresh_run_id) for j in jobs} == {("schedule", result["run_id"])}
    if queue.backend() == "procrastinate":
        assert sorted((task, args["job_id"], lock) for task, args, lock, _ in _waiting()) == sorted(
            (queue.PULL_TASK, j.id, f"dataset:{j.dataset_id}") for j in jobs)
    # Another worker at eight the same Pacific day queues nothing.
    assert queue.enqueue_daily(now=MORNING)["status"] == "skipped"
    assert len(record_jobs.queued()) == 2
    if queue.backend() == "procrastinate":
        assert len(_waiting()) == 2


def test_the_queued_jobs_run_then_the_rescore_completes_the_refresh_run(queue_db, portal):
    result = queue.enqueue_daily(now=MORNING)
    queue.drain()  # SQLite: in this process, as the embedded worker does; PostgreSQL: a Procrastinate worker
    [job] = record_jobs.latest_jobs().values()
    assert (job.status, job.error) == ("ok", None)
    [run] = _runs()
    assert (run.status, run.rows_read) == ("ok", 260)
    with get_engine().connect() as conn:
        refresh = conn.execute(sa.select(LeadRefreshRun.__table__).where(
            LeadRefreshRun.__table__.c.id == result["run_id"])).one()
    assert refresh.status == "completed" and refresh.leads_added > 100  # the rescore ran after the pull
    assert record_jobs.queued() == []
    if queue.backend() == "procrastinate":
        with get_engine().connect() as conn:
            done = conn.execute(sa.text("SELECT task_name, status FROM procrastinate_jobs ORDER BY id")).all()
        assert [tuple(r) for r in done] == [(queue.PULL_TASK, "succeeded"), (queue.RESCORE_TASK, "succeeded")]


def _queue_twice(dataset_id: str) -> list[int]:
    """Two jobs of one dataset (a "Run now" and the daily job, queued at the same moment)."""
    with get_engine().begin() as conn:
        ids = [conn.execute(sa.insert(jobs_t).values(dataset_id=dataset_id, requested_at=utcnow(), status="queued",
                                                     trigger=trigger).returning(jobs_t.c.id)).scalar_one()
               for trigger in ("manual", "schedule")]
    for job in record_jobs.queued():
        queue.dispatch_pull(job)
    return ids


def test_two_workers_never_pull_the_same_dataset_at_once(queue_db, small_portal):
    small_portal.script(delay=1.0)  # a slow first page: the other worker looks while the first pull runs
    ids = _queue_twice(CHICAGO)
    errors = []

    def worker():
        try:
            queue.drain()
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert errors == []
    queue.drain()  # what a worker that looked too early left queued
    assert [(j.status, j.error) for j in map(record_jobs.get, ids)] == [("ok", None), ("ok", None)]
    first, second = _runs()
    assert (first.status, second.status) == ("ok", "ok")
    assert second.started_at >= first.finished_at  # one after the other, never both at once


def test_a_run_silent_for_a_minute_is_failed_and_its_dataset_can_run_again(queue_db):
    dataset = "phl-tax-delinquencies"
    now = utcnow()
    with get_engine().begin() as conn:  # a kill -9 left it running; its last heartbeat was 61 s ago
        dead = conn.execute(sa.insert(runs_t).values(
            dataset_id=dataset, mode="file", status="running", started_at=now - timedelta(minutes=10),
            heartbeat_at=now - timedelta(seconds=61)).returning(runs_t.c.id)).scalar_one()
        live = conn.execute(sa.insert(runs_t).values(
            dataset_id="nyc-dof-rolling-sales", mode="api", status="running", started_at=now - timedelta(minutes=10),
            heartbeat_at=now - timedelta(seconds=20)).returning(runs_t.c.id)).scalar_one()
    with pytest.raises(public_records.RunInProgress):
        record_imports.import_file(dataset, sample(dataset))
    assert record_runs.reap(now=now - timedelta(seconds=2))["runs"] == []  # 59 s: not yet
    from marketplace import cli

    assert cli.main(["import-records", dataset, "--file", str(sample(dataset))]) == 0  # the next run reaps it
    failed, imported = _runs(dataset)
    assert failed.id == dead and failed.status == "failed"
    assert failed.error.startswith("the process running it stopped (no heartbeat since")
    assert (imported.status, imported.rows_read) == ("ok", 259)  # pullable again at once
    assert [r.status for r in _runs("nyc-dof-rolling-sales")] == ["running"] and live  # beating: left alone


def test_a_pull_beats_while_it_runs(queue_db, monkeypatch):
    monkeypatch.setenv("RECORD_HEARTBEAT_SECONDS", "0.2")
    started = utcnow()
    with heartbeat(["phl-tax-delinquencies"]):
        with get_engine().begin() as conn:  # the run import-records starts
            run_id = conn.execute(sa.insert(runs_t).values(
                dataset_id="phl-tax-delinquencies", mode="file", status="running", started_at=utcnow())
                .returning(runs_t.c.id)).scalar_one()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and _runs("phl-tax-delinquencies")[0].heartbeat_at is None:
            time.sleep(0.1)
    beat = _runs("phl-tax-delinquencies")[0].heartbeat_at
    assert beat is not None and beat >= started and run_id


def _worker(env: dict) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "marketplace", "worker"], cwd=PROJECT_ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _wait(check, seconds: float, what: str, proc: subprocess.Popen | None = None):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if (value := check()):
            return value
        time.sleep(0.2)
    out = ""
    if proc is not None:
        proc.kill()
        out = proc.communicate(timeout=30)[0]
    raise AssertionError(f"waited {seconds} s for {what}\n{out}")


def test_a_worker_killed_mid_job_leaves_its_run_failed_and_the_job_is_retried(queue_db, small_portal):
    portal = small_portal
    env = dict(os.environ, RECORD_HEARTBEAT_SECONDS="0.5", RECORD_DEAD_AFTER_SECONDS="3")
    portal.script(delay=90)  # the first page never comes before the kill
    records_refreshed_today()
    job = queue.run_now(CHICAGO, None)
    first = _worker(env)
    try:
        _wait(lambda: portal.requests and [r for r in _runs() if r.status == "running"], 60,
              "the first worker's run to ask for its first page", first)
        first.send_signal(signal.SIGKILL)
        first_out = first.communicate(timeout=10)[0]
    finally:
        if first.poll() is None:
            first.kill()
    second = _worker(env)
    try:
        done = _wait(lambda: (j := record_jobs.get(job.id)).status in ("ok", "failed") and j, 90, "the retried job",
                     second)
        second.send_signal(signal.SIGTERM)
        out = second.communicate(timeout=60)[0]
    finally:
        if second.poll() is None:
            second.kill()
    assert (done.status, done.error, done.attempts) == ("ok", None, 2), first_out + out
    killed, retried = _runs()
    assert killed.status == "failed" and "no heartbeat since" in killed.error
    assert (retried.status, retried.rows_read) == ("ok", SOME)
    assert second.returncode == 0


def test_import_records_beats_for_its_run_while_it_runs(queue_db, monkeypatch, tmp_path):
    from marketplace import cli

    monkeypatch.setenv("RECORD_HEARTBEAT_SECONDS", "0.2")
    dataset = "phl-tax-delinquencies"
    beats = []

    def slow_import(dataset_id, path, *, partial=False, **kw):  # the import, its run under way for a while
        with get_engine().begin() as conn:
            conn.execute(sa.insert(runs_t).values(dataset_id=dataset_id, mode="file", status="running",
                                                  started_at=utcnow()))
        beats.append(_wait(lambda: _runs(dataset_id)[0].heartbeat_at, 20, "the import's heartbeat"))
        return public_records.RunSummary(dataset_id=dataset_id, mode="file", status="ok", rows_read=1, added=1)

    monkeypatch.setattr(record_imports, "import_file", slow_import)
    assert cli.main(["import-records", dataset, "--file", str(sample(dataset))]) == 0
    assert len(beats) == 1


def test_a_refresh_run_whose_rescore_was_lost_is_rescored_by_the_next_tick(queue_db, monkeypatch):
    monkeypatch.setenv("OPEN_DATA_DATASETS", CHICAGO)
    runs = LeadRefreshRun.__table__
    daily = queue.enqueue_daily(now=MORNING)
    with get_engine().begin() as conn:  # its pull finished; the worker died before the rescore
        conn.execute(sa.update(jobs_t).values(status="ok", finished_at=utcnow()))
        cli_run = conn.execute(sa.insert(runs).values(  # refresh-records, pulling in its own process
            run_key="records:2026-11-21:cli", run_date=MORNING.date(), trigger="manual", status="running",
            started_at=MORNING).returning(runs.c.id)).scalar_one()
    queue.tick()
    if queue.backend() == "procrastinate":
        assert [a for t, a, _, _ in _waiting() if t == queue.RESCORE_TASK] == [{"refresh_run_id": daily["run_id"]}]
        queue.drain()
    with get_engine().connect() as conn:
        status = dict(conn.execute(sa.select(runs.c.id, runs.c.status)).all())
    assert status == {daily["run_id"]: "completed", cli_run: "running"}
