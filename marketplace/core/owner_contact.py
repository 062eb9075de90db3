"""Owner contact (skip trace) rules: the price, what counts as a hit, phone numbers (issue 25).

- ``SKIP_TRACE_CREDITS`` (25): what "Find owner phone and e-mail" costs on an unlocked lead. It is charged
  only when the provider returns at least one phone number or e-mail address (``is_hit``); a miss costs
  nothing. Each user searches a lead once: a repeat shows the stored result (hit or miss) for free.
- Phone numbers are kept as "(AAA) BBB-CCCC" when they are 10-digit North American numbers (a leading 1
  dropped), else as the digits given; two numbers are the same when their digits are (``same_number``).
- A phone is ``{"number", "type", "dnc", "wrong"}``: ``type`` as the provider says ("Mobile", "Land Line",
  None when unknown), ``dnc`` True when the number is on the Do Not Call registry (None: the provider did
  not say), ``wrong`` True once the user marked it a wrong number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

SKIP_TRACE_CREDITS = 25
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
    say), and the Do Not Call and wrong marks as 'yes' / '' (display strings only)."""
    return [{"number": str(p.get("number") or ""), "type": str(p.get("type") or type_unknown),
             "dnc": "yes" if p.get("dnc") is True else "", "wrong": "yes" if p.get("wrong") is True else ""}
            for p in phones]
