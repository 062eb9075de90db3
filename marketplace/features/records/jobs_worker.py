"""The records worker: ``python -m marketplace worker``.

A process of its own, so that pulling a large public-record dataset never slows a visitor: the web server's
processes never fetch or ingest records. ``make run`` starts it beside the server only when something is
configured to pull (``OPEN_DATA_DATASETS``, or BatchData's key, ``BATCHDATA_LISTS`` and
``BATCHDATA_LOCATION``); otherwise ``--if-configured`` makes it exit at once and ``make run`` stays offline.

- The work is jobs on the records queue (``features/records/jobs_queue.py``): on PostgreSQL a Procrastinate worker, and any
  number of these processes on any number of machines share the jobs (never two pulls of one dataset at
  once); on SQLite this process runs the queued jobs itself, one at a time.
- APScheduler (a background scheduler in Pacific time) runs ``queue.enqueue_daily`` at 8:00
  America/Los_Angeles: the day's unique ``records:<date>`` run, claimed by one worker, queues one job per
  configured dataset, then the rescore. On start-up it catches up when today's 8:00 has passed without a
  completed records run (a failed one is queued again).
- Every ``PULL_CHECK_SECONDS`` (30) it queues the pulls whose dataset's ``pull_every_minutes`` has passed
  since its last pull (``queue.enqueue_due``: incremental where the portal allows it; one job per dataset
  per interval however many workers ask at once).
- Every ``RECORD_HEARTBEAT_SECONDS`` (on SQLite every ``record_jobs.POLL_SECONDS``, 2, when it also takes
  the queued jobs) the worker's tick fails dead runs (no heartbeat for ``RECORD_DEAD_AFTER_SECONDS``) and
  requeues their jobs, and on PostgreSQL retries the jobs of stalled workers.
- SIGTERM / SIGINT: no new job starts, the pull under way finishes its dataset run, then the process exits
  0. A worker killed harder leaves its run to the next worker's tick: failed within a minute, retried.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from datetime import timedelta

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger

from marketplace.platform.config import lead_settings
from marketplace.features.marketplace import PACIFIC, REFRESH_HOUR
from marketplace.features.records import jobs_queue as queue
from marketplace.features.records.jobs import records_run_key
from marketplace.platform.models import utcnow
from marketplace.features.records.service_jobs import POLL_SECONDS

log = logging.getLogger("marketplace.worker")
PULL_CHECK_SECONDS = 30  # how often the worker looks for datasets whose pull interval has passed


def records_due(now=None, database_url: str | None = None) -> bool:
    """True when today's 8:00 Pacific has passed and no records run completed today."""
    import sqlalchemy as sa

    from marketplace.platform.db import read_scope
    from marketplace.platform.models import LeadRefreshRun

    now = now or utcnow()
    if now.astimezone(PACIFIC).hour < REFRESH_HOUR:
        return False
    runs = LeadRefreshRun.__table__
    with read_scope(database_url) as session:
        status = session.connection().execute(
            sa.select(runs.c.status).where(runs.c.run_key == records_run_key(now))).scalar_one_or_none()
    return status is None or status == "failed"


class RecordsWorker:
    def __init__(self, database_url: str | None = None) -> None:
        self.database_url = database_url
        self.backend = queue.backend(database_url)
        self.scheduler = BackgroundScheduler(timezone=PACIFIC)
        self.stopping = threading.Event()

    def enqueue_daily(self, trigger: str = "schedule") -> dict:
        if self.stopping.is_set():
            return {"status": "skipped", "reason": "stopping"}
        result = queue.enqueue_daily(trigger, database_url=self.database_url)
        log.info("records refresh: %s", result)
        return result

    def enqueue_due(self) -> None:
        if self.stopping.is_set():
            return
        try:
            jobs = queue.enqueue_due(database_url=self.database_url)
        except Exception:  # noqa: BLE001 - the database is away: the next check tries again
            log.exception("records interval check failed")
            return
        if jobs:
            log.info("records pulls due: jobs %s", jobs)

    def tick(self) -> None:
        """SQLite: reap, then run the queued jobs here (PostgreSQL ticks beside its Procrastinate worker)."""
        try:
            queue.tick(self.database_url, self.stopping)
        except Exception:  # noqa: BLE001 - the database is away: the next tick tries again
            log.exception("records queue tick failed")

    def start(self) -> None:
        if self.backend == "inline":
            every = min(POLL_SECONDS, lead_settings().record_heartbeat_seconds)
            self.scheduler.add_job(self.tick, IntervalTrigger(seconds=every),
                                   id="record-jobs", max_instances=1, coalesce=True)
        self.scheduler.add_job(self.enqueue_due, IntervalTrigger(seconds=PULL_CHECK_SECONDS),
                               id="record-pulls-due", max_instances=1, coalesce=True)
        self.scheduler.add_job(self.enqueue_daily, CronTrigger(hour=REFRESH_HOUR, minute=0, timezone=PACIFIC),
                               id="daily-records-refresh", misfire_grace_time=3600, coalesce=True, max_instances=1)
        self.scheduler.start()
        if records_due(database_url=self.database_url):
            self.scheduler.add_job(self.enqueue_daily, DateTrigger(run_date=utcnow() + timedelta(seconds=1)),
                                   kwargs={"trigger": "catch-up"})

    def stop(self) -> None:
        self.stopping.set()
        self.scheduler.shutdown(wait=True)  # the job under way finishes; no new one starts
        queue.close_apps()

    def serve(self) -> None:
        """Run until SIGTERM or SIGINT."""
        def _stop(signum, frame):  # noqa: ARG001
            log.info("worker: signal %s, stopping after the job under way", signum)
            self.stopping.set()

        signal.signal(signal.SIGTERM, _stop)
        signal.signal(signal.SIGINT, _stop)
        if self.backend == "procrastinate":
            queue.ensure_schema(self.database_url)
        self.start()
        log.info("records worker started (%s queue): daily at %02d:00 America/Los_Angeles", self.backend,
                 REFRESH_HOUR)
        if self.backend == "procrastinate":
            asyncio.run(queue.serve_procrastinate(self.stopping, self.database_url))
            if not self.stopping.is_set():  # the queue worker died (the database went away): exit 1 and be restarted
                self.stop()
                log.error("records worker stopped: its queue worker ended")
                raise SystemExit(1)
        while not self.stopping.wait(1.0):
            pass
        self.stop()
        log.info("records worker stopped")
