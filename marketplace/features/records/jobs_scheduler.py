"""APScheduler running the daily refresh at 08:00 America/Los_Angeles.

Started from a Reflex lifespan task, so every backend worker starts one; the
refresh itself claims a unique run key per Pacific date, so only one of them
does the work. On start-up a worker also catches up when today's 08:00 has
passed without a completed run (the app was down at eight). A failed run is
retried every ``LEAD_REFRESH_RETRY_MINUTES`` (15), at most 4 times a day.
``LEAD_REFRESH_SCHEDULER=off`` disables the scheduler (tests do).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.date import DateTrigger
from sqlmodel import select

from marketplace.platform.config import lead_settings
from marketplace.platform.db import session_scope
from marketplace.features.marketplace import PACIFIC, REFRESH_HOUR
from marketplace.features.records.jobs_refresh import pacific_run_date, run_refresh
from marketplace.platform.models import LeadRefreshRun, utcnow

log = logging.getLogger("marketplace.scheduler")
MAX_RETRIES = 4


def scheduler_enabled() -> bool:
    return lead_settings().refresh_scheduler


def retry_minutes() -> int:
    return lead_settings().refresh_retry_minutes


def due_for_catch_up(now=None) -> bool:
    """True when today's 08:00 Pacific has passed and no run completed today."""
    now = now or utcnow()
    local = now.astimezone(PACIFIC)
    if local.hour < REFRESH_HOUR:
        return False
    with session_scope() as session:
        row = session.exec(select(LeadRefreshRun).where(LeadRefreshRun.run_key == pacific_run_date(now))).first()
    return row is None or row.status == "failed"


class DailyRefresh:
    def __init__(self) -> None:
        self.scheduler = AsyncIOScheduler(timezone=PACIFIC)
        self.retries = 0

    async def run(self, trigger: str = "schedule") -> None:
        result = await asyncio.to_thread(run_refresh, trigger)
        log.info("lead refresh: %s", result)
        if result["status"] == "failed" and self.retries < MAX_RETRIES:
            self.retries += 1
            when = utcnow() + timedelta(minutes=retry_minutes())
            self.scheduler.add_job(self.run, DateTrigger(run_date=when), kwargs={"trigger": "retry"})
        elif result["status"] != "failed":
            self.retries = 0

    async def expire_webhook_data(self) -> None:
        """The webhook API's daily expiry (request log, refusal counts, idempotency keys;
        ``scrape.service_webhooks.expire``): idempotent, so every worker may run it."""
        from marketplace.features.scrape import service_webhooks as webhooks

        try:
            log.info("webhook data expired: %s", await asyncio.to_thread(webhooks.expire))
        except Exception:  # noqa: BLE001 - retried tomorrow
            log.exception("webhook data expiry failed")

    def start(self) -> None:
        self.scheduler.add_job(self.expire_webhook_data, CronTrigger(hour=3, minute=30, timezone=PACIFIC),
                               id="daily-webhook-expiry", misfire_grace_time=3600, coalesce=True, max_instances=1)
        self.scheduler.add_job(
            self.run, CronTrigger(hour=REFRESH_HOUR, minute=0, timezone=PACIFIC), id="daily-lead-refresh",
            misfire_grace_time=3600, coalesce=True, max_instances=1,
        )
        self.scheduler.start()
        if due_for_catch_up():
            self.scheduler.add_job(self.run, DateTrigger(run_date=utcnow() + timedelta(seconds=5)),
                                   kwargs={"trigger": "catch-up"})

    def stop(self) -> None:
        self.scheduler.shutdown(wait=False)


@contextlib.asynccontextmanager
async def refresh_scheduler_lifespan():
    """Reflex lifespan task: start the scheduler with the app, stop it after."""
    if not scheduler_enabled():
        yield
        return
    daily = DailyRefresh()
    try:
        daily.start()
    except Exception:  # noqa: BLE001 - the site must come up even if the scheduler cannot
        log.exception("could not start the lead refresh scheduler")
        yield
        return
    try:
        yield
    finally:
        daily.stop()
