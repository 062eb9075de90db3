"""What one mapped record writes, as pure functions of the record: the property columns it
sets (``property_values``: newer facts replace, older ones only fill gaps; owner flags), its signal row
(``signal_values``: a sale list whose date has passed is stored closed), and the record fitted to the
columns' widths (``fitted``), and which known property a record belongs to (``property_for``: parcel first).
``records.service`` does the reading and writing."""

from __future__ import annotations

import dataclasses
from datetime import date
from typing import Any

from marketplace.features.records import rules_owner_flags as owners
from marketplace.features.records.rules_addresses import split_unit, zip5
from marketplace.features.records import rules_signal_currency as signal_currency
from marketplace.features.records.rules import MappedRecord


# Property columns a record may fill (value columns only from assessment records).
FACT_COLUMNS = ("city", "latitude", "longitude", "owner_name", "mailing_address", "mailing_city", "mailing_state",
                "mailing_zip", "beds", "baths", "square_footage", "year_built", "property_class")
VALUE_COLUMNS = ("assessed_value", "market_value", "value_year")


def facts_mark(record: MappedRecord) -> tuple[date, str]:
    return record.as_of or date.min, f"{record.dataset_id}/{record.record_key}"[:200]


def property_values(record: MappedRecord, existing: Any, dataset_id: str, state: str) -> dict:
    """The property columns the record sets (only the values it has). A record at least as new as the one
    the property's facts came from (``facts_as_of``, then ``facts_record``) replaces them; an older one
    only fills the facts still missing. The owner flags (absentee, out of state, bank-owned) follow from the
    property's address and the owner's name and mailing address it ends up with (``records.rules_owner_flags``)."""
    record = owners.with_mailing(record)
    facts = {name: getattr(record, name) for name in FACT_COLUMNS if getattr(record, name) is not None}
    as_of, mark = facts_mark(record)
    newer = existing is None or (as_of, mark) >= (existing.facts_as_of or date.min, existing.facts_record or "")
    if newer:
        values = dict(facts, facts_as_of=record.as_of, facts_record=mark)
    else:
        values = {name: value for name, value in facts.items() if getattr(existing, name) is None}
    if record.kind == "assessment":
        # Values follow the same rule as facts: an older roll year (the 2025 row of a PIN whose 2026 row
        # is stored) only fills what is missing, so reading a roll of several years twice changes nothing.
        assessed = {name: getattr(record, name) for name in VALUE_COLUMNS if getattr(record, name) is not None}
        if "market_value" not in assessed and "assessed_value" not in assessed:
            assessed.pop("value_year", None)  # a year dates a value: a roll row without one dates nothing
        if not newer:
            assessed = {name: value for name, value in assessed.items() if getattr(existing, name) is None}
        values.update(assessed)
        if assessed.get("market_value") is not None or assessed.get("assessed_value") is not None:
            values["value_dataset_id"] = dataset_id
        if record.sale_price is not None and record.sale_date is not None:
            values["last_sale_price"], values["last_sale_date"] = record.sale_price, record.sale_date
        # The roll record that names the property (its newest): the Public record section links it.
        if existing is None or (as_of, mark) >= (getattr(existing, "roll_as_of", None) or date.min,
                                                 getattr(existing, "roll_record", None) or ""):
            values["roll_record"], values["roll_as_of"] = mark, record.as_of
    values.update(owner_values(record, existing, values, state))
    return values


def owner_values(record: MappedRecord, existing: Any, values: dict, state: str) -> dict:
    """The property's owner flags from its address and the owner's name and mailing address as they will be
    stored (the record's new values over the existing row's)."""
    def current(name: str) -> Any:
        return values[name] if name in values else getattr(existing, name, None)

    mailing = owners.Mailing(street=current("mailing_address"), city=current("mailing_city"),
                             state=current("mailing_state"), zip_code=current("mailing_zip"))
    if existing is not None and getattr(existing, "address", None):
        street, unit, site_zip = existing.address, existing.unit, existing.zip_code
    else:
        (street, unit), site_zip = split_unit(record.address, record.unit), zip5(record.zip_code)
    state = getattr(existing, "state", None) or state
    absentee, out_of_state = owners.owner_flags(street, unit, site_zip, state, mailing)
    return {"absentee_owner": absentee, "out_of_state_owner": out_of_state,
            "bank_owned": owners.is_bank_owned(current("owner_name"))}


def signal_values(record: MappedRecord, property_id: int, today: date, status_list: bool = False) -> dict:
    """A signal row's values; ``status_list``: the record is an item of a status list (``as_of`` is the
    list's day)."""
    details: dict = {}
    if record.violations:
        details["violations"] = list(record.violations)
    if record.extra:
        details["extra"] = {str(k): str(v) for k, v in record.extra.items()}
    # A held sale closes its signal (records.rules_signal_currency rule 1; without a maximum age nothing else does:
    # a record older than its dataset's maximum age stays open, as history, while it is in its dataset).
    held = signal_currency.closes_because(record, None, today)
    return {
        "property_id": property_id, "kind": record.kind, "sale_type": record.sale_type, "as_of": record.as_of,
        "amount_owed": record.amount_owed, "years_owed": record.years_owed,
        "delinquent_since": record.delinquent_since, "sale_date": record.sale_date,
        "notice_date": record.notice_date, "opening_bid": record.opening_bid, "details": details,
        "record_url": record.record_url, "status": "closed" if held else "open",
        "closed_reason": held, "status_list": status_list,
    }


# Column widths (platform/models/records.py): an identifying value that does not fit rejects its row, a
# descriptive one is cut (PostgreSQL would refuse the whole batch; SQLite would store it whole).
KEY_WIDTHS = {"record_key": 128, "parcel_id": 64, "address": 255}
TEXT_WIDTHS = {"unit": 32, "city": 100, "owner_name": 255, "mailing_address": 255, "mailing_city": 100,
               "mailing_zip": 10, "property_class": 100, "record_url": 1024, "sale_type": 16}


def fitted(record: MappedRecord) -> MappedRecord | str:
    """The record with its text cut to the columns' widths, or why it cannot be stored."""
    for name, width in KEY_WIDTHS.items():
        value = getattr(record, name)
        if value is not None and len(value) > width:
            return f"{name} longer than {width} characters"
    changes: dict[str, Any] = {name: getattr(record, name)[:width] for name, width in TEXT_WIDTHS.items()
                               if getattr(record, name) is not None and len(getattr(record, name)) > width}
    for name in ("state", "mailing_state"):
        value = getattr(record, name)
        if value is not None and (len(value.strip()) != 2 or not value.strip().isalpha()):
            if name == "state":
                return f"state {value[:20]!r} is not a two-letter code"
            changes[name] = None
        elif value is not None and value != value.strip().upper():
            changes[name] = value.strip().upper()
    if record.record_url and not record.record_url.startswith(("https://", "http://")):
        changes["record_url"] = None
    return dataclasses.replace(record, **changes) if changes else record


def property_for(by_parcel: dict, by_address: dict, state: str, parcel: str | None, key: str | None,
                 zip_code: str | None) -> Any:
    """The stored property a record belongs to, or None (a new one): the property of its parcel; else, at its
    street address, the property without a parcel id (a record with a parcel id adopts it), or, for a record
    without a parcel id, the one parcel there. Several parcels at one address stay several properties; a
    record naming none of them belongs to the address's own property (without a parcel id)."""
    if parcel:
        found = by_parcel.get((state, parcel))
        if found is not None:
            return found
    if not key:
        return None
    here = by_address.get((key, zip_code), [])
    unparcelled = [p for p in here if not p.parcel_id]
    if unparcelled:
        return unparcelled[0]
    if not parcel and len(here) == 1:
        return here[0]
    return None
