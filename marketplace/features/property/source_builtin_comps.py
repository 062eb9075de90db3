"""The built-in source's comparable sales: DEMO DATA, a synthetic sales history around a generated lead,
drawn from the same price model as the lead itself (``builtin``: state $/sqft x metro factor x ZIP level x
(1,700 / sqft)^0.12 x noise).

Deterministic: the history is seeded by the lead's id and ends on the day the lead was made, so the same
lead always shows the same sales (and they age like real ones). For each of 10 to 36 sales:

- distance from the lead: 35 % within 0.5 mile, 25 % 0.5-1 mile, 30 % 1-2 miles, 10 % 2-3 miles (outside
  every search step); a uniform bearing;
- sale date 3 to 450 days before the lead was made;
- living area around the lead's (sd 18 %, at least 500 sqft), beds and baths that belong to it;
- price = sqft x the local $/sqft x a renovated-sale premium of 0-20 % x the market's drift (prices about
  5 % a year lower per year back); 6 % of sales are off-market deals at 0.55x or luxury flips at 1.7x,
  so outliers occur as they do in real sales;
- an address made of the generator's street names, marked "(demo)"; the service drops any that equals
  a stored lead's address.
"""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from marketplace.features.marketplace import rules_headline as headline
from marketplace.features.property.rules_comps import Comp, Subject, property_type
from marketplace.platform.leads import is_generated
from marketplace.features.scrape import METRO_FACTOR, STATE_PRICE_PER_SQFT, STREET_NAMES, SUFFIXES, zip_price_level
from marketplace.features.property.source_comps import LeadFacts

MILES_PER_DEGREE = 69.0941  # one degree of latitude (property.rules_comps.EARTH_RADIUS_MILES)
DISTANCE_BANDS = ((0.35, 0.05, 0.5), (0.60, 0.5, 1.0), (0.90, 1.0, 2.0), (1.0, 2.0, 3.0))
OUTLIER_SHARE = 0.06
OUTLIER_FACTORS = (0.55, 1.7)
ANNUAL_DRIFT = 0.05
DEMO_SUFFIX = " (demo)"
SINGLE_FAMILY = "Single Family"


def _distance(rng: random.Random) -> float:
    roll = rng.random()
    for share, low, high in DISTANCE_BANDS:
        if roll < share:
            return rng.uniform(low, high)
    return rng.uniform(2.0, 3.0)


def _beds_for(sqft: int, rng: random.Random) -> int:
    return max(1, min(6, round((sqft - 450) / 430) + rng.choice((-1, 0, 0, 0, 1))))


def _baths_for(beds: int, sqft: int, rng: random.Random) -> float:
    baths = round((beds * 0.5 + rng.choice((0.5, 1.0, 1.0, 1.5))) * 2) / 2
    return max(1.0, min(baths, float(beds), 1.5 if sqft < 1_000 else 99.0))


def local_per_sqft(state: str, city: str, zip_code: str) -> float:
    """The generator's local $/sqft level for a 1,700 sqft house (before noise)."""
    base = STATE_PRICE_PER_SQFT.get(state.upper(), 180)
    return base * METRO_FACTOR.get((city.upper(), state.upper()), 1.0) * zip_price_level(zip_code)


class BuiltinComps:
    """Synthetic demo sales around a generated lead (module docstring)."""

    name = "builtin"

    def sales_near(self, lead: LeadFacts, today: date) -> list[Comp]:
        if lead.latitude is None or lead.longitude is None:
            return []
        rng = random.Random(f"demo-sales:{lead.id}")
        level = local_per_sqft(lead.state, lead.city, lead.zip_code)
        centre_sqft = lead.square_footage or (450 + 430 * (lead.beds or 3))
        sales = []
        for number in range(rng.randint(10, 36)):
            miles, bearing = _distance(rng), rng.uniform(0, 2 * math.pi)
            latitude = lead.latitude + miles / MILES_PER_DEGREE * math.cos(bearing)
            longitude = lead.longitude + miles / (MILES_PER_DEGREE * math.cos(math.radians(lead.latitude))) \
                * math.sin(bearing)
            sold = lead.created - timedelta(days=rng.randint(3, 450))
            sqft = max(500, int(round(rng.gauss(centre_sqft, 0.18 * centre_sqft) / 10) * 10))
            beds = _beds_for(sqft, rng)
            per_sqft = level * (1_700 / sqft) ** 0.12 * rng.uniform(0.9, 1.1) * rng.uniform(1.0, 1.2)
            per_sqft *= (1 - ANNUAL_DRIFT) ** ((lead.created - sold).days / 365)
            if rng.random() < OUTLIER_SHARE:
                per_sqft *= rng.choice(OUTLIER_FACTORS)
            street = f"{rng.randint(100, 9899)} {rng.choice(STREET_NAMES)} {rng.choice(SUFFIXES)}"
            if street == lead.address:
                continue
            sales.append(Comp(
                comp_id=f"demo-{number}", address=street + DEMO_SUFFIX, city=lead.city, state=lead.state,
                zip_code=lead.zip_code, sale_date=sold, price=int(round(sqft * per_sqft, -3)),
                square_footage=sqft, beds=beds, baths=_baths_for(beds, sqft, rng), property_type=SINGLE_FAMILY,
                latitude=round(latitude, 6), longitude=round(longitude, 6)))
        return sales


def generated_headline(record: dict) -> dict:
    """The headline columns (``marketplace.rules_headline.columns``) of a generated lead record: the comps ARV of the
    default selection of its synthetic sales history on the day it was made. Pure computation, no I/O: the
    seeding and the daily refresh call it for every record they store (in bulk, never per page view)."""
    created = record.get("created_at")
    day = created.date() if isinstance(created, datetime) else date.today()
    sqft, beds = record.get("square_footage"), record.get("beds")
    facts = LeadFacts(record["id"], record["address"], record["city"], record["state"],
                      (record.get("zip_code") or "")[:5], record.get("latitude"), record.get("longitude"), sqft, beds,
                      record.get("baths"), SINGLE_FAMILY, day)
    subject = Subject(facts.latitude, facts.longitude, sqft, beds, property_type(SINGLE_FAMILY))
    sales = BuiltinComps().sales_near(facts, day)
    return headline.columns(asking_price=record.get("asking_price"), market_value=record.get("zestimate"),
                            estimate_arv=record.get("arv"), rehab=record.get("rehab_estimate"),
                            comps=headline.default_comps_arv(subject, sales, day))


def with_headlines(records: list[dict]) -> list[dict]:
    """``records`` with their headline columns set: generated ones from their synthetic comps, others
    (a listing source's, whose comps are fetched on demand) on their estimated ARV."""
    for record in records:
        if is_generated(record.get("raw_data")):
            record.update(generated_headline(record))
        else:
            record.update(headline.columns(
                asking_price=record.get("asking_price"), market_value=record.get("zestimate"),
                estimate_arv=record.get("arv"), rehab=record.get("rehab_estimate"), comps=None))
    return records
