"""A public-record dataset as its file in ``marketplace/features/records/datasets/`` describes it.

Datasets are data, not code: adding a county is adding a TOML file. ``load_datasets`` reads and validates
every file; a bad file raises ``ValueError`` naming the file and the field. The file's keys:

- ``id`` (= the file name = the sample's folder in shared/public-records), ``title``, ``publisher``,
  ``protocol`` (``socrata``, ``arcgis``, ``carto``, ``ckan`` or ``file``), ``endpoint`` (the portal root;
  for ArcGIS the service URL), ``resource`` (Socrata dataset id, ArcGIS layer id, Carto table, CKAN
  resource id), ``filter`` (the protocol's own where-clause; CKAN: a JSON object of field filters);
- ``kind`` (a ``records.rules`` kind, or ``hpi``) and ``sale_type`` (for ``sale_list``);
- ``list`` (required): ``"status"`` when each row is an item still open on the day the list was taken (open
  notices, vacancy indicators, open violations, vacate orders, delinquency balances: a signal is current while
  the newest snapshot holds it and that snapshot is within ``max_age_days``; its rows are as of that day, from
  ``import-records --as-of``, an ``as_of`` column naming the list's day, ``file_name_date``, or the pull's
  day, never today by default), ``"event"`` when each row is a dated event (sale lists, filings, deeds,
  recorded sales, rolls: judged by its own date); ``file_name_date``: a regular expression over the export's
  file name whose groups are year, month and (optionally) day, the day the export was taken;
- ``freshness_field`` (the API column the incremental ``since`` filter uses), ``max_age_days``,
  ``status_note`` (why the dataset is not live, when it is not), ``licence``, ``attribution``,
  ``record_url_template`` (``{key}`` is the record key), ``page_size``, ``null_values`` (texts that mean
  "no value" besides empty and ``NULL``), ``undated`` (true when rows carry no date: a record is as of
  the extract's date, see ``opendata.read_file``), ``min_full_share`` (a full read holding fewer open records
  than this share of the dataset's open signals closes nothing; default 0.8), ``sale_date_in_file_name``
  (a sale list published one file per sale, named by its sale date: a row without a sale date takes the
  date the file's name gives, and keeps none when the name gives none), ``pull_every_minutes`` (how often
  the records worker pulls the dataset when it is in ``OPEN_DATA_DATASETS``: a whole number of minutes from
  1 to 10080, default ``PULL_EVERY_MINUTES``, 60; a pull is incremental where the portal allows it, see
  ``records.source_opendata.portal``);
- ``record_key`` and ``[fields]``: each target field (a ``MappedRecord`` or ``HpiPoint`` field, plus
  ``as_of``) read from a column. A spec is a column name, or a table with ``column`` (same name in every
  form) or ``api`` / ``file`` (the API's field name and the exported file's display name), ``type``
  (parser in ``records.rules_parse``; the target's own type by default), ``split`` (a multi-value cell's separator:
  a tuple field keeps every part, another field the first), ``pattern`` (a regular expression whose first
  group is the value), ``width`` (parcel ids: leading zeros a spreadsheet dropped), ``year_start`` (a
  date or year read as January 1 of its year), ``items`` (a cell holding a JSON array of objects, as
  text in a CSV or as a list in JSON: each object's value of that key is one part, like ``split``).
  Parcel ids per market: ``type = "cook_pin"`` / ``"phl_opa"`` / ``"nyc_bbl"`` (``records.rules_parcel_ids``);
  a point from hex WKB: ``"wkb_latitude"`` / ``"wkb_longitude"``. A column a row lacks is looked up
  again ignoring case (PLUTO's ``BBL`` in 16v2, ``bbl`` in 25v2). A column name holding ``{`` is a
  template over the row's columns (``"{Block} {Lot}"``). Nested JSON columns are dotted paths
  (``listing_details.sale_date``);
- ``[constants]``: values of target fields the whole dataset shares (city, state);
- ``[extra]``: other published columns worth showing (label = spec), kept as text.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field, fields as dataclass_fields
from datetime import date
from pathlib import Path
from typing import Any, Mapping

from marketplace.features.records import rules_parse as parse
from marketplace.features.records.rules import RECORD_KINDS, SALE_TYPES, HpiPoint, MappedRecord

PROTOCOLS = ("socrata", "arcgis", "carto", "ckan", "file")
KINDS = RECORD_KINDS + ("hpi",)
DATASETS_DIR = Path(__file__).resolve().parents[1] / "datasets"
FORMS = ("api", "file")

# The parser each target field uses unless its spec names another.
_DATES = ("as_of", "delinquent_since", "notice_date", "sale_date")
_MONEY = ("amount_owed", "opening_bid", "assessed_value", "market_value", "sale_price")
_INTS = ("beds", "square_footage", "years_owed")
_YEARS = ("year_built", "value_year", "year")
_FLOATS = ("baths", "latitude", "longitude", "index", "annual_change")
_NOT_MAPPED = ("dataset_id", "record_key", "kind", "sale_type", "extra", "portal_updated_at", "row_digest")
RECORD_TARGETS = ("as_of",) + tuple(f.name for f in dataclass_fields(MappedRecord) if f.name not in _NOT_MAPPED
                                    and f.name != "as_of")
HPI_TARGETS = tuple(f.name for f in dataclass_fields(HpiPoint) if f.name != "dataset_id")
# A full read holding fewer open records than this share of the dataset's open signals (more than 20% fewer
# than the last full read left open) closes nothing, unless the import allows the drop.
MIN_FULL_SHARE = 0.8
PULL_EVERY_MINUTES = 60  # a dataset's pull interval unless its file says ``pull_every_minutes``
MAX_PULL_EVERY_MINUTES = 7 * 24 * 60
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # a field name that may go into a query
# What a resource id looks like per protocol (it goes into URLs and, for Carto, into SQL).
_RESOURCE_FORMS = {"socrata": r"[a-z0-9]{4}-[a-z0-9]{4}", "arcgis": r"\d{1,4}",
                   "carto": r"[A-Za-z_][A-Za-z0-9_]*", "ckan": r"[A-Za-z0-9-]{1,100}"}
_SPEC_KEYS = ("column", "api", "file", "type", "split", "pattern", "width", "year_start", "items")
_TOP_KEYS = ("id", "title", "publisher", "protocol", "endpoint", "resource", "filter", "record_key", "kind",
             "sale_type", "fields", "constants", "extra", "freshness_field", "max_age_days", "status_note",
             "licence", "attribution", "record_url_template", "page_size", "null_values", "undated",
             "min_full_share", "sale_date_in_file_name", "list", "file_name_date",
             "pull_every_minutes")
LIST_KINDS = ("status", "event")


def default_type(target: str) -> str:
    if target in _DATES:
        return "date"
    if target in _MONEY:
        return "money"
    if target in _INTS:
        return "int"
    if target in _YEARS:
        return "year"
    if target in _FLOATS:
        return "float"
    if target in ("zip_code", "mailing_zip"):
        return "zip"
    if target in ("parcel_id", "zip3"):
        return "parcel"
    return "text"


@dataclass(frozen=True)
class FieldSpec:
    """Where one target field comes from, per input form, and how it is read."""

    api: str | None
    file: str | None
    type: str = "text"
    split: str | None = None
    pattern: str | None = None
    width: int | None = None
    year_start: bool = False
    items: str | None = None  # a cell holding a JSON array of objects: each object's value of this key

    def column(self, form: str) -> str | None:
        """The column (or template) for ``form`` (``"api"`` or ``"file"``); None when that form lacks it."""
        return self.api if form == "api" else self.file

    def columns(self, form: str) -> tuple[str, ...]:
        """The plain column names this spec reads in ``form`` (a template's placeholders)."""
        name = self.column(form)
        if name is None:
            return ()
        if "{" in name:
            return tuple(m.split(":")[0] for m in re.findall(r"\{([^{}]+)\}", name))
        return (name,)


@dataclass(frozen=True)
class Dataset:
    id: str
    title: str
    publisher: str
    protocol: str
    endpoint: str
    resource: str
    filter: str
    record_key: FieldSpec
    kind: str
    sale_type: str | None
    mapping: Mapping[str, FieldSpec]
    constants: Mapping[str, str]
    freshness_field: str | None
    max_age_days: int
    status_note: str | None
    licence: str
    attribution: str
    record_url_template: str | None
    page_size: int
    extra: Mapping[str, FieldSpec] = field(default_factory=dict)
    null_values: tuple[str, ...] = ()
    undated: bool = False
    min_full_share: float = MIN_FULL_SHARE
    sale_date_in_file_name: bool = False
    source_file: str = ""
    # "status": each row is an item still open on the day the list was taken (judged by that day);
    # "event": each row is a dated event (judged by its own date). Every dataset file says which.
    list_kind: str = "event"
    file_name_date: str | None = None  # a pattern of the export's file name whose groups are year, month[, day]
    pull_every_minutes: int = PULL_EVERY_MINUTES  # the records worker's interval between two pulls

    @property
    def status_list(self) -> bool:
        return self.list_kind == "status"

    @property
    def snapshot_dated(self) -> bool:
        """Rows take the day of the snapshot (``--as-of``, the file name's date, the pull's day) as their
        ``as_of``: an undated dataset, or a status list that maps no list-date column."""
        return self.undated or (self.status_list and "as_of" not in self.mapping)

    def name_date(self, path: str | Path) -> date | None:
        """The export's day as the dataset's own ``file_name_date`` pattern reads it from the file's name
        (the first of the month without a day), else None: never a guess."""
        if not self.file_name_date:
            return None
        found = re.search(self.file_name_date, Path(path).name)
        if found is None:
            return None
        year, month, *day = (int(g) for g in found.groups() if g is not None)
        try:
            return date(year, month, day[0] if day else 1)
        except ValueError:
            return None

    def __hash__(self) -> int:  # the mappings are dicts: a dataset is known by its id and file
        return hash((self.id, self.source_file))

    def record_url(self, record_key: str) -> str | None:
        return self.record_url_template.replace("{key}", record_key) if self.record_url_template else None

    def columns(self, form: str) -> tuple[str, ...]:
        """Every column the mapping reads in ``form`` (for ``check``: which ones a page lacks)."""
        names: list[str] = []
        for spec in (self.record_key, *self.mapping.values(), *self.extra.values()):
            names.extend(n for n in spec.columns(form) if n not in names)
        return tuple(names)


def load_datasets(directory: str | Path | None = None) -> dict[str, Dataset]:
    """Every ``*.toml`` dataset file of ``directory`` (default ``marketplace/features/records/datasets``), by id, validated."""
    folder = Path(directory) if directory is not None else DATASETS_DIR
    datasets: dict[str, Dataset] = {}
    for path in sorted(folder.glob("*.toml")):
        dataset = load_dataset(path)
        datasets[dataset.id] = dataset
    return datasets


def load_dataset(path: str | Path) -> Dataset:
    """One dataset file, validated; ``ValueError("<file>: <field>: <what is wrong>")`` otherwise."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path.name}: cannot be read as TOML ({exc})") from None
    try:
        return _build(raw, path.stem, path.name)
    except _FieldError as exc:
        raise ValueError(f"{path.name}: {exc.field}: {exc.problem}") from None


class _FieldError(Exception):
    def __init__(self, field_name: str, problem: str) -> None:
        super().__init__(f"{field_name}: {problem}")
        self.field = field_name
        self.problem = problem


def _build(raw: dict[str, Any], stem: str, file_name: str) -> Dataset:
    unknown = sorted(set(raw) - set(_TOP_KEYS))
    if unknown:
        raise _FieldError(unknown[0], "unknown key")
    dataset_id = _text(raw, "id")
    if dataset_id != stem:
        raise _FieldError("id", f"'{dataset_id}' is not the file's name ('{stem}')")
    protocol = _choice(raw, "protocol", PROTOCOLS)
    kind = _choice(raw, "kind", KINDS)
    sale_type = raw.get("sale_type")
    if kind == "sale_list":
        _choice(raw, "sale_type", SALE_TYPES)
    elif sale_type is not None:
        raise _FieldError("sale_type", "only a sale_list dataset has a sale type")
    endpoint = _text(raw, "endpoint", required=protocol != "file")
    if endpoint and not endpoint.startswith(("https://", "http://")):
        raise _FieldError("endpoint", f"'{endpoint}' is not an http(s) URL")
    resource = _text(raw, "resource", required=False) or ""
    if resource and protocol in _RESOURCE_FORMS and not re.fullmatch(_RESOURCE_FORMS[protocol], resource):
        raise _FieldError("resource", f"'{resource}' is not a {protocol} resource id")
    query_filter = _text(raw, "filter", required=False) or ""
    if query_filter and protocol == "ckan" and not _json_object(query_filter):
        raise _FieldError("filter", "a CKAN filter must be a JSON object of field values")
    targets = HPI_TARGETS if kind == "hpi" else RECORD_TARGETS
    mapping = _specs(raw.get("fields"), "fields", targets, protocol)
    list_kind = raw.get("list")
    if list_kind not in LIST_KINDS:
        raise _FieldError("list", 'is required: "status" (items open on the day the list was taken) or '
                                  '"event" (dated events)')
    required = ("zip3", "year", "index") if kind == "hpi" else \
        (() if raw.get("undated") or list_kind == "status" else ("as_of",))
    for name in required:
        if name not in mapping:
            raise _FieldError(f"fields.{name}", "is required")
    if kind != "hpi" and "address" not in mapping and "parcel_id" not in mapping:
        raise _FieldError("fields", "maps neither address nor parcel_id")
    constants = raw.get("constants", {})
    if not isinstance(constants, dict):
        raise _FieldError("constants", "must be a table")
    for name, value in constants.items():
        if name not in targets:
            raise _FieldError(f"constants.{name}", "is not a field of a record")
        if not isinstance(value, str) or not value.strip():
            raise _FieldError(f"constants.{name}", "must be non-empty text")
    template = raw.get("record_url_template")
    if template is not None and (not isinstance(template, str) or "{key}" not in template):
        raise _FieldError("record_url_template", "must be text holding {key}")
    page_size = raw.get("page_size", 1000)
    if not isinstance(page_size, int) or isinstance(page_size, bool) or not 1 <= page_size <= 50_000:
        raise _FieldError("page_size", "must be a whole number from 1 to 50000")
    pull_every = raw.get("pull_every_minutes", PULL_EVERY_MINUTES)
    if not isinstance(pull_every, int) or isinstance(pull_every, bool) \
            or not 1 <= pull_every <= MAX_PULL_EVERY_MINUTES:
        raise _FieldError("pull_every_minutes", f"must be a whole number of minutes from 1 to {MAX_PULL_EVERY_MINUTES}")
    max_age = raw.get("max_age_days")
    if not isinstance(max_age, int) or isinstance(max_age, bool) or max_age < 1:
        raise _FieldError("max_age_days", "must be a whole number of days, at least 1")
    nulls = raw.get("null_values", [])
    if not isinstance(nulls, list) or not all(isinstance(n, str) for n in nulls):
        raise _FieldError("null_values", "must be a list of texts")
    undated = raw.get("undated", False)
    if not isinstance(undated, bool):
        raise _FieldError("undated", "must be true or false")
    min_full_share = raw.get("min_full_share", MIN_FULL_SHARE)
    if isinstance(min_full_share, bool) or not isinstance(min_full_share, (int, float)) \
            or not 0 <= min_full_share <= 1:
        raise _FieldError("min_full_share", "must be a share from 0 to 1")
    sale_date_in_name = raw.get("sale_date_in_file_name", False)
    if not isinstance(sale_date_in_name, bool) or (sale_date_in_name and kind != "sale_list"):
        raise _FieldError("sale_date_in_file_name", "must be true or false, and only for a sale_list dataset")
    name_pattern = raw.get("file_name_date")
    if name_pattern is not None:
        try:
            groups = re.compile(name_pattern).groups if isinstance(name_pattern, str) else 0
        except re.error:
            groups = 0
        if not 2 <= groups <= 3:
            raise _FieldError("file_name_date", "must be a regular expression with 2 or 3 groups (year, month, day)")
    freshness_field = _text(raw, "freshness_field", required=False)
    if freshness_field and not IDENTIFIER.fullmatch(freshness_field):
        raise _FieldError("freshness_field", f"'{freshness_field}' is not a plain field name")
    return Dataset(
        id=dataset_id,
        title=_text(raw, "title"),
        publisher=_text(raw, "publisher"),
        protocol=protocol,
        endpoint=(endpoint or "").rstrip("/"),
        resource=resource,
        filter=query_filter,
        record_key=_spec(raw.get("record_key"), "record_key", "record_key", protocol),
        kind=kind,
        sale_type=sale_type,
        mapping=mapping,
        constants=dict(constants),
        freshness_field=freshness_field,
        max_age_days=max_age,
        status_note=_text(raw, "status_note", required=False),
        licence=_text(raw, "licence"),
        attribution=_text(raw, "attribution"),
        record_url_template=template,
        page_size=page_size,
        extra=_specs(raw.get("extra"), "extra", None, protocol),
        null_values=tuple(nulls),
        undated=undated,
        min_full_share=float(min_full_share),
        sale_date_in_file_name=sale_date_in_name,
        source_file=file_name,
        list_kind=list_kind,
        file_name_date=name_pattern,
        pull_every_minutes=pull_every,
    )


def _json_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def _text(raw: dict[str, Any], key: str, *, required: bool = True) -> str | None:
    value = raw.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise _FieldError(key, "is required (non-empty text)" if value is None else "must be non-empty text")
    return value.strip()


def _choice(raw: dict[str, Any], key: str, allowed: tuple[str, ...]) -> str:
    value = raw.get(key)
    if value not in allowed:
        raise _FieldError(key, f"{value!r} is not one of {', '.join(allowed)}")
    return value


def _specs(raw: Any, where: str, targets: tuple[str, ...] | None, protocol: str) -> dict[str, FieldSpec]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise _FieldError(where, "must be a table")
    specs = {}
    for name, value in raw.items():
        if targets is not None and name not in targets:
            raise _FieldError(f"{where}.{name}", "is not a field of a record")
        specs[name] = _spec(value, f"{where}.{name}", name if targets is not None else "extra", protocol)
    return specs


def _spec(value: Any, where: str, target: str, protocol: str) -> FieldSpec:
    if isinstance(value, str):
        value = {"column": value}
    if not isinstance(value, dict):
        raise _FieldError(where, "must be a column name or a table")
    unknown = sorted(set(value) - set(_SPEC_KEYS))
    if unknown:
        raise _FieldError(where, f"unknown key '{unknown[0]}'")
    column = value.get("column")
    api, file = value.get("api", column), value.get("file", column)
    if column is not None and ("api" in value or "file" in value):
        raise _FieldError(where, "give either column, or api and file")
    for name, text in (("api", api), ("file", file)):
        if text is not None and (not isinstance(text, str) or not text.strip()):
            raise _FieldError(where, f"{name} must be a non-empty column name")
    if api is None and file is None:
        raise _FieldError(where, "names no column")
    if protocol != "file" and api is None and target == "record_key":
        raise _FieldError(where, "names no API column (the live API needs the record key)")
    kind = value.get("type", default_type(target))
    if kind not in parse.PARSERS:
        raise _FieldError(where, f"type {kind!r} is not one of {', '.join(parse.PARSERS)}")
    pattern = value.get("pattern")
    if pattern is not None:
        try:
            compiled = re.compile(pattern)
        except (re.error, TypeError) as exc:
            raise _FieldError(where, f"pattern does not compile ({exc})") from None
        if compiled.groups != 1:
            raise _FieldError(where, "pattern must have exactly one group")
    width = value.get("width")
    if width is not None and (not isinstance(width, int) or isinstance(width, bool) or not 1 <= width <= 40):
        raise _FieldError(where, "width must be a whole number from 1 to 40")
    split = value.get("split")
    if split is not None and (not isinstance(split, str) or not split):
        raise _FieldError(where, "split must be a non-empty separator")
    year_start = value.get("year_start", False)
    if not isinstance(year_start, bool):
        raise _FieldError(where, "year_start must be true or false")
    items = value.get("items")
    if items is not None and (not isinstance(items, str) or not items.strip()):
        raise _FieldError(where, "items must be the key to read from each object of a JSON array cell")
    return FieldSpec(api=api, file=file, type=kind, split=split, pattern=pattern, width=width,
                     year_start=year_start, items=items)
