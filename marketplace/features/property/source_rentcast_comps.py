"""RentCast's comparable sales: the ``comparables`` of its value estimate (``GET /avm/value``).

Request: ``address`` (the lead's street, city, state and ZIP), ``propertyType``, ``bedrooms``,
``bathrooms`` and ``squareFootage`` when known, ``maxRadius`` 2 (miles), ``daysOld`` 365 and ``compCount``
25 (RentCast's maximum). HTTP 400/404 ("no comparables", "cannot geolocate") is no sales.

Of each comparable (RentCast's documented fields): ``id``, ``formattedAddress`` / ``addressLine1``,
``city``, ``state``, ``zipCode``, ``latitude``, ``longitude``, ``propertyType``, ``bedrooms``,
``bathrooms``, ``squareFootage``, ``price`` and the date it left the market: ``removedDate``, else
``lastSeenDate``. RentCast's comparables are listings it saw leave the market, so the price is the last
listed price and the date the day it was removed (the page says so; a comparable without a price, a
living area or a date is left out).
"""

from __future__ import annotations

import math
from datetime import date, datetime
from typing import Any

from marketplace.features.property.rules_comps import Comp, property_type
from marketplace.features.scrape import SourceError
from marketplace.features.property.source_comps import LeadFacts
from marketplace.features.scrape import RENTCAST, RentCastClient

VALUE_PATH = "/avm/value"
MAX_RADIUS_MILES = 2
DAYS_OLD = 365
COMP_COUNT = 25


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def _day(value: Any) -> date | None:
    if not isinstance(value, str) or len(value) < 10:
        return None
    try:
        return datetime.fromisoformat(value[:10]).date()
    except ValueError:
        return None


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def comparable(item: Any) -> Comp | None:
    """One RentCast comparable as a comp (None when it lacks an id, a price, a living area or a date)."""
    if not isinstance(item, dict):
        return None
    price, sqft = _number(item.get("price")), _number(item.get("squareFootage"))
    sold = _day(item.get("removedDate")) or _day(item.get("lastSeenDate"))
    comp_id = _text(item.get("id"))
    street = _text(item.get("addressLine1")) or _text(item.get("formattedAddress")).split(",")[0].strip()
    if not (comp_id and street and price and price > 0 and sqft and sqft > 0 and sold):
        return None
    beds, baths = _number(item.get("bedrooms")), _number(item.get("bathrooms"))
    return Comp(comp_id=f"rentcast:{comp_id}"[:120], address=street, city=_text(item.get("city")),
                state=_text(item.get("state")).upper(), zip_code=_text(item.get("zipCode"))[:5], sale_date=sold,
                price=round(price), square_footage=round(sqft), beds=None if beds is None else round(beds),
                baths=baths, property_type=property_type(_text(item.get("propertyType"))),
                latitude=_number(item.get("latitude")), longitude=_number(item.get("longitude")))


class RentCastComps:
    """Comparables of RentCast's value estimate (module docstring)."""

    name = "rentcast"

    def __init__(self, base_url: str, api_key: str, **client_options: Any) -> None:
        self.api = RentCastClient(base_url, api_key, **client_options)

    def close(self) -> None:
        self.api.close()

    def sales_near(self, lead: LeadFacts, today: date) -> list[Comp]:
        params: dict[str, Any] = {"address": f"{lead.address}, {lead.city}, {lead.state} {lead.zip_code}",
                                  "maxRadius": MAX_RADIUS_MILES, "daysOld": DAYS_OLD, "compCount": COMP_COUNT}
        if lead.property_type:
            params["propertyType"] = lead.property_type
        for key, value in (("bedrooms", lead.beds), ("bathrooms", lead.baths),
                           ("squareFootage", lead.square_footage)):
            if value is not None:
                params[key] = value
        answer = self.api.get(VALUE_PATH, params, no_result_statuses=(400, 404))
        if answer is None:
            return []
        if not isinstance(answer, dict):
            raise SourceError(f"{RENTCAST} sent an unexpected answer on {VALUE_PATH}: expected an object.")
        items = answer.get("comparables") or []
        if not isinstance(items, list):
            raise SourceError(f"{RENTCAST} sent an unexpected answer on {VALUE_PATH}: comparables is not a list.")
        return [comp for comp in (comparable(item) for item in items) if comp is not None]
