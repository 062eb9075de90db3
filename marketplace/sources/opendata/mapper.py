"""One published row -> ``MappedRecord`` / ``HpiPoint``, or ``RejectedRow`` saying why.

The same mapping serves the live API (``form="api"``: the API's field names) and an exported file
(``form="file"``: the export's display names). Values are read through ``core.parse``. A value that
cannot be read rejects the row when the field is required (the record key, the main date ``as_of``, and
an address or a parcel id; for the house price index: ZIP3, year, index) and leaves an optional field
empty. A date more than a year in the future (OPA's ``2071-...``) is treated as missing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Mapping

from marketplace.core import parse
from marketplace.core.records import HpiPoint, MappedRecord, RejectedRow
from marketplace.sources.opendata.dataset import Dataset, FieldSpec

FUTURE_SLACK = timedelta(days=366)
_TUPLE_FIELDS = ("violations",)
_HPI_REQUIRED = ("zip3", "year", "index")


SAMPLE_REJECTS = 5


@dataclass(frozen=True)
class Tally:
    """What a read produced: counts, the newest date a record is as of, the first few rejects."""

    mapped: int
    rejected: int
    newest_as_of: date | None      # house price index: December 31 of the newest year
    sample_rejects: tuple[RejectedRow, ...]

    @property
    def rows(self) -> int:
        return self.mapped + self.rejected


def tally(items: Iterable[MappedRecord | HpiPoint | RejectedRow], *, keep: int = SAMPLE_REJECTS) -> Tally:
    """Count what ``read_file`` / ``fetch`` yielded (consumes the iterator)."""
    mapped = rejected = 0
    newest: date | None = None
    rejects: list[RejectedRow] = []
    for item in items:
        if isinstance(item, RejectedRow):
            rejected += 1
            if len(rejects) < keep:
                rejects.append(item)
            continue
        mapped += 1
        day = date(item.year, 12, 31) if isinstance(item, HpiPoint) else item.as_of
        if day is not None and (newest is None or day > newest):
            newest = day
    return Tally(mapped, rejected, newest, tuple(rejects))


class _Missing(ValueError):
    """A required field has no value."""


def map_row(dataset: Dataset, row: Mapping[str, Any], form: str, row_number: int, *, today: date,
            as_of: date | None = None) -> MappedRecord | HpiPoint | RejectedRow:
    """Map one row by walking every field's spec; ``as_of`` is the extract date of an ``undated`` dataset's
    rows. The readers call ``compiled.map_row``: the same outcomes from the mapping compiled once (this
    walk is its reference, and the house price index's path)."""
    reader = _RowReader(dataset, row, form, today)
    try:
        if dataset.kind == "hpi":
            values = {name: reader.value(name, spec, required=name in _HPI_REQUIRED)
                      for name, spec in dataset.mapping.items()}
            return HpiPoint(dataset_id=dataset.id, zip3=values["zip3"], year=values["year"],
                            index=values["index"], annual_change=values.get("annual_change"))
        key = reader.value("record_key", dataset.record_key, required=True)
        values = {name: reader.value(name, spec, required=name == "as_of")
                  for name, spec in dataset.mapping.items()}
    except _Missing as exc:
        return RejectedRow(dataset.id, row_number, str(exc))
    for name, constant in dataset.constants.items():
        if values.get(name) is None:
            values[name] = constant
    if values.get("address") is None and values.get("parcel_id") is None:
        return RejectedRow(dataset.id, row_number, "no address and no parcel id")
    if dataset.undated and "as_of" not in dataset.mapping:
        values["as_of"] = as_of
    extra = {}
    for label, spec in dataset.extra.items():
        shown = reader.shown(label, spec)
        if shown is not None:
            extra[label] = shown
    key = str(key)
    return MappedRecord(dataset_id=dataset.id, record_key=key, kind=dataset.kind, sale_type=dataset.sale_type,
                        record_url=values.pop("record_url", None) or dataset.record_url(key),
                        extra=extra, **values)


class _RowReader:
    def __init__(self, dataset: Dataset, row: Mapping[str, Any], form: str, today: date) -> None:
        self.dataset = dataset
        self.row = row
        self.form = form
        self.today = today
        self.nulls = frozenset(dataset.null_values)
        self._folded: dict[str, Any] | None = None

    def raw(self, column: str) -> Any:
        if "{" in column:
            return _template(column, self)
        if column in self.row:
            value = self.row[column]
        else:
            value = _dotted(self.row, column)
            if value is None:
                value = self._any_case(column)
        if self.nulls and isinstance(value, str) and parse.text(value) in self.nulls:
            return None
        return value

    def _any_case(self, column: str) -> Any:
        """The value of a column named in another case (one mapping for PLUTO's ``BBL`` and ``bbl``)."""
        if self._folded is None:
            self._folded = {str(k).casefold(): v for k, v in self.row.items()}
        return self._folded.get(column.casefold())

    def value(self, target: str, spec: FieldSpec, *, required: bool, every: bool = False) -> Any:
        column = spec.column(self.form)
        if column is None:
            if required:
                raise _Missing(f"{target}: this form of the dataset has no column for it")
            return None
        label = column
        try:
            value = self.parsed(spec, self.raw(column), every=every or target in _TUPLE_FIELDS, strict=required)
        except ValueError as exc:
            if required:
                raise _Missing(f"{label}: {exc}") from None
            return () if target in _TUPLE_FIELDS else None  # an unreadable list is an empty one
        if value is None and required:
            raise _Missing(f"{label}: missing")
        return value

    def parsed(self, spec: FieldSpec, value: Any, *, every: bool, strict: bool = False) -> Any:
        """The value read by its spec: a tuple of every part of a split cell when ``every``, else the first.
        A date more than a year ahead is dropped, or refused when ``strict`` (a required field)."""
        if not every and spec.split is None and spec.pattern is None and spec.items is None:  # one value: fast
            parser = parse.PARSERS[spec.type]
            result = parser(value, spec.width) if spec.type == "parcel" else parser(value)
            if result is None:
                return None
            if isinstance(result, date) and result > self.today + FUTURE_SLACK:
                if strict:
                    raise ValueError(f"'{parse.text(value)}' is more than a year in the future")
                return None  # an obviously wrong date is missing, not the record's date
            if spec.year_start:
                result = date(result if isinstance(result, int) else result.year, 1, 1)
            return result
        parts: list[Any] = [value]
        if spec.items is not None:
            parts = _json_items(value, spec.items)
        if spec.split is not None and isinstance(value, str):
            parts = value.split(spec.split)
        if spec.pattern is not None:
            parts = [_matched(spec.pattern, p) for p in parts]
        parser = parse.PARSERS[spec.type]
        results = []
        for part in parts:
            result = parser(part, spec.width) if spec.type == "parcel" else parser(part)
            if isinstance(result, date) and result > self.today + FUTURE_SLACK:
                if strict:
                    raise ValueError(f"'{parse.text(part)}' is more than a year in the future")
                result = None  # an obviously wrong date is missing, not the record's date
            if spec.year_start and result is not None:
                result = date(result if isinstance(result, int) else result.year, 1, 1)
            if result is not None:
                results.append(result)
        if every:
            return tuple(results)
        return results[0] if results else None

    def shown(self, label: str, spec: FieldSpec) -> str | None:
        """An extra column as text: parsed by its type (an unreadable value is left out)."""
        values = self.value(label, spec, required=False, every=True)
        shown = [_shown(v) for v in values or ()]
        return "; ".join(shown) if shown else None


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value.isoformat() if isinstance(value, date) else str(value)


def _json_items(value: Any, key: str) -> list[Any]:
    """Each object's ``key`` of a JSON array cell (a list, or its text in a CSV cell); [] when empty."""
    if isinstance(value, str):
        if not value.strip():
            return []
        try:
            value = json.loads(value)
        except ValueError:
            raise ValueError(f"'{value[:40]}' is not a JSON array") from None
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError("not a JSON array")
    return [item.get(key) for item in value if isinstance(item, Mapping)]


def _matched(pattern: str, value: Any) -> Any:
    shown = parse.text(value)
    if shown is None:
        return None
    match = re.search(pattern, shown)
    if not match:
        raise ValueError(f"'{shown}' is not in the expected form")
    return match.group(1)


def _dotted(row: Mapping[str, Any], path: str) -> Any:
    """``listing_details.sale_date`` or ``status_history.0`` in nested JSON; None when absent."""
    value: Any = row
    for part in path.split("."):
        if isinstance(value, Mapping):
            value = value.get(part)
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


def _template(template: str, reader: _RowReader) -> str | None:
    """A template over the row's cleaned column texts; None when every placeholder is empty."""
    names = re.findall(r"\{([^{}:]+)(?::[^{}]*)?\}", template)
    values = {name: parse.text(reader.raw(name)) or "" for name in names}
    if not any(values.values()):
        return None
    positional = template
    for index, name in enumerate(names):
        positional = positional.replace("{" + name, "{" + str(index), 1)
    return positional.format(*(values[name] for name in names))
