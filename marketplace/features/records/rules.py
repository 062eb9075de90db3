"""Public-record records: the one shape every open-data adapter produces.

An adapter (``marketplace/features/records/source_opendata/``) reads one dataset (Socrata SODA, ArcGIS REST, Carto SQL,
CKAN DataStore, or a downloaded file) through the dataset's mapping file (``marketplace/features/records/datasets/*.toml``)
and yields ``MappedRecord`` (one row that parsed), ``RejectedRow`` (one row that did not: counted, never
stored) or, for the FHFA house price index only, ``HpiPoint``. Ingestion (``features/records/service.py``)
turns mapped records into properties and their signals. Pure data: no I/O, no database.

Conventions every adapter keeps:
- money is whole US dollars (``int``), rounded half up from the published cents;
- dates are ``datetime.date`` (times of day are dropped), never in the future by more than a year
  (an obviously wrong date such as OPA's ``2071-...`` is treated as missing, not as the record's date);
- text is stripped, inner runs of spaces folded, ``NULL``/empty read as ``None``;
- ``address`` is the street line only (house number and street, upper case as published), ``unit`` apart;
- ``parcel_id`` keeps its leading zeros exactly as the dataset writes it (text, never a number);
- ``as_of`` is the date the record speaks for (notice or issue date, sale date, extract date): every signal
  on the product shows it.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from datetime import date, datetime
from typing import Mapping

# What a record proves. The distress signals make a property a lead; the fact kinds only feed a property's
# facts and values. "probate" comes from a commercial list (``features/scrape/source_batchdata.py``: BatchData's
# "inherited" quick list, a deed-based proxy: the owner acquired the property by inheritance), never from
# open data (no open probate dataset exists, see shared/public-records/README.md).
SIGNAL_KINDS = ("tax_delinquent", "sale_list", "foreclosure", "vacant", "code_violation", "probate")
FACT_KINDS = ("assessment", "recorded_sale")
RECORD_KINDS = SIGNAL_KINDS + FACT_KINDS
# For kind == "sale_list": which sale.
SALE_TYPES = ("sheriff", "tax", "trustee")
SALE_LABELS = {"sheriff": "Sheriff sale", "tax": "Tax sale", "trustee": "Trustee sale"}  # what a user reads


@dataclass(frozen=True)
class MappedRecord:
    """One dataset row after its mapping: every field the dataset has, ``None`` where it has none."""

    dataset_id: str                 # the mapping file's id = the folder name in shared/public-records
    record_key: str                 # the dataset's own key for the row (violation number, OPA number...)
    kind: str                       # one of RECORD_KINDS
    as_of: date | None              # the date the record speaks for
    # Where
    address: str | None = None      # street line, e.g. "9332 S LASALLE ST"
    unit: str | None = None
    city: str | None = None
    state: str | None = None        # two-letter code
    zip_code: str | None = None     # five digits
    parcel_id: str | None = None
    latitude: float | None = None   # WGS84 only (state-plane coordinates are not converted: left None)
    longitude: float | None = None
    # Who (personal data: shown only after an unlock)
    owner_name: str | None = None
    mailing_address: str | None = None   # street line of the owner's mailing address
    mailing_city: str | None = None
    mailing_state: str | None = None
    mailing_zip: str | None = None
    # The owner's name and mailing address in one line, as some reports print them (Baltimore's "Owner
    # Address"): split by ``records.rules_owner_flags.mailing_from_block`` when the parts above are missing.
    mailing_block: str | None = None
    # Property facts
    beds: int | None = None
    baths: float | None = None
    square_footage: int | None = None
    year_built: int | None = None
    property_class: str | None = None    # as published ("ROW HOUSE", "01 ONE FAMILY DWELLINGS", ...)
    # Money and dates (by kind)
    amount_owed: int | None = None       # tax_delinquent, foreclosure (debt), sale_list (lien / judgment)
    years_owed: int | None = None        # tax_delinquent: number of tax years owed
    delinquent_since: date | None = None  # tax_delinquent: first year owed, as Jan 1 of that year
    notice_date: date | None = None      # vacant, code_violation, foreclosure: date issued or filed;
                                         # probate: the date of the inheritance deed
    sale_date: date | None = None        # sale_list: the auction date; recorded_sale: the deed date
    sale_type: str | None = None         # sale_list: one of SALE_TYPES
    opening_bid: int | None = None       # sale_list
    assessed_value: int | None = None    # assessment (as published, e.g. Michigan SEV = about half)
    market_value: int | None = None      # assessment: the assessor's market value, when published
    value_year: int | None = None        # assessment: the year of the value
    sale_price: int | None = None        # recorded_sale (or the last sale on an assessment row)
    violations: tuple[str, ...] = ()     # code_violation / vacant: the violation texts
    record_url: str | None = None        # a public page for this record, when the portal has one
    extra: Mapping[str, str] = field(default_factory=dict)  # other published columns worth showing
    # When the portal itself last updated the row (Socrata ``:updated_at``, an ArcGIS layer's edit date;
    # UTC), stamped by the live reader, never mapped from a column: what a signal's lag is measured from.
    portal_updated_at: datetime | None = None
    # A digest of the file row the record was mapped from and of how it was mapped (the dataset's
    # definition, the mapping code, the file's day: ``source_opendata.row_digests``), stored with its
    # signal: a later read meeting the same digest knows the row unchanged without mapping it again. Not
    # part of the record's value: two reads of one row (a file's, the API's) give equal records.
    row_digest: int | None = field(default=None, compare=False, repr=False)


FIELD_NAMES = frozenset(f.name for f in fields(MappedRecord))
REQUIRED_FIELDS = frozenset(f.name for f in fields(MappedRecord)
                      if f.default is MISSING and f.default_factory is MISSING)
_DEFAULTS = {f.name: f.default for f in fields(MappedRecord) if f.default is not MISSING}


def mapped_record(values: dict) -> MappedRecord:
    """A ``MappedRecord`` of ``values`` without the frozen dataclass's ``object.__setattr__`` per field
    (5 µs of a record's 30 µs of mapping); the same record as ``MappedRecord(**values)``. The caller
    guarantees every name is a field (``FIELD_NAMES``), the fields without a default are given, and
    ``extra`` is (a fresh mapping)."""
    record = object.__new__(MappedRecord)
    state = record.__dict__
    state.update(_DEFAULTS)
    state.update(values)
    return record


def with_portal_update(record: MappedRecord, updated_at: datetime | None) -> MappedRecord:
    """``record`` (fresh from its mapping, not shared yet) stamped with the portal's update time of its row;
    set in place like ``mapped_record`` does, without a copy per row."""
    if updated_at is not None:
        record.__dict__["portal_updated_at"] = updated_at
    return record


@dataclass(frozen=True)
class RejectedRow:
    """A row that could not be mapped: counted per run, never stored."""

    dataset_id: str
    row_number: int                 # 1-based position in what was read (after any preamble)
    reason: str                     # e.g. "Issued Date: '13/45/2011' is not a date"


@dataclass(frozen=True)
class KnownRow:
    """A file row whose digest (``MappedRecord.row_digest``) an open signal of its dataset already holds:
    unchanged since the read that stored it, so it is not mapped. Only its first occurrence in a read: the
    same row again comes mapped (and is refused as a record read twice)."""

    dataset_id: str
    row_number: int
    row_digest: int


@dataclass(frozen=True)
class HpiPoint:
    """One value of the FHFA house price index (annual, three-digit ZIP)."""

    dataset_id: str
    zip3: str                       # "191"
    year: int
    index: float                    # the index with base 100 when first recorded (FHFA column D)
    annual_change: float | None     # percent


def newest_age(newest_as_of: date, max_age_days: int, today: date) -> tuple[int, bool]:
    """How many days old a dataset's newest record is, and whether that is fresh: a dataset whose
    newest record is older than its ``max_age_days`` is stale (the explorer and the run say so)."""
    age = (today - newest_as_of).days
    return age, age <= max_age_days
