"""Public-record ingestion (issue 23): mapped records -> properties, signals, recorded sales, the HPI,
then the leads of the touched properties (``services.record_leads``).

``ingest(dataset, records, mode=..., retrieved_at=...)`` is idempotent:

- records are written in batches of ``BATCH_SIZE``, one transaction each; a ``dataset_runs`` row is
  created first (status running) and completed at the end (ok, or failed with the error);
- a property is found by parcel id within its state when the record has one, else by address key + ZIP
  (``core.addresses``); a record without a ZIP gets the nearest ZIP centre of its coordinates
  (``zip_for_point``), else it is rejected ("no ZIP"). A record value replaces a property value only when
  the record has one (missing values never erase);
- a signal is keyed by (dataset_id, record_key): the same content is *unchanged* (nothing written), other
  content *updated*; a ``sale_list`` signal whose sale date has passed is stored closed ("sale held on
  ...");
- with ``full=True`` (a whole dataset was read) every open signal of the dataset that this run did not see
  is closed ("no longer in the dataset as of <date>"), unless the portal returned no rows or more than
  ``MAX_UNMAPPED_SHARE`` of the rows could not be read (then nothing closes and the run warns);
  ``full=False`` (a partial import) never closes;
- ``assessment`` records fill the property's facts and values, ``recorded_sale`` records go to
  ``recorded_sales``, ``HpiPoint`` to ``hpi_points``, ``RejectedRow`` is counted;
- the run records the newest ``as_of`` and, when it is older than the dataset's maximum age, the warning
  "records are as of <date>, N days old: stale".

Ingesting the same records twice writes nothing but the run row: every count is ``unchanged``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, Iterable

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from marketplace.core import record_rows
from marketplace.core.addresses import address_key, split_unit, zip5, zip_for_point
from marketplace.core.records import FACT_KINDS, RECORD_KINDS, HpiPoint, MappedRecord, RejectedRow
from marketplace.db import session_scope
from marketplace.models import DatasetRun, HpiPointRow, Property, PropertySignal, RecordedSale, utcnow
from marketplace.services import record_leads
from marketplace.services.record_leads import dataset_titles
from marketplace.services.marketplace import rebuild_facets

log = logging.getLogger("marketplace.public_records")

BATCH_SIZE = 500
RUN_LOCK = 724023                       # pg_advisory_xact_lock class of "one run per dataset"
RUN_STALE_AFTER = timedelta(hours=6)    # a run "running" longer than this died: another may start


class RunInProgress(ValueError):
    """Another ingestion of the same dataset is running: two at once would race on the same rows."""

MAX_REJECTIONS_KEPT = 20  # reasons listed in the summary (all are counted)

props_t = Property.__table__
signals_t = PropertySignal.__table__
sales_t = RecordedSale.__table__
hpi_t = HpiPointRow.__table__
runs_t = DatasetRun.__table__



@dataclass
class RunSummary:
    """One ingestion's counts (records, except ``closed`` = signals and ``archived`` = leads)."""

    dataset_id: str
    mode: str
    run_id: int | None = None
    status: str = "running"
    rows_read: int = 0
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    closed: int = 0
    archived: int = 0
    rejected: int = 0
    unmapped: int = 0           # of the rejected: rows the mapping could not read (RejectedRow)
    leads_added: int = 0
    leads_updated: int = 0
    newest_as_of: date | None = None
    warning: str | None = None
    error: str | None = None
    rejections: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {k: (v.isoformat() if isinstance(v, date) else v) for k, v in self.__dict__.items()}


def stale_warning(newest_as_of: date | None, max_age_days: int | None, today: date) -> str | None:
    """'records are as of 2016-07-31, 3770 days old: stale' when the newest record is older than allowed."""
    if newest_as_of is None or not max_age_days:
        return None
    age = (today - newest_as_of).days
    if age <= max_age_days:
        return None
    return f"records are as of {newest_as_of.isoformat()}, {age} days old: stale"


class _Run:
    """The state of one ingestion across its batches."""

    def __init__(self, dataset: Any, summary: RunSummary, retrieved_at: datetime, today: date):
        self.dataset = dataset
        constants = getattr(dataset, "constants", None) or {}
        self.state = (getattr(dataset, "state", None) or constants.get("state") or "").upper() or None
        self.summary = summary
        self.retrieved_at = retrieved_at
        self.today = today
        self.seen: set[str] = set()
        self.touched: set[int] = set()
        self.sale_zips: set[str] = set()    # ZIPs whose recorded sales changed (ARV)
        self.hpi_zip3s: set[str] = set()    # ZIP3 areas whose index changed (market value)

    def reject(self, reason: str) -> None:
        self.summary.rejected += 1
        if len(self.summary.rejections) < MAX_REJECTIONS_KEPT:
            self.summary.rejections.append(reason)

    def count(self, outcome: str) -> None:
        setattr(self.summary, outcome, getattr(self.summary, outcome) + 1)


def _find_property(conn: Connection, state: str, parcel_id: str | None, key: str, zip_code: str | None):
    if parcel_id:
        row = conn.execute(sa.select(props_t).where(props_t.c.state == state, props_t.c.parcel_id == parcel_id)).first()
        if row is not None:
            return row
    if key and zip_code:
        return conn.execute(sa.select(props_t).where(props_t.c.address_key == key,
                                                     props_t.c.zip_code == zip_code)).first()
    return None


def _upsert_property(conn: Connection, run: _Run, record: MappedRecord) -> tuple[int, str] | str:
    """(property id, 'added' | 'updated' | 'unchanged'), or the reason the record is rejected."""
    state = (record.state or run.state or "").upper()
    if len(state) != 2:
        return "no state"
    parcel = record.parcel_id or None
    street, unit = split_unit(record.address, record.unit)
    key = address_key(street, unit)
    zip_code = zip5(record.zip_code) or (zip_for_point(record.latitude, record.longitude, state) if key else None)
    existing = _find_property(conn, state, parcel, key, zip_code)
    if existing is None:
        if not key:
            return "no address"
        if not zip_code:
            return "no ZIP"
        values = record_rows.property_values(record, None, run.dataset.id, state)
        now = utcnow()
        new_id = conn.execute(sa.insert(props_t).values(
            address_key=key, address=street, unit=unit, state=state, zip_code=zip_code, parcel_id=parcel,
            created_at=now, updated_at=now, **values).returning(props_t.c.id)).scalar_one()
        return new_id, "added"
    if parcel and existing.parcel_id and existing.parcel_id != parcel:
        return f"address matches parcel {existing.parcel_id}, record has parcel {parcel}"
    values = record_rows.property_values(record, existing, run.dataset.id, state)
    if parcel and not existing.parcel_id:
        values["parcel_id"] = parcel
    changed = {k: v for k, v in values.items() if getattr(existing, k) != v}
    if not changed:
        return existing.id, "unchanged"
    conn.execute(sa.update(props_t).where(props_t.c.id == existing.id).values(updated_at=utcnow(), **changed))
    return existing.id, "updated"


def _upsert_signal(conn: Connection, run: _Run, record: MappedRecord, property_id: int) -> str:
    values = record_rows.signal_values(record, property_id, run.today)
    existing = conn.execute(sa.select(signals_t).where(signals_t.c.dataset_id == record.dataset_id,
                                                       signals_t.c.record_key == record.record_key)).first()
    now = run.retrieved_at
    if existing is None:
        conn.execute(sa.insert(signals_t).values(
            dataset_id=record.dataset_id, record_key=record.record_key, first_seen_at=now, last_seen_at=now,
            retrieved_at=now, closed_at=now if values["status"] == "closed" else None, **values))
        run.touched.add(property_id)
        return "added"
    changed = {k: v for k, v in values.items() if getattr(existing, k) != v}
    if not changed:
        return "unchanged"
    changed.update(last_seen_at=now, retrieved_at=now,
                   closed_at=(existing.closed_at or now) if values["status"] == "closed" else None)
    conn.execute(sa.update(signals_t).where(signals_t.c.id == existing.id).values(**changed))
    run.touched.update({property_id, existing.property_id})
    return "updated"


def _upsert_sale(conn: Connection, run: _Run, record: MappedRecord) -> str:
    if record.sale_price is None or record.sale_date is None:
        return "no sale price or date"
    values = {"address": record.address, "zip_code": zip5(record.zip_code), "price": record.sale_price,
              "sale_date": record.sale_date, "square_footage": record.square_footage,
              "property_class": record.property_class}
    existing = conn.execute(sa.select(sales_t).where(sales_t.c.dataset_id == record.dataset_id,
                                                     sales_t.c.record_key == record.record_key)).first()
    if existing is None:
        conn.execute(sa.insert(sales_t).values(dataset_id=record.dataset_id, record_key=record.record_key,
                                               retrieved_at=run.retrieved_at, **values))
        run.sale_zips.add(values["zip_code"] or "")
        return "added"
    changed = {k: v for k, v in values.items() if getattr(existing, k) != v}
    if not changed:
        return "unchanged"
    run.sale_zips.update({values["zip_code"] or "", existing.zip_code or ""})
    conn.execute(sa.update(sales_t).where(sales_t.c.id == existing.id).values(retrieved_at=run.retrieved_at, **changed))
    return "updated"


def _upsert_hpi(conn: Connection, point: HpiPoint) -> str:
    existing = conn.execute(sa.select(hpi_t).where(hpi_t.c.dataset_id == point.dataset_id, hpi_t.c.zip3 == point.zip3,
                                                   hpi_t.c.year == point.year)).first()
    if existing is None:
        conn.execute(sa.insert(hpi_t).values(dataset_id=point.dataset_id, zip3=point.zip3, year=point.year,
                                             index=point.index, annual_change=point.annual_change))
        return "added"
    if existing.index == point.index and existing.annual_change == point.annual_change:
        return "unchanged"
    conn.execute(sa.update(hpi_t).where(hpi_t.c.id == existing.id).values(index=point.index,
                                                                          annual_change=point.annual_change))
    return "updated"


def _one(conn: Connection, run: _Run, item: Any) -> None:
    run.summary.rows_read += 1
    if isinstance(item, RejectedRow):
        run.summary.unmapped += 1
        run.reject(f"row {item.row_number}: {item.reason}")
        return
    if isinstance(item, HpiPoint):
        year_end = date(item.year, 12, 31)  # an annual index speaks for its year
        if run.summary.newest_as_of is None or year_end > run.summary.newest_as_of:
            run.summary.newest_as_of = year_end
        outcome = _upsert_hpi(conn, item)
        if outcome != "unchanged":
            run.hpi_zip3s.add(item.zip3)
        run.count(outcome)
        return
    if not isinstance(item, MappedRecord) or item.kind not in RECORD_KINDS:
        run.reject(f"record {getattr(item, 'record_key', '?')}: not a known record kind")
        return
    if item.dataset_id != run.dataset.id:
        run.reject(f"record {item.record_key}: belongs to dataset {item.dataset_id}")
        return
    fitted = record_rows.fitted(item)
    if isinstance(fitted, str):
        run.reject(f"record {item.record_key[:40]}: {fitted}")
        return
    item = fitted
    if item.as_of and (run.summary.newest_as_of is None or item.as_of > run.summary.newest_as_of):
        run.summary.newest_as_of = item.as_of
    if item.kind == "recorded_sale":
        outcome = _upsert_sale(conn, run, item)
        if outcome in ("added", "updated", "unchanged"):
            run.count(outcome)
        else:
            run.reject(f"record {item.record_key}: {outcome}")
        return
    if item.record_key in run.seen:
        run.reject(f"record {item.record_key}: appears twice in this run")
        return
    run.seen.add(item.record_key)
    found = _upsert_property(conn, run, item)
    if isinstance(found, str):
        run.reject(f"record {item.record_key}: {found}")
        return
    property_id, property_outcome = found
    if property_outcome != "unchanged":
        run.touched.add(property_id)
    if item.kind in FACT_KINDS:
        run.count(property_outcome)
        return
    outcome = _upsert_signal(conn, run, item, property_id)
    run.count(outcome if outcome != "unchanged" else ("unchanged" if property_outcome == "unchanged" else "updated"))


def _close_unseen(conn: Connection, run: _Run) -> None:
    """Close every open signal of the dataset this (full) run did not see."""
    rows = conn.execute(sa.select(signals_t.c.id, signals_t.c.record_key, signals_t.c.property_id)
                        .where(signals_t.c.dataset_id == run.dataset.id, signals_t.c.status == "open")).all()
    gone = [r for r in rows if r.record_key not in run.seen]
    reason = f"no longer in the dataset as of {run.today.isoformat()}"
    for start in range(0, len(gone), BATCH_SIZE):
        chunk = gone[start:start + BATCH_SIZE]
        conn.execute(sa.update(signals_t).where(signals_t.c.id.in_([r.id for r in chunk]))
                     .values(status="closed", closed_at=run.retrieved_at, closed_reason=reason))
    run.summary.closed += len(gone)
    run.touched.update(r.property_id for r in gone)


MAX_UNMAPPED_SHARE = 0.10  # a full run with more unreadable rows than this closes nothing


def _closing_refused(run: _Run, mode: str) -> str | None:
    """Why a full run must not close the signals it did not see, or None. A signal is closed because its
    record left the dataset, never because the portal sent nothing or rows stopped parsing."""
    if mode == "api" and run.summary.rows_read == 0:
        return "the portal returned no rows: nothing closed"
    if run.summary.unmapped > MAX_UNMAPPED_SHARE * run.summary.rows_read:
        return f"{run.summary.unmapped} of {run.summary.rows_read} rows could not be read: nothing closed"
    return None


def _lead_properties_in(conn: Connection, zips: set[str], zip3s: set[str]) -> set[int]:
    """The properties with a lead whose ZIP (or ZIP3 area) had its sales or index change."""
    from marketplace.models import Lead

    leads_t = Lead.__table__
    ids: set[int] = set()
    for column, values in ((props_t.c.zip_code, sorted(zips - {""})),
                           (sa.func.substr(props_t.c.zip_code, 1, 3), sorted(zip3s))):
        for start in range(0, len(values), BATCH_SIZE):
            ids.update(conn.execute(
                sa.select(props_t.c.id).join(leads_t, leads_t.c.property_id == props_t.c.id)
                .where(column.in_(values[start:start + BATCH_SIZE]))).scalars())
    return ids


def _finish(database_url: str | None, summary: RunSummary) -> None:
    with session_scope(database_url) as session:
        session.connection().execute(sa.update(runs_t).where(runs_t.c.id == summary.run_id).values(
            status=summary.status, finished_at=utcnow(), rows_read=summary.rows_read, added=summary.added,
            updated=summary.updated, unchanged=summary.unchanged, closed=summary.closed,
            archived=summary.archived, rejected=summary.rejected, newest_as_of=summary.newest_as_of,
            warning=summary.warning, error=summary.error))


def ingest(dataset: Any, records: Iterable[Any], *, mode: str, retrieved_at: datetime | None = None,
           full: bool = True, today: date | None = None, titles: record_leads.TitleLookup | None = None,
           database_url: str | None = None) -> RunSummary:
    """Store one dataset's records (module docstring); returns the run's summary (status ok or failed).

    ``dataset`` (``sources.opendata.Dataset``) needs ``id`` and may have ``title``, ``publisher``,
    ``state`` or ``constants["state"]`` (the state of records that name none) and ``max_age_days``; ``titles`` names the other datasets a property's lead may cite."""
    if mode not in ("file", "api"):
        raise ValueError(f"mode must be 'file' or 'api', not {mode!r}")
    retrieved_at = retrieved_at or utcnow()
    today = today or retrieved_at.date()
    titles = titles or dataset_titles([dataset])
    summary = RunSummary(dataset_id=dataset.id, mode=mode)
    with session_scope(database_url) as session:
        conn = session.connection()
        if conn.dialect.name == "postgresql":  # SQLite's BEGIN IMMEDIATE already serialises this check
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(RUN_LOCK, sa.func.hashtext(dataset.id))))
        started = utcnow()
        busy = conn.execute(sa.select(runs_t.c.id).where(
            runs_t.c.dataset_id == dataset.id, runs_t.c.status == "running",
            runs_t.c.started_at > started - RUN_STALE_AFTER)).first()
        if busy is not None:
            raise RunInProgress(f"{dataset.id}: another run (#{busy.id}) is in progress")
        summary.run_id = conn.execute(sa.insert(runs_t).values(
            dataset_id=dataset.id, mode=mode, started_at=started, status="running").returning(runs_t.c.id)
        ).scalar_one()
    run = _Run(dataset, summary, retrieved_at, today)
    try:
        batch: list[Any] = []
        for item in records:
            batch.append(item)
            if len(batch) >= BATCH_SIZE:
                _write_batch(database_url, run, batch)
                batch = []
        _write_batch(database_url, run, batch)
        with session_scope(database_url) as session:
            conn = session.connection()
            refusal = _closing_refused(run, mode) if full else None
            if full and refusal is None:
                _close_unseen(conn, run)
            run.touched.update(_lead_properties_in(conn, run.sale_zips, run.hpi_zip3s))
            counts = record_leads.materialise(conn, run.touched, titles, today,
                                              max_ages=record_leads.ages_with(titles, dataset))
            summary.archived = counts["archived"]
            summary.leads_added, summary.leads_updated = counts["added"], counts["updated"]
            if counts["added"] or counts["updated"] or counts["archived"]:
                rebuild_facets(conn)
        summary.status = "ok"
        warnings = [stale_warning(summary.newest_as_of, getattr(dataset, "max_age_days", None), today), refusal]
        summary.warning = "; ".join(w for w in warnings if w) or None
    except Exception as exc:  # noqa: BLE001 - recorded on the run, re-raised for the caller
        from marketplace.sources.base import SourceError

        # A reader's error (bad file, portal down) names its cause; anything else gets a traceback.
        log.warning("public-record ingestion of %s failed: %s", dataset.id, exc,
                    exc_info=not isinstance(exc, SourceError))
        summary.status, summary.error = "failed", f"{type(exc).__name__}: {exc}"[:2000]
        _finish(database_url, summary)
        raise
    _finish(database_url, summary)
    return summary


def _write_batch(database_url: str | None, run: _Run, batch: list[Any]) -> None:
    if not batch:
        return
    with session_scope(database_url) as session:
        conn = session.connection()
        for item in batch:
            _one(conn, run, item)


def rescore_leads(today: date, *, titles: record_leads.TitleLookup, database_url: str | None = None) -> dict:
    """The day's bookkeeping without new records: close every open sale-list signal whose sale date has
    passed ("sale held on <date>"), then recompute every public-record lead (days to a sale, vacancy age
    and record age move with the date; a lead left without an open lead-making signal is archived).
    Returns {"closed": n, "archived": n, "updated": n}."""
    from marketplace.models import Lead

    leads_t = Lead.__table__
    with session_scope(database_url) as session:
        conn = session.connection()
        held = conn.execute(sa.select(signals_t.c.id, signals_t.c.property_id, signals_t.c.sale_date).where(
            signals_t.c.status == "open", signals_t.c.kind == "sale_list", signals_t.c.sale_date < today)).all()
        now = utcnow()
        for row in held:
            conn.execute(sa.update(signals_t).where(signals_t.c.id == row.id).values(
                status="closed", closed_at=now, closed_reason=f"sale held on {row.sale_date.isoformat()}"))
        ids = set(conn.execute(sa.select(leads_t.c.property_id).where(leads_t.c.property_id.is_not(None))).scalars())
        counts = record_leads.materialise(conn, ids | {r.property_id for r in held}, titles, today)
        if counts["added"] or counts["updated"] or counts["archived"]:
            rebuild_facets(conn)
    return {"closed": len(held), "archived": counts["archived"], "updated": counts["updated"] + counts["added"]}
