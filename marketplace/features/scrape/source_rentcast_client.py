"""RentCast's HTTP client for the HTTP lead source (``scrape.source_http``).

Failures
--------
Every request has a timeout. HTTP 429, 5xx, timeouts and transport errors are
retried ``max_retries`` times with exponential backoff (``backoff x 2^n``,
capped) or the ``Retry-After`` delay when given (capped); other answers are
final (``retrying.ProviderClient``). ``SourceError`` names the provider and the status: "RentCast returned
HTTP 500 after 5 attempts on /listings/sale", "RentCast rejected the API key
(HTTP 401)", "RentCast sent malformed JSON on /avm/value", "RentCast did not
answer within 10s after 5 attempts on /listings/sale".
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import httpx

from marketplace.features.scrape.source_base import SourceError
from marketplace.features.scrape.source_retrying import ProviderClient

RENTCAST = "RentCast"
DEFAULT_BASE_URL = "https://api.rentcast.io/v1"


class RentCastClient(ProviderClient):
    """GET requests to RentCast with timeouts, retries and provider-named errors."""

    provider = RENTCAST

    def __init__(self, base_url: str, api_key: str, **options: Any) -> None:
        """``options``: ``ProviderClient``'s (timeout, default 10s; max_retries, backoff, client, sleep)."""
        if not api_key:
            raise SourceError(f"{RENTCAST} needs an API key.")
        super().__init__(**options)
        self.base_url = base_url.rstrip("/")
        self._headers = {"X-Api-Key": api_key, "Accept": "application/json"}

    def get(self, path: str, params: dict[str, Any], *, no_result_statuses: Collection[int] = (404,)) -> Any:
        """The decoded JSON body, or None when RentCast answers one of ``no_result_statuses``."""
        response = self.send("GET", f"{self.base_url}{path}", path, params=params, headers=self._headers)
        return self._payload(response, path, no_result_statuses)

    @staticmethod
    def _payload(response: httpx.Response, path: str, no_result_statuses: Collection[int]) -> Any:
        status = response.status_code
        if status in (401, 403):
            raise SourceError(f"{RENTCAST} rejected the API key (HTTP {status}){_detail(response)}")
        if status in no_result_statuses:
            return None
        if not response.is_success:
            raise SourceError(f"{RENTCAST} refused the request to {path} (HTTP {status}){_detail(response)}")
        try:
            return response.json()
        except ValueError as exc:
            raise SourceError(f"{RENTCAST} sent malformed JSON on {path}.") from exc


def _detail(response: httpx.Response) -> str:
    """": <provider message>." from an error body, or "." when it has none."""
    try:
        body = response.json()
    except ValueError:
        body = response.text
    message = body.get("message") if isinstance(body, dict) else body
    message = str(message or "").strip()[:200]
    return f": {message}" if message else "."
