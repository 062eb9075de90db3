"""The owner export: the owners found for a user's unlocked leads, as CSV in the column layouts dialers and
CRMs import (the dashboard's "Export owners", ``features/property/api_owner_export.py``).

Layouts (``LAYOUTS``):

- ``dialer``: one row per owner, ``Phone 1`` .. ``Phone 10`` each with its ``Type`` and ``DNC`` column, then
  ``Email 1`` .. ``Email 3``: the wide list layout real-estate dialers map at upload (a name, the property,
  the mailing address, numbered phone columns). Their exact import templates (BatchDialer, Mojo) could not be
  confirmed, so the layout is named generically: its columns are mapped at upload.
- ``dialer_rows``: one row per phone number (``Phone``, ``Phone Type``, ``DNC``): the layout of dialers that
  take one dialable number a row. An owner found with e-mails only has no row here (nothing to dial).
- ``hubspot``: one row per owner, named after HubSpot's default contact properties (``First Name``, ``Last
  Name``, ``Email``, ``Phone Number``, ``Mobile Phone Number``, ``Street Address``, ``City``,
  ``State/Region``, ``Postal Code``: the owner's mailing address), the rest of the phones in ``Other Phones``
  with their type and DNC mark, the property in columns of its own. The property names are HubSpot's as commonly
  documented, not confirmed against HubSpot's own page.

Do Not Call: every number is exported with its mark, never dropped and never unmarked: ``DNC`` is "Yes" (on
the National Do Not Call Registry), "No", or "Unknown" (the provider did not say); the HubSpot layout lists
the DNC numbers in ``DNC Phones`` and marks them "DNC" in ``Other Phones``. A number the user marked wrong
is kept and said so (``Wrong Number`` / ``Wrong Numbers``). Every row says where the contact came from
(``Contact Source``: "Demo data (fictional)" for the built-in demo provider) and where the lead came from
(``Lead Source``: ``platform.leads.provenance_line``). A missing value is an empty cell (importers read "N/A" as
data). Every cell goes through ``scrape.rules.neutralize`` (no formula runs in a spreadsheet).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from marketplace.features.property.rules_owner_contact import MAX_PHONES
from marketplace.features.scrape import neutralize

WIDE_PHONES = MAX_PHONES  # every found number has its columns: none is dropped
WIDE_EMAILS = 3
ENTITY_WORDS = re.compile(r"\b(LLC|L\.L\.C|INC|CORP|CORPORATION|CO|COMPANY|TRUST|TRUSTEE|ESTATE|BANK|LP|LLP|LTD|"
                          r"ASSOCIATION|ASSN|HOLDINGS|PROPERTIES|PARTNERS|FUND|CHURCH|CITY|COUNTY|AUTHORITY)\b",
                          re.IGNORECASE)
CONTACT_SOURCES = {"demo": "Demo data (fictional)", "batchdata": "BatchData"}
PROPERTY = ["Property Address", "Property City", "Property State", "Property Zip"]
MAILING = ["Mailing Address", "Mailing City", "Mailing State", "Mailing Zip"]
SOURCES = ["Contact Source", "Lead Source"]


@dataclass(frozen=True)
class OwnerRow:
    """One unlocked lead whose owner was found (plain values from ``property.service_owner_export``)."""

    owner_name: str | None
    address: str
    city: str
    state: str
    zip_code: str
    mailing_address: str | None
    mailing_city: str | None
    mailing_state: str | None
    mailing_zip: str | None
    phones: tuple[dict[str, Any], ...]  # {number, type, dnc, wrong}
    emails: tuple[str, ...]
    provider: str
    lead_source: str  # provenance_line


def split_name(name: str | None) -> tuple[str, str]:
    """(first, last) for the name columns: 'LAST, FIRST' split at the comma; a company, trust or estate whole
    in Last Name; else the last word is the last name ('Jane Q Doe' -> ('Jane Q', 'Doe')). The name as
    recorded is exported too (``Owner Name``), because a name of record may read 'SMITH JOHN'."""
    text = " ".join(str(name or "").split())
    if not text:
        return "", ""
    if ENTITY_WORDS.search(text):
        return "", text
    if "," in text:
        last, _, first = text.partition(",")
        return first.strip(), last.strip()
    first, _, last = text.rpartition(" ")
    return (first, last) if first else ("", last)


def dnc_mark(phone: dict[str, Any]) -> str:
    return {True: "Yes", False: "No"}.get(phone.get("dnc"), "Unknown")


def _type(phone: dict[str, Any]) -> str:
    return str(phone.get("type") or "")


def _wrong(phone: dict[str, Any]) -> str:
    return "Yes" if phone.get("wrong") is True else "No"


def _common(row: OwnerRow) -> tuple[list[str], list[str], list[str], list[str]]:
    first, last = split_name(row.owner_name)
    names = [first, last, row.owner_name or ""]
    prop = [row.address, row.city, row.state, row.zip_code]
    mail = [row.mailing_address or "", row.mailing_city or "", row.mailing_state or "", row.mailing_zip or ""]
    sources = [CONTACT_SOURCES.get(row.provider, row.provider), row.lead_source]
    return names, prop, mail, sources


def _dialer_header() -> list[str]:
    phones = [f"Phone {i} {part}".strip() for i in range(1, WIDE_PHONES + 1) for part in ("", "Type", "DNC")]
    emails = [f"Email {i}" for i in range(1, WIDE_EMAILS + 1)]
    return ["First Name", "Last Name", "Owner Name", *PROPERTY, *MAILING, *phones, "Wrong Numbers", *emails,
            *SOURCES]


def _dialer_rows(row: OwnerRow) -> list[list[str]]:
    names, prop, mail, sources = _common(row)
    phones: list[str] = []
    for i in range(WIDE_PHONES):
        p = row.phones[i] if i < len(row.phones) else None
        phones += [str(p["number"]), _type(p), dnc_mark(p)] if p else ["", "", ""]
    wrong = "; ".join(str(p["number"]) for p in row.phones if p.get("wrong") is True)
    emails = [row.emails[i] if i < len(row.emails) else "" for i in range(WIDE_EMAILS)]
    extra = row.emails[WIDE_EMAILS:]
    if extra:  # more addresses than columns: the last column keeps them all (none dropped)
        emails[-1] = "; ".join(row.emails[WIDE_EMAILS - 1:])
    return [[*names, *prop, *mail, *phones, wrong, *emails, *sources]]


def _rows_header() -> list[str]:
    return ["First Name", "Last Name", "Owner Name", "Phone", "Phone Type", "DNC", "Wrong Number", "Email",
            *PROPERTY, *MAILING, *SOURCES]


def _rows_rows(row: OwnerRow) -> list[list[str]]:
    names, prop, mail, sources = _common(row)
    email = "; ".join(row.emails)
    return [[*names, str(p["number"]), _type(p), dnc_mark(p), _wrong(p), email, *prop, *mail, *sources]
            for p in row.phones]


HUBSPOT_HEADER = ["First Name", "Last Name", "Email", "Phone Number", "Mobile Phone Number", "Street Address", "City",
                  "State/Region", "Postal Code", "Owner Name", "Other Phones", "DNC Phones", "Wrong Numbers",
                  "Other Emails", *PROPERTY, *SOURCES]


def _phone_note(p: dict[str, Any]) -> str:
    """'(512) 555-0177 Land Line DNC' (type and marks as known)."""
    marks = [_type(p), "DNC" if p.get("dnc") is True else ("DNC unknown" if p.get("dnc") is None else ""),
             "wrong number" if p.get("wrong") is True else ""]
    return " ".join([str(p["number"]), *[m for m in marks if m]])


def _hubspot_rows(row: OwnerRow) -> list[list[str]]:
    names, prop, mail, sources = _common(row)
    mobile = next((p for p in row.phones if _type(p).lower() == "mobile"), None)
    other = next((p for p in row.phones if p is not mobile), None)
    rest = [p for p in row.phones if p is not mobile and p is not other]
    return [[names[0], names[1], row.emails[0] if row.emails else "",
             str(other["number"]) if other else "", str(mobile["number"]) if mobile else "",
             *mail, names[2], "; ".join(_phone_note(p) for p in rest),
             "; ".join(str(p["number"]) for p in row.phones if p.get("dnc") is True),
             "; ".join(str(p["number"]) for p in row.phones if p.get("wrong") is True),
             "; ".join(row.emails[1:]), *prop, *sources]]


@dataclass(frozen=True)
class Layout:
    key: str
    label: str  # the button's text
    header: list[str]
    rows: Any  # OwnerRow -> list of rows


LAYOUTS = {
    "dialer": Layout("dialer", "Dialer list (one row per owner)", _dialer_header(), _dialer_rows),
    "dialer_rows": Layout("dialer_rows", "Dialer list (one row per phone)", _rows_header(), _rows_rows),
    "hubspot": Layout("hubspot", "HubSpot contacts import", HUBSPOT_HEADER, _hubspot_rows),
}


def csv_text(layout: str, rows: list[OwnerRow]) -> str:
    """The file of ``layout`` (a key of ``LAYOUTS``; ``KeyError`` otherwise): its header, then its rows."""
    chosen = LAYOUTS[layout]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(chosen.header)
    for row in rows:
        for cells in chosen.rows(row):
            writer.writerow([neutralize(c) for c in cells])
    return out.getvalue()


def filename(layout: str, day: date) -> str:
    """'leadvault-owners-hubspot-2026-11-27.csv'."""
    return f"leadvault-owners-{layout.replace('_', '-')}-{day.isoformat()}.csv"
