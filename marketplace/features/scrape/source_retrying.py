"""Requests with a timeout and bounded retries: shared by the HTTP lead sources (RentCast, BatchData,
open-data portals).

HTTP 429, 5xx, timeouts and transport errors are retried (``attempts`` in all) after the ``Retry-After``
delay when the server sends one, else ``backoff x 2^n`` seconds; both are capped. Any other answer is
returned to the caller, who decides what it means. ``ProviderClient`` holds a provider's settings (timeout,
retries, backoff, the httpx client) and turns "every attempt failed" into a ``SourceError`` naming the
provider ("RentCast returned HTTP 500 after 5 attempts on /listings/sale"); no message carries the request's
headers (API keys) or body.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any, Self

import httpx

from marketplace.features.scrape.source_base import SourceError

log = logging.getLogger("marketplace.features.scrape.source")

MAX_BACKOFF = 30.0  # seconds
MAX_RETRY_AFTER = 60.0  # seconds: a longer Retry-After is cut to this


def get_with_retries(client: httpx.Client, url: str, *, params: Any, headers: dict[str, str], timeout: float,
                     attempts: int, backoff: float, sleep: Callable[[float], None],
                     label: str) -> tuple[httpx.Response | None, str]:
    """``(response, "")`` for the first answer that is not retried, or ``(None, failure)`` once every
    attempt failed; ``failure`` reads "returned HTTP 500", "did not answer within 10s", "could not be
    reached (ConnectError: ...)". ``label`` names the request in the log."""
    return request_with_retries(client, "GET", url, timeout=timeout, attempts=attempts, backoff=backoff,
                                sleep=sleep, label=label, params=params, headers=headers)


def request_with_retries(client: httpx.Client, method: str, url: str, *, timeout: float, attempts: int,
                         backoff: float, sleep: Callable[[float], None], label: str,
                         **request: Any) -> tuple[httpx.Response | None, str]:
    """``get_with_retries`` for any method; ``request``: httpx's (params, headers, json...)."""
    failure = ""
    for attempt in range(1, attempts + 1):
        retry_after: float | None = None
        try:
            response = client.request(method, url, timeout=timeout, **request)
        except httpx.TimeoutException:
            failure = f"did not answer within {timeout:g}s"
        except httpx.TransportError as exc:
            failure = f"could not be reached ({type(exc).__name__}: {exc})"
        else:
            if not retryable(response.status_code):
                return response, ""
            failure = f"returned HTTP {response.status_code}"
            retry_after = retry_after_seconds(response.headers.get("Retry-After"))
        if attempt < attempts:
            delay = min(retry_after, MAX_RETRY_AFTER) if retry_after is not None else \
                min(backoff * 2.0 ** (attempt - 1), MAX_BACKOFF)
            log.info("%s %s; retrying in %.1fs", label, failure, delay)
            sleep(delay)
    return None, failure


class ProviderClient:
    """A provider's requests: timeout, bounded retries, and a ``SourceError`` naming ``provider`` when every
    attempt failed. Subclasses set ``provider`` and read the final answer."""

    provider = "The provider"

    def __init__(self, *, timeout: float = 10.0, max_retries: int = 4, backoff: float = 0.5,
                 client: httpx.Client | None = None, sleep: Callable[[float], None] = time.sleep) -> None:
        if timeout <= 0:
            raise SourceError(f"The {self.provider} timeout must be positive, not {timeout:g}s.")
        self.timeout = timeout
        self.max_retries = max(0, max_retries)
        self.backoff = max(0.0, backoff)
        self._sleep = sleep
        self._owns_client = client is None
        self._client = client if client is not None else httpx.Client(timeout=timeout)

    def close(self) -> None:
        """Close the HTTP client if this object created it."""
        if self._owns_client:
            self._client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def send(self, method: str, url: str, path: str, **request: Any) -> httpx.Response:
        """The first answer not worth retrying (``path`` names the endpoint in messages and the log)."""
        attempts = self.max_retries + 1
        response, failure = request_with_retries(
            self._client, method, url, timeout=self.timeout, attempts=attempts, backoff=self.backoff,
            sleep=self._sleep, label=f"{self.provider} {path}:", **request)
        if response is None:
            raise SourceError(f"{self.provider} {failure} after {attempts} attempts on {path}.")
        return response


def retryable(status: int) -> bool:
    return status == 429 or status >= 500


def retry_after_seconds(value: str | None) -> float | None:
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
