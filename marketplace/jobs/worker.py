"""The records worker: ``python -m marketplace worker`` (issue 23, item 7).

A process of its own, so that pulling a large public-record dataset never slows a visitor: the web server's
processes never fetch or ingest records. ``make run`` starts it beside the server only when something is
configured to pull (``OPEN_DATA_DATASETS``, or BatchData's key, ``BATCHDATA_LISTS`` and
``BATCHDATA_LOCATION``); otherwise ``--if-configured`` makes it exit at once and ``make run`` stays offline.

- APScheduler (a background scheduler in Pacific time) runs ``jobs.records.run_records_refresh`` daily at
  8:00 America/Los_Angeles; the run's unique ``records:<date>`` row makes two workers never both pull.
  On start-up it catches up when today's 8:00 has passed without a completed records run; a failed run is
  retried every ``LEAD_REFRESH_RETRY_MINUTES`` (15), at most 4 times a day.
- Every ``record_jobs.POLL_SECONDS`` (2) it runs the explorer's queued "Run now" jobs
  (``services.record_jobs``), one pull at a time: while the daily pull runs, the jobs stay queued.
- SIGTERM / SIGINT: the scheduler stops taking jobs, a pull under way finishes its dataset run (ingestion
  commits batch by batch; a worker killed harder leaves a run "running" that the next one takes over after
  ``public_records.RUN_STALE_AFTER``), then the process exits 0.
"""

from __future__ import annotations

import logging
import signal
import threading
from datetime import timedelta

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger

from marketplace.config import lead_settings
from marketplace.core.marketplace import PACIFIC, REFRESH_HOUR
from marketplace.jobs.records import records_run_key, run_next_job, run_records_refresh
from marketplace.models import utcnow

log = logging.getLogger("marketplace.worker")
MAX_RETRIES = 4


def records_due(now=None, database_url: str | None = None) -> bool:
    """True when today's 8:00 Pacific has passed and no records run completed today."""
    import sqlalchemy as sa

    from marketplace.db import read_scope
    from marketplace.models import LeadRefreshRun

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
        self.scheduler = BackgroundScheduler(timezone=PACIFIC)
        self.stopping = threading.Event()
        self.pull_lock = threading.Lock()  # one pull at a time: the daily run and a "Run now" never race
        self.retries = 0

    def run_once(self, trigger: str = "schedule") -> dict:
        if self.stopping.is_set():
            return {"status": "skipped", "reason": "stopping"}
        with self.pull_lock:
            result = run_records_refresh(trigger, database_url=self.database_url)
        log.info("records refresh: %s", {k: v for k, v in result.items() if k != "results"})
        if result["status"] == "failed" and self.retries < MAX_RETRIES and not self.stopping.is_set():
            self.retries += 1
            when = utcnow() + timedelta(minutes=lead_settings().refresh_retry_minutes)
            self.scheduler.add_job(self.run_once, DateTrigger(run_date=when), kwargs={"trigger": "retry"})
        elif result["status"] != "failed":
            self.retries = 0
        return result

    def poll_jobs(self) -> None:
        """The explorer's "Run now" jobs (``services.record_jobs``), one after another until none waits."""
        while not self.stopping.is_set():
            if not self.pull_lock.acquire(blocking=False):
                return  # the daily pull is under way: the jobs stay queued until it ends
            try:
                outcome = run_next_job(self.database_url)
            except Exception:  # noqa: BLE001 - the database is away: the next poll tries again
                log.exception("polling record jobs failed")
                return
            finally:
                self.pull_lock.release()
            if outcome is None:
                return
            log.info("record job: %s", outcome)

    def start(self) -> None:
        from marketplace.services.record_jobs import POLL_SECONDS

        self.scheduler.add_job(self.poll_jobs, IntervalTrigger(seconds=POLL_SECONDS), id="record-jobs",
                               max_instances=1, coalesce=True)
        self.scheduler.add_job(self.run_once, CronTrigger(hour=REFRESH_HOUR, minute=0, timezone=PACIFIC),
                               id="daily-records-refresh", misfire_grace_time=3600, coalesce=True, max_instances=1)
        self.scheduler.start()
        if records_due(database_url=self.database_url):
            self.scheduler.add_job(self.run_once, DateTrigger(run_date=utcnow() + timedelta(seconds=1)),
                                   kwargs={"trigger": "catch-up"})

    def stop(self) -> None:
        self.stopping.set()
        self.scheduler.shutdown(wait=True)  # the job under way finishes; no new one starts

    def serve(self) -> None:
        """Run until SIGTERM or SIGINT."""
        def _stop(signum, frame):  # noqa: ARG001
            log.info("worker: signal %s, stopping after the job under way", signum)
            self.stopping.set()

        signal.signal(signal.SIGTERM, _stop)
        signal.signal(signal.SIGINT, _stop)
        self.start()
        log.info("records worker started: daily at %02d:00 America/Los_Angeles", REFRESH_HOUR)
        while not self.stopping.wait(1.0):
            pass
        self.stop()
        log.info("records worker stopped")
