"""Property classes in words: the class or land-use a dataset publishes ("01 ONE FAMILY DWELLINGS",
"ROW B/GAR 2STY MASON", "REAL PROPERTY STATE EXEMPT: Non-exempt", Cook's "2-03") as a reader understands it.
Display only: the published value stays stored as it was (comparable sales match on it).

Per dataset (the dataset id's market prefix):
- Philadelphia (``phl-``): OPA ``category_code`` 1-14 and its descriptions; the building descriptions of OPA
  and the Revenue extract, written in the Office of Property Assessment's abbreviations (cut at 20
  characters in the extract): expanded word by word. Source: OPA's ``opa_properties_public`` metadata
  (metadata.phila.gov, "Properties" dataset, fields ``category_code`` and ``building_code_description``).
- New York City (``nyc-``): DOF's building class categories ("01 ONE FAMILY DWELLINGS": the text after the
  code). Source: NYC Department of Finance, "Rolling Sales Data" glossary of building class categories.
- Baltimore (``bal-``): the tax-sale report's "State Code Description" is the Maryland exemption class.
  Source: the bidbaltimore.com report's own texts ("REAL PROPERTY STATE EXEMPT: Non-exempt",
  "EXEMPT CITY OWNED: ...").
- Cook County (``cook-``): the Assessor's classes ("2-03", "203"). Source: Cook County Assessor's Office,
  "Definitions for the Codes for Classification of Real Property" (cookcountyassessor.com).
A bare code no table knows reads "Class <code> (unknown code)"; other text is shown in sentence case.

Pure: no I/O.
"""

from __future__ import annotations

import re

UNKNOWN = "Class {code} (unknown code)"
_BARE_CODE = re.compile(r"^(?=.*\d)[A-Z0-9][A-Z0-9.\-]{0,5}$", re.IGNORECASE)
_CODE_PREFIX = re.compile(r"^(\d{1,3}[A-Z]?)\s+(.*[A-Za-z].*)$")

PHILADELPHIA_CATEGORIES = {
    "1": "Single family", "2": "Multi family", "3": "Mixed use", "4": "Commercial", "5": "Industrial",
    "6": "Vacant land", "12": "Vacant land, non-residential", "13": "Vacant land, residential",
    "14": "Apartments, more than 4 units",
}
# OPA building-description abbreviations (whole words, upper case), in reading words.
PHILADELPHIA_WORDS = {
    "ROW": "row house", "SEMI/DET": "semi-detached", "S/D": "semi-detached", "DET": "detached",
    "B/GAR": "with basement garage", "W/GAR": "with garage", "W/B": "with basement", "W/D": "with detached",
    "GAR": "garage", "STY": "story", "STORY": "story", "MASONRY": "masonry", "MASON": "masonry",
    "MASO": "masonry", "MAS": "masonry", "M": "masonry", "MA": "masonry", "MAS+OTHER": "masonry and other",
    "MAS+OTH": "masonry and other", "MAS.+OTHER": "masonry and other", "M+O": "masonry and other", "+OTHER": "and other", "OTH": "other",
    "FRAME": "frame", "VAC": "vacant", "VACANT": "vacant", "LAND": "land", "RES": "residential",
    "RESIDE": "residential", "COMM": "commercial", "COMM.": "commercial", "COMMER": "commercial",
    "COMMERCI": "commercial", "COMMERCIAL": "commercial", "NON-COMMER": "non-commercial", "IND": "industrial",
    "IND.": "industrial", "INDUST": "industrial", "WHSE": "warehouse", "PRKNG": "parking", "PARKING": "parking",
    "LOT": "lot", "PD": "paid", "NON": "non-", "ACRE": "acre", "ACR": "acre", "ACRE+": "acre or more",
    "<": "under", "APTS": "apartments", "APT": "apartments", "UNTS": "units", "CONV/APT": "converted to apartments",
    "STR/OFF+APTS": "store or office with apartments", "STR/OFF+APT": "store or office with apartments",
    "HSE": "house of", "WORSHIP": "worship", "ALL": "all", "CONDO": "condominium", "STORE": "store",
    "REST'RNT": "restaurant", "W/BAR": "with bar", "AUTO": "auto", "REPAIR": "repair", "SHOP": "shop", "OFFICE": "office",
}
NYC_CATEGORIES = {
    "01": "One family dwellings", "02": "Two family dwellings", "03": "Three family dwellings",
    "04": "Tax class 1 condos", "05": "Tax class 1 vacant land", "06": "Tax class 1 - other",
    "07": "Rentals - walkup apartments", "08": "Rentals - elevator apartments", "09": "Coops - walkup apartments",
    "10": "Coops - elevator apartments", "12": "Condos - walkup apartments", "13": "Condos - elevator apartments",
    "14": "Rentals - 4-10 unit", "15": "Condos - 2-10 unit residential", "17": "Condo coops",
    "21": "Office buildings", "22": "Store buildings", "29": "Commercial garages", "30": "Warehouses",
    "31": "Commercial vacant land", "44": "Condo parking", "47": "Condo non-business storage",
}
COOK_CLASSES = {
    "100": "Vacant land", "200": "Residential land", "201": "Residential garage",
    "202": "One-story residence, up to 999 sq ft", "203": "One-story residence, 1,000 to 1,800 sq ft",
    "204": "One-story residence, 1,801 sq ft and over",
    "205": "Two-or-more-story residence, over 62 years old, up to 2,200 sq ft",
    "206": "Two-or-more-story residence, over 62 years old, 2,201 to 4,999 sq ft",
    "207": "Two-or-more-story residence, up to 62 years old, up to 2,000 sq ft",
    "208": "Two-or-more-story residence, up to 62 years old, 3,801 to 4,999 sq ft",
    "209": "Two-or-more-story residence, 5,000 sq ft and over", "210": "Old-style row house, over 62 years old",
    "211": "Apartment building, 2 to 6 units", "212": "Mixed-use building, 6 units or fewer",
    "234": "Split-level residence", "241": "Vacant land next to a residence under the same owner",
    "278": "Two-or-more-story residence, up to 62 years old, 2,001 to 3,800 sq ft",
    "295": "Townhome or row house, up to 62 years old", "299": "Residential condominium",
}


def _sentence(text: str) -> str:
    text = " ".join(text.split())
    return text[:1].upper() + text[1:].lower() if text.isupper() or text.islower() else text


def _philadelphia(value: str) -> str:
    code = value.strip()
    if code in PHILADELPHIA_CATEGORIES:
        return PHILADELPHIA_CATEGORIES[code]
    # "2STY" / "2.5   STY" / "ALL2STY": a number glued to its story count.
    text = re.sub(r"(\d(?:\.\d)?)\s*STY\b", r"\1 STY", value.upper())
    text = re.sub(r"([A-Z])(\d)", r"\1 \2", text)
    words = [PHILADELPHIA_WORDS.get(w, w.lower()) for w in text.split()]
    joined = (" ".join(words).replace("non- ", "non-").replace(" story", "-story")
              .replace("under acre", "under an acre"))
    return _sentence(joined[:1].upper() + joined[1:])


def _baltimore(value: str) -> str:
    head, _, tail = value.partition(":")
    tail = tail.strip()
    if head.strip().upper() == "REAL PROPERTY STATE EXEMPT" and tail.lower() == "non-exempt":
        return "Taxable real property (not exempt)"
    if head.strip().upper().startswith("EXEMPT"):
        owner = _sentence(head.strip()[len("EXEMPT"):].strip()) or "Exempt"
        return f"Tax-exempt, {owner.lower()}" + (f" ({tail})" if tail else "")
    return _sentence(value)


def describe(dataset_id: str | None, value: str | None) -> str | None:
    """The class in words (module docstring); None when nothing is published."""
    text = " ".join((value or "").split())
    if not text:
        return None
    market = (dataset_id or "").split("-")[0]
    if market == "phl":
        return _philadelphia(text)
    if market == "bal":
        return _baltimore(text)
    if market == "cook":
        code = text.replace("-", "").replace(".", "")
        if code in COOK_CLASSES:
            return COOK_CLASSES[code]
        return UNKNOWN.format(code=text) if _BARE_CODE.match(text) else _sentence(text)
    if market == "nyc":
        prefixed = _CODE_PREFIX.match(text)
        if prefixed:
            return NYC_CATEGORIES.get(prefixed.group(1)) or _sentence(prefixed.group(2))
        if text in NYC_CATEGORIES:
            return NYC_CATEGORIES[text]
    if _BARE_CODE.match(text):
        return UNKNOWN.format(code=text)
    return _sentence(text)
