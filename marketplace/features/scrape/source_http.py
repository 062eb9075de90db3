"""An HTTP lead source backed by RentCast (https://developers.rentcast.io).

An HTTP lead source backed by RentCast (https://developers.rentcast.io).

Select it with ``LEAD_SOURCE=http``. Settings (``HttpLeadSource.from_env``):

- ``LEAD_SOURCE_API_KEY`` (required): sent in the ``X-Api-Key`` header;
- ``LEAD_SOURCE_URL``: the API root, default ``https://api.rentcast.io/v1``;
- ``LEAD_SOURCE_TIMEOUT``: seconds per request, default 10;
- ``LEAD_SOURCE_FETCH_VALUES``: ``0`` skips the value-estimate calls (see below).

Endpoints and the fields relied on
----------------------------------
``GET /listings/sale`` with ``status=Active``, ``city``/``state``, ``limit``
(at most 500) and ``offset``; ``bedrooms`` is sent only for an exact bed count.
A page shorter than ``limit`` (or ``[]``, or HTTP 404 "no results") ends a
query. Of each listing:

- required (a listing missing one is skipped): ``id``, ``addressLine1`` (else
  the street part of ``formattedAddress``), ``city``, ``state``, ``zipCode``,
  ``price`` (> 0);
- optional: ``addressLine2``, ``formattedAddress``, ``county``, ``latitude``,
  ``longitude``, ``propertyType`` ("Land" listings are skipped: nothing to
  rehab), ``bedrooms``, ``bathrooms``, ``squareFootage``, ``yearBuilt``,
  ``listingType``, ``daysOnMarket``, ``listingAgent``/``listingOffice``
  (``name``, ``phone``, ``email``) and ``mlsName``;
- not in RentCast's documented schema, read when present: ``listingUrl``/``url``
  (kept as ``raw_data["listing_url"]``) and ``photos`` (image URLs).

``GET /avm/value`` with ``address`` (the ``formattedAddress``) plus
``propertyType``, ``bedrooms``, ``bathrooms`` and ``squareFootage`` when known;
of the answer ``price``, ``priceRangeLow``, ``priceRangeHigh`` and the number
of ``comparables``. HTTP 400/404 ("cannot geolocate", "no comparables") means
no estimate for that listing.

Searching
---------
One query per (city, state) pair (a city named without a state: every state
that has it, or the requested states), one per state when only states are
given, else the built-in source's default markets. Queries are paged
round-robin, each page about twice the market's share of ``count`` (50 to
500 listings), at most ``MAX_PAGES_PER_MARKET`` pages per market. Candidates that fail a
criterion not depending on the value estimate are dropped before any AVM call;
the rest are checked with ``builtin.matches`` once complete, so every criterion
is honoured exactly. The result holds at most ``criteria.count`` leads, fewer
when RentCast runs out.

The mapping from a listing to a lead is in ``rentcast_mapping``; requests,
retries and errors in ``rentcast_client``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from typing import Any, Self

from marketplace.platform.config import lead_settings
from marketplace.features.marketplace import Range, SearchCriteria
from marketplace.platform.leads import LeadRecord
from marketplace.features.scrape.source_base import SourceError
from marketplace.features.scrape.source_markets import matches
from marketplace.features.scrape.source_rentcast_client import DEFAULT_BASE_URL, RENTCAST, RentCastClient
from marketplace.features.scrape.source_rentcast_mapping import (
    full_address,
    lead_type_for,
    listing_to_lead,
    markets_for,
    query_for,
)

LISTINGS_PATH = "/listings/sale"
VALUE_PATH = "/avm/value"
MAX_PAGE_SIZE = 500  # RentCast's maximum ``limit``
MIN_PAGE_SIZE = 50  # RentCast's default ``limit``: smaller pages only add (billed) requests
MAX_PAGES_PER_MARKET = 20  # bounds the requests (billed one by one) a search can make
OVERFETCH = 2  # each page asks for about twice a market's share of the leads


class HttpLeadSource:
    """Leads from RentCast's active sale listings; see the module docstring."""

    name = "rentcast"

    def __init__(self, base_url: str, api_key: str, *, page_size: int = MAX_PAGE_SIZE, fetch_values: bool = True,
                 now: datetime | None = None, **client_options: Any) -> None:
        """``client_options``: ``RentCastClient``'s (timeout, max_retries, backoff, client, sleep)."""
        self.api = RentCastClient(base_url, api_key, **client_options)
        self.page_size = max(1, min(page_size, MAX_PAGE_SIZE))
        self.fetch_values = fetch_values
        self.now = now

    @classmethod
    def from_env(cls) -> HttpLeadSource:
        """A source configured by the ``LEAD_SOURCE_*`` variables (module docstring)."""
        settings = lead_settings()
        api_key = settings.source_api_key
        if not api_key:
            raise SourceError("LEAD_SOURCE_API_KEY is not set: the http lead source needs a RentCast API key.")
        try:
            timeout = float(settings.source_timeout)
        except ValueError:
            raise SourceError(
                f"LEAD_SOURCE_TIMEOUT must be a number of seconds, not {settings.source_timeout!r}.") from None
        fetch_values = settings.source_fetch_values
        base_url = settings.source_url or DEFAULT_BASE_URL
        return cls(base_url, api_key, timeout=timeout, fetch_values=fetch_values)

    def close(self) -> None:
        self.api.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ------------------------------------------------------------------ public

    def search(self, criteria: SearchCriteria) -> list[LeadRecord]:
        criteria.validate()
        markets = markets_for(criteria)
        # What can be checked before the value estimate (ROI and confidence depend on it).
        before_value = replace(criteria, roi=Range(), confidence=Range())
        share = math.ceil(criteria.count * OVERFETCH / len(markets))
        limit = min(self.page_size, max(MIN_PAGE_SIZE, share))
        leads: list[LeadRecord] = []
        seen: set[str] = set()
        for record in self._listings(markets, query_for(criteria), limit):
            lead = listing_to_lead(record, None, self.now)
            if lead is None or lead["external_id"] in seen or not matches(lead, before_value):
                continue
            seen.add(lead["external_id"])
            if self.fetch_values:
                lead = listing_to_lead(record, self._value_estimate(record), self.now)
            if lead is not None and matches(lead, criteria):
                leads.append(lead)
                if len(leads) == criteria.count:
                    break
        return leads

    def images_for(self, lead: LeadRecord) -> list[str]:
        """RentCast has no photo endpoint: nothing to add after the search."""
        return []

    # ------------------------------------------------------------------ requests

    def _listings(self, markets: list[dict[str, str]], query: dict[str, Any], limit: int) -> Iterator[dict[str, Any]]:
        """Listings of every market, a page of each in turn, until all are exhausted."""
        pagers = [self._pages({**query, **market}, limit) for market in markets]
        while pagers:
            for pager in list(pagers):
                page = next(pager, None)
                if page is None:
                    pagers.remove(pager)
                else:
                    yield from page

    def _pages(self, params: dict[str, Any], limit: int) -> Iterator[list[dict[str, Any]]]:
        for number in range(MAX_PAGES_PER_MARKET):
            page = self.api.get(LISTINGS_PATH, {**params, "limit": limit, "offset": number * limit})
            page = [] if page is None else page
            if not isinstance(page, list) or not all(isinstance(item, dict) for item in page):
                raise SourceError(
                    f"{RENTCAST} sent an unexpected answer on {LISTINGS_PATH}: expected a list of listings."
                )
            if page:
                yield page
            if len(page) < limit:
                return

    def _value_estimate(self, record: dict[str, Any]) -> dict[str, Any] | None:
        """RentCast's AVM answer for a listing, or None when it has no estimate."""
        params: dict[str, Any] = {"address": record.get("formattedAddress") or full_address(record)}
        for key in ("propertyType", "bedrooms", "bathrooms", "squareFootage"):
            if record.get(key) is not None:
                params[key] = record[key]
        value = self.api.get(VALUE_PATH, params, no_result_statuses=(400, 404))
        if value is not None and not isinstance(value, dict):
            raise SourceError(f"{RENTCAST} sent an unexpected answer on {VALUE_PATH}: expected an object.")
        return value


__all__ = ["HttpLeadSource", "RentCastClient", "lead_type_for"]
