"""A parcel-only property folded into the address's own property (``record_batches.Batch.place``).

A record with only a parcel id (Cook's tax sale) keeps a parcel-only property until a record of the same
parcel names its street. If a record without a parcel id (Chicago's vacant-building violations) already
made a property at that street, the two are one building: the parcel-only property folds into the
address's property, which adopts the parcel id. Its signals move over, the facts it alone holds fill the
gaps, and its row goes. So the datasets' order never matters: roll before or after the tax sale, one
property, one lead, with both signals stacked.

A parcel-only property never has a lead (it has no street address); one that has (a lead left by older
code) is not folded, so no lead, unlock or pipeline row is ever re-pointed.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Iterable

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from marketplace.features.records import rules_rows as record_rows
from marketplace.platform.models import Lead, Property, PropertySignal

props_t, signals_t, leads_t = Property.__table__, PropertySignal.__table__, Lead.__table__
# The twin keeps its own place; the parcel id comes from the record that folds them.
_PLACE = frozenset({"parcel_id", "address_key", "address", "unit", "zip_code"})


def foldable(conn: Connection, parcel_only: Any, twin: Any) -> bool:
    """Whether ``parcel_only`` may fold into ``twin``: a stored twin without a parcel id, and a parcel-only
    property that has no lead."""
    if twin.new or twin.parcel_id or twin is parcel_only:
        return False
    if parcel_only.new:
        return True
    return conn.execute(sa.select(leads_t.c.id).where(leads_t.c.property_id == parcel_only.id)).first() is None


def _newer(mine: Any, theirs: Any, as_of: str, record: str) -> bool:
    """Whether ``mine``'s record (its as-of, then its mark) is at least as new as ``theirs``'s: the rule by
    which a record's facts replace a property's (``records.rules_rows.property_values``)."""
    return getattr(mine, record) is not None and \
        (getattr(mine, as_of) or date.min, getattr(mine, record)) >= \
        (getattr(theirs, as_of) or date.min, getattr(theirs, record) or "")


def _take(twin: Any, parcel_only: Any, columns: Iterable[str]) -> None:
    for column in columns:
        mine = getattr(parcel_only, column)
        if mine is not None and getattr(twin, column) != mine:
            setattr(twin, column, mine)
            twin.dirty = True


def fold(parcel_only: Any, twin: Any, placed: Iterable[Any], columns: Iterable[str]) -> None:
    """In the batch's rows: the two properties' facts merged as their records would have merged on one
    property (the newer facts record's facts, values and mark win; the newer roll record is the one
    linked; the rest fills gaps), and the batch's records placed on ``parcel_only`` are placed on
    ``twin`` (whose property row the batch then updates). So importing any of their records again
    changes nothing."""
    if _newer(parcel_only, twin, "facts_as_of", "facts_record"):
        _take(twin, parcel_only, (*record_rows.FACT_COLUMNS, *record_rows.VALUE_COLUMNS, "value_dataset_id",
                                  "facts_as_of", "facts_record"))
    if _newer(parcel_only, twin, "roll_as_of", "roll_record"):
        _take(twin, parcel_only, ("roll_record", "roll_as_of"))
    for column in columns:
        if column in _PLACE:
            continue
        mine = getattr(parcel_only, column)
        if mine is not None and getattr(twin, column) is None:
            setattr(twin, column, mine)
            twin.dirty = True
    for p in placed:
        if p.prop is parcel_only:
            p.prop = twin


def write(conn: Connection, folds: list[tuple[int, int]]) -> None:
    """Each stored parcel-only property's signals moved to its twin, then its row deleted (before the twin
    takes its parcel id: one property per parcel)."""
    for old_id, twin_id in folds:
        conn.execute(sa.update(signals_t).where(signals_t.c.property_id == old_id).values(property_id=twin_id))
        conn.execute(sa.delete(props_t).where(props_t.c.id == old_id))
