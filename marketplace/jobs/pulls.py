"""The jobs the records queue runs (``jobs/queue.py``), the same on every backend.

- ``pull_job(job_id)``: one dataset's pull (a ``record_jobs`` row): dead runs reaped first, the row taken
  (``record_jobs.start``: nobody else runs it), the dataset fetched and ingested through
  ``public_records.ingest`` under a heartbeat, the outcome recorded. A "Run now" job gets a refresh run of
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

from marketplace.config import lead_settings
from marketplace.db import get_engine
from marketplace.jobs.heartbeat import heartbeat
from marketplace.jobs.records import RUN_PREFIX, records_run_key
from marketplace.jobs.refresh import claim_run, notify_saved_searches
from marketplace.models import Lead, LeadRefreshRun, utcnow
from marketplace.services import public_records, record_imports, record_jobs, record_leads, record_runs

log = logging.getLogger("marketplace.record_pulls")


def _known() -> dict[str, Any]:
    known = dict(record_imports.datasets())
    if lead_settings().batchdata_configured:
        try:
            known.update({d.id: d for d in record_imports.batchdata_datasets()})
        except Exception:  # noqa: BLE001 - a bad BATCHDATA_LISTS: the pull reports the dataset unknown
            pass
    return known


def _records(dataset: Any, day: date):
    """The dataset's live records, fetched lazily: a reader failing at once fails inside the ingestion,
    which records the failed run."""
    if getattr(dataset, "quick_list", None):
        from marketplace.sources.batchdata import fetch_batchdata

        yield from fetch_batchdata([dataset.quick_list], location=lead_settings().batchdata_location, today=day)
    else:
        from marketplace.sources import opendata

        yield from opendata.fetch(dataset, today=day)


def pull_dataset(dataset_id: str, *, today: date | None = None, database_url: str | None = None) -> dict:
    """Fetch and ingest one enabled live dataset (full). Returns the run's summary dict, or
    {"dataset_id", "status": "failed"|"skipped", "error"|"reason"}."""
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
        summary = public_records.ingest(dataset, _records(dataset, day), mode="api", retrieved_at=retrieved_at,
                                        full=True, today=day, titles=record_leads.dataset_titles(known.values()),
                                        database_url=database_url)
    except Exception as exc:  # noqa: BLE001 - recorded on the run and the job
        log.warning("records pull of %s failed: %s", dataset_id, exc)
        return {"dataset_id": dataset_id, "status": "failed", "error": f"{type(exc).__name__}: {exc}"}
    return summary.as_dict()


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
        _, refresh_run_id = claim_run(records_run_key(now, "manual", force=True), now, "manual", database_url)
        record_jobs.set_refresh_run(job.id, refresh_run_id, database_url)
    status, error, run_id = "failed", None, None
    try:
        with heartbeat([job.dataset_id], job.id, database_url):
            result = pull_dataset(job.dataset_id, database_url=database_url)
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
        titles = record_leads.dataset_titles(_known().values())
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
