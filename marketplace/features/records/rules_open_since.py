"""How long a status item has been open: 'Vacant since Mar 4, 2009 (17 years)'. Pure.

A *status* signal is an item still open on the day its list was taken: a vacancy notice (``vacant``), an
open violation (``code_violation``), a tax delinquency (``tax_delinquent``). Its own date is the day the
item opened, never the list's day (``as_of``):

- ``vacant`` and ``code_violation``: ``notice_date`` (the notice or violation issued, the vacate order
  effective), read as a calendar day;
- ``tax_delinquent``: ``delinquent_since``, the first tax year owed (stored as January 1 of that year,
  ``records.rules``): it is shown as the tax year ('Delinquent since tax year 1978'), since no dataset
  publishes the day a debt fell due. A dataset that gives years owed but no first year owed gives no date:
  nothing is derived from the count.

A lead carries one such date (``longest_open``): the oldest among its *current* status signals (the ones
that make and score it), so with several the longest-open item is shown; on the same day the stronger kind
(``STATUS_KINDS`` order) names it. The word follows the item's kind (``SINCE_WORDS``).

The duration is counted when shown, from the viewer's today (``duration_text``): whole years from one year
on ('17 years', '1 year'), else whole months ('8 months', '1 month'), else days ('12 days', '1 day',
'today'). A month or year is complete on the same day of the month; a start on a day the end month lacks
(Jan 31, Feb 29) completes on that month's last day (Jan 31 -> Feb 28 is 1 month; Feb 29, 2024 -> Feb 28,
2025 is 1 year). A date after today gives no line (an item cannot be open since a day to come).

Privacy (``records.service_views``): a notice's exact day with the card's ZIP finds the house in the
county's list, so a locked card shows the year only ('Vacant since 2009 (17 years)', under a year
'Vacant since 2026 (under a year)'); the exact day is for the unlocked card and the property page. A tax
year is the same either way.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date
from typing import Any, Iterable

from marketplace.platform.times import format_date

STATUS_KINDS = ("tax_delinquent", "vacant", "code_violation")  # strongest first (records.rules_motivation's order)
SINCE_WORDS = {"vacant": "Vacant", "tax_delinquent": "Delinquent", "code_violation": "Open"}
# What the date is, under the line on the property page: '<basis> from <dataset title>'.
DATE_BASIS = {"vacant": "Notice date", "tax_delinquent": "First tax year owed", "code_violation": "Violation date"}
RAW_KEY = "open_since"  # raw_data of a public-record lead: {"kind", "date" (ISO), "title"}
UNDER_A_YEAR = "under a year"


@dataclass(frozen=True)
class OpenItem:
    kind: str        # one of STATUS_KINDS
    since: date      # the item's own date
    title: str = ""  # the dataset it comes from


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _add_months(start: date, months: int) -> date:
    """``start`` plus ``months``, on the month's last day when it lacks ``start``'s day."""
    total = start.month - 1 + months
    year, month = start.year + total // 12, total % 12 + 1
    return date(year, month, min(start.day, calendar.monthrange(year, month)[1]))


def full_months(start: date, end: date) -> int:
    """Whole months from ``start`` to ``end`` (0 when ``end`` is before ``start``)."""
    if end <= start:
        return 0
    months = (end.year - start.year) * 12 + end.month - start.month
    while months > 0 and _add_months(start, months) > end:
        months -= 1
    return months


def full_years(start: date, end: date) -> int:
    return full_months(start, end) // 12


def duration_text(since: date, today: date) -> str | None:
    """'17 years', '1 year', '11 months', '1 month', '12 days', '1 day', 'today'; None when ``since`` is
    after ``today``."""
    if since > today:
        return None
    months = full_months(since, today)
    if months >= 12:
        return _plural(months // 12, "year")
    if months >= 1:
        return _plural(months, "month")
    days = (today - since).days
    return "today" if days == 0 else _plural(days, "day")


def item_date(signal: Any) -> date | None:
    """A status signal's own date (module docstring); None for another kind or an undated item."""
    kind = getattr(signal, "kind", None)
    if kind == "tax_delinquent":
        return getattr(signal, "delinquent_since", None)
    if kind in ("vacant", "code_violation"):
        return getattr(signal, "notice_date", None)
    return None


def longest_open(signals: Iterable[Any], today: date | None = None) -> tuple[Any, date] | None:
    """The signal open longest among ``signals`` (``kind``, ``notice_date``, ``delinquent_since``
    attributes) and its date; None without a dated status signal. A date after ``today`` is ignored."""
    dated = [(d, STATUS_KINDS.index(s.kind), i, s) for i, s in enumerate(signals)
             if (d := item_date(s)) is not None and (today is None or d <= today)]
    if not dated:
        return None
    day, _, _, signal = min(dated, key=lambda item: item[:3])
    return signal, day


def since_line(kind: str, since: date, today: date, *, exact: bool = True) -> str:
    """'Vacant since Mar 4, 2009 (17 years)', 'Open since ...', 'Delinquent since tax year 1978 (48 years)';
    not ``exact`` (a locked card): 'Vacant since 2009 (17 years)' / 'Vacant since 2026 (under a year)'.
    '' for a kind without a word or a date after ``today``."""
    word = SINCE_WORDS.get(kind)
    duration = duration_text(since, today)
    if word is None or duration is None:
        return ""
    if kind == "tax_delinquent":
        return f"{word} since tax year {since.year} ({duration})"
    if exact:
        return f"{word} since {format_date(since, 'UTC')} ({duration})"
    return f"{word} since {since.year} ({duration if full_months(since, today) >= 12 else UNDER_A_YEAR})"


def raw_value(kind: str, since: date, title: str) -> dict[str, str]:
    """What a public-record lead keeps of its longest-open item (``raw_data[RAW_KEY]``)."""
    return {"kind": kind, "date": since.isoformat(), "title": title}


def from_raw(raw_data: Any) -> OpenItem | None:
    """The lead's longest-open item from its ``raw_data``; None when it has none (or it is unreadable)."""
    value = raw_data.get(RAW_KEY) if isinstance(raw_data, dict) else None
    if not isinstance(value, dict) or value.get("kind") not in STATUS_KINDS:
        return None
    try:
        since = date.fromisoformat(str(value.get("date"))[:10])
    except ValueError:
        return None
    return OpenItem(kind=str(value["kind"]), since=since, title=str(value.get("title") or ""))


def basis_text(item: OpenItem) -> str:
    """'Notice date from Vacant Building Notices': what the date is and where it comes from."""
    basis = DATE_BASIS[item.kind]
    return f"{basis} from {item.title}" if item.title else basis
