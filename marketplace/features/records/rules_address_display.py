"""Addresses as people read them: public records publish "0466 ROUNDVIEW ROAD", "CHICAGO" or "chicago";
every place the product shows an address (cards, the property page, exports, alerts) shows "466 Roundview
Road" and "Chicago". Display only: matching uses ``records.rules_addresses.address_key``, and the stored value stays
as published.

- the house number loses its leading zeros ("0466" -> "466"; a range "1409-13" and "3220-A" stay);
- a word in one case (all upper or all lower) is title-cased ("ROUNDVIEW" -> "Roundview",
  "MCHENRY" -> "McHenry", "O'NEILL" -> "O'Neill", "PRICE-EVANS" -> "Price-Evans"); a word already in
  mixed case ("DeKalb", "St") is left as written;
- directions stay abbreviations in capitals ("N", "NW"), ordinals read "1st", "22nd", "76th", single
  letters and letter-digit mixes stay in capitals ("K St NW", "Apt 2B"), "PO"/"P.O." stay in capitals;
- a unit reads "Apt 2B", "Unit 501", "#2" (the unit's own value in capitals).

Pure: no I/O.
"""

from __future__ import annotations

import re

_DIRECTIONS = frozenset({"N", "S", "E", "W", "NE", "NW", "SE", "SW"})
_KEEP_UPPER = frozenset({"PO", "P.O.", "P.O", "RR", "US", "HC", "II", "III", "IV"})
_ORDINAL = re.compile(r"^(\d+)(ST|ND|RD|TH)$", re.IGNORECASE)
_UNIT_WORDS = {"APT": "Apt", "APARTMENT": "Apt", "UNIT": "Unit", "STE": "Ste", "SUITE": "Suite", "FL": "Fl",
               "FLOOR": "Floor", "RM": "Rm", "ROOM": "Room", "BLDG": "Bldg", "LOT": "Lot"}
_HOUSE_NUMBER = re.compile(r"^0+(?=\d)")
_PLAIN = re.compile(r"^[A-Za-z0-9'\-/.,#&()+]+$")


def _title_part(part: str) -> str:
    if not part:
        return part
    upper = part.upper()
    if upper.startswith("MC") and len(part) > 2 and part[2:].isalpha():
        return "Mc" + part[2:].capitalize()
    return part[0].upper() + part[1:].lower()


def _word(word: str) -> str:
    if not word or not any(ch.isalpha() for ch in word) or not _PLAIN.match(word):
        return word  # no letters, or characters an address does not have ("=cmd|"): kept as written
    if word != word.upper() and word != word.lower():
        return word  # mixed case as written: kept
    upper = word.upper()
    if upper in _DIRECTIONS or upper in _KEEP_UPPER:
        return upper
    ordinal = _ORDINAL.match(word)
    if ordinal:
        return str(int(ordinal.group(1))) + ordinal.group(2).lower()  # "03RD" -> "3rd"
    if any(ch.isdigit() for ch in word) or (len(word) == 1 and word.isalpha()):
        return upper  # "2B", "A1", "K"
    if upper in _UNIT_WORDS:
        return _UNIT_WORDS[upper]
    # Title-case each piece between apostrophes, hyphens and slashes.
    return re.sub(r"[A-Za-z]+", lambda m: _title_part(m.group(0)), word.lower())


def display_words(text: str | None) -> str:
    """Any place name in reading case: 'CHICAGO' / 'chicago' -> 'Chicago', 'NEW YORK' -> 'New York'."""
    return " ".join(_word(w) for w in (text or "").split())


def display_street(address: str | None, unit: str | None = None) -> str:
    """A street line (and its unit) as shown: '0466 ROUNDVIEW ROAD' -> '466 Roundview Road';
    ('12 MAIN ST', '2B') -> '12 Main St Apt 2B'; '#2' stays '#2'."""
    words = (address or "").split()
    if not words:
        return ""
    if words[0][:1].isdigit():
        words[0] = _HOUSE_NUMBER.sub("", words[0])
    line = " ".join(_word(w) for w in words)
    unit_text = " ".join((unit or "").split())
    if unit_text:
        first = unit_text.split()[0].upper()
        if unit_text.startswith("#") or first in _UNIT_WORDS:
            line += " " + display_words(unit_text) if not unit_text.startswith("#") else " " + unit_text.upper()
        else:
            line += " Unit " + unit_text.upper()
    return line


def display_city(city: str | None) -> str:
    """'CHICAGO' -> 'Chicago'; '' for none."""
    return display_words(city)
