"""Times as the user reads them: in the browser's own time zone, labelled with
its abbreviation, in ONE format across the app: dates 'Mar 4, 2026', date-times
'Mar 4, 2026, 3:05 PM EST' (``format_date``, ``format_datetime``; no page builds its own).

Timestamps are stored in UTC (``models.UTCDateTime``). The browser reports its
IANA zone (``Intl.DateTimeFormat().resolvedOptions().timeZone``, kept in its
localStorage by a script in the page head, see ``platform.ui.state_auth.AuthState.time_zone``);
that value comes from the client, so it is validated here: anything that is
not a zone ``zoneinfo`` knows reads as UTC. The daily refresh's "8:00 AM
Pacific" and the marketplace countdown follow the SPEC, not this module.
CSV exports keep their own formats (ISO 8601 / dates in UTC).
"""

from __future__ import annotations

import re
from datetime import date, datetime, timezone, tzinfo
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

UTC_NAME = "UTC"
# IANA names: letters, digits and _ + - / only ("America/New_York", "Etc/GMT+5").
_ZONE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+){0,2}$")
_MAX_NAME = 64


@lru_cache(maxsize=512)
def _known_zone(name: str) -> tzinfo | None:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


def clean_zone_name(name: object) -> str:
    """``name`` when it is a time zone ``zoneinfo`` knows, else 'UTC'."""
    if not isinstance(name, str) or len(name) > _MAX_NAME or not _ZONE_NAME.match(name):
        return UTC_NAME
    return name if _known_zone(name) is not None else UTC_NAME


def zone(name: object) -> tzinfo:
    """The ``tzinfo`` for a browser-reported zone name (UTC when unknown)."""
    return _known_zone(clean_zone_name(name)) or timezone.utc


def local(value: datetime, zone_name: object) -> datetime:
    """``value`` (aware; a naive value is taken as UTC) in the zone."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(zone(zone_name))


def _abbreviation(value: datetime) -> str:
    return value.tzname() or UTC_NAME


def format_datetime(value: datetime | None, zone_name: object, *, seconds: bool = False) -> str:
    """'Mar 4, 2026, 3:05 PM EST' (``seconds``: '3:05:09 PM'); '' for None. The one date-time format
    of every page: the date as ``format_date`` writes it, a comma, the clock and the zone."""
    if value is None:
        return ""
    when = local(value, zone_name)
    clock = when.strftime("%-I:%M:%S %p" if seconds else "%-I:%M %p")
    return f"{format_date(when, zone_name)}, {clock} {_abbreviation(when)}"


def format_date(value: datetime | date | None, zone_name: object) -> str:
    """'Mar 4, 2026': the calendar day in the zone (a plain ``date`` stays as it is)."""
    if value is None:
        return ""
    day = local(value, zone_name) if isinstance(value, datetime) else value
    return f"{day:%b} {day.day}, {day.year}"


def today_in(zone_name: object, now: datetime) -> date:
    """The viewer's calendar day at ``now`` (aware): what a duration shown to them counts to."""
    return local(now, zone_name).date()
