"""The dashboard's Settings tab (``features/accounts/state_settings.py``), its real handlers on a real tab holding a real
session against the test database: signed out, each handler goes to /auth; a refused name, password,
threshold or deletion shows the SPEC's words and changes nothing; each save calls its service once and the
tab shows the stored values; signing out everywhere and deleting the account leave the tab signed out."""

from __future__ import annotations

import sqlalchemy as sa

from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import AuthSession, Profile, User
from marketplace.platform import sessions as auth_sessions
from marketplace.features.accounts import service_passwords as passwords
from marketplace.features.dashboard.state import DashboardState
from marketplace.features.accounts.state_settings import SettingsState
from tests.factories import PASSWORD

FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0"
from tests.platform.tabs import open_tab, seen, toasts


def _signed_in(new_user, credits: int = 1_500, other_devices: int = 1):
    user = new_user(credits=credits)
    with session_scope() as session:
        pair = auth_sessions.create_session(session, user.id, user_agent=FIREFOX, ip_address="203.0.113.7")
        for n in range(other_devices):
            auth_sessions.create_session(session, user.id, user_agent=f"Phone {n}", ip_address="198.51.100.2")
    tab = open_tab(SettingsState, user.id, path="/dashboard", query={"tab": "settings"}, tokens=pair)
    tab.user_email = user.email
    return user, tab


def _count(table, **where) -> int:
    t = table.__table__
    with get_engine().connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(t).where(
            *(t.c[k] == v for k, v in where.items()))).scalar_one()


def _names(user_id) -> tuple:
    t = Profile.__table__
    with get_engine().connect() as conn:
        row = conn.execute(sa.select(t.c.first_name, t.c.last_name).where(t.c.user_id == user_id)).one()
    return tuple(row)


def test_signed_out_every_handler_goes_to_sign_in(db_url, new_user):
    user = new_user()
    tab = open_tab(SettingsState, None, path="/dashboard")
    tab.loaded_for = "someone"
    assert seen(tab.load()) == [("redirect", "/auth")] and tab.loaded_for == ""
    for result in (tab.save_profile({"first_name": "Eve", "last_name": "X"}), tab.resend_confirmation(),
                   tab.change_password({"current_password": PASSWORD, "new_password": "newsecret9",
                                        "confirm_password": "newsecret9"}),
                   tab.revoke_session("x"), tab.sign_out_everywhere(), tab.set_unlock_confirm_threshold("250"),
                   tab.delete_account({"confirm_email": user.email})):
        assert seen(result) == [("redirect", "/auth")]
    assert _names(user.id) == ("Test", "User") and _count(User, id=user.id) == 1


def test_the_load_shows_the_account_and_this_device_first(db_url, new_user):
    user, tab = _signed_in(new_user, credits=1_500, other_devices=2)
    assert seen(tab.load()) == [] and (tab.loaded_for, tab.load_failed) == (str(user.id), False)
    assert (tab.user_email, tab.first_name_input, tab.last_name_input) == (user.email, "Test", "User")
    assert (tab.credits, tab.credits_forfeit, tab.has_webhook_key) == (1_500, "1,500", False)
    assert [(r["device"], r["current"]) for r in tab.sessions] == [("Firefox on Linux", "yes")]
    assert (tab.sessions_total, tab.sessions_hidden) == (3, 2)
    assert (tab.unlock_confirm_on, tab.unlock_confirm_threshold) == (True, "120")
    seen(tab.toggle_sessions())
    assert len(tab.sessions) == 3 and tab.sessions_hidden == 0


def test_the_name_is_refused_when_too_long_and_saved_otherwise(db_url, new_user):
    user, tab = _signed_in(new_user)
    seen(tab.load())
    events = seen(tab.save_profile({"first_name": "A" * 101, "last_name": "Smith"}))
    assert toasts(events) == [("error", "Name Too Long", "First name must be at most 100 characters long.")]
    assert (_names(user.id), tab.profile_saving) == (("Test", "User"), False)
    events = seen(tab.save_profile({"first_name": "  Ada ", "last_name": "Lovelace"}))
    assert ("toast", "success", "Profile Updated", "Your name was saved.") in events
    assert (_names(user.id), tab.first_name, tab.last_name_input) == (("Ada", "Lovelace"), "Ada", "Lovelace")
    assert aio_dashboard(tab).last_name == "Lovelace"  # the dashboard's Account card follows


def aio_dashboard(tab):
    from tests import aio
    return aio.run(tab.get_state(DashboardState))


def test_a_wrong_current_password_changes_nothing_and_the_right_one_signs_out_the_others(db_url, new_user):
    user, tab = _signed_in(new_user, other_devices=1)
    seen(tab.load())
    events = seen(tab.change_password({"current_password": "wrong-one", "new_password": "newsecret9",
                                       "confirm_password": "newsecret9"}))
    assert toasts(events) == [("error", "Password Not Changed",
                               "Your current password is incorrect. Nothing was changed.")]
    assert _count(AuthSession, user_id=user.id, revoked_at=None) == 2
    events = seen(tab.change_password({"current_password": PASSWORD, "new_password": "newsecret9",
                                       "confirm_password": "newsecret9"}))
    assert ("toast", "success", "Password Changed",
            "Your password was changed. 1 other device signed out.") in events
    assert events[-1] == ("event", "SettingsState.refresh_sessions") and tab.password_saving is False
    assert _count(AuthSession, user_id=user.id, revoked_at=None) == 1
    t = User.__table__
    with get_engine().connect() as conn:
        stored = conn.execute(sa.select(t.c.password_hash).where(t.c.id == user.id)).scalar_one()
    assert passwords.verify_password(stored, "newsecret9") and not passwords.verify_password(stored, PASSWORD)


def test_a_forged_threshold_is_refused_and_a_choice_is_saved(db_url, new_user):
    user, tab = _signed_in(new_user)
    seen(tab.load())
    events = seen(tab.set_unlock_confirm_threshold("7"))
    assert toasts(events) == [("error", "Invalid Setting", "Choose one of the offered thresholds.")]
    assert tab.unlock_confirm_threshold == "120"
    events = seen(tab.set_unlock_confirm_on(False))
    assert ("toast", "success", "Settings Saved", "Your unlock confirmation setting was updated.") in events
    again = open_tab(SettingsState, user.id)
    again.access_token, again.refresh_token = tab.access_token, tab.refresh_token
    seen(again.load())
    assert (again.unlock_confirm_on, again.unlock_confirm_threshold) == (False, "120")


def test_signing_out_everywhere_leaves_the_tab_signed_out(db_url, new_user):
    user, tab = _signed_in(new_user, other_devices=2)
    seen(tab.load())
    events = seen(tab.sign_out_everywhere())
    assert events[0] == ("redirect", "/") and ("toast", "success", "Signed Out Everywhere",
                                                 "Every device, this one included, was signed out.") in events
    assert (tab.access_token, tab.user_email, tab.credits) == ("", "", 0)
    assert _count(AuthSession, user_id=user.id, revoked_at=None) == 0


def test_deleting_needs_the_exact_email(db_url, new_user):
    user, tab = _signed_in(new_user)
    seen(tab.load())
    tab.set_delete_confirm("not-my@example.com")
    assert not tab.delete_ready
    events = seen(tab.delete_account({"confirm_email": "not-my@example.com"}))
    assert toasts(events) == [("error", "Account Not Deleted", "Type your e-mail address exactly as shown to confirm.")]
    assert _count(AuthSession, user_id=user.id, revoked_at=None) == 2 and tab.user_email == user.email
    events = seen(tab.delete_account({"confirm_email": user.email}))
    assert events[0] == ("redirect", "/")
    assert ("toast", "success", "Account Deleted", "Your account was deleted and you have been signed out.") in events
    assert tab.user_email == "" and _count(AuthSession, user_id=user.id, revoked_at=None) == 0
