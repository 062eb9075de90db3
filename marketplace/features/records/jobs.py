"""The whole public-record refresh in one call: ``python -m marketplace refresh-records`` (the worker
instead queues one job per dataset, ``features/records/jobs_queue.py``, which share this module's ``records:<date>`` run key);
never inside the web server's processes.

A run claims a ``lead_refresh_runs`` row whose unique ``run_key`` is ``records:<Pacific date>`` (the
generated-lead refresh keys its rows by the bare date, so the two never collide): of several workers
starting at once exactly one inserts the key and pulls; the others skip. A failed run may be retried (the
retry takes over the failed row); ``force`` (the CLI) makes a key of its own.

The run then calls ``records.service_imports.refresh_public_records`` (every dataset of
``OPEN_DATA_DATASETS``, then each BatchData quick list, then the rescore), attaches the public-record leads
that the pull inserted (``leads.refresh_run_id`` is NULL, ``created_at`` at or after the run's start) to its
row, and, once committed, runs the saved-search alerts (``marketplace.service_alerts.match_refresh``) for them, as the
generated-lead refresh does.
"""

from __future__ import annotations

import logging
import uuid
from datetime import date, datetime

import sqlalchemy as sa

from marketplace.features.records.jobs_refresh import claim_run, notify_saved_searches, pacific_run_date, skipped
from marketplace.platform.models import Lead, LeadRefreshRun, utcnow

log = logging.getLogger("marketplace.records_refresh")

RUN_PREFIX = "records:"


def records_run_key(now: datetime, trigger: str = "schedule", force: bool = False) -> str:
    key = f"{RUN_PREFIX}{pacific_run_date(now)}"
    return f"{key}:{uuid.uuid4().hex[:8]}" if force else key


def run_records_refresh(trigger: str = "schedule", *, force: bool = False, now: datetime | None = None,
                        today: date | None = None, client=None, only=None, database_url: str | None = None) -> dict:
    """Today's records refresh, once. Returns {"status": completed|failed|skipped, "run_key", "run_id",
    "leads_added", "results": [...]} (``results``: ``refresh_public_records``'s summaries; ``only``: these
    dataset ids alone, for the explorer's "Run now")."""
    from marketplace.features.records.service_imports import refresh_public_records

    now = now or utcnow()
    run_key = records_run_key(now, trigger, force)
    engine, run_id = claim_run(run_key, now, trigger, database_url)
    if run_id is None:
        return skipped(run_key)
    runs, leads = LeadRefreshRun.__table__, Lead.__table__
    try:
        results = refresh_public_records(today, client=client, only=only, database_url=database_url)
    except Exception as exc:  # noqa: BLE001 - recorded on the run row; the worker retries
        log.exception("records refresh %s failed", run_key)
        with engine.begin() as conn:
            conn.execute(sa.update(runs).where(runs.c.id == run_id).values(
                status="failed", finished_at=utcnow(), error=f"{type(exc).__name__}: {exc}"[:2000]))
        return {"status": "failed", "run_key": run_key, "run_id": run_id, "error": str(exc)}
    failed = [r["dataset_id"] for r in results if r.get("status") == "failed"]
    with engine.begin() as conn:
        added = conn.execute(sa.update(leads).where(
            leads.c.property_id.is_not(None), leads.c.refresh_run_id.is_(None), leads.c.created_at >= now,
        ).values(refresh_run_id=run_id)).rowcount
        archived = next((r["rescore"]["archived"] for r in results if "rescore" in r), 0)
        conn.execute(sa.update(runs).where(runs.c.id == run_id).values(
            status="completed", finished_at=utcnow(), leads_added=added, leads_archived=archived,
            error=f"failed datasets: {', '.join(failed)}"[:2000] if failed else None))
    if added:
        notify_saved_searches(run_id, database_url)
    return {"status": "completed", "run_key": run_key, "run_id": run_id, "leads_added": added,
            "results": results}
