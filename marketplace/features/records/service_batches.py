"""One batch of public-record items written set-wise (``records.service`` runs it, one transaction
per batch): what every record means is decided in Python against the rows the batch reads up front, and
only the rows that differ are written, in bulk.

- reads: the batch's properties by ``(state, parcel_id)`` and by ``(address_key, zip_code)``, its signals,
  recorded sales and index points by key: one query each (PostgreSQL: a join to the unnested key arrays or
  ``= ANY`` of one array; SQLite: IN lists in chunks);
- decisions: record by record, in file order, exactly as one record at a time would decide them (a
  property added by an earlier record of the batch is found by a later one; rejections keep their order);
  ``map_property`` is the one step that turns a record into property columns;
- writes: new rows in one COPY per table on PostgreSQL (properties with ids drawn from their sequence
  first), one multi-row INSERT on SQLite (``bulk_rows``); changed rows on PostgreSQL COPYed into a staging
  table and merged with one ``UPDATE ... FROM`` per table that writes only the rows distinct from the
  stored ones, on SQLite one executemany UPDATE per table; properties first, then signals, sales and index
  points. Unchanged rows write nothing; a file row passed over unchanged (``KnownRow``: its digest is an open
  signal's) is counted from its signal's digest entry and never reaches the writes.

- leads: the batch's touched properties go to the leads' step (``records.service_leads.materialise``), less
  the ones it made that can make no lead (``leadless``: all their signals inserted by the batch, none current
  and of a lead-making kind, no recorded sale naming them): an import of history reads none of them back.

``record_steps.close_unseen_set`` closes a full run's unseen signals with one anti-join against a temporary table of the
keys the run saw.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Iterable

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from marketplace.features.records import (
    rules_arms_length as arms_length,
    rules_rows as record_rows,
    rules_signal_currency as signal_currency,
)
from marketplace.features.unlock import rules_guarantee as guarantee
from marketplace.features.records.rules_motivation import LEAD_TYPE_ORDER
from marketplace.features.records.rules_addresses import address_key, split_unit, zip5, zip_for_point
from marketplace.features.records.rules import FACT_KINDS, RECORD_KINDS, HpiPoint, KnownRow, MappedRecord, RejectedRow
from marketplace.features.records.service_seen_keys import unpack
from marketplace.platform.models import HpiPointRow, Property, PropertySignal, RecordedSale, utcnow
from marketplace.platform import bulk_rows
from marketplace.features.records import service_folds as record_folds
from marketplace.features.records import service_sales as record_sales

props_t = Property.__table__
signals_t = PropertySignal.__table__
sales_t = RecordedSale.__table__
hpi_t = HpiPointRow.__table__

# Property columns a record can change after the property exists (its address and ZIP are set once: when it
# is made, or when a record of a parcel-only property's parcel names them; they never change after).
UPDATE_COLUMNS = ("parcel_id", "address_key", "address", "unit", "zip_code", *record_rows.FACT_COLUMNS,
                  "facts_as_of", "facts_record", *record_rows.VALUE_COLUMNS, "value_dataset_id", "last_sale_price",
                  "last_sale_date", "absentee_owner", "out_of_state_owner", "bank_owned",
                  "roll_record", "roll_as_of")
INSERT_COLUMNS = ("state", *UPDATE_COLUMNS)
SIGNAL_COLUMNS = ("property_id", "kind", "sale_type", "as_of", "amount_owed", "years_owed", "delinquent_since",
                  "sale_date", "notice_date", "opening_bid", "details", "record_url", "status", "closed_reason",
                  "status_list")
SALE_COLUMNS = ("address", "zip_code", "price", "sale_date", "square_footage", "property_class", "state",
                "parcel_id", "deed_type", "excluded_reason")
LEAD_KINDS = tuple(kind for kind, _ in LEAD_TYPE_ORDER)  # the signal kinds that make a lead
# A status list's record whose property changed only by these (the list's day) leaves the property as it is.
STATUS_DAY_ONLY = {"facts_as_of"}


def _still_sold(stored: Any, values: dict) -> bool:
    """The same record of a signal a recorded sale closed ("sold on ... (recorded sale)",
    ``unlock.rules_guarantee.sold_after``): it stays closed (the sale still post-dates it); a record with new content
    (a newer list's as-of date) re-opens it as any change does."""
    return (stored.status == "closed" and (stored.closed_reason or "").startswith(guarantee.SOLD_PREFIX)
            and values.get("status") == "open"
            and all(getattr(stored, k) == v for k, v in values.items() if k not in ("status", "closed_reason")))


class _Row:
    """A property, signal or sale as the batch knows it: the stored row, then the batch's changes."""

    def __init__(self, values: dict, *, new: bool) -> None:
        self.__dict__.update(values)
        self.new = new
        self.dirty = False


@dataclass
class _Placed:
    index: int
    record: MappedRecord
    prop: _Row
    outcome: str            # the property's: added / updated / unchanged


def _chunks(values: list, size: int = bulk_rows.IN_CHUNK) -> Iterable[list]:
    for start in range(0, len(values), size):
        yield values[start:start + size]


def _in_chunk(conn: Connection) -> int:
    """Keys per look-up: all of them on PostgreSQL (one array parameter), ``bulk_rows.IN_CHUNK`` on SQLite."""
    return 1 << 30 if conn.dialect.name == "postgresql" else bulk_rows.IN_CHUNK


def _rows(conn: Connection, table: sa.Table, column: Any, values: Iterable, *where: Any) -> list[Any]:
    values = sorted(set(values), key=repr)
    out: list[Any] = []
    for chunk in _chunks(values, _in_chunk(conn)):
        out.extend(conn.execute(sa.select(table).where(bulk_rows.any_of(conn, column, chunk), *where)).all())
    return out


def _matching(conn: Connection, columns: tuple[Any, Any], pairs: list[tuple]) -> Any:
    """The properties whose two ``columns`` are one of ``pairs``: on PostgreSQL a join to the two key arrays
    unnested (one statement, index look-ups), elsewhere a tuple IN list."""
    if conn.dialect.name != "postgresql":
        return sa.select(props_t).where(sa.tuple_(*columns).in_(pairs))
    from sqlalchemy.dialects.postgresql import ARRAY

    keys = sa.func.unnest(*[sa.bindparam(None, [p[i] for p in pairs], type_=ARRAY(sa.Text)) for i in (0, 1)]) \
        .table_valued("a", "b").render_derived()
    return sa.select(props_t).join(keys, sa.and_(columns[0] == keys.c.a, columns[1] == keys.c.b))


def map_property(record: MappedRecord, existing: Any, dataset_id: str, state: str) -> dict:
    """One record -> the property columns it sets (only the values it has; ``records.rules_rows``)."""
    return record_rows.property_values(record, existing, dataset_id, state)


class Batch:
    """The items of one batch, decided then written (``write``)."""

    def __init__(self, run: Any) -> None:
        self.conn: Any = None
        self.run = run
        self.rejects: list[tuple[int, str]] = []
        self.places: list[tuple[int, MappedRecord, str, str | None, str, str | None, str, str | None]] = []
        self.sales: list[tuple[int, MappedRecord]] = []
        self.points: list[HpiPoint] = []
        self.folds: list[tuple[int, _Row]] = []  # (a stored parcel-only property's id, its twin): record_folds
        self.stored: dict[str, Any] = {}  # the batch's stored signals, by record key (``drop_seen_twice``)
        self.current: set[int] = set()  # the records (id()) of a lead-making kind that are current on the run's day
        self.leadless: dict[int, _Row] = {}  # new properties whose signals are all this batch's and make no lead

    def reject(self, index: int, reason: str) -> None:
        self.rejects.append((index, reason))

    # 1. what each item is (no reads)
    def sort(self, items: list[Any]) -> None:
        run, summary = self.run, self.run.summary
        for index, item in enumerate(items):
            summary.rows_read += 1
            if isinstance(item, KnownRow):
                self._known(index, item)
                continue
            if isinstance(item, RejectedRow):
                summary.unmapped += 1
                self.reject(index, f"row {item.row_number}: {item.reason}")
                continue
            if isinstance(item, HpiPoint):
                year_end = date(item.year, 12, 31)  # an annual index speaks for its year
                if summary.newest_as_of is None or year_end > summary.newest_as_of:
                    summary.newest_as_of = year_end
                self.points.append(item)
                continue
            if not isinstance(item, MappedRecord) or item.kind not in RECORD_KINDS:
                self.reject(index, f"record {getattr(item, 'record_key', '?')}: not a known record kind")
                continue
            if item.dataset_id != run.dataset.id:
                self.reject(index, f"record {item.record_key}: belongs to dataset {item.dataset_id}")
                continue
            fitted = record_rows.fitted(item)
            if isinstance(fitted, str):
                self.reject(index, f"record {item.record_key[:40]}: {fitted}")
                continue
            item = fitted
            if item.as_of and (summary.newest_as_of is None or item.as_of > summary.newest_as_of):
                summary.newest_as_of = item.as_of
            if item.kind == "recorded_sale":
                if item.sale_price is None or item.sale_date is None:
                    self.reject(index, f"record {item.record_key}: no sale price or date")
                else:
                    self.sales.append((index, item))
                continue
            if (item.row_digest is not None and item.row_digest in run.seen.rows) or not run.seen.add(item.record_key):
                # (a row the read passed over, met again: the reader maps its second occurrence)
                self.reject(index, f"record {item.record_key}: appears twice in this run")
                continue
            self._count_lead_record(item, 1)
            state = (item.state or run.state or "").upper()
            if len(state) != 2:
                self.reject(index, f"record {item.record_key}: no state")
                continue
            street, unit = split_unit(item.address, item.unit)
            key = address_key(street, unit)
            zip_code = zip5(item.zip_code) or (zip_for_point(item.latitude, item.longitude, state) if key else None)
            self.places.append((index, item, state, item.parcel_id or None, key, zip_code, street, unit))

    def _count_lead_record(self, item: MappedRecord, step: int) -> None:
        """Count (``step`` 1) or uncount (-1) a record of a lead-making kind, and whether it is history (a
        current one is remembered in ``self.current``: the signal it makes keeps or makes a lead)."""
        run, summary = self.run, self.run.summary
        if item.kind in LEAD_KINDS:
            summary.lead_records += step
            if signal_currency.record_history(item, getattr(run.dataset, "max_age_days", None), run.today,
                                              getattr(run.dataset, "status_list", False)):
                summary.history += step
            elif step > 0:
                self.current.add(id(item))
            else:
                self.current.discard(id(item))

    def _known(self, index: int, row: KnownRow) -> None:
        """A row an open signal was mapped from (``KnownRow``): counted unchanged and seen, as its signal
        says; refused as a record read twice when a changed row of this run already replaced its signal."""
        run, summary = self.run, self.run.summary
        twin = run.superseded.get(row.row_digest)
        if twin is not None:
            self.reject(index, f"record {twin}: appears twice in this run")
            return
        value = run.known.get(row.row_digest)
        run.seen.rows.add(row.row_digest)
        as_of, lead_kind, history = unpack(value)
        summary.unchanged += 1
        run.open_read += 1
        summary.lead_records += lead_kind
        summary.history += history
        if as_of and (summary.newest_as_of is None or as_of > summary.newest_as_of):
            summary.newest_as_of = as_of

    def drop_seen_twice(self) -> None:
        """Reject each record whose stored signal's row this run already passed over (``_known``): the same
        record key twice in one read, the known row first (in one batch, the known row is kept whatever the
        order: it was passed over before the batch's signals were read)."""
        self.stored = {r.record_key: r for r in _rows(
            self.conn, signals_t, signals_t.c.record_key,
            [item.record_key for _, item, *_ in self.places if item.kind not in FACT_KINDS],
            signals_t.c.dataset_id == self.run.dataset.id)}
        rows = self.run.seen.rows
        if not len(rows):
            return
        kept = []
        for place in self.places:
            index, item = place[0], place[1]
            stored = self.stored.get(item.record_key) if item.kind not in FACT_KINDS else None
            if stored is not None and stored.row_digest and stored.row_digest in rows:
                self.reject(index, f"record {item.record_key}: appears twice in this run")
                self._count_lead_record(item, -1)
                continue
            kept.append(place)
        self.places = kept

    # 2. the properties (one read by parcel, one by address; then one INSERT and one UPDATE)
    def place(self) -> list[_Placed]:
        """Each record's property, parcel first (``records.rules_rows.property_for``): by ``(state, parcel_id)``
        when the record has a parcel id, else by ``(address_key, zip_code)``. A record with a parcel id and no
        street address (or no ZIP) keeps a parcel-only property (no address) until a record of the same
        parcel names them."""
        conn, run = self.conn, self.run
        known: dict[int, _Row] = {}                             # every property read, by id
        by_parcel: dict[tuple[str, str], _Row] = {}
        by_address: dict[tuple[str, str], list[_Row]] = {}      # all the properties at an address

        def remember(row: Any) -> None:
            prop = known.get(row.id)
            if prop is None:
                prop = known[row.id] = _Row(row._asdict(), new=False)
                if prop.parcel_id:
                    by_parcel[(prop.state, prop.parcel_id)] = prop
                if prop.address_key and prop.zip_code:
                    by_address.setdefault((prop.address_key, prop.zip_code), []).append(prop)

        parcels = {(state, parcel) for _, _, state, parcel, *_ in self.places if parcel}
        addresses = {(key, zip_code) for _, _, _, _, key, zip_code, *_ in self.places if key and zip_code}
        for chunk in _chunks(sorted(parcels), _in_chunk(conn)):
            for row in conn.execute(_matching(conn, (props_t.c.state, props_t.c.parcel_id), chunk)):
                remember(row)
        for chunk in _chunks(sorted(addresses), _in_chunk(conn)):
            for row in conn.execute(_matching(conn, (props_t.c.address_key, props_t.c.zip_code), chunk)):
                remember(row)
        for rows in by_address.values():
            rows.sort(key=lambda prop: prop.id)  # the oldest property at an address first, however read
        placed: list[_Placed] = []
        dataset_id = run.dataset.id
        status_list = getattr(run.dataset, "status_list", False)
        for index, item, state, parcel, key, zip_code, street, unit in self.places:
            addressed = bool(key and zip_code)
            existing = record_rows.property_for(by_parcel, by_address, state, parcel, key if addressed else None,
                                                zip_code)
            if existing is not None and addressed and parcel and not existing.address_key:
                # The parcel's street named at last: a property made there without a parcel id is the same one.
                twin = next((p for p in by_address.get((key, zip_code), ()) if not p.parcel_id), None)
                if twin is not None and record_folds.foldable(conn, existing, twin):
                    record_folds.fold(existing, twin, placed, UPDATE_COLUMNS)
                    if not existing.new:
                        self.folds.append((existing.id, twin))
                    by_parcel[(state, parcel)] = existing = twin
            if existing is None:
                if not parcel and not key:
                    self.reject(index, f"record {item.record_key}: no address")
                    continue
                if not parcel and not zip_code:
                    self.reject(index, f"record {item.record_key}: no ZIP")
                    continue
                values = dict.fromkeys(INSERT_COLUMNS)
                values.update(state=state, parcel_id=parcel, id=None)
                if addressed:
                    values.update(address_key=key, address=street, unit=unit, zip_code=zip_code)
                values.update(map_property(item, None, dataset_id, state))
                prop = _Row(values, new=True)
                if addressed:
                    by_address.setdefault((key, zip_code), []).append(prop)
                if parcel:
                    by_parcel[(state, parcel)] = prop
                placed.append(_Placed(index, item, prop, "added"))
                continue
            values = map_property(item, existing, dataset_id, state)
            if parcel and not existing.parcel_id:
                values["parcel_id"] = parcel
                by_parcel[(state, parcel)] = existing
            if addressed and not existing.address_key:  # a parcel-only property gets its street address
                values.update(address_key=key, address=street, unit=unit, zip_code=zip_code)
                by_address.setdefault((key, zip_code), []).append(existing)
            changed = {k: v for k, v in values.items() if getattr(existing, k) != v}
            if status_list and set(changed) <= STATUS_DAY_ONLY:
                changed = {}  # the same item on a newer list: nothing to write (its day moves per dataset)
            if changed:
                existing.__dict__.update(changed)
                existing.dirty = True
            placed.append(_Placed(index, item, existing, "updated" if changed else "unchanged"))
        self._write_properties(placed)
        return placed

    def _write_properties(self, placed: list[_Placed]) -> None:
        now = utcnow()
        record_folds.write(self.conn, [(old_id, twin.id) for old_id, twin in self.folds])
        self.run.touched.update(twin.id for _, twin in self.folds)
        new = list({id(p.prop): p.prop for p in placed if p.prop.new}.values())
        if new:
            rows = [{**{c: getattr(p, c) for c in INSERT_COLUMNS}, "created_at": now, "updated_at": now} for p in new]
            if self.conn.dialect.name == "postgresql":  # ids from the sequence, then one COPY
                for prop, row, new_id in zip(new, rows, bulk_rows.new_ids(self.conn, props_t, len(new))):
                    prop.id = row["id"] = new_id
                bulk_rows.insert_rows(self.conn, props_t, rows)
            else:
                ids = self.conn.execute(sa.insert(props_t).returning(props_t.c.id, sort_by_parameter_order=True),
                                        rows).scalars().all()
                for prop, new_id in zip(new, ids):
                    prop.id = new_id
        dirty = list({id(p.prop): p.prop for p in placed if p.prop.dirty and not p.prop.new}.values())
        bulk_rows.update_rows(self.conn, props_t, [{c: getattr(p, c) for c in ("id", *UPDATE_COLUMNS)}
                                                   for p in dirty], UPDATE_COLUMNS, {"updated_at": now})

    # 3. the signals of the placed records (one read, one INSERT, one UPDATE)
    def signals(self, placed: list[_Placed]) -> None:
        conn, run = self.conn, self.run
        for p in placed:
            if p.outcome != "unchanged":
                run.touched.add(p.prop.id)
        signal_places = [p for p in placed if p.record.kind not in FACT_KINDS]
        for p in placed:
            if p.record.kind in FACT_KINDS:
                run.count(p.outcome)
        existing = self.stored
        now = run.retrieved_at
        inserts, updates, redigests = [], [], []
        status_list = getattr(run.dataset, "status_list", False)
        # A status list's item still on a newer list is unchanged: its day moves with one UPDATE of the
        # dataset's open signals after a full read (record_steps.date_open_items), not a write per row.
        compared = [c for c in SIGNAL_COLUMNS if not (status_list and c == "as_of")]
        fresh: dict[int, bool] = {}  # a new property's signals, all inserted here: is one of them current?
        moved: set[int] = set()
        for p in signal_places:
            values = record_rows.signal_values(p.record, p.prop.id, run.today, status_list)
            run.open_read += values["status"] == "open"
            stored = existing.get(p.record.record_key)
            # A status list's rows are all read (each takes the list's day): no digest to keep, none to write.
            digest = None if status_list else p.record.row_digest
            if stored is None:
                inserts.append(dict(values, dataset_id=p.record.dataset_id, record_key=p.record.record_key,
                                    first_seen_at=now, last_seen_at=now, retrieved_at=now,
                                    portal_updated_at=getattr(p.record, "portal_updated_at", None),
                                    closed_at=now if values["status"] == "closed" else None, row_digest=digest))
                run.touched.add(p.prop.id)
                run.count("added")
                if p.prop.new:
                    fresh[p.prop.id] = fresh.get(p.prop.id, False) or id(p.record) in self.current
                continue
            moved.add(p.prop.id)  # a stored signal (of this property or moved to it): the leads read it
            if stored.row_digest and stored.row_digest != digest:
                run.superseded[stored.row_digest] = stored.record_key  # met later in the read: a twin
            if all(getattr(stored, k) == values[k] for k in compared) or _still_sold(stored, values):
                if digest is not None and stored.row_digest != digest:  # the same record from a new row
                    redigests.append({"id": stored.id, "row_digest": digest})
                run.count("unchanged" if p.outcome == "unchanged" else "updated")
                continue
            updates.append({**values, "id": stored.id, "row_digest": digest,
                            "closed_at": (stored.closed_at or now) if values["status"] == "closed" else None})
            run.touched.update({p.prop.id, stored.property_id})
            run.count("updated")
        bulk_rows.insert_rows(conn, signals_t, inserts)
        bulk_rows.update_rows(conn, signals_t, updates, (*SIGNAL_COLUMNS, "closed_at", "row_digest"),
                              {"last_seen_at": now, "retrieved_at": now})
        bulk_rows.update_rows(conn, signals_t, redigests, ("row_digest",))
        self._note_leadless(placed, fresh, moved)

    def _note_leadless(self, placed: list[_Placed], fresh: dict[int, bool], moved: set[int]) -> None:
        """The properties made by this batch that cannot make a lead (``self.leadless``): every signal they
        hold was inserted here and none is a current lead-making one (``self.current``: a record of a lead-making
        kind that is not history is the current signal the leads would find); a fold's twin holds another
        property's signals and is never one. Reading them back for their leads would find no lead to write
        (``drop_sold`` keeps the ones a recorded sale names, whose signals the leads close)."""
        twins = {id(twin) for _, twin in self.folds}
        for p in placed:
            prop = p.prop
            if prop.new and id(prop) not in twins and prop.id not in moved and not fresh.get(prop.id, False):
                self.leadless[prop.id] = prop

    def drop_sold(self, titles: Any) -> None:
        """Keep out of ``leadless`` the properties a recorded sale names (``records.service_sales.parcel_sales``):
        the leads' step closes the signals such a sale shows a new owner after."""
        if not self.leadless:
            return
        sold = record_sales.parcel_sales(self.conn, self.leadless.values(), titles)
        for pid, sales in sold.items():
            if sales:
                del self.leadless[pid]

    # 4. recorded sales and index points
    def write_sales(self) -> None:
        conn, run = self.conn, self.run
        if not self.sales:
            return
        stored = {r.record_key: _Row(r._asdict(), new=False) for r in _rows(
            conn, sales_t, sales_t.c.record_key, [r.record_key for _, r in self.sales],
            sales_t.c.dataset_id == run.dataset.id)}
        publisher = _sales_publisher(run.dataset)
        for _, record in self.sales:
            values = {"address": record.address, "zip_code": zip5(record.zip_code), "price": record.sale_price,
                      "sale_date": record.sale_date, "square_footage": record.square_footage,
                      "property_class": record.property_class,
                      "state": (record.state or run.state or "").upper()[:2] or None,
                      "parcel_id": record.parcel_id or None, "deed_type": arms_length.deed_type(record.extra),
                      "excluded_reason": arms_length.excluded_reason(record.sale_price, record.extra, publisher)}
            sale = stored.get(record.record_key)
            if values["parcel_id"] and values["state"]:
                run.sale_parcels.add((values["state"], values["parcel_id"]))  # the parcel's leads read it
            if sale is None:
                stored[record.record_key] = _Row(dict(values, id=None, record_key=record.record_key), new=True)
                run.sale_zips.add(values["zip_code"] or "")
                run.count("added")
                continue
            changed = {k: v for k, v in values.items() if getattr(sale, k) != v}
            if not changed:
                run.count("unchanged")
                continue
            run.sale_zips.update({values["zip_code"] or "", sale.zip_code or ""})
            sale.__dict__.update(changed)
            sale.dirty = True
            run.count("updated")
        new = [s for s in stored.values() if s.new]
        bulk_rows.insert_rows(conn, sales_t, [{**{c: getattr(s, c) for c in SALE_COLUMNS}, "record_key": s.record_key,
                                               "dataset_id": run.dataset.id, "retrieved_at": run.retrieved_at}
                                              for s in new])
        dirty = [s for s in stored.values() if s.dirty and not s.new]
        bulk_rows.update_rows(conn, sales_t, [{c: getattr(s, c) for c in ("id", *SALE_COLUMNS)} for s in dirty],
                              SALE_COLUMNS, {"retrieved_at": run.retrieved_at})

    def write_points(self) -> None:
        conn, run = self.conn, self.run
        if not self.points:
            return
        stored: dict[tuple[str, str, int], _Row] = {}
        for row in _rows(conn, hpi_t, hpi_t.c.zip3, [p.zip3 for p in self.points]):
            stored.setdefault((row.dataset_id, row.zip3, row.year), _Row(row._asdict(), new=False))
        for point in self.points:
            key = (point.dataset_id, point.zip3, point.year)
            row = stored.get(key)
            if row is None:
                stored[key] = _Row({"id": None, "dataset_id": point.dataset_id, "zip3": point.zip3, "year": point.year,
                                    "index": point.index, "annual_change": point.annual_change}, new=True)
                run.hpi_zip3s.add(point.zip3)
                run.count("added")
            elif row.index == point.index and row.annual_change == point.annual_change:
                run.count("unchanged")
            else:
                row.index, row.annual_change, row.dirty = point.index, point.annual_change, True
                run.hpi_zip3s.add(point.zip3)
                run.count("updated")
        columns = ("dataset_id", "zip3", "year", "index", "annual_change")
        new = [r for r in stored.values() if r.new]
        bulk_rows.insert_rows(conn, hpi_t, [{c: getattr(r, c) for c in columns} for r in new])
        dirty = [r for r in stored.values() if r.dirty and not r.new]
        bulk_rows.update_rows(conn, hpi_t, [{"id": r.id, "index": r.index, "annual_change": r.annual_change}
                                            for r in dirty], ("index", "annual_change"))


def _sales_publisher(dataset: Any) -> str:
    """Who flags a sales dataset's sales: the market's roll publisher ('Cook County Assessor'), else the
    dataset's publisher."""
    from marketplace.features.records.source_opendata.markets import market_of

    market = market_of(getattr(dataset, "id", ""))
    return (market.roll_publisher if market is not None else "") or getattr(dataset, "publisher", "") or ""


def prepare(run: Any, items: list[Any]) -> Batch:
    """What each item of a batch is (fitted, counted, located): pure work, done before the batch's
    transaction opens (on SQLite the transaction holds the database's write lock)."""
    batch = Batch(run)
    batch.sort(items)
    return batch


def write_batch(conn: Connection, batch: Batch) -> None:
    """Store a prepared batch (inside the caller's transaction); counts, rejections, touched properties and
    the seen keys go to the run."""
    batch.conn = conn
    batch.drop_seen_twice()
    placed = batch.place()
    batch.signals(placed)
    batch.write_sales()
    batch.write_points()
    note_rejections(batch)


def nothing_to_write(batch: Batch) -> bool:
    """A prepared batch of known rows and rejections only: no transaction needed (``note_rejections``)."""
    return not (batch.places or batch.sales or batch.points)


def note_rejections(batch: Batch) -> None:
    for _, reason in sorted(batch.rejects, key=lambda r: r[0]):
        batch.run.reject(reason)
