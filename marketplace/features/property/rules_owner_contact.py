"""Owner contact (skip trace) rules: the price, what counts as a hit, phone numbers.

- The price of a hit is a setting (``config.skip_trace_price``, SKIP_TRACE_CREDITS_PER_HIT, default 2
  credits: skip-trace providers bill cents per matched record). It is charged only when the provider returns
  at least one phone number or e-mail address (``is_hit``); a miss costs nothing. A hit is kept for good (a
  repeat shows it for free); a miss may be searched again once it is ``MISS_RETRY_DAYS`` old
  (``needs_search``), because owners' records change.
- A bulk search (``bulk_plan``) asks the provider only for the selected leads that need a search, in batches
  of ``BULK_BATCH`` (BatchData takes up to 100 requests a call; smaller batches show progress), at most
  ``BULK_MAX_LEADS`` leads a run; its most it can cost is the searched leads x the price.
- Phone numbers are kept as "(AAA) BBB-CCCC" when they are 10-digit North American numbers (a leading 1
  dropped), else as the digits given; two numbers are the same when their digits are (``same_number``).
- A phone is ``{"number", "type", "dnc", "wrong"}``: ``type`` as the provider says ("Mobile", "Land Line",
  None when unknown), ``dnc`` True when the number is on the Do Not Call registry (None: the provider did
  not say), ``wrong`` True once the user marked it a wrong number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

MISS_RETRY_DAYS = 30
BULK_BATCH = 10
BULK_MAX_LEADS = 200
MAX_PHONES = 10
MAX_EMAILS = 10
_EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,190}\.[^@\s]{2,63}$")


def digits(number: object) -> str:
    """The digits of a phone number, a leading country code 1 of an 11-digit number dropped."""
    only = re.sub(r"\D", "", str(number or ""))
    return only[1:] if len(only) == 11 and only.startswith("1") else only


def format_number(number: object) -> str | None:
    """'(512) 555-0142' for a 10-digit number; other lengths of 7-15 digits as digits; None otherwise."""
    d = digits(number)
    if len(d) == 10:
        return f"({d[:3]}) {d[3:6]}-{d[6:]}"
    return d if 7 <= len(d) <= 15 else None


def same_number(a: object, b: object) -> bool:
    return bool(digits(a)) and digits(a) == digits(b)


def clean_email(value: object) -> str | None:
    """A plausible e-mail address, trimmed and lower-cased; None for anything else."""
    text = str(value or "").strip().lower()
    return text if len(text) <= 254 and _EMAIL.match(text) else None


def phone(number: object, type_: object = None, dnc: object = None) -> dict[str, Any] | None:
    """A stored phone dict, or None when ``number`` is not a phone number."""
    formatted = format_number(number)
    if formatted is None:
        return None
    kind = str(type_).strip()[:32] if isinstance(type_, str) and type_.strip() else None
    return {"number": formatted, "type": kind, "dnc": dnc if isinstance(dnc, bool) else None, "wrong": False}


def is_hit(phones: list[Any] | tuple[Any, ...], emails: list[Any] | tuple[Any, ...]) -> bool:
    """A search is charged only when it found at least one phone or e-mail."""
    return bool(phones) or bool(emails)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def retry_after(searched_at: datetime) -> datetime:
    """When a miss searched at ``searched_at`` may be searched again."""
    return _aware(searched_at) + timedelta(days=MISS_RETRY_DAYS)


def needs_search(status: str | None, searched_at: datetime | None, now: datetime) -> bool:
    """True when a lead should go to the provider: never searched, or a miss ``MISS_RETRY_DAYS`` old or older.
    A hit never does (its result is kept and shown free)."""
    if status is None or searched_at is None:
        return True
    return status == "miss" and _aware(now) >= retry_after(searched_at)


def bulk_plan(selected: list[Any], unlocked: set[str], stored: dict[str, tuple[str, datetime]],
              now: datetime) -> tuple[list[str], list[str], list[str]]:
    """Split a bulk selection (lead ids as given) into (to search, already searched, not this user's lead),
    each in the order first given, duplicates and junk dropped; at most ``BULK_MAX_LEADS`` searched.
    ``stored`` maps a lead id to its stored (status, searched_at)."""
    search, done, refused, seen = [], [], [], set()
    for raw in selected:
        lead = str(raw).strip().lower() if isinstance(raw, str) else ""
        if not lead or lead in seen:
            continue
        seen.add(lead)
        if lead not in unlocked:
            refused.append(lead)
        elif lead in stored and not needs_search(*stored[lead], now):
            done.append(lead)
        else:
            search.append(lead)
    return search[:BULK_MAX_LEADS], done, refused


def mark_wrong(phones: list[dict[str, Any]], number: object, wrong: bool = True) -> list[dict[str, Any]] | None:
    """``phones`` with ``number`` marked (or unmarked) wrong; None when it is not among them."""
    if not any(same_number(p.get("number"), number) for p in phones):
        return None
    return [{**p, "wrong": wrong} if same_number(p.get("number"), number) else dict(p) for p in phones]


@dataclass(frozen=True)
class ContactResult:
    provider: str  # "demo" | "batchdata"
    demo: bool  # True: fictional data, the page says so
    owner_name: str | None
    phones: tuple[dict[str, Any], ...] = ()
    emails: tuple[str, ...] = ()

    @property
    def found(self) -> bool:
        return is_hit(self.phones, self.emails)


def phone_rows(phones: list[dict[str, Any]] | tuple[dict[str, Any], ...], type_unknown: str) -> list[dict[str, str]]:
    """The found numbers as the page lists them: number, type ('Type not stated' when the provider did not
    say), the Do Not Call status as 'yes' / 'no' / 'unknown' (every number shows one, as the exports do) and
    the wrong mark as 'yes' / '' (display strings only)."""
    return [{"number": str(p.get("number") or ""), "type": str(p.get("type") or type_unknown),
             "dnc": {True: "yes", False: "no"}.get(p.get("dnc"), "unknown"),
             "wrong": "yes" if p.get("wrong") is True else ""}
            for p in phones]
