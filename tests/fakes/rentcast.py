"""A local fake of the RentCast API: real HTTP on 127.0.0.1, a random port, one thread.

It serves the two endpoints the http lead source uses, from data the test sets:

- ``GET /v1/listings/sale``: ``listings`` filtered by ``city``, ``state``,
  ``zipCode``, ``bedrooms``, ``propertyType`` and ``status`` (exact,
  case-sensitive, like RentCast), paged by ``limit`` (default 50, 400 above
  500) and ``offset``;
- ``GET /v1/avm/value``: ``values[address]``, or 404 "no comparables".

A request without the right ``X-Api-Key`` gets 401. ``script()`` queues
answers that take precedence for a path (429 with Retry-After, 500, a slow
answer, malformed JSON...). Every request is recorded in ``requests``.

    with FakeRentCast(api_key="k") as fake:
        fake.listings = [...]
        fake.script("/v1/listings/sale", status=429, headers={"Retry-After": "2"}, times=2)
        ... HttpLeadSource(fake.url, "k") ...
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.fakes.local_http import Answer, LocalFake

LISTINGS = "/v1/listings/sale"
VALUE = "/v1/avm/value"
_NORMAL = object()  # a scripted answer with this body serves the normal answer (after its delay)


@dataclass(frozen=True)
class Request:
    path: str
    params: dict[str, str]
    headers: dict[str, str]


@dataclass
class Scripted:
    path: str
    status: int = 200
    body: Any = _NORMAL  # JSON-able value, raw ``bytes``, or _NORMAL
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    times: int = 1


class FakeRentCast(LocalFake):
    def __init__(self, api_key: str = "test-key") -> None:
        super().__init__("fake-rentcast")
        self.api_key = api_key
        self.listings: list[dict[str, Any]] = []
        self.values: dict[str, dict[str, Any]] = {}
        self.requests: list[Request] = []
        self._script: list[Scripted] = []

    # ------------------------------------------------------------------ control

    @property
    def url(self) -> str:
        """The API root to give the client (``.../v1``)."""
        return f"{self.root}/v1"

    def script(self, path: str, *, status: int = 200, body: Any = _NORMAL, headers: dict[str, str] | None = None,
               delay: float = 0.0, times: int = 1) -> None:
        """Answer the next ``times`` requests to ``path`` like this (queued in order)."""
        with self._lock:
            self._script.append(Scripted(path, status, body, dict(headers or {}), delay, times))

    def requests_to(self, path: str) -> list[Request]:
        with self._lock:
            return [r for r in self.requests if r.path == path]

    # ------------------------------------------------------------------ serving

    def respond(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Answer:
        url = urlsplit(path)
        params = {key: values[-1] for key, values in parse_qs(url.query).items()}
        return self.answer(url.path, params, headers)

    def answer(self, path: str, params: dict[str, str], headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        with self._lock:
            self.requests.append(Request(path, params, headers))
            scripted = next((s for s in self._script if s.path == path and s.times > 0), None)
            if scripted is not None:
                scripted.times -= 1
        if scripted is not None:
            if scripted.delay:
                self._stopping.wait(scripted.delay)
            if scripted.body is not _NORMAL or scripted.status != 200:
                body = scripted.body if scripted.body is not _NORMAL else _error(scripted.status, "scripted")
                return scripted.status, scripted.headers, body if isinstance(body, bytes) else _json(body)
        if headers.get("x-api-key") != self.api_key:
            return 401, {}, _json(_error(401, "auth/api-key-invalid", "Your API key is invalid."))
        if path == LISTINGS:
            return self._sale_listings(params)
        if path == VALUE:
            value = self.values.get(params.get("address", ""))
            if value is None:
                return 404, {}, _json(_error(404, "resource/not-found", "No comparables found for this address."))
            return 200, {}, _json(value)
        return 404, {}, _json(_error(404, "resource/not-found", f"No route {path}"))

    def _sale_listings(self, params: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        limit, offset = int(params.get("limit", 50)), int(params.get("offset", 0))
        if not 1 <= limit <= 500:
            return 400, {}, _json(_error(400, "resource/bad-request", "limit must be between 1 and 500"))
        found = [
            listing for listing in self.listings
            if all(_field_matches(listing, key, params[key])
                   for key in ("city", "state", "zipCode", "bedrooms", "propertyType", "status") if key in params)
        ]
        return 200, {"X-Limit": str(limit)}, _json(found[offset:offset + limit])


def _field_matches(listing: dict[str, Any], key: str, wanted: str) -> bool:
    value = listing.get(key, "Active" if key == "status" else None)
    if key == "bedrooms":
        return value is not None and float(value) == float(wanted)
    return value == wanted


def _error(status: int, error: str, message: str = "") -> dict[str, Any]:
    return {"status": status, "error": error, "message": message or error}


def _json(value: Any) -> bytes:
    return json.dumps(value).encode()


def value_with_comparables(address: str = "5500 Grand Lake Dr, San Antonio, TX 78244") -> dict[str, Any]:
    """An ``/avm/value`` answer in the shape of RentCast's documented example (developers.rentcast.io,
    "Value Estimate"): the estimate, its range, the subject and ``comparables`` (listings RentCast saw leave
    the market, with their distance and correlation). Values are illustrative, not a recorded answer."""
    def comp(street: str, lat: float, lon: float, sqft: int, beds: int, price: int, removed: str | None,
             last_seen: str, distance: float, kind: str = "Single Family") -> dict[str, Any]:
        return {
            "id": f"{street.replace(' ', '-')},-San-Antonio,-TX-78244",
            "formattedAddress": f"{street}, San Antonio, TX 78244", "addressLine1": street, "addressLine2": None,
            "city": "San Antonio", "state": "TX", "zipCode": "78244", "county": "Bexar",
            "latitude": lat, "longitude": lon, "propertyType": kind, "bedrooms": beds, "bathrooms": 2,
            "squareFootage": sqft, "lotSize": 5_968, "yearBuilt": 1986, "price": price, "listingType": "Standard",
            "listedDate": "2026-06-02T00:00:00.000Z", "removedDate": removed, "lastSeenDate": last_seen,
            "daysOnMarket": 41, "distance": distance, "daysOld": 60, "correlation": 0.98,
        }

    return {
        "price": 221_000, "priceRangeLow": 208_000, "priceRangeHigh": 233_000,
        "latitude": 29.475962, "longitude": -98.351442,
        "subjectProperty": {"formattedAddress": address, "propertyType": "Single Family", "bedrooms": 3,
                            "bathrooms": 2, "squareFootage": 1_878},
        "comparables": [
            comp("5014 Sunset Lake Dr", 29.473821, -98.351362, 1_900, 3, 229_900, "2026-09-26T00:00:00.000Z",
                 "2026-09-25T13:11:54.018Z", 0.1478),
            comp("5211 Grand Lake Dr", 29.477617, -98.348721, 1_812, 3, 214_000, "2026-10-12T00:00:00.000Z",
                 "2026-10-11T09:02:11.402Z", 0.1959),
            comp("8734 Lake Crest Dr", 29.471020, -98.355302, 2_010, 4, 239_500, None,
                 "2026-08-30T17:45:03.110Z", 0.4138),
            comp("5302 Sunset Lake Dr", 29.474406, -98.349011, 1_760, 3, 205_000, "2026-07-14T00:00:00.000Z",
                 "2026-07-13T06:30:40.905Z", 0.1775),
            comp("5423 Lake Bluff Dr", 29.479911, -98.353001, 1_655, 3, None, "2026-08-01T00:00:00.000Z",
                 "2026-07-31T06:30:40.905Z", 0.2891),  # no price: left out
            comp("9011 Lake Mist Dr", 29.469014, -98.346118, 1_450, 2, 179_000, "2026-10-30T00:00:00.000Z",
                 "2026-10-29T06:30:40.905Z", 0.5427, kind="Townhouse"),  # another type: not selected
        ],
    }
