"""The built-in lead source: DEMO DATA, public-record style leads generated
offline. Every lead it makes says so (``raw_data["generated"]``, shown as
"Demo data (generated)"), links to no listing (it has none: the property page
offers a listing-site search) and has no photos (one illustration drawn from its
own facts, labelled as such).

Real US geography comes from the ``zipcodes`` package (city, state, ZIP and
coordinates): only residential ZIPs (``markets.residential_zips``: standard
ZIPs, not post-office, downtown or institutional ones). Price levels come from
a per-state table of typical price per square foot, nudged for large metros and
per ZIP (``zip_price_level``). A lead is built like this:

1. pick a market (city + residential ZIP) allowed by the criteria, a lead type
   (and its source) and a property condition ``c`` in [0, 1] (0 = gut rehab);
2. beds, baths and square footage that belong together (baths never above
   beds), no larger than the town's size allows (``markets.largest_house``);
3. market value (``zestimate``) = sqft x local $/sqft (state, metro, ZIP,
   smaller per sqft for larger houses) x noise;
4. ``arv`` = market value x (1.04 + 0.22 x (1 - c)): a renovated house is
   worth more than this one as it stands;
5. ``rehab_estimate`` = sqft x (8 + 47 x (1 - c)) $/sqft;
6. a target ROI fixes the asking price through the inverse of
   ``platform.pricing.compute_roi``: for a share of each lead type (``LOSS_SHARE``)
   a loss (the seller asks market price or more), otherwise a value from the
   type's typical spread; both intersected with the requested ROI range. The
   asking price must then sit where such sales do against market value;
7. confidence = source reliability + 4 per known field (beds, baths, sqft,
   year built, lot size, owner name) + noise, clamped to 0-100; the unlock
   cost follows from it.

Every criterion is honoured exactly: candidates that miss any criterion are
discarded, and a search that cannot be filled says so with ``CriteriaError``.
"""

from __future__ import annotations

import random
import uuid
from datetime import datetime, timedelta, timezone

from marketplace.platform import pricing
from marketplace.features.marketplace import CriteriaError, SearchCriteria
from marketplace.platform.web.image_hosts import illustration_url
from marketplace.features.marketplace import rules_sale_dates as sale_dates
from marketplace.platform.leads import GENERATED_KEY, LEAD_TYPES, SOURCE_FOR_TYPE, US_STATES, LeadRecord, lead_record
from marketplace.features.scrape.source_markets import (
    DEFAULT_MARKETS,
    TYPE_PROFILE,
    geo_index,
    LARGEST_HOUSE,
    largest_house,
    matches,
    parse_city,
    residential_zips,
)

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
# Street names: a name and a suffix (about 200 x 14 streets); an address is never
# repeated within one search.
STREET_NAMES = [
    "Oak", "Maple", "Cedar", "Pine", "Elm", "Willow", "Birch", "Walnut", "Hickory", "Magnolia", "Sycamore",
    "Chestnut", "Laurel", "Aspen", "Juniper", "Cypress", "Poplar", "Spruce", "Dogwood", "Mesquite", "Alder",
    "Hawthorn", "Linden", "Mulberry", "Buckeye", "Catalpa", "Hemlock", "Locust", "Sassafras", "Tamarack",
    "Washington", "Lincoln", "Jefferson", "Madison", "Franklin", "Jackson", "Monroe", "Adams", "Hamilton",
    "Grant", "Garfield", "Harrison", "Cleveland", "Tyler", "Polk", "Taylor", "Fillmore", "Pierce", "Hayes",
    "Park", "Lake", "Hill", "River", "Meadow", "Ridge", "Valley", "Spring", "Forest", "Highland", "Sunset",
    "Sunrise", "Prairie", "Canyon", "Summit", "Harbor", "Orchard", "Church", "Mill", "Main", "Market",
    "College", "Railroad", "Center", "Broad", "Union", "Bluebonnet", "Live Oak", "Pecan", "Cottonwood",
    "Redbud", "Shady Grove", "Brookside", "Fox Run", "Quail Hollow", "Deer Creek", "Stonegate", "Bent Tree",
    "Windmill", "Timber Ridge", "Rolling Hills", "Creekside", "Old Mill", "Kingsley", "Ashford", "Beacon",
    "Belmont", "Berkshire", "Brighton", "Cambridge", "Carlisle", "Chatham", "Clifton", "Concord", "Dover",
    "Durham", "Fairfax", "Fairview", "Glendale", "Greenwood", "Hampton", "Hartford", "Hollister", "Kensington",
    "Lexington", "Linwood", "Marlowe", "Newport", "Norwood", "Oxford", "Preston", "Princeton", "Richmond",
    "Rockford", "Salem", "Sheffield", "Somerset", "Stratford", "Trenton", "Vernon", "Westfield", "Winchester",
    "Woodland", "Yorktown", "Bayview", "Bridgewater", "Cherry", "Clover", "Crescent", "Driftwood", "Eastwood",
    "Edgewood", "Evergreen", "Foxglove", "Garden", "Golden", "Heather", "Heritage", "Holly", "Honeysuckle",
    "Ivy", "Jasmine", "Lakeview", "Larkspur", "Lilac", "Mockingbird", "Northgate", "Oakmont", "Olive",
    "Peach", "Primrose", "Raven", "Robin", "Rosewood", "Sage", "Sandpiper", "Silver", "Sparrow", "Sterling",
    "Sunflower", "Tanglewood", "Thistle", "Trinity", "Tulip", "Vista", "Wren", "Aurora", "Bishop", "Carver",
    "Dixon", "Ellis", "Foster", "Gibson", "Hudson", "Irving", "Keller", "Lowell", "Morgan", "Nelson",
    "Palmer", "Quincy", "Randall", "Sherman", "Turner", "Walker", "Webster", "Whitman", "Young",
]
SUFFIXES = ["St", "Ave", "Dr", "Ln", "Rd", "Ct", "Blvd", "Way", "Pl", "Cir", "Trl", "Ter", "Pkwy", "Loop"]
OWNER_FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Linda", "Michael", "Barbara", "William",
               "Elizabeth", "David", "Susan", "Richard", "Jessica", "Joseph", "Sarah", "Thomas", "Karen",
               "Charles", "Nancy", "Daniel", "Lisa", "Matthew", "Betty", "Anthony", "Sandra", "Mark", "Ashley"]
OWNER_LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
              "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Martin",
              "Lee", "Thompson", "White", "Harris", "Clark", "Lewis", "Robinson", "Walker", "Young", "Allen"]
# Share of each lead type's leads that are not deals (the asking price leaves no
# profit after rehab): sellers who ask market price or more, auctions bid up.
LOSS_SHARE = {"Probate": 0.18, "Pre-Foreclosure": 0.2, "Auction": 0.14, "Tax Delinquent": 0.16,
              "Vacancy": 0.2, "Make Me Move": 0.45}
LOSS_ROI = (-30.0, -0.5)  # their ROI spread, %
LOSS_DISCOUNT = (-0.15, 0.10)  # their asking price: up to 15% above to 10% below market value
# Parcel numbers as county assessors write them (never the 3-2-4 digits of a social security number).
PARCEL_FORMATS = ("###-###-###", "##-##-###-###", "R########", "#############", "####-###-####")
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
    if criteria.bank_owned and not criteria.lead_types:
        # Generated leads have no owner of record, so none is bank-owned (REO).
        raise CriteriaError("The built-in source has no bank-owned (REO) leads: they come from public records "
                            "whose owner of record is a lender or servicer.")
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
        self._addresses: set[tuple[str, str]] = set()  # (address, ZIP) already made

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
        spreads = [TYPE_PROFILE[t][1] for t in _lead_types(criteria)] + [LOSS_ROI]
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
        if criteria.beds.min is not None and criteria.beds.min > LARGEST_HOUSE[0]:
            raise CriteriaError(f"No leads have more than {LARGEST_HOUSE[0]} bedrooms.")

    def _uniform_in(self, low: float, high: float, rng_filter) -> float | None:
        lo = max(low, rng_filter.min) if rng_filter.min is not None else low
        hi = min(high, rng_filter.max) if rng_filter.max is not None else high
        if lo > hi:
            return None
        return self.rng.uniform(lo, hi)

    def _candidate(self, market: tuple[str, str], lead_type: str, criteria: SearchCriteria) -> LeadRecord | None:
        rng = self.rng
        city_key, state = market
        zrow = rng.choice(residential_zips(city_key, state))
        discount_range, roi_spread, reliability = TYPE_PROFILE[lead_type]
        size = self._size(largest_house(city_key, state), criteria)
        if size is None:
            return None
        beds, sqft = size
        baths = _baths(beds, sqft, rng)
        ppsf = (STATE_PRICE_PER_SQFT[state] * METRO_FACTOR.get((city_key, state), 1.0) * zip_price_level(zrow["zip_code"])
                * (1_700 / sqft) ** 0.12 * rng.uniform(0.9, 1.1))
        zestimate = int(round(sqft * ppsf, -3))
        condition = rng.betavariate(2.2, 2.0)
        arv = pricing.estimate_arv(zestimate, condition)
        rehab = pricing.estimate_rehab(sqft, condition)

        roi_target = None
        if rng.random() < LOSS_SHARE[lead_type]:  # not a deal: no profit at this price
            roi_target = self._uniform_in(*LOSS_ROI, criteria.roi)
            discount_range = LOSS_DISCOUNT
        if roi_target is None:
            roi_target = self._uniform_in(*roi_spread, criteria.roi)
            discount_range = (discount_range[0] - 0.06, discount_range[1] + 0.06)
        if roi_target is None:
            return None
        asking = int(round(pricing.asking_price_for_roi(arv, rehab, roi_target), -2))
        if asking <= 0 or not discount_range[0] <= 1 - asking / zestimate <= discount_range[1]:
            return None

        number = rng.randint(100, 9899)
        address = f"{number} {rng.choice(STREET_NAMES)} {rng.choice(SUFFIXES)}"
        if (address, zrow["zip_code"]) in self._addresses:
            return None
        self._addresses.add((address, zrow["zip_code"]))
        known = {
            "beds": rng.random() > 0.04,
            "baths": rng.random() > 0.07,
            "sqft": rng.random() > 0.05,
            "year_built": rng.random() > 0.15,
            "lot": rng.random() > 0.45,
            "owner": rng.random() > 0.2,
        }
        confidence = int(max(0, min(100, reliability + 4 * sum(known.values()) + rng.randint(-9, 9))))
        county = zrow.get("county", "")
        raw: dict = {
            GENERATED_KEY: True,
            "parcel_id": _parcel_id(county, rng),
            "county": county,
            # A lead is new on the day it is made: its filing is days old, not months.
            "filing_date": (self._now() - timedelta(days=rng.randint(0, 6))).date().isoformat(),
            "condition_score": round(condition, 2),
        }
        if known["year_built"]:
            raw["year_built"] = rng.randint(1925, 2018)
        if known["lot"]:
            raw["lot_sqft"] = int(round(sqft * rng.uniform(2.2, 6.0), -2))
        if known["owner"]:
            raw["owner_name"] = f"{rng.choice(OWNER_FIRST)} {rng.choice(OWNER_LAST)}"
        lead_id = uuid.UUID(int=rng.getrandbits(128), version=4)
        shown_beds = beds if known["beds"] or criteria.beds.min is not None or criteria.beds.max is not None else None
        shown_sqft = sqft if known["sqft"] or criteria.sqft.min is not None or criteria.sqft.max is not None else None
        return lead_record(
            id=lead_id,
            external_id=f"builtin:{lead_id}",
            address=address,
            city=zrow["city"],
            state=state,
            zip_code=zrow["zip_code"],
            lead_type=lead_type,
            asking_price=asking,
            zestimate=zestimate,
            arv=arv,
            # The rehab estimate is priced per square foot: without a living area on the lead, none (N/A),
            # as a public record without one gets none.
            rehab_estimate=rehab if shown_sqft else None,
            beds=shown_beds,
            baths=baths if known["baths"] else None,
            square_footage=shown_sqft,
            confidence_score=confidence,
            created_at=self._now(),
            # No photographs: one illustration drawn from the lead's own facts.
            image_urls=[illustration_url(str(lead_id), shown_beds, shown_sqft)],
            images_fetch_status="no_images",
            raw_data=raw,
            latitude=round(float(zrow["lat"]) + rng.uniform(-0.03, 0.03), 6),
            longitude=round(float(zrow["long"]) + rng.uniform(-0.03, 0.03), 6),
            # Demo auction and pre-foreclosure leads get a demo sale date (its own random stream).
            sale_date=(sale_dates.demo_sale_date(lead_id, sale_dates.local_today(self._now()))
                       if lead_type in sale_dates.DATED_DEMO_TYPES else None),
        )

    def images_for(self, lead: LeadRecord) -> list[str]:
        """Photos for an existing lead (``fetch-property-images``): the generator has none."""
        return []

    def _size(self, largest: tuple[int, int], criteria: SearchCriteria) -> tuple[int, int] | None:
        """(beds, sqft) that belong together, no larger than the town's ``largest`` house."""
        rng = self.rng
        max_beds, max_sqft = largest
        beds_wanted = criteria.beds.min is not None or criteria.beds.max is not None
        if criteria.sqft.min is not None or criteria.sqft.max is not None:
            target = self._uniform_in(500, max_sqft, criteria.sqft)
            if target is None:
                return None
            sqft = int(target)
            beds = self._pick_beds(criteria, max_beds) if beds_wanted else max(1, min(max_beds, round((sqft - 450) / 430)))
        else:
            beds = self._pick_beds(criteria, max_beds)
            if beds is None:
                return None
            sqft = int(round(rng.gauss(450 + 430 * beds, 110 + 40 * beds) / 10) * 10)
            sqft = max(_sqft_bounds(beds)[0], min(sqft, _sqft_bounds(beds)[1], max_sqft))
        if beds is None:
            return None
        low, high = _sqft_bounds(beds)
        if not low <= sqft <= min(high, max_sqft):
            return None
        return beds, sqft

    def _pick_beds(self, criteria: SearchCriteria, max_beds: int = 6) -> int | None:
        weights = {1: 5, 2: 18, 3: 42, 4: 25, 5: 8, 6: 2}
        allowed = [b for b in weights if b <= max_beds and (
            (criteria.beds.min is None and criteria.beds.max is None) or criteria.beds.contains(b))]
        if not allowed:
            return None
        return self.rng.choices(allowed, weights=[weights[b] for b in allowed])[0]

    def _now(self) -> datetime:
        return self.now or datetime.now(timezone.utc)


def _sqft_bounds(beds: int) -> tuple[int, int]:
    """The square footage a house with ``beds`` bedrooms plausibly has."""
    return max(500, 250 + 300 * beds), 700 + 800 * beds


def _baths(beds: int, sqft: int, rng: random.Random) -> float:
    """Bathrooms in half steps, at least 1, never more than the bedrooms (1.5 at most below 1,000 sqft)."""
    baths = round((beds * 0.5 + rng.choice((0.5, 1.0, 1.0, 1.5))) * 2) / 2
    return max(1.0, min(baths, float(beds), 1.5 if sqft < 1_000 else 99.0))


def zip_price_level(zip_code: str) -> float:
    """The ZIP's price level against its city's (0.65-1.6): the same for every lead
    of the ZIP, so neighbours are priced alike. Synthetic (from the ZIP itself), not
    a market statistic."""
    return max(0.65, min(1.6, random.Random(f"zip-level:{zip_code}").lognormvariate(0, 0.22)))


def _parcel_id(county: str, rng: random.Random) -> str:
    """A parcel number in the county's own format (one format per county)."""
    pattern = PARCEL_FORMATS[random.Random(f"parcel:{county}").randrange(len(PARCEL_FORMATS))]
    return "".join(str(rng.randint(0, 9)) if char == "#" else char for char in pattern)


__all__ = ["BuiltinSource", "matches", "US_STATES"]
