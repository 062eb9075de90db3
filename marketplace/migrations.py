"""Apply and check Alembic migrations from code (CLI, tests, start-up)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from marketplace.config import PROJECT_ROOT
from marketplace.db import get_engine


def include_object(obj, name, type_, reflected, compare_to) -> bool:
    """Autogenerate ignores the PostgreSQL-only sort indexes (``ixs_*``) that the
    migrations create and the models do not declare."""
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
