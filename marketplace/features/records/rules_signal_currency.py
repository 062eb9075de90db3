"""Whether a public-record signal is current, and what "New" means for a public-record lead. Pure.

Past events are never sold as fresh opportunities. Every signal carries two dates:

- its **event date** (``event_date``): a sale list's sale date (None while unpublished), a notice's date
  (vacancy, code violation, foreclosure filing, inheritance deed: ``notice_date``, else ``as_of``), a tax
  delinquency's balance date (``as_of``);
- its **as-of date** (``record_date``): the date the record speaks for: for an item of a status list
  (``status_list``: an open notice, indicator, violation, vacate order or balance still on the list) the day
  of the newest snapshot of the list that held it (``as_of``), whatever the item's own date; for an event,
  its notice date, else the record's ``as_of`` (the report, extract or list date).

Rules (``closes_because`` gives the reason a signal is no longer current, None while it is):

1. A sale whose date has passed is held: its signal closes ("sale held on 2020-07-23") and never makes an
   Auction lead. A sale date still ahead keeps a sale list current whatever the list's age.
2. Any other signal (and a sale list without a published sale date) whose as-of date is older than its
   dataset's ``max_age_days`` is history: it is shown on the property page with its event date and does
   not keep a lead active by itself. A dataset without a maximum age (a commercial list) never goes
   stale this way; an undated record cannot be shown to be stale.
3. "New" (``is_new``) means the record first appeared in its dataset within the last ``NEW_DAYS`` days
   (today included) and is current. We know a record was in its dataset when we first saw it
   (``first_seen``) and that it cannot have appeared before its own as-of date, so both must fall in the
   window: a row first stored today from a 2016 report is not new.
4. "Auction Soon" needs a known sale date in the next ``marketplace.rules_sale_dates.AUCTION_SOON_DAYS`` days
   (``marketplace.rules_sale_dates.is_auction_soon``); a sale list without a date is an Auction lead, never Auction Soon.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from marketplace.features.records.rules import SALE_LABELS
from marketplace.platform.times import format_date

NEW_DAYS = 7
# The signal attributes these rules read: a query that judges signals reads every one of them (a row without
# ``status_list`` would judge an open list's item by its own date, as if it were an event).
READS = ("dataset_id", "kind", "sale_type", "status", "status_list", "as_of", "notice_date", "sale_date")
# Kinds dated by the notice (or filing, or deed) they record.
NOTICE_KINDS = ("vacant", "code_violation", "foreclosure", "probate")

_KIND_WORDS = {"tax_delinquent": "Tax delinquent", "vacant": "Vacancy notice", "code_violation": "Code violation",
               "foreclosure": "Foreclosure filing", "probate": "Inheritance deed (probate proxy)"}


def _day(value: Any) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    return value if isinstance(value, date) else None


def event_date(signal: Any) -> date | None:
    """The date of the event the signal records (module docstring)."""
    if signal.kind == "sale_list":
        return _day(signal.sale_date)
    if signal.kind in NOTICE_KINDS:
        return _day(signal.notice_date) or _day(signal.as_of)
    return _day(signal.as_of)


def record_date(signal: Any) -> date | None:
    """The date the record speaks for: a status list's item, the day of the list that holds it; an event,
    its notice date, else its as-of date."""
    if getattr(signal, "status_list", False):
        return _day(signal.as_of)
    return _day(getattr(signal, "notice_date", None)) or _day(signal.as_of)


def item_date(signal: Any) -> date | None:
    """A status item's own date (the notice, the first year owed), else its list's day: what "New" weighs
    (a notice of 2009 first seen today on a current list is not news)."""
    return _day(getattr(signal, "notice_date", None)) or _day(getattr(signal, "delinquent_since", None)) \
        or _day(signal.as_of)


def closes_because(signal: Any, max_age_days: int | None, today: date) -> str | None:
    """Why the signal is no longer current on ``today`` (rules 1-2), or None while it is."""
    sale = _day(signal.sale_date) if signal.kind == "sale_list" else None
    if sale is not None:
        return f"sale held on {sale.isoformat()}" if sale < today else None
    dated = record_date(signal)
    if max_age_days and dated is not None and (today - dated).days > max_age_days:
        if getattr(signal, "status_list", False):
            return (f"on the open list of {dated.isoformat()}, older than the dataset's maximum age of "
                    f"{max_age_days} days")
        return (f"as of {dated.isoformat()}, older than the dataset's maximum age of "
                f"{max_age_days} days")
    return None


def record_history(record: Any, max_age_days: int | None, today: date, status_list: bool = False) -> bool:
    """Whether a mapped record, as its dataset judges it (``status_list``), is no longer current on ``today``
    (rules 1-2): what an import counts as "history" when it says why it made no leads."""
    return closes_because(_Judged(record, status_list), max_age_days, today) is not None


class _Judged:
    """A mapped record read as the signal it becomes (its dataset says whether it is a status list's)."""

    def __init__(self, record: Any, status_list: bool) -> None:
        self._record, self.status_list = record, status_list

    def __getattr__(self, name: str) -> Any:
        return getattr(self._record, name)


def is_current(signal: Any, max_age_days: int | None, today: date) -> bool:
    """An open signal that neither records a held sale nor is older than its dataset's maximum age."""
    return (getattr(signal, "status", "open") or "open") == "open" and closes_because(signal, max_age_days,
                                                                                        today) is None


def within_new_window(day: date | datetime | None, today: date) -> bool:
    found = _day(day)
    return found is not None and 0 <= (today - found).days < NEW_DAYS


def is_new(first_seen: date | datetime | None, as_of: date | None, today: date, *, current: bool = True) -> bool:
    """Rule 3: current, first seen and dated within the last ``NEW_DAYS`` days (today included)."""
    return current and within_new_window(first_seen, today) and within_new_window(as_of, today)


def signal_is_new(signal: Any, max_age_days: int | None, today: date) -> bool:
    dated = item_date(signal) if getattr(signal, "status_list", False) else record_date(signal)
    return is_new(getattr(signal, "first_seen_at", None), dated, today,
                  current=is_current(signal, max_age_days, today))


def history_line(signal: Any, label: str | None = None) -> str:
    """A signal that is no longer current, as the property page lists it, with its event date:
    'Tax sale held Jul 23, 2020 (history)', 'Vacancy notice of Oct 5, 2016 (history)', and for a record
    that left its dataset the reason too ('Tax delinquent as of Jul 1, 2016: no longer in the dataset as of
    2026-11-25 (history)')."""
    held = _day(signal.sale_date) if signal.kind == "sale_list" else None
    reason = getattr(signal, "closed_reason", None) or ""
    if held is not None:
        name = label or SALE_LABELS.get(signal.sale_type or "", "Sale")
        text = f"{name} held {format_date(held, 'UTC')}"
        if reason and not reason.startswith("sale held"):
            text += f": {reason}"
        return f"{text} (history)"
    name = label or (SALE_LABELS.get(signal.sale_type or "", "Sale") + " list" if signal.kind == "sale_list"
                     else _KIND_WORDS.get(signal.kind, signal.kind.replace("_", " ").capitalize()))
    dated = event_date(signal) if signal.kind != "sale_list" else record_date(signal)
    if dated is None:
        text = f"{name} (undated)"
    elif signal.kind in NOTICE_KINDS:
        text = f"{name} of {format_date(dated, 'UTC')}"
    else:
        text = f"{name} as of {format_date(dated, 'UTC')}"
    if reason and getattr(signal, "status", "open") == "closed":
        text += f": {reason}"
    return f"{text} (history)"
