"""Public-record ingestion: mapped records -> properties, signals, recorded sales, the HPI,
then the leads of the touched properties (``services.record_leads``).

``ingest(dataset, records, mode=..., retrieved_at=...)`` is idempotent:

- records stream in batches of ``BATCH_SIZE`` (on SQLite, whose one write lock a batch holds, sized by
  ``core.batch_sizer`` so a transaction holds it ``SQLITE_BATCH_MS``, 100 ms, at most), one transaction
  each, written set-wise (``services.record_batches``: one read per target, COPY or one multi-row INSERT
  of the new rows, one UPDATE of the changed ones), followed in the same
  transaction by the leads of the properties the batch touched: a batch that fails leaves nothing of
  itself, a run killed between batches leaves every stored property with its lead, and the next run of
  the dataset gives a lead to any property with an open signal and none. A ``dataset_runs`` row is
  created first (status running) and completed at the end (ok, or failed with the error);
- a property is found by parcel id within its state when the record has one, else by address key + ZIP
  (``core.addresses``; two parcels at one address are two properties); a record with a street address and
  no ZIP gets the nearest ZIP centre of its coordinates (``zip_for_point``); a record with a parcel id and
  no street address or ZIP is kept on a parcel-only property (no address, no lead) until a record of its
  parcel names them; without a parcel id it is rejected ("no address", "no ZIP"). A record value replaces
  a property value only when the record has one (missing values never erase);
- a signal is keyed by (dataset_id, record_key): the same content is *unchanged* (nothing written), other
  content *updated*; a ``sale_list`` signal whose sale date has passed is stored closed ("sale held on
  ...");
- with ``full=True`` (a whole dataset was read) every open signal of the dataset that this run did not see
  is closed ("no longer in the dataset as of <date>"; one anti-join on PostgreSQL, short transactions of
  ids picked in Python on SQLite), then the leads of the closed signals' properties are brought up to
  date in short transactions too; unless the read returned no rows, more than ``MAX_UNMAPPED_SHARE`` of
  the rows could not be read, or it held fewer records than the dataset's ``min_full_share`` (default
  ``MIN_FULL_SHARE``) of its open signals: then nothing closes and the run warns;
  ``full=False`` (a partial import) never closes;
- ``assessment`` records fill the property's facts and values, ``recorded_sale`` records go to
  ``recorded_sales``, ``HpiPoint`` to ``hpi_points``, ``RejectedRow`` is counted;
- the run records the newest ``as_of`` and, when it is older than the dataset's maximum age, the warning
  "records are as of <date>, N days old: stale".

Ingesting the same records twice writes nothing but the run row: every count is ``unchanged``.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, Iterable, Iterator

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from marketplace.config import record_batch_size
from marketplace.core.batch_sizer import BatchSizer
from marketplace.core.records import newest_age
from marketplace.db import read_scope, session_scope
from marketplace.models import DatasetRun, HpiPointRow, Property, PropertySignal, RecordedSale, utcnow
from marketplace.services import record_batches, record_leads, record_steps
from marketplace.services.record_leads import dataset_titles
from marketplace.services.marketplace import rebuild_facets
from marketplace.services.seen_keys import SeenKeys

log = logging.getLogger("marketplace.public_records")

BATCH_SIZE = record_batch_size()  # records per batch (one transaction): RECORD_BATCH_SIZE, default 5000
SQLITE_BATCH_SIZE = 50    # on SQLite: the first batch's records; the next ones are sized by ``BatchSizer``
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
    age, fresh = newest_age(newest_as_of, max_age_days, today)
    if fresh:
        return None
    return f"records are as of {newest_as_of.isoformat()}, {age} days old: stale"


def _sizer(database_url: str | None) -> BatchSizer:
    """Fixed batches on PostgreSQL; on SQLite batches sized to hold the lock ``SQLITE_BATCH_MS`` at most."""
    from marketplace.config import lead_settings

    if _dialect(database_url) == "postgresql":
        return BatchSizer(BATCH_SIZE, budget_ms=None, ceiling=BATCH_SIZE)
    return BatchSizer(SQLITE_BATCH_SIZE, budget_ms=lead_settings().sqlite_batch_ms, ceiling=BATCH_SIZE)


class _Run:
    """The state of one ingestion across its batches."""

    def __init__(self, dataset: Any, summary: RunSummary, retrieved_at: datetime, today: date):
        self.dataset = dataset
        constants = getattr(dataset, "constants", None) or {}
        self.state = (getattr(dataset, "state", None) or constants.get("state") or "").upper() or None
        self.summary = summary
        self.retrieved_at = retrieved_at
        self.today = today
        self.seen = SeenKeys()
        self.touched: set[int] = set()
        self.sale_zips: set[str] = set()    # ZIPs whose recorded sales changed (ARV)
        self.sale_parcels: set[tuple[str, str]] = set()  # (state, parcel id) of the sales read (comps, last sale)
        self.hpi_zip3s: set[str] = set()    # ZIP3 areas whose index changed (market value)
        self.open_before = 0                # the dataset's open signals when the run started
        self.started_at: datetime | None = None  # leads created since belong to this run
        self.lead_counts = {"added": 0, "updated": 0, "archived": 0}
        self.committed_at: float | None = None  # time.monotonic() of the run's last write transaction's end

    def materialise(self, conn: Connection, property_ids: set[int], titles: record_leads.TitleLookup) -> None:
        """The leads of ``property_ids`` brought up to date (in the caller's transaction); the run's lead
        counts are net: a lead added then updated by a later batch counts as added once."""
        counts = record_leads.materialise(conn, property_ids, titles, self.today, added_since=self.started_at,
                                          max_ages=record_leads.ages_with(titles, self.dataset))
        for outcome in self.lead_counts:
            self.lead_counts[outcome] += counts[outcome]

    def lead_count(self, outcome: str) -> int:
        return self.lead_counts[outcome]

    def reject(self, reason: str) -> None:
        self.summary.rejected += 1
        if len(self.summary.rejections) < MAX_REJECTIONS_KEPT:
            self.summary.rejections.append(reason)

    def count(self, outcome: str) -> None:
        setattr(self.summary, outcome, getattr(self.summary, outcome) + 1)


MAX_UNMAPPED_SHARE = 0.10  # a full run with more unreadable rows than this closes nothing
MIN_FULL_SHARE = 0.5       # default share of the open signals a full read must hold to close any


def _closing_refused(run: _Run, mode: str) -> str | None:
    """Why a full run must not close the signals it did not see, or None. A signal is closed because its
    record left the dataset, never because the read returned nothing, rows stopped parsing, or the read
    was cut short (fewer records than the dataset's ``min_full_share`` of its open signals)."""
    if run.summary.rows_read == 0:
        return ("the portal returned no rows: nothing closed" if mode == "api"
                else "the file holds no rows: nothing closed")
    if run.summary.unmapped > MAX_UNMAPPED_SHARE * run.summary.rows_read:
        return f"{run.summary.unmapped} of {run.summary.rows_read} rows could not be read: nothing closed"
    share = getattr(run.dataset, "min_full_share", MIN_FULL_SHARE)
    if run.open_before and run.seen.count < share * run.open_before:
        return (f"the read holds {run.seen.count} records, fewer than {share:.0%} of the dataset's "
                f"{run.open_before} open records: nothing closed")
    return None


def _leadless_properties(conn: Connection, dataset_id: str, max_age_days: int | None = None,
                         today: date | None = None) -> set[int]:
    """Properties with an open, current lead-making signal of the dataset and no lead: what a run that died
    between its batches and its lead step left (the next run materialises them). A signal that is not
    current (``core.signal_currency``: a held sale, older than the dataset's ``max_age_days`` on ``today``)
    makes no lead: its property is not read again on every run; nor is a parcel-only property
    (no street address)."""
    from marketplace.core.motivation import LEAD_TYPE_ORDER
    from marketplace.models import Lead

    leads_t = Lead.__table__
    current = []
    if today is not None:
        sale = sa.and_(signals_t.c.kind == "sale_list", signals_t.c.sale_date.is_not(None))
        dated = sa.func.coalesce(signals_t.c.notice_date, signals_t.c.as_of)
        rest = sa.true() if not max_age_days else \
            sa.or_(dated.is_(None), dated >= today - timedelta(days=max_age_days))
        current = [sa.or_(sa.and_(sale, signals_t.c.sale_date >= today), sa.and_(~sale, rest))]
    return set(conn.execute(
        sa.select(signals_t.c.property_id).distinct()
        .where(signals_t.c.dataset_id == dataset_id, signals_t.c.status == "open",
               signals_t.c.kind.in_([kind for kind, _ in LEAD_TYPE_ORDER]), *current,
               ~sa.exists().where(leads_t.c.property_id == signals_t.c.property_id),
               sa.exists().where(props_t.c.id == signals_t.c.property_id, props_t.c.address_key.is_not(None))
               )).scalars())


def _stranded_leads(conn: Connection, dataset_id: str) -> set[int]:
    """Properties with an active lead, a closed signal of the dataset and no open lead-making signal of any
    dataset: what a run that died between closing its signals and its lead step left (the next run
    archives their leads, as that run would have)."""
    from marketplace.core.motivation import LEAD_TYPE_ORDER
    from marketplace.models import Lead

    leads_t = Lead.__table__
    others = signals_t.alias("others")
    return set(conn.execute(
        sa.select(signals_t.c.property_id).distinct()
        .where(signals_t.c.dataset_id == dataset_id, signals_t.c.status == "closed",
               sa.exists().where(leads_t.c.property_id == signals_t.c.property_id,
                                 leads_t.c.is_active == sa.true()),
               ~sa.exists().where(others.c.property_id == signals_t.c.property_id, others.c.status == "open",
                                  others.c.kind.in_([kind for kind, _ in LEAD_TYPE_ORDER])))).scalars())


def _lead_properties_in(conn: Connection, zips: set[str], zip3s: set[str]) -> set[int]:
    """The properties with a lead whose ZIP (or ZIP3 area) had its sales or index change."""
    from marketplace.models import Lead

    leads_t = Lead.__table__
    ids: set[int] = set()
    for column, values in ((props_t.c.zip_code, sorted(zips - {""})),
                           (sa.func.substr(props_t.c.zip_code, 1, 3), sorted(zip3s))):
        for start in range(0, len(values), record_batches.IN_CHUNK):
            ids.update(conn.execute(
                sa.select(props_t.c.id).join(leads_t, leads_t.c.property_id == props_t.c.id)
                .where(column.in_(values[start:start + record_batches.IN_CHUNK]))).scalars())
    return ids


def _parcel_zip3s(conn: Connection, parcels: set[tuple[str, str]]) -> set[str]:
    """The ZIP3 areas of the stored properties of ``parcels``: a sale that names only its parcel changes
    the comps of the leads around that property (and its own lead's last sale)."""
    found: set[str] = set()
    for state in sorted({s for s, _ in parcels}):
        ids = sorted(p for s, p in parcels if s == state)
        for start in range(0, len(ids), record_batches.IN_CHUNK):
            found.update(z[:3] for z in conn.execute(
                sa.select(props_t.c.zip_code).where(props_t.c.state == state,
                                                    props_t.c.parcel_id.in_(ids[start:start + record_batches.IN_CHUNK]))
            ).scalars() if z)
    return found


def _dialect(database_url: str | None) -> str:
    from marketplace.db import get_engine

    return get_engine(database_url).dialect.name


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
        open_before = conn.execute(sa.select(sa.func.count()).select_from(signals_t).where(
            signals_t.c.dataset_id == dataset.id, signals_t.c.status == "open")).scalar_one()
        summary.run_id = conn.execute(sa.insert(runs_t).values(
            dataset_id=dataset.id, mode=mode, started_at=started, status="running").returning(runs_t.c.id)
        ).scalar_one()
    run = _Run(dataset, summary, retrieved_at, today)
    run.open_before, run.started_at = open_before, started
    sizer = _sizer(database_url)
    try:
        batch: list[Any] = []
        for item in records:
            batch.append(item)
            if len(batch) >= sizer.size:
                sizer.observe(len(batch), _write_batch(database_url, run, batch, titles, sizer))
                batch = []
        _write_batch(database_url, run, batch, titles, sizer)
        refusal = _closing_refused(run, mode) if full else None
        run.touched.clear()
        if full and refusal is None:
            record_steps.close_unseen(database_url, run, _sizer(database_url), BATCH_SIZE)
        with read_scope(database_url) as session:
            conn = session.connection()
            run.touched.update(_lead_properties_in(conn, run.sale_zips,
                                                   run.hpi_zip3s | _parcel_zip3s(conn, run.sale_parcels)))
            run.touched.update(_leadless_properties(conn, dataset.id, getattr(dataset, "max_age_days", None),
                                                    today))
            run.touched.update(_stranded_leads(conn, dataset.id))
        record_steps.materialise_in_steps(database_url, run, sorted(run.touched), titles, _sizer(database_url))
        summary.archived = run.lead_count("archived")
        summary.leads_added, summary.leads_updated = run.lead_count("added"), run.lead_count("updated")
        if any(run.lead_counts.values()):
            with session_scope(database_url) as session:
                rebuild_facets(session.connection())
        summary.status = "ok"
        replaced = getattr(records, "replaced_rows", 0)
        warnings = [stale_warning(summary.newest_as_of, getattr(dataset, "max_age_days", None), today), refusal,
                    f"{replaced} rows held bytes that are not UTF-8 (read with replacement characters)"
                    if replaced else None]
        summary.warning = "; ".join(w for w in warnings if w) or None
    except Exception as exc:  # noqa: BLE001 - recorded on the run, re-raised for the caller
        from marketplace.sources.base import SourceError

        # A reader's error (bad file, portal down) names its cause; anything else gets a traceback.
        log.warning("public-record ingestion of %s failed: %s", dataset.id, exc,
                    exc_info=not isinstance(exc, SourceError))
        summary.status, summary.error = "failed", f"{type(exc).__name__}: {exc}"[:2000]
        _finish(database_url, summary)
        raise
    finally:
        run.seen.close()
    _finish(database_url, summary)
    return summary


def _write_batch(database_url: str | None, run: _Run, batch: list[Any], titles: record_leads.TitleLookup,
                 sizer: BatchSizer) -> float:
    """One batch in one transaction (``record_batches``): its records, then the leads of the properties it
    touched (a run killed between batches leaves every committed property with its lead; a batch that
    fails leaves nothing of itself). What each record is was decided before the transaction opened.
    Returns the milliseconds the transaction held the lock (its ``BEGIN`` to its commit)."""
    if not batch:
        return 0.0
    prepared = record_batches.prepare(run, batch)
    record_steps.warm_zip_centres(getattr(item, "zip_code", None) for item in batch)
    record_steps.give_way(run, sizer)
    with session_scope(database_url) as session:
        conn = session.connection()  # BEGIN (IMMEDIATE on SQLite: the write lock is held from here)
        began = time.perf_counter()
        run.touched.clear()
        record_batches.write_batch(conn, prepared)
        run.materialise(conn, run.touched, titles)
    run.committed_at = time.monotonic()
    return (time.perf_counter() - began) * 1000


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
