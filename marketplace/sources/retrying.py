"""GET with a timeout and bounded retries: shared by the HTTP lead sources (RentCast, open-data portals).

HTTP 429, 5xx, timeouts and transport errors are retried (``attempts`` in all) after the ``Retry-After``
delay when the server sends one, else ``backoff x 2^n`` seconds; both are capped. Any other answer is
returned to the caller, who decides what it means.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

log = logging.getLogger("marketplace.sources")

MAX_BACKOFF = 30.0  # seconds
MAX_RETRY_AFTER = 60.0  # seconds: a longer Retry-After is cut to this


def get_with_retries(client: httpx.Client, url: str, *, params: Any, headers: dict[str, str], timeout: float,
                     attempts: int, backoff: float, sleep: Callable[[float], None],
                     label: str) -> tuple[httpx.Response | None, str]:
    """``(response, "")`` for the first answer that is not retried, or ``(None, failure)`` once every
    attempt failed; ``failure`` reads "returned HTTP 500", "did not answer within 10s", "could not be
    reached (ConnectError: ...)". ``label`` names the request in the log."""
    failure = ""
    for attempt in range(1, attempts + 1):
        retry_after: float | None = None
        try:
            response = client.get(url, params=params, headers=headers, timeout=timeout)
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
