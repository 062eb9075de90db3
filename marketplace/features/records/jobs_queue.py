"""The records job queue: every dataset pull, and the rescore after a refresh run's pulls, is a job.

Two backends, chosen by ``DATABASE_URL`` (``backend()``):

- PostgreSQL: Procrastinate (``procrastinate`` on psycopg 3; its tables are its own schema, applied once by
  ``ensure_schema``). ``python -m marketplace worker`` on one machine or many share the jobs: a pull is
  deferred with ``lock="dataset:<id>"`` (two workers never pull the same dataset at once) and
  ``queueing_lock="record-job:<job id>"`` (a job is queued once); the rescore with ``lock="records-rescore"``.
  Workers send Procrastinate's heartbeat; a worker silent for ``RECORD_DEAD_AFTER_SECONDS`` is stalled and
  its job is retried by the next worker's ``tick`` (``JobManager.get_stalled_jobs`` / ``retry_job``).
- SQLite (the embedded default, no server): the worker process runs the same jobs in-process: ``tick``
  takes each queued ``record_jobs`` row (``record_jobs.claim_next``) and runs it, then the rescore.

Either way a ``record_jobs`` row is what the explorer shows and what a job runs (``records.jobs_pulls``), and
``tick`` first reaps dead runs and jobs (``records.service_runs.reap``: failed, the job requeued).
``run_now`` is the explorer's "Run now"; ``enqueue_daily`` the daily refresh (one job per configured dataset,
under the day's ``records:<date>`` refresh run, which one worker claims); ``enqueue_due`` the pulls whose
dataset's ``pull_every_minutes`` has passed (``record_jobs.enqueue_due``: one job per dataset per interval
whatever the number of workers asking).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from datetime import datetime, timedelta

import sqlalchemy as sa

from marketplace.platform.config import get_settings, lead_settings
from marketplace.platform.db import get_engine
from marketplace.features.records import jobs_pulls as pulls
from marketplace.features.records.jobs import records_run_key
from marketplace.features.records.jobs_refresh import claim_run_in, skipped
from marketplace.platform.models import LeadRefreshRun, utcnow
from marketplace.features.records import (
    service_imports as record_imports,
    service_jobs as record_jobs,
    service_runs as record_runs,
)

log = logging.getLogger("marketplace.record_queue")

PULL_TASK = "records.pull_dataset"
RESCORE_TASK = "records.rescore_run"
SCHEMA_LOCK = 724024  # pg_advisory_xact_lock key: one process applies Procrastinate's schema


def _url(database_url: str | None) -> str:
    return database_url or get_settings().database_url


def backend(database_url: str | None = None) -> str:
    """'procrastinate' on PostgreSQL, 'inline' on SQLite (the worker runs the jobs itself)."""
    return "procrastinate" if sa.engine.make_url(_url(database_url)).get_backend_name() == "postgresql" else "inline"


# --------------------------------------------------------------------------- Procrastinate (PostgreSQL)


def _conninfo(url: str) -> str:
    return sa.engine.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _pull(job_id: int) -> None:
    pulls.pull_job(job_id, after=dispatch_rescore)


def _rescore(refresh_run_id: int) -> None:
    pulls.rescore_run(refresh_run_id)


def make_app(database_url: str | None = None):
    """A Procrastinate app on the database with the records tasks (opened by the caller)."""
    import procrastinate

    app = procrastinate.App(connector=procrastinate.PsycopgConnector(
        conninfo=_conninfo(_url(database_url)), min_size=1, max_size=4))
    app.task(name=PULL_TASK)(_pull)
    app.task(name=RESCORE_TASK)(_rescore)
    return app


_schema_ready: set[str] = set()
_apps: dict[str, object] = {}
_apps_lock = threading.Lock()


def ensure_schema(database_url: str | None = None) -> None:
    """Apply Procrastinate's schema once when its tables are missing, whatever the number of processes
    starting together: the advisory lock is taken before the tables are looked up. (Looked up first, the
    answer "missing" stays in the session's catalog cache while it waits for the lock: the waiter then
    applied the schema a second time and failed on ``type "procrastinate_job_status" already exists``.)"""
    from procrastinate.schema import SchemaManager

    url = _url(database_url)
    if url in _schema_ready:
        return
    with get_engine(url).begin() as conn:
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(SCHEMA_LOCK)))
        if conn.execute(sa.text("SELECT to_regclass('procrastinate_jobs')")).scalar() is None:
            conn.connection.driver_connection.execute(SchemaManager.get_schema())
    _schema_ready.add(url)


def _deferring_app(database_url: str | None):
    """The process's app for deferring jobs synchronously (web process, scheduler thread, a job)."""
    url = _url(database_url)
    with _apps_lock:
        app = _apps.get(url)
        if app is None:
            ensure_schema(url)
            app = make_app(url)
            app.open()
            _apps[url] = app
    return app


def _defer(database_url: str | None, task: str, lock: str, queueing_lock: str, **kwargs) -> bool:
    """Defer a job; False when one with this queueing lock is already waiting."""
    from procrastinate import exceptions

    try:
        _deferring_app(database_url).configure_task(task, lock=lock, queueing_lock=queueing_lock).defer(**kwargs)
    except exceptions.AlreadyEnqueued:
        return False
    return True


def close_apps() -> None:
    with _apps_lock:
        for app in _apps.values():
            app.close()
        _apps.clear()


# --------------------------------------------------------------------------- dispatch (both backends)


def dispatch_pull(job: record_jobs.JobRow, database_url: str | None = None) -> None:
    """Queue the job that runs ``job`` (on SQLite the worker's ``tick`` finds the queued row itself)."""
    if backend(database_url) == "procrastinate":
        _defer(database_url, PULL_TASK, f"dataset:{job.dataset_id}", f"record-job:{job.id}", job_id=job.id)


def dispatch_rescore(refresh_run_id: int, database_url: str | None = None) -> None:
    """The rescore after the last pull of a refresh run: a job on PostgreSQL, at once in-process."""
    if backend(database_url) == "procrastinate":
        _defer(database_url, RESCORE_TASK, "records-rescore", f"rescore:{refresh_run_id}",
               refresh_run_id=refresh_run_id)
    else:
        pulls.rescore_run(refresh_run_id, database_url=database_url)


def run_now(dataset_id: str, user_id: uuid.UUID | None) -> record_jobs.JobRow:
    """The explorer's "Run now": the job row (``record_jobs.enqueue``, which refuses what cannot run) and
    its job on the queue."""
    job = record_jobs.enqueue(dataset_id, user_id)
    if job.new:
        try:
            dispatch_pull(job)
        except Exception:  # noqa: BLE001 - the row is queued: every worker's tick queues a missing job
            log.exception("could not queue record job %s; a worker will", job.id)
    return job


def configured_datasets() -> list[str]:
    """The datasets the daily refresh pulls: each enabled one with a live API, then each BatchData list."""
    known = record_imports.datasets()
    ids = [d for d in lead_settings().open_data_datasets if d in known and record_imports.live(known[d])]
    if lead_settings().batchdata_configured:
        try:
            ids += [d.id for d in record_imports.batchdata_datasets()]
        except Exception:  # noqa: BLE001 - a bad BATCHDATA_LISTS: the open data still runs
            log.exception("BATCHDATA_LISTS")
    return ids


def enqueue_daily(trigger: str = "schedule", *, now: datetime | None = None, database_url: str | None = None) -> dict:
    """The day's records refresh: claim ``records:<date>`` (one worker of many), queue one job per
    configured dataset, all in one transaction, then dispatch them (none: the rescore at once).
    Returns {"status": queued|skipped, "run_key", "run_id", "jobs": [job ids]}."""
    now = now or utcnow()
    run_key = records_run_key(now)
    with get_engine(database_url).begin() as conn:
        run_id = claim_run_in(conn, run_key, now, trigger)
        if run_id is None:
            return skipped(run_key)
        jobs = record_jobs.add_jobs(conn, configured_datasets(), run_id, trigger)
    for job in jobs:
        try:
            dispatch_pull(job, database_url)
        except Exception:  # noqa: BLE001 - the rows are queued: the next tick queues them
            log.exception("could not queue record job %s", job.id)
    if not jobs:
        dispatch_rescore(run_id, database_url)
    return {"status": "queued", "run_key": run_key, "run_id": run_id, "jobs": [j.id for j in jobs]}


def pull_intervals() -> dict[str, timedelta]:
    """Each dataset of ``OPEN_DATA_DATASETS`` with a live API, and its pull interval (its file's
    ``pull_every_minutes``). BatchData lists keep the daily refresh alone."""
    known = record_imports.datasets()
    return {d: timedelta(minutes=known[d].pull_every_minutes) for d in lead_settings().open_data_datasets
            if d in known and record_imports.live(known[d])}


def enqueue_due(*, now: datetime | None = None, intervals: dict[str, timedelta] | None = None,
                database_url: str | None = None) -> list[int]:
    """Queue and dispatch the pulls that are due (module docstring); returns the new job ids."""
    jobs = record_jobs.enqueue_due(pull_intervals() if intervals is None else intervals, now, database_url)
    for job in jobs:
        try:
            dispatch_pull(job, database_url)
        except Exception:  # noqa: BLE001 - the row is queued: the next tick queues it
            log.exception("could not queue record job %s", job.id)
    return [job.id for job in jobs]


def _orphaned_runs(database_url: str | None) -> list[int]:
    """Queued records refresh runs still running whose jobs all finished (their rescore was lost). A run
    without jobs is not one (``refresh-records`` runs its own in-process)."""
    runs, jobs = LeadRefreshRun.__table__, record_jobs.jobs_t
    mine = sa.select(jobs.c.id).where(jobs.c.refresh_run_id == runs.c.id)
    unfinished = mine.where(jobs.c.status.in_(("queued", "running")))
    with get_engine(database_url).connect() as conn:
        return list(conn.execute(sa.select(runs.c.id).where(
            runs.c.status == "running", runs.c.run_key.startswith("records:"),
            runs.c.started_at < record_runs.dead_before(), sa.exists(mine), ~sa.exists(unfinished))).scalars())


def tick(database_url: str | None = None, stopping: threading.Event | None = None) -> list[dict]:
    """A worker's periodic check: dead runs failed and their jobs requeued, then on SQLite every queued
    job run here (one at a time, until ``stopping``), on PostgreSQL every queued row's job queued again
    (a no-op while it waits: its queueing lock)."""
    record_runs.reap(database_url=database_url)
    outcomes = []
    if backend(database_url) == "procrastinate":
        for job in record_jobs.queued(database_url):
            dispatch_pull(job, database_url)
    else:
        while not (stopping and stopping.is_set()) and (job := record_jobs.claim_next(database_url)) is not None:
            outcome = pulls.pull_job(job.id, database_url, claimed=job,
                                     after=lambda run_id: dispatch_rescore(run_id, database_url))
            log.info("record job: %s", outcome)
            outcomes.append(outcome)
    for run_id in _orphaned_runs(database_url):
        dispatch_rescore(run_id, database_url)
    return outcomes


async def retry_stalled(app) -> list[int]:
    """Procrastinate jobs of workers silent for ``RECORD_DEAD_AFTER_SECONDS``, back in the queue."""
    from procrastinate import exceptions
    from procrastinate.jobs import Status

    seconds = lead_settings().record_dead_after_seconds
    retried = []
    for job in await app.job_manager.get_stalled_jobs(seconds_since_heartbeat=seconds):
        try:
            await app.job_manager.retry_job(job)
            retried.append(job.id)
        except exceptions.UniqueViolation:
            # its record job was requeued and queued again already (``tick``): that twin runs it; this
            # one ends, so that its dataset lock is free
            await app.job_manager.finish_job(job, Status.FAILED, delete_job=False)
        except Exception:  # noqa: BLE001 - another worker retried it first
            log.info("stalled job %s: not retried here", job.id, exc_info=True)
    return retried


async def serve_procrastinate(stopping: threading.Event, database_url: str | None = None, *,
                              wait: bool = True) -> None:
    """A Procrastinate worker in this process until ``stopping`` is set (``wait=False``: until the queue
    is empty), with the periodic ``tick`` and stalled-job retry beside it."""
    ensure_schema(database_url)
    settings = lead_settings()
    app = make_app(database_url)
    async with app.open_async():
        async def ticker():
            while not stopping.is_set():
                try:
                    await retry_stalled(app)
                    await asyncio.to_thread(tick, database_url, stopping)
                except Exception:  # noqa: BLE001 - the database is away: the next tick tries again
                    log.exception("records queue tick failed")
                await asyncio.sleep(settings.record_heartbeat_seconds)

        from procrastinate.worker import Worker

        worker = Worker(app, name="records", concurrency=1, wait=wait, install_signal_handlers=False,
                        update_heartbeat_interval=settings.record_heartbeat_seconds,
                        stalled_worker_timeout=settings.record_dead_after_seconds,
                        fetch_job_polling_interval=max(0.5, min(5.0, settings.record_heartbeat_seconds)))
        running = asyncio.create_task(worker.run())
        side = asyncio.create_task(ticker()) if wait else None
        while not running.done() and not stopping.is_set():
            await asyncio.sleep(0.2)
        # Procrastinate's graceful stop (the job under way finishes first). Its run() clears a stop asked
        # before it started, so a signal that came during start-up is asked again until the worker ends.
        while not running.done():
            worker.stop()
            await asyncio.wait({running}, timeout=1.0)
        [ended] = await asyncio.gather(running, return_exceptions=True)
        if isinstance(ended, Exception):
            log.error("the queue worker stopped: %s", ended, exc_info=ended)
        if side is not None:
            side.cancel()
            await asyncio.gather(side, return_exceptions=True)


def drain(database_url: str | None = None) -> None:
    """Run every queued job in this process until none is left (tests; a one-off catch-up)."""
    if backend(database_url) == "procrastinate":
        for job in record_jobs.queued(database_url):
            dispatch_pull(job, database_url)
        _run_to_end(lambda: serve_procrastinate(threading.Event(), database_url, wait=False))
    else:
        tick(database_url)


def _run_to_end(make) -> None:
    """Run the coroutine ``make()`` to its end: on this thread, or on a thread of its own when this thread
    already runs an event loop (a caller inside async code, or a test session driving a browser)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(make())
        return
    done: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(make())
        except BaseException as exc:  # noqa: BLE001 - raised again on the caller's thread
            done.append(exc)

    thread = threading.Thread(target=run, name="records-drain")
    thread.start()
    thread.join()
    if done:
        raise done[0]
