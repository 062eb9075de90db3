"""Throwaway benchmark databases: a SQLite file, or a fresh PostgreSQL database."""

from __future__ import annotations

import contextlib
import os
import tempfile
import uuid
from pathlib import Path

import sqlalchemy as sa

from marketplace.platform import migrations
from marketplace.platform.config import normalize_database_url
from marketplace.platform.db import dispose_engines

PG_ADMIN_URL = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


@contextlib.contextmanager
def sqlite_database():
    with tempfile.TemporaryDirectory(prefix="lv-bench-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.db'}"
        migrations.upgrade(url)
        yield url
        dispose_engines()


@contextlib.contextmanager
def postgres_database():
    """A new database on the server of BENCH_POSTGRES_URL, dropped afterwards."""
    admin_url = normalize_database_url(PG_ADMIN_URL)
    name = f"lv_bench_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE DATABASE {name}")
    url = admin_url.rsplit("/", 1)[0] + f"/{name}"
    try:
        migrations.upgrade(url)
        yield url
    finally:
        dispose_engines()
        with admin.connect() as conn:
            conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.dispose()
