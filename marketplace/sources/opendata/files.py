"""Rows of a downloaded public-record file: a CSV export, or JSON exactly as a portal's API answers.

CSV: any UTF-8 BOM is dropped (cp1252 is tried when the bytes are not UTF-8), preamble lines before the
header are skipped (the header is the first line naming the record key's columns, in any case), header names are
stripped (``" SALE PRICE "``), and lines with no value at all (spreadsheet leftovers) are skipped. CSV
columns are the export's display names (the mapping's ``file`` form).

JSON: a Socrata array (or a saved answer wrapped as ``{"queries": ..., "records": [...]}``), ArcGIS ``{"features": [{"attributes": ...}]}``, Carto ``{"rows": [...]}``, CKAN
``{"result": {"records": [...]}}`` or a scraper's plain array; its columns are the API's field names
(``api`` form), or the file's own for a ``file``-protocol dataset. An ArcGIS or CKAN error body raises
``DatasetError``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from marketplace.sources.opendata.dataset import Dataset
from marketplace.sources.opendata.errors import DatasetError


def rows_from_file(dataset: Dataset, path: str | Path) -> tuple[str, Iterator[dict[str, Any]]]:
    """(form, rows) of the file at ``path``; ``DatasetError`` when it cannot be read."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DatasetError(dataset.id, f"cannot read {path.name} ({exc.strerror or exc})") from None
    text = _decode(data)
    if path.suffix.lower() == ".json" or text.lstrip()[:1] in ("[", "{"):
        try:
            body = json.loads(text)
        except ValueError as exc:
            raise DatasetError(dataset.id, f"{path.name} is not valid JSON ({exc})") from None
        form = "file" if dataset.protocol == "file" else "api"
        return form, iter(json_rows(dataset, body, where=path.name))
    return "file", _csv_rows(dataset, text, path.name)


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


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


def _csv_rows(dataset: Dataset, text: str, name: str) -> Iterator[dict[str, Any]]:
    reader = csv.reader(io.StringIO(text, newline=""))
    key_columns = dataset.record_key.columns("file") or next(
        (spec.columns("file") for spec in dataset.mapping.values() if spec.columns("file")), ())
    header: list[str] | None = None
    for cells in reader:
        if header is None:
            stripped = [c.replace("\ufeff", "").strip() for c in cells]
            folded = {c.casefold() for c in stripped}
            if key_columns and all(k.casefold() in folded for k in key_columns):
                header = stripped
            continue
        if not any(c.strip() for c in cells):
            continue
        yield dict(zip(header, cells))
    if header is None:
        raise DatasetError(dataset.id, f"{name} has no header line naming {', '.join(key_columns) or 'a column'}")
