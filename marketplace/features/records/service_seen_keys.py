"""A run's seen record keys in little memory: which keys a full read saw (a key seen twice is rejected)
and, at the end, every key seen, for closing the signals the read did not see; the row digests of the
rows it passed over unchanged (``SeenKeys.rows``); the digests a dataset's open signals hold
(``DigestMap``)."""

from __future__ import annotations

import hashlib
import json
import tempfile
from datetime import date
from typing import Any, Iterator

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from marketplace.features.records.rules_digests import DigestMap, DigestSet


class SeenKeys:
    """The record keys a run has seen, in little memory: an 8-byte digest of each in a flat hash table (to
    find a key seen twice; two keys sharing a digest, about 1 in 10^10 for a million keys, would reject the
    second), the keys themselves in a temporary file (for closing the ones not seen)."""

    def __init__(self) -> None:
        self._digests = DigestSet()
        self._file: Any = None
        self.count = 0
        self.rows = DigestSet()  # the row digests of the known rows passed over (``records.rules.KnownRow``)

    @staticmethod
    def _digest(key: str) -> int:
        return int.from_bytes(hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest(), "big") or 1

    def add(self, key: str) -> bool:
        """Whether the key is new (then it is remembered)."""
        if not self._digests.add(self._digest(key)):
            return False
        if self._file is None:
            self._file = tempfile.TemporaryFile("w+", encoding="utf-8")
        self._file.write(json.dumps(key) + "\n")
        self.count += 1
        return True

    def __contains__(self, key: str) -> bool:
        return self._digest(key) in self._digests

    def keys(self) -> Iterator[str]:
        if self._file is None:
            return
        self._file.seek(0)
        for line in self._file:
            yield json.loads(line)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def pack(as_of: date | None, lead_kind: bool, history: bool) -> int:
    """A known row's value in a ``DigestMap``: its as-of day, whether it makes leads, whether it is history."""
    return ((as_of.toordinal() if as_of else 0) << 2) | (2 if history else 0) | (1 if lead_kind else 0)


def unpack(value: int) -> tuple[date | None, bool, bool]:
    day = value >> 2
    return (date.fromordinal(day) if day else None), bool(value & 1), bool(value & 2)


def known_rows(conn: Connection, dataset_id: str, max_age_days: int | None, today: date,
               expected: int = 0) -> DigestMap:
    """The row digests the dataset's open signals hold, each with what the run counts of a row it passes
    over (``pack``): its as-of day, whether its kind makes leads and whether it is history on ``today``
    (``records.rules_signal_currency``, on the signal's own columns). One query grouped by those columns
    (many signals share their dates): the rule is asked once per group, the digests come as one array per
    group (PostgreSQL) or one list in text (SQLite). ``expected``: about how many (the map's size)."""
    from marketplace.features.records import rules_signal_currency as signal_currency
    from marketplace.features.records.rules_motivation import LEAD_TYPE_ORDER
    from marketplace.platform.models import PropertySignal

    signals_t = PropertySignal.__table__
    lead_kinds = {kind for kind, _ in LEAD_TYPE_ORDER}
    dating = [signals_t.c[name] for name in signal_currency.READS]
    postgres = conn.dialect.name == "postgresql"
    digests = (sa.func.array_agg(signals_t.c.row_digest) if postgres
               else sa.func.group_concat(signals_t.c.row_digest)).label("digests")
    known = DigestMap(expected)
    for row in conn.execute(sa.select(*dating, digests).where(
            signals_t.c.dataset_id == dataset_id, signals_t.c.status == "open",
            signals_t.c.row_digest.is_not(None)).group_by(*dating)):
        lead = row.kind in lead_kinds
        history = lead and signal_currency.closes_because(row, max_age_days, today) is not None
        value = pack(row.as_of, lead, history)
        for digest in (row.digests if postgres else map(int, row.digests.split(","))):
            known.put(digest, value)
    return known
