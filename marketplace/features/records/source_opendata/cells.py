"""One cell of a published row read by its field's spec (``dataset.FieldSpec``), through ``records.rules_parse``.

The row mapper (``mapper``) reads every cell through ``read``; an unreadable value raises ``ValueError``
quoting it (the mapper decides whether that rejects the row or leaves the field empty). A date more than a
year in the future (OPA's ``2071-...``) is treated as missing, or refused when the field is required.
"""

from __future__ import annotations

import json
import re
from datetime import date, timedelta
from typing import Any, Mapping

from marketplace.features.records import rules_parse as parse
from marketplace.features.records.source_opendata.dataset import FieldSpec

FUTURE_SLACK = timedelta(days=366)
TUPLE_FIELDS = ("violations",)  # target fields that keep every part of a split cell
TEMPLATE_NAMES = re.compile(r"\{([^{}:]+)(?::[^{}]*)?\}")  # the column names a template column fills in


class Missing(ValueError):
    """A required field has no value (the reason rejects the row)."""


def read(spec: FieldSpec, value: Any, today: date, *, every: bool, strict: bool = False) -> Any:
    """The value read by its spec: a tuple of every part of a split cell when ``every``, else the first.
    A date more than a year ahead is dropped, or refused when ``strict`` (a required field)."""
    if not every and spec.split is None and spec.pattern is None and spec.items is None:  # one value: fast
        parser = parse.PARSERS[spec.type]
        result = parser(value, spec.width) if spec.type == "parcel" else parser(value)
        if result is None:
            return None
        if isinstance(result, date) and result > today + FUTURE_SLACK:
            if strict:
                raise ValueError(f"'{parse.text(value)}' is more than a year in the future")
            return None  # an obviously wrong date is missing, not the record's date
        if spec.year_start:
            result = date(result if isinstance(result, int) else result.year, 1, 1)
        return result
    parts: list[Any] = [value]
    if spec.items is not None:
        parts = _json_items(value, spec.items)
    if spec.split is not None and isinstance(value, str):
        parts = value.split(spec.split)
    if spec.pattern is not None:
        parts = [_matched(spec.pattern, p) for p in parts]
    parser = parse.PARSERS[spec.type]
    results = []
    for part in parts:
        result = parser(part, spec.width) if spec.type == "parcel" else parser(part)
        if isinstance(result, date) and result > today + FUTURE_SLACK:
            if strict:
                raise ValueError(f"'{parse.text(part)}' is more than a year in the future")
            result = None  # an obviously wrong date is missing, not the record's date
        if spec.year_start and result is not None:
            result = date(result if isinstance(result, int) else result.year, 1, 1)
        if result is not None:
            results.append(result)
    if every:
        return tuple(results)
    return results[0] if results else None


def shown(value: Any) -> str:
    """A read value as an extra column's text: 'yes'/'no', an ISO date, else its text."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value.isoformat() if isinstance(value, date) else str(value)


def dotted(row: Mapping[str, Any], path: str) -> Any:
    """``listing_details.sale_date`` or ``status_history.0`` in nested JSON; None when absent."""
    value: Any = row
    for part in path.split("."):
        if isinstance(value, Mapping):
            value = value.get(part)
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


def template_parts(template: str) -> tuple[list[str], str]:
    """A template column's names and the template with them numbered ('{0} {1}'), for ``str.format``."""
    names = TEMPLATE_NAMES.findall(template)
    positional = template
    for index, name in enumerate(names):
        positional = positional.replace("{" + name, "{" + str(index), 1)
    return names, positional


def _json_items(value: Any, key: str) -> list[Any]:
    """Each object's ``key`` of a JSON array cell (a list, or its text in a CSV cell); [] when empty."""
    if isinstance(value, str):
        if not value.strip():
            return []
        try:
            value = json.loads(value)
        except ValueError:
            raise ValueError(f"'{value[:40]}' is not a JSON array") from None
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError("not a JSON array")
    return [item.get(key) for item in value if isinstance(item, Mapping)]


def _matched(pattern: str, value: Any) -> Any:
    text = parse.text(value)
    if text is None:
        return None
    match = re.search(pattern, text)
    if not match:
        raise ValueError(f"'{text}' is not in the expected form")
    return match.group(1)
