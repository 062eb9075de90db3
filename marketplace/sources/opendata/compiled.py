"""A dataset's mapping compiled once per (dataset, form, day) into a flat list of field readers.

``mapper.map_row`` used to walk each field's spec for every cell (which column, template or not, which
parser, split or not). Here that walk happens once: each field becomes one closure that takes the row and
returns the field's value or raises ``_Missing`` with the same reason the walk gave. The outcome of a cell's
text is kept per field (up to ``KEEP_PER_FIELD`` distinct texts, for the latest ``KEEP_MAPPINGS``
mappings): published rows repeat their dates, statuses, amounts and cities, and a cell's reading depends
only on its text, the spec and the day.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Callable, Mapping

from marketplace.core import parse
from marketplace.core import records as record_fields
from marketplace.core.records import HpiPoint, MappedRecord, RejectedRow
from marketplace.sources.opendata import mapper as _m
from marketplace.sources.opendata.dataset import Dataset, FieldSpec

KEEP_PER_FIELD = 1024  # texts kept per field: a few MB per mapping at most
KEEP_MAPPINGS = 8  # a worker's process lives for days: the mappings of its latest pulls
_NO = object()
_compiled: dict[tuple[int, str, date], tuple[Dataset, "CompiledMapping"]] = {}

Reader = Callable[[Mapping[str, Any]], Any]


def map_row(dataset: Dataset, row: Mapping[str, Any], form: str, row_number: int, *, today: date,
            as_of: date | None = None) -> MappedRecord | HpiPoint | RejectedRow:
    """``mapper.map_row``'s outcome: a record through the compiled mapping, an index point by the walk."""
    if dataset.kind == "hpi":
        return _m.map_row(dataset, row, form, row_number, today=today, as_of=as_of)
    return compiled(dataset, form, today).map(row, row_number, as_of)


def compiled(dataset: Dataset, form: str, today: date) -> "CompiledMapping":
    """The compiled mapping of ``dataset`` in ``form`` as of ``today`` (kept while the dataset lives)."""
    key = (id(dataset), form, today)
    hit = _compiled.get(key)
    if hit is not None and hit[0] is dataset:
        return hit[1]
    if len(_compiled) >= KEEP_MAPPINGS:
        _compiled.clear()
    made = CompiledMapping(dataset, form, today)
    _compiled[key] = (dataset, made)
    return made


class _Shim:
    """What ``_RowReader.parsed`` needs of a reader: the day."""

    def __init__(self, today: date) -> None:
        self.today = today


class CompiledMapping:
    def __init__(self, dataset: Dataset, form: str, today: date) -> None:
        self.dataset = dataset
        self.nulls = frozenset(dataset.null_values)
        self.shim = _Shim(today)
        self.form = form
        self.key = self._field("record_key", dataset.record_key, required=True)
        self.fields = [(name, self._field(name, spec, required=name == "as_of"))
                       for name, spec in dataset.mapping.items()]
        self.extras = [(label, self._field(label, spec, required=False, shown=True))
                       for label, spec in dataset.extra.items()]
        self.constants = list(dataset.constants.items())
        self.set_as_of = dataset.undated and "as_of" not in dataset.mapping
        # Every mapped name a field, none of those ``map`` sets itself, as_of always given: the record is
        # built without the dataclass's __init__ (otherwise by it, which refuses what is wrong).
        mapped = {*dataset.mapping, *dataset.constants} | ({"as_of"} if self.set_as_of else set())
        own = {"dataset_id", "record_key", "kind", "sale_type", "extra"}
        self.fast = (mapped <= record_fields.FIELD_NAMES and not mapped & own
                     and record_fields.REQUIRED_FIELDS <= mapped | own)

    def map(self, row: Mapping[str, Any], row_number: int, as_of: date | None) -> MappedRecord | RejectedRow:
        dataset = self.dataset
        try:
            key = self.key(row)
            values = {name: read(row) for name, read in self.fields}
        except _m._Missing as exc:
            return RejectedRow(dataset.id, row_number, str(exc))
        for name, constant in self.constants:
            if values.get(name) is None:
                values[name] = constant
        if values.get("address") is None and values.get("parcel_id") is None:
            return RejectedRow(dataset.id, row_number, "no address and no parcel id")
        if self.set_as_of:
            values["as_of"] = as_of
        extra = {}
        for label, read in self.extras:
            shown = read(row)
            if shown is not None:
                extra[label] = shown
        key = str(key)
        values["record_url"] = values.get("record_url") or dataset.record_url(key)
        if not self.fast:
            return MappedRecord(dataset_id=dataset.id, record_key=key, kind=dataset.kind,
                                sale_type=dataset.sale_type, extra=extra, **values)
        values.update(dataset_id=dataset.id, record_key=key, kind=dataset.kind, sale_type=dataset.sale_type,
                      extra=extra)
        return record_fields.mapped_record(values)

    # -- building the readers --------------------------------------------------------------------------

    def _raw(self, column: str, check_nulls: bool = True) -> Reader:
        """The cell of ``column`` (a template's text, a dotted path's value), nulls as None (as
        ``_RowReader.raw``; with ``check_nulls`` false a plain column's null texts come back as they are,
        for a caller that checks them once per distinct text)."""
        if "{" in column:
            return self._template(column)
        nulls = self.nulls if check_nulls else None

        folded = column.casefold()

        def raw(row: Mapping[str, Any]) -> Any:
            if column in row:
                value = row[column]
            else:
                value = _m._dotted(row, column)
                if value is None:  # a column named in another case (PLUTO's ``BBL`` and ``bbl``)
                    value = next((v for k, v in row.items() if str(k).casefold() == folded), None)
            if nulls and isinstance(value, str) and parse.text(value) in nulls:
                return None
            return value

        return raw

    def _template(self, template: str) -> Reader:
        names = re.findall(r"\{([^{}:]+)(?::[^{}]*)?\}", template)
        positional = template
        for index, name in enumerate(names):
            positional = positional.replace("{" + name, "{" + str(index), 1)
        cells = [self._raw(name) for name in names]
        text = parse.text

        def filled(row: Mapping[str, Any]) -> str | None:
            values = [text(cell(row)) or "" for cell in cells]
            if not any(values):
                return None
            return positional.format(*values)

        return filled

    def _field(self, target: str, spec: FieldSpec, *, required: bool, shown: bool = False) -> Reader:
        """One field's reader: as ``_RowReader.value`` (and ``.shown`` for an extra column)."""
        column = spec.column(self.form)
        if column is None:
            if required:
                reason = f"{target}: this form of the dataset has no column for it"

                def no_column(row: Mapping[str, Any]) -> Any:
                    raise _m._Missing(reason)

                return no_column
            return lambda row: None
        label = column
        every = shown or target in _m._TUPLE_FIELDS
        parsed = _m._RowReader.parsed
        shim = self.shim

        def outcome(value: Any) -> tuple[bool, Any]:
            try:
                result = parsed(shim, spec, value, every=every, strict=required)
            except ValueError as exc:
                if required:
                    return False, f"{label}: {exc}"
                # an unreadable list is an empty one (as ``_RowReader.value``)
                return True, (() if not shown and target in _m._TUPLE_FIELDS else None)
            if result is None and required:
                return False, f"{label}: missing"
            if shown:
                parts = [_m._shown(v) for v in result or ()]
                return True, ("; ".join(parts) if parts else None)
            return True, result

        raw = self._raw(column, check_nulls=False)
        nulls, text = self.nulls, parse.text
        kept: dict[str, tuple[bool, Any]] = {}  # outcome per cell text (its null check included)

        plain = "{" not in column  # a plain column's cell is read here (a call less per cell)

        def read(row: Mapping[str, Any]) -> Any:
            value = row.get(column, _NO) if plain else _NO
            if value is _NO:
                value = raw(row)
            if value.__class__ is str:
                hit = kept.get(value, _NO)
                if hit is _NO:  # a null text (the dataset's "N/A") reads as a missing cell
                    hit = outcome(None if nulls and text(value) in nulls else value)
                    if len(kept) < KEEP_PER_FIELD:
                        kept[value] = hit
            else:
                hit = outcome(value)
            if hit[0]:
                return hit[1]
            raise _m._Missing(hit[1])

        return read
