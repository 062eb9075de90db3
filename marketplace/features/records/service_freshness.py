"""The times a live dataset's freshness rests on (the rules are ``records.rules_freshness``):

- ``pull_marks(dataset_id)``: the watermark of its next incremental pull (the newest portal update time an
  ok API run read) and when its last full API read started;
- ``last_pulls()``: when each dataset's latest API pull started (the Sources panel's "last pull"; the next
  is that plus the dataset's ``pull_every_minutes``);
- ``lags(now)``: per dataset, p50 / p95 / max of the lag ``first_seen_at - portal_updated_at`` over the
  signals first seen in the last 30 days whose row the portal updated after LeadVault's first API pull of
  the dataset began (a row the portal last touched before LeadVault first looked measures the backlog of
  the first load, not how fresh a pull is). Rows without a portal update time are not counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from marketplace.features.records.rules_freshness import LAG_WINDOW, LagSummary, lag_summary
from marketplace.platform.db import read_scope
from marketplace.platform.models import DatasetRun, PropertySignal, utcnow

runs_t = DatasetRun.__table__
signals_t = PropertySignal.__table__


@dataclass(frozen=True)
class PullMarks:
    watermark: datetime | None      # the newest portal update time an ok API run of the dataset read
    last_full_at: datetime | None   # when its latest ok full API read started


def pull_marks(dataset_id: str, database_url: str | None = None) -> PullMarks:
    ok_api = sa.and_(runs_t.c.dataset_id == dataset_id, runs_t.c.mode == "api", runs_t.c.status == "ok")
    with read_scope(database_url) as session:
        conn = session.connection()
        watermark = conn.execute(sa.select(sa.func.max(runs_t.c.portal_updated_max)).where(ok_api)).scalar_one()
        last_full = conn.execute(sa.select(sa.func.max(runs_t.c.started_at)).where(
            ok_api, runs_t.c.full.is_(True))).scalar_one()
    return PullMarks(watermark, last_full)


def last_pulls(database_url: str | None = None) -> dict[str, datetime]:
    """When each dataset's latest API pull started (whatever its outcome)."""
    with read_scope(database_url) as session:
        rows = session.connection().execute(sa.select(runs_t.c.dataset_id, sa.func.max(runs_t.c.started_at))
                                            .where(runs_t.c.mode == "api").group_by(runs_t.c.dataset_id)).all()
    return {dataset_id: started for dataset_id, started in rows}


def lags(now: datetime | None = None, database_url: str | None = None) -> dict[str, LagSummary]:
    """The 30-day lag per dataset that has rows to rest it on (module docstring)."""
    now = now or utcnow()
    first_pull = (sa.select(sa.func.min(runs_t.c.started_at))
                  .where(runs_t.c.dataset_id == signals_t.c.dataset_id, runs_t.c.mode == "api")
                  .scalar_subquery())
    query = (sa.select(signals_t.c.dataset_id, signals_t.c.first_seen_at, signals_t.c.portal_updated_at)
             .where(signals_t.c.first_seen_at >= now - LAG_WINDOW, signals_t.c.portal_updated_at.is_not(None),
                    signals_t.c.portal_updated_at >= first_pull)
             .order_by(signals_t.c.dataset_id))
    pairs: dict[str, list[tuple[datetime, datetime]]] = {}
    with read_scope(database_url) as session:
        for dataset_id, seen, updated in session.connection().execute(query):
            pairs.setdefault(dataset_id, []).append((seen, updated))
    return {dataset_id: lag_summary(rows) for dataset_id, rows in pairs.items()}
