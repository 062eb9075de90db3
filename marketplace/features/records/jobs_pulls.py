"""The jobs the records queue runs (``features/records/jobs_queue.py``), the same on every backend.

- ``pull_job(job_id)``: one dataset's pull (a ``record_jobs`` row): dead runs reaped first, the row taken
  (``record_jobs.start``: nobody else runs it), the dataset fetched and ingested through
  ``public_records.ingest`` under a heartbeat, the outcome recorded. A pull queued by its dataset's interval
  (trigger ``interval``) is incremental where the portal allows it (``records.rules_freshness.plan_pull``: only the
  rows the portal updated since the newest update time read, ``full=False``, closing nothing; a status list
  read whole when its last full read is over 24 hours old); the daily refresh and "Run now" read whole.
  Every open-data pull stamps each record with its row's portal update time where the portal gives one. A "Run now" job gets a refresh run of
  its own (``lead_refresh_runs``, so saved-search alerts fire for its new leads); the daily refresh's jobs
  share the day's. Returns ``{"job_id", "dataset_id", "status", "error", "refresh_run_id"}`` or None
  when the job was not queued.
- ``rescore_run(refresh_run_id)``: after the last pull of a refresh run, ``public_records.rescore_leads``
  once, the run's new leads attached to it, the run completed and its saved-search alerts sent.
"""

from __future__ import annotations

import logging
from datetime import date
from typing import Any

import sqlalchemy as sa

from marketplace.features.records import service_titles as record_titles
from marketplace.platform.config import lead_settings
from marketplace.features.records import rules_freshness as freshness
from marketplace.platform.db import get_engine
from marketplace.features.records.jobs_heartbeat import heartbeat
from marketplace.features.records.jobs import RUN_PREFIX, records_run_key
from marketplace.features.records.jobs_refresh import claim_run, notify_saved_searches
from marketplace.platform.models import Lead, LeadRefreshRun, utcnow
from marketplace.features.records import (
    service as public_records,
    service_freshness as record_freshness,
    service_imports as record_imports,
    service_jobs as record_jobs,
        service_runs as record_runs,
)

log = logging.getLogger("marketplace.record_pulls")


def _known() -> dict[str, Any]:
    known = dict(record_imports.datasets())
    if lead_settings().batchdata_configured:
        try:
            known.update({d.id: d for d in record_imports.batchdata_datasets()})
        except Exception:  # noqa: BLE001 - a bad BATCHDATA_LISTS: the pull reports the dataset unknown
            pass
    return known


def _records(dataset: Any, day: date, updates: Any = None):
    """The dataset's live records, fetched lazily: a reader failing at once fails inside the ingestion,
    which records the failed run."""
    if getattr(dataset, "quick_list", None):
        from marketplace.features.scrape import fetch_batchdata

        yield from fetch_batchdata([dataset.quick_list], location=lead_settings().batchdata_location, today=day)
    else:
        from marketplace.features.records import source_opendata as opendata

        yield from opendata.fetch(dataset, today=day, updates=updates)


def _plan(dataset: Any, trigger: str, now, database_url: str | None) -> tuple[freshness.PullPlan, Any]:
    """How this pull reads the dataset, and the ``Updates`` to fetch with (None: BatchData, or a portal
    without row update times)."""
    if getattr(dataset, "quick_list", None):
        return freshness.PullPlan(True, None, "a commercial list is read whole"), None
    from marketplace.features.records import source_opendata as opendata

    field = opendata.update_field(dataset)
    marks = record_freshness.pull_marks(dataset.id, database_url)
    plan = freshness.plan_pull(trigger=trigger, update_field=field, watermark=marks.watermark,
                               status_list=dataset.status_list, last_full_at=marks.last_full_at, now=now)
    return plan, (opendata.Updates(field, plan.since) if field else None)


def pull_dataset(dataset_id: str, *, today: date | None = None, database_url: str | None = None,
                 trigger: str = "manual") -> dict:
    """Fetch and ingest one enabled live dataset (whole, or incrementally for an ``interval`` pull: module
    docstring). Returns the run's summary dict (with ``"full"``), or {"dataset_id", "status":
    "failed"|"skipped", "error"|"reason"}."""
    known = _known()
    dataset = known.get(dataset_id)
    enabled = dataset_id in lead_settings().open_data_datasets or getattr(dataset, "quick_list", None)
    if dataset is None or not enabled:
        return {"dataset_id": dataset_id, "status": "skipped", "reason": "the dataset is no longer enabled"}
    if not (record_imports.live(dataset) or getattr(dataset, "quick_list", None)):
        return {"dataset_id": dataset_id, "status": "skipped", "reason": "published only as a download"}
    retrieved_at = utcnow()
    day = today or retrieved_at.date()
    try:
        plan, updates = _plan(dataset, trigger, retrieved_at, database_url)
        log.info("records pull of %s: %s", dataset_id, plan.reason)
        summary = public_records.ingest(dataset, _records(dataset, day, updates), mode="api",
                                        retrieved_at=retrieved_at, full=plan.full, today=day,
                                        titles=record_titles.dataset_titles(known.values()), database_url=database_url)
    except Exception as exc:  # noqa: BLE001 - recorded on the run and the job
        log.warning("records pull of %s failed: %s", dataset_id, exc)
        return {"dataset_id": dataset_id, "status": "failed", "error": f"{type(exc).__name__}: {exc}"}
    return {**summary.as_dict(), "full": plan.full}


def pull_job(job_id: int, database_url: str | None = None, after=None,
             claimed: record_jobs.JobRow | None = None) -> dict | None:
    """Run queued job ``job_id`` (module docstring; ``claimed``: already taken by ``record_jobs.claim_next``).
    ``after(refresh_run_id)`` is called when it was the last unfinished job of its refresh run (the queue
    then runs ``rescore_run``)."""
    record_runs.reap(database_url=database_url)
    job = claimed or record_jobs.start(job_id, database_url)
    if job is None:
        return None
    refresh_run_id = job.refresh_run_id
    if refresh_run_id is None:  # a "Run now": a refresh run of its own
        now = utcnow()
        _, refresh_run_id = claim_run(records_run_key(now, job.trigger, force=True), now, job.trigger, database_url)
        record_jobs.set_refresh_run(job.id, refresh_run_id, database_url)
    status, error, run_id = "failed", None, None
    try:
        with heartbeat([job.dataset_id], job.id, database_url):
            result = pull_dataset(job.dataset_id, database_url=database_url, trigger=job.trigger)
        status = "ok" if result.get("status") == "ok" else "failed"
        run_id, error = result.get("run_id"), result.get("error") or result.get("reason")
    except Exception as exc:  # noqa: BLE001 - recorded on the job; the worker goes on
        log.exception("record job %s failed", job.id)
        error = f"{type(exc).__name__}: {exc}"
    record_jobs.finish(job.id, status, run_id, error, database_url)
    if after is not None and record_jobs.unfinished_in_run(refresh_run_id, database_url) == 0:
        after(refresh_run_id)
    return {"job_id": job.id, "dataset_id": job.dataset_id, "status": status, "error": error,
            "refresh_run_id": refresh_run_id}


def rescore_run(refresh_run_id: int, *, today: date | None = None, database_url: str | None = None) -> dict:
    """The rescore after a refresh run's pulls (module docstring); skipped when the run is no longer
    running (another worker completed it) or still has jobs to run."""
    runs, leads = LeadRefreshRun.__table__, Lead.__table__
    engine = get_engine(database_url)
    with engine.connect() as conn:
        run = conn.execute(sa.select(runs).where(runs.c.id == refresh_run_id)).first()
    if run is None or run.status != "running" or not run.run_key.startswith(RUN_PREFIX):
        return {"status": "skipped", "refresh_run_id": refresh_run_id}
    if record_jobs.unfinished_in_run(refresh_run_id, database_url):
        return {"status": "skipped", "refresh_run_id": refresh_run_id, "reason": "pulls still queued"}
    day = today or utcnow().date()
    try:
        titles = record_titles.dataset_titles(_known().values())
        rescore = public_records.rescore_leads(day, titles=titles, database_url=database_url)
    except Exception as exc:  # noqa: BLE001 - recorded on the run; the next refresh rescores again
        log.exception("rescore of records run %s failed", refresh_run_id)
        with engine.begin() as conn:
            conn.execute(sa.update(runs).where(runs.c.id == refresh_run_id).values(
                status="failed", finished_at=utcnow(), error=f"{type(exc).__name__}: {exc}"[:2000]))
        return {"status": "failed", "refresh_run_id": refresh_run_id, "error": str(exc)}
    jobs_t = record_jobs.jobs_t
    with engine.begin() as conn:
        failed = conn.execute(sa.select(jobs_t.c.dataset_id).where(
            jobs_t.c.refresh_run_id == refresh_run_id, jobs_t.c.status == "failed")).scalars().all()
        added = conn.execute(sa.update(leads).where(
            leads.c.property_id.is_not(None), leads.c.refresh_run_id.is_(None), leads.c.created_at >= run.started_at,
        ).values(refresh_run_id=refresh_run_id)).rowcount
        conn.execute(sa.update(runs).where(runs.c.id == refresh_run_id, runs.c.status == "running").values(
            status="completed", finished_at=utcnow(), leads_added=added, leads_archived=rescore["archived"],
            error=f"failed datasets: {', '.join(sorted(set(failed)))}"[:2000] if failed else None))
    if added:
        notify_saved_searches(refresh_run_id, database_url)
    return {"status": "completed", "refresh_run_id": refresh_run_id, "leads_added": added, "rescore": rescore}
