"""The production shape for the browser harness (``LV_PROD_SHAPE=1``).

``prod_shape_backends`` gives ``live_server`` what the README's "Running in
production" section prescribes: a fresh PostgreSQL database on the server of
``TEST_DATABASE_URL`` (created here, dropped at the end), a Redis database
(``TEST_REDIS_URL``, default ``redis://127.0.0.1:6379/14``, flushed before and
after) and ``GRANIAN_WORKERS=2``. The daily refresh scheduler is on, so both
workers start it and both run the start-up catch-up (see ``server_hooks``).

``answering_pids`` tells which server processes answered HTTP requests, from
``/proc``: the owner of the server side of each connection.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from pathlib import Path

import httpx
import pytest
import redis
import sqlalchemy as sa

from marketplace.platform.config import normalize_database_url
from marketplace.features.marketplace.rules_criteria import SearchCriteria
from marketplace.platform.db import dispose_engines
from marketplace.platform.migrations import upgrade
from marketplace.features.scrape.service_seeding import insert_leads
from marketplace.features.scrape.source_builtin import BuiltinSource

WORKERS = 2
REFRESH_COUNT = 40  # LEAD_REFRESH_COUNT of the served app
SEEDED_LEADS = 12  # leads in the database before the app starts (older than the refresh)
SEED_TAG = "smoke-seed:"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/14"
HOOKS = Path(__file__).resolve().parent / "server_hooks"


def _redis(url: str) -> redis.Redis:
    client = redis.Redis.from_url(url)
    try:
        client.ping()
    except redis.RedisError as exc:
        pytest.fail(f"the prod-shape run needs Redis at {url} (TEST_REDIS_URL): {exc}")
    return client


def _admin_engine() -> tuple[sa.Engine, sa.URL]:
    raw = os.environ.get("TEST_DATABASE_URL")
    if not raw:
        pytest.fail("the prod-shape run needs TEST_DATABASE_URL (a PostgreSQL database; .ci/run sets it)")
    server = sa.make_url(normalize_database_url(raw))
    if server.get_backend_name() != "postgresql":
        pytest.fail(f"TEST_DATABASE_URL must point at PostgreSQL for the prod-shape run, not {server.drivername}")
    engine = sa.create_engine(server, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
    except sa.exc.OperationalError as exc:
        pytest.fail(f"PostgreSQL at TEST_DATABASE_URL is unreachable: {exc}")
    return engine, server


def _seed(database_url: str) -> None:
    rows = BuiltinSource(seed=4242).search(SearchCriteria(count=SEEDED_LEADS))
    for row in rows:
        row["external_id"] = f"{SEED_TAG}{uuid.uuid4()}"
        row["is_new"] = True
    insert_leads(rows, database_url)


@contextlib.contextmanager
def prod_shape_backends(tmp: Path):
    """Yield (DATABASE_URL, extra environment) for the served app; clean up after."""
    redis_url = os.environ.get("TEST_REDIS_URL") or DEFAULT_REDIS_URL
    client = _redis(redis_url)
    client.flushdb()
    admin, server = _admin_engine()
    name = f"lv_smoke_{uuid.uuid4().hex[:12]}"
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    database_url = server.set(database=name).render_as_string(hide_password=False)
    try:
        upgrade(database_url)
        _seed(database_url)
        hooks_path = os.pathsep.join(p for p in (str(HOOKS), os.environ.get("PYTHONPATH", "")) if p)
        yield database_url, {
            "REDIS_URL": redis_url,
            "GRANIAN_WORKERS": str(WORKERS),
            "LEAD_REFRESH_SCHEDULER": "on",
            "LEAD_REFRESH_COUNT": str(REFRESH_COUNT),
            "PYTHONPATH": hooks_path,
        }
    finally:
        dispose_engines()
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()
        client.flushdb()
        client.close()


# --------------------------------------------------------------------------- which process answered


def _group_pids(pgid: int) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()  # state ppid pgrp ...
        if int(fields[2]) == pgid:
            pids.append(int(entry))
    return pids


def _socket_owners(pids: list[int]) -> dict[int, int]:
    owners: dict[int, int] = {}
    for pid in pids:
        fd_dir = Path(f"/proc/{pid}/fd")
        try:
            fds = list(fd_dir.iterdir())
        except OSError:
            continue
        for fd in fds:
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                owners.setdefault(int(target[8:-1]), pid)
    return owners


def answering_pids(base_url: str, port: int, pgid: int, connections: int = 24) -> set[int]:
    """Open ``connections`` keep-alive connections, make a request on each and
    return the pids of the server processes holding their server-side sockets."""
    clients = [httpx.Client(base_url=base_url, timeout=10) for _ in range(connections)]
    try:
        for client in clients:
            assert client.get("/api/health").status_code == 200
        owners = _socket_owners(_group_pids(pgid))
        answered = set()
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with contextlib.suppress(OSError):
                for line in Path(table).read_text().splitlines()[1:]:
                    fields = line.split()
                    local_port = int(fields[1].rsplit(":", 1)[1], 16)
                    established = fields[3] == "01"
                    inode = int(fields[9])
                    if local_port == port and established and inode in owners:
                        answered.add(owners[inode])
        return answered
    finally:
        for client in clients:
            client.close()
