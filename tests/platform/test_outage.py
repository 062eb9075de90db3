"""Issue 40, item 6 (the UI's part): the database refused while a handler runs is said plainly, by one rule.

``offloop.run_blocking`` (the one way a handler reaches the database) turns a refused connection into
``DatabaseUnavailable``; ``AuthState._error_text`` (the one place a handler's failure becomes a titled
error) shows the area's title with ``DATABASE_UNAVAILABLE``; the app's backend exception handler does the
same for what no handler caught, and says a click met with the session store (Redis) down was not done.
The refusals are real: a PostgreSQL URL on a port of ``tests.fakes.outage.TcpProxy`` that refuses."""

from __future__ import annotations

import logging
import uuid

import pytest
import redis
import sqlalchemy as sa

from marketplace.platform.errors import DatabaseUnavailable
from marketplace.platform.db import is_outage, outage_line
from marketplace.platform.texts import DATABASE_DOWN, DATABASE_UNAVAILABLE, SERVER_UNAVAILABLE
from marketplace.platform.offloop import run_blocking
from marketplace.platform.ui.state_auth import AuthState, unhandled_error
from marketplace.platform.ui.state_signed_in import signed_in
from tests import aio
from tests.fakes.outage import OwnRedis, TcpProxy

FAILED = ("Unlock Failed", "Failed to unlock lead.")


@pytest.fixture
def refused_url():
    """A PostgreSQL URL whose server refuses connections (a proxy of this test's own, switched off)."""
    with TcpProxy(5432) as proxy:
        proxy.refuse()
        yield f"postgresql+psycopg://postgres@127.0.0.1:{proxy.port}/outage"


def _connect(url: str) -> None:
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            conn.execute(sa.text("select 1"))
    finally:
        engine.dispose()


class Tab:
    """The parts of an AuthState the handlers and the decorator use; its database is ``url``."""

    _error_text = AuthState._error_text
    _error_toast = AuthState._error_toast
    _access_denied = AuthState._access_denied
    _open_page = AuthState._open_page
    _device_id = AuthState._device_id
    _session_ended_toast = AuthState._session_ended_toast

    def __init__(self, url: str, session_url: str | None = None):
        self.url, self.session_url, self.calls = url, session_url, 0
        self.device_id, self.time_zone, self.access_token = "", "UTC", "a-token"
        self.auth_loading, self.db_down, self._session_ended = True, False, False

    async def _current_user_id(self):
        if self.session_url:
            await run_blocking(_connect, self.session_url)
        return uuid.uuid4()

    async def _load_user(self, user_id):
        return True

    @signed_in(FAILED)
    async def unlock(self, user_id: uuid.UUID, lead_id: str):
        self.calls += 1
        await run_blocking(_connect, self.url)
        return "unlocked"


def test_run_blocking_names_a_refused_database_and_the_operator_line_still_says_where(refused_url):
    with pytest.raises(DatabaseUnavailable) as caught:
        aio.run(run_blocking(_connect, refused_url))
    assert is_outage(caught.value)
    port = sa.engine.make_url(refused_url).port
    assert outage_line(caught.value, refused_url) == f"Database error: cannot connect to 127.0.0.1:{port} (connection refused)"


def test_a_bug_is_not_an_outage():
    def broken():
        raise KeyError("nope")

    with pytest.raises(KeyError):
        aio.run(run_blocking(broken))


def test_a_handler_meeting_the_database_down_shows_its_areas_title_with_the_outage_message(refused_url, caplog):
    tab = Tab(refused_url)
    with caplog.at_level(logging.WARNING):
        toast = aio.run(tab.unlock("lead-1"))
    assert tab.calls == 1
    assert "Unlock Failed" in str(toast) and DATABASE_UNAVAILABLE in str(toast)
    assert "Failed to unlock lead." not in str(toast)
    # One log line, no traceback: an outage is not a bug.
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert all(r.exc_info is None for r in caplog.records) and "Traceback" not in caplog.text


def test_the_session_check_meeting_the_database_down_is_the_same_toast_and_the_handler_is_not_run(refused_url):
    tab = Tab("unused", session_url=refused_url)
    toast = aio.run(tab.unlock("lead-1"))  # raised out of the handler on main: Reflex's generic error
    assert tab.calls == 0
    assert "Unlock Failed" in str(toast) and DATABASE_UNAVAILABLE in str(toast)


def test_a_page_loaded_with_the_database_down_says_so_and_keeps_the_session(refused_url):
    tab = Tab("unused", session_url=refused_url)
    user_id, events = aio.run(tab._open_page())
    assert user_id is None and tab.db_down is True
    assert tab.access_token == "a-token"  # not signed out by an outage
    assert tab.auth_loading is True  # the header shows neither 'Login' nor an account
    back = Tab("unused")
    back.db_down = True
    user_id, events = aio.run(back._open_page())
    assert user_id is not None and back.db_down is False


def test_what_no_handler_caught_is_said_plainly(refused_url, caplog):
    with pytest.raises(DatabaseUnavailable) as caught:
        aio.run(run_blocking(_connect, refused_url))
    with caplog.at_level(logging.WARNING):
        toast = unhandled_error(caught.value)
    assert DATABASE_DOWN[0] in str(toast) and DATABASE_DOWN[1] in str(toast)
    assert "Traceback" not in caplog.text

    with OwnRedis() as own:
        client = redis.Redis.from_url(own.url)
        own.stop()
        with pytest.raises(redis.exceptions.ConnectionError) as lost:
            client.get("lv-outage-test")
        own.start()
    toast = unhandled_error(lost.value)
    assert SERVER_UNAVAILABLE[0] in str(toast) and SERVER_UNAVAILABLE[1] in str(toast)

    toast = unhandled_error(RuntimeError("a bug"))
    assert "An unexpected error occurred. Please try again." in str(toast)
