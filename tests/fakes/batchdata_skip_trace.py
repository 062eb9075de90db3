"""A local fake of BatchData's v3 property skip trace: real HTTP on 127.0.0.1 (``local_http``).

``POST /api/v3/property/skip-trace`` with ``Authorization: Bearer <key>`` and ``{"requests": [{"requestId",
"propertyAddress": {"street", "city", "state", "zip"}, "name"?: {...}}]}`` (the shapes in
``marketplace/features/property/source_batchdata_skip_trace.py``). ``persons`` maps a lower-cased street to the persons
BatchData would return; any other street is a miss (``meta.matched`` false). Errors carry BatchData's
``status`` object: 401 without the right key, 400 for a body without ``requests`` or a street. The
property-search fake (``tests/fakes/batchdata.py``) does the rest: ``script()`` queues answers first (a 429
with Retry-After, a 500...), ``requests`` records every request.

    with FakeBatchDataSkipTrace(api_key="k", persons={"12 oak st": [OWNER]}) as fake:
        BatchDataSkipTrace("k", fake.url).lookup("12 Oak St", "Austin", "TX", "78701", None)
"""

from __future__ import annotations

from typing import Any

from tests.fakes.batchdata import FakeBatchData, _error

PATH = "/api/v3/property/skip-trace"
OWNER = {
    "propertyOwner": True,
    "name": {"first": "Jane", "last": "Doe", "full": "Jane Doe"},
    "phones": [
        {"rank": 1, "number": "5125550142", "type": "Mobile", "carrier": "X", "dnc": False, "tcpa": False,
         "reachable": True},
        {"rank": 2, "number": "15125550177", "type": "Land Line", "dnc": True, "tcpa": False},
        {"rank": 3, "number": "512-555-0142", "type": "Mobile", "dnc": False},  # the first one again
        {"rank": 4, "number": "not a number", "type": "Mobile"},
    ],
    "emails": [{"rank": 1, "email": "Jane.Doe@Example.com", "tested": True}, {"rank": 2, "email": "nope"}],
}
RELATIVE = {"propertyOwner": False, "name": {"full": "John Roe"},
            "phones": [{"number": "5125550199", "type": "Mobile", "dnc": False}], "emails": []}


class FakeBatchDataSkipTrace(FakeBatchData):
    """The property-search fake's plumbing (request log, ``script()``, the Bearer check) with this route."""

    def __init__(self, api_key: str = "test-key", persons: dict[str, list[Any]] | None = None) -> None:
        super().__init__(api_key, properties=[])
        self.persons = {"12 oak st": [OWNER, RELATIVE]} if persons is None else persons

    @property
    def url(self) -> str:
        """The v3 API root to give the client."""
        return f"{self.root}/api/v3"

    def answer(self, method: str, path: str, headers: dict[str, str], raw: bytes) -> tuple[int, dict[str, str], Any]:
        status, extra, answer = super().answer(method, path, headers, raw)
        if (method, path) != ("POST", PATH) or answer != _error(404, f"No route {method} {path}"):
            return status, extra, answer  # scripted, refused key, other routes: as the base fake answers
        body = self.requests[-1].body
        items = body.get("requests") if isinstance(body, dict) else None
        if not isinstance(items, list) or not items or len(items) > 100 or not all(
                isinstance(i, dict) and isinstance(i.get("propertyAddress"), dict)
                and i["propertyAddress"].get("street") for i in items):
            return 400, {}, _error(400, '"requests" must hold 1-100 items with a propertyAddress.street')
        data = []
        for item in items:
            persons = self.persons.get(item["propertyAddress"]["street"].strip().lower(), [])
            data.append({"input": item, "persons": persons, "meta": {"matched": bool(persons), "error": False}})
        matched = sum(1 for d in data if d["persons"])
        return 200, {}, {"status": {"code": 200, "text": "OK"}, "result": {"data": data, "meta": {"results": {
            "requestCount": len(data), "matchCount": matched, "noMatchCount": len(data) - matched,
            "errorCount": 0}}}}
