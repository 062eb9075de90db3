"""The explorer's Sources panel and its "Run now" (issue 23, item 7).

"Run now" never pulls in the web process: ``enqueue`` writes a ``record_jobs`` row (status queued); the
records worker (``jobs/worker.py``) polls every ``POLL_SECONDS``, ``claim_next`` takes the oldest queued job
(an UPDATE guarded by ``status = 'queued'``, so two workers never take the same job), runs that dataset
through ``jobs.records.run_next_job`` (``run_records_refresh(only=[id])``) (a refresh run of its own, so saved-search alerts
fire for its new leads) and records ok or failed. The panel shows queued / running / ok / failed.

A dataset can be run now when it has a live API and is enabled (``OPEN_DATA_DATASETS``, or a configured
BatchData list): the worker runs only then (``make run`` starts it only then).

``panel_rows(zone_name, today)``: one plain dict per dataset for the panel (title, publisher, protocol,
status note, last run in the viewer's zone, counts, newest record, freshness warning, Run now and its hint,
the latest job).
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa

from marketplace.config import lead_settings
from marketplace.core import times
from marketplace.core.errors import UserError
from marketplace.db import read_scope, session_scope
from marketplace.models import RecordJob, utcnow
from marketplace.services import public_records, record_imports

log = logging.getLogger("marketplace.record_jobs")

jobs_t = RecordJob.__table__
POLL_SECONDS = 2
FILE_HINT = "published as a download: use import-records"
NOT_ENABLED_HINT = "not enabled: add it to OPEN_DATA_DATASETS"
RUN_NOW_TITLE = "Could not queue the run"


def _datasets() -> dict[str, Any]:
    known = dict(record_imports.datasets())
    if lead_settings().batchdata_configured:
        try:
            known.update({d.id: d for d in record_imports.batchdata_datasets()})
        except Exception:  # noqa: BLE001 - a bad BATCHDATA_LISTS: the refresh reports it
            pass
    return known


def run_now_hint(dataset: Any) -> str:
    """'' when the dataset can be run now, else why not."""
    if not record_imports.live(dataset) and not getattr(dataset, "quick_list", None):
        return FILE_HINT
    if dataset.id.startswith("batchdata-"):
        return ""
    if dataset.id not in lead_settings().open_data_datasets:
        return NOT_ENABLED_HINT
    return ""


@dataclass(frozen=True)
class JobRow:
    id: int
    dataset_id: str
    status: str
    requested_at: datetime
    finished_at: datetime | None
    error: str | None


def enqueue(dataset_id: str, user_id: uuid.UUID | None) -> JobRow:
    """Queue a run of ``dataset_id`` (raises ``UserError`` when it cannot run now); a dataset already queued
    or running is not queued twice (its job is returned), unless its run started longer than
    ``public_records.RUN_STALE_AFTER`` ago (its worker died)."""
    known = _datasets()
    dataset = known.get(dataset_id) if isinstance(dataset_id, str) else None
    if dataset is None:
        raise UserError(RUN_NOW_TITLE, "Unknown dataset.")
    hint = run_now_hint(dataset)
    if hint:
        raise UserError(RUN_NOW_TITLE, f"{dataset.title}: {hint}.")
    with session_scope() as session:
        conn = session.connection()
        alive = utcnow() - public_records.RUN_STALE_AFTER  # a job "running" longer than this died with its worker
        pending = conn.execute(sa.select(jobs_t).where(
            jobs_t.c.dataset_id == dataset_id,
            sa.or_(jobs_t.c.status == "queued", sa.and_(jobs_t.c.status == "running", jobs_t.c.started_at > alive)))
            .order_by(jobs_t.c.id.desc())).first()
        if pending is None:
            job_id = conn.execute(sa.insert(jobs_t).values(
                dataset_id=dataset_id, requested_by=user_id, requested_at=utcnow(), status="queued")
                .returning(jobs_t.c.id)).scalar_one()
            pending = conn.execute(sa.select(jobs_t).where(jobs_t.c.id == job_id)).one()
    return _job(pending)


def _job(row: Any) -> JobRow:
    return JobRow(row.id, row.dataset_id, row.status, row.requested_at, row.finished_at, row.error)


def claim_next(database_url: str | None = None) -> JobRow | None:
    """The oldest queued job, now running (None when there is none or another worker took it)."""
    with session_scope(database_url) as session:
        conn = session.connection()
        row = conn.execute(sa.select(jobs_t.c.id).where(jobs_t.c.status == "queued")
                           .order_by(jobs_t.c.requested_at, jobs_t.c.id).limit(1)).first()
        if row is None:
            return None
        taken = conn.execute(sa.update(jobs_t).where(jobs_t.c.id == row.id, jobs_t.c.status == "queued")
                             .values(status="running", started_at=utcnow())).rowcount
        if not taken:
            return None
        return _job(conn.execute(sa.select(jobs_t).where(jobs_t.c.id == row.id)).one())


def finish(job_id: int, status: str, run_id: int | None, error: str | None,
           database_url: str | None = None) -> None:
    """Record a job's outcome (the worker's ``jobs.records.run_next_job``)."""
    with session_scope(database_url) as session:
        session.connection().execute(sa.update(jobs_t).where(jobs_t.c.id == job_id).values(
            status=status, finished_at=utcnow(), run_id=run_id, error=(error or None) and error[:2000]))


def latest_jobs(database_url: str | None = None) -> dict[str, JobRow]:
    latest = sa.select(jobs_t.c.dataset_id, sa.func.max(jobs_t.c.id).label("id")).group_by(jobs_t.c.dataset_id).subquery()
    with read_scope(database_url) as session:
        rows = session.connection().execute(sa.select(jobs_t).join(latest, latest.c.id == jobs_t.c.id)).all()
    return {r.dataset_id: _job(r) for r in rows}


def _count(value: int | None) -> str:
    return "N/A" if value is None else f"{value:,}"


def panel_rows(zone_name: str, today: date | None = None) -> list[dict]:
    """The Sources panel: one row of strings per dataset (module docstring), by title."""
    from marketplace.sources import opendata

    today = today or utcnow().date()
    runs, jobs = record_imports.last_runs(), latest_jobs()
    rows = []
    for dataset_id, dataset in _datasets().items():
        run, job = runs.get(dataset_id), jobs.get(dataset_id)
        hint = run_now_hint(dataset)
        warning = ""
        if run is not None and hasattr(dataset, "freshness_field"):
            fresh = opendata.freshness(dataset, run.newest_as_of, today)
            # The date itself is the Newest record column's: the warning gives its age only.
            age = (f"{fresh.age_days:,} days old (max {fresh.max_age_days})" if fresh.age_days is not None
                   else fresh.message)
            warning = "" if fresh.ok else f"Stale: {age}"
        rows.append({
            "id": dataset_id, "title": dataset.title, "publisher": dataset.publisher,
            "protocol": getattr(dataset, "protocol", "api"), "note": getattr(dataset, "status_note", None) or "",
            "last_run": (f"{times.format_datetime(run.started_at, zone_name)} ({run.mode}, {run.status})"
                         if run else "Never"),
            "read": _count(run and run.rows_read), "added": _count(run and run.added),
            "updated": _count(run and run.updated), "closed": _count(run and run.closed),
            "archived": _count(run and run.archived), "rejected": _count(run and run.rejected),
            # The one place the panel states the newest record's date (the status notes name none).
            "newest": times.format_date(run.newest_as_of, zone_name) if run and run.newest_as_of else "N/A",
            "warning": warning, "error": (run.error or "") if run else "",
            "can_run": hint == "", "hint": hint,
            "job": job.status if job else "",
            "job_error": (job.error or "") if job else "",
        })
    rows.sort(key=lambda r: r["title"].lower())
    return rows
