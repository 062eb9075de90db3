"""Public-record ingestion: mapped records -> properties, signals, recorded sales, the HPI,
then the leads of the touched properties (``records.service_leads``).

``ingest(dataset, records, mode=..., retrieved_at=...)`` is idempotent:

- records stream in batches of ``BATCH_SIZE`` (on SQLite, whose one write lock a batch holds, sized by
  ``platform.batch_sizer`` so a transaction holds it ``SQLITE_BATCH_MS``, 100 ms, at most), one transaction
  each, written set-wise (``records.service_batches``: one read per target, COPY or one multi-row INSERT
  of the new rows, one UPDATE of the changed ones), followed in the same
  transaction by the leads of the properties the batch touched: a batch that fails leaves nothing of
  itself, a run killed between batches leaves every stored property with its lead, and the next run of
  the dataset (when the one before it did not end ok) gives a lead to any property with an open signal
  and none (read in pages: memory stays flat). A ``dataset_runs`` row is
  created first (status running) and completed at the end (ok, or failed with the error);
- a property is found by parcel id within its state when the record has one, else by address key + ZIP
  (``records.rules_addresses``; two parcels at one address are two properties); a record with a street address and
  no ZIP gets the nearest ZIP centre of its coordinates (``zip_for_point``); a record with a parcel id and
  no street address or ZIP is kept on a parcel-only property (no address, no lead) until a record of its
  parcel names them; without a parcel id it is rejected ("no address", "no ZIP"). A record value replaces
  a property value only when the record has one (missing values never erase);
- a signal is keyed by (dataset_id, record_key): the same content is *unchanged* (nothing written), other
  content *updated*; a file read passes over the rows it already stored: a row whose digest
  (``source_opendata.row_digests``: the row and how it is mapped) an open signal of the dataset holds is
  counted unchanged and seen without being mapped (``records.rules.KnownRow``; not for a status list, whose
  rows all take the list's day); the same row twice, or a record's changed row with its old one, is
  "appears twice in this run" as in a read of every row (in one batch, the old row is the one kept); a
  ``sale_list`` signal whose sale date has passed is stored closed ("sale held on
  ...");
- with ``full=True`` (a whole dataset was read) every open signal of the dataset that this run did not see
  is closed ("no longer in the dataset as of <date>"; one anti-join on PostgreSQL, short transactions of
  ids picked in Python on SQLite), then the leads of the closed signals' properties are brought up to
  date in short transactions too; unless the read returned no rows, was not read cleanly to its end
  (the reader's ``incomplete``: a parse error, a file ending inside a record), more than
  ``MAX_UNMAPPED_SHARE`` of the rows could not be read, or it held fewer open records than the
  dataset's ``min_full_share`` (default ``MIN_FULL_SHARE``, 0.8: more than 20% fewer than the open
  signals the last full read left) and the drop was not allowed (``allow_drop``): then nothing closes,
  the rows read are kept and the run's warning says why in one line;
  ``full=False`` (a partial import, an incremental pull) never closes; the run records whether it was full
  and the newest portal update time it read (``portal_updated_max``: the next incremental pull's watermark);
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
from typing import Any, Iterable

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from marketplace.features.records import service_titles as record_titles
from marketplace.platform import bulk_rows
from marketplace.platform.config import record_batch_size
from marketplace.platform.batch_sizer import BatchSizer
from marketplace.features.records.rules_import_reasons import no_leads_reason
from marketplace.platform.times import format_date
from marketplace.features.records.rules import KnownRow, newest_age
from marketplace.features.records import rules_signal_currency as signal_currency
from marketplace.platform.db import read_scope, session_scope
from marketplace.platform.models import DatasetRun, HpiPointRow, Property, PropertySignal, RecordedSale, utcnow
from marketplace.features.records import (
    service_batches as record_batches,
    service_leads as record_leads,
    service_steps as record_steps,
)
from marketplace.features.unlock import service_refunds as refunds
from marketplace.features.records.service_titles import dataset_titles
from marketplace.features.marketplace import rebuild_facets
from marketplace.features.records.rules_digests import DigestMap
from marketplace.features.records.service_seen_keys import SeenKeys, known_rows
from marketplace.features.records.source_opendata.dataset import MIN_FULL_SHARE

log = logging.getLogger("marketplace.public_records")

KNOWN_PER_BATCH = 20  # a batch of a re-import holds up to this many times its size in known rows (tiny, unwritten)
BATCH_SIZE = record_batch_size()  # records per batch (one transaction): RECORD_BATCH_SIZE, default 5000
SQLITE_BATCH_SIZE = 50    # on SQLite: the first batch's records; the next ones are sized by ``BatchSizer``
RUN_LOCK = 724023                       # pg_advisory_xact_lock class of "one run per dataset"
RUN_STALE_AFTER = timedelta(hours=6)    # a run "running" longer than this died: another may start


class RunInProgress(ValueError):
    """Another ingestion of the same dataset is running: two at once would race on the same rows."""


class OlderSnapshot(ValueError):
    """A status list older than the newest one already loaded: it changes nothing (and says so)."""

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
    snapshot: date | None = None  # a status list's day (the file's --as-of or name, the pull's day)
    portal_updated_max: datetime | None = None  # the newest portal update time read (the next watermark)
    lead_records: int = 0       # records of lead-making kinds read
    history: int = 0            # of those: not current on the run's day (an old list, an old event, a held sale)
    warning: str | None = None
    leads_note: str | None = None  # why the run made no leads, in numbers ("0 leads: 250 records are history ...")
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
    from marketplace.platform.config import lead_settings

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
        self.known: DigestMap | None = None  # the row digests the dataset's open signals hold (file reads)
        self.superseded: dict[int, str] = {}  # of those, the ones a changed row of this run replaced: their keys
        self.touched: set[int] = set()
        self.sale_zips: set[str] = set()    # ZIPs whose recorded sales changed (ARV)
        self.sale_parcels: set[tuple[str, str]] = set()  # (state, parcel id) of the sales read (comps, last sale)
        self.hpi_zip3s: set[str] = set()    # ZIP3 areas whose index changed (market value)
        self.open_before = 0                # the dataset's open signals when the run started
        self.open_read = 0                  # records of the read stored as open signals
        self.started_at: datetime | None = None  # leads created since belong to this run
        self.lead_counts = {"added": 0, "updated": 0, "archived": 0}
        self.committed_at: float | None = None  # time.monotonic() of the run's last write transaction's end
        self.snapshot: date | None = None  # a status list's day: closures name it, its open items take it
        self.analyzed_at = 0                # rows added when the record tables' statistics were last refreshed

    def materialise(self, conn: Connection, property_ids: set[int], titles: record_titles.TitleLookup) -> None:
        """The leads of ``property_ids`` brought up to date (in the caller's transaction); the run's lead
        counts are net: a lead added then updated by a later batch counts as added once."""
        counts = record_leads.materialise(conn, property_ids, titles, self.today, added_since=self.started_at,
                                          max_ages=record_titles.ages_with(titles, self.dataset))
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


def _closing_refused(run: _Run, mode: str, incomplete: str | None, allow_drop: bool) -> str | None:
    """Why a full run must not close the signals it did not see, or None. A signal is closed because its
    record left the dataset, never because the read returned nothing, was not read cleanly to its end
    (``incomplete``: a parse error, a file cut inside a record), rows stopped parsing, or the read came up
    short: fewer open records than the dataset's ``min_full_share`` of the open signals the last full read
    left (unless ``allow_drop``: the operator says the dataset shrank)."""
    if run.summary.rows_read == 0:
        return ("the portal returned no rows: nothing closed" if mode == "api"
                else "the file holds no rows: nothing closed")
    if incomplete:
        return f"the file was not read cleanly to its end ({incomplete}): nothing closed"
    if run.summary.unmapped > MAX_UNMAPPED_SHARE * run.summary.rows_read:
        return f"{run.summary.unmapped} of {run.summary.rows_read} rows could not be read: nothing closed"
    share = getattr(run.dataset, "min_full_share", MIN_FULL_SHARE)
    if not allow_drop and run.open_before and run.open_read < share * run.open_before:
        return (f"the read holds {run.open_read} open records, more than {1 - share:.0%} fewer than the "
                f"dataset's {run.open_before}: nothing closed (import-records --allow-drop if it shrank)")
    return None


def _no_leads(summary: RunSummary, dataset: Any, mode: str, today: date) -> str | None:
    """The run's "0 leads: ..." line (``records.rules_import_reasons``), None when it made leads."""
    return no_leads_reason(
        mode=mode, rows_read=summary.rows_read, rejected=summary.rejected,
        first_rejection=summary.rejections[0] if summary.rejections else None, lead_records=summary.lead_records,
        history=summary.history, leads_added=summary.leads_added, leads_updated=summary.leads_updated,
        status_list=getattr(dataset, "status_list", False), snapshot=summary.snapshot,
        newest_as_of=summary.newest_as_of, max_age_days=getattr(dataset, "max_age_days", None), today=today)


def _leadless_properties(conn: Connection, dataset_id: str, max_age_days: int | None = None,
                         today: date | None = None) -> set[int]:
    """Properties with an open, current lead-making signal of the dataset and no lead: what a run that died
    between its batches and its lead step left (the next run materialises them). Whether a signal is current
    is ``records.rules_signal_currency.is_current`` on the signal's own columns (``READS``), not restated
    here: a signal that is not current (a held sale, older than the dataset's ``max_age_days`` on ``today``)
    makes no lead, so its property is not read again on every run; nor is a parcel-only property (no street
    address)."""
    from marketplace.features.records.rules_motivation import LEAD_TYPE_ORDER
    from marketplace.platform.models import Lead

    leads_t = Lead.__table__
    query = (sa.select(signals_t.c.id, signals_t.c.property_id, *(signals_t.c[name] for name in signal_currency.READS))
             .where(signals_t.c.dataset_id == dataset_id, signals_t.c.status == "open",
                    signals_t.c.kind.in_([kind for kind, _ in LEAD_TYPE_ORDER]),
                    ~sa.exists().where(leads_t.c.property_id == signals_t.c.property_id),
                    sa.exists().where(props_t.c.id == signals_t.c.property_id, props_t.c.address_key.is_not(None)))
             .order_by(signals_t.c.id).limit(SWEEP_PAGE))
    found: set[int] = set()
    last = 0
    while True:  # in pages by id: a million open signals never sit in memory at once
        rows = conn.execute(query.where(signals_t.c.id > last)).all()
        found.update(row.property_id for row in rows
                     if today is None or signal_currency.is_current(row, max_age_days, today))
        if len(rows) < SWEEP_PAGE:
            return found
        last = rows[-1].id


SWEEP_PAGE = 50_000  # signals per read of the leadless-property sweep


def _stranded_leads(conn: Connection, dataset_id: str) -> set[int]:
    """Properties with an active lead, a closed signal of the dataset and no open lead-making signal of any
    dataset: what a run that died between closing its signals and its lead step left (the next run
    archives their leads, as that run would have)."""
    from marketplace.features.records.rules_motivation import LEAD_TYPE_ORDER
    from marketplace.platform.models import Lead

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
    from marketplace.platform.models import Lead

    leads_t = Lead.__table__
    ids: set[int] = set()
    for column, values in ((props_t.c.zip_code, sorted(zips - {""})),
                           (sa.func.substr(props_t.c.zip_code, 1, 3), sorted(zip3s))):
        for start in range(0, len(values), bulk_rows.IN_CHUNK):
            ids.update(conn.execute(
                sa.select(props_t.c.id).join(leads_t, leads_t.c.property_id == props_t.c.id)
                .where(column.in_(values[start:start + bulk_rows.IN_CHUNK]))).scalars())
    return ids


def _parcel_zip3s(conn: Connection, parcels: set[tuple[str, str]]) -> set[str]:
    """The ZIP3 areas of the stored properties of ``parcels``: a sale that names only its parcel changes
    the comps of the leads around that property (and its own lead's last sale)."""
    found: set[str] = set()
    for state in sorted({s for s, _ in parcels}):
        ids = sorted(p for s, p in parcels if s == state)
        for start in range(0, len(ids), bulk_rows.IN_CHUNK):
            found.update(z[:3] for z in conn.execute(
                sa.select(props_t.c.zip_code).where(props_t.c.state == state,
                                                    props_t.c.parcel_id.in_(ids[start:start + bulk_rows.IN_CHUNK]))
            ).scalars() if z)
    return found


def _dialect(database_url: str | None) -> str:
    from marketplace.platform.db import get_engine

    return get_engine(database_url).dialect.name


def _finish(database_url: str | None, summary: RunSummary) -> None:
    with session_scope(database_url) as session:
        session.connection().execute(sa.update(runs_t).where(runs_t.c.id == summary.run_id).values(
            status=summary.status, finished_at=utcnow(), rows_read=summary.rows_read, added=summary.added,
            updated=summary.updated, unchanged=summary.unchanged, closed=summary.closed,
            archived=summary.archived, rejected=summary.rejected, newest_as_of=summary.newest_as_of,
            portal_updated_max=summary.portal_updated_max,
            # the explorer's Sources panel shows the run's warning: the "0 leads: ..." reason ends it
            warning="; ".join(w for w in (summary.warning, summary.leads_note) if w) or None, error=summary.error))


def ingest(dataset: Any, records: Iterable[Any], *, mode: str, retrieved_at: datetime | None = None,
           full: bool = True, today: date | None = None, titles: record_titles.TitleLookup | None = None,
           database_url: str | None = None, allow_drop: bool = False, snapshot: date | None = None) -> RunSummary:
    """Store one dataset's records (module docstring); returns the run's summary (status ok or failed).

    ``dataset`` (``records.source_opendata.Dataset``) needs ``id`` and may have ``title``, ``publisher``,
    ``state`` or ``constants["state"]`` (the state of records that name none) and ``max_age_days``; ``titles`` names the other datasets a property's lead may cite.
    ``records`` may say why it was not read cleanly to its end (``incomplete``); ``allow_drop``: a full
    read far below the dataset's open signals closes the rest all the same. ``snapshot``: the day a status
    list was taken (a file's ``--as-of`` or name; default: the newest ``as_of`` read, the pull's day for an API
    read); a snapshot older than the newest one loaded raises ``OlderSnapshot`` and changes nothing."""
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
        if getattr(dataset, "status_list", False) and snapshot is not None:
            newest = conn.execute(sa.select(sa.func.max(runs_t.c.newest_as_of)).where(
                runs_t.c.dataset_id == dataset.id, runs_t.c.status == "ok")).scalar_one()
            if newest is not None and snapshot < newest:
                raise OlderSnapshot(f"{dataset.id}: this list of {format_date(snapshot, 'UTC')} is older than the "
                                    f"newest one loaded, the list of {format_date(newest, 'UTC')}: nothing changed")
        open_before = conn.execute(sa.select(sa.func.count()).select_from(signals_t).where(
            signals_t.c.dataset_id == dataset.id, signals_t.c.status == "open")).scalar_one()
        last_status = conn.execute(sa.select(runs_t.c.status).where(runs_t.c.dataset_id == dataset.id)
                                   .order_by(runs_t.c.id.desc()).limit(1)).scalar()
        summary.run_id = conn.execute(sa.insert(runs_t).values(
            dataset_id=dataset.id, mode=mode, started_at=started, status="running", full=full,
        ).returning(runs_t.c.id)
        ).scalar_one()
    run = _Run(dataset, summary, retrieved_at, today)
    run.open_before, run.started_at = open_before, started
    sizer = _sizer(database_url)
    try:
        if hasattr(records, "known") and not getattr(dataset, "status_list", False):
            # A file read passes over the rows its dataset's open signals were mapped from (``KnownRow``). A
            # status list's rows are all read: their day is the list's, and its open items move to it.
            with read_scope(database_url) as session:
                known = known_rows(session.connection(), dataset.id, getattr(dataset, "max_age_days", None),
                                   today, expected=open_before)
            if len(known):
                run.known = records.known = known
        from marketplace.features.scrape import SourceError

        batch: list[Any] = []
        work = 0  # the batch's items that are not known rows (a known row is counted, never written)
        try:
            for item in records:
                stamp = getattr(item, "portal_updated_at", None)
                if stamp is not None and (summary.portal_updated_max is None or stamp > summary.portal_updated_max):
                    summary.portal_updated_max = stamp
                batch.append(item)
                work += not isinstance(item, KnownRow)
                if work >= sizer.size or len(batch) >= KNOWN_PER_BATCH * sizer.size:
                    held = _write_batch(database_url, run, batch, titles, sizer)
                    if held:  # (a batch with nothing to write held no lock: it says nothing of the size)
                        sizer.observe(work, held)
                    batch, work = [], 0
        except SourceError:  # the reader failed midway (a portal page, a cut JSON file): what it read is kept
            _write_batch(database_url, run, batch, titles, sizer)
            raise
        _write_batch(database_url, run, batch, titles, sizer)
        status_list = getattr(dataset, "status_list", False)
        run.snapshot = summary.snapshot = (snapshot or summary.newest_as_of) if status_list else None
        refusal = _closing_refused(run, mode, getattr(records, "incomplete", None), allow_drop) if full else None
        run.touched.clear()
        if full and refusal is None:
            if run.open_before:  # (a dataset without open signals before the run: every open one was seen)
                record_steps.close_unseen(database_url, run, _sizer(database_url), BATCH_SIZE)
            if status_list:
                record_steps.date_open_items(database_url, run)
        with read_scope(database_url) as session:
            conn = session.connection()
            run.touched.update(_lead_properties_in(conn, run.sale_zips,
                                                   run.hpi_zip3s | _parcel_zip3s(conn, run.sale_parcels)))
            if last_status not in (None, "ok"):  # only a run that died leaves properties without their leads
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
        summary.leads_note = _no_leads(summary, dataset, mode, today)
    except Exception as exc:  # noqa: BLE001 - recorded on the run, re-raised for the caller
        from marketplace.features.scrape import SourceError

        # A reader's error (bad file, portal down) names its cause; anything else gets a traceback.
        log.warning("public-record ingestion of %s failed: %s", dataset.id, exc,
                    exc_info=not isinstance(exc, SourceError))
        summary.status, summary.error = "failed", f"{type(exc).__name__}: {exc}"[:2000]
        _finish(database_url, summary)
        raise
    finally:
        run.seen.close()
    _finish(database_url, summary)
    refunds.deliver_mail(database_url)  # the refund e-mails this run recorded (with SMTP)
    return summary


def _write_batch(database_url: str | None, run: _Run, batch: list[Any], titles: record_titles.TitleLookup,
                 sizer: BatchSizer) -> float:
    """One batch in one transaction (``record_batches``): its records, then the leads of the properties it
    touched (a run killed between batches leaves every committed property with its lead; a batch that
    fails leaves nothing of itself). What each record is was decided before the transaction opened.
    Returns the milliseconds the transaction held the lock (its ``BEGIN`` to its commit)."""
    if not batch:
        return 0.0
    prepared = record_batches.prepare(run, batch)
    if record_batches.nothing_to_write(prepared):  # known rows and rejections: no transaction, no lock
        record_batches.note_rejections(prepared)
        return 0.0
    record_steps.warm_zip_centres(getattr(item, "zip_code", None) for item in batch)
    record_steps.give_way(run, sizer)
    with session_scope(database_url) as session:
        conn = session.connection()  # BEGIN (IMMEDIATE on SQLite: the write lock is held from here)
        began = time.perf_counter()
        run.touched.clear()
        record_batches.write_batch(conn, prepared)
        prepared.drop_sold(titles)
        run.materialise(conn, run.touched - prepared.leadless.keys(), titles)
    run.committed_at = time.monotonic()
    held = (time.perf_counter() - began) * 1000
    _analyze_if_grown(database_url, run)
    return held


ANALYZE_AFTER = 5000  # rows a run adds before PostgreSQL's statistics of the record tables are refreshed


def _analyze_if_grown(database_url: str | None, run: _Run) -> None:
    """On PostgreSQL, refresh the statistics of the tables a run fills once its rows added reach
    ``ANALYZE_AFTER``, then each time they grow fourfold: a table loaded faster than autovacuum samples it keeps
    the statistics of its empty self, and the planner then reads a whole dataset's signals to find a
    few hundred keys (a filter over a bitmap scan, 150 ms a batch, instead of the unique index)."""
    added = run.summary.added
    if added < max(ANALYZE_AFTER, 4 * run.analyzed_at) or _dialect(database_url) != "postgresql":
        return
    from marketplace.platform.db import autocommit

    with autocommit(database_url) as conn:
        conn.exec_driver_sql("ANALYZE properties, property_signals")
    run.analyzed_at = added


def rescore_leads(today: date, *, titles: record_titles.TitleLookup, database_url: str | None = None) -> dict:
    """The day's bookkeeping without new records: close every open sale-list signal whose sale date has
    passed ("sale held on <date>"), then recompute every public-record lead (days to a sale, vacancy age
    and record age move with the date; a lead left without an open lead-making signal is archived).
    Returns {"closed": n, "archived": n, "updated": n}."""
    from marketplace.platform.models import Lead

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
    refunds.deliver_mail(database_url)  # the refund e-mails the held sales gave (with SMTP)
    return {"closed": len(held), "archived": counts["archived"], "updated": counts["updated"] + counts["added"]}
