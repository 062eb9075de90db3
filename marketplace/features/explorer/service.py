"""Reads for the developer explorer (SPEC 6): who is a super admin, the
platform overview and the recent lead refresh runs. Each call opens its own
read (no write lock); Reflex states call them through ``run_blocking``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import select

from marketplace.platform.db import read_scope
from marketplace.platform.models import LeadRefreshRun
from marketplace.features.dashboard import service as dashboard


@dataclass(frozen=True)
class RefreshRunRow:
    run_key: str
    trigger: str
    status: str
    started_at: datetime
    leads_added: int
    leads_archived: int
    error: str | None



def overview() -> dashboard.PlatformOverview:
    with read_scope() as session:
        return dashboard.platform_overview(session)


def recent_refresh_runs(limit: int = 5) -> list[RefreshRunRow]:
    with read_scope() as session:
        runs = session.exec(select(LeadRefreshRun).order_by(LeadRefreshRun.started_at.desc()).limit(limit))
        return [
            RefreshRunRow(run.run_key, run.trigger, run.status, run.started_at, run.leads_added,
                          run.leads_archived, run.error)
            for run in runs
        ]
