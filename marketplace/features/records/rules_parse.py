"""Published values as they arrive from public-record portals, parsed in one place.

Every open-data adapter reads its values through these functions, whatever the protocol: portals send
strings (``"$1,234.50"``, ``"Y"``, ``"20151231"``, ``"07-07-26 10:00 AM"``), JSON numbers, or epoch
milliseconds (ArcGIS). Each parser takes the published value and returns the typed value, ``None`` for a
missing one (empty, ``NULL``, only spaces), and raises ``ValueError`` whose message quotes the value when it
cannot be read ("'13/45/2011' is not a date"); the mapper decides whether that rejects the row (a required
field) or leaves the field empty (an optional one). Pure functions: no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache
from datetime import date, datetime, timedelta, timezone
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

NULL_TEXTS = frozenset({"", "NULL", "null", "None", "N/A", "n/a"})
_SPACES = re.compile(r"\s+")
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")
_EPOCH_MS_MIN = 10**11  # epoch milliseconds from 1973-03 on; a smaller number is not a timestamp

TRUE_TEXTS = frozenset({"y", "yes", "true", "t", "1"})
FALSE_TEXTS = frozenset({"n", "no", "false", "f", "0"})

# Date layouts seen in the samples, tried in order (a time of day is dropped).
DATE_FORMATS = (
    "%Y-%m-%d",                 # ISO (OPA, Baltimore)
    "%Y-%m-%dT%H:%M:%S.%f",     # Socrata floating timestamp
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%d %H:%M:%S",        # Baltimore "Last Modified"
    "%Y%m%d",                   # Philadelphia Revenue extract
    "%m/%d/%Y",                 # Chicago, NYC (M/D/YYYY), NJ
    "%m/%d/%Y %I:%M:%S %p",     # Chicago hearing date-times
    "%m/%d/%Y %H:%M:%S",
    "%m-%d-%y %I:%M %p",        # Bid4Assets "07-07-26 10:00 AM"
    "%m-%d-%y %I:%M %p ET",
    "%m-%d-%y",
    "%m/%d/%y",
    "%m/%Y",                    # NYC tax lien sale list month "04/2019" (the first of the month)
)
_MS_DATE = re.compile(r"^/Date\((-?\d+)(?:[+-]\d{4})?\)/$")  # Microsoft JSON date "/Date(1446733406000)/"


def text(value: Any, null_texts: frozenset[str] = NULL_TEXTS) -> str | None:
    """Stripped text with inner runs of spaces folded; ``None`` for empty / ``NULL``."""
    if value.__class__ is str:  # the common case first (a file's every cell)
        folded = " ".join((value.replace("\ufeff", "") if "\ufeff" in value else value).split())
        return None if folded in NULL_TEXTS or folded in null_texts else folded
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    # str.split() and the pattern \s+ agree on what whitespace is (str.isspace): runs folded, ends cut.
    folded = " ".join(str(value).replace("\ufeff", "").split())
    return None if folded in null_texts or folded in NULL_TEXTS else folded


def _number_text(value: Any) -> tuple[str, bool] | None:
    """The digits of a published number (thousands separators, ``$`` and spaces removed) and whether it was
    written negative in accounting style ``(1,234.00)``."""
    raw = text(value)
    if raw is None:
        return None
    cleaned = raw.replace(",", "").replace("$", "").replace(" ", "")
    negative = cleaned.startswith("(") and cleaned.endswith(")")
    if negative:
        cleaned = cleaned[1:-1]
    if not _NUMBER.match(cleaned):
        raise ValueError(f"'{raw}' is not a number")
    return cleaned, negative


def decimal(value: Any) -> Decimal | None:
    """A published number as a Decimal: ``"1,300,000"``, ``"$1,234.50"``, ``"(1,234.00)"`` (negative), 96100.0."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return Decimal(str(value))
    parsed = _number_text(value)
    if parsed is None:
        return None
    cleaned, negative = parsed
    try:
        number = Decimal(cleaned)
    except InvalidOperation as exc:  # pragma: no cover - the pattern above admits only decimals
        raise ValueError(f"'{value}' is not a number") from exc
    return -number if negative else number


def money(value: Any) -> int | None:
    """Whole US dollars, rounded half up from the published cents: ``"$1,234.50"`` -> 1235."""
    try:
        number = decimal(value)
    except ValueError:
        raise ValueError(f"'{text(value)}' is not an amount of money") from None
    if number is None:
        return None
    return int(number.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def integer(value: Any) -> int | None:
    """A whole number: ``"3"``, ``"3.0"``, ``"1,300"``; ``"3.5"`` is refused."""
    try:
        number = decimal(value)
    except ValueError:
        raise ValueError(f"'{text(value)}' is not a whole number") from None
    if number is None:
        return None
    if number != number.to_integral_value():
        raise ValueError(f"'{text(value)}' is not a whole number")
    return int(number)


def floating(value: Any) -> float | None:
    """A decimal number as float: ``"41.72433163710899"``, ``"-87.6"``, ``"1,234.5"``."""
    number = decimal(value)
    return None if number is None else float(number)


def boolean(value: Any) -> bool | None:
    """``Y``/``N``, ``yes``/``no``, ``true``/``false``, ``t``/``f``, ``1``/``0`` (any case)."""
    if isinstance(value, bool):
        return value
    raw = text(value)
    if raw is None:
        return None
    lowered = raw.lower()
    if lowered in TRUE_TEXTS:
        return True
    if lowered in FALSE_TEXTS:
        return False
    raise ValueError(f"'{raw}' is not yes or no")


def day(value: Any) -> date | None:
    """A date from any layout the portals use (see ``DATE_FORMATS``) or epoch milliseconds (ArcGIS);
    the time of day is dropped."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _epoch_ms(value)
    raw = text(value)
    if raw is None:
        return None
    if raw.lstrip("-").isdigit() and len(raw.lstrip("-")) >= 12:
        return _epoch_ms(int(raw))
    ms_date = _MS_DATE.match(raw)
    if ms_date:
        return _epoch_ms(int(ms_date.group(1)))
    if raw.endswith("Z"):
        raw = raw[:-1]
    return _day_text(raw)


@lru_cache(maxsize=16_384)
def _day_text(raw: str) -> date:
    """A date text through ``DATE_FORMATS`` (cached: a file repeats its dates; a failure is not cached)."""
    for layout in DATE_FORMATS:
        try:
            return datetime.strptime(raw, layout).date()
        except ValueError:
            continue
    raise ValueError(f"'{raw}' is not a date")


def _epoch_ms(value: float) -> date:
    if abs(value) < _EPOCH_MS_MIN:
        raise ValueError(f"'{value}' is not a date")
    return (datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(milliseconds=value)).date()


def year(value: Any) -> int | None:
    """A year: ``"2019"``, ``2019``, or the year of a date (``"20151231"`` -> 2015)."""
    raw = text(value)
    if raw is None:
        return None
    if re.fullmatch(r"\d{4}(\.0+)?", raw):
        return int(raw[:4])
    try:
        return day(value).year  # type: ignore[union-attr]
    except ValueError:
        raise ValueError(f"'{raw}' is not a year") from None


def zip_code(value: Any) -> str | None:
    """Five digits, leading zeros kept; ZIP+4 cut (``"19132-3133"`` -> ``"19132"``); a ZIP that lost its
    leading zero as a number (``8330``) padded; ``"00000"`` (Baltimore's placeholder) read as missing."""
    raw = text(value)
    if raw is None:
        return None
    match = re.fullmatch(r"(\d{4,5})(-?\d{4})?", raw.replace(" ", ""))
    if not match:
        raise ValueError(f"'{raw}' is not a ZIP code")
    five = match.group(1).zfill(5)
    return None if five == "00000" else five


def parcel_id(value: Any, width: int | None = None) -> str | None:
    """A parcel id as text: leading zeros kept, inner spaces folded; a JSON number (ArcGIS ``PPN``
    410106100009.0) without its ``.0``. ``width`` restores leading zeros a spreadsheet dropped."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    raw = text(value)
    if raw is None:
        return None
    return raw.zfill(width) if width and raw.isdigit() else raw


PARSERS = {
    "text": text,
    "money": money,
    "int": integer,
    "float": floating,
    "bool": boolean,
    "date": day,
    "year": year,
    "zip": zip_code,
    "parcel": parcel_id,
}


def _register_market_parsers() -> None:
    """Per-market parcel ids and WKB points (``records.rules_parcel_ids``) are parsers too."""
    from marketplace.features.records.rules_parcel_ids import PARSERS as MARKET_PARSERS

    PARSERS.update(MARKET_PARSERS)


_register_market_parsers()
