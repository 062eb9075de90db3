"""Password reset (issue 24 #7) and the sign-in/sign-up refusal in view at 1280x800
(issue 24 #10), driven through Chromium against the live app.

With LV_SCREENSHOTS=1 the tests also save the screens they pass through, at 1280
and 375 px wide, in test-artifacts/ (to look at them).
"""

from __future__ import annotations

import os
import re
import uuid

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import func, select

from marketplace.platform.db import session_scope
from marketplace.platform.models import AuthSession, EmailOutbox, User
from marketplace.platform import sessions as auth_sessions
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import (
    RESET_LINK_RE,
    at_rest,
    expect_toast,
    mailed_link,
    sign_in,
    use_own_ip,
    visit,
    wait_until,
)

RESET_SENT = ("If an account exists for that address, we've sent a link to reset the password. "
              "It expires in 30 minutes.")
RESET_SUBJECT = "Reset your password"
LINK_INVALID = "This link has expired or was already used"
INVALID_CREDENTIALS = "Invalid login credentials. Signed up recently? Confirm your e-mail first with the link we sent you."
NEW_PASSWORD = "fresh-pass-42"


def shoot(page: Page, name: str) -> None:
    """Screenshots of the current screen at 1280 and 375 px (LV_SCREENSHOTS=1), then back to 1280."""
    if os.environ.get("LV_SCREENSHOTS") != "1":
        return
    size = page.viewport_size
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": size["height"]})
        at_rest(page)
        page.screenshot(path=str(ARTIFACTS / f"reset-{name}-{width}.png"))
    page.set_viewport_size(size)


def in_viewport(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    view = page.viewport_size
    return (box is not None and box["y"] >= 0 and box["x"] >= 0
            and box["y"] + box["height"] <= view["height"] and box["x"] + box["width"] <= view["width"])


def last_outbox_id(db_url: str) -> int:
    with session_scope(db_url) as session:
        return session.exec(select(func.coalesce(func.max(EmailOutbox.id), 0))).one()


def mails_to(db_url: str, email: str) -> int:
    with session_scope(db_url) as session:
        return session.exec(select(func.count()).select_from(EmailOutbox).where(EmailOutbox.to_address == email)).one()


def request_reset(page: Page, email: str) -> None:
    page.locator("#reset-email").fill(email)
    page.locator("#reset-request-submit").click()
    expect(page.locator("#reset-sent-panel")).to_be_visible()
    expect(page.locator("#reset-sent-text")).to_have_text(RESET_SENT)


def submit_new_password(page: Page, password: str, confirm: str) -> None:
    page.locator("#reset-password").fill(password)
    page.locator("#reset-confirm-password").fill(confirm)
    page.locator("#reset-submit").click()


def expect_reset_error(page: Page, title: str, message: str) -> None:
    expect(page.locator("#reset-error-title")).to_have_text(title)
    expect(page.locator("#reset-error-message")).to_have_text(message)
    assert in_viewport(page, "#reset-error")


def test_forgot_password_whole_flow(page: Page, live_server, make_user):
    db = live_server.database_url
    user = make_user(password="old-secret")
    use_own_ip(page)
    with session_scope(db) as session:  # the account is signed in on another device
        other = auth_sessions.create_session(session, uuid.UUID(user["id"]))
    before = last_outbox_id(db)

    visit(page, "/auth")
    shoot(page, "signin")
    page.locator("#signin-forgot").click()
    expect(page).to_have_url(re.compile(r"/auth/reset/?$"))
    expect(page.locator("#reset-title")).to_have_text("Forgot your password?")
    shoot(page, "request")
    request_reset(page, user["email"].upper())
    shoot(page, "sent")

    # An unknown address gets the very same panel, and no e-mail.
    nobody = f"nobody-{uuid.uuid4().hex[:8]}@example.com"
    page.locator("#reset-ask-again").click()
    request_reset(page, nobody)
    link = mailed_link(db, user["email"], RESET_SUBJECT, RESET_LINK_RE, after_id=before)
    assert link.startswith(live_server.url + "/auth/reset?token=")  # SITE_URL
    assert mails_to(db, nobody) == 0

    visit(page, link)
    expect(page.locator("#reset-title")).to_have_text("Choose a new password")
    shoot(page, "form")
    # SPEC 5's rules and texts; the link stays usable after a refused password.
    submit_new_password(page, "abcdef", "abcdeg")
    expect_reset_error(page, "Password Mismatch", "Passwords do not match. Please try again.")
    submit_new_password(page, "abc", "abc")
    expect_reset_error(page, "Password Too Short", "Password must be at least 6 characters long.")
    shoot(page, "form-error")

    submit_new_password(page, NEW_PASSWORD, NEW_PASSWORD)
    page.wait_for_url("**/dashboard", timeout=20000)
    expect_toast(page, "Password Reset",
                 "Your new password is set and you're signed in. Every other device was signed out.")
    expect(page.locator("#header-signout").or_(page.get_by_label("Account details")).first).to_be_visible()
    with session_scope(db) as session:
        assert auth_sessions.validate_access_token(session, other.access_token) is None  # signed out
        live = session.exec(select(func.count()).select_from(AuthSession).where(
            AuthSession.user_id == uuid.UUID(user["id"]), AuthSession.revoked == False)).one()  # noqa: E712
        assert live == 1  # this browser's new session only

    # The link works once.
    visit(page, link)
    expect(page.locator("#reset-invalid-panel")).to_be_visible()
    expect(page.locator("#reset-invalid")).to_have_text(LINK_INVALID)
    shoot(page, "invalid")
    page.locator("#reset-request-new").click()
    expect(page.locator("#reset-email")).to_be_visible()

    # Signed out: the old password is refused, the new one signs in.
    page.context.clear_cookies()
    page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    visit(page, "/auth")
    page.locator("#signin-email").fill(user["email"])
    page.locator("#signin-password").fill("old-secret")
    page.locator("#signin-submit").click()
    expect(page.locator("#auth-error-message")).to_have_text(INVALID_CREDENTIALS)
    sign_in(page, user["email"], NEW_PASSWORD)


def test_reset_link_for_an_unconfirmed_account_confirms_it(page: Page, live_server, make_user):
    db = live_server.database_url
    user = make_user(password="old-secret", confirmed=False)
    use_own_ip(page)
    visit(page, "/auth/reset")
    request_reset(page, user["email"])
    visit(page, mailed_link(db, user["email"], RESET_SUBJECT, RESET_LINK_RE))
    submit_new_password(page, NEW_PASSWORD, NEW_PASSWORD)
    page.wait_for_url("**/dashboard", timeout=20000)
    with session_scope(db) as session:
        assert session.get(User, uuid.UUID(user["id"])).email_confirmed_at is not None


def test_a_forged_link_shows_the_expired_page(page: Page):
    visit(page, "/auth/reset?token=not-a-real-token")
    expect(page.locator("#reset-invalid")).to_have_text(LINK_INVALID)
    expect(page.locator("#reset-password")).to_have_count(0)


def test_reset_requests_are_throttled(page: Page, live_server):
    use_own_ip(page)
    email = f"flood-{uuid.uuid4().hex[:8]}@example.com"
    visit(page, "/auth/reset")
    for _ in range(3):
        request_reset(page, email)
        page.locator("#reset-ask-again").click()
    page.locator("#reset-email").fill(email)
    page.locator("#reset-request-submit").click()
    expect_reset_error(page, "Reset Failed", "Too many reset requests. Please try again in 60 minutes.")


# --------------------------------------------------------------------------- issue 24 #10


@pytest.mark.parametrize("width", [1280, 375])
def test_sign_in_refusal_is_in_view(page: Page, make_user, width):
    user = make_user()
    use_own_ip(page)
    page.set_viewport_size({"width": width, "height": 800})
    visit(page, "/auth")
    page.locator("#signin-email").fill(user["email"])
    page.locator("#signin-password").fill("not-the-password")
    page.locator("#signin-submit").click()
    expect(page.locator("#auth-error-message")).to_have_text(INVALID_CREDENTIALS)
    expect(page.locator("#auth-error")).to_have_attribute("role", "alert")
    wait_until(lambda: in_viewport(page, "#auth-error"), timeout=5, message="the error is out of view")
    if os.environ.get("LV_SCREENSHOTS") == "1":
        page.screenshot(path=str(ARTIFACTS / f"auth-signin-error-{width}.png"))


@pytest.mark.parametrize("width", [1280, 375])
def test_sign_up_refusal_is_in_view(page: Page, width):
    use_own_ip(page)
    page.set_viewport_size({"width": width, "height": 800})
    visit(page, "/auth")
    page.locator("#tab-signup").click()
    page.locator("#signup-first-name").fill("Jane")
    page.locator("#signup-last-name").fill("Doe")
    page.locator("#signup-email").fill(f"view-{uuid.uuid4().hex[:8]}@example.com")
    page.locator("#signup-password").fill("secret123")
    page.locator("#signup-confirm-password").fill("secret124")
    page.locator("#signup-submit").click()
    expect(page.locator("#auth-error-title")).to_have_text("Password Mismatch")
    wait_until(lambda: in_viewport(page, "#auth-error"), timeout=5, message="the error is out of view")
    if os.environ.get("LV_SCREENSHOTS") == "1":
        page.screenshot(path=str(ARTIFACTS / f"auth-signup-error-{width}.png"))
