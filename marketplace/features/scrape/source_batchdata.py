"""BatchData property search: a commercial list source for what open data lacks.

Pre-foreclosure notices and probate are rarely open data (``shared/public-records/README.md``: "Probate: no
open dataset found", "Pre-foreclosure (lis pendens, notices of default): no open dataset found").
BatchData sells property lists built from county records; this module reads its property search, one quick
list at a time, and yields the same ``records.rules`` records as the open-data adapters:
``fetch_batchdata(quick_lists, location=...)``. What each quick list becomes (kind, dates, amounts,
provenance, the "inherited" deed-based probate proxy) is in ``batchdata_mapping``. Ingestion
(``features/records/service.py``) stores them; nothing here touches the database.

What the request and response shapes are based on
-------------------------------------------------
- BatchData's developer documentation, API v1 (https://developer.batchdata.com/docs/batchdata/batchdata-v1),
  operations "Property Search" / "Property Search Async" (``POST https://api.batchdata.com/api/v1/property/
  search``), read in the copy scraped on 2025-11-18 that the public repository ``odgsully/adhs-working``
  keeps (``Batchdata/endpoints/v1_endpoints_scraped.json``, ``Batchdata/BATCHDATA_API_DOCUMENTATION.md``):
  header ``Authorization: Bearer <API token>``; body ``searchCriteria`` (required; ``query`` required: "a
  partial USPS address ... e.g. 'Phoenix, AZ'"; ``quickLists``: an array of named queries, AND-ed, with the
  kebab-case values ``preforeclosure``, ``notice-of-default``, ``notice-of-lis-pendens``, ``notice-of-sale``,
  ``active-auction``, ``tax-default``, ``vacant``, ``inherited``, ...) and ``options`` (``skip``, default 0;
  ``take``, default 25, 0 to 500); responses 200, 400, 401, 403, 404, 405, 429, 500, each with a ``status``
  object ``{code, text, message}``.
- BatchData's data dictionary, "Property Search/Property Lookup API endpoints" spreadsheet (the same
  repository, ``Batchdata/docs/data-dictionary/``): every result field used by the mapping (``_id``,
  ``address.*``, ``ids.apn``, ``owner.fullName`` / ``owner.names[].full`` / ``owner.mailingAddress.*``,
  ``building.bedroomCount`` / ``bathroomCount`` / ``livingAreaSquareFeet`` / ``yearBuilt``,
  ``assessment.*``, ``foreclosure.recordingDate`` / ``filingDate`` / ``defaultDate`` / ``auctionDate`` /
  ``auctionMinimumBidAmount`` / ``pastDueAmount`` / ``unpaidBalance`` / ``trusteeName`` / ``documentType``,
  ``tax.taxDelinquentYear`` / ``taxAmount``, ``sale.lastSale.*`` / ``sale.lastTransfer.*``,
  ``valuation.estimatedValue``, and the boolean ``quickLists.<name>`` flags: ``preforeclosure``,
  ``noticeOfDefault``, ``noticeOfLisPendens``, ``noticeOfSale``, ``activeAuction``, ``taxDefault``,
  ``vacant``, ``inherited``).
- The synchronous response envelope ``{"status": {...}, "results": {"properties": [...], "meta": {"results":
  {"resultCount": n, "resultsFound": N}}}}``: the scraped pages show only the async answer (a ``status``
  object) and describe the meta object in words ("'resultCount' indicates the number of returned properties
  that will be billed"); the envelope is the one public client code of ``/api/v1/property/search`` reads
  (``data.results.properties``, ``data.results.meta.results.resultsFound``).

Uncertain, and mapped defensively (a missing field is None, an unreadable value a ``RejectedRow``): the
delinquent tax amount (no field in the dictionary: ``tax.taxDelinquentAmount`` / ``tax.delinquentAmount``
are read only when present), the date of the inheritance (no dedicated field: the last transfer's recording
date stands for it), the exact date format (``options.dateFormat`` iso-date or iso-date-time; both read, and
M/D/YYYY). ``resultsFound`` is not relied on: paging stops on a short page.

Requests and failures
---------------------
One search per quick list: ``{"searchCriteria": {"query": <location>, "quickLists": [<list>]}, "options":
{"skip": s, "take": t}}``, paged with ``skip`` until a page holds fewer than ``take`` properties, or
``max_rows`` properties were read for the list (``BATCHDATA_MAX_ROWS``, default 500: BatchData bills every
property returned), or ``MAX_PAGES`` pages. Timeouts, retries with backoff on 429 and 5xx honouring
``Retry-After`` (bounded): ``retrying``. A 401/403 is "BatchData refused the API key (HTTP 401): check
BATCHDATA_API_KEY." and no message ever contains the key (a provider message is scrubbed of it).

Settings (``config.LeadSettings``): ``BATCHDATA_API_KEY`` (required), ``BATCHDATA_BASE_URL`` (default
``https://api.batchdata.com/api/v1``), ``BATCHDATA_TIMEOUT`` (seconds, default 30), ``BATCHDATA_MAX_ROWS``.
Not wired into the refresh job or the UI: ingestion calls ``fetch_batchdata``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import date, datetime, timezone
from typing import Any

import httpx

from marketplace.platform.config import BATCHDATA_DEFAULT_BASE_URL, lead_settings
from marketplace.features.marketplace import CriteriaError
from marketplace.features.records import MappedRecord, RejectedRow
from marketplace.features.scrape.source_base import SourceError
from marketplace.features.scrape.source_batchdata_mapping import (
    BATCHDATA,
    QUICK_LISTS,
    QuickList,
    map_property,
    quick_list,
)
from marketplace.features.scrape.source_retrying import ProviderClient

SEARCH_PATH = "/property/search"
MAX_TAKE = 500  # BatchData's documented maximum ``options.take``
PAGE_SIZE = 100
MAX_PAGES = 50  # per quick list: bounds the (billed) requests of one run
DEFAULT_TIMEOUT = 30.0


class BatchDataClient(ProviderClient):
    """POST /property/search with the Bearer key, timeouts, retries and BatchData-named errors."""

    provider = BATCHDATA

    def __init__(self, api_key: str, base_url: str = BATCHDATA_DEFAULT_BASE_URL, **options: Any) -> None:
        """``options``: ``ProviderClient``'s (timeout, default 30s here; max_retries, backoff, client, sleep)."""
        if not api_key:
            raise SourceError("BATCHDATA_API_KEY is not set: the BatchData source needs an API key.")
        super().__init__(**{"timeout": DEFAULT_TIMEOUT, **options})
        self.base_url = base_url.rstrip("/")
        self._api_key = api_key
        self._headers = {"Authorization": f"Bearer {api_key}", "Accept": "application/json"}

    def __repr__(self) -> str:  # never the key
        return f"BatchDataClient({self.base_url!r})"

    @classmethod
    def from_settings(cls) -> BatchDataClient:
        """A client configured by the ``BATCHDATA_*`` variables (module docstring)."""
        settings = lead_settings()
        try:
            timeout = float(settings.batchdata_timeout)
        except ValueError:
            raise SourceError(
                f"BATCHDATA_TIMEOUT must be a number of seconds, not {settings.batchdata_timeout!r}.") from None
        return cls(settings.batchdata_api_key or "", settings.batchdata_base_url, timeout=timeout)

    def search(self, criteria: dict[str, Any], *, skip: int, take: int) -> list[Any]:
        """One page of ``results.properties`` (items as sent: the mapping judges each one)."""
        body = {"searchCriteria": criteria, "options": {"skip": skip, "take": take}}
        response = self.send("POST", f"{self.base_url}{SEARCH_PATH}", SEARCH_PATH, json=body, headers=self._headers)
        status = response.status_code
        if status in (401, 403):
            raise SourceError(f"{BATCHDATA} refused the API key (HTTP {status}): check BATCHDATA_API_KEY.")
        if not response.is_success:
            raise SourceError(
                f"{BATCHDATA} refused the request to {SEARCH_PATH} (HTTP {status}){self._detail(response)}")
        try:
            payload = response.json()
        except ValueError:
            raise SourceError(f"{BATCHDATA} sent malformed JSON on {SEARCH_PATH}.") from None
        results = payload.get("results") if isinstance(payload, dict) else None
        properties = results.get("properties", []) if isinstance(results, dict) else None
        if not isinstance(properties, list):  # (no "properties" at all: no match)
            raise SourceError(
                f"{BATCHDATA} sent an unexpected answer on {SEARCH_PATH}: expected results.properties, a list.")
        return properties

    def _detail(self, response: httpx.Response) -> str:
        """": <BatchData's status.message>." (without the key), or "." when there is none."""
        try:
            body = response.json()
        except ValueError:
            body = None
        status = body.get("status") if isinstance(body, dict) else None
        message = (status.get("message") or status.get("text")) if isinstance(status, dict) else None
        message = str(message or "").replace(self._api_key, "[key]").strip()[:200]
        return f": {message}" if message else "."


def fetch_batchdata(
    quick_lists: Iterable[str],
    *,
    location: str,
    client: BatchDataClient | None = None,
    max_rows: int | None = None,
    page_size: int = PAGE_SIZE,
    today: date | None = None,
) -> Iterator[MappedRecord | RejectedRow]:
    """Every property of each quick list in ``location`` as a signal record (or a RejectedRow).

    ``quick_lists``: our names (``noticeOfDefault``) or BatchData's filter values (``notice-of-default``), see
    ``batchdata_mapping.QUICK_LISTS``. ``location``: BatchData's ``searchCriteria.query`` ("Phoenix, AZ", a ZIP
    code). ``max_rows``: properties read per quick list (default ``BATCHDATA_MAX_ROWS``). ``client``: default
    one from the settings (closed at the end). ``today``: the retrieval date (default: today in UTC).
    Raises ``CriteriaError`` on an unknown list or an empty location before any request, ``SourceError`` when
    BatchData fails.
    """
    lists = _quick_lists(quick_lists)
    query = " ".join(str(location or "").split())
    if not query:
        raise CriteriaError("BatchData needs a location to search (a city and state, or a ZIP code).")
    limit = max_rows if max_rows is not None else lead_settings().batchdata_max_rows
    if limit < 1:
        raise CriteriaError(f"max_rows must be at least 1, not {limit}.")
    take_max = max(1, min(page_size, MAX_TAKE))
    retrieved = today or datetime.now(timezone.utc).date()
    return _fetch(lists, query, client, limit, take_max, retrieved)


def _quick_lists(names: Iterable[str]) -> list[QuickList]:
    if isinstance(names, str):
        names = [names]
    chosen: list[QuickList] = []
    for name in names:
        found = quick_list(name) if isinstance(name, str) else None
        if found is None:
            raise CriteriaError(f"Unknown BatchData quick list {name!r}; use one of {', '.join(QUICK_LISTS)}.")
        if found not in chosen:
            chosen.append(found)
    if not chosen:
        raise CriteriaError("Name at least one BatchData quick list.")
    return chosen


def _fetch(lists: list[QuickList], query: str, client: BatchDataClient | None, limit: int, take_max: int,
           retrieved: date) -> Iterator[MappedRecord | RejectedRow]:
    owned = client is None
    api = BatchDataClient.from_settings() if owned else client
    try:
        for q in lists:
            criteria = {"query": query, "quickLists": [q.filter_value]}
            read = 0
            for _ in range(MAX_PAGES):
                take = min(take_max, limit - read)
                page = api.search(criteria, skip=read, take=take)
                for prop in page[:take]:
                    read += 1
                    yield map_property(prop, q, row_number=read, retrieved=retrieved)
                if len(page) < take or read >= limit:
                    break
    finally:
        if owned:
            api.close()


__all__ = ["BatchDataClient", "QUICK_LISTS", "fetch_batchdata"]
