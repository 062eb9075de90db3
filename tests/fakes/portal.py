"""A local fake open-data portal: real HTTP on 127.0.0.1, a free port, one thread.

It serves ``rows`` (dicts under the API's field names) page by page in each protocol's real answer shape:

- Socrata ``GET /resource/<id>.json``: a JSON array; ``$limit`` (default 1000), ``$offset``, ``$order``
  (a field name, or ``:id`` = the rows' own order); like Socrata, a field without a value is left out and
  dates are floating timestamps (``2011-03-07T00:00:00.000``);
- ArcGIS ``GET /MapServer/<layer>/query``: ``{"fields", "features": [{"attributes"}],
  "exceededTransferLimit"}``; ``resultOffset``, ``resultRecordCount`` (capped at ``max_record_count``),
  ``orderByFields``;
- Carto ``GET /api/v2/sql?q=SELECT ... ORDER BY x LIMIT n OFFSET m``: ``{"rows", "time", "fields",
  "total_rows"}``;
- CKAN ``GET /api/3/action/datastore_search``: ``{"help", "success", "result": {"records", "total"}}`` with
  ``limit``, ``offset``, ``resource_id``.

Incremental reads: a Socrata row may carry system fields (``:updated_at``, ``:id``), returned only when
``$select`` asks for ``:*``; a ``$where`` clause ``:updated_at >= '<time>'`` keeps the rows updated since.
An ArcGIS layer's JSON (``GET /MapServer/<layer>?f=json``) names ``edit_date_field`` in ``editFieldsInfo``
when one is given; a ``where`` clause ``<field> >= TIMESTAMP '<time>'`` keeps the rows edited since (epoch
milliseconds in the rows). ``rows`` may be replaced or grown while the portal serves (a portal publishing
over time).

``script()`` queues answers that take precedence (429 with Retry-After, 500, an ArcGIS error body sent with
HTTP 200, malformed JSON, a slow answer); ``times=None`` repeats one forever. Every request is recorded in ``requests``.

    with FakePortal("socrata", rows, resource="kc9i-wq85") as portal:
        portal.script(status=429, headers={"Retry-After": "1"})
        ... fetch(replace(dataset, endpoint=portal.url)) ...
"""

from __future__ import annotations

import json
import re
import threading
from datetime import datetime, timezone
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self
from urllib.parse import parse_qs, urlsplit

from marketplace.features.records.source_opendata import Dataset
from tests.fakes.rentcast import Request  # a recorded request: path, params, headers

_NORMAL = object()


@dataclass
class Scripted:
    status: int = 200
    body: Any = _NORMAL  # JSON-able value, raw bytes, or _NORMAL (the page itself)
    headers: dict[str, str] = field(default_factory=dict)
    times: int | None = 1  # None: every request from now on
    delay: float = 0.0  # seconds before answering (a slow portal)


class FakePortal:
    def __init__(self, protocol: str, rows: list[dict[str, Any]], *, resource: str = "test",
                 max_record_count: int = 1000, edit_date_field: str | None = None) -> None:
        self.protocol = protocol
        self.edit_date_field = edit_date_field
        self.rows = rows
        self.resource = resource
        self.max_record_count = max_record_count
        self.requests: list[Request] = []
        self._script: list[Scripted] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self._server.portal = self  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="fake-portal", daemon=True)

    @property
    def url(self) -> str:
        """The dataset ``endpoint`` to use (for ArcGIS: the service URL, the layer id is the resource)."""
        root = f"http://127.0.0.1:{self._server.server_port}"
        return f"{root}/MapServer" if self.protocol == "arcgis" else root

    def start(self) -> Self:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def script(self, *, status: int = 200, body: Any = _NORMAL, headers: dict[str, str] | None = None,
               times: int | None = 1, delay: float = 0.0) -> None:
        with self._lock:
            self._script.append(Scripted(status, body, dict(headers or {}), times, delay))

    def _scripted(self) -> Scripted | None:
        with self._lock:
            if not self._script:
                return None
            answer = self._script[0]
            if answer.times is not None:
                answer.times -= 1
                if answer.times <= 0:
                    self._script.pop(0)
            return answer

    # -------------------------------------------------------------------- answers per protocol

    def answer(self, path: str, params: dict[str, str]) -> tuple[int, Any]:
        route = {
            "socrata": f"/resource/{self.resource}.json",
            "arcgis": f"/MapServer/{self.resource}/query",
            "carto": "/api/v2/sql",
            "ckan": "/api/3/action/datastore_search",
        }[self.protocol]
        if self.protocol == "arcgis" and path == f"/MapServer/{self.resource}":
            layer: dict[str, Any] = {"id": int(self.resource) if self.resource.isdigit() else 0, "name": "layer",
                                     "type": "Feature Layer"}
            if self.edit_date_field:
                layer["editFieldsInfo"] = {"creationDateField": "CreationDate", "creatorField": "Creator",
                                           "editDateField": self.edit_date_field, "editorField": "Editor"}
            return 200, layer
        if path != route:
            return 404, {"error": f"no route {path}"}
        return getattr(self, f"_{self.protocol}")(params)

    def _ordered(self, column: str | None) -> list[dict[str, Any]]:
        if not column or column in (":id", "cartodb_id", "_id", "OBJECTID"):
            return list(self.rows)
        return sorted(self.rows, key=lambda row: str(row.get(column) or ""))

    def _socrata(self, params: dict[str, str]) -> tuple[int, Any]:
        limit, offset = int(params.get("$limit", 1000)), int(params.get("$offset", 0))
        rows = self._ordered(params.get("$order"))
        since = re.search(r":updated_at >= '([^']+)'", params.get("$where", ""))
        if since:
            start = _utc(since.group(1))
            rows = [r for r in rows if r.get(":updated_at") and _utc(r[":updated_at"]) >= start]
        system = ":*" in params.get("$select", "")
        page = rows[offset:offset + limit]
        return 200, [{k: _socrata_value(v) for k, v in row.items()
                      if v not in (None, "") and (system or not k.startswith(":"))} for row in page]

    def _arcgis(self, params: dict[str, str]) -> tuple[int, Any]:
        count = min(int(params.get("resultRecordCount", self.max_record_count)), self.max_record_count)
        offset = int(params.get("resultOffset", 0))
        rows = self._ordered(params.get("orderByFields"))
        since = re.search(r"(\w+) >= TIMESTAMP '([^']+)'", params.get("where", ""))
        if since:
            field_name, start = since.group(1), _utc(since.group(2)).timestamp() * 1000
            rows = [r for r in rows if isinstance(r.get(field_name), (int, float)) and r[field_name] >= start]
        page = rows[offset:offset + count]
        return 200, {"displayFieldName": "", "fields": [{"name": k} for k in (rows[0] if rows else {})],
                     "features": [{"attributes": row} for row in page],
                     "exceededTransferLimit": offset + len(page) < len(rows)}

    def _carto(self, params: dict[str, str]) -> tuple[int, Any]:
        sql = params.get("q", "")
        match = re.search(r"ORDER BY (\w+) LIMIT (\d+) OFFSET (\d+)\s*$", sql)
        if not sql.startswith("SELECT * FROM ") or not match:
            return 400, {"error": [f"syntax error in {sql!r}"]}
        order, limit, offset = match.group(1), int(match.group(2)), int(match.group(3))
        page = self._ordered(order)[offset:offset + limit]
        fields = {k: {"type": "string"} for k in (self.rows[0] if self.rows else {})}
        return 200, {"rows": page, "time": 0.01, "fields": fields, "total_rows": len(page)}

    def _ckan(self, params: dict[str, str]) -> tuple[int, Any]:
        if params.get("resource_id") != self.resource:
            return 404, {"help": "", "success": False, "error": {"message": "Not found: Resource was not found.",
                                                                 "__type": "Not Found Error"}}
        limit, offset = int(params.get("limit", 100)), int(params.get("offset", 0))
        page = self._ordered(params.get("sort"))[offset:offset + limit]
        return 200, {"help": "https://data.wprdc.org/api/3/action/help_show?name=datastore_search",
                     "success": True,
                     "result": {"resource_id": self.resource, "fields": [{"id": k} for k in (self.rows or [{}])[0]],
                                "records": page, "total": len(self.rows), "limit": limit, "offset": offset,
                                "_links": {"start": "", "next": ""}}}


def _utc(text: str) -> datetime:
    """A time as the reader writes it in a filter, or as a Socrata row carries it ('Z' or none: UTC)."""
    parsed = datetime.fromisoformat(text.replace(" ", "T"))
    return parsed.replace(tzinfo=timezone.utc) if parsed.tzinfo is None else parsed


def _socrata_value(value: Any) -> Any:
    """A date as Socrata's API writes it (floating timestamp "2011-03-07T00:00:00.000"), not as the CSV export
    does ("03/07/2011", "08/05/2011 11:00:00 AM")."""
    if isinstance(value, str):
        for layout in ("%m/%d/%Y", "%m/%d/%Y %I:%M:%S %p"):
            try:
                return datetime.strptime(value.strip(), layout).strftime("%Y-%m-%dT%H:%M:%S.000")
            except ValueError:
                continue
    return value


class _Handler(BaseHTTPRequestHandler):
    server: ThreadingHTTPServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet
        pass

    def do_GET(self) -> None:  # noqa: N802
        portal: FakePortal = self.server.portal  # type: ignore[attr-defined]
        split = urlsplit(self.path)
        params = {k: v[-1] for k, v in parse_qs(split.query, keep_blank_values=True).items()}
        portal.requests.append(Request(split.path, params, {k.lower(): v for k, v in self.headers.items()}))
        scripted = portal._scripted()
        status, body = portal.answer(split.path, params)
        headers: dict[str, str] = {}
        if scripted is not None:
            time.sleep(scripted.delay)
            status, headers = scripted.status, scripted.headers
            if scripted.body is not _NORMAL:
                body = scripted.body
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test)


def api_rows(dataset: Dataset, file_rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of an exported file (display names) renamed to the API's field names the dataset file gives."""
    names: dict[str, str] = {}
    for spec in (dataset.record_key, *dataset.mapping.values(), *dataset.extra.values()):
        names.update(zip(spec.columns("file"), spec.columns("api")))
    return [{api: row[file] for file, api in names.items() if file in row} for row in file_rows]
