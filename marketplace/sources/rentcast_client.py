"""RentCast's HTTP client for the HTTP lead source (``sources.http``).

Failures
--------
Every request has a timeout. HTTP 429, 5xx, timeouts and transport errors are
retried ``max_retries`` times with exponential backoff (``backoff x 2^n``,
capped) or the ``Retry-After`` delay when given (capped); other answers are
final. ``SourceError`` names the provider and the status: "RentCast returned
HTTP 500 after 5 attempts on /listings/sale", "RentCast rejected the API key
(HTTP 401)", "RentCast sent malformed JSON on /avm/value", "RentCast did not
answer within 10s after 5 attempts on /listings/sale".
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from marketplace.sources.base import SourceError

log = logging.getLogger("marketplace.sources.http")

PROVIDER = "RentCast"
DEFAULT_BASE_URL = "https://api.rentcast.io/v1"
MAX_BACKOFF = 30.0  # seconds
MAX_RETRY_AFTER = 60.0  # seconds: a longer Retry-After is cut to this


class RentCastClient:
    """GET requests to RentCast with timeouts, retries and provider-named errors."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 10.0,
        max_retries: int = 4,
        backoff: float = 0.5,
        client: httpx.Client | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not api_key:
            raise SourceError(f"{PROVIDER} needs an API key.")
        if timeout <= 0:
            raise SourceError(f"The {PROVIDER} timeout must be positive, not {timeout:g}s.")
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_retries = max(0, max_retries)
        self.backoff = max(0.0, backoff)
        self._headers = {"X-Api-Key": api_key, "Accept": "application/json"}
        self._sleep = sleep
        self._owns_client = client is None
        self._client = client if client is not None else httpx.Client(timeout=timeout)

    def close(self) -> None:
        """Close the HTTP client if this object created it."""
        if self._owns_client:
            self._client.close()

    def get(self, path: str, params: dict[str, Any], *, no_result_statuses: Collection[int] = (404,)) -> Any:
        """The decoded JSON body, or None when RentCast answers one of ``no_result_statuses``."""
        attempts = self.max_retries + 1
        for attempt in range(1, attempts + 1):
            retry_after: float | None = None
            try:
                response = self._client.get(
                    f"{self.base_url}{path}", params=params, headers=self._headers, timeout=self.timeout
                )
            except httpx.TimeoutException:
                failure = f"did not answer within {self.timeout:g}s"
            except httpx.TransportError as exc:
                failure = f"could not be reached ({type(exc).__name__}: {exc})"
            else:
                if not _retryable(response.status_code):
                    return self._payload(response, path, no_result_statuses)
                failure = f"returned HTTP {response.status_code}"
                retry_after = _retry_after_seconds(response.headers.get("Retry-After"))
            if attempt < attempts:
                delay = self._delay(attempt, retry_after)
                log.info("%s %s on %s; retrying in %.1fs", PROVIDER, failure, path, delay)
                self._sleep(delay)
        raise SourceError(f"{PROVIDER} {failure} after {attempts} attempts on {path}.")

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        """Seconds before the next attempt: Retry-After when given, else exponential backoff; capped."""
        if retry_after is not None:
            return min(retry_after, MAX_RETRY_AFTER)
        return min(self.backoff * 2.0 ** (attempt - 1), MAX_BACKOFF)

    @staticmethod
    def _payload(response: httpx.Response, path: str, no_result_statuses: Collection[int]) -> Any:
        status = response.status_code
        if status in (401, 403):
            raise SourceError(f"{PROVIDER} rejected the API key (HTTP {status}){_detail(response)}")
        if status in no_result_statuses:
            return None
        if not response.is_success:
            raise SourceError(f"{PROVIDER} refused the request to {path} (HTTP {status}){_detail(response)}")
        try:
            return response.json()
        except ValueError as exc:
            raise SourceError(f"{PROVIDER} sent malformed JSON on {path}.") from exc


def _retryable(status: int) -> bool:
    return status == 429 or status >= 500


def _retry_after_seconds(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or HTTP date); None if absent or bad."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


def _detail(response: httpx.Response) -> str:
    """": <provider message>." from an error body, or "." when it has none."""
    try:
        body = response.json()
    except ValueError:
        body = response.text
    message = body.get("message") if isinstance(body, dict) else body
    message = str(message or "").strip()[:200]
    return f": {message}" if message else "."
