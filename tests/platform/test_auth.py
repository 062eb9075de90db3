"""The header's own handlers (``platform/ui/state_auth.py``), the real ``AuthState`` with its real session resolution on a
real tab (``tests/platform/tabs.py``) against the test database: a session ended elsewhere is said once ('Signed Out') and the tab
forgets the user; Sign out revokes the session on the server and forgets the tokens; a junk time zone is not
kept."""

from __future__ import annotations

from marketplace.platform.db import session_scope
from marketplace.platform import sessions as auth_sessions
from marketplace.platform.ui.state_auth import AuthState
from tests.platform.tabs import open_tab, run, seen

ENDED = ("toast", "info", "Signed Out", "Your session has ended: you were signed out, or your password was changed. "
                                        "Please sign in again.")


def _tab(user):
    """A tab holding a real session of ``user``, resolved the real way."""
    with session_scope() as session:
        pair = auth_sessions.create_session(session, user.id, user_agent="pytest")
    tab = open_tab(AuthState, None)  # the tokens are in its storage; the header knows nobody yet
    tab.access_token, tab.refresh_token = pair.access_token, pair.refresh_token
    return tab, pair


def test_keep_alive_loads_the_header_and_a_session_ended_elsewhere_is_said_once(db_url, new_user):
    user = new_user(credits=75)
    tab, pair = _tab(user)
    assert seen(tab.keep_alive()) == []
    assert (tab.user_id, tab.user_email, tab.credits, tab.is_authenticated) == (str(user.id), user.email, 75, True)
    auth_sessions.end_session(pair.access_token, pair.refresh_token)  # signed out on another device
    assert seen(tab.keep_alive()) == [ENDED]
    assert (tab.user_id, tab.access_token, tab.credits, tab.is_authenticated) == ("", "", 0, False)
    assert seen(tab.keep_alive()) == []  # said once


def test_sign_out_revokes_the_session_and_forgets_the_tokens(db_url, new_user):
    user = new_user(credits=75)
    tab, pair = _tab(user)
    seen(tab.check_session())
    assert tab.credits == 75
    clear, home = run(tab.sign_out())
    assert "clear_session_storage" in repr(clear) and "window.location.replace('/')" in repr(home)
    assert (tab.access_token, tab.refresh_token, tab.user_id, tab.credits) == ("", "", "", 0)
    assert auth_sessions.resolve_session(pair.access_token, pair.refresh_token).user_id is None


def test_a_junk_time_zone_is_not_kept(db_url):
    tab = open_tab(AuthState, None)
    tab.remember_time_zone("America/Chicago")
    assert (tab.time_zone, tab._zone()) == ("America/Chicago", "America/Chicago")
    tab.remember_time_zone("Mars/Olympus_Mons")
    assert tab._zone() == "UTC" and tab.time_zone != "Mars/Olympus_Mons"
