"""From one BatchData property-search result to a ``records.rules`` record (the BatchData source's mapping).

Which quick list means what (``QUICK_LISTS``; request value = BatchData's documented filter value, response
flag = the boolean of the same list in the property's ``quickLists`` object):

| quick list (our name = response flag) | request value | record kind | what it proves |
| --- | --- | --- | --- |
| ``preforeclosure`` | ``preforeclosure`` | ``foreclosure`` | a pre-foreclosure filing on record |
| ``noticeOfDefault`` | ``notice-of-default`` | ``foreclosure`` | a recorded notice of default |
| ``noticeOfLisPendens`` | ``notice-of-lis-pendens`` | ``foreclosure`` | a lis pendens (pending suit) |
| ``noticeOfSale`` | ``notice-of-sale`` | ``sale_list`` | a notice of (trustee) sale |
| ``activeAuction`` | ``active-auction`` | ``sale_list`` | an auction date after today |
| ``taxDefault`` | ``tax-default`` | ``tax_delinquent`` | in tax default, first default 3+ years ago |
| ``vacant`` | ``vacant`` | ``vacant`` | USPS flags the address vacant |
| ``inherited`` | ``inherited`` | ``probate`` | acquired by inheritance: a deed-based PROBATE PROXY |

Provenance: ``dataset_id`` is ``batchdata-<request value>`` (one dataset per quick list, so a run of one list
never speaks for another: ingestion may close the signals a list no longer returns without touching the
others), ``record_key`` is ``<BatchData property _id>/<request value>`` (the property id plus the signal), and
``extra["Source"]`` is the attribution line shown to users: "BatchData property search (<request value>),
retrieved <Mon D, YYYY>" (``attribution``): a commercial list, not a public portal.

Fields (names from BatchData's data dictionary; see ``features/scrape/source_batchdata.py`` for the sources):

- where: ``address.streetNoUnit`` (else ``address.street``) -> ``address``; ``unitType`` + ``unitNumber`` ->
  ``unit`` (only with ``streetNoUnit``, else the unit stays in the street line); ``city``; ``state`` (two
  letters); ``zip`` (five digits; a value that is not a ZIP code rejects the row); ``latitude`` /
  ``longitude`` (out of range rejects); ``ids.apn`` -> ``parcel_id``;
- who (personal data): ``owner.fullName`` (else the ``owner.names[].full`` joined with " & ");
  ``owner.mailingAddress.street/city/state/zip``;
- facts: ``building.bedroomCount``, ``bathroomCount`` (else ``calculatedBathroomCount``),
  ``livingAreaSquareFeet`` (else ``totalBuildingAreaSquareFeet``), ``yearBuilt``;
  ``general.propertyTypeDetail`` (else ``propertyTypeCategory``) -> ``property_class``;
  ``assessment.totalAssessedValue`` / ``totalMarketValue`` / ``marketValueYear`` (the assessor's, as BatchData
  republishes them); ``sale.lastSale.price`` -> ``sale_price`` (with "Last sale date" in ``extra``);
  ``valuation.estimatedValue`` is BatchData's AVM, an estimate: only in ``extra`` as "BatchData estimated
  value (AVM)", never as a market value;
- foreclosure lists: ``notice_date`` = ``foreclosure.recordingDate``, else ``filingDate``, else
  ``defaultDate``; ``amount_owed`` = ``foreclosure.pastDueAmount`` (the default amount); the unpaid balance,
  lender, trustee, case number and document type go to ``extra``;
- sale lists: ``sale_date`` = ``foreclosure.auctionDate``; ``opening_bid`` = ``auctionMinimumBidAmount``;
  ``amount_owed`` = ``unpaidBalance`` (the debt the sale is for); ``notice_date`` = ``recordingDate``;
  ``sale_type`` as the document type says ("sheriff" or "tax" when it names one), else "trustee" (a notice of
  sale is the trustee's notice in the non-judicial states that publish them);
- ``taxDefault``: ``delinquent_since`` = January 1 of ``tax.taxDelinquentYear``; ``amount_owed`` only from a
  delinquent-amount field (``tax.taxDelinquentAmount`` or ``tax.delinquentAmount``: NOT in the data
  dictionary, read when present), never from ``tax.taxAmount`` (the yearly bill, kept in ``extra``);
  ``years_owed`` stays None (BatchData does not publish it and it is not guessed);
- ``inherited``: the inheritance deed date = ``sale.lastTransfer.recordingDate``, else its ``saleDate``, else
  ``owner.ownershipStartDate`` (the dictionary has no field named for the inheritance itself: this is the
  deed that made the current owner the owner) -> ``notice_date``; ``extra["Signal"]`` labels the proxy;
- ``as_of``: the notice or deed date above, else the retrieval date (the day the list said so).

Conventions of ``records.rules``, with the parsers of ``records.rules_parse``: money in whole dollars rounded half up;
dates ``date``, a date more than a year ahead treated as missing; text stripped and folded, "NULL"/empty ->
None; a ZIP+4 cut to five digits. A missing field is None; a value that cannot be read (a date that is not a
date, money that is not a number or negative, NaN, an object where a value belongs, a property that is not
an object or has no ``_id`` or street) makes a ``RejectedRow`` naming the field and the value. A property
whose ``quickLists`` flag for the list it came from is ``false`` is rejected too (contradicts the search).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from marketplace.features.records import rules_parse as parse
from marketplace.features.marketplace import usd
from marketplace.features.records import MappedRecord, RejectedRow
from marketplace.platform.times import format_date

BATCHDATA = "BatchData"
DATASET_PREFIX = "batchdata-"
PROBATE_PROXY_LABEL = ("Inherited (deed-based probate proxy): BatchData lists the owner as having acquired "
                       "the property by inheritance; this is not a probate court filing")
VACANT_LABEL = "USPS flags the address as vacant (per BatchData)"
FUTURE_SLACK = timedelta(days=366)  # as the open-data mapper: a later date is an obvious error, read as missing


@dataclass(frozen=True)
class QuickList:
    name: str           # our name = the flag in the response's quickLists object ("noticeOfDefault")
    filter_value: str   # the value sent in searchCriteria.quickLists ("notice-of-default")
    kind: str           # records.rules signal kind
    label: str          # what the signal is, in words

    @property
    def dataset_id(self) -> str:
        return f"{DATASET_PREFIX}{self.filter_value}"


QUICK_LISTS: dict[str, QuickList] = {q.name: q for q in (
    QuickList("preforeclosure", "preforeclosure", "foreclosure", "Pre-foreclosure"),
    QuickList("noticeOfDefault", "notice-of-default", "foreclosure", "Notice of default"),
    QuickList("noticeOfLisPendens", "notice-of-lis-pendens", "foreclosure", "Notice of lis pendens"),
    QuickList("noticeOfSale", "notice-of-sale", "sale_list", "Notice of sale"),
    QuickList("activeAuction", "active-auction", "sale_list", "Active auction"),
    QuickList("taxDefault", "tax-default", "tax_delinquent", "Tax default"),
    QuickList("vacant", "vacant", "vacant", "Vacant"),
    QuickList("inherited", "inherited", "probate", "Inherited (deed-based probate proxy)"),
)}


def quick_list(name: str) -> QuickList | None:
    """The quick list named by our name ("noticeOfDefault") or BatchData's filter value ("notice-of-default")."""
    found = QUICK_LISTS.get(name)
    return found or next((q for q in QUICK_LISTS.values() if q.filter_value == name), None)


def attribution(q: QuickList, retrieved: date) -> str:
    """The line shown with every BatchData signal: a commercial list, dated by its retrieval."""
    return f"{BATCHDATA} property search ({q.filter_value}), retrieved {format_date(retrieved, 'UTC')}"


class _Unreadable(ValueError):
    """A value that cannot be read: the property becomes a RejectedRow with this reason."""


def map_property(prop: Any, q: QuickList, *, row_number: int, retrieved: date) -> MappedRecord | RejectedRow:
    """One search result of quick list ``q`` as a signal record, or the reason it cannot be one."""
    try:
        return _record(prop, q, retrieved)
    except _Unreadable as exc:
        return RejectedRow(dataset_id=q.dataset_id, row_number=row_number, reason=str(exc))


# ---------------------------------------------------------------------- reading values

def _get(obj: Any, path: str) -> Any:
    """``obj["a"]["b"]`` for "a.b"; None when a step is missing; a step that is not an object is unreadable."""
    steps = path.split(".")
    for number, step in enumerate(steps):
        if obj is None:
            return None
        if not isinstance(obj, dict):
            raise _Unreadable(f"{'.'.join(steps[:number])}: expected an object, got {_show(obj)}")
        obj = obj.get(step)
    return obj


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _read(prop: Any, path: str, parser: Callable[[Any], Any]) -> Any:
    """The value at ``path`` through a ``records.rules_parse`` parser; what it cannot read is unreadable."""
    value = _get(prop, path)
    if isinstance(value, (dict, list)):
        raise _Unreadable(f"{path}: expected a value, got {_show(value)}")
    if isinstance(value, float) and not math.isfinite(value):  # JSON NaN / Infinity (Python's json reads them)
        raise _Unreadable(f"{path}: {value!r} is not a number")
    try:
        return parser(value)
    except ValueError as exc:
        raise _Unreadable(f"{path}: {exc}") from None


def _text(prop: Any, path: str) -> str | None:
    return _read(prop, path, parse.text)


def _number(prop: Any, path: str) -> Decimal | None:
    return _read(prop, path, parse.decimal)


def _money(prop: Any, path: str) -> int | None:
    amount = _read(prop, path, parse.money)
    if amount is not None and amount < 0:
        raise _Unreadable(f"{path}: {_show(_get(prop, path))} is a negative amount")
    return amount


def _int(prop: Any, path: str) -> int | None:
    return _read(prop, path, parse.integer)


def _date(prop: Any, path: str, retrieved: date) -> date | None:
    """Any layout ``records.rules_parse.day`` reads (BatchData's ``dateFormat`` iso-date / iso-date-time among them);
    a date more than a year after the retrieval is treated as missing."""
    day = _read(prop, path, parse.day)
    return None if day is not None and day - retrieved > FUTURE_SLACK else day


def _first(*values: Any) -> Any:
    return next((v for v in values if v is not None), None)


# ---------------------------------------------------------------------- the record

def _record(prop: Any, q: QuickList, retrieved: date) -> MappedRecord:
    if not isinstance(prop, dict):
        raise _Unreadable(f"property: expected an object, got {_show(prop)}")
    property_id = _text(prop, "_id")
    if property_id is None:
        raise _Unreadable("_id: missing (every BatchData property has one)")
    flag = _get(prop, f"quickLists.{q.name}")
    if flag is False:
        raise _Unreadable(f"quickLists.{q.name}: false for a property returned by the {q.filter_value} search")
    fields: dict[str, Any] = {**_where(prop), **_who(prop), **_facts(prop, retrieved)}
    extra: dict[str, str] = {"Source": attribution(q, retrieved), "Quick list": q.label}
    extra.update(fields.pop("extra"))
    signal = _SIGNALS[q.kind](prop, retrieved, extra)
    as_of = _first(signal.get("notice_date"), retrieved)
    return MappedRecord(
        dataset_id=q.dataset_id,
        record_key=f"{property_id}/{q.filter_value}",
        kind=q.kind,
        as_of=as_of,
        extra=extra,
        **fields,
        **signal,
    )


def _where(prop: dict[str, Any]) -> dict[str, Any]:
    street_no_unit = _text(prop, "address.streetNoUnit")
    street = street_no_unit or _text(prop, "address.street")
    if street is None:
        raise _Unreadable("address.street: missing (the property cannot be placed)")
    unit = None
    if street_no_unit and _text(prop, "address.unitNumber"):
        unit = " ".join(p for p in (_text(prop, "address.unitType"), _text(prop, "address.unitNumber")) if p)
    state = _text(prop, "address.state")
    if state is not None and not re.fullmatch(r"[A-Za-z]{2}", state):
        raise _Unreadable(f"address.state: {_show(state)} is not a two-letter state code")
    return {
        "address": street,
        "unit": unit,
        "city": _text(prop, "address.city"),
        "state": state.upper() if state else None,
        "zip_code": _zip(prop, "address.zip"),
        "parcel_id": _read(prop, "ids.apn", parse.parcel_id),
        "latitude": _coordinate(prop, "address.latitude", 90),
        "longitude": _coordinate(prop, "address.longitude", 180),
    }


def _coordinate(prop: dict[str, Any], path: str, limit: int) -> float | None:
    number = _number(prop, path)
    if number is None:
        return None
    if abs(number) > limit:
        raise _Unreadable(f"{path}: {number} is out of range")
    return float(number)


def _zip(prop: dict[str, Any], path: str) -> str | None:
    return _read(prop, path, parse.zip_code)


def _who(prop: dict[str, Any]) -> dict[str, Any]:
    name = _text(prop, "owner.fullName")
    names = _get(prop, "owner.names")
    if name is None and isinstance(names, list):
        name = " & ".join(n for n in (_text(item, "full") for item in names if isinstance(item, dict)) if n) or None
    state = _text(prop, "owner.mailingAddress.state")
    return {
        "owner_name": name,
        "mailing_address": _text(prop, "owner.mailingAddress.street"),
        "mailing_city": _text(prop, "owner.mailingAddress.city"),
        "mailing_state": state.upper() if state and len(state) == 2 else state,
        "mailing_zip": _zip(prop, "owner.mailingAddress.zip"),
    }


def _facts(prop: dict[str, Any], retrieved: date) -> dict[str, Any]:
    baths = _first(_number(prop, "building.bathroomCount"), _number(prop, "building.calculatedBathroomCount"))
    extra: dict[str, str] = {}
    last_sale_date = _first(_date(prop, "sale.lastSale.saleDate", retrieved),
                            _date(prop, "sale.lastSale.recordingDate", retrieved))
    if last_sale_date:
        extra["Last sale date"] = format_date(last_sale_date, "UTC")
    estimate = _money(prop, "valuation.estimatedValue")
    if estimate is not None:
        extra["BatchData estimated value (AVM)"] = usd(estimate)
    return {
        "beds": _int(prop, "building.bedroomCount"),
        "baths": float(baths) if baths is not None else None,
        "square_footage": _first(_int(prop, "building.livingAreaSquareFeet"),
                                 _int(prop, "building.totalBuildingAreaSquareFeet")),
        "year_built": _int(prop, "building.yearBuilt"),
        "property_class": _first(_text(prop, "general.propertyTypeDetail"),
                                 _text(prop, "general.propertyTypeCategory")),
        "assessed_value": _money(prop, "assessment.totalAssessedValue"),
        "market_value": _money(prop, "assessment.totalMarketValue"),
        "value_year": _first(_int(prop, "assessment.marketValueYear"), _int(prop, "assessment.assessmentYear")),
        "sale_price": _money(prop, "sale.lastSale.price"),
        "extra": extra,
    }


# ---------------------------------------------------------------------- by signal kind

_FORECLOSURE_EXTRA = (("documentType", "Document type"), ("caseNumber", "Case number"),
                      ("currentLenderName", "Lender"), ("trusteeName", "Trustee"),
                      ("trusteeSaleNumber", "Trustee sale number"), ("auctionLocation", "Auction location"),
                      ("auctionCity", "Auction city"), ("status", "Status"))


def _foreclosure_extra(prop: dict[str, Any], extra: dict[str, str]) -> None:
    for name, label in _FORECLOSURE_EXTRA:
        value = _text(prop, f"foreclosure.{name}")
        if value:
            extra[label] = value


def _foreclosure(prop: dict[str, Any], retrieved: date, extra: dict[str, str]) -> dict[str, Any]:
    _foreclosure_extra(prop, extra)
    balance = _money(prop, "foreclosure.unpaidBalance")
    if balance is not None:
        extra["Unpaid balance (foreclosure document)"] = usd(balance)
    return {
        "notice_date": _first(_date(prop, "foreclosure.recordingDate", retrieved),
                              _date(prop, "foreclosure.filingDate", retrieved),
                              _date(prop, "foreclosure.defaultDate", retrieved)),
        "amount_owed": _money(prop, "foreclosure.pastDueAmount"),
    }


def _sale_type(prop: dict[str, Any]) -> str:
    said = (_text(prop, "foreclosure.documentType"), _text(prop, "foreclosure.status"))
    words = " ".join(t for t in said if t).lower()
    if "sheriff" in words:
        return "sheriff"
    if "tax" in words:
        return "tax"
    return "trustee"


def _sale_list(prop: dict[str, Any], retrieved: date, extra: dict[str, str]) -> dict[str, Any]:
    _foreclosure_extra(prop, extra)
    return {
        "notice_date": _date(prop, "foreclosure.recordingDate", retrieved),
        "sale_date": _date(prop, "foreclosure.auctionDate", retrieved),
        "sale_type": _sale_type(prop),
        "opening_bid": _money(prop, "foreclosure.auctionMinimumBidAmount"),
        "amount_owed": _money(prop, "foreclosure.unpaidBalance"),
    }


def _tax_delinquent(prop: dict[str, Any], retrieved: date, extra: dict[str, str]) -> dict[str, Any]:
    year = _int(prop, "tax.taxDelinquentYear")
    since = date(year, 1, 1) if year is not None and 1900 <= year <= retrieved.year else None
    bill = _money(prop, "tax.taxAmount")
    if bill is not None:
        tax_year = _int(prop, "tax.taxYear")
        extra["Yearly tax bill" + (f" ({tax_year})" if tax_year else "")] = usd(bill)
    return {
        "delinquent_since": since,
        "amount_owed": _first(_money(prop, "tax.taxDelinquentAmount"), _money(prop, "tax.delinquentAmount")),
    }


def _vacant(prop: dict[str, Any], retrieved: date, extra: dict[str, str]) -> dict[str, Any]:
    extra["Vacancy"] = VACANT_LABEL
    return {}


def _probate(prop: dict[str, Any], retrieved: date, extra: dict[str, str]) -> dict[str, Any]:
    deed_date = _first(_date(prop, "sale.lastTransfer.recordingDate", retrieved),
                       _date(prop, "sale.lastTransfer.saleDate", retrieved),
                       _date(prop, "owner.ownershipStartDate", retrieved))
    extra["Signal"] = PROBATE_PROXY_LABEL
    deed_type = _text(prop, "sale.lastTransfer.documentType")
    if deed_type:
        extra["Deed type"] = deed_type
    return {"notice_date": deed_date}


_SIGNALS = {
    "foreclosure": _foreclosure,
    "sale_list": _sale_list,
    "tax_delinquent": _tax_delinquent,
    "vacant": _vacant,
    "probate": _probate,
}
