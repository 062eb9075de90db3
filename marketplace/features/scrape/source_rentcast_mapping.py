"""From a RentCast listing to a lead (the HTTP lead source's mapping).

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
- ``roi`` = ``platform.pricing.compute_roi``; ``is_high_roi`` from it.
- ``confidence_score`` = the lead type's source reliability (built-in table)
  + 4 per known item among beds, baths, sqft, year built, listing URL, agent
  contact and AVM value, clamped to 0-100; ``credit_cost`` follows from it.
- images: only URLs that ``marketplace.rules_images.allowed_images`` accepts; status
  "success" with some, "no_images" without. ``images_for`` returns ``[]``:
  RentCast has no photo endpoint.
- ``external_id`` = ``rentcast:<id>`` (the SHA-256 of the id when that would not
  fit the 128-character column), so a refresh never stores a listing twice.
- ``raw_data``: ``provider``, ``listing_type``, ``days_on_market``,
  ``year_built``, ``county``, ``condition_score``, ``zestimate_source``,
  ``listing_url`` when given, the AVM summary (``rentcast_value``) and the
  provider record itself (``rentcast``).
"""

from __future__ import annotations

import hashlib
import logging
import math
import uuid
from datetime import datetime, timezone
from typing import Any

from marketplace.platform import pricing
from marketplace.features.marketplace import SearchCriteria
from marketplace.platform.web.image_hosts import allowed_images
from marketplace.platform.leads import LeadRecord, lead_record
from marketplace.features.scrape.source_markets import DEFAULT_MARKETS, TYPE_PROFILE, geo_index, parse_city
from marketplace.features.scrape.source_rentcast_client import RENTCAST

log = logging.getLogger("marketplace.features.scrape.source_http")

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


def listing_to_lead(record: dict[str, Any], value: dict[str, Any] | None,
                now: datetime | None = None) -> LeadRecord | None:
    """The lead for one listing (None when a required field is missing)."""
    provider_id = _text(record.get("id"))
    street = _street(record)
    city = _text(record.get("city"))
    state = _text(record.get("state")).upper()
    zip_code = _text(record.get("zipCode"))[:5]
    price = _number(record.get("price"))
    if not (provider_id and street and city and len(state) == 2 and zip_code) or not price or price <= 0:
        log.debug("skipping incomplete %s listing %r", RENTCAST, provider_id or record)
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

    return lead_record(
        id=uuid.uuid4(),
        external_id=_external_id(provider_id),
        address=street,
        city=city,
        state=state,
        zip_code=zip_code,
        lead_type=lead_type,
        asking_price=asking,
        zestimate=zestimate,
        arv=arv,
        rehab_estimate=rehab,
        beds=beds,
        baths=baths,
        square_footage=sqft,
        confidence_score=confidence,
        created_at=now or datetime.now(timezone.utc),
        image_urls=images,
        raw_data=raw,
        latitude=_number(record.get("latitude")),
        longitude=_number(record.get("longitude")),
    )


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


def markets_for(criteria: SearchCriteria) -> list[dict[str, str]]:
    """The location parameters of each provider query (see "Searching")."""
    states = tuple(dict.fromkeys(s.upper() for s in criteria.states))
    if criteria.cities:
        by_city, _ = geo_index()
        markets: dict[tuple[str, str], dict[str, str]] = {}
        for text in criteria.cities:
            typed = text.rsplit(",", 1)[0].strip()
            for key in parse_city(text, states):
                # RentCast matches city names case-sensitively: keep the user's spelling
                # when it is already mixed-case ("McAllen"), else the gazetteer's ("Austin").
                known = by_city[key][0]["city"]
                name = typed if typed not in (typed.lower(), typed.upper()) else known
                markets.setdefault(key, {"city": name, "state": key[1]})
        return list(markets.values())
    if states:
        return [{"state": state} for state in states]
    return [{"city": city, "state": state} for city, state in DEFAULT_MARKETS]


def query_for(criteria: SearchCriteria) -> dict[str, Any]:
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


def full_address(record: dict[str, Any]) -> str:
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
