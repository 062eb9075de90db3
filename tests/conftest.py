"""Shared fixtures.

Database tests take the ``db_url`` fixture. It runs each test on SQLite and,
when ``TEST_DATABASE_URL`` is set, again on PostgreSQL. With
``REQUIRE_POSTGRES=1`` a missing or unreachable PostgreSQL fails the run
instead of quietly testing SQLite only.

Every test is marked by what it needs: ``browser`` (under tests/browser), ``db`` (it takes ``db_url``, or is
marked so because it starts a process that migrates a database of its own); the rest are unit tests, which
``make test-unit`` runs with ``DATABASE_URL`` pointing at no server, so a unit test that touches a database
fails there.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlmodel import SQLModel

from marketplace.platform import migrations
from marketplace.platform.config import normalize_database_url, reload_settings
from marketplace.platform.db import dispose_engines, get_engine

_SCHEMAS: dict[str, str] = {}


def _backends() -> list[str]:
    backends = ["sqlite"]
    if os.environ.get("TEST_DATABASE_URL"):
        backends.append("postgres")
    elif os.environ.get("REQUIRE_POSTGRES") == "1":
        backends.append("postgres")  # the fixture fails loudly below
    return backends


def pytest_generate_tests(metafunc):
    if "db_url" in metafunc.fixturenames:
        metafunc.parametrize("db_url", _backends(), indirect=True)


def _prepare(backend: str, tmp_root: Path) -> str:
    if backend in _SCHEMAS:
        return _SCHEMAS[backend]
    if backend == "sqlite":
        url = f"sqlite:///{tmp_root / 'test.db'}"
    else:
        raw = os.environ.get("TEST_DATABASE_URL")
        if not raw:
            pytest.fail("REQUIRE_POSTGRES=1 but TEST_DATABASE_URL is not set")
        url = normalize_database_url(raw)
        try:
            with get_engine(url).begin() as conn:
                conn.exec_driver_sql("DROP SCHEMA public CASCADE")
                conn.exec_driver_sql("CREATE SCHEMA public")
        except sa.exc.OperationalError as exc:
            pytest.fail(f"PostgreSQL at TEST_DATABASE_URL is unreachable: {exc}")
    migrations.upgrade(url)
    _SCHEMAS[backend] = url
    return url


def _truncate(url: str) -> None:
    tables = [t.name for t in reversed(SQLModel.metadata.sorted_tables)]
    with get_engine(url).begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql("TRUNCATE " + ", ".join(tables) + " RESTART IDENTITY CASCADE")
        else:
            for name in tables:
                conn.exec_driver_sql(f"DELETE FROM {name}")


@pytest.fixture(scope="session")
def _tmp_root():
    with tempfile.TemporaryDirectory(prefix="lv-tests-") as tmp:
        yield Path(tmp)


@pytest.fixture
def db_url(request, _tmp_root, monkeypatch):
    """A migrated, empty database; DATABASE_URL points at it for the test."""
    url = _prepare(request.param, _tmp_root)
    _truncate(url)
    monkeypatch.setenv("DATABASE_URL", url)
    reload_settings()
    yield url


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path_factory, monkeypatch):
    """Keep the secret key and SQLite defaults out of the developer's data/; every
    test starts from settings read afresh (``get_settings()`` keeps what it read:
    a test that changes a variable calls ``reload_settings()`` after it)."""
    monkeypatch.setenv("MARKETPLACE_DATA_DIR", str(tmp_path_factory.getbasetemp() / "data"))
    monkeypatch.setenv("SECRET_KEY", "test-secret-key")
    reload_settings()


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/browser/" in item.nodeid:
            item.add_marker(pytest.mark.browser)
        elif "db_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.db)


def pytest_sessionfinish(session, exitstatus):
    dispose_engines()


@pytest.fixture
def new_user(db_url):
    """Factory: a stored user (``tests.factories.make_user``) in the test database."""
    from tests.factories import make_user

    def _make(credits: int = 0, email: str | None = None, password: str = "secret123", **kw):
        kw.setdefault("confirmed", False)
        return make_user(email=email, password=password, credits=credits, **kw)

    return _make
