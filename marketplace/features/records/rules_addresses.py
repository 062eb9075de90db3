"""Street addresses as keys: one property however a dataset spells its address.

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

A record without a ZIP code but with coordinates gets the ZIP whose centre is nearest
(``zip_for_point``): the active standard ZIP codes of the ``zipcodes`` package's bundled data, within
``MAX_ZIP_DISTANCE_KM``; farther than that (open water, a wrong coordinate) there is no ZIP, and
ingestion rejects the row. A ZIP centre is not a ZIP boundary: a house near the edge of its ZIP can get
the neighbouring one, which is why a published ZIP always wins.

Pure: no I/O beyond the package's bundled data, read once.
"""

from __future__ import annotations

import math
import os
import pickle
import re
import tempfile
from functools import lru_cache
from pathlib import Path

import zipcodes

MAX_ZIP_DISTANCE_KM = 8.0
_CELL_DEGREES = 0.1  # the grid of ZIP centres (cells of 0.1 degree)
_KM_PER_DEGREE_FLOOR = 111.19  # km per degree of latitude on the 6371 km sphere (111.1949), rounded down

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


def _grid_cache_file() -> Path:
    """Where the built grid is kept between processes: the user's cache folder, one file per ``zipcodes``
    version and cell size (a new package version builds a new file)."""
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(root) / "leadvault" / f"zip_grid-{zipcodes.__version__}-{_CELL_DEGREES}.pickle"


@lru_cache(maxsize=1)
def _zip_grid() -> dict[tuple[int, int], list[tuple[float, float, str, str]]]:
    """The grid of ZIP centres, built once per process lazily: read from the cache file (about 20 ms) when
    an earlier process wrote it, else built from the ``zipcodes`` data (about a second) and written there
    (a cache that cannot be read or written is rebuilt, never an error)."""
    path = _grid_cache_file()
    try:
        with path.open("rb") as handle:
            grid = pickle.load(handle)
        if isinstance(grid, dict):
            return grid
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ValueError, TypeError):
        pass
    grid = _build_zip_grid()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, delete=False) as handle:
            pickle.dump(grid, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(handle.name, path)  # whole or not at all: a reader never sees half a file
    except OSError:
        pass
    return grid


def _build_zip_grid() -> dict[tuple[int, int], list[tuple[float, float, str, str]]]:
    grid: dict[tuple[int, int], list[tuple[float, float, str, str]]] = {}
    # filter_by hands out a list of its own (list_all's stays cached in the module: 150 MB for the
    # process's life); this one is freed once the grid is built.
    for row in zipcodes.filter_by(zip_code_type="STANDARD", active=True):
        if row.get("zip_code_type") != "STANDARD" or not row.get("active"):
            continue
        try:
            lat, lon = float(row["lat"]), float(row["long"])
        except (KeyError, TypeError, ValueError):
            continue
        cell = (math.floor(lat / _CELL_DEGREES), math.floor(lon / _CELL_DEGREES))
        grid.setdefault(cell, []).append((lat, lon, row["zip_code"], row["state"]))
    return grid


def _km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance (haversine, Earth radius 6371 km)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(min(1.0, a)))


def zip_for_point(latitude: float | None, longitude: float | None,
                  state: str | None = None) -> str | None:
    """The ZIP whose centre is nearest the point (within ``MAX_ZIP_DISTANCE_KM``, in ``state`` when
    given); None when there is none that close or the point is not a coordinate."""
    if latitude is None or longitude is None:
        return None
    try:
        lat, lon = float(latitude), float(longitude)
    except (TypeError, ValueError):
        return None
    if not (math.isfinite(lat) and math.isfinite(lon) and -90 <= lat <= 90 and -180 <= lon <= 180):
        return None
    return _nearest_zip(lat, lon, state.upper() if state else None)


@lru_cache(maxsize=65536)
def _nearest_zip(lat: float, lon: float, wanted: str | None) -> str | None:
    """``zip_for_point`` of a checked point, kept per exact point: a dataset repeats its buildings'
    coordinates row after row, and the answer of a point never changes within a process."""
    row, col = math.floor(lat / _CELL_DEGREES), math.floor(lon / _CELL_DEGREES)
    best: tuple[float, str] | None = None
    grid = _zip_grid()
    # Cells are 11 km tall; their width shrinks with the latitude's cosine (8.4 km at 41 N, 4.7 at 65 N).
    reach = math.ceil(MAX_ZIP_DISTANCE_KM / (111.0 * _CELL_DEGREES * max(0.05, math.cos(math.radians(lat)))))
    for dr in (-1, 0, 1):
        for dc in range(-reach, reach + 1):
            for c_lat, c_lon, code, code_state in grid.get((row + dr, col + dc), ()):
                if wanted and code_state != wanted:
                    continue
                # The latitude difference alone is a lower bound of the distance: skip the haversine
                # when it already rules the centre out.
                floor_km = abs(c_lat - lat) * _KM_PER_DEGREE_FLOOR
                if floor_km > MAX_ZIP_DISTANCE_KM or (best is not None and floor_km >= best[0]):
                    continue
                distance = _km(lat, lon, c_lat, c_lon)
                if distance <= MAX_ZIP_DISTANCE_KM and (best is None or distance < best[0]):
                    best = (distance, code)
    return best[1] if best else None


@lru_cache(maxsize=4096)
def zip_city_state(zip_code: str | None) -> tuple[str, str] | None:
    """(city, state) of a five-digit ZIP from the ``zipcodes`` data; None when unknown."""
    code = zip5(zip_code)
    if code is None:
        return None
    try:
        rows = zipcodes.matching(code)
    except (TypeError, ValueError):
        return None
    return (rows[0]["city"], rows[0]["state"]) if rows else None

