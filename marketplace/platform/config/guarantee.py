"""The county-record guarantee's window: GUARANTEE_DAYS (default 30, 1-365). Read on every call (the
refund step, the pricing FAQ and the unlock confirm step read it when they run)."""

from __future__ import annotations

import os

from marketplace.platform.config.environment import ConfigError

GUARANTEE_DAYS_DEFAULT = 30
GUARANTEE_DAYS_MAX = 365


def guarantee_days() -> int:
    """GUARANTEE_DAYS: how many days after an unlock (or a scrape's delivery) a contradiction of the lead by
    the county's own next record gives its credits back (``unlock.service_refunds``). ``ConfigError`` for anything
    but a whole number from 1 to 365."""
    raw = os.environ.get("GUARANTEE_DAYS", "").strip()
    if not raw:
        return GUARANTEE_DAYS_DEFAULT
    if not raw.isdigit() or not 1 <= int(raw) <= GUARANTEE_DAYS_MAX:
        raise ConfigError(f"GUARANTEE_DAYS must be a whole number of days from 1 to {GUARANTEE_DAYS_MAX}, "
                          f"got {raw!r}")
    return int(raw)
