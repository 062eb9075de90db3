"""/auth and /auth/callback (``features/accounts/state.py``), the real sign-in, sign-up and confirmation handlers on a
real tab against the test database: a wrong password gets the SPEC's one message in the form's callout and
no session; after 5 failures even the right password waits; the right password opens a session and goes to
/dashboard; sign-up always ends on "Check your e-mail"; a bad confirmation link goes back to /auth."""

from __future__ import annotations

import re

import sqlalchemy as sa

from marketplace.platform.db import get_engine
from marketplace.platform.models import AuthSession, User
from marketplace.platform import sessions as auth_sessions
from marketplace.features.accounts.state import AuthPageState
from marketplace.features.accounts.state import CallbackState
from tests.factories import PASSWORD, unique_email
from tests.platform.tabs import open_tab, seen, toasts

WRONG = "Invalid login credentials. Signed up recently? Confirm your e-mail first with the link we sent you."


def _count(table, **where) -> int:
    t = table.__table__
    with get_engine().connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(t).where(
            *(t.c[k] == v for k, v in where.items()))).scalar_one()


def _callout(tab) -> tuple:
    return tab.error_tab, tab.error_title, tab.error_message


def test_a_signed_in_visitor_goes_to_the_dashboard(db_url, new_user):
    user = new_user()
    assert seen(open_tab(AuthPageState, user.id, path="/auth").load()) == [("redirect", "/dashboard")]
    tab = open_tab(AuthPageState, None, path="/auth", query={"tab": "signup"})
    assert seen(tab.load()) == [] and tab.tab == "signup"
    tab.set_tab("admin")
    assert tab.tab == "signup"


def test_a_wrong_password_is_told_once_in_the_form_and_opens_no_session(db_url, new_user):
    user = new_user(confirmed=True)
    tab = open_tab(AuthPageState, None, path="/auth")
    events = seen(tab.sign_in({"email": user.email, "password": "not-it"}))
    assert events == [("script",)]  # the callout scrolled into view; no toast
    assert _callout(tab) == ("signin", "Sign In Failed", WRONG)
    assert (tab.access_token, tab.signin_busy, _count(AuthSession, user_id=user.id)) == ("", False, 0)
    unconfirmed = new_user(confirmed=False)  # the right password, the address not confirmed: the same words
    seen(tab.sign_in({"email": unconfirmed.email, "password": PASSWORD}))
    assert _callout(tab) == ("signin", "Sign In Failed", WRONG) and tab.access_token == ""


def test_after_five_failures_even_the_right_password_waits(db_url, new_user):
    user = new_user(confirmed=True)
    tab = open_tab(AuthPageState, None, path="/auth")
    for _ in range(5):
        seen(tab.sign_in({"email": user.email, "password": "guess"}))
        assert tab.error_message == WRONG
    seen(tab.sign_in({"email": user.email, "password": PASSWORD}))
    assert tab.error_title == "Sign In Failed"
    assert re.fullmatch(r"Too many failed sign-in attempts\. Please wait \d+ seconds and try again\.",
                        tab.error_message)
    assert (tab.access_token, _count(AuthSession, user_id=user.id)) == ("", 0)


def test_the_right_password_opens_a_session_and_goes_to_the_dashboard(db_url, new_user):
    user = new_user(confirmed=True, credits=250)
    tab = open_tab(AuthPageState, None, path="/auth")
    assert seen(tab.sign_in({"email": user.email.upper(), "password": PASSWORD})) == [("redirect", "/dashboard")]
    assert _callout(tab) == ("", "", "") and tab.signin_busy is False
    assert (tab.user_id, tab.user_email, tab.first_name, tab.credits) == (str(user.id), user.email, "Test", 250)
    assert auth_sessions.resolve_session(tab.access_token, tab.refresh_token).user_id == user.id
    assert _count(AuthSession, user_id=user.id) == 1


def test_sign_up_refuses_a_mismatch_and_otherwise_always_says_check_your_email(db_url, new_user):
    taken = new_user()
    tab = open_tab(AuthPageState, None, path="/auth", query={"tab": "signup"})
    users = _count(User)
    form = {"first_name": "Ada", "last_name": "L", "email": unique_email(), "password": "secret123",
            "confirm_password": "secret124"}
    seen(tab.sign_up(form))
    assert _callout(tab) == ("signup", "Password Mismatch", "Passwords do not match. Please try again.")
    assert (tab.signup_sent_to, _count(User)) == ("", users)
    seen(tab.sign_up({**form, "confirm_password": "secret123"}))
    assert (_callout(tab), tab.signup_sent_to, _count(User)) == (("", "", ""), form["email"], users + 1)
    tab.sign_up_again()
    seen(tab.sign_up({**form, "email": taken.email, "confirm_password": "secret123"}))  # taken: the same answer
    assert (tab.signup_sent_to, _count(User), tab.access_token) == (taken.email, users + 1, "")


def test_a_referral_code_that_cannot_apply_is_said_after_sign_up(db_url):
    tab = open_tab(AuthPageState, None, path="/auth", query={"tab": "signup"})
    tab.referral_code = "NOSUCHCODE"
    seen(tab.sign_up({"first_name": "Ada", "last_name": "L", "email": unique_email(), "password": "secret123",
                      "confirm_password": "secret123"}))
    assert tab.referral_refused_message.startswith("The referral code NOSUCHCODE could not be applied")
    assert tab.referral_code == ""


def test_a_bad_confirmation_link_goes_back_to_sign_in(db_url):
    tab = open_tab(CallbackState, None, path="/auth/callback", query={"token": "forged"})
    events = seen(tab.load())
    assert toasts(events) == [("error", "Authentication Failed",
                               "This link is invalid or has expired. Please sign in.")]
    assert events[-1] == ("redirect", "/auth") and tab.status == "working" and tab.access_token == ""
    no_token = open_tab(CallbackState, None, path="/auth/callback")
    assert seen(no_token.load()) == [("redirect", "/auth")]
