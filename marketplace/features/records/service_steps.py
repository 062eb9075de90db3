"""The steps of an ingestion (``records.service``) after its batches, in short transactions, and
what keeps every one of its transactions short on SQLite, where a transaction holds the database's one
write lock and every user's click that writes waits for it: the sizes come from ``platform.batch_sizer``,
what can be done before a transaction opens is done before, and the run gives way between transactions.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any, Iterable

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from marketplace.platform import bulk_rows
from marketplace.platform.batch_sizer import BatchSizer
from marketplace.platform.times import format_date
from marketplace.platform.db import get_engine, read_scope, session_scope
from marketplace.platform.models import Property, PropertySignal

props_t = Property.__table__
signals_t = PropertySignal.__table__


def give_way(run: Any, sizer: BatchSizer) -> None:
    """On SQLite, let half the lock budget pass between the run's transactions (its next batch is decided
    meanwhile): a user's write waiting for the lock naps in SQLite's busy handler, 50 ms at a time once it
    has waited 128 ms, and would otherwise wake while the run holds the lock again, batch after batch."""
    if sizer.budget_ms is None or run.committed_at is None:
        return
    rest = sizer.budget_ms / 2000 - (time.monotonic() - run.committed_at)
    if rest > 0:
        time.sleep(rest)


def warm_zip_centres(zip_codes: Iterable[str | None]) -> None:
    """Look up the ZIP centres a step's leads need (the first look-up of a ZIP scans the ``zipcodes``
    package's table, up to a second on a loaded machine; then it is cached) before its transaction opens,
    so the transaction never holds the write lock for them."""
    from marketplace.features.marketplace import zip_centre

    for zip_code in set(zip_codes):
        zip_centre(zip_code)


def close_reason(run: Any) -> str:
    """Why a full read closes a signal it did not see: a status list's item left the open list of the
    snapshot's day ("no longer on the open list of Nov 28, 2026"); an event left the dataset."""
    snapshot = getattr(run, "snapshot", None)
    if getattr(run.dataset, "status_list", False) and snapshot is not None:
        return f"no longer on the open list of {format_date(snapshot, 'UTC')}"
    return f"no longer in the dataset as of {run.today.isoformat()}"


def date_open_items(database_url: str | None, run: Any) -> None:
    """After a full read of a status list: every item still open was on this snapshot, so its ``as_of`` (the
    day of the newest list that held it) becomes the snapshot's day, in one UPDATE (the batches wrote only the
    items that changed). The properties whose items were too old to be current before and are now go to
    the run's lead step."""
    snapshot = getattr(run, "snapshot", None)
    if snapshot is None:
        return
    max_age = getattr(run.dataset, "max_age_days", None)
    mine = sa.and_(signals_t.c.dataset_id == run.dataset.id, signals_t.c.status == "open",
                   sa.or_(signals_t.c.as_of.is_(None), signals_t.c.as_of < snapshot))
    with session_scope(database_url) as session:
        conn = session.connection()
        if max_age and (run.today - snapshot).days <= max_age:
            cut = run.today - timedelta(days=max_age)
            run.touched.update(conn.execute(sa.select(signals_t.c.property_id).distinct().where(
                mine, sa.or_(signals_t.c.as_of.is_(None), signals_t.c.as_of < cut))).scalars())
        conn.execute(sa.update(signals_t).where(mine).values(as_of=snapshot))
    run.committed_at = time.monotonic()


def close_unseen(database_url: str | None, run: Any, sizer: BatchSizer, batch_size: int) -> None:
    """Close the open signals of the dataset a full run did not see. PostgreSQL: one anti-join
    (``close_unseen_set``). SQLite: the open signals are read without a lock, the unseen ones
    picked in Python, and closed in transactions of ``sizer``'s size (each re-checks that the signal is
    still open), so no transaction holds the write lock long."""
    if get_engine(database_url).dialect.name == "postgresql":
        with session_scope(database_url) as session:
            close_unseen_set(session.connection(), run, batch_size)
        return
    with read_scope(database_url) as session:
        rows = session.connection().execute(
            sa.select(signals_t.c.id, signals_t.c.record_key, signals_t.c.row_digest).where(
                signals_t.c.dataset_id == run.dataset.id, signals_t.c.status == "open")).all()
    passed = run.seen.rows  # the rows passed over unchanged: their signals were seen
    unseen = [row.id for row in rows if row.record_key not in run.seen
              and not (row.row_digest and row.row_digest in passed)]
    reason = close_reason(run)
    start = 0
    while start < len(unseen):
        chunk = unseen[start:start + min(sizer.size, bulk_rows.IN_CHUNK)]
        start += len(chunk)
        give_way(run, sizer)
        with session_scope(database_url) as session:
            conn = session.connection()
            began = time.perf_counter()
            gone = conn.execute(
                sa.update(signals_t).where(signals_t.c.id.in_(chunk), signals_t.c.status == "open")
                .values(status="closed", closed_at=run.retrieved_at, closed_reason=reason)
                .returning(signals_t.c.property_id)).scalars().all()
        run.committed_at = time.monotonic()
        sizer.observe(len(chunk), (time.perf_counter() - began) * 1000)
        run.summary.closed += len(gone)
        run.touched.update(gone)


def materialise_in_steps(database_url: str | None, run: Any, property_ids: list[int],
                          titles: Any, sizer: BatchSizer) -> None:
    """The leads of ``property_ids`` brought up to date, a transaction per ``sizer``-sized step (each
    step's leads are whole; a run killed between steps leaves the rest to the next run's repair)."""
    start = 0
    while start < len(property_ids):
        step = property_ids[start:start + sizer.size]
        start += len(step)
        with read_scope(database_url) as session:
            warm_zip_centres(session.connection().execute(
                sa.select(props_t.c.zip_code).where(props_t.c.id.in_(step))).scalars())
        give_way(run, sizer)
        with session_scope(database_url) as session:
            conn = session.connection()
            began = time.perf_counter()
            run.materialise(conn, set(step), titles)
        run.committed_at = time.monotonic()
        sizer.observe(len(step), (time.perf_counter() - began) * 1000)


def close_unseen_set(conn: Connection, run: Any, batch_size: int) -> None:
    """Close every open signal of the dataset this (full) run did not see: the seen keys, and the row
    digests of the rows it passed over unchanged (``records.rules.KnownRow``), go into temporary tables
    (``_temp_column``), then one UPDATE ... WHERE NOT EXISTS closes the rest."""
    seen_t = _temp_column(conn, "ingest_seen", "record_key", "text", run.seen.keys(), batch_size)
    passed = (_temp_column(conn, "ingest_passed", "row_digest", "bigint", iter(run.seen.rows), batch_size)
              if len(run.seen.rows) else None)
    reason = close_reason(run)
    gone = conn.execute(
        sa.update(signals_t)
        .where(signals_t.c.dataset_id == run.dataset.id, signals_t.c.status == "open",
               ~sa.exists().where(seen_t.c.record_key == signals_t.c.record_key),
               *([] if passed is None else [~sa.exists().where(passed.c.row_digest == signals_t.c.row_digest)]))
        .values(status="closed", closed_at=run.retrieved_at, closed_reason=reason)
        .returning(signals_t.c.property_id)).scalars().all()
    if conn.dialect.name != "postgresql":
        conn.exec_driver_sql("DROP TABLE ingest_seen")
        if passed is not None:
            conn.exec_driver_sql("DROP TABLE ingest_passed")
    run.summary.closed += len(gone)
    run.touched.update(gone)


def _temp_column(conn: Connection, name: str, column: str, sql_type: str, values: Any, batch_size: int) -> Any:
    """A temporary table ``name`` of one key column holding ``values``: COPY on PostgreSQL (dropped at
    commit), INSERTs of ``batch_size`` rows elsewhere (the caller drops it)."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"CREATE TEMP TABLE {name} ({column} {sql_type} PRIMARY KEY) ON COMMIT DROP")
        with conn.connection.driver_connection.cursor() as cursor:
            with cursor.copy(f"COPY {name} ({column}) FROM STDIN") as copy:
                for value in values:
                    copy.write_row((value,))
    else:
        conn.exec_driver_sql(f"CREATE TEMP TABLE IF NOT EXISTS {name} ({column} {sql_type.upper()} PRIMARY KEY)")
        conn.exec_driver_sql(f"DELETE FROM {name}")
        insert = sa.text(f"INSERT INTO {name} ({column}) VALUES (:v)")
        chunk: list[dict] = []
        for value in values:
            chunk.append({"v": value})
            if len(chunk) >= batch_size:
                conn.execute(insert, chunk)
                chunk = []
        if chunk:
            conn.execute(insert, chunk)
    return sa.table(name, sa.column(column))
