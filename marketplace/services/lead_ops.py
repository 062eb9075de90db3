"""Operator actions on the lead database (explorer buttons and CLI)."""

from __future__ import annotations

from sqlmodel import Session, select

from marketplace.jobs.refresh import run_refresh
from marketplace.models import LeadRefreshRun


def refresh_now() -> dict:
    """SPEC ``fetch-leads``: a manual refresh, recorded beside the daily one."""
    return run_refresh(trigger="manual", force=True)


def recent_refresh_runs(session: Session, limit: int = 5) -> list[LeadRefreshRun]:
    return list(session.exec(select(LeadRefreshRun).order_by(LeadRefreshRun.started_at.desc()).limit(limit)))
