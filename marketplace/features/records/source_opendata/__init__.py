"""Public-record datasets read from files or the portals' live APIs.

- ``load_datasets()``: every dataset file of ``marketplace/features/records/datasets/`` (see ``dataset.py`` for the keys);
- ``read_file(dataset, path)``: a downloaded file (CSV export or the API's JSON) through the mapping;
  ``read_ahead(read)``: a large file's read in a process of its own while the import writes;
- ``fetch(dataset)``: the live API, page by page (``portal.py``: Socrata, ArcGIS, Carto, CKAN);
- ``check(dataset)``: one live page, counted; ``freshness(dataset, newest_as_of, today)``: stale or not;
- ``tally(items)``: mapped / rejected counts, the newest ``as_of`` and the first rejects of a read.

Each yields ``MappedRecord`` / ``RejectedRow`` (``HpiPoint`` for the house price index), from
``records.rules``. Failures raise ``DatasetError`` (a ``SourceError``) naming the dataset.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from marketplace.features.records.rules import HpiPoint, KnownRow, MappedRecord, RejectedRow, newest_age
from marketplace.features.records.rules_digests import DigestSet
from marketplace.features.records.source_opendata import row_digests
from marketplace.features.records.source_opendata.dataset import Dataset, FieldSpec, load_dataset, load_datasets
from marketplace.features.records.source_opendata.errors import DatasetError
from marketplace.features.records.source_opendata.files import RowProblem, rows_from_file
from marketplace.features.records.source_opendata.mapper import Tally, map_row, tally
from marketplace.features.records.source_opendata.portal import CheckReport, Updates, check, fetch, update_field
from marketplace.features.records.source_opendata.reader_process import read_ahead

Item = MappedRecord | RejectedRow | HpiPoint
_NAME_DATE = re.compile(r"(?<!\d)(\d{4})[-_]?(\d{2})(?:[-_]?(\d{2}))?(?!\d)")


def read_file(dataset: Dataset, path: str | Path, *, as_of: date | None = None,
              today: date | None = None) -> "FileRead":
    """Every row of the file at ``path``, mapped or rejected (numbered from 1 after any preamble), streamed.

    Rows of an ``undated`` dataset (no date column: Allegheny's lien summary, Kent's parcels) are as of
    ``as_of`` when given, else the date in the file's name (``..._2016-07_...``), else the day the file
    was last modified (when it was downloaded). The file is opened at the first row asked for (a file that
    cannot be read fails inside the ingestion, which records the failed run); ``replaced_rows`` counts the
    rows whose bytes were not UTF-8 (read with replacement characters). A ``sale_date_in_file_name``
    dataset's rows without a sale date take the date in the file's name (none when the name has none:
    never the modification day).
    """
    return FileRead(dataset, Path(path), as_of, today or date.today())


class FileRead:
    """The items of one file (``read_file``)."""

    def __init__(self, dataset: Dataset, path: Path, as_of: date | None, today: date) -> None:
        self.dataset, self.path, self.as_of, self.today = dataset, path, as_of, today
        self._items: Iterator[Item | KnownRow] | None = None
        self._rows = None
        # The row digests the dataset's stored signals hold (set by the ingestion before the read): a row
        # whose digest is among them comes as a ``KnownRow``, not mapped (``row_digests``).
        self.known: Any = None

    @property
    def replaced_rows(self) -> int:
        return getattr(self._rows, "replaced_rows", 0)

    @property
    def incomplete(self) -> str | None:
        """Why the file was not read cleanly to its end (a parse error, a cut inside a record), else None."""
        return getattr(self._rows, "incomplete", None)

    def __iter__(self) -> "FileRead":
        return self

    def __next__(self) -> Item | KnownRow:
        if self._items is None:
            self._items = self._read()
        return next(self._items)

    def _read(self) -> Iterator[Item | KnownRow]:
        dataset, today = self.dataset, self.today
        form, self._rows = rows_from_file(dataset, self.path)
        as_of = snapshot_day(dataset, self.path, self.as_of)
        # A status list that names its list's day in a column, imported with --as-of: the operator's day wins.
        override = self.as_of if dataset.status_list and not dataset.snapshot_dated else None
        sale_date = name_date(self.path) if dataset.sale_date_in_file_name else None
        start = row_digests.fingerprint(dataset, form, as_of, override, sale_date)
        known = self.known

        def mapped(row: dict, number: int, digest: int) -> Item:
            item = map_row(dataset, row, form, number, today=today, as_of=as_of, row_digest=digest)
            if sale_date is not None and isinstance(item, MappedRecord) and item.sale_date is None:
                item = dataclasses.replace(item, sale_date=sale_date)
            if override is not None and isinstance(item, MappedRecord):
                item = dataclasses.replace(item, as_of=override)
            return item

        passed = DigestSet()  # the known rows met so far: a row met again is mapped (a record read twice)
        for number, row in enumerate(self._rows, start=1):
            if isinstance(row, RowProblem):
                yield RejectedRow(dataset.id, number, row.reason)
                continue
            digest = row_digests.row_digest(start, row)
            if known is not None and digest in known and passed.add(digest):
                yield KnownRow(dataset.id, number, digest)
                continue
            yield mapped(row, number, digest)


def snapshot_day(dataset: Dataset, path: str | Path, as_of: date | None) -> date | None:
    """The day a file's rows are as of, for a dataset whose rows carry none (``Dataset.snapshot_dated``):
    ``as_of`` (``import-records --as-of``), else the date the dataset's ``file_name_date`` pattern reads
    from the file's name; a status list then has none (the import asks for ``--as-of``: never today, never
    the file's modification day); an undated event dataset falls back to any date in the name, else the day
    the file was last modified (when it was downloaded)."""
    if as_of is not None or not dataset.snapshot_dated:
        return as_of
    named = dataset.name_date(path)
    if named is not None or dataset.status_list:
        return named
    return file_date(path)


def file_date(path: str | Path) -> date:
    """The extract date a file's name gives (YYYY-MM-DD, YYYY_MM_DD, YYYYMMDD, YYYY-MM: first of the month), else its
    modification day."""
    return name_date(path) or datetime.fromtimestamp(Path(path).stat().st_mtime).date()


def name_date(path: str | Path) -> date | None:
    """The date a file's name gives (YYYY-MM-DD, YYYYMMDD, YYYY-MM: first of the month), else None."""
    for match in _NAME_DATE.finditer(Path(path).stem):
        year, month, day = int(match.group(1)), int(match.group(2)), int(match.group(3) or 1)
        try:
            found = date(year, month, day)
        except ValueError:
            continue
        if 1900 <= year:
            return found
    return None


@dataclass(frozen=True)
class Freshness:
    """Whether a dataset's newest record is recent enough to act on."""

    dataset_id: str
    ok: bool
    newest_as_of: date | None
    age_days: int | None
    max_age_days: int
    message: str
    status_note: str | None

    @property
    def stale(self) -> bool:
        return not self.ok


def freshness(dataset: Dataset, newest_as_of: date | None, today: date) -> Freshness:
    """"newest record 2023-09-14 is 803 days old (max 30)", stale when older than ``max_age_days``."""
    if newest_as_of is None:
        return Freshness(dataset.id, False, None, None, dataset.max_age_days,
                         f"no dated record (max {dataset.max_age_days} days)", dataset.status_note)
    age, ok = newest_age(newest_as_of, dataset.max_age_days, today)
    message = f"newest record {newest_as_of.isoformat()} is {age} days old (max {dataset.max_age_days})"
    return Freshness(dataset.id, ok, newest_as_of, age, dataset.max_age_days, message, dataset.status_note)


__all__ = [
    "CheckReport", "Dataset", "DatasetError", "FieldSpec", "Freshness", "HpiPoint", "Item", "MappedRecord",
    "RejectedRow", "Tally", "check", "fetch", "file_date", "freshness", "load_dataset", "load_datasets", "read_file",
    "snapshot_day", "tally", "update_field", "Updates",
]
