"""Rows of a downloaded public-record file: a CSV export, or JSON exactly as a portal's API answers.

CSV: read as a stream, line by line (never the whole file in memory). Any UTF-8 BOM is dropped; a line
whose bytes are not UTF-8 is decoded with replacement characters and its row counted
(``CsvRows.replaced_rows``), never the whole file as another encoding. Preamble lines before the header
are skipped (the header is the first line naming the record key's columns, in any case), header names are stripped
(``" SALE PRICE "``), and lines with no value at all (spreadsheet leftovers) are skipped. A row with a
cell longer than ``CELL_LIMIT`` characters, or that the CSV parser cannot read, is a ``RowProblem``
(rejected with its reason), never the end of the file. A file that was not read cleanly to its end says
so in ``CsvRows.incomplete`` (the first parse error, or a file ending inside a record: inside a quoted
field, or a last line with no line break and fewer or more columns than the header; that record rejected): a full import of it closes nothing. CSV columns are the export's display names (the
mapping's ``file`` form).

JSON: a Socrata array (or a saved answer wrapped as ``{"queries": ..., "records": [...]}``), ArcGIS
``{"features": [{"attributes": ...}]}``, Carto ``{"rows": [...]}``, CKAN ``{"result": {"records": [...]}}``
or a scraper's plain array; its columns are the API's field names (``api`` form), or the file's own for a
``file``-protocol dataset. An ArcGIS or CKAN error body raises ``DatasetError``. A plain JSON array is
streamed (``JsonArrayRows``: one element parsed at a time from chunks of the file); an answer object
(ArcGIS, Carto, CKAN, a saved SODA answer) is parsed whole: it is one page of the portal, bounded by
``page_size``.
"""

from __future__ import annotations

import codecs
import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from marketplace.features.records.source_opendata.dataset import Dataset
from marketplace.features.records.source_opendata.errors import DatasetError


CELL_LIMIT = 131_072              # characters in one cell (the csv module's default limit): over it, the
                                 # row is rejected, not the file
_PARSE_LIMIT = 16 * 1024 * 1024  # what the parser accepts before it gives up on a row (then resyncs)
csv.field_size_limit(max(csv.field_size_limit(), _PARSE_LIMIT))


@dataclass(frozen=True)
class RowProblem:
    """A row of the file that cannot be read at all (counted as rejected, with the reason)."""

    reason: str


def rows_from_file(dataset: Dataset, path: str | Path) -> tuple[str, Iterator[dict[str, Any] | RowProblem]]:
    """(form, rows) of the file at ``path``; ``DatasetError`` when it cannot be read."""
    path = Path(path)
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise DatasetError(dataset.id, f"cannot read {path.name} ({exc.strerror or exc})") from None
    with handle:
        start = handle.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if start == b"[":  # a plain array (Socrata, a scraper): streamed element by element
        form = "file" if dataset.protocol == "file" else "api"
        return form, JsonArrayRows(dataset, path)
    if path.suffix.lower() == ".json" or start == b"{":
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise DatasetError(dataset.id, f"cannot read {path.name} ({exc.strerror or exc})") from None
        try:
            text, replaced = data.decode("utf-8-sig"), False
        except UnicodeDecodeError:
            text, replaced = data.decode("utf-8-sig", errors="replace"), True
        del data
        try:
            body = json.loads(text)
        except ValueError as exc:
            raise DatasetError(dataset.id, f"{path.name} is not valid JSON ({exc})") from None
        form = "file" if dataset.protocol == "file" else "api"
        rows = json_rows(dataset, body, where=path.name)
        return form, JsonRows(rows, replaced)
    return "file", CsvRows(dataset, path)


_REPLACED = [0]  # bytes replaced by the JSON reader's decoder (not UTF-8), process-wide


def _count_replacement(error: UnicodeDecodeError) -> tuple[str, int]:
    _REPLACED[0] += 1
    return "\ufffd", error.end


codecs.register_error("leadvault-count-replace", _count_replacement)


class JsonArrayRows:
    """The elements of a file holding one JSON array, parsed one at a time from chunks of the file (never
    the whole file in memory); ``replaced_rows``: rows holding a replaced (non-UTF-8) byte."""

    CHUNK = 1 << 20

    def __init__(self, dataset: Dataset, path: Path) -> None:
        self.dataset, self.path = dataset, path
        self.replaced_rows = 0
        self._rows = self._read()

    def __iter__(self) -> "JsonArrayRows":
        return self

    def __next__(self) -> dict[str, Any]:
        return next(self._rows)

    def _bad(self, problem: str) -> DatasetError:
        return DatasetError(self.dataset.id, f"{self.path.name} is not valid JSON ({problem})")

    def _read(self) -> Iterator[dict[str, Any]]:
        decoder = json.JSONDecoder()
        utf8 = codecs.getincrementaldecoder("utf-8")(errors="leadvault-count-replace")
        replaced_before = _REPLACED[0]
        with self.path.open("rb") as handle:
            buffer, pos, eof = "", 0, False

            def fill() -> None:
                nonlocal buffer, pos, eof
                chunk = handle.read(self.CHUNK)
                eof = not chunk
                buffer = buffer[pos:] + utf8.decode(chunk, final=eof)
                pos = 0

            def skip() -> None:  # to the next character that is not white space, reading on as needed
                nonlocal pos
                while True:
                    while pos < len(buffer) and buffer[pos] in " \t\r\n\ufeff":
                        pos += 1
                    if pos < len(buffer) or eof:
                        return
                    fill()

            fill()
            skip()
            pos += 1  # the "["
            skip()
            if buffer[pos:pos + 1] == "]":
                return
            while True:
                try:
                    value, end = decoder.raw_decode(buffer, pos)
                except ValueError as exc:
                    if eof:
                        raise self._bad(str(exc)) from None
                    fill()
                    continue
                if end >= len(buffer) and not eof:  # a number cut by the chunk's end: read on, parse again
                    fill()
                    continue
                pos = end
                row = value if isinstance(value, dict) else {}
                if _REPLACED[0] != replaced_before and "\ufffd" in json.dumps(row, ensure_ascii=False):
                    self.replaced_rows += 1
                yield row
                skip()
                mark = buffer[pos:pos + 1]
                if mark == "]":
                    return
                if mark != ",":
                    raise self._bad(f"expected ',' or ']' at character {pos}" if mark else "the array never ends")
                pos += 1
                skip()


class JsonRows:
    """The rows of a parsed JSON file; ``replaced_rows``: rows holding a replaced (non-UTF-8) byte."""

    def __init__(self, rows: list[dict[str, Any]], replaced: bool) -> None:
        self._rows = iter(rows)
        self._check = replaced
        self.replaced_rows = 0

    def __iter__(self) -> "JsonRows":
        return self

    def __next__(self) -> dict[str, Any]:
        row = next(self._rows)
        if self._check and "\ufffd" in json.dumps(row, ensure_ascii=False):
            self.replaced_rows += 1
        return row


def json_rows(dataset: Dataset, body: Any, *, where: str) -> list[dict[str, Any]]:
    """The rows of a JSON answer in any of the protocols' shapes."""
    if isinstance(body, list):
        rows = body
    elif isinstance(body, dict) and isinstance(body.get("records"), list) and "features" not in body:
        rows = body["records"]  # a saved SODA answer kept in a wrapper: {"queries": [...], "records": [...]}
    elif isinstance(body, dict) and "error" in body:
        raise DatasetError(dataset.id, f"{where} holds an error answer: {_error_text(body['error'])}")
    elif isinstance(body, dict) and isinstance(body.get("features"), list):
        rows = [f.get("attributes") if isinstance(f, dict) else None for f in body["features"]]
    elif isinstance(body, dict) and isinstance(body.get("rows"), list):
        rows = body["rows"]
    elif isinstance(body, dict) and isinstance(body.get("result"), dict) and \
            isinstance(body["result"].get("records"), list):
        if body.get("success") is False:
            raise DatasetError(dataset.id, f"{where} holds an unsuccessful CKAN answer")
        rows = body["result"]["records"]
    elif isinstance(body, dict) and body.get("success") is False:
        raise DatasetError(dataset.id, f"{where} holds a CKAN error: {_error_text(body.get('error'))}")
    else:
        raise DatasetError(dataset.id, f"{where} is not a Socrata, ArcGIS, Carto or CKAN answer")
    return [row if isinstance(row, dict) else {} for row in rows]


def _error_text(error: Any) -> str:
    if isinstance(error, dict):
        parts = [str(error.get("code") or ""), str(error.get("message") or "")]
        details = error.get("details")
        if isinstance(details, list) and details:
            parts.append("; ".join(str(d) for d in details))
        return " ".join(p for p in parts if p).strip() or "no message"
    return str(error)[:200]


class CsvRows:
    """The rows of a CSV file as dicts (header -> cell), streamed; a row that cannot be read is a
    ``RowProblem``. ``replaced_rows`` counts the rows decoded with replacement characters; ``incomplete``
    says why the file was not read cleanly to its end (None when it was)."""

    def __init__(self, dataset: Dataset, path: Path) -> None:
        self.dataset = dataset
        self.path = path
        self.replaced_rows = 0
        self.incomplete: str | None = None
        self._bad_line = False
        self._ended = False
        self._unterminated = False  # the last line given to the parser has no line break: the file's last
        self._rows = self._read()

    def __iter__(self) -> "CsvRows":
        return self

    def __next__(self) -> dict[str, Any] | RowProblem:
        return next(self._rows)

    def _lines(self, handle: Any) -> Iterator[str]:
        first = True
        for raw in handle:
            if first:
                raw, first = raw.removeprefix(b"\xef\xbb\xbf"), False
            self._unterminated = not raw.endswith(b"\n")
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError:
                self._bad_line = True
                yield raw.decode("utf-8", errors="replace")
        self._ended = True

    def _read(self) -> Iterator[dict[str, Any] | RowProblem]:
        dataset, name = self.dataset, self.path.name
        key_columns = dataset.record_key.columns("file") or next(
            (spec.columns("file") for spec in dataset.mapping.values() if spec.columns("file")), ())
        header: list[str] | None = None
        try:
            handle = self.path.open("rb")
        except OSError as exc:
            raise DatasetError(dataset.id, f"cannot read {name} ({exc.strerror or exc})") from None
        with handle:
            reader = csv.reader(self._lines(handle))
            while True:
                self._bad_line = False
                first_line = reader.line_num + 1
                try:
                    cells = next(reader)
                except StopIteration:
                    break
                except csv.Error as exc:
                    if header is not None:
                        problem = f"unreadable CSV near line {reader.line_num} ({exc})"
                        self.incomplete = self.incomplete or problem
                        yield RowProblem(problem)
                    continue
                except OSError as exc:
                    raise DatasetError(dataset.id, f"cannot read {name} ({exc.strerror or exc})") from None
                if self._ended:
                    # The lines ran out inside the record: the parser (lenient at the end of its input) closed
                    # a quoted field the file never closed. The file was cut short; the record is not whole.
                    problem = f"the file ends inside a quoted field opened on line {first_line} (cut short?)"
                    self.incomplete = self.incomplete or problem
                    if header is not None:
                        yield RowProblem(problem)
                    break
                if header is None:
                    stripped = [c.replace("\ufeff", "").strip() for c in cells]
                    folded = {c.casefold() for c in stripped}
                    if key_columns and all(k.casefold() in folded for k in key_columns):
                        header = stripped
                    continue
                if not "".join(cells).strip():  # every cell blank (one C call, not a generator per row)
                    continue
                if self._unterminated and len(cells) != len(header):
                    # The file's last line, with no line break and not the header's columns: cut inside it.
                    problem = (f"the file ends inside the record on line {reader.line_num} ({len(cells)} of "
                               f"{len(header)} columns, no line break: cut short?)")
                    self.incomplete = self.incomplete or problem
                    yield RowProblem(problem)
                    break
                if self._bad_line:
                    self.replaced_rows += 1
                longest = max(map(len, cells))
                if longest > CELL_LIMIT:
                    yield RowProblem(f"a cell of {longest:,} characters (more than {CELL_LIMIT:,})")
                    continue
                yield dict(zip(header, cells))
        if header is None:
            raise DatasetError(dataset.id, f"{name} has no header line naming {', '.join(key_columns) or 'a column'}")
