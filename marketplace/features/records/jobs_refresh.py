"""The daily lead refresh (SPEC: 8:00 AM Pacific).

A run pulls ``LEAD_REFRESH_COUNT`` (500) new leads from the configured source,
clears ``is_new`` on every older lead (not public-record leads: theirs says their record first appeared
in its dataset within seven days, ``records.rules_signal_currency``), archives (``is_active = false``) leads
older than ``LEAD_MAX_AGE_DAYS`` (30) (public-record leads excepted: they are archived when their
last open signal closes, ``records.service``) and records itself in
``lead_refresh_runs``. The Pacific date is the run's unique ``run_key``: of
several workers (or a manual run) starting at once exactly one inserts the key
and does the work; the others see it and skip. A failed run changes no lead,
is recorded as failed, and may be retried (the retry claims the failed row).
Unlocked leads stay readable by their owners after archiving: the property page
reads through ``user_leads`` and ignores ``is_active``.

The leads a run inserts carry its id (``leads.refresh_run_id``). After the run's
transaction commits, ``marketplace.service_alerts.match_refresh`` notifies the users whose
saved searches match them; a failure there is logged and never fails the
refresh (the alerts are idempotent: ``python -m marketplace match-alerts RUN_ID``
may run them again).
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from marketplace.platform.config import get_settings, lead_settings
from marketplace.features.marketplace import SearchCriteria
from marketplace.platform.leads import is_generated
from marketplace.features.marketplace import PACIFIC
from marketplace.platform.db import get_engine
from marketplace.platform.models import Lead, LeadRefreshRun, utcnow
from marketplace.features.marketplace import rebuild_facets
from marketplace.features.scrape import SourceError
from marketplace.features.property import generated_headline, with_headlines

log = logging.getLogger("marketplace.refresh")


def refresh_count() -> int:
    return lead_settings().refresh_count


def max_age_days() -> int:
    return lead_settings().max_age_days


def pacific_run_date(now: datetime) -> str:
    return now.astimezone(PACIFIC).date().isoformat()


def _claim(conn, run_key: str, now: datetime, trigger: str) -> int | None:
    """Insert the run row, or take over a failed one; None if someone else has it."""
    runs = LeadRefreshRun.__table__
    try:
        with conn.begin_nested():
            return conn.execute(
                sa.insert(runs)
                .values(run_key=run_key, run_date=now.astimezone(PACIFIC).date(), trigger=trigger,
                        status="running", started_at=now)
                .returning(runs.c.id)
            ).scalar_one()
    except IntegrityError:
        pass
    return conn.execute(
        sa.update(runs)
        .where(runs.c.run_key == run_key, runs.c.status == "failed")
        .values(status="running", started_at=now, finished_at=None, error=None, trigger=trigger)
        .returning(runs.c.id)
    ).scalar_one_or_none()


def claim_run_in(conn, run_key: str, now: datetime, trigger: str) -> int | None:
    """``claim_run`` in the caller's transaction (the records queue claims the day's run and queues its
    jobs in one)."""
    return _claim(conn, run_key, now, trigger)


def claim_run(run_key: str, now: datetime, trigger: str, database_url: str | None = None):
    """(engine, the run row's id), the id None when another worker or run has the key."""
    engine = get_engine(database_url)
    with engine.begin() as conn:
        return engine, _claim(conn, run_key, now, trigger)


def skipped(run_key: str) -> dict:
    return {"status": "skipped", "run_key": run_key, "reason": "already ran today"}


def _unseen(conn, records: list[dict]) -> list[dict]:
    """Drop records whose source id is already stored (a provider repeats listings)."""
    leads = Lead.__table__
    ids = [r["external_id"] for r in records if r.get("external_id")]
    seen: set[str] = set()
    for start in range(0, len(ids), 500):
        seen.update(conn.execute(sa.select(leads.c.external_id).where(leads.c.external_id.in_(ids[start:start + 500]))).scalars())
    fresh, batch_ids = [], set()
    for record in records:
        key = record.get("external_id")
        if key and (key in seen or key in batch_ids):
            continue
        batch_ids.add(key)
        fresh.append(record)
    return fresh


HEADLINE_COLUMNS = ("id", "address", "city", "state", "zip_code", "latitude", "longitude", "square_footage", "beds",
                    "baths", "asking_price", "zestimate", "arv", "rehab_estimate", "created_at", "raw_data")


def backfill_headlines(conn) -> int:
    """Inside the caller's transaction: the headline (marketplace.rules_headline) of every active generated lead stored
    before it existed (``roi_basis`` ''), from its synthetic comps; in bulk (one read, one executemany)."""
    leads = Lead.__table__
    rows = conn.execute(sa.select(*[leads.c[name] for name in HEADLINE_COLUMNS])
                        .where(leads.c.is_active == sa.true(), leads.c.roi_basis == "",
                               leads.c.property_id.is_(None))).all()
    updates = []
    for row in rows:
        record = dict(row._mapping)
        if is_generated(record["raw_data"]):
            updates.append({"lead_id": record["id"], **generated_headline(record)})
    if updates:
        conn.execute(sa.update(leads).where(leads.c.id == sa.bindparam("lead_id")),
                     updates)
    return len(updates)


def _insert_ignoring_duplicates(conn):
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    return insert(Lead.__table__).on_conflict_do_nothing()


def run_refresh(
    trigger: str = "schedule",
    force: bool = False,
    now: datetime | None = None,
    source=None,
    count: int | None = None,
    database_url: str | None = None,
) -> dict:
    """Run today's refresh once. Returns a summary dict (status: completed, skipped or failed)."""
    from marketplace.features.scrape import get_source

    now = now or utcnow()
    run_key = pacific_run_date(now) if not force else f"{pacific_run_date(now)}:{trigger}:{uuid.uuid4().hex[:8]}"
    if source is None and get_settings().is_production and lead_settings().source == "builtin":
        # The built-in generator makes demo data, never sold: production's leads come from the records worker.
        return {"status": "skipped", "run_key": run_key, "reason": "the built-in generator is demo data"}
    engine, run_id = claim_run(run_key, now, trigger, database_url)
    if run_id is None:
        return skipped(run_key)

    runs, leads = LeadRefreshRun.__table__, Lead.__table__
    try:
        records = (source or get_source()).search(SearchCriteria(count=count or refresh_count()))
        for record in records:
            record["created_at"] = now
            record["is_new"] = True
            record["refresh_run_id"] = run_id
        with_headlines(records)
        with engine.begin() as conn:
            records = _unseen(conn, records)
            backfill_headlines(conn)
            # Public-record leads' New is their records' (records.rules_signal_currency, set by record_leads).
            conn.execute(sa.update(leads).where(leads.c.is_new == sa.true(), leads.c.property_id.is_(None))
                         .values(is_new=False))
            if records:
                conn.execute(_insert_ignoring_duplicates(conn), records)
            archived = conn.execute(
                sa.update(leads)
                .where(leads.c.is_active == sa.true(), leads.c.created_at < now - timedelta(days=max_age_days()),
                       leads.c.property_id.is_(None))
                .values(is_active=False)
            ).rowcount
            rebuild_facets(conn)
            conn.execute(
                sa.update(runs).where(runs.c.id == run_id).values(
                    status="completed", finished_at=utcnow(), leads_added=len(records), leads_archived=archived
                )
            )
    except (SourceError, ValueError, sa.exc.SQLAlchemyError) as exc:
        log.exception("lead refresh %s failed", run_key)
        with engine.begin() as conn:
            conn.execute(
                sa.update(runs).where(runs.c.id == run_id).values(status="failed", finished_at=utcnow(), error=str(exc)[:2000])
            )
        return {"status": "failed", "run_key": run_key, "error": str(exc)}
    if records:
        notify_saved_searches(run_id, database_url)
    return {"status": "completed", "run_key": run_key, "leads_added": len(records), "leads_archived": archived}


def notify_saved_searches(run_id: int, database_url: str | None = None) -> dict | None:
    """Saved-search alerts for a committed run; any failure is logged, never raised."""
    from marketplace.features.marketplace import match_refresh

    try:
        return match_refresh(run_id, database_url=database_url)
    except Exception:  # noqa: BLE001 - the refresh itself succeeded; alerts can be re-run
        log.exception("saved-search alerts for refresh run %s failed", run_id)
        return None
