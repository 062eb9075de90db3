"""Where leads are: US geography (city, state, ZIP rows from ``zipcodes``), the
default investor markets, each lead type's profile, and the one criteria
check every source applies (``matches``). Shared by the built-in and the
HTTP source."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

import math

import zipcodes

from marketplace.features.marketplace import CriteriaError, SearchCriteria
from marketplace.platform.leads import US_STATES, LeadRecord

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
# Each default market's central business district ZIP: ZIPs whose centre lies within
# DOWNTOWN_KM of its centre are downtown (offices, condos, campuses), not houses.
DOWNTOWN_ZIP = {
    ("AUSTIN", "TX"): "78701", ("DALLAS", "TX"): "75201", ("HOUSTON", "TX"): "77002",
    ("SAN ANTONIO", "TX"): "78205", ("PHOENIX", "AZ"): "85004", ("TUCSON", "AZ"): "85701",
    ("DENVER", "CO"): "80202", ("MIAMI", "FL"): "33131", ("ORLANDO", "FL"): "32801", ("TAMPA", "FL"): "33602",
    ("JACKSONVILLE", "FL"): "32202", ("ATLANTA", "GA"): "30303", ("LAS VEGAS", "NV"): "89101",
    ("SACRAMENTO", "CA"): "95814", ("CHICAGO", "IL"): "60602", ("DETROIT", "MI"): "48226",
    ("CLEVELAND", "OH"): "44114", ("COLUMBUS", "OH"): "43215", ("PHILADELPHIA", "PA"): "19107",
    ("PITTSBURGH", "PA"): "15222", ("CHARLOTTE", "NC"): "28202", ("NASHVILLE", "TN"): "37219",
    ("MEMPHIS", "TN"): "38103", ("INDIANAPOLIS", "IN"): "46204", ("KANSAS CITY", "MO"): "64105",
    ("BIRMINGHAM", "AL"): "35203", ("OKLAHOMA CITY", "OK"): "73102", ("BALTIMORE", "MD"): "21202",
    ("MILWAUKEE", "WI"): "53202", ("BOISE", "ID"): "83702",
}
DOWNTOWN_KM = 2.0
# "Standard" ZIPs of the default markets that hold no houses: post offices, federal
# buildings, universities, airports, single large mailers.
NON_RESIDENTIAL_ZIPS = frozenset({
    "78710", "78712", "78799", "75242", "75260", "75270", "75398", "77201", "78284", "78285", "85026", "85039",
    "85065", "85073", "80264", "80265", "80266", "80290", "80293", "80294", "80299", "33195", "33198", "32099",
    "30334", "30369", "89158", "89199", "60699", "60701", "48242", "48243", "19109", "19110", "15260", "15272",
    "15275", "15276", "15290", "15295", "28244", "28246", "28280", "28281", "28282", "28284", "28285", "37238",
    "46282", "46290", "73195", "21233", "21240", "21287",
})
# Town size from its number of residential ZIPs (the package has no population):
# the largest house a town of that size plausibly holds, (beds, sqft).
SIZE_CAP_BY_ZIPS = ((1, (4, 3_200)), (3, (5, 4_200)), (10, (6, 5_500)))
LARGEST_HOUSE = (6, 6_500)
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


def _km(a: dict, b: dict) -> float:
    lat1, lon1, lat2, lon2 = map(math.radians, (float(a["lat"]), float(a["long"]), float(b["lat"]), float(b["long"])))
    cos = math.sin(lat1) * math.sin(lat2) + math.cos(lat1) * math.cos(lat2) * math.cos(lon1 - lon2)
    return 6371.0 * math.acos(max(-1.0, min(1.0, cos)))


@lru_cache(maxsize=None)
def residential_zips(city_key: str, state: str) -> tuple[dict, ...]:
    """The city's ZIP rows where houses are: standard ZIPs (``geo_index``) less the
    known non-residential ones and, in a default market, the downtown ones. A city
    whose every ZIP is excluded keeps its standard ZIPs."""
    by_city, _ = geo_index()
    rows = by_city.get((city_key, state), [])
    centre = next((r for r in rows if r["zip_code"] == DOWNTOWN_ZIP.get((city_key, state))), None)
    kept = [r for r in rows if r["zip_code"] not in NON_RESIDENTIAL_ZIPS
            and (centre is None or _km(centre, r) >= DOWNTOWN_KM)]
    return tuple(kept or rows)


def largest_house(city_key: str, state: str) -> tuple[int, int]:
    """(beds, sqft) of the largest house the town plausibly holds, by its size."""
    zips = len(residential_zips(city_key, state))
    for most, cap in SIZE_CAP_BY_ZIPS:
        if zips <= most:
            return cap
    return LARGEST_HOUSE


# Where several states have a city of one name and the number of its STANDARD ZIP codes (the
# proxy for size below) picks the wrong one, the state of the most populous, from the U.S. Census
# Bureau's 2020 Census (total population of incorporated places; the figures are in the comments).
LARGEST_BY_POPULATION = {
    "SPRINGFIELD": "MO",   # MO 169,176; MA 155,929; IL 114,394
    "CHARLESTON": "SC",    # SC 150,227; WV 48,864
    "PASADENA": "TX",      # TX 151,950; CA 138,699
    "GLENDALE": "AZ",      # AZ 248,325; CA 196,543
    "PEORIA": "AZ",        # AZ 190,985; IL 113,150
    "WILMINGTON": "NC",    # NC 115,451; DE 70,898
    "GREENVILLE": "NC",    # NC 87,521; SC 70,720
    "BURLINGTON": "NC",    # NC 57,303; VT 44,743
}


@dataclass(frozen=True)
class CityMatch:
    """What one typed city means: the (City, ST) places a scrape searches.

    ``namesakes`` is how many states have a city of that name; ``picked`` is
    True when the name came without a state and none was selected, so the
    largest was taken (``note`` says which)."""

    typed: str
    places: tuple[tuple[str, str], ...]
    namesakes: int = 0
    picked: bool = False

    @property
    def pinned(self) -> tuple[str, ...]:
        return tuple(f"{city}, {state}" for city, state in self.places)

    @property
    def note(self) -> str:
        """'Austin → Austin, TX (largest of 8 cities named Austin)'; '' when nothing was picked."""
        if not self.picked:
            return ""
        name, (city, state) = self.typed, self.places[0]
        return f"{name} → {city}, {state} (largest of {self.namesakes:,} cities named {city})"


@lru_cache(maxsize=1)
def keys_by_name() -> dict[str, tuple[tuple[str, str], ...]]:
    """CITY NAME -> its (CITY, ST) index keys: one look-up per typed city, never a scan."""
    by_name: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for key in geo_index()[0]:
        by_name[key[0]].append(key)
    return {name: tuple(keys) for name, keys in by_name.items()}


def _size(key: tuple[str, str]) -> tuple[int, int, str]:
    """Sort key, largest first: the Census override, then the number of STANDARD ZIP codes
    (a documented proxy for population: the ``zipcodes`` package has none), then the state code."""
    by_city, _ = geo_index()
    override = LARGEST_BY_POPULATION.get(key[0]) == key[1]
    return (-int(override), -len(by_city[key]), key[1])


def resolve_city(text: str, states: tuple[str, ...] = ()) -> CityMatch:
    """'Austin, TX' pins; 'Austin' with states selected matches only within them; 'Austin' with
    none is the largest city of that name. ``CriteriaError`` for a city that does not exist."""
    by_city, _ = geo_index()
    text = " ".join(str(text).split())
    wanted = {s.upper() for s in states}
    if "," in text:
        name, state = (part.strip() for part in text.rsplit(",", 1))
        keys = [(name.upper(), state.upper())] if (name.upper(), state.upper()) in by_city else []
        picked, namesakes = False, 0
    else:
        name = text
        everywhere = list(keys_by_name().get(name.upper(), ()))
        namesakes = len(everywhere)
        keys = [k for k in everywhere if k[1] in wanted] if wanted else sorted(everywhere, key=_size)[:1]
        picked = not wanted and bool(keys)
    if not keys:
        where = f" in {', '.join(sorted(wanted))}" if wanted and "," not in text else ""
        raise CriteriaError(f"No such city{where}: {text}.")
    places = tuple((by_city[k][0]["city"], k[1]) for k in sorted(keys, key=lambda k: k[1]))
    return CityMatch(typed=name, places=places, namesakes=namesakes, picked=picked)


def resolve_cities(cities: tuple[str, ...], states: tuple[str, ...] = ()) -> list[CityMatch]:
    """``resolve_city`` for each typed city (the scrape form, the webhook API and the sources)."""
    return [resolve_city(text, states) for text in cities]


def pin_cities(cities: tuple[str, ...], states: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Every typed city as the 'City, ST' places it means, once each. Raises ``CriteriaError``."""
    return tuple(dict.fromkeys(p for match in resolve_cities(cities, states) for p in match.pinned))


def parse_city(text: str, states: tuple[str, ...]) -> list[tuple[str, str]]:
    """The (CITY, ST) index keys ``text`` means (``resolve_city``'s rule)."""
    return [(city.upper(), state) for city, state in resolve_city(text, states).places]


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
    bank_owned = getattr(criteria, "bank_owned", False) and lead.get("bank_owned") is True
    if criteria.lead_types and lead["lead_type"] not in criteria.lead_types and not bank_owned:
        return False
    if getattr(criteria, "bank_owned", False) and not criteria.lead_types and not bank_owned:
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
