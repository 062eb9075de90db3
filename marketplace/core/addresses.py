"""Street addresses as keys (issue 23): one property however a dataset spells its address.

Public-record datasets write the same house as "5818 Woodcrest Avenue", "5818 WOODCREST AVE." or
"5818 WOODCREST AVE APT 2". ``address_key`` folds those into one key, which with the ZIP code
identifies a property when no parcel id joins two records:

- upper case; periods, commas and quotes dropped; runs of spaces folded;
- a unit ("APT 2", "UNIT 3B", "# 4", "STE 100", "FL 2") is split off the street line and kept
  apart (``split_unit``); the key appends it as ``#<unit>``;
- leading zeros of the house number dropped ("0123" -> "123");
- a street suffix (the USPS standard abbreviations of the common ones: STREET -> ST, AVENUE -> AVE,
  ...) is abbreviated when it is the last word or the word before a trailing direction;
- a direction word (NORTH -> N, SOUTHWEST -> SW, ...) is abbreviated right after the house number
  and as the last word (so "NORTH AVE" keeps its name only when it is not in those places: good
  enough for matching, the published address is what the product shows).

Pure: no I/O.
"""

from __future__ import annotations

import re

SUFFIXES = {
    "ALLEY": "ALY", "AVENUE": "AVE", "AV": "AVE", "BOULEVARD": "BLVD", "CIRCLE": "CIR", "COURT": "CT",
    "CRESCENT": "CRES", "DRIVE": "DR", "EXPRESSWAY": "EXPY", "HIGHWAY": "HWY", "LANE": "LN",
    "PARKWAY": "PKWY", "PLACE": "PL", "PLAZA": "PLZ", "ROAD": "RD", "SQUARE": "SQ", "STREET": "ST",
    "STR": "ST", "TERRACE": "TER", "TRAIL": "TRL", "TURNPIKE": "TPKE", "WAY": "WAY", "ROW": "ROW",
}
DIRECTIONS = {
    "NORTH": "N", "SOUTH": "S", "EAST": "E", "WEST": "W",
    "NORTHEAST": "NE", "NORTHWEST": "NW", "SOUTHEAST": "SE", "SOUTHWEST": "SW",
}
UNIT_WORDS = ("APARTMENT", "APT", "UNIT", "SUITE", "STE", "FLOOR", "FL", "RM", "ROOM", "#")
_UNIT_RE = re.compile(r"\s(?:" + "|".join(re.escape(w) for w in UNIT_WORDS) + r")\s*#?\s*([A-Z0-9-]+)$")
_HASH_UNIT_RE = re.compile(r"\s?#\s*([A-Z0-9-]+)$")
_DROP_RE = re.compile(r"[.,'\"]")


def clean(text: str | None) -> str:
    """Upper case, punctuation dropped, spaces folded: '5818 Woodcrest Ave.' -> '5818 WOODCREST AVE'."""
    return " ".join(_DROP_RE.sub(" ", (text or "").upper()).split())


def split_unit(address: str | None, unit: str | None = None) -> tuple[str, str | None]:
    """(street line, unit): '12 MAIN ST APT 3B' -> ('12 MAIN ST', '3B'); an explicit ``unit`` wins."""
    street = clean(address)
    found = None
    match = _UNIT_RE.search(street) or _HASH_UNIT_RE.search(street)
    if match and match.start() > 0:
        found = match.group(1)
        street = street[:match.start()].strip()
    explicit = clean(unit).lstrip("#").strip() if unit else ""
    for word in UNIT_WORDS:
        if explicit.startswith(word + " "):
            explicit = explicit[len(word) + 1:].lstrip("# ").strip()
            break
    return street, (explicit or found or None)


def normalize_street(address: str | None) -> str:
    """The street line in its key form (no unit): '0123 North Main Street' -> '123 N MAIN ST'."""
    street, _ = split_unit(address)
    words = street.split()
    if not words:
        return ""
    if words[0].isdigit():
        words[0] = words[0].lstrip("0") or "0"
        if len(words) > 2 and words[1] in DIRECTIONS:
            words[1] = DIRECTIONS[words[1]]
    last = len(words) - 1
    if last >= 2 and words[last] in DIRECTIONS:
        words[last] = DIRECTIONS[words[last]]
    if last >= 1 and words[last] in DIRECTIONS.values() and last - 1 >= 1 and words[last - 1] in SUFFIXES:
        words[last - 1] = SUFFIXES[words[last - 1]]
    elif last >= 1 and words[last] in SUFFIXES:
        words[last] = SUFFIXES[words[last]]
    return " ".join(words)


def address_key(address: str | None, unit: str | None = None) -> str:
    """The matching key of a street line and unit: '123 N MAIN ST#2B'; '' when there is no street."""
    street, found_unit = split_unit(address, unit)
    key = normalize_street(street)
    if not key:
        return ""
    return f"{key}#{found_unit}" if found_unit else key


def zip5(zip_code: str | None) -> str | None:
    """The five-digit ZIP of '19131', '19131-2201' or ' 19131 '; None for anything else."""
    text = (zip_code or "").strip()[:5]
    return text if len(text) == 5 and text.isdigit() else None


def same_street(a: str | None, b: str | None) -> bool:
    """Whether two street lines name the same place (units and spelling aside)."""
    return normalize_street(a) == normalize_street(b) and bool(normalize_street(a))
