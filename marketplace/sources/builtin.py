"""The built-in lead source: public-record style leads generated offline.

Real US geography comes from the ``zipcodes`` package (city, state, ZIP and
coordinates); price levels come from a per-state table of typical price per
square foot, nudged for large metros. A lead is built like this:

1. pick a market (city + ZIP) allowed by the criteria, a lead type (and its
   source) and a property condition ``c`` in [0, 1] (0 = gut rehab);
2. beds, baths and square footage that belong together;
3. market value (``zestimate``) = sqft x local $/sqft x noise;
4. ``arv`` = market value x (1.04 + 0.22 x (1 - c)): a renovated house is
   worth more than this one as it stands;
5. ``rehab_estimate`` = sqft x (8 + 47 x (1 - c)) $/sqft;
6. a target ROI drawn from the lead type's typical spread (intersected with
   the requested ROI range) fixes the asking price through the inverse of
   ``core.pricing.compute_roi``; the asking price then sits below market value
   by a discount that depends on the lead type, as distressed sales do;
7. confidence = source reliability + 4 per known field (beds, baths, sqft,
   year built, listing URL, owner name) + noise, clamped to 0-100; the unlock
   cost follows from it.

Every criterion is honoured exactly: candidates that miss any criterion are
discarded, and a search that cannot be filled says so with ``CriteriaError``.
"""

from __future__ import annotations

import random
import uuid
from datetime import datetime, timedelta, timezone

from marketplace.core import pricing
from marketplace.core.images import house_image_urls
from marketplace.core.leads import LISTING_URL_KEYS, lead_record
from marketplace.sources.base import (
    LEAD_TYPES,
    SOURCE_FOR_TYPE,
    US_STATES,
    CriteriaError,
    LeadRecord,
    SearchCriteria,
)
from marketplace.sources.markets import DEFAULT_MARKETS, TYPE_PROFILE, geo_index, matches, parse_city

# Typical price per square foot by state (USD, rounded, 2025 levels).
STATE_PRICE_PER_SQFT = {
    "AL": 140, "AK": 215, "AZ": 245, "AR": 130, "CA": 430, "CO": 285, "CT": 230, "DE": 200, "FL": 250,
    "GA": 180, "HI": 620, "ID": 240, "IL": 175, "IN": 140, "IA": 135, "KS": 140, "KY": 140, "LA": 135,
    "ME": 230, "MD": 230, "MA": 370, "MI": 150, "MN": 190, "MS": 115, "MO": 150, "MT": 270, "NE": 155,
    "NV": 250, "NH": 260, "NJ": 270, "NM": 190, "NY": 300, "NC": 190, "ND": 150, "OH": 140, "OK": 130,
    "OR": 280, "PA": 170, "RI": 280, "SC": 180, "SD": 170, "TN": 195, "TX": 170, "UT": 270, "VT": 240,
    "VA": 220, "WA": 330, "WV": 115, "WI": 170, "WY": 210,
}
# Metros priced above (or below) their state's level.
METRO_FACTOR = {
    ("AUSTIN", "TX"): 1.45, ("DALLAS", "TX"): 1.2, ("HOUSTON", "TX"): 1.05, ("SAN ANTONIO", "TX"): 0.95,
    ("PHOENIX", "AZ"): 1.05, ("SCOTTSDALE", "AZ"): 1.6, ("TUCSON", "AZ"): 0.9, ("DENVER", "CO"): 1.3,
    ("MIAMI", "FL"): 1.6, ("ORLANDO", "FL"): 1.05, ("TAMPA", "FL"): 1.1, ("JACKSONVILLE", "FL"): 0.9,
    ("ATLANTA", "GA"): 1.25, ("LAS VEGAS", "NV"): 1.0, ("LOS ANGELES", "CA"): 1.6, ("SAN DIEGO", "CA"): 1.55,
    ("SACRAMENTO", "CA"): 0.85, ("CHICAGO", "IL"): 1.25, ("DETROIT", "MI"): 0.55, ("CLEVELAND", "OH"): 0.65,
    ("COLUMBUS", "OH"): 1.1, ("PHILADELPHIA", "PA"): 1.15, ("PITTSBURGH", "PA"): 0.85, ("CHARLOTTE", "NC"): 1.15,
    ("NASHVILLE", "TN"): 1.35, ("MEMPHIS", "TN"): 0.6, ("SEATTLE", "WA"): 1.55, ("PORTLAND", "OR"): 1.15,
    ("BOSTON", "MA"): 1.6, ("BALTIMORE", "MD"): 0.8, ("KANSAS CITY", "MO"): 1.05, ("INDIANAPOLIS", "IN"): 1.05,
    ("MILWAUKEE", "WI"): 0.9, ("BIRMINGHAM", "AL"): 0.85, ("OKLAHOMA CITY", "OK"): 1.05, ("BOISE", "ID"): 1.2,
}
STREETS = [
    "Oak", "Maple", "Cedar", "Pine", "Elm", "Willow", "Birch", "Walnut", "Hickory", "Magnolia", "Sycamore",
    "Chestnut", "Laurel", "Aspen", "Juniper", "Cypress", "Poplar", "Spruce", "Dogwood", "Mesquite",
    "Washington", "Lincoln", "Jefferson", "Madison", "Franklin", "Jackson", "Monroe", "Adams", "Hamilton",
    "Park", "Lake", "Hill", "River", "Meadow", "Ridge", "Valley", "Spring", "Forest", "Highland", "Sunset",
    "Sunrise", "Prairie", "Canyon", "Summit", "Harbor", "Orchard", "Church", "Mill", "Main", "Market",
    "College", "Railroad", "Center", "Broad", "Union", "Bluebonnet", "Live Oak", "Pecan", "Cottonwood",
    "Redbud", "Shady Grove", "Brookside", "Fox Run", "Quail Hollow", "Deer Creek", "Stonegate",
]
SUFFIXES = ["St", "Ave", "Dr", "Ln", "Rd", "Ct", "Blvd", "Way", "Pl", "Cir", "Trl", "Ter"]
OWNER_FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Linda", "Michael", "Barbara", "William",
               "Elizabeth", "David", "Susan", "Richard", "Jessica", "Joseph", "Sarah", "Thomas", "Karen"]
OWNER_LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
              "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Martin"]
MAX_ATTEMPTS_PER_LEAD = 400


def _markets(criteria: SearchCriteria) -> list[tuple[str, str]]:
    by_city, cities_by_state = geo_index()
    states = tuple(s.upper() for s in criteria.states)
    if criteria.cities:
        markets: list[tuple[str, str]] = []
        for city in criteria.cities:
            markets.extend(parse_city(city, states))
        return sorted(set(markets))
    if states:
        markets = [(c.upper(), s) for c, s in DEFAULT_MARKETS if s in states]
        for state in states:
            if not any(m[1] == state for m in markets):
                # States without a listed metro: their largest towns by ZIP count.
                towns = sorted(cities_by_state.get(state, []),
                               key=lambda c: -len(by_city.get((c.upper(), state), [])))[:6]
                markets.extend((t.upper(), state) for t in towns)
        return markets
    return [(c.upper(), s) for c, s in DEFAULT_MARKETS]


def _lead_types(criteria: SearchCriteria) -> list[str]:
    types = list(criteria.lead_types or LEAD_TYPES)
    if criteria.sources:
        allowed = {t for t, src in SOURCE_FOR_TYPE.items() if src in criteria.sources or t in criteria.sources}
        types = [t for t in types if t in allowed]
    types = [t for t in types if t in TYPE_PROFILE]
    if not types:
        raise CriteriaError("The built-in source has no leads of the requested lead types and sources.")
    return types


class BuiltinSource:
    """Deterministic for a given ``seed``; see the module docstring for the model."""

    name = "builtin"

    def __init__(self, seed: int | None = None, now: datetime | None = None):
        self.rng = random.Random(seed)
        self.now = now

    # ------------------------------------------------------------------ public

    def search(self, criteria: SearchCriteria) -> list[LeadRecord]:
        return self._search(criteria, partial=False)

    def search_partial(self, criteria: SearchCriteria) -> list[LeadRecord]:
        """Like ``search``, but a search that cannot be filled returns the leads it
        found instead of failing (the bulk scraper charges for what it delivers)."""
        return self._search(criteria, partial=True)

    def _search(self, criteria: SearchCriteria, partial: bool) -> list[LeadRecord]:
        criteria.validate(max_count=1_000_000)
        self._check_reachable(criteria)
        markets = _markets(criteria)
        types = _lead_types(criteria)
        leads: list[LeadRecord] = []
        attempts = 0
        budget = criteria.count * MAX_ATTEMPTS_PER_LEAD
        while len(leads) < criteria.count:
            attempts += 1
            if attempts > budget:
                if partial:
                    return leads
                raise CriteriaError(
                    f"Only {len(leads)} of {criteria.count} leads match these criteria; widen the price, size, "
                    "ROI or confidence ranges."
                )
            lead = self._candidate(self.rng.choice(markets), self.rng.choice(types), criteria)
            if lead is not None and matches(lead, criteria):
                leads.append(lead)
        return leads

    # ------------------------------------------------------------------ internals

    def _check_reachable(self, criteria: SearchCriteria) -> None:
        spreads = [TYPE_PROFILE[t][1] for t in _lead_types(criteria)]
        lo, hi = min(s[0] for s in spreads), max(s[1] for s in spreads)
        if criteria.roi.max is not None and criteria.roi.max < lo:
            raise CriteriaError(f"No leads have an ROI below {lo}% for these lead types.")
        if criteria.roi.min is not None and criteria.roi.min > hi:
            raise CriteriaError(f"No leads have an ROI above {hi}% for these lead types.")
        if criteria.confidence.max is not None and criteria.confidence.max < 0:
            raise CriteriaError("Confidence cannot be below 0.")
        if criteria.price.max is not None and criteria.price.max < 10_000:
            raise CriteriaError("No leads are priced below $10,000.")
        if criteria.sqft.max is not None and criteria.sqft.max < 500:
            raise CriteriaError("No leads are smaller than 500 sqft.")
        if criteria.beds.max is not None and criteria.beds.max < 1:
            raise CriteriaError("Every lead has at least 1 bedroom.")

    def _uniform_in(self, low: float, high: float, rng_filter) -> float | None:
        lo = max(low, rng_filter.min) if rng_filter.min is not None else low
        hi = min(high, rng_filter.max) if rng_filter.max is not None else high
        if lo > hi:
            return None
        return self.rng.uniform(lo, hi)

    def _candidate(self, market: tuple[str, str], lead_type: str, criteria: SearchCriteria) -> LeadRecord | None:
        rng = self.rng
        by_city, _ = geo_index()
        city_key, state = market
        zrow = rng.choice(by_city[(city_key, state)])
        discount_range, roi_spread, reliability = TYPE_PROFILE[lead_type]

        beds = self._pick_beds(criteria)
        if beds is None:
            return None
        sqft = int(round(rng.gauss(550 + 420 * beds, 180) / 10) * 10)
        sqft = max(500, min(sqft, 9_500))
        if criteria.sqft.min is not None or criteria.sqft.max is not None:
            target = self._uniform_in(500, 9_500, criteria.sqft)
            if target is None:
                return None
            sqft = int(target)
            beds = max(1, min(8, round((sqft - 550) / 420))) if criteria.beds.min is None and criteria.beds.max is None else beds
        baths = max(1.0, min(beds + 1.0, round((beds * 0.75 + rng.choice((0, 0.5, 0.5, 1))) * 2) / 2))
        ppsf = STATE_PRICE_PER_SQFT[state] * METRO_FACTOR.get((city_key, state), 1.0) * rng.uniform(0.78, 1.22)
        zestimate = int(round(sqft * ppsf, -3))
        condition = rng.betavariate(2.2, 2.0)
        arv = pricing.estimate_arv(zestimate, condition)
        rehab = pricing.estimate_rehab(sqft, condition)

        roi_target = self._uniform_in(*roi_spread, criteria.roi)
        if roi_target is None:
            return None
        asking = pricing.asking_price_for_roi(arv, rehab, roi_target)
        asking = int(round(asking, -2))
        if asking <= 0:
            return None
        discount = 1 - asking / zestimate
        if not discount_range[0] - 0.06 <= discount <= discount_range[1] + 0.06:
            return None

        known = {
            "beds": rng.random() > 0.04,
            "baths": rng.random() > 0.07,
            "sqft": rng.random() > 0.05,
            "year_built": rng.random() > 0.15,
            "listing": rng.random() > 0.45,
            "owner": rng.random() > 0.2,
        }
        confidence = int(max(0, min(100, reliability + 4 * sum(known.values()) + rng.randint(-9, 9))))
        number = rng.randint(100, 9899)
        street = f"{rng.choice(STREETS)} {rng.choice(SUFFIXES)}"
        address = f"{number} {street}"
        city = zrow["city"]
        raw: dict = {
            "parcel_id": f"{rng.randint(100, 999)}-{rng.randint(10, 99)}-{rng.randint(1000, 9999)}",
            "county": zrow.get("county", ""),
            "filing_date": (self._now() - timedelta(days=rng.randint(3, 120))).date().isoformat(),
            "condition_score": round(condition, 2),
        }
        if known["year_built"]:
            raw["year_built"] = rng.randint(1925, 2018)
        if known["owner"]:
            raw["owner_name"] = f"{rng.choice(OWNER_FIRST)} {rng.choice(OWNER_LAST)}"
        if known["listing"]:
            slug = f"{number}-{street}-{city}-{state}-{zrow['zip_code']}".replace(" ", "-")
            key = rng.choice(LISTING_URL_KEYS)
            raw[key] = (
                f"https://www.zillow.com/homedetails/{slug}/{rng.randint(10_000_000, 99_999_999)}_zpid/"
                if key != "redfin_url"
                else f"https://www.redfin.com/{state}/{city.replace(' ', '-')}/{slug}/home/{rng.randint(1_000_000, 9_999_999)}"
            )
        lead_id = uuid.UUID(int=rng.getrandbits(128), version=4)
        image_urls, image_status = self._images(str(lead_id))
        return lead_record(
            id=lead_id,
            external_id=f"builtin:{lead_id}",
            address=address,
            city=city,
            state=state,
            zip_code=zrow["zip_code"],
            lead_type=lead_type,
            asking_price=asking,
            zestimate=zestimate,
            arv=arv,
            rehab_estimate=rehab,
            beds=beds if known["beds"] or criteria.beds.min is not None or criteria.beds.max is not None else None,
            baths=baths if known["baths"] else None,
            square_footage=sqft if known["sqft"] or criteria.sqft.min is not None or criteria.sqft.max is not None else None,
            confidence_score=confidence,
            created_at=self._now(),
            image_urls=image_urls,
            images_fetch_status=image_status,
            raw_data=raw,
            latitude=round(float(zrow["lat"]) + rng.uniform(-0.03, 0.03), 6),
            longitude=round(float(zrow["long"]) + rng.uniform(-0.03, 0.03), 6),
        )

    def _images(self, key: str) -> tuple[list[str], str]:
        """0-8 renderings; about 1 lead in 12 still waits for its pictures ("pending")."""
        roll = self.rng.random()
        if roll < 0.08:
            return [], "pending"
        if roll < 0.14:
            return [], "no_images"
        return house_image_urls(key, self.rng.choice((1, 2, 3, 4, 4, 5, 6, 7, 8))), "success"

    def images_for(self, lead: LeadRecord) -> list[str]:
        """Pictures for an existing lead (``fetch-property-images``); none for foreign leads."""
        external = str(lead.get("external_id") or "")
        if not external.startswith("builtin:"):
            return []
        key = external.split(":", 1)[1]
        count = _rng_for(key).choice((0, 1, 2, 3, 4, 5, 6, 7, 8))
        return house_image_urls(key, count)

    def _pick_beds(self, criteria: SearchCriteria) -> int | None:
        weights = {1: 6, 2: 20, 3: 40, 4: 24, 5: 8, 6: 2}
        allowed = [b for b in weights if criteria.beds.contains(b)] if (
            criteria.beds.min is not None or criteria.beds.max is not None) else list(weights)
        if not allowed:
            return None
        return self.rng.choices(allowed, weights=[weights[b] for b in allowed])[0]

    def _now(self) -> datetime:
        return self.now or datetime.now(timezone.utc)


def _rng_for(key: str) -> random.Random:
    return random.Random(key)


__all__ = ["BuiltinSource", "matches", "US_STATES"]
