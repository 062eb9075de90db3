"""Records workers started together on a new database (issue 40, item 2): the queue's schema is applied once,
under the advisory lock, and every worker starts. On PostgreSQL three start-ups race ``ensure_schema`` on a
database of their own, created here; on SQLite (no queue schema: the worker runs the jobs itself) three first
ticks race on a new, migrated database file."""

from __future__ import annotations

import threading
import uuid

import sqlalchemy as sa

from marketplace.platform import migrations
from marketplace.platform.db import dispose_engines, get_engine
from marketplace.features.records import jobs_queue as queue

WORKERS = 3


def _together(start) -> list[str]:
    """``start()`` in WORKERS threads released at the same moment; each thread's outcome ("ok" or the error)."""
    barrier = threading.Barrier(WORKERS)
    outcomes: list[str] = []

    def worker() -> None:
        barrier.wait()
        try:
            start()
            outcomes.append("ok")
        except Exception as exc:  # noqa: BLE001 - the outcome is what the test compares
            outcomes.append(f"{type(exc).__name__}: {exc}".splitlines()[0])

    threads = [threading.Thread(target=worker) for _ in range(WORKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return outcomes


def _new_database(server_url: str) -> str:
    name = f"lv_queue_{uuid.uuid4().hex[:10]}"
    with get_engine(server_url).connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    return sa.engine.make_url(server_url).set(database=name).render_as_string(hide_password=False)


def _drop_database(server_url: str, url: str) -> None:
    dispose_engines()
    name = sa.engine.make_url(url).database
    with get_engine(server_url).connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_three_workers_starting_together_on_a_new_database_all_start(db_url, tmp_path):
    if queue.backend(db_url) == "procrastinate":
        url = _new_database(db_url)
        try:
            outcomes = _together(lambda: queue.ensure_schema(url))
            with get_engine(url).connect() as conn:
                types = conn.execute(sa.text(
                    "SELECT count(*) FROM pg_type WHERE typname = 'procrastinate_job_status'")).scalar()
                tables = conn.execute(sa.text("SELECT to_regclass('procrastinate_jobs')")).scalar()
        finally:
            _drop_database(db_url, url)
        assert outcomes == ["ok"] * WORKERS
        assert (types, tables) == (1, "procrastinate_jobs")
    else:
        url = f"sqlite:///{tmp_path / f'new-{uuid.uuid4().hex[:8]}.db'}"
        migrations.upgrade(url)
        assert _together(lambda: queue.tick(url)) == ["ok"] * WORKERS
