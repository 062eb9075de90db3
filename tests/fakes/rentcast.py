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
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self
from urllib.parse import parse_qs, urlsplit

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


class FakeRentCast:
    def __init__(self, api_key: str = "test-key") -> None:
        self.api_key = api_key
        self.listings: list[dict[str, Any]] = []
        self.values: dict[str, dict[str, Any]] = {}
        self.requests: list[Request] = []
        self._script: list[Scripted] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.fake = self
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, name="fake-rentcast", daemon=True
        )

    # ------------------------------------------------------------------ control

    @property
    def url(self) -> str:
        """The API root to give the client (``.../v1``)."""
        return f"http://127.0.0.1:{self._server.server_port}/v1"

    def start(self) -> Self:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # cuts scripted delays short
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def script(self, path: str, *, status: int = 200, body: Any = _NORMAL, headers: dict[str, str] | None = None,
               delay: float = 0.0, times: int = 1) -> None:
        """Answer the next ``times`` requests to ``path`` like this (queued in order)."""
        with self._lock:
            self._script.append(Scripted(path, status, body, dict(headers or {}), delay, times))

    def requests_to(self, path: str) -> list[Request]:
        with self._lock:
            return [r for r in self.requests if r.path == path]

    # ------------------------------------------------------------------ serving

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


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    fake: FakeRentCast

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Quiet: a client that timed out and left is expected here."""


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_GET(self) -> None:  # the http.server name
        url = urlsplit(self.path)
        params = {key: values[-1] for key, values in parse_qs(url.query).items()}
        headers = {key.lower(): value for key, value in self.headers.items()}
        status, extra_headers, body = self.server.fake.answer(url.path, params, headers)
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for key, value in extra_headers.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout)

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output clean."""
