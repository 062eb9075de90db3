"""/auth/reset (``features/accounts/state_password_reset.py``), its real handlers on a real tab against the test database:
a request always ends on the same panel (a known address or not) and a malformed address is refused in the
callout; a forged link shows 'expired'; a mismatch is refused and the link still works; the right password
signs this browser in, once."""

from __future__ import annotations

import sqlalchemy as sa

from marketplace.platform.db import get_engine
from marketplace.platform.models import EmailOutbox
from marketplace.platform import sessions as auth_sessions
from marketplace.features.accounts.state_password_reset import PasswordResetState
from tests.platform.tabs import open_tab, seen


def _mails(email: str) -> list[str]:
    t = EmailOutbox.__table__
    with get_engine().connect() as conn:
        return [r.body for r in conn.execute(sa.select(t.c.body).where(t.c.to_address == email,
                                                                      t.c.subject == "Reset your password"))]


def _token(email: str) -> str:
    return _mails(email)[-1].split("/auth/reset?token=", 1)[1].split()[0]


def test_a_request_ends_on_the_same_panel_for_any_address(db_url, new_user):
    user = new_user(confirmed=True)
    tab = open_tab(PasswordResetState, None, path="/auth/reset")
    seen(tab.load())
    assert tab.view == "request"
    assert seen(tab.request_link({"email": "nobody-here@example.com"})) == [] and tab.view == "sent"
    again = open_tab(PasswordResetState, None, path="/auth/reset")
    seen(again.request_link({"email": user.email}))
    assert (again.view, again.error_message, len(_mails(user.email))) == ("sent", "", 1)
    bad = open_tab(PasswordResetState, None, path="/auth/reset")
    assert seen(bad.request_link({"email": "not an address"})) == [("script",)]
    assert (bad.view, bad.error_title, bad.error_message, bad.busy) == (
        "request", "Reset Failed", "Enter the e-mail address you signed up with.", False)


def test_a_forged_link_shows_expired_and_nothing_is_set(db_url):
    tab = open_tab(PasswordResetState, None, path="/auth/reset", query={"token": "forged"})
    seen(tab.load())
    assert tab.view == "invalid"
    assert seen(tab.set_password({"password": "brand-new-pw", "confirm_password": "brand-new-pw"})) == []
    assert tab.access_token == ""
    tab.request_again()
    assert (tab.view, tab._token) == ("request", "")


def test_the_link_sets_the_password_once_and_signs_in(db_url, new_user):
    user = new_user(confirmed=True)
    seen(open_tab(PasswordResetState, None).request_link({"email": user.email}))
    token = _token(user.email)
    tab = open_tab(PasswordResetState, None, path="/auth/reset", query={"token": token})
    seen(tab.load())
    assert tab.view == "new_password"
    assert seen(tab.set_password({"password": "brand-new-pw", "confirm_password": "other-pw"})) == [("script",)]
    assert (tab.view, tab.error_title, tab.access_token) == ("new_password", "Password Mismatch", "")
    events = seen(tab.set_password({"password": "brand-new-pw", "confirm_password": "brand-new-pw"}))
    assert ("toast", "success", "Password Reset",
            "Your new password is set and you're signed in. Every other device was signed out.") in events
    assert events[-1] == ("redirect", "/dashboard")
    assert auth_sessions.resolve_session(tab.access_token, tab.refresh_token).user_id == user.id
    used = open_tab(PasswordResetState, None, path="/auth/reset", query={"token": token})
    seen(used.load())
    assert used.view == "invalid"
