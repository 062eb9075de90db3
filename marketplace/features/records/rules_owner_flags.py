"""The owner's mailing address and what it says about the owner: absentee, out of state, bank-owned (REO).

Pure rules over one record's fields; ``records.rules_rows.property_values`` calls them where a record's
fields become the property's columns, and the flags travel from the property to its lead unchanged.

Mailing address. Most datasets publish it in parts (OPA: ``mailing_street``, ``mailing_city_state``,
``mailing_zip``). Some reports print the owner's name and mailing address in one line (the Baltimore tax
sale's "Owner Address": "FAISON, JAMES FAISON, BESSIE L 1650 KINGSWAY RD 21218-1645"): such a dataset
maps that line to ``mailing_block`` and ``mailing_from_block`` splits it (the owner's name and any care-of
name before the first house number or post-office box, the ZIP at the end). A missing city or state is
completed from the ZIP (the ``zipcodes`` data: the ZIP's state and its USPS city).

Flags are three-valued: ``True``, ``False`` or ``None`` (unknown: the record has no mailing address).
- out of state: the mailing state differs from the property's state (None when either is unknown);
- absentee: the mailing address is not the property (house number, street, unit, ZIP, normalised by
  ``records.rules_addresses``: spelling, suffixes, directions, leading zeros and units aside). Out of state is
  absentee. A mailing address with no street line but a ZIP other than the property's is absentee; a post
  office box is a mailing address other than the property (absentee). Unknown without a mailing address.
- bank-owned (REO): the owner of record is a lender, servicer, government-sponsored enterprise, HUD/VA, or a
  bank acting as trustee (``is_bank_owned``): None when the owner's name is unknown.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from marketplace.features.records.rules_addresses import (
    DIRECTIONS,
    clean,
    normalize_street,
    split_unit,
    zip5,
    zip_city_state,
)

_ZIP_TAIL = re.compile(r"\s*\b(\d{5})(?:-\d{4})?$")
# Where the street line of a mailing block starts: a house number ("1650", "1B", "3220-A", "1601-03")
# followed by a word, or a post-office box ("P.O. BOX", "P. O.BOX", "PO BOX", "POST OFFICE BOX").
_STREET_START = re.compile(r"(?:(?<=\s)|^)(?:\d+[A-Z]?(?:-[A-Z0-9]+)?(?=\s)|P\.?\s*O\.?\s*BOX\b|POST OFFICE BOX\b)")
_DIRECTION_ABBREVIATIONS = frozenset(DIRECTIONS.values())


@dataclass(frozen=True)
class Mailing:
    street: str | None = None
    city: str | None = None
    state: str | None = None
    zip_code: str | None = None

    @property
    def known(self) -> bool:
        return bool(self.street or zip5(self.zip_code) or self.state)


def _fold(text: str | None) -> str:
    return " ".join((text or "").split())


def mailing_from_block(block: str | None, owner_names: tuple[str | None, ...] = ()) -> Mailing:
    """The mailing address in a report's one-line owner block: 'FAISON, JAMES 1650 KINGSWAY RD 21218-1645'
    -> Mailing('1650 KINGSWAY RD', None, None, '21218'). A block that is only a name is no address."""
    text = _fold(block).upper()
    if not text:
        return Mailing()
    zip_code = None
    tail = _ZIP_TAIL.search(text)
    if tail:
        zip_code = tail.group(1)
        text = text[:tail.start()].strip()
    for name in sorted({_fold(n).upper() for n in owner_names if n}, key=len, reverse=True):
        if name and text.startswith(name):
            text = text[len(name):].strip()
            break
    start = _STREET_START.search(text)
    street = text[start.start():].strip(" ,") if start else None
    return Mailing(street=street or None, zip_code=zip_code)


def completed(mailing: Mailing) -> Mailing:
    """The city and state a mailing address leaves out, from its ZIP (when the ZIP is a known one)."""
    if mailing.city and mailing.state:
        return mailing
    place = zip_city_state(mailing.zip_code)
    if place is None:
        return mailing
    city, state = place
    return dataclasses.replace(mailing, city=mailing.city or city.upper(), state=mailing.state or state)


def record_mailing(record) -> Mailing:
    """A mapped record's mailing address: its parts, or its one-line block split, completed from the ZIP."""
    mailing = Mailing(street=record.mailing_address, city=record.mailing_city, state=record.mailing_state,
                      zip_code=record.mailing_zip)
    block = getattr(record, "mailing_block", None)
    if not mailing.street and block:
        parsed = mailing_from_block(block, (record.owner_name,))
        mailing = Mailing(street=parsed.street, city=mailing.city, state=mailing.state,
                          zip_code=mailing.zip_code or parsed.zip_code)
    if not mailing.known:
        return Mailing()
    return completed(mailing)


def with_mailing(record):
    """The record with its mailing parts as ``record_mailing`` reads them (a block split, city and state
    completed from the ZIP)."""
    mailing = record_mailing(record)
    parts = {"mailing_address": mailing.street, "mailing_city": mailing.city, "mailing_state": mailing.state,
             "mailing_zip": mailing.zip_code}
    if all(getattr(record, name) == value for name, value in parts.items()):
        return record
    return dataclasses.replace(record, **parts)


def _street_words(street: str) -> list[str]:
    return normalize_street(street).split()


def _same_street(a: str, b: str) -> bool:
    """Same house number and street; a direction after the number written on one side only still matches
    ('145 E BELLS MILL RD' / '145 BELLS MILL RD')."""
    wa, wb = _street_words(a), _street_words(b)
    if not wa or not wb:
        return False
    if wa == wb:
        return True
    for longer, shorter in ((wa, wb), (wb, wa)):
        if len(longer) == len(shorter) + 1 and len(longer) > 2 and longer[1] in _DIRECTION_ABBREVIATIONS \
                and [longer[0]] + longer[2:] == shorter:
            return True
    return False


def same_place(site_street: str | None, site_unit: str | None, site_zip: str | None,
               mailing_street: str | None, mailing_zip: str | None) -> bool:
    """Whether the mailing street line names the property: house number and street (``_same_street``), the
    unit when both name one, the ZIP when both have one."""
    site, unit = split_unit(site_street, site_unit)
    mail, mail_unit = split_unit(mailing_street)
    if not _same_street(site, mail):
        return False
    if unit and mail_unit and clean(unit) != clean(mail_unit):
        return False
    z1, z2 = zip5(site_zip), zip5(mailing_zip)
    return not (z1 and z2 and z1 != z2)


def owner_flags(site_street: str | None, site_unit: str | None, site_zip: str | None, site_state: str | None,
                mailing: Mailing) -> tuple[bool | None, bool | None]:
    """(absentee, out of state), each True, False or None (unknown): module docstring."""
    mail_state = clean(mailing.state) or None
    state = clean(site_state) or None
    out_of_state = (mail_state != state) if (mail_state and state) else None
    if out_of_state:
        return True, True
    if mailing.street:
        return not same_place(site_street, site_unit, site_zip, mailing.street, mailing.zip_code), out_of_state
    z_site, z_mail = zip5(site_zip), zip5(mailing.zip_code)
    if z_site and z_mail and z_site != z_mail:
        return True, out_of_state
    return None, out_of_state


# --------------------------------------------------------------------------- bank-owned (REO)

# Owner names of lenders, servicers, the government-sponsored enterprises and agencies that take houses
# back, and banks acting as trustees of mortgage trusts (matched on the upper-cased name with periods
# dropped and spaces folded).
_BANK_WORDS = (
    r"\bBANK\b", r"\bBANCORP\b", r"\bCITIBANK\b", r"\bSUNTRUST\b", r"\bNATIONAL ASSOCIATION\b",
    r"\bN ?A$", r"\bN ?A (?:AS|TRUSTEE)\b", r"\bMORTGAGE\b", r"\bMTG\b", r"\bLOAN SERVICING\b",
    r"\bSERVICING\b", r"\bHOME LOANS?\b", r"\bLENDING\b", r"\bSAVINGS\b", r"\bCREDIT UNION\b",
    r"\bFEDERAL NATIONAL\b", r"\bFANNIE MAE\b", r"\bFREDDIE MAC\b", r"\bFEDERAL HOME LOAN\b", r"\bFHLMC\b",
    r"\bFNMA\b", r"\bHUD\b", r"\bSECRETARY OF HOUSING\b", r"\bHOUSING AND URBAN DEVELOPMENT\b",
    r"\bSECRETARY OF VETERANS\b", r"\bVETERANS AFFAIRS\b", r"\bWELLS FARGO\b", r"\bDEUTSCHE BANK\b",
    r"\bUS BANK\b", r"\bU S BANK\b", r"\bNATIONAL TRUST\b", r"\bCHRISTIANA TRUST\b",
    r"\bWILMINGTON (?:SAVINGS|TRUST)\b", r"\bNATIONSTAR\b", r"\bOCWEN\b", r"\bJPMORGAN\b", r"\bCHASE HOME\b",
    r"\bREO\b",
)
_ANY_BANK = re.compile("|".join(f"(?:{word})" for word in _BANK_WORDS))  # one search finds any of them
# "BANKS, JOHN" / "BANK, MARY": a person written "SURNAME, GIVEN NAMES" (one surname word before the comma,
# no entity word anywhere) is never a lender, whatever the surname.
_PERSON = re.compile(r"^[A-Z'\-]+, [A-Z' \-]+$")
# Public land banks and charities are not lenders.
_NOT_LENDERS = re.compile(r"\b(?:LAND|FOOD|BLOOD|CLOTHING|DIAPER)\s+BANK\b")
_ENTITY_WORDS = re.compile(r"\b(?:LLC|INC|CORP|CORPORATION|CO|COMPANY|TRUST|TRUSTEE|ASSOCIATION|N ?A|FSB|"
                           r"NATIONAL|FEDERAL|SECRETARY|LP|LTD)\b")


def is_bank_owned(owner_name: str | None) -> bool | None:
    """Whether the owner of record is a lender or servicer (the property is bank-owned, REO); None when the
    owner is unknown. 'WELLS FARGO BANK, N.A.' -> True; 'BANKS, JOHN' -> False."""
    name = " ".join((owner_name or "").upper().replace(".", "").split())
    if not name:
        return None
    if _PERSON.match(name) and not _ENTITY_WORDS.search(name):
        return False
    name = _NOT_LENDERS.sub(" ", name)
    return _ANY_BANK.search(name) is not None
