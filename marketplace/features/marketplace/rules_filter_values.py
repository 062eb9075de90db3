"""Location and asking-price filter values: pure parsing and validation.

A value from the URL or from an input is cleaned here once; ``None`` means "not a valid
value" (the URL drops it silently, an input says why with the texts in ``messages``).
"""

from __future__ import annotations

import re

from marketplace.platform.leads import US_STATES
from marketplace.platform.limits import CITY_MAX_LENGTH, MAX_PRICE

STATE_NAMES = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California", "CO": "Colorado",
    "CT": "Connecticut", "DE": "Delaware", "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho",
    "IL": "Illinois", "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
    "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota",
    "MS": "Mississippi", "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
    "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York", "NC": "North Carolina",
    "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania",
    "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas",
    "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington", "WV": "West Virginia",
    "WI": "Wisconsin", "WY": "Wyoming",
}
assert tuple(STATE_NAMES) == US_STATES
# (code, 'TX - Texas') for the State select, in the order of US_STATES.
STATE_OPTIONS = tuple((code, f"{code} - {name}") for code, name in STATE_NAMES.items())

CITY_SUGGESTIONS = 50  # cities offered for the chosen states, the most leads first

_ZIP = re.compile(r"^[0-9]{5}$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_PRICE = re.compile(r"^\$?\s*([0-9][0-9,]*)$")


def clean_state(value: object) -> str | None:
    """'tx ' -> 'TX'; None unless one of the 50 state codes."""
    if not isinstance(value, str):
        return None
    code = value.strip().upper()
    return code if code in STATE_NAMES else None


def clean_city(value: object) -> str | None:
    """Trimmed, inner whitespace runs made one space, at most 100 characters, no control characters."""
    if not isinstance(value, str):
        return None
    city = " ".join(value.split())
    return city if 0 < len(city) <= CITY_MAX_LENGTH and not _CONTROL.search(city) else None



def clean_zip(value: object) -> str | None:
    """Five digits, else None (ZIP+4 is not a filter value: leads keep five digits)."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    return text if _ZIP.match(text) else None


def parse_price(value: object) -> int | None:
    """Whole dollars, 0 to MAX_PRICE: '250000', '$250,000', 250000; None for anything else
    (negative, cents, words, a bool, a float that is not whole)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, float):
        if value != value or not value.is_integer() or abs(value) > MAX_PRICE:
            return None
        number = int(value)
    elif isinstance(value, str):
        match = _PRICE.match(value.strip())
        digits = match.group(1).replace(",", "") if match else ""
        if not digits or len(digits) > 10:
            return None
        number = int(digits)
    else:
        return None
    return number if 0 <= number <= MAX_PRICE else None


def price_text(value: int | None) -> str:
    """The input's text for a price: '$250,000'; '' for none."""
    return "" if value is None else f"${value:,}"


def price_range_label(min_price: int | None, max_price: int | None) -> str:
    """'$100,000 - $250,000', 'From $100,000', 'Up to $250,000'; '' for no range."""
    if min_price is not None and max_price is not None:
        return f"{price_text(min_price)} - {price_text(max_price)}"
    if min_price is not None:
        return f"From {price_text(min_price)}"
    if max_price is not None:
        return f"Up to {price_text(max_price)}"
    return ""
