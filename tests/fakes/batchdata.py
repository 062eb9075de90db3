"""A local fake of BatchData's property search: real HTTP on 127.0.0.1, a random port, one thread.

It speaks the documented shapes (see ``marketplace/features/scrape/source_batchdata.py``): ``POST /api/v1/property/search``
with ``Authorization: Bearer <key>`` and a JSON body ``{"searchCriteria": {"query": ..., "quickLists":
[...]}, "options": {"skip": s, "take": t}}``; it answers ``{"status": {"code": 200, "text": "OK"},
"results": {"properties": [...], "meta": {"results": {"resultCount": n, "resultsFound": N}}}}`` from
``properties`` (by default the synthetic fixture ``tests/fixtures/batchdata/property_search.json``),
keeping those whose ``quickLists`` flags are all true for the requested lists and whose address matches
the query ("City, ST", a ZIP code or a state), page by page (``skip``/``take``, take 0-500, default 25).

Errors have BatchData's ``status`` object: 401 without the right Bearer key, 400 for a body that is not
JSON, has no ``searchCriteria`` (or no ``query``), an unknown quick list or a ``take`` out of range.
``script()`` queues answers that take precedence (429 with Retry-After, 500...). Every request is
recorded in ``requests`` (path, lower-case headers, decoded body).

    with FakeBatchData(api_key="k") as fake:
        fake.script(status=429, headers={"Retry-After": "1"})
        ... BatchDataClient("k", fake.url) ...
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.fakes.local_http import Answer, LocalFake

SEARCH = "/api/v1/property/search"
FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "batchdata" / "property_search.json"
DEFAULT_TAKE = 25
MAX_TAKE = 500
# searchCriteria.quickLists values BatchData documents (a "not-" prefix excludes a list)
QUICK_LIST_VALUES = frozenset((
    "absentee-owner active-auction active-listing canceled-listing cash-buyer corporate-owned expired-listing "
    "failed-listing fix-and-flip free-and-clear for-sale-by-owner has-hoa has-hoa-fees high-equity inherited "
    "involuntary-lien in-state-absentee-owner listed-below-market-price low-equity mailing-address-vacant "
    "notice-of-default notice-of-lis-pendens notice-of-sale on-market out-of-state-absentee-owner "
    "out-of-state-owner owner-occupied pending-listing preforeclosure recently-sold "
    "same-property-and-mailing-address tax-default tired-landlord unknown-equity vacant vacant-lot").split())
_STATUS_TEXT = {400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 429: "Too Many Requests",
                500: "Internal Server Error"}


def fixture_properties() -> list[Any]:
    return json.loads(FIXTURE.read_text())["properties"]


def flag_name(filter_value: str) -> str:
    """BatchData's request value "notice-of-default" -> the response flag "noticeOfDefault"."""
    head, *rest = filter_value.split("-")
    return head + "".join(word.capitalize() for word in rest)


@dataclass(frozen=True)
class Request:
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class Scripted:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)
    times: int = 1


class FakeBatchData(LocalFake):
    def __init__(self, api_key: str = "test-key", properties: list[Any] | None = None) -> None:
        super().__init__("fake-batchdata")
        self.api_key = api_key
        self.properties = fixture_properties() if properties is None else properties
        self.requests: list[Request] = []
        self._script: list[Scripted] = []

    @property
    def url(self) -> str:
        """The API root to give the client (``.../api/v1``)."""
        return f"{self.root}/api/v1"

    def script(self, *, status: int, body: Any = None, headers: dict[str, str] | None = None, times: int = 1) -> None:
        """Answer the next ``times`` requests like this (``body`` None: BatchData's error shape)."""
        with self._lock:
            self._script.append(Scripted(status, _error(status, "scripted") if body is None else body,
                                         dict(headers or {}), times))

    def searches(self) -> list[Request]:
        with self._lock:
            return [r for r in self.requests if r.path == SEARCH]

    # ------------------------------------------------------------------ serving

    def respond(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Answer:
        status, extra_headers, answer = self.answer(method, path, headers, body)
        return status, extra_headers, answer if isinstance(answer, bytes) else json.dumps(answer).encode()

    def answer(self, method: str, path: str, headers: dict[str, str], raw: bytes) -> tuple[int, dict[str, str], Any]:
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            body = raw.decode(errors="replace")
        with self._lock:
            self.requests.append(Request(path, headers, body))
            scripted = next((s for s in self._script if s.times > 0), None)
            if scripted is not None:
                scripted.times -= 1
                return scripted.status, scripted.headers, scripted.body
        if headers.get("authorization") != f"Bearer {self.api_key}":
            return 401, {}, _error(401, "Invalid or missing API token.")
        if (method, path) != ("POST", SEARCH):
            return 404, {}, _error(404, f"No route {method} {path}")
        problem = _invalid(body)
        if problem:
            return 400, {}, _error(400, problem)
        criteria, options = body["searchCriteria"], body.get("options") or {}
        skip, take = options.get("skip", 0), options.get("take", DEFAULT_TAKE)
        found = [p for p in self.properties if _matches(p, criteria)]
        page = found[skip:skip + take]
        return 200, {}, {
            "status": {"code": 200, "text": "OK"},
            "results": {"properties": page, "meta": {"results": {"resultCount": len(page),
                                                                 "resultsFound": len(found)}}},
        }


def _invalid(body: Any) -> str | None:
    """BatchData's complaint about a request body, or None when it is well formed."""
    if not isinstance(body, dict):
        return "The request body must be a JSON object."
    criteria = body.get("searchCriteria")
    if not isinstance(criteria, dict):
        return '"searchCriteria" is required'
    if not isinstance(criteria.get("query"), str) or not criteria["query"].strip():
        return '"searchCriteria.query" is required'
    lists = criteria.get("quickLists", [])
    if not isinstance(lists, list) or not all(isinstance(v, str) and v.removeprefix("not-") in QUICK_LIST_VALUES
                                              for v in lists):
        return '"searchCriteria.quickLists" must be an array of quick list names'
    options = body.get("options") or {}
    take, skip = options.get("take", DEFAULT_TAKE), options.get("skip", 0)
    if not isinstance(take, int) or isinstance(take, bool) or not 0 <= take <= MAX_TAKE:
        return f'"options.take" must be between 0 and {MAX_TAKE}'
    if not isinstance(skip, int) or isinstance(skip, bool) or skip < 0:
        return '"options.skip" must be 0 or more'
    return None


def _matches(prop: Any, criteria: dict[str, Any]) -> bool:
    if not isinstance(prop, dict):
        return True  # a malformed entry is served as is: the client must cope
    flags = prop.get("quickLists") or {}
    for value in criteria.get("quickLists", []):
        wanted = not value.startswith("not-")
        if (flags.get(flag_name(value.removeprefix("not-"))) is True) != wanted:
            return False
    address = prop.get("address") or {}
    query = criteria["query"].strip().lower()
    if re.fullmatch(r"\d{5}", query):
        return str(address.get("zip", "")).startswith(query)
    if re.fullmatch(r"[a-z]{2}", query):
        return str(address.get("state", "")).lower() == query
    city, _, state = (part.strip() for part in query.partition(","))
    return str(address.get("city", "")).lower() == city and (
        not state or str(address.get("state", "")).lower() == state)


def _error(status: int, message: str) -> dict[str, Any]:
    return {"status": {"code": status, "text": _STATUS_TEXT.get(status, "Error"), "message": message}}
