"""The reference the row mapper (``source_opendata.mapper``, compiled once per dataset, form and day) is held
to: map one row by walking every field's spec for every cell, as the mapper's docstring says a row is
mapped. Each cell is read by the same ``cells.read``; what this walk checks is everything around it (which
column, a template, a dotted path, a column in another case, the dataset's null texts, required or not,
split or not, an extra column's text, constants, the record built)."""

from __future__ import annotations

from datetime import date
from typing import Any, Mapping

from marketplace.features.records import rules_parse as parse
from marketplace.features.records.rules import HpiPoint, MappedRecord, RejectedRow
from marketplace.features.records.source_opendata import cells
from marketplace.features.records.source_opendata.dataset import Dataset, FieldSpec
from marketplace.features.records.source_opendata.mapper import HPI_REQUIRED


def walk_row(dataset: Dataset, row: Mapping[str, Any], form: str, row_number: int, *, today: date,
             as_of: date | None = None) -> MappedRecord | HpiPoint | RejectedRow:
    reader = _RowReader(dataset, row, form, today)
    try:
        if dataset.kind == "hpi":
            values = {name: reader.value(name, spec, required=name in HPI_REQUIRED)
                      for name, spec in dataset.mapping.items()}
            return HpiPoint(dataset_id=dataset.id, zip3=values["zip3"], year=values["year"],
                            index=values["index"], annual_change=values.get("annual_change"))
        key = reader.value("record_key", dataset.record_key, required=True)
        values = {name: reader.value(name, spec, required=name == "as_of")
                  for name, spec in dataset.mapping.items()}
    except cells.Missing as exc:
        return RejectedRow(dataset.id, row_number, str(exc))
    for name, constant in dataset.constants.items():
        if values.get(name) is None:
            values[name] = constant
    if values.get("address") is None and values.get("parcel_id") is None:
        return RejectedRow(dataset.id, row_number, "no address and no parcel id")
    if dataset.snapshot_dated:
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

    def raw(self, column: str) -> Any:
        if "{" in column:
            names, positional = cells.template_parts(column)
            values = [parse.text(self.raw(name)) or "" for name in names]
            return positional.format(*values) if any(values) else None
        if column in self.row:
            value = self.row[column]
        else:
            value = cells.dotted(self.row, column)
            if value is None:  # a column named in another case (PLUTO's ``BBL`` and ``bbl``)
                value = {str(k).casefold(): v for k, v in self.row.items()}.get(column.casefold())
        if self.nulls and isinstance(value, str) and parse.text(value) in self.nulls:
            return None
        return value

    def value(self, target: str, spec: FieldSpec, *, required: bool, every: bool = False) -> Any:
        column = spec.column(self.form)
        if column is None:
            if required:
                raise cells.Missing(f"{target}: this form of the dataset has no column for it")
            return None
        try:
            value = cells.read(spec, self.raw(column), self.today, every=every or target in cells.TUPLE_FIELDS,
                               strict=required)
        except ValueError as exc:
            if required:
                raise cells.Missing(f"{column}: {exc}") from None
            return () if target in cells.TUPLE_FIELDS else None  # an unreadable list is an empty one
        if value is None and required:
            raise cells.Missing(f"{column}: missing")
        return value

    def shown(self, label: str, spec: FieldSpec) -> str | None:
        values = self.value(label, spec, required=False, every=True)
        shown = [cells.shown(v) for v in values or ()]
        return "; ".join(shown) if shown else None
