"""County parcel ids in one form per market, and points from hex WKB geometry. Pure functions, no I/O.

Each parser takes a published value and returns the normalised text, ``None`` for a missing value, or
raises ``ValueError`` quoting the value (the mapper decides whether that rejects the row):

- ``cook_pin``: Cook County's 14-digit PIN. The Assessor writes ``18124170210000``; the Treasurer's
  datasets write it dashed, ``18-12-417-021-0000``; a 10-digit PIN (``pin10``: no unit number) gets
  ``0000``. Both are read as the 14 digits.
- ``phl_opa``: Philadelphia's 9-digit OPA account number, zero-padded (``31062000`` -> ``031062000``: a
  file that stored it as an integer lost the zero).
- ``nyc_bbl``: New York City's borough-block-lot as 10 digits: ``3011510060``, ``2029580065.00`` (PLUTO
  writes a decimal), or borough, block and lot apart (``"1 16 3"``, ``"Queens 2970 38"``, ``"BK-108-15"``;
  the borough as digit, name or two-letter code).
- ``wkb_latitude`` / ``wkb_longitude``: the point of a hex WKB / EWKB ``Point`` geometry in WGS84
  (EPSG:4326). Other geometries (polygons) and other coordinate systems (a point outside latitude and
  longitude ranges: state-plane feet) give ``None``: no guessed location.
"""

from __future__ import annotations

import re
import struct
from typing import Any

_NULLS = frozenset({"", "NULL", "null", "None", "N/A", "n/a"})


def text(value: Any) -> str | None:
    """Stripped text, inner spaces folded; ``None`` for empty / ``NULL`` (as ``records.rules_parse.text``, which
    registers these parsers and so cannot be imported here)."""
    if value is None:
        return None
    folded = " ".join(str(value).replace("\ufeff", "").split())
    return None if folded in _NULLS else folded

_BOROUGHS = {
    "1": "1", "MN": "1", "MANHATTAN": "1", "NEW YORK": "1",
    "2": "2", "BX": "2", "BRONX": "2", "THE BRONX": "2",
    "3": "3", "BK": "3", "BROOKLYN": "3", "KINGS": "3",
    "4": "4", "QN": "4", "QUEENS": "4",
    "5": "5", "SI": "5", "STATEN ISLAND": "5", "RICHMOND": "5",
}
_WHOLE = re.compile(r"^(\d+)(?:\.0*)?$")  # "2029580065.00" -> the digits before the point


def _digits(value: Any) -> str | None:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return text(value)


def cook_pin(value: Any) -> str | None:
    """``18-12-417-021-0000`` or ``18124170210000`` -> ``18124170210000``; a 10-digit PIN gets ``0000``."""
    raw = _digits(value)
    if raw is None:
        return None
    digits = raw.replace("-", "").replace(" ", "")
    match = _WHOLE.match(digits)
    if match and len(match.group(1)) in (13, 14):  # 13: a spreadsheet dropped the leading zero
        return match.group(1).zfill(14)
    if match and len(match.group(1)) == 10:
        return match.group(1) + "0000"
    raise ValueError(f"'{raw}' is not a Cook County PIN")


def phl_opa(value: Any) -> str | None:
    """A Philadelphia OPA account number as 9 digits: ``31062000`` -> ``031062000``."""
    raw = _digits(value)
    if raw is None:
        return None
    match = _WHOLE.match(raw.replace(" ", ""))
    if not match or len(match.group(1)) > 9:
        raise ValueError(f"'{raw}' is not a Philadelphia OPA number")
    return match.group(1).zfill(9)


def nyc_bbl(value: Any) -> str | None:
    """A New York City BBL as 10 digits (borough 1, block 5, lot 4)."""
    raw = _digits(value)
    if raw is None:
        return None
    whole = _WHOLE.match(raw)
    if whole:
        digits = whole.group(1)
        if len(digits) == 10 and digits[0] in "12345":
            return digits
        raise ValueError(f"'{raw}' is not a BBL")
    parts = [p for p in re.split(r"[\s\-/]+", raw.upper()) if p]
    if len(parts) >= 3 and parts[-1].isdigit() and parts[-2].isdigit():
        borough = _BOROUGHS.get(" ".join(parts[:-2]))
        block, lot = parts[-2], parts[-1]
        if borough and len(block) <= 5 and len(lot) <= 4 and int(block) > 0:
            return f"{borough}{int(block):05d}{int(lot):04d}"
    raise ValueError(f"'{raw}' is not a BBL")


def wkb_point(value: Any) -> tuple[float, float] | None:
    """(longitude, latitude) of a hex WKB / EWKB ``Point`` in WGS84; ``None`` for another geometry or a
    point outside longitude/latitude ranges (a projected coordinate system)."""
    raw = text(value)
    if raw is None:
        return None
    try:
        data = bytes.fromhex(raw)
    except ValueError:
        raise ValueError(f"'{raw[:40]}' is not hex WKB") from None
    if len(data) < 5:
        raise ValueError(f"'{raw[:40]}' is not hex WKB")
    order = "<" if data[0] == 1 else ">"
    (kind,) = struct.unpack(order + "I", data[1:5])
    offset = 5
    if kind & 0x20000000:  # EWKB with an SRID
        (srid,) = struct.unpack(order + "I", data[5:9])
        offset = 9
        if srid != 4326:
            return None
    if kind & 0xFFFF != 1 or len(data) < offset + 16:
        return None
    x, y = struct.unpack(order + "dd", data[offset:offset + 16])
    if not (-180.0 <= x <= 180.0 and -90.0 <= y <= 90.0):
        return None
    return x, y


def wkb_latitude(value: Any) -> float | None:
    point = wkb_point(value)
    return None if point is None else point[1]


def wkb_longitude(value: Any) -> float | None:
    point = wkb_point(value)
    return None if point is None else point[0]


PARSERS = {
    "cook_pin": cook_pin,
    "phl_opa": phl_opa,
    "nyc_bbl": nyc_bbl,
    "wkb_latitude": wkb_latitude,
    "wkb_longitude": wkb_longitude,
}
