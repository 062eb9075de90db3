"""Operator actions on the lead database (explorer buttons and CLI)."""

from __future__ import annotations

from marketplace.features.records.jobs_refresh import run_refresh


def refresh_now() -> dict:
    """SPEC ``fetch-leads``: a manual refresh, recorded beside the daily one."""
    return run_refresh(trigger="manual", force=True)

