"""Live reads of a public-record dataset from its portal's API.

Paging per protocol (every page has a stable order, so offsets do not skip or repeat rows):

- Socrata SODA: ``GET {endpoint}/resource/{id}.json`` with ``$limit``, ``$offset``, ``$order`` (the record
  key's field, else ``:id``) and ``$where`` (the dataset's filter, and ``since`` on its freshness field);
  ``X-App-Token`` when an app token is given. A page shorter than ``$limit`` is the last.
- ArcGIS REST: ``GET {endpoint}/{layer}/query`` with ``where``, ``outFields=*``, ``returnGeometry=false``,
  ``orderByFields``, ``resultOffset``/``resultRecordCount``, ``f=json``; pages continue while the answer
  says ``exceededTransferLimit``. An ``{"error": ...}`` body (sent with HTTP 200) is a failure.
- Carto SQL: ``GET {endpoint}/api/v2/sql?q=SELECT * FROM {table} WHERE ... ORDER BY ... LIMIT n OFFSET m``;
  the answer is ``{rows, fields, total_rows}``.
- CKAN DataStore: ``GET {endpoint}/api/3/action/datastore_search`` with ``resource_id``, ``limit``,
  ``offset``, ``sort=_id`` (and ``filters``); the answer is ``{success, result: {records, total}}``.
  DataStore search has no range filter: ``since`` is applied to the mapped records instead.

Incremental reads (``fetch(..., updates=Updates(field, since))``), where the portal gives each row's own
update time; what a row carries of it is stamped on its record (``MappedRecord.portal_updated_at``):

- Socrata: the system field ``:updated_at`` (a fixed timestamp, "when this record was last updated"), hidden
  unless selected: ``$select=:*, *`` returns it with every column, and ``$where=:updated_at >= '<UTC time>'``
  reads only the rows changed since (https://dev.socrata.com/docs/system-fields).
- ArcGIS: the layer's edit-date field, named by ``editFieldsInfo.editDateField`` in the layer's own JSON
  (``GET {endpoint}/{layer}?f=json``; ``edit_date_field``); a layer without editor tracking has none and is
  read whole. Its values come back as epoch milliseconds; the filter is the standardized-SQL timestamp
  literal ``where=<field> >= TIMESTAMP 'YYYY-MM-DD HH:MM:SS'`` (UTC), the form hosted layers accept
  (https://developers.arcgis.com/rest/services-reference/enterprise/query-feature-service-layer/).
- Carto and CKAN give no row update time: always read whole.

The filter is ``>=`` the newest update time already read, not ``>``: a row updated in the same instant after
that read is not missed; the rows read again are unchanged and write nothing.

Every request has a timeout; HTTP 429, 5xx, timeouts and transport errors are retried (``attempts`` in
all) after ``Retry-After`` when the portal sends it, else ``retry_delay x 2^n`` (both capped). Failures
raise ``DatasetError`` naming the dataset, what failed and the URL.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Any, NamedTuple

import httpx

from marketplace.features.records.rules import HpiPoint, MappedRecord, RejectedRow, with_portal_update
from marketplace.features.records.source_opendata.dataset import IDENTIFIER, Dataset
from marketplace.features.records.source_opendata.errors import DatasetError
from marketplace.features.records.source_opendata.files import json_rows
from marketplace.features.records.source_opendata.cells import dotted
from marketplace.features.records.source_opendata.mapper import map_row, tally
from marketplace.features.scrape import get_with_retries

DEFAULT_TIMEOUT = 30.0  # seconds per request
DEFAULT_ATTEMPTS = 4
RETRY_DELAY = 1.0  # seconds before the first retry (doubled each time) when no Retry-After is given
FILE_ONLY = "published only as a download: use import-records"
SOCRATA_UPDATED = ":updated_at"  # Socrata's system field: when the portal last updated the row

Item = MappedRecord | RejectedRow | HpiPoint
Sleep = Callable[[float], None]


class Updates(NamedTuple):
    """Stamp each record with the portal's update time read from ``field``; with ``since``, read only the
    rows the portal updated at or after it (an incremental read)."""

    field: str
    since: datetime | None = None


@dataclass(frozen=True)
class CheckReport:
    """One live page of a dataset, mapped and counted."""

    dataset_id: str
    url: str
    rows: int
    mapped: int
    rejected: int
    missing_columns: tuple[str, ...]   # columns the mapping reads that no row of the page has
    sample_rejects: tuple[RejectedRow, ...]
    newest_as_of: date | None


def fetch(dataset: Dataset, *, client: httpx.Client | None = None, since: date | None = None,
          max_rows: int | None = None, app_token: str | None = None, timeout: float = DEFAULT_TIMEOUT,
          attempts: int = DEFAULT_ATTEMPTS, retry_delay: float = RETRY_DELAY, sleep: Sleep = time.sleep,
          today: date | None = None, updates: Updates | None = None) -> Iterator[Item]:
    """Every row of the live dataset (at most ``max_rows``), mapped or rejected, page by page; records as
    of a day before ``since`` are left out (on the server where the protocol allows it). ``updates``: stamp
    the portal's update time on each record, and with ``updates.since`` read only the rows changed since
    (module docstring)."""
    today = today or date.today()
    http = _Http(dataset, client, timeout=timeout, attempts=attempts, retry_delay=retry_delay, sleep=sleep,
                 app_token=app_token)
    number = 0
    try:
        for _url, rows in _pages(dataset, http, since=since, max_rows=max_rows, updates=updates):
            for row in rows:
                number += 1
                item = map_row(dataset, row, "api", number, today=today, as_of=today)
                if since and isinstance(item, MappedRecord) and item.as_of and item.as_of < since:
                    continue
                if updates is not None and isinstance(item, MappedRecord):
                    item = with_portal_update(item, portal_time(row.get(updates.field)))
                yield item
    finally:
        http.close()


def check(dataset: Dataset, *, client: httpx.Client | None = None, app_token: str | None = None,
          timeout: float = DEFAULT_TIMEOUT, attempts: int = DEFAULT_ATTEMPTS, retry_delay: float = RETRY_DELAY,
          sleep: Sleep = time.sleep, today: date | None = None) -> CheckReport:
    """Fetch ONE page live and report how it maps: counts, missing columns, a few rejects."""
    today = today or date.today()
    http = _Http(dataset, client, timeout=timeout, attempts=attempts, retry_delay=retry_delay, sleep=sleep,
                 app_token=app_token)
    try:
        url, rows = next(_pages(dataset, http, since=None, max_rows=dataset.page_size), ("", []))
    finally:
        http.close()
    counted = tally(map_row(dataset, row, "api", n, today=today, as_of=today) for n, row in enumerate(rows, start=1))
    missing = tuple(c for c in dataset.columns("api")
                    if rows and not any(c in row or dotted(row, c) is not None for row in rows))
    return CheckReport(dataset.id, url, len(rows), counted.mapped, counted.rejected, missing,
                       counted.sample_rejects, counted.newest_as_of)


def update_field(dataset: Dataset, *, client: httpx.Client | None = None, app_token: str | None = None,
                 timeout: float = DEFAULT_TIMEOUT, attempts: int = DEFAULT_ATTEMPTS,
                 retry_delay: float = RETRY_DELAY, sleep: Sleep = time.sleep) -> str | None:
    """The field that carries each row's portal update time: ``:updated_at`` on Socrata, the layer's
    ``editFieldsInfo.editDateField`` on ArcGIS (one request for the layer's JSON; None when the layer has
    no editor tracking or its JSON cannot be read), None on Carto and CKAN."""
    if dataset.protocol == "socrata":
        return SOCRATA_UPDATED
    if dataset.protocol != "arcgis" or not dataset.endpoint or not dataset.resource:
        return None
    http = _Http(dataset, client, timeout=timeout, attempts=attempts, retry_delay=retry_delay, sleep=sleep,
                 app_token=app_token)
    try:
        body = http.get_json(f"{dataset.endpoint}/{dataset.resource}", {"f": "json"})
    except DatasetError:
        return None
    finally:
        http.close()
    info = body.get("editFieldsInfo") if isinstance(body, dict) else None
    name = info.get("editDateField") if isinstance(info, dict) else None
    return name if isinstance(name, str) and IDENTIFIER.fullmatch(name) else None


def portal_time(value: Any) -> datetime | None:
    """A row's update time as the portal writes it (epoch milliseconds from ArcGIS, an ISO time from
    Socrata, 'Z' or floating = UTC), in UTC; None when it is missing or unreadable."""
    if value is None or isinstance(value, bool):
        return None
    try:
        if isinstance(value, (int, float)):
            return datetime.fromtimestamp(value / 1000, tz=timezone.utc)
        if isinstance(value, str) and value.strip():
            parsed = datetime.fromisoformat(value.strip())
            return parsed.replace(tzinfo=timezone.utc) if parsed.tzinfo is None else parsed.astimezone(timezone.utc)
    except (ValueError, OverflowError, OSError):
        return None
    return None


# ---------------------------------------------------------------------------------------------- paging

def _pages(dataset: Dataset, http: _Http, *, since: date | None, max_rows: int | None,
           updates: Updates | None = None) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    if dataset.protocol == "file":
        raise DatasetError(dataset.id, FILE_ONLY)
    if not dataset.resource:
        raise DatasetError(dataset.id, "has no API resource id yet (see its status note): use import-records")
    pager = {"socrata": _socrata, "arcgis": _arcgis, "carto": _carto, "ckan": _ckan}[dataset.protocol]
    read = 0
    offset = 0
    while max_rows is None or read < max_rows:
        limit = dataset.page_size if max_rows is None else min(dataset.page_size, max_rows - read)
        url, params = pager(dataset, offset, limit, since)
        if updates is not None:
            params = _with_updates(dataset, params, updates)
        body = http.get_json(url, params)
        rows, more = _rows(dataset, body, url, offset, limit)
        if max_rows is not None:
            rows = rows[: max_rows - read]
        read += len(rows)
        offset += len(rows)
        yield url, rows
        if not more or not rows:
            return


def _rows(dataset: Dataset, body: Any, url: str, offset: int, limit: int) -> tuple[list[dict[str, Any]], bool]:
    """A page's rows and whether another page may follow."""
    if dataset.protocol == "socrata" and not isinstance(body, list):
        message = body.get("message") if isinstance(body, dict) else None
        raise DatasetError(dataset.id, f"the portal did not answer a JSON array ({message or 'unexpected body'}) "
                                       f"on {url}")
    rows = json_rows(dataset, body, where=f"the answer from {url}")
    if dataset.protocol == "arcgis":
        return rows, bool(body.get("exceededTransferLimit"))
    if dataset.protocol == "ckan":
        total = body["result"].get("total")
        return rows, (offset + len(rows) < total) if isinstance(total, int) else len(rows) >= limit
    return rows, len(rows) >= limit


def _order_column(dataset: Dataset) -> str | None:
    """The record key's API field when it is one plain field name (a stable order for paging)."""
    column = dataset.record_key.api
    return column if column and IDENTIFIER.fullmatch(column) else None


def _where(*clauses: str) -> str:
    return " AND ".join(f"({c})" for c in clauses if c)


def _since_clause(dataset: Dataset, since: date | None, layout: str) -> str:
    if since is None or not dataset.freshness_field:
        return ""
    return layout.format(field=dataset.freshness_field, day=since.isoformat())


def _with_updates(dataset: Dataset, params: dict[str, Any], updates: Updates) -> dict[str, Any]:
    """A page's parameters asking for the update field and, incrementally, only the rows changed since."""
    params = dict(params)
    stamp = updates.since.astimezone(timezone.utc) if updates.since else None
    if dataset.protocol == "socrata":
        params["$select"] = ":*, *"
        if stamp is not None:
            changed = f"{updates.field} >= '{stamp.strftime('%Y-%m-%dT%H:%M:%S.%f')[:-3]}'"
            params["$where"] = _where(params.get("$where", ""), changed)
    elif dataset.protocol == "arcgis" and stamp is not None:
        changed = f"{updates.field} >= TIMESTAMP '{stamp.strftime('%Y-%m-%d %H:%M:%S')}'"
        where = params.get("where", "1=1")
        params["where"] = _where("" if where in ("1=1", "(1=1)") else where, changed)
    return params


def _socrata(dataset: Dataset, offset: int, limit: int, since: date | None) -> tuple[str, dict[str, Any]]:
    params: dict[str, Any] = {"$limit": limit, "$offset": offset, "$order": _order_column(dataset) or ":id"}
    where = _where(dataset.filter, _since_clause(dataset, since, "{field} >= '{day}T00:00:00'"))
    if where:
        params["$where"] = where
    return f"{dataset.endpoint}/resource/{dataset.resource}.json", params


def _arcgis(dataset: Dataset, offset: int, limit: int, since: date | None) -> tuple[str, dict[str, Any]]:
    where = _where(dataset.filter, _since_clause(dataset, since, "{field} >= DATE '{day}'")) or "1=1"
    params: dict[str, Any] = {"where": where, "outFields": "*", "returnGeometry": "false", "f": "json",
                              "resultOffset": offset, "resultRecordCount": limit}
    order = _order_column(dataset)
    if order:
        params["orderByFields"] = order
    return f"{dataset.endpoint}/{dataset.resource}/query", params


def _carto(dataset: Dataset, offset: int, limit: int, since: date | None) -> tuple[str, dict[str, Any]]:
    where = _where(dataset.filter, _since_clause(dataset, since, "{field} >= '{day}'"))
    sql = f"SELECT * FROM {dataset.resource}"
    if where:
        sql += f" WHERE {where}"
    sql += f" ORDER BY {_order_column(dataset) or 'cartodb_id'} LIMIT {limit} OFFSET {offset}"
    return f"{dataset.endpoint}/api/v2/sql", {"q": sql}


def _ckan(dataset: Dataset, offset: int, limit: int, since: date | None) -> tuple[str, dict[str, Any]]:
    params: dict[str, Any] = {"resource_id": dataset.resource, "limit": limit, "offset": offset, "sort": "_id"}
    if dataset.filter:
        params["filters"] = dataset.filter
    return f"{dataset.endpoint}/api/3/action/datastore_search", params


# ---------------------------------------------------------------------------------------------- HTTP

class _Http:
    """GETs with a timeout, bounded retries and dataset-named errors."""

    def __init__(self, dataset: Dataset, client: httpx.Client | None, *, timeout: float, attempts: int,
                 retry_delay: float, sleep: Sleep, app_token: str | None) -> None:
        self.dataset = dataset
        self.timeout = timeout
        self.attempts = max(1, attempts)
        self.retry_delay = max(0.0, retry_delay)
        self.sleep = sleep
        self.headers = {"Accept": "application/json"}
        if app_token and dataset.protocol == "socrata":
            self.headers["X-App-Token"] = app_token
        self._owns = client is None
        self.client = client if client is not None else httpx.Client(timeout=timeout, follow_redirects=True)

    def close(self) -> None:
        if self._owns:
            self.client.close()

    def get_json(self, url: str, params: dict[str, Any]) -> Any:
        response, failure = get_with_retries(
            self.client, url, params=params, headers=self.headers, timeout=self.timeout, attempts=self.attempts,
            backoff=self.retry_delay, sleep=self.sleep, label=f"{self.dataset.id}: {url}:")
        if response is None:
            raise DatasetError(self.dataset.id, f"the portal {failure} after {self.attempts} attempts on {url}")
        return self._payload(response, url)

    def _payload(self, response: httpx.Response, url: str) -> Any:
        if not response.is_success:
            raise DatasetError(self.dataset.id, f"the portal refused the request (HTTP {response.status_code})"
                                                f"{_detail(response)} on {url}")
        try:
            return response.json()
        except (ValueError, json.JSONDecodeError):
            raise DatasetError(self.dataset.id, f"the portal sent malformed JSON on {url}") from None


def _detail(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        body = response.text
    if isinstance(body, dict):
        error = body.get("error")
        body = body.get("message") or (error.get("message") if isinstance(error, dict) else error) or ""
    text = " ".join(str(body).split())[:200]
    return f": {text}" if text else ""
