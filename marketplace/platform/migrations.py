"""Apply and check Alembic migrations from code (CLI, tests, start-up)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from marketplace.platform.config import PROJECT_ROOT
from marketplace.platform.db import get_engine


def include_object(obj, name, type_, reflected, compare_to) -> bool:
    """Autogenerate ignores the PostgreSQL-only sort indexes (``ixs_*``) that the
    migrations create and the models do not declare, and the job queue's own tables
    (``procrastinate_*``: Procrastinate's schema, applied by ``records.jobs_queue.ensure_schema``)."""
    if name and name.startswith("procrastinate_"):
        return False
    if type_ in ("index", "column", "unique_constraint", "foreign_key_constraint") and getattr(
            getattr(obj, "table", None), "name", "").startswith("procrastinate_"):
        return False
    return not (type_ == "index" and name and name.startswith("ixs_"))


def alembic_config(database_url: str | None = None) -> Config:
    cfg = Config(str(PROJECT_ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(PROJECT_ROOT / "alembic"))
    if database_url:
        cfg.attributes["database_url"] = database_url
    return cfg


def upgrade(database_url: str | None = None) -> None:
    """Bring the schema to head; safe to run on every start."""
    engine = get_engine(database_url)
    cfg = alembic_config(database_url)
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # Several workers or `make run` twice: only one migrates at a time.
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(724011)")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(database_url: str | None = None) -> str | None:
    """The database's Alembic revision; None when it was never migrated."""
    from alembic.runtime.migration import MigrationContext

    with get_engine(database_url).connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def schema_problem(database_url: str | None = None) -> str | None:
    """One line saying why the app cannot run on this database, or None when it is at head."""
    try:
        current = current_revision(database_url)
    except Exception as exc:  # noqa: BLE001 - unreachable server, bad credentials, unreadable file
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"Database error: cannot open the database ({reason[:200]})"
    head = head_revision()
    if current == head:
        return None
    if current is None:
        return "Database error: the database was never migrated: run `make migrate`"
    return f"Database error: the database schema is at {current}, the app needs {head}: run `make migrate`"


def exit_unless_migrated() -> None:
    """At app start: one line on stderr and exit status 1 instead of tracebacks later."""
    import sys

    from marketplace.platform.db import dispose_engines

    problem = schema_problem()
    # The check ran before the server forks its workers: no pooled connection may be
    # inherited by them (two processes on one PostgreSQL connection corrupt it).
    dispose_engines()
    if problem:
        print(problem, file=sys.stderr, flush=True)
        raise SystemExit(1)
