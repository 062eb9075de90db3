"""An HTTP lead source backed by RentCast (https://developers.rentcast.io).

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

From a listing to a lead
------------------------
- ``lead_type`` from ``listingType``: "Foreclosure" -> "Auction" when an auction
  house markets it (``listingOffice``, ``listingAgent`` or ``mlsName`` names an
  auction), else "Pre-Foreclosure"; "Short Sale" -> "Pre-Foreclosure"; any other
  value naming an auction/trustee/sheriff sale, probate/estate sale, tax, or
  vacancy maps to that type; "Standard", "New Construction" and the rest ->
  "Make Me Move" (an owner selling on the open market). RentCast's
  "Foreclosure" is usually bank-owned (REO); the app has no such type, so it is
  filed with the pre-foreclosures. ``source`` follows from the type.
- ``asking_price`` = ``price``. ``zestimate`` (market value) = the AVM
  ``price``; without one (``fetch_values`` off, or no estimate) it is
  ``price / (1 - d)`` with ``d`` the middle of the lead type's discount range of
  the built-in source, and ``raw_data["zestimate_source"]`` says which
  ("rentcast_avm" or "price_estimate").
- ``arv`` and ``rehab_estimate`` use the built-in source's formulas (steps 4
  and 5 of ``builtin``) with the condition unknown, i.e. neutral (0.5):
  ``arv = zestimate x 1.15`` and ``rehab = sqft x 31.5 $/sqft``; without a
  square footage there is no rehab estimate and so no ROI.
- ``roi`` = ``core.pricing.compute_roi``; ``is_high_roi`` from it.
- ``confidence_score`` = the lead type's source reliability (built-in table)
  + 4 per known item among beds, baths, sqft, year built, listing URL, agent
  contact and AVM value, clamped to 0-100; ``credit_cost`` follows from it.
- images: only URLs that ``core.images.allowed_images`` accepts; status
  "success" with some, "no_images" without. ``images_for`` returns ``[]``:
  RentCast has no photo endpoint.
- ``external_id`` = ``rentcast:<id>`` (the SHA-256 of the id when that would not
  fit the 128-character column), so a refresh never stores a listing twice.
- ``raw_data``: ``provider``, ``listing_type``, ``days_on_market``,
  ``year_built``, ``county``, ``condition_score``, ``zestimate_source``,
  ``listing_url`` when given, the AVM summary (``rentcast_value``) and the
  provider record itself (``rentcast``).

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

import hashlib
import logging
import math
import os
import time
import uuid
from collections.abc import Callable, Collection, Iterator
from dataclasses import replace
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any, Self

import httpx

from marketplace.core import pricing
from marketplace.core.images import allowed_images
from marketplace.sources.base import (
    SOURCE_FOR_TYPE,
    LeadRecord,
    Range,
    SearchCriteria,
    SourceError,
)
from marketplace.sources.builtin import DEFAULT_MARKETS, TYPE_PROFILE, _geo_index, _parse_city, matches

log = logging.getLogger("marketplace.sources.http")

PROVIDER = "RentCast"
DEFAULT_BASE_URL = "https://api.rentcast.io/v1"
LISTINGS_PATH = "/listings/sale"
VALUE_PATH = "/avm/value"

MAX_PAGE_SIZE = 500  # RentCast's maximum ``limit``
MIN_PAGE_SIZE = 50  # RentCast's default ``limit``: smaller pages only add (billed) requests
MAX_PAGES_PER_MARKET = 20  # bounds the requests (billed one by one) a search can make
OVERFETCH = 2  # each page asks for about twice a market's share of the leads
MAX_BACKOFF = 30.0  # seconds
MAX_RETRY_AFTER = 60.0  # seconds: a longer Retry-After is cut to this

NEUTRAL_CONDITION = 0.5  # the built-in condition scale: 0 = gut rehab, 1 = move-in ready
POINTS_PER_KNOWN_FIELD = 4
SKIPPED_PROPERTY_TYPES = frozenset({"Land"})
AUCTION_WORDS = ("auction",)
# listingType keywords -> lead type, first match wins (after the foreclosure rule).
LISTING_TYPE_KEYWORDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("auction", "trustee", "sheriff"), "Auction"),
    (("short sale", "default", "distress"), "Pre-Foreclosure"),
    (("probate", "estate sale", "inherit"), "Probate"),
    (("tax",), "Tax Delinquent"),
    (("vacan", "abandon"), "Vacancy"),
)
DEFAULT_LEAD_TYPE = "Make Me Move"
LISTING_URL_KEYS = ("listingUrl", "url")
FALSE_WORDS = ("0", "false", "no", "off")
EXTERNAL_ID_MAX = 128  # the width of ``leads.external_id``


# --------------------------------------------------------------------------- HTTP


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


# --------------------------------------------------------------------------- lead source


class HttpLeadSource:
    """Leads from RentCast's active sale listings; see the module docstring."""

    name = "rentcast"

    def __init__(
        self,
        base_url: str,
        api_key: str,
        timeout: float = 10.0,
        max_retries: int = 4,
        backoff: float = 0.5,
        client: httpx.Client | None = None,
        *,
        sleep: Callable[[float], None] = time.sleep,
        page_size: int = MAX_PAGE_SIZE,
        fetch_values: bool = True,
        now: datetime | None = None,
    ) -> None:
        self.api = RentCastClient(
            base_url, api_key, timeout=timeout, max_retries=max_retries, backoff=backoff, client=client, sleep=sleep
        )
        self.page_size = max(1, min(page_size, MAX_PAGE_SIZE))
        self.fetch_values = fetch_values
        self.now = now

    @classmethod
    def from_env(cls) -> HttpLeadSource:
        """A source configured by the ``LEAD_SOURCE_*`` variables (module docstring)."""
        api_key = os.environ.get("LEAD_SOURCE_API_KEY", "").strip()
        if not api_key:
            raise SourceError("LEAD_SOURCE_API_KEY is not set: the http lead source needs a RentCast API key.")
        raw_timeout = os.environ.get("LEAD_SOURCE_TIMEOUT", "").strip() or "10"
        try:
            timeout = float(raw_timeout)
        except ValueError:
            raise SourceError(f"LEAD_SOURCE_TIMEOUT must be a number of seconds, not {raw_timeout!r}.") from None
        fetch_values = os.environ.get("LEAD_SOURCE_FETCH_VALUES", "1").strip().lower() not in FALSE_WORDS
        base_url = os.environ.get("LEAD_SOURCE_URL", "").strip() or DEFAULT_BASE_URL
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
        markets = _markets(criteria)
        # What can be checked before the value estimate (ROI and confidence depend on it).
        before_value = replace(criteria, roi=Range(), confidence=Range())
        share = math.ceil(criteria.count * OVERFETCH / len(markets))
        limit = min(self.page_size, max(MIN_PAGE_SIZE, share))
        leads: list[LeadRecord] = []
        seen: set[str] = set()
        for record in self._listings(markets, _query(criteria), limit):
            lead = self._lead(record, value=None)
            if lead is None or lead["external_id"] in seen or not matches(lead, before_value):
                continue
            seen.add(lead["external_id"])
            if self.fetch_values:
                lead = self._lead(record, value=self._value_estimate(record))
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
                    f"{PROVIDER} sent an unexpected answer on {LISTINGS_PATH}: expected a list of listings."
                )
            if page:
                yield page
            if len(page) < limit:
                return

    def _value_estimate(self, record: dict[str, Any]) -> dict[str, Any] | None:
        """RentCast's AVM answer for a listing, or None when it has no estimate."""
        params: dict[str, Any] = {"address": record.get("formattedAddress") or _full_address(record)}
        for key in ("propertyType", "bedrooms", "bathrooms", "squareFootage"):
            if record.get(key) is not None:
                params[key] = record[key]
        value = self.api.get(VALUE_PATH, params, no_result_statuses=(400, 404))
        if value is not None and not isinstance(value, dict):
            raise SourceError(f"{PROVIDER} sent an unexpected answer on {VALUE_PATH}: expected an object.")
        return value

    # ------------------------------------------------------------------ normalization

    def _lead(self, record: dict[str, Any], value: dict[str, Any] | None) -> LeadRecord | None:
        """The lead for one listing (None when a required field is missing)."""
        provider_id = _text(record.get("id"))
        street = _street(record)
        city = _text(record.get("city"))
        state = _text(record.get("state")).upper()
        zip_code = _text(record.get("zipCode"))[:5]
        price = _number(record.get("price"))
        if not (provider_id and street and city and len(state) == 2 and zip_code) or not price or price <= 0:
            log.debug("skipping incomplete %s listing %r", PROVIDER, provider_id or record)
            return None
        if record.get("propertyType") in SKIPPED_PROPERTY_TYPES:
            return None

        lead_type = lead_type_for(record)
        discount_range, _, reliability = TYPE_PROFILE[lead_type]
        asking = round(price)
        avm_price = _number(value.get("price")) if value else None
        if avm_price and avm_price > 0:
            zestimate, zestimate_source = round(avm_price), "rentcast_avm"
        else:
            zestimate = int(round(asking / (1 - sum(discount_range) / 2), -3))
            zestimate_source = "price_estimate"
        beds, baths = _integer(record.get("bedrooms")), _number(record.get("bathrooms"))
        sqft, year_built = _integer(record.get("squareFootage")) or None, _integer(record.get("yearBuilt")) or None
        arv = pricing.estimate_arv(zestimate, NEUTRAL_CONDITION)
        rehab = pricing.estimate_rehab(sqft, NEUTRAL_CONDITION) if sqft else None
        roi = pricing.compute_roi(arv, asking, rehab)
        listing_url = next((record[k] for k in LISTING_URL_KEYS if str(record.get(k) or "").startswith("http")), None)

        known = (beds is not None, baths is not None, sqft is not None, year_built is not None,
                 listing_url is not None, _agent_contact(record), zestimate_source == "rentcast_avm")
        confidence = max(0, min(100, reliability + POINTS_PER_KNOWN_FIELD * sum(known)))
        photos = record.get("photos")
        images = allowed_images(photos if isinstance(photos, list) else [])

        raw: dict[str, Any] = {
            "provider": "rentcast",
            "listing_type": record.get("listingType"),
            "days_on_market": record.get("daysOnMarket"),
            "year_built": year_built,
            "county": record.get("county"),
            "condition_score": NEUTRAL_CONDITION,
            "zestimate_source": zestimate_source,
        }
        if listing_url:
            raw["listing_url"] = listing_url
        if value is not None:
            raw["rentcast_value"] = {
                "price": value.get("price"),
                "priceRangeLow": value.get("priceRangeLow"),
                "priceRangeHigh": value.get("priceRangeHigh"),
                "comparables": len(value.get("comparables") or []),
            }
        raw["rentcast"] = record

        return {
            "id": uuid.uuid4(),
            "external_id": _external_id(provider_id),
            "address": street,
            "city": city,
            "state": state,
            "zip_code": zip_code,
            "lead_type": lead_type,
            "source": SOURCE_FOR_TYPE[lead_type],
            "asking_price": asking,
            "zestimate": zestimate,
            "arv": arv,
            "rehab_estimate": rehab,
            "roi": roi,
            "beds": beds,
            "baths": baths,
            "square_footage": sqft,
            "confidence_score": confidence,
            "credit_cost": pricing.credit_cost_for_confidence(confidence),
            "is_new": True,
            "is_high_roi": pricing.is_high_roi(roi),
            "is_active": True,
            "created_at": self.now or datetime.now(timezone.utc),
            "image_urls": images,
            "primary_image_url": images[0] if images else None,
            "images_fetch_status": "success" if images else "no_images",
            "raw_data": raw,
            "latitude": _number(record.get("latitude")),
            "longitude": _number(record.get("longitude")),
        }


# --------------------------------------------------------------------------- mapping helpers


def lead_type_for(record: dict[str, Any]) -> str:
    """The app's lead type for a RentCast listing (mapping in the module docstring)."""
    kind = _text(record.get("listingType")).lower()
    if "foreclos" in kind:
        return "Auction" if _marketed_by_auction(record) else "Pre-Foreclosure"
    for words, lead_type in LISTING_TYPE_KEYWORDS:
        if any(word in kind for word in words):
            return lead_type
    return DEFAULT_LEAD_TYPE


def _marketed_by_auction(record: dict[str, Any]) -> bool:
    names = [_text(record.get("mlsName"))]
    for key in ("listingOffice", "listingAgent"):
        party = record.get(key)
        if isinstance(party, dict):
            names.append(_text(party.get("name")))
    return any(word in name.lower() for name in names for word in AUCTION_WORDS)


def _agent_contact(record: dict[str, Any]) -> bool:
    """True when the listing names an agent or office that can be reached."""
    for key in ("listingAgent", "listingOffice"):
        party = record.get(key)
        if isinstance(party, dict) and (party.get("phone") or party.get("email")):
            return True
    return False


def _markets(criteria: SearchCriteria) -> list[dict[str, str]]:
    """The location parameters of each provider query (see "Searching")."""
    states = tuple(dict.fromkeys(s.upper() for s in criteria.states))
    if criteria.cities:
        by_city, _ = _geo_index()
        markets: dict[tuple[str, str], dict[str, str]] = {}
        for text in criteria.cities:
            typed = text.rsplit(",", 1)[0].strip()
            for key in _parse_city(text, states):
                # RentCast matches city names case-sensitively: keep the user's spelling
                # when it is already mixed-case ("McAllen"), else the gazetteer's ("Austin").
                known = by_city[key][0]["city"]
                name = typed if typed not in (typed.lower(), typed.upper()) else known
                markets.setdefault(key, {"city": name, "state": key[1]})
        return list(markets.values())
    if states:
        return [{"state": state} for state in states]
    return [{"city": city, "state": state} for city, state in DEFAULT_MARKETS]


def _query(criteria: SearchCriteria) -> dict[str, Any]:
    """Query parameters shared by every market (criteria RentCast can filter on exactly)."""
    query: dict[str, Any] = {"status": "Active"}
    beds = criteria.beds
    if beds.min is not None and beds.min == beds.max and float(beds.min).is_integer():
        query["bedrooms"] = int(beds.min)
    return query


def _external_id(provider_id: str) -> str:
    """``rentcast:<id>``; an id too long for the column is replaced by its digest (still unique)."""
    external_id = f"rentcast:{provider_id}"
    if len(external_id) <= EXTERNAL_ID_MAX:
        return external_id
    return f"rentcast:sha256:{hashlib.sha256(provider_id.encode()).hexdigest()}"


def _street(record: dict[str, Any]) -> str:
    line1 = _text(record.get("addressLine1")) or _text(record.get("formattedAddress")).split(",")[0].strip()
    line2 = _text(record.get("addressLine2"))
    return f"{line1} {line2}" if line1 and line2 else line1


def _full_address(record: dict[str, Any]) -> str:
    """``Street, City, State Zip`` as RentCast's address parameter expects."""
    city, state, zip_code = (_text(record.get(key)) for key in ("city", "state", "zipCode"))
    return f"{_street(record)}, {city}, {state} {zip_code}"


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def _integer(value: Any) -> int | None:
    number = _number(value)
    return None if number is None else round(number)


__all__ = ["HttpLeadSource", "RentCastClient", "lead_type_for"]
