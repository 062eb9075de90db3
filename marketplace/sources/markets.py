"""Where leads are: US geography (city, state, ZIP rows from ``zipcodes``), the
default investor markets, each lead type's profile, and the one criteria
check every source applies (``matches``). Shared by the built-in and the
HTTP source."""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

import zipcodes

from marketplace.sources.base import US_STATES, CriteriaError, LeadRecord, SearchCriteria

# Default markets when the criteria name no city: big, liquid investor markets.
DEFAULT_MARKETS = [
    ("Austin", "TX"), ("Dallas", "TX"), ("Houston", "TX"), ("San Antonio", "TX"), ("Phoenix", "AZ"),
    ("Tucson", "AZ"), ("Denver", "CO"), ("Miami", "FL"), ("Orlando", "FL"), ("Tampa", "FL"),
    ("Jacksonville", "FL"), ("Atlanta", "GA"), ("Las Vegas", "NV"), ("Sacramento", "CA"),
    ("Chicago", "IL"), ("Detroit", "MI"), ("Cleveland", "OH"), ("Columbus", "OH"), ("Philadelphia", "PA"),
    ("Pittsburgh", "PA"), ("Charlotte", "NC"), ("Nashville", "TN"), ("Memphis", "TN"), ("Indianapolis", "IN"),
    ("Kansas City", "MO"), ("Birmingham", "AL"), ("Oklahoma City", "OK"), ("Baltimore", "MD"),
    ("Milwaukee", "WI"), ("Boise", "ID"),
]
# (asking-price discount to market value, ROI spread %, source reliability)
TYPE_PROFILE = {
    "Probate": ((0.10, 0.25), (8, 45), 68),
    "Pre-Foreclosure": ((0.08, 0.20), (6, 38), 70),
    "Auction": ((0.18, 0.35), (12, 60), 62),
    "Tax Delinquent": ((0.12, 0.30), (8, 50), 64),
    "Vacancy": ((0.08, 0.22), (5, 40), 56),
    "Make Me Move": ((0.00, 0.08), (2, 22), 74),
}

@lru_cache(maxsize=1)
def geo_index() -> tuple[dict, dict]:
    """(city, state) -> [zip rows] and state -> [city names], standard active ZIPs only."""
    by_city: dict[tuple[str, str], list[dict]] = defaultdict(list)
    cities_by_state: dict[str, set[str]] = defaultdict(set)
    for row in zipcodes.list_all():
        if row["state"] not in US_STATES or not row.get("active"):
            continue
        if row.get("zip_code_type") != "STANDARD" or not row.get("lat"):
            continue
        key = (row["city"].upper(), row["state"])
        by_city[key].append(row)
        cities_by_state[row["state"]].add(row["city"])
    return dict(by_city), {s: sorted(c) for s, c in cities_by_state.items()}


def parse_city(text: str, states: tuple[str, ...]) -> list[tuple[str, str]]:
    by_city, _ = geo_index()
    text = text.strip()
    if "," in text:
        name, state = (part.strip() for part in text.rsplit(",", 1))
        keys = [(name.upper(), state.upper())]
    else:
        name = text
        keys = [k for k in by_city if k[0] == name.upper()]
        if states:
            keys = [k for k in keys if k[1] in {s.upper() for s in states}]
    found = [k for k in keys if k in by_city]
    if not found:
        where = f" in {', '.join(states)}" if states and "," not in text else ""
        raise CriteriaError(f"No such city{where}: {text}.")
    return found


def matches(lead: LeadRecord, criteria: SearchCriteria) -> bool:
    """True when ``lead`` satisfies every criterion (used by every source)."""
    if criteria.states and lead["state"].upper() not in {s.upper() for s in criteria.states}:
        return False
    if criteria.cities:
        wanted = set()
        for text in criteria.cities:
            if "," in text:
                name, st = (p.strip().upper() for p in text.rsplit(",", 1))
                wanted.add((name, st))
            else:
                wanted.add((text.strip().upper(), None))
        city = lead["city"].upper()
        if (city, lead["state"].upper()) not in wanted and (city, None) not in wanted:
            return False
    if criteria.lead_types and lead["lead_type"] not in criteria.lead_types:
        return False
    if criteria.sources and lead["source"] not in criteria.sources and lead["lead_type"] not in criteria.sources:
        return False
    checks = (
        (criteria.price, lead.get("asking_price")),
        (criteria.sqft, lead.get("square_footage")),
        (criteria.roi, lead.get("roi")),
        (criteria.confidence, lead.get("confidence_score")),
        (criteria.beds, lead.get("beds")),
    )
    for rng, value in checks:
        if (rng.min is not None or rng.max is not None) and not rng.contains(value):
            return False
    return True
