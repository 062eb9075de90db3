"""The explorer's Sources panel and its "Run now", and the ``record_jobs`` rows every dataset pull is.

A pull of one dataset is a ``record_jobs`` row (queued / running / ok / failed: what the panel shows) and a
job on the queue (``features/records/jobs_queue.py``: Procrastinate on PostgreSQL, the worker's own poll on SQLite). "Run now"
never pulls in the web process: ``enqueue`` writes the row (``records.jobs_queue.run_now`` then queues the job); the
daily refresh writes one row per dataset in its own transaction (``add_jobs``). A worker takes a row with
``start`` (an UPDATE guarded by ``status = 'queued'``, so two workers never run the same job; ``claim_next``
also skips a dataset whose pull is running), stamps its heartbeat (``records.service_runs``) and records ok or
failed with ``finish``. A job whose worker died is put back to ``queued`` by ``record_runs.reap``.

Each dataset in ``OPEN_DATA_DATASETS`` is also pulled every ``pull_every_minutes`` (its file; default 60):
``enqueue_due`` queues a job (trigger ``interval``) for each dataset whose interval has passed since its last
job was requested, under a per-dataset lock (``pg_advisory_xact_lock`` on PostgreSQL, the write lock of
``BEGIN IMMEDIATE`` on SQLite) that makes the look and the insert one step: two schedulers racing queue one
job per interval, never two, and never while the dataset's pull is pending.

A dataset can be run now when it has a live API and is enabled (``OPEN_DATA_DATASETS``, or a configured
BatchData list): the worker runs only then (``make run`` starts it only then).

``panel_rows(zone_name, today)``: one plain dict per dataset for the panel (title, publisher, protocol,
status note, last run in the viewer's zone, counts, newest record, freshness warning, Run now and its hint,
the latest job, the last API pull and the next one (last + the dataset's ``pull_every_minutes``; "not
pulled" when it is not in ``OPEN_DATA_DATASETS``), and the lag from a row's portal update to its signal,
p50 / p95 over 30 days with the number of rows it rests on (``records.service_freshness.lags``)), grouped by market (``marketplace/features/records/markets``): each market's datasets follow its header row
(``kind`` 'market': its name, completeness of roll, sales and lists, newest record and last run); datasets of
no market (the price index, commercial lists) close the table under 'Every market'.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

import sqlalchemy as sa

from marketplace.platform.config import lead_settings
from marketplace.features.records import rules_freshness as freshness
from marketplace.platform import times
from marketplace.platform.errors import UserError
from marketplace.platform.db import read_scope, session_scope
from marketplace.platform.models import RecordJob, utcnow
from marketplace.features.records import (
    service_freshness as record_freshness,
    service_imports as record_imports,
    service_runs as record_runs,
)
from marketplace.features.records.service_markets import market_summaries

log = logging.getLogger("marketplace.record_jobs")

jobs_t = RecordJob.__table__
POLL_SECONDS = 2
FILE_HINT = "published as a download: use import-records"
NOT_ENABLED_HINT = "not enabled: add it to OPEN_DATA_DATASETS"
NOT_PULLED = "not pulled"
DUE_NOW = "due now (never pulled)"
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
    trigger: str = "manual"
    refresh_run_id: int | None = None
    attempts: int = 0
    new: bool = False  # ``enqueue``: this call queued it (False: the dataset's pending job was returned)


def _pending(dataset_id: str) -> Any:
    """Queued, or running with a live heartbeat (a running job whose worker died is not pending)."""
    last = sa.func.coalesce(jobs_t.c.heartbeat_at, jobs_t.c.started_at)
    return sa.and_(jobs_t.c.dataset_id == dataset_id, sa.or_(
        jobs_t.c.status == "queued", sa.and_(jobs_t.c.status == "running", last >= record_runs.dead_before())))


def enqueue(dataset_id: str, user_id: uuid.UUID | None) -> JobRow:
    """Queue a run of ``dataset_id`` (raises ``UserError`` when it cannot run now); a dataset already queued
    or running is not queued twice (its job is returned), unless its worker stopped beating
    (``RECORD_DEAD_AFTER_SECONDS``)."""
    known = _datasets()
    dataset = known.get(dataset_id) if isinstance(dataset_id, str) else None
    if dataset is None:
        raise UserError(RUN_NOW_TITLE, "Unknown dataset.")
    hint = run_now_hint(dataset)
    if hint:
        raise UserError(RUN_NOW_TITLE, f"{dataset.title}: {hint}.")
    new = False
    with session_scope() as session:
        conn = session.connection()
        pending = conn.execute(sa.select(jobs_t).where(_pending(dataset_id)).order_by(jobs_t.c.id.desc())).first()
        if pending is None:
            job_id = conn.execute(sa.insert(jobs_t).values(
                dataset_id=dataset_id, requested_by=user_id, requested_at=utcnow(), status="queued",
                trigger="manual").returning(jobs_t.c.id)).scalar_one()
            pending, new = conn.execute(sa.select(jobs_t).where(jobs_t.c.id == job_id)).one(), True
    return _job(pending, new)


def add_jobs(conn: Any, dataset_ids: list[str], refresh_run_id: int, trigger: str) -> list[JobRow]:
    """In the caller's transaction: one queued job per dataset for refresh run ``refresh_run_id`` (the
    daily refresh), skipping a dataset whose pull is already pending."""
    rows = []
    for dataset_id in dataset_ids:
        if conn.execute(sa.select(jobs_t.c.id).where(_pending(dataset_id))).first() is not None:
            continue
        job_id = conn.execute(sa.insert(jobs_t).values(
            dataset_id=dataset_id, requested_at=utcnow(), status="queued", trigger=trigger[:16],
            refresh_run_id=refresh_run_id).returning(jobs_t.c.id)).scalar_one()
        rows.append(_job(conn.execute(sa.select(jobs_t).where(jobs_t.c.id == job_id)).one(), True))
    return rows


DUE_LOCK = 724025  # pg_advisory_xact_lock class of "one interval job per dataset"


def enqueue_due(intervals: dict[str, timedelta], now: datetime | None = None,
                database_url: str | None = None) -> list[JobRow]:
    """Queue an ``interval`` job for each dataset of ``intervals`` (id: its pull interval) whose interval has
    passed since its last job was requested (module docstring); one short transaction per dataset. Returns
    the jobs this call queued."""
    now = now or utcnow()
    queued_now = []
    for dataset_id, interval in intervals.items():
        with session_scope(database_url) as session:
            conn = session.connection()
            if conn.dialect.name == "postgresql":
                conn.execute(sa.select(sa.func.pg_advisory_xact_lock(DUE_LOCK, sa.func.hashtext(dataset_id))))
            if conn.execute(sa.select(jobs_t.c.id).where(_pending(dataset_id))).first() is not None:
                continue
            last = conn.execute(sa.select(sa.func.max(jobs_t.c.requested_at)).where(
                jobs_t.c.dataset_id == dataset_id)).scalar_one()
            if not freshness.pull_due(last, interval, now):
                continue
            job_id = conn.execute(sa.insert(jobs_t).values(
                dataset_id=dataset_id, requested_at=now, status="queued", trigger="interval",
            ).returning(jobs_t.c.id)).scalar_one()
            queued_now.append(_job(conn.execute(sa.select(jobs_t).where(jobs_t.c.id == job_id)).one(), True))
    return queued_now


def _job(row: Any, new: bool = False) -> JobRow:
    return JobRow(row.id, row.dataset_id, row.status, row.requested_at, row.finished_at, row.error,
                  row.trigger, row.refresh_run_id, row.attempts, new)


def get(job_id: int, database_url: str | None = None) -> JobRow | None:
    with read_scope(database_url) as session:
        row = session.connection().execute(sa.select(jobs_t).where(jobs_t.c.id == job_id)).first()
    return None if row is None else _job(row)


def _take(conn: Any, job_id: int) -> JobRow | None:
    now = utcnow()
    taken = conn.execute(sa.update(jobs_t).where(jobs_t.c.id == job_id, jobs_t.c.status == "queued").values(
        status="running", started_at=now, heartbeat_at=now, attempts=jobs_t.c.attempts + 1)).rowcount
    return _job(conn.execute(sa.select(jobs_t).where(jobs_t.c.id == job_id)).one()) if taken else None


def start(job_id: int, database_url: str | None = None) -> JobRow | None:
    """Take queued job ``job_id`` (running, one more attempt); None when it is not queued (another worker
    has it, or it finished)."""
    with session_scope(database_url) as session:
        return _take(session.connection(), job_id)


def claim_next(database_url: str | None = None) -> JobRow | None:
    """The oldest queued job whose dataset has no live running pull, now running (None when there is
    none or another worker took it): the embedded worker's poll."""
    with session_scope(database_url) as session:
        conn = session.connection()
        last = sa.func.coalesce(jobs_t.c.heartbeat_at, jobs_t.c.started_at)
        busy = sa.select(jobs_t.c.dataset_id).where(jobs_t.c.status == "running",
                                                    last >= record_runs.dead_before()).scalar_subquery()
        row = conn.execute(sa.select(jobs_t.c.id).where(jobs_t.c.status == "queued", jobs_t.c.dataset_id.not_in(busy))
                           .order_by(jobs_t.c.requested_at, jobs_t.c.id).limit(1)).first()
        return None if row is None else _take(conn, row.id)


def queued(database_url: str | None = None) -> list[JobRow]:
    """Every queued job, oldest first (the PostgreSQL worker queues any whose job is missing)."""
    with read_scope(database_url) as session:
        rows = session.connection().execute(sa.select(jobs_t).where(jobs_t.c.status == "queued")
                                            .order_by(jobs_t.c.requested_at, jobs_t.c.id)).all()
    return [_job(r) for r in rows]


def set_refresh_run(job_id: int, refresh_run_id: int, database_url: str | None = None) -> None:
    with session_scope(database_url) as session:
        session.connection().execute(sa.update(jobs_t).where(jobs_t.c.id == job_id).values(
            refresh_run_id=refresh_run_id))


def unfinished_in_run(refresh_run_id: int, database_url: str | None = None) -> int:
    """How many jobs of refresh run ``refresh_run_id`` are still queued or running."""
    with read_scope(database_url) as session:
        return session.connection().execute(sa.select(sa.func.count()).select_from(jobs_t).where(
            jobs_t.c.refresh_run_id == refresh_run_id, jobs_t.c.status.in_(("queued", "running")))).scalar_one()


def finish(job_id: int, status: str, run_id: int | None, error: str | None,
           database_url: str | None = None) -> None:
    """Record a job's outcome (the worker's ``records.jobs_pulls.pull_job``)."""
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
    from marketplace.features.records import source_opendata as opendata

    today = today or utcnow().date()
    runs, jobs = record_imports.last_runs(), latest_jobs()
    pulled, lags = record_freshness.last_pulls(), record_freshness.lags()
    enabled = set(lead_settings().open_data_datasets)
    rows = []
    for dataset_id, dataset in _datasets().items():
        run, job = runs.get(dataset_id), jobs.get(dataset_id)
        last_pull = pulled.get(dataset_id)
        every = getattr(dataset, "pull_every_minutes", None)
        if every is None or dataset_id not in enabled or not record_imports.live(dataset):
            next_pull = NOT_PULLED
        else:
            due = freshness.next_pull(last_pull, every)
            next_pull = (f"every {every} min · next {times.format_datetime(due, zone_name)}" if due
                         else f"every {every} min · {DUE_NOW}")
        lag = lags.get(dataset_id)
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
            "last_pull": (f"Last pull {times.format_datetime(last_pull, zone_name)}" if last_pull
                          else "Last pull: never"),
            "next_pull": next_pull,
            "lag": freshness.lag_text(lag or freshness.NO_ROWS),
        })
    rows.sort(key=lambda r: r["title"].lower())
    return _by_market(rows, zone_name)


BLANK = ("title", "publisher", "protocol", "note", "last_run", "read", "added", "updated", "closed", "archived",
         "rejected", "newest", "warning", "error", "hint", "job", "job_error", "last_pull", "next_pull", "lag")


def _by_market(rows: list[dict], zone_name: str) -> list[dict]:
    """The dataset rows under their market's header row (module docstring)."""
    by_id = {r["id"]: r for r in rows}
    out: list[dict] = []
    for market in market_summaries(covered_only=False):
        header = {**dict.fromkeys(BLANK, ""), "kind": "market", "id": f"market-{market.id}", "market": market.id,
                  "title": market.name, "can_run": False,
                  "completeness": " · ".join(f"{word}: {status}" for word, status in market.completeness),
                  "newest": (f"Newest record {times.format_date(market.newest, zone_name)}" if market.newest
                             else "No record imported"),
                  "last_run": (f"last run {times.format_datetime(market.last_run, zone_name)}" if market.last_run
                               else "never run")}
        own = sorted((by_id.pop(d) for d in market.own if d in by_id), key=lambda r: r["title"].lower())
        out.append(header)
        out.extend({**r, "kind": "dataset", "market": market.id, "completeness": ""} for r in own)
    if by_id:
        out.append({**dict.fromkeys(BLANK, ""), "kind": "market", "id": "market-other", "market": "",
                    "title": "Every market", "can_run": False, "completeness": "Price index and commercial lists",
                    "newest": "", "last_run": ""})
        out.extend({**r, "kind": "dataset", "market": "", "completeness": ""} for r in by_id.values())
    return out
