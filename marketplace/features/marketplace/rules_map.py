"""The marketplace map's rules: where a lead may be shown, the compact
point array the browser receives, and the Grid | Map view in the URL. Pure:
no database, no Reflex (the ZIP centres come from the ``zipcodes`` package's
bundled data, looked up once per ZIP).

The location is what a user pays for. A lead the user has not unlocked is
placed only at its ZIP code's centre, rounded to ``CENTRE_DECIMALS`` (about
110 m, coarser than the centre itself); its own coordinates are never used for
it, so no value finer than the ZIP centre can reach the browser. An unlocked
lead is placed at its own coordinates (``OWN_DECIMALS``, about 1 m), or at its
ZIP centre when it has none. A locked lead whose ZIP is unknown, and an
unlocked one with neither coordinates nor a known ZIP, are left off the map
(the page says how many).

The payload is three parallel arrays (``MapPoints.payload``): ``ids`` (a
22-character token per lead, the UUID's 16 bytes in base64url), ``coords``
(latitude, longitude, latitude, ...) and ``open`` (the positions of unlocked
leads). Markers are made from it in the browser, not one component per lead.
"""

from __future__ import annotations

import base64
import binascii
import math
import uuid
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable
from urllib.parse import parse_qs

import zipcodes

from marketplace.platform import texts as messages

CENTRE_DECIMALS = 3
OWN_DECIMALS = 5
VIEWS = ("grid", "map")
DEFAULT_VIEW = "grid"
VIEW_PARAM = "view"
# The most leads one map shows (the first ones in the current sort); narrower filters show the rest.
MAX_POINTS = 25_000


def _zip5(zip_code: str | None) -> str:
    text = (zip_code or "").strip()[:5]
    return text if len(text) == 5 and text.isdigit() else ""


@lru_cache(maxsize=None)
def _centre_of(zip5: str) -> tuple[float, float] | None:
    try:
        rows = zipcodes.matching(zip5)
    except (TypeError, ValueError):
        return None
    if not rows:
        return None
    try:
        lat, lng = float(rows[0]["lat"]), float(rows[0]["long"])
    except (KeyError, TypeError, ValueError):
        return None
    return (round(lat, CENTRE_DECIMALS), round(lng, CENTRE_DECIMALS)) if valid_position(lat, lng) else None


def zip_centre(zip_code: str | None) -> tuple[float, float] | None:
    """The centre of a US ZIP code ('78704' or '78704-1234'), rounded to
    ``CENTRE_DECIMALS``; None for an unknown or malformed ZIP."""
    zip5 = _zip5(zip_code)
    return _centre_of(zip5) if zip5 else None


def valid_position(latitude: object, longitude: object) -> bool:
    """Real numbers within range; (0, 0), a provider's usual 'unknown', is not a position."""
    if isinstance(latitude, bool) or isinstance(longitude, bool):
        return False
    if not isinstance(latitude, (int, float)) or not isinstance(longitude, (int, float)):
        return False
    if not (math.isfinite(latitude) and math.isfinite(longitude)):
        return False
    if latitude == 0 and longitude == 0:
        return False
    return -90 <= latitude <= 90 and -180 <= longitude <= 180


def map_position(zip_code: str | None, latitude: float | None, longitude: float | None,
                 unlocked: bool) -> tuple[float, float] | None:
    """Where the map may show a lead for this user (see the module docstring)."""
    if unlocked and valid_position(latitude, longitude):
        return round(float(latitude), OWN_DECIMALS), round(float(longitude), OWN_DECIMALS)
    return zip_centre(zip_code)


def lead_token(lead_id: str | uuid.UUID) -> str:
    """A lead id as 22 URL-safe characters (the map's marker ids)."""
    value = lead_id if isinstance(lead_id, uuid.UUID) else uuid.UUID(str(lead_id))
    return base64.urlsafe_b64encode(value.bytes).rstrip(b"=").decode("ascii")


def lead_id_from_token(token: object) -> str | None:
    """The lead id of a marker token; None for anything else."""
    if not isinstance(token, str) or len(token) != 22:
        return None
    try:
        raw = base64.urlsafe_b64decode(token + "==")
    except (binascii.Error, ValueError):
        return None
    if len(raw) != 16 or lead_token(uuid.UUID(bytes=raw)) != token:
        return None
    return str(uuid.UUID(bytes=raw))


@dataclass
class MapPoints:
    """The leads of one map: ``matched`` leads matched the filters, ``len(ids)`` are on the map."""

    ids: list[str] = field(default_factory=list)
    coords: list[float] = field(default_factory=list)
    open: list[int] = field(default_factory=list)
    matched: int = 0
    unplaced: int = 0  # matched, but with no position this user may see
    capped: bool = False  # more than MAX_POINTS matched: the first MAX_POINTS were placed

    @property
    def payload(self) -> dict:
        return {"ids": self.ids, "coords": self.coords, "open": self.open}


def build_points(rows: Iterable, matched: int | None = None, capped: bool = False) -> MapPoints:
    """``rows``: (lead id, zip code, latitude, longitude, unlocked) per matching lead."""
    points = MapPoints(capped=capped)
    seen = 0
    for lead_id, zip_code, latitude, longitude, unlocked in rows:
        seen += 1
        position = map_position(zip_code, latitude, longitude, bool(unlocked))
        if position is None:
            points.unplaced += 1
            continue
        if unlocked:
            points.open.append(len(points.ids))
        points.ids.append(lead_token(lead_id))
        points.coords.extend(position)
    points.matched = seen if matched is None else matched
    return points


def view_from_query(query: str | dict) -> str:
    """'map' when the URL says view=map, else 'grid'."""
    params = parse_qs(query) if isinstance(query, str) else query
    raw = params.get(VIEW_PARAM, DEFAULT_VIEW)
    value = raw[0] if isinstance(raw, list) and raw else raw
    return value if value in VIEWS else DEFAULT_VIEW


def with_view(query: str, view: str) -> str:
    """A filter query with the view added (only when it is not the default)."""
    if view not in VIEWS or view == DEFAULT_VIEW:
        return query
    return f"{query}&{VIEW_PARAM}={view}" if query else f"{VIEW_PARAM}={view}"




def _leads(count: int) -> str:
    return f"{count:,} lead{'' if count == 1 else 's'}"


def map_caption(shown: int, matched: int, unplaced: int, capped: bool) -> str:
    """The line under the map: how many leads it shows, and why any are missing."""
    if capped:
        text = messages.MAP_SHOWN_CAPPED.format(shown=f"{shown:,}", matched=f"{matched:,}")
    else:
        text = messages.MAP_SHOWN.format(shown=_leads(shown)) + "."
    if unplaced:
        text += " " + messages.MAP_UNPLACED.format(count=_leads(unplaced), verb="is" if unplaced == 1 else "are")
    return text


def single_point(lead_id: str | uuid.UUID, zip_code: str | None, latitude: float | None,
                 longitude: float | None) -> dict:
    """The property page's small map of an UNLOCKED lead: its own position (or its ZIP
    centre); an empty payload when it has neither."""
    position = map_position(zip_code, latitude, longitude, unlocked=True)
    if position is None:
        return {"ids": [], "coords": [], "open": []}
    return {"ids": [lead_token(lead_id)], "coords": list(position), "open": [0]}
