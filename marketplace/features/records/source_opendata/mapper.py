"""One published row -> ``MappedRecord`` / ``HpiPoint``, or ``RejectedRow`` saying why.

The same mapping serves the live API (``form="api"``: the API's field names) and an exported file
(``form="file"``: the export's display names); every cell is read by ``cells.read``. A value that cannot be
read rejects the row when the field is required (the record key, the main date ``as_of``, and an address or
a parcel id; for the house price index: ZIP3, year, index) and leaves an optional field empty.

A dataset's mapping is compiled once per (dataset, form, day) into a flat list of field readers: each field
becomes one closure that takes the row and returns the field's value or raises ``cells.Missing`` with the
reason. The outcome of a cell's text is kept per field (up to ``KEEP_PER_FIELD`` distinct texts, for the
latest ``KEEP_MAPPINGS`` mappings): published rows repeat their dates, statuses, amounts and cities, and a
cell's reading depends only on its text, the spec and the day. (``tests/features/records/spec_walk.py``
walks every field's spec for every cell: the reference the tests hold this mapper to.)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any, Callable, Mapping

from marketplace.features.records import rules_parse as parse
from marketplace.features.records import rules as record_fields
from marketplace.features.records.rules import HpiPoint, MappedRecord, RejectedRow
from marketplace.features.records.source_opendata import cells
from marketplace.features.records.source_opendata.dataset import Dataset, FieldSpec

KEEP_PER_FIELD = 1024  # texts kept per field: a few MB per mapping at most
KEEP_MAPPINGS = 8  # a worker's process lives for days: the mappings of its latest pulls
_NO = object()
_compiled: dict[tuple[int, str, date], tuple[Dataset, "CompiledMapping"]] = {}

HPI_REQUIRED = ("zip3", "year", "index")
SAMPLE_REJECTS = 5

Reader = Callable[[Mapping[str, Any]], Any]


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


def map_row(dataset: Dataset, row: Mapping[str, Any], form: str, row_number: int, *, today: date,
            as_of: date | None = None, row_digest: int | None = None) -> MappedRecord | HpiPoint | RejectedRow:
    """Map one row; ``as_of`` is the extract date of an ``undated`` dataset's rows; ``row_digest`` (a file
    read's, ``row_digests``) goes on the record."""
    return compiled(dataset, form, today).map(row, row_number, as_of, row_digest)


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


class CompiledMapping:
    def __init__(self, dataset: Dataset, form: str, today: date) -> None:
        self.dataset = dataset
        self.nulls = frozenset(dataset.null_values)
        self.today = today
        self.form = form
        self.hpi = dataset.kind == "hpi"
        if self.hpi:
            self.fields = [(name, self._field(name, spec, required=name in HPI_REQUIRED))
                           for name, spec in dataset.mapping.items()]
            return
        self.key = self._field("record_key", dataset.record_key, required=True)
        self.fields = [(name, self._field(name, spec, required=name == "as_of"))
                       for name, spec in dataset.mapping.items()]
        self.extras = [(label, self._field(label, spec, required=False, shown=True))
                       for label, spec in dataset.extra.items()]
        self.constants = list(dataset.constants.items())
        self.set_as_of = dataset.snapshot_dated
        # Every mapped name a field, none of those ``map`` sets itself, as_of always given: the record is
        # built without the dataclass's __init__ (otherwise by it, which refuses what is wrong).
        mapped = {*dataset.mapping, *dataset.constants} | ({"as_of"} if self.set_as_of else set())
        own = {"dataset_id", "record_key", "kind", "sale_type", "extra"}
        self.fast = (mapped <= record_fields.FIELD_NAMES and not mapped & own
                     and record_fields.REQUIRED_FIELDS <= mapped | own)

    def map(self, row: Mapping[str, Any], row_number: int, as_of: date | None,
            row_digest: int | None = None) -> MappedRecord | HpiPoint | RejectedRow:
        dataset = self.dataset
        if self.hpi:
            try:
                values = {name: read(row) for name, read in self.fields}
            except cells.Missing as exc:
                return RejectedRow(dataset.id, row_number, str(exc))
            return HpiPoint(dataset_id=dataset.id, zip3=values["zip3"], year=values["year"],
                            index=values["index"], annual_change=values.get("annual_change"))
        try:
            key = self.key(row)
            values = {name: read(row) for name, read in self.fields}
        except cells.Missing as exc:
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
                                sale_type=dataset.sale_type, extra=extra, row_digest=row_digest, **values)
        values.update(dataset_id=dataset.id, record_key=key, kind=dataset.kind, sale_type=dataset.sale_type,
                      extra=extra, row_digest=row_digest)
        return record_fields.mapped_record(values)

    # -- building the readers --------------------------------------------------------------------------

    def _raw(self, column: str, check_nulls: bool = True) -> Reader:
        """The cell of ``column`` (a template's text, a dotted path's value), nulls as None (with ``check_nulls`` false a plain column's null texts come back as they are,
        for a caller that checks them once per distinct text)."""
        if "{" in column:
            return self._template(column)
        nulls = self.nulls if check_nulls else None

        folded = column.casefold()

        def raw(row: Mapping[str, Any]) -> Any:
            if column in row:
                value = row[column]
            else:
                value = cells.dotted(row, column)
                if value is None:  # a column named in another case (PLUTO's ``BBL`` and ``bbl``)
                    value = next((v for k, v in row.items() if str(k).casefold() == folded), None)
            if nulls and isinstance(value, str) and parse.text(value) in nulls:
                return None
            return value

        return raw

    def _template(self, template: str) -> Reader:
        names, positional = cells.template_parts(template)
        readers = [self._raw(name) for name in names]
        text = parse.text

        def filled(row: Mapping[str, Any]) -> str | None:
            values = [text(cell(row)) or "" for cell in readers]
            if not any(values):
                return None
            return positional.format(*values)

        return filled

    def _field(self, target: str, spec: FieldSpec, *, required: bool, shown: bool = False) -> Reader:
        """One field's reader: its value, or for an extra column (``shown``) every part's text joined by '; '
        (an unreadable value leaves it out)."""
        column = spec.column(self.form)
        if column is None:
            if required:
                reason = f"{target}: this form of the dataset has no column for it"

                def no_column(row: Mapping[str, Any]) -> Any:
                    raise cells.Missing(reason)

                return no_column
            return lambda row: None
        label = column
        every = shown or target in cells.TUPLE_FIELDS
        parsed, today = cells.read, self.today

        def outcome(value: Any) -> tuple[bool, Any]:
            try:
                result = parsed(spec, value, today, every=every, strict=required)
            except ValueError as exc:
                if required:
                    return False, f"{label}: {exc}"
                # an unreadable list is an empty one
                return True, (() if not shown and target in cells.TUPLE_FIELDS else None)
            if result is None and required:
                return False, f"{label}: missing"
            if shown:
                parts = [cells.shown(v) for v in result or ()]
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
            raise cells.Missing(hit[1])

        return read
