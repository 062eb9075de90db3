"""A file row's digest: what lets a re-import pass over the rows it already stored without mapping them.

``fingerprint(dataset, form, *days)`` names how a file's rows are mapped: the dataset's definition (its
fields, constants, key), the form (file or API names), the days the read gives the rows (a file's as-of
day, an operator's ``--as-of``, the sale day in the file's name) and the records code itself (every source
file of ``marketplace/features/records``: a release that changes how a row maps makes every row new again,
once). ``row_digest(fingerprint, row)`` is a 63-bit digest (BLAKE2b) of that fingerprint and the row's
column names and values: the same digest means the same row read the same way, so it maps to the same
record. It never depends on the day of the read: a row stored by one read maps the same on a later day (a
date too far in the future is rejected, and a stored row's dates only fall further behind).
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

_RECORDS = Path(__file__).resolve().parent.parent  # marketplace/features/records
MASK = (1 << 63) - 1  # a PostgreSQL BIGINT holds it


@lru_cache(maxsize=1)
def code_digest() -> bytes:
    """A digest of the records code and dataset files (read once per process)."""
    h = hashlib.blake2b(digest_size=16)
    for path in sorted(p for p in _RECORDS.rglob("*") if p.suffix in (".py", ".toml") and p.is_file()):
        h.update(str(path.relative_to(_RECORDS)).encode())
        h.update(path.read_bytes())
    return h.digest()


def fingerprint(dataset: Any, form: str, *days: Any) -> bytes:
    """How a read maps its rows (module docstring), as bytes every row digest starts from."""
    h = hashlib.blake2b(digest_size=16)
    h.update(code_digest())
    h.update(repr(dataset).encode())
    h.update(form.encode())
    h.update(repr(days).encode())
    return h.digest()


def row_digest(start: bytes, row: Mapping[str, Any]) -> int:
    """The row's digest (module docstring): never 0 (an empty slot of ``records.service_seen_keys``)."""
    try:
        body = "\x1f".join(row) + "\x1e" + "\x1f".join(row.values())
    except TypeError:  # a JSON row: values of any type, nested
        body = json.dumps(row, sort_keys=True, default=str)
    digest = hashlib.blake2b(start + body.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return (int.from_bytes(digest, "big") & MASK) or 1
