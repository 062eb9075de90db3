"""Whether a dataset pull is alive: heartbeats and dead runs.

A process pulling a dataset (a queued job, ``import-records``, ``refresh-records``) stamps ``heartbeat_at``
on its running ``dataset_runs`` row (and on its ``record_jobs`` row) every ``RECORD_HEARTBEAT_SECONDS``
(``features/records/jobs_heartbeat.py`` calls ``beat``). A running run whose heartbeat (its start, before the first beat) is
older than ``RECORD_DEAD_AFTER_SECONDS`` died with its process: ``reap`` marks it failed, so the dataset is
pullable again at once (``public_records.ingest`` refuses only a run that is still ``running``), and puts
its job back in the queue (``queued``, retried) until it has had ``MAX_ATTEMPTS``, then fails it.
Every worker calls ``reap`` before each job and every few seconds; so does the next pull of the dataset.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Iterable

import sqlalchemy as sa

from marketplace.platform.config import lead_settings
from marketplace.platform.db import session_scope
from marketplace.platform.models import DatasetRun, RecordJob, utcnow

runs_t = DatasetRun.__table__
jobs_t = RecordJob.__table__
MAX_ATTEMPTS = 3  # a job whose worker died this many times fails for good


def dead_before(now: datetime | None = None) -> datetime:
    """A heartbeat older than this is a dead process's."""
    return (now or utcnow()) - timedelta(seconds=lead_settings().record_dead_after_seconds)


def _last_sign(table: sa.Table) -> sa.ColumnElement:
    return sa.func.coalesce(table.c.heartbeat_at, table.c.started_at)


def beat(dataset_ids: Iterable[str] | None, since: datetime, job_id: int | None = None,
         database_url: str | None = None) -> None:
    """Stamp the heartbeat of the running runs of ``dataset_ids`` (None: any dataset) started at or after
    ``since`` by this process, and of job ``job_id``."""
    now = utcnow()
    with session_scope(database_url) as session:
        conn = session.connection()
        where = [runs_t.c.status == "running", runs_t.c.started_at >= since]
        if dataset_ids is not None:
            ids = sorted(set(dataset_ids))
            if not ids:
                return
            where.append(runs_t.c.dataset_id.in_(ids))
        conn.execute(sa.update(runs_t).where(*where).values(heartbeat_at=now))
        if job_id is not None:
            conn.execute(sa.update(jobs_t).where(jobs_t.c.id == job_id, jobs_t.c.status == "running")
                         .values(heartbeat_at=now))


def reap(now: datetime | None = None, database_url: str | None = None) -> dict:
    """Mark the dead runs failed and retry (or fail) the dead jobs. Returns {"runs": [ids failed],
    "requeued": [job ids], "failed": [job ids]}."""
    now = now or utcnow()
    cutoff = dead_before(now)
    with session_scope(database_url) as session:
        conn = session.connection()
        dead_jobs = conn.execute(sa.select(jobs_t.c.id, jobs_t.c.attempts, jobs_t.c.dataset_id, jobs_t.c.started_at)
                                 .where(jobs_t.c.status == "running", _last_sign(jobs_t) < cutoff)).all()
        # a dead job's run died with it (one thread beats both), even if it started a moment later
        of_dead_jobs = [sa.and_(runs_t.c.dataset_id == j.dataset_id, runs_t.c.started_at >= j.started_at)
                        for j in dead_jobs if j.started_at is not None]
        dead_runs = conn.execute(sa.select(runs_t.c.id, _last_sign(runs_t).label("last")).where(
            runs_t.c.status == "running", sa.or_(_last_sign(runs_t) < cutoff, *of_dead_jobs))).all()
        for run in dead_runs:
            conn.execute(sa.update(runs_t).where(runs_t.c.id == run.id, runs_t.c.status == "running").values(
                status="failed", finished_at=now,
                error=f"the process running it stopped (no heartbeat since {run.last:%Y-%m-%d %H:%M:%S} UTC)"))
        requeued = [j.id for j in dead_jobs if j.attempts < MAX_ATTEMPTS]
        failed = [j.id for j in dead_jobs if j.attempts >= MAX_ATTEMPTS]
        if requeued:
            conn.execute(sa.update(jobs_t).where(jobs_t.c.id.in_(requeued), jobs_t.c.status == "running").values(
                status="queued", heartbeat_at=None,
                error="its worker stopped mid-run: retried"))
        if failed:
            conn.execute(sa.update(jobs_t).where(jobs_t.c.id.in_(failed), jobs_t.c.status == "running").values(
                status="failed", finished_at=now,
                error=f"its worker stopped mid-run {MAX_ATTEMPTS} times"))
    return {"runs": [r.id for r in dead_runs], "requeued": requeued, "failed": failed}
