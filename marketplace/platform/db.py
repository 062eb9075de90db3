"""Database engine and transactions.

The transaction convention (one for the whole app):

- Only ``marketplace/services/`` (and ``jobs/``, the CLI and the migrations)
  import this module or ``marketplace.platform.models``; states, pages, components,
  views and API routes call service functions (through
  ``offloop.run_blocking`` from async code).
- Every public service function opens its own transaction: ``session_scope()``
  when it writes, ``read_scope()`` when it only reads. One user action is one
  service call and, where it writes, one write transaction; slow outside work
  (Argon2, a payment provider, a lead source) runs before or after it, never
  inside it (see ``accounts.sign_in_user``, ``purchases.start_purchase``).
- A function that takes a ``session`` works inside its caller's transaction:
  it is private (``_name``), or its docstring (or its module's) says "inside
  the caller's transaction", so the CLI, the seeding and other services can
  compose several in one transaction. It never commits or rolls back that
  session.

One engine per database URL. Services open their own sessions, two ways:

- ``session_scope()`` for anything that writes: one transaction that commits on
  success and rolls back on any exception, so a failed operation never leaves
  half-written rows. On SQLite it starts with ``BEGIN IMMEDIATE`` (the write
  lock), so read-then-write transactions cannot deadlock.
- ``read_scope()`` for reads: an autocommit connection, no transaction, so a
  read never takes SQLite's write lock and never waits behind a writer (WAL
  readers see the last committed data).

Both block: Reflex states call services through ``marketplace.platform.offloop``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Session, create_engine

import sqlalchemy as sa

from marketplace.platform.config import get_settings
from marketplace.platform.errors import DatabaseUnavailable
from marketplace.platform.text_keys import city_key


_ENGINES: dict[str, Engine] = {}


def _engine_for(url: str) -> Engine:
    engine = _ENGINES.get(url)
    if engine is None:
        engine = _ENGINES[url] = _build_engine(url)
    return engine


def _build_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        path = url.split(":///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        # pysqlite's own transaction handling defers BEGIN; emit BEGIN IMMEDIATE
        # ourselves so that read-then-write transactions cannot deadlock.
        @event.listens_for(engine, "connect")
        def _no_autobegin(dbapi_conn, _record):  # pragma: no cover - trivial
            dbapi_conn.isolation_level = None

        @event.listens_for(engine, "begin")
        def _begin_immediate(conn):  # pragma: no cover - trivial
            if conn.get_execution_options().get("isolation_level") == "AUTOCOMMIT":
                return  # plain reads: no transaction, no write lock
            conn.exec_driver_sql("BEGIN IMMEDIATE")

        return engine
    # Pre-ping: a connection taken from the pool is checked first (one round trip per checkout, not per query),
    # so after an outage the first request once the database is back gets a fresh connection instead of failing
    # on one the outage closed; connections are recycled after 30 minutes.
    return create_engine(url, pool_size=10, max_overflow=20, pool_recycle=1800, pool_pre_ping=True)


def get_engine(url: str | None = None) -> Engine:
    return _engine_for(url or get_settings().database_url)


def dispose_engines() -> None:
    """Close every pooled connection (tests drop databases after this)."""
    for engine in _ENGINES.values():
        engine.dispose()
    _ENGINES.clear()


def city_in(column, cities) -> sa.ColumnElement[bool]:
    """SQL: ``column`` names one of ``cities``, compared as ``platform.text_keys.city_key`` compares
    cities (case does not count); ``lower(city)`` is what the leads' city index holds."""
    keys = sorted({city_key(city) for city in cities})
    return sa.func.lower(column) == keys[0] if len(keys) == 1 else sa.func.lower(column).in_(keys)


@contextmanager
def autocommit(url: str | None = None) -> Iterator[Connection]:
    """A connection without a transaction (each statement commits alone): a read that never takes
    SQLite's write lock nor waits behind a writer, or a statement no transaction may hold (VACUUM)."""
    with get_engine(url).connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        yield conn


@contextmanager
def read_scope(url: str | None = None) -> Iterator[Session]:
    """A read-only session on an autocommit connection: never takes a write lock."""
    with autocommit(url) as conn:
        session = Session(bind=conn, expire_on_commit=False, autoflush=False)
        try:
            yield session
        finally:
            session.close()


@contextmanager
def session_scope(url: str | None = None) -> Iterator[Session]:
    """A transaction: commit on success, roll back on error."""
    session = Session(get_engine(url), expire_on_commit=False)
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


# --------------------------------------------------------------------------- outages

def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` is the database being unreachable (refused, down, a dropped connection), as opposed to
    a bug or bad data: the caller says so plainly ("nothing was charged, try again") instead of a 500."""
    import psycopg

    if isinstance(exc, DatabaseUnavailable):  # offloop.run_blocking's name for the same
        return True
    if isinstance(exc, (sa.exc.OperationalError, sa.exc.InterfaceError)):
        return True
    if isinstance(exc, sa.exc.DBAPIError) and exc.connection_invalidated:
        return True
    return isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError))


def outage_line(exc: BaseException, url: str | None = None) -> str:
    """'Database error: cannot connect to 127.0.0.1:5432 (connection refused)': one line for an operator,
    with where the database is (never its password) and why, from the driver's own words."""
    target = sa.engine.make_url(url or get_settings().database_url)
    if isinstance(exc, DatabaseUnavailable) and exc.__cause__ is not None:
        exc = exc.__cause__
    text = str(getattr(exc, "orig", None) or exc).strip()
    first = text.splitlines()[0] if text else type(exc).__name__
    lowered = text.lower()
    if "connection refused" in lowered:
        reason = "connection refused"
    elif "timeout" in lowered or "timed out" in lowered:
        reason = "timed out"
    elif "does not exist" in lowered:
        reason = first.split(":", 1)[-1].strip() if ":" in first else first
    else:
        reason = first
    if target.get_backend_name() == "sqlite":
        return f"Database error: cannot open {target.database} ({reason[:200]})"
    return f"Database error: cannot connect to {target.host or 'localhost'}:{target.port or 5432} ({reason[:200]})"
