"""Freshness of a live dataset: when it is pulled, whether a pull is incremental, and the lag from a row's
portal update to its signal. Pure rules (no I/O, no database): ``records.service_freshness`` reads the
times, ``records.jobs_pulls`` and ``records.service_jobs`` act on them.

- A dataset is pulled every ``pull_every_minutes`` (its file; default 60): ``next_pull(last, minutes)``,
  ``pull_due(last, minutes, now)``.
- ``plan_pull``: a pull reads only the rows the portal updated since the newest update time already read
  (the *watermark*) when the portal gives an update time (``update_field``: Socrata ``:updated_at``, an
  ArcGIS layer's edit date) and a watermark exists; else the whole dataset. A status list is read whole
  when its last full read is more than ``FULL_SNAPSHOT_EVERY`` (24 hours) old, so that an item that left
  the open list is seen to close. The daily refresh (trigger ``schedule`` / ``catch-up``) and "Run now"
  read whole, as before.
- The lag of a signal is ``first_seen_at - portal_updated_at``: how long after the portal published a row
  LeadVault stored it. ``lag_summary`` gives p50 / p95 / max (nearest-rank percentiles) over the rows that
  carry both times.
- ``listed_line``: a public-record lead's freshness as it is shown, the day its list was taken and when
  LeadVault first saw it: 'Baltimore City open list of Nov 27, 2026 · first seen Nov 27, 2026' for a status
  list's item (the list's day is the newest snapshot that held it, ``records.rules_signal_currency.record_date``),
  'Cook County record of Jan 1, 2025 · first seen ...' for an event. ``exact`` adds the clock of the first
  sighting in the viewer's zone: the property page, which only a user who unlocked the lead reaches; a
  locked card says the day only (the instant an item was first stored singles out the few items a pull
  added, ``records.service_views``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Iterable

from marketplace.platform.times import UTC_NAME, format_date, format_datetime

FULL_SNAPSHOT_EVERY = timedelta(hours=24)
LAG_WINDOW = timedelta(days=30)
INCREMENTAL_TRIGGERS = ("interval",)  # the triggers whose pulls may be incremental


@dataclass(frozen=True)
class PullPlan:
    full: bool                      # a whole read: closes what it no longer holds
    since: datetime | None          # incremental: rows the portal updated at or after this time
    reason: str                     # one line for the log and the run


def plan_pull(*, trigger: str, update_field: str | None, watermark: datetime | None, status_list: bool,
              last_full_at: datetime | None, now: datetime) -> PullPlan:
    """How to read a dataset on this pull (module docstring)."""
    if trigger not in INCREMENTAL_TRIGGERS:
        return PullPlan(True, None, f"a {trigger} pull reads the whole dataset")
    if not update_field:
        return PullPlan(True, None, "the portal gives no row update time: read whole")
    if watermark is None:
        return PullPlan(True, None, "no update time read yet: read whole")
    if status_list and (last_full_at is None or now - last_full_at > FULL_SNAPSHOT_EVERY):
        return PullPlan(True, None, "a status list's last full read is over 24 hours old: read whole")
    return PullPlan(False, watermark, f"rows updated since {watermark.isoformat()}")


def next_pull(last: datetime | None, minutes: int) -> datetime | None:
    """When the dataset is next due (None: it was never pulled, so it is due now)."""
    return None if last is None else last + timedelta(minutes=minutes)


def pull_due(last: datetime | None, interval: timedelta, now: datetime) -> bool:
    return last is None or now >= last + interval


def percentile(ordered: list[float], share: float) -> float | None:
    """The nearest-rank percentile (``share`` in 0..1) of ascending ``ordered`` values; None when empty."""
    if not ordered:
        return None
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


@dataclass(frozen=True)
class LagSummary:
    rows: int                       # rows the figures rest on
    p50: float | None               # seconds
    p95: float | None
    max: float | None


NO_ROWS = LagSummary(0, None, None, None)


def lag_summary(pairs: Iterable[tuple[datetime, datetime]]) -> LagSummary:
    """p50 / p95 / max of ``first_seen_at - portal_updated_at`` in seconds over (first_seen_at,
    portal_updated_at) pairs (a negative difference, clocks apart, counts as 0)."""
    lags = sorted(max(0.0, (seen - updated).total_seconds()) for seen, updated in pairs)
    return LagSummary(len(lags), percentile(lags, 0.50), percentile(lags, 0.95), lags[-1] if lags else None)


def format_lag(seconds: float | None) -> str:
    """'45 s', '12 min', '3.5 h', '2.1 days'; 'N/A' for None."""
    if seconds is None:
        return "N/A"
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def lag_text(summary: LagSummary) -> str:
    """The Sources panel's lag cell: what the figures are and what they rest on."""
    if not summary.rows:
        return "N/A: no row carried a portal update time"
    rows = f"{summary.rows:,} row{'s' if summary.rows != 1 else ''}"
    return f"p50 {format_lag(summary.p50)} · p95 {format_lag(summary.p95)} (30 days, {rows})"


def listed_line(place: str, status_list: bool, day: date | None, first_seen: datetime | None,
                zone_name: str = UTC_NAME, *, exact: bool = False) -> str:
    """The lead's freshness line (module docstring); '' without the list's (or the record's) day."""
    if day is None:
        return ""
    what = "open list" if status_list else "record"
    line = f"{place} {what} of {format_date(day, zone_name)}".strip()
    if first_seen is not None:
        seen = format_datetime(first_seen, zone_name) if exact else format_date(first_seen, zone_name)
        line += f" · first seen {seen}"
    return line
