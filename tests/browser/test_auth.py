"""/auth, /auth/callback, sign-out and the header, driven through Chromium.

Every test asserts what a user notices (texts, URLs) and, where it matters,
the rows the live app wrote to its database.
"""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import func, select

from marketplace.platform.db import session_scope
from marketplace.platform.models import AuthSession, EmailOutbox, LoginAttempt, Profile, User
from marketplace.platform.sessions import hash_token
from tests.browser.helpers import (
    confirmation_link,
    ever_seen,
    record_labels,
    recorded_labels,
    sign_in,
    use_own_ip,
    visit,
    wait_until,
    watch_for,
)

INVALID_CREDENTIALS = "Invalid login credentials. Signed up recently? Confirm your e-mail first with the link we sent you."

TOKEN_KEYS = ("lv_access_token", "lv_refresh_token", "lv_access_expires_at")
CONFIRM_LINK_RE = re.compile(r"(https?://\S+/auth/callback\?token=\S+)")



def unique_email(prefix: str = "signup") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}@example.com"


def users_with_email(db_url: str, email: str) -> int:
    with session_scope(db_url) as session:
        return session.exec(select(func.count()).select_from(User).where(User.email == email)).one()


def outbox_count(db_url: str, email: str) -> int:
    with session_scope(db_url) as session:
        return session.exec(
            select(func.count()).select_from(EmailOutbox).where(EmailOutbox.to_address == email)
        ).one()


def open_sign_up(page: Page) -> None:
    visit(page, "/auth")
    page.locator("#tab-signup").click()
    expect(page.locator("#signup-first-name")).to_be_visible()


def fill_sign_up(page: Page, first: str, last: str, email: str, password: str, confirm: str) -> None:
    page.locator("#signup-first-name").fill(first)
    page.locator("#signup-last-name").fill(last)
    page.locator("#signup-email").fill(email)
    page.locator("#signup-password").fill(password)
    page.locator("#signup-confirm-password").fill(confirm)


def expect_auth_error(page: Page, title: str, message: str | re.Pattern) -> None:
    """The refusal under the form, said once: one callout, no toast repeating it."""
    callout = page.locator("#auth-error")
    expect(callout).to_be_visible()
    expect(callout.locator("#auth-error-title")).to_have_text(title)
    expect(callout.locator("#auth-error-message")).to_have_text(message)
    expect(page.get_by_text(title, exact=True)).to_have_count(1)
    expect(page.locator("[data-sonner-toast]")).to_have_count(0)


def expect_toast(page: Page, text: str) -> None:
    expect(page.locator("[data-sonner-toast]").filter(has_text=text).first).to_be_visible()


def local_storage(page: Page, key: str):
    return page.evaluate("(k) => window.localStorage.getItem(k)", key)


# --------------------------------------------------------------------------- sign up


def expect_check_email(page: Page, email: str) -> None:
    """Where every sign-up ends: the same panel, whatever the address (said once: no toast)."""
    expect(page.locator("#signup-check-email")).to_be_visible()
    expect(page.locator("#signup-check-title")).to_have_text("Check your e-mail")
    expect(page.locator("#signup-check-message")).to_have_text(
        f"We sent a link to {email}. Open it to confirm your address and sign in.")
    expect(page.get_by_text("Check your e-mail", exact=True)).to_have_count(1)
    expect(page.locator("[data-sonner-toast]")).to_have_count(0)
    expect(page).to_have_url(re.compile(r"/auth/?$"))


def test_sign_up_happy_path(page: Page, live_server):
    """Sign-up ends on 'Check your e-mail'; the link in the e-mail signs in and opens the dashboard."""
    email = unique_email()
    open_sign_up(page)
    expect(page.get_by_label("First name")).to_be_visible()
    fill_sign_up(page, "Jane", "Doe", email, "secret123", "secret123")
    expect(page.locator("#signup-submit")).to_have_text("Create Account")
    record_labels(page, "signup-submit")
    page.locator("#signup-submit").click()

    expect_check_email(page, email)
    assert "Creating account..." in recorded_labels(page)
    assert not local_storage(page, "lv_access_token")  # nobody is signed in by a sign-up
    expect(page.locator("#header-login")).to_be_visible()
    with session_scope(live_server.database_url) as session:
        user, profile = session.exec(
            select(User, Profile).join(Profile, Profile.user_id == User.id).where(User.email == email)
        ).one()
        assert (profile.first_name, profile.last_name) == ("Jane", "Doe")
        assert user.email_confirmed_at is None
        assert session.exec(select(func.count()).select_from(AuthSession).where(AuthSession.user_id == user.id)).one() == 0
    assert outbox_count(live_server.database_url, email) == 1

    visit(page, confirmation_link(live_server.database_url, email))
    page.wait_for_url("**/dashboard")
    expect(page.locator("#dashboard-greeting")).to_have_text(re.compile(r"^Welcome(?: back)?, Jane!$"))
    expect(page.locator("#header-email")).to_have_text(email)
    expect(page.locator("#dashboard-confirm-email")).to_have_count(0)
    assert local_storage(page, "lv_access_token")


SIGN_UP_ERRORS = [
    pytest.param(("Jane", "Doe", "secret123", "secret124"), "Password Mismatch",
                 "Passwords do not match. Please try again.", id="mismatch"),
    pytest.param(("Jane", "Doe", "12345", "12345"), "Password Too Short",
                 "Password must be at least 6 characters long.", id="too-short"),
    pytest.param(("", "Doe", "secret123", "secret123"), "Missing Information", "First name is required.",
                 id="missing-first-name"),
    pytest.param(("J" * 101, "Doe", "secret123", "secret123"), "Name Too Long",
                 "First name must be at most 100 characters long.", id="first-name-too-long"),
    pytest.param(("Jane", "Doe", "p" * 129, "p" * 129), "Password Too Long",
                 "Password must be at most 128 characters long.", id="password-too-long"),
]


@pytest.mark.parametrize(("fields", "title", "message"), SIGN_UP_ERRORS)
def test_sign_up_validation_errors(page: Page, live_server, fields, title, message):
    first, last, password, confirm = fields
    email = unique_email("invalid")
    open_sign_up(page)
    fill_sign_up(page, first, last, email, password, confirm)
    page.locator("#signup-submit").click()

    expect_auth_error(page, title, message)
    expect(page).to_have_url(re.compile(r"/auth/?$"))
    expect(page.locator("#signup-submit")).to_have_text("Create Account")
    expect(page.locator("#signup-submit")).to_be_enabled()
    assert users_with_email(live_server.database_url, email) == 0
    assert outbox_count(live_server.database_url, email) == 0


def test_sign_up_records_captured_referral_code(page: Page, live_server, make_user):
    referrer = make_user(first_name="Ref")
    with session_scope(live_server.database_url) as session:
        code = session.get(Profile, uuid.UUID(referrer["id"])).referral_code
    visit(page, f"/{code}")
    page.wait_for_url(f"{live_server.url}/")
    email = unique_email("referred")
    open_sign_up(page)
    expect(page.locator("#signup-referral")).to_contain_text(code)
    fill_sign_up(page, "Riley", "Referred", email, "secret123", "secret123")
    page.locator("#signup-submit").click()
    expect_check_email(page, email)
    expect(page.locator("#signup-referral-refused")).to_have_count(0)
    with session_scope(live_server.database_url) as session:
        profile = session.exec(
            select(Profile).join(User, User.id == Profile.user_id).where(User.email == email)
        ).one()
        assert str(profile.referred_by) == referrer["id"]


# --------------------------------------------------------------------------- sign in / out


def test_sign_in_shows_dashboard_and_busy_label(page: Page, make_user):
    user = make_user(first_name="Sam", credits=250)
    visit(page, "/auth")
    expect(page.get_by_label("Email")).to_be_visible()
    expect(page.get_by_label("Password")).to_be_visible()
    page.locator("#signin-email").fill(user["email"])
    page.locator("#signin-password").fill(user["password"])
    expect(page.locator("#signin-submit")).to_have_text("Sign In")
    record_labels(page, "signin-submit")
    page.locator("#signin-submit").click()

    page.wait_for_url("**/dashboard")
    expect(page.locator("#dashboard-greeting")).to_have_text(re.compile(r"^Welcome(?: back)?, Sam!$"))
    expect(page.locator("#dashboard-credits")).to_have_text("250 credits")
    expect(page.locator("#header-email")).to_have_text(user["email"])
    expect(page.locator("#dashboard-confirm-email")).to_have_count(0)
    assert "Signing in..." in recorded_labels(page)


@pytest.mark.parametrize("known_email", [True, False], ids=["wrong-password", "unknown-email"])
def test_sign_in_refused(page: Page, live_server, make_user, known_email):
    email = make_user()["email"] if known_email else unique_email("nobody")
    visit(page, "/auth")
    page.locator("#signin-email").fill(email)
    page.locator("#signin-password").fill("not-the-password")
    page.locator("#signin-submit").click()

    expect_auth_error(page, "Sign In Failed", INVALID_CREDENTIALS)
    expect(page).to_have_url(re.compile(r"/auth/?$"))
    expect(page.locator("#signin-submit")).to_be_enabled()
    assert not local_storage(page, "lv_access_token")
    with session_scope(live_server.database_url) as session:
        attempts = session.exec(select(LoginAttempt).where(LoginAttempt.email == email)).all()
        assert [a.succeeded for a in attempts] == [False]


def test_sign_in_throttled_after_five_failures(page: Page, live_server, make_user):
    user = make_user()
    ip = use_own_ip(page)
    visit(page, "/auth")
    page.locator("#signin-email").fill(user["email"])

    def failures() -> int:
        with session_scope(live_server.database_url) as session:
            return session.exec(
                select(func.count()).select_from(LoginAttempt).where(LoginAttempt.email == user["email"])
            ).one()

    for attempt in range(1, 6):
        page.locator("#signin-password").fill(f"wrong-{attempt}")
        page.locator("#signin-submit").click()
        wait_until(lambda n=attempt: failures() == n, message=f"attempt {attempt} was not recorded")
        expect_auth_error(page, "Sign In Failed", INVALID_CREDENTIALS)
        expect(page.locator("#signin-submit")).to_be_enabled()

    # Sixth attempt, with the right password: refused without checking it.
    page.locator("#signin-password").fill(user["password"])
    page.locator("#signin-submit").click()
    expect_auth_error(
        page,
        "Sign In Failed",
        re.compile(r"^Too many failed sign-in attempts\. Please wait \d+ seconds and try again\.$"),
    )
    expect(page.locator("#signin-submit")).to_be_enabled()
    expect(page).to_have_url(re.compile(r"/auth/?$"))
    assert not local_storage(page, "lv_access_token")
    assert failures() == 5  # a refused attempt is not recorded
    with session_scope(live_server.database_url) as session:  # X-Forwarded-For, one trusted proxy
        assert {a.ip_address for a in session.exec(select(LoginAttempt).where(LoginAttempt.email == user["email"]))} == {ip}
    with session_scope(live_server.database_url) as session:
        sessions = session.exec(
            select(func.count()).select_from(AuthSession).where(AuthSession.user_id == uuid.UUID(user["id"]))
        ).one()
        assert sessions == 0


def test_sign_out_revokes_session(page: Page, live_server, make_user):
    user = make_user()
    sign_in(page, user["email"], user["password"])
    expect(page.locator("#dashboard-greeting")).to_be_visible()
    access_token = local_storage(page, "lv_access_token")
    assert access_token

    page.locator("#header-signout").click()
    page.wait_for_url(f"{live_server.url}/")
    expect(page.locator("#header-login")).to_be_visible()
    expect(page.locator("#header-signout")).to_have_count(0)
    for key in TOKEN_KEYS:
        assert not local_storage(page, key), key
    with session_scope(live_server.database_url) as session:
        row = session.exec(select(AuthSession).where(AuthSession.access_token_hash == hash_token(access_token))).one()
        assert row.revoked is True
        assert row.revoked_at is not None

    # The dashboard is closed again.
    visit(page, "/dashboard")
    page.wait_for_url("**/auth")


def test_header_reflects_sign_in_state(page: Page, make_user):
    user = make_user()
    visit(page, "/")
    expect(page.locator("#header-login")).to_be_visible()
    expect(page.locator("#header-login")).to_have_text("Login")
    expect(page.locator("#header-signout")).to_have_count(0)
    expect(page.locator("#nav-dashboard")).to_have_count(0)
    expect(page.locator("#header-email")).to_have_count(0)

    sign_in(page, user["email"], user["password"])
    expect(page.locator("#header-signout")).to_have_text("Sign Out")
    expect(page.locator("#header-email")).to_have_text(user["email"])
    expect(page.locator("#nav-dashboard")).to_be_visible()
    expect(page.locator("#nav-dashboard")).to_have_attribute("href", "/dashboard")
    expect(page.locator("#header-login")).to_have_count(0)


# --------------------------------------------------------------------------- /auth page


def test_auth_page_links(page: Page, live_server):
    visit(page, "/auth")
    expect(page.locator("#auth-terms-link")).to_have_attribute("href", "/legal#terms")
    expect(page.locator("#auth-privacy-link")).to_have_attribute("href", "/legal#privacy")
    expect(page.get_by_text("By continuing you agree to our Terms of Service and Privacy Policy.")).to_be_visible()
    page.locator("#auth-back-home").click()
    page.wait_for_url(f"{live_server.url}/")


def test_auth_with_session_redirects_without_showing_form(page: Page, make_user):
    user = make_user()
    sign_in(page, user["email"], user["password"])
    watch_for(page, "signin-email", "signup-email", "auth-checking")
    visit(page, "/auth")
    page.wait_for_url("**/dashboard")
    expect(page.locator("#dashboard-greeting")).to_be_visible()
    assert ever_seen(page, "auth-checking")
    assert not ever_seen(page, "signin-email")
    assert not ever_seen(page, "signup-email")


# --------------------------------------------------------------------------- e-mail confirmation


def test_email_confirmation_link_signs_in(page: Page, live_server):
    email = unique_email("confirm")
    open_sign_up(page)
    fill_sign_up(page, "Casey", "Confirm", email, "secret123", "secret123")
    page.locator("#signup-submit").click()
    expect_check_email(page, email)

    with session_scope(live_server.database_url) as session:
        mail = session.exec(select(EmailOutbox).where(EmailOutbox.to_address == email)).one()
    assert mail.subject == "Confirm your e-mail address"
    link = CONFIRM_LINK_RE.search(mail.body).group(1)
    assert link.startswith(f"{live_server.url}/auth/callback?token=")

    watch_for(page, "callback-welcome")  # 'Welcome!' shows briefly (0.2 s) before the dashboard
    visit(page, link)
    page.wait_for_url("**/dashboard")
    assert ever_seen(page, "callback-welcome")
    expect(page.locator("#dashboard-greeting")).to_have_text("Welcome, Casey!")
    expect(page.locator("#header-email")).to_have_text(email)
    expect(page.locator("#dashboard-confirm-email")).to_have_count(0)
    with session_scope(live_server.database_url) as session:
        user = session.exec(select(User).where(User.email == email)).one()
        assert user.email_confirmed_at is not None

    # Single use: the same link again (signed out) goes to /auth.
    page.locator("#header-signout").click()
    page.wait_for_url(f"{live_server.url}/")
    visit(page, link)
    page.wait_for_url(re.compile(r"/auth/?$"))
    expect_toast(page, "Authentication Failed")
    # The password works now that the address is confirmed.
    sign_in(page, email, "secret123")
    expect(page.locator("#dashboard-greeting")).to_have_text("Welcome back, Casey!")


def test_callback_with_bad_token_goes_to_auth(page: Page):
    visit(page, "/auth/callback?token=not-a-real-token")
    page.wait_for_url(re.compile(r"/auth/?$"))
    expect_toast(page, "Authentication Failed")
    expect(page.locator("#signin-email")).to_be_visible()
    assert not local_storage(page, "lv_access_token")


def test_callback_without_token(page: Page, make_user):
    visit(page, "/auth/callback")
    page.wait_for_url(re.compile(r"/auth/?$"))
    expect(page.locator("#signin-email")).to_be_visible()

    user = make_user(first_name="Wes")
    sign_in(page, user["email"], user["password"])
    watch_for(page, "callback-welcome")  # 'Welcome!' shows briefly (0.2 s) before the dashboard
    visit(page, "/auth/callback")
    page.wait_for_url("**/dashboard")
    assert ever_seen(page, "callback-welcome")
    expect(page.locator("#dashboard-greeting")).to_have_text("Welcome, Wes!")


def test_confirmation_link_replaces_the_current_session(page: Page, live_server, make_user):
    email = unique_email("confirm")
    open_sign_up(page)
    fill_sign_up(page, "Alex", "Link", email, "secret123", "secret123")
    page.locator("#signup-submit").click()
    expect_check_email(page, email)
    link = confirmation_link(live_server.database_url, email)

    other = make_user(first_name="Blair")
    sign_in(page, other["email"], other["password"])
    expect(page.locator("#dashboard-greeting")).to_have_text("Welcome, Blair!")
    other_token = local_storage(page, "lv_access_token")

    watch_for(page, "callback-welcome")  # 'Welcome!' shows briefly (0.2 s) before the dashboard
    visit(page, link)
    page.wait_for_url("**/dashboard")
    assert ever_seen(page, "callback-welcome")
    expect(page.locator("#dashboard-greeting")).to_have_text("Welcome, Alex!")
    expect(page.locator("#header-email")).to_have_text(email)
    with session_scope(live_server.database_url) as session:
        old = session.exec(select(AuthSession).where(AuthSession.access_token_hash == hash_token(other_token))).one()
        assert old.revoked is True
