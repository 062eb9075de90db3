"""Sessions and account abuse, driven through Chromium: two tabs refreshing one
session at once, the sign-in throttle after a success, a sign-up with a taken
address that looks like any other, self-referral in the referrer's browser,
a route name as a referral code."""

from __future__ import annotations

import re
import time
import uuid
from datetime import timedelta

from playwright.sync_api import Page, expect
from sqlmodel import func, select

from marketplace.platform.db import session_scope
from marketplace.platform.models import AuthSession, EmailOutbox, LoginAttempt, Profile, User, utcnow
from marketplace.platform.sessions import hash_token
from marketplace.platform.sessions import REFRESH_GRACE
from marketplace.platform.texts import CODE_RESERVED
from tests.browser.helpers import expect_toast, sign_in, start_session, use_own_ip, visit, wait_ready, wait_until
from tests.browser.test_auth import expect_check_email, fill_sign_up, local_storage, open_sign_up, unique_email

INVALID_CREDENTIALS = "Invalid login credentials. Signed up recently? Confirm your e-mail first with the link we sent you."

CLICK_BOTH_AT = """
([selector, at]) => setTimeout(() => document.querySelector(selector).click(), Math.max(0, at - Date.now()))
"""


def click_in_both_at_once(tabs: list[Page], selector: str) -> None:
    """The same click in every tab at one wall-clock instant (scheduled in the pages)."""
    at = int(time.time() * 1000) + 600
    for tab in tabs:
        tab.evaluate(CLICK_BOTH_AT, [selector, at])


def session_row(db: str, user_id: str) -> AuthSession:
    with session_scope(db) as session:
        return session.exec(select(AuthSession).where(AuthSession.user_id == uuid.UUID(user_id))).one()


def expect_signed_in(tab: Page, email: str) -> None:
    expect(tab.locator("#header-email")).to_have_text(email)
    expect(tab.locator("#header-signout")).to_be_visible()


# --------------------------------------------------------------------------- sessions


def test_two_tabs_refreshing_at_once_both_stay_signed_in(page: Page, live_server, make_user):
    db = live_server.database_url
    user = make_user(first_name="Tabby")
    sign_in(page, user["email"], user["password"])
    tab2 = page.context.new_page()
    visit(tab2, "/dashboard")
    expect(tab2.locator("#dashboard-greeting")).to_have_text(re.compile(r"^Welcome(?: back)?, Tabby!$"))
    tabs = [page, tab2]
    first_refresh = local_storage(page, "lv_refresh_token")

    # The access token runs out (on the server, and in both tabs' stored expiry) ...
    with session_scope(db) as session:
        row = session.exec(select(AuthSession).where(AuthSession.user_id == uuid.UUID(user["id"]))).one()
        row.access_expires_at = utcnow() - timedelta(minutes=1)
    past = (utcnow() - timedelta(minutes=1)).isoformat()
    for tab in tabs:
        tab.evaluate("(v) => localStorage.setItem('lv_access_expires_at', v)", past)
    # ... and both tabs act at the same moment: both must refresh, one rotates.
    click_in_both_at_once(tabs, 'header nav a[href="/marketplace"]')
    for tab in tabs:
        tab.wait_for_url("**/marketplace")

    def current_refresh_hash() -> str:
        return session_row(db, user["id"]).refresh_token_hash

    # The refresh happens (the server rotates the pair once) ... Waiting for the
    # tokens alone could pass before any tab had refreshed: both still held the
    # first pair, which was then the current one.
    wait_until(lambda: session_row(db, user["id"]).rotated_at is not None,
               message="no tab refreshed the expired session")
    # ... and both tabs end with the current pair: the winner from its refresh, the
    # tab that lost the race through localStorage. (Before the fix the loser signed
    # out and emptied localStorage for both.)
    for tab in tabs:
        wait_until(lambda t=tab: hash_token(local_storage(t, "lv_refresh_token") or "") == current_refresh_hash(),
                   message="a tab does not hold the current refresh token")
    for tab in tabs:  # each tab's load, its session check (the refresh) included, is done
        wait_ready(tab)
        expect_signed_in(tab, user["email"])
    row = session_row(db, user["id"])
    assert not row.revoked and row.rotated_at is not None
    # One rotation: the tab that lost the race did not rotate again when the new pair reached it.
    assert row.prev_refresh_token_hash == hash_token(first_refresh)

    # The grace is over: an old refresh token would now revoke the session. Both
    # tabs act again, signed in with the current pair.
    with session_scope(db) as session:
        current = session.get(AuthSession, row.id)
        current.rotated_at = utcnow() - REFRESH_GRACE - timedelta(seconds=5)
    click_in_both_at_once(tabs, "#nav-dashboard")
    for tab in tabs:
        tab.wait_for_url("**/dashboard")
        expect(tab.locator("#dashboard-greeting")).to_have_text(re.compile(r"^Welcome(?: back)?, Tabby!$"))
        expect_signed_in(tab, user["email"])
    assert session_row(db, user["id"]).revoked is False


# --------------------------------------------------------------------------- sign-in throttle


def test_sign_in_throttle_holds_after_a_success_of_ones_own_account(page: Page, live_server, make_user):
    """Before the fix, one's own successful sign-in reset the IP's count: unlimited guesses."""
    db = live_server.database_url
    ip = use_own_ip(page)
    mine = make_user()
    now = utcnow()
    with session_scope(db) as session:  # 19 wrong guesses at other people's addresses from this IP
        for i in range(19):
            session.add(LoginAttempt(email=f"victim{i}-{uuid.uuid4().hex[:6]}@example.com", ip_address=ip,
                                     succeeded=False, created_at=now))
    sign_in(page, mine["email"], mine["password"])  # allowed: 19 < 20
    page.locator("#header-signout").click()
    page.wait_for_url(f"{live_server.url}/")

    visit(page, "/auth")
    victim = make_user()
    page.locator("#signin-email").fill(victim["email"])
    page.locator("#signin-password").fill("guess-number-20")
    page.locator("#signin-submit").click()
    expect(page.locator("#auth-error-message")).to_have_text(INVALID_CREDENTIALS)
    page.locator("#signin-password").fill("guess-number-21")
    page.locator("#signin-submit").click()
    expect(page.locator("#auth-error-message")).to_have_text(
        re.compile(r"^Too many failed sign-in attempts\. Please wait \d+ seconds and try again\.$"))
    with session_scope(db) as session:
        failures = session.exec(select(func.count()).select_from(LoginAttempt).where(
            LoginAttempt.ip_address == ip, LoginAttempt.succeeded.is_(False))).one()
    assert failures == 20


# --------------------------------------------------------------------------- sign-up privacy


def test_sign_up_with_a_registered_email_looks_like_any_sign_up(page: Page, live_server, make_user):
    db = live_server.database_url
    use_own_ip(page)
    fresh = unique_email("fresh")
    open_sign_up(page)
    fill_sign_up(page, "Other", "Person", fresh, "another123", "another123")
    page.locator("#signup-submit").click()
    expect_check_email(page, fresh)
    fresh_panel = page.locator("#signup-check-email").inner_text().replace(fresh, "EMAIL")
    fresh_toasts = page.locator("[data-sonner-toast]").all_inner_texts()

    existing = make_user(first_name="Existing")
    visit(page, "/")
    open_sign_up(page)
    fill_sign_up(page, "Other", "Person", existing["email"], "another123", "another123")
    page.locator("#signup-submit").click()
    expect_check_email(page, existing["email"])
    assert page.locator("#signup-check-email").inner_text().replace(existing["email"], "EMAIL") == fresh_panel
    assert [t.replace(existing["email"], fresh) for t in page.locator("[data-sonner-toast]").all_inner_texts()] \
        == fresh_toasts
    assert not local_storage(page, "lv_access_token")

    with session_scope(db) as session:
        assert session.exec(select(func.count()).select_from(User).where(User.email == existing["email"])).one() == 1
        assert session.get(Profile, uuid.UUID(existing["id"])).first_name == "Existing"
        [notice] = session.exec(select(EmailOutbox).where(EmailOutbox.to_address == existing["email"])).all()
    assert notice.subject == "Someone tried to sign up with your e-mail address"
    sign_in(page, existing["email"], existing["password"])  # the owner's password is untouched


# --------------------------------------------------------------------------- referral abuse


def test_referral_is_refused_in_the_referrers_browser(page: Page, live_server, make_user):
    db = live_server.database_url
    referrer = make_user(first_name="Ref")
    sign_in(page, referrer["email"], referrer["password"])  # this browser is now the referrer's
    device = local_storage(page, "lv_device_id")
    assert device and session_row(db, referrer["id"]).device_id == device
    page.locator("#header-signout").click()
    page.wait_for_url(f"{live_server.url}/")
    with session_scope(db) as session:
        code = session.get(Profile, uuid.UUID(referrer["id"])).referral_code

    visit(page, f"/{code}")
    page.wait_for_url(f"{live_server.url}/")
    email = unique_email("second-account")
    open_sign_up(page)
    expect(page.locator("#signup-referral")).to_contain_text(code)
    fill_sign_up(page, "Second", "Account", email, "secret123", "secret123")
    page.locator("#signup-submit").click()
    expect_check_email(page, email)
    message = (f"The referral code {code} could not be applied to this account: a referral code cannot be "
               "used by its owner, and it must belong to an existing account.")
    expect(page.locator("#signup-referral-refused-title")).to_have_text("Referral code not applied")
    expect(page.locator("#signup-referral-refused-message")).to_have_text(message)
    # Said once, in the panel (issue 14: no toast repeating what the page shows).
    expect(page.locator("[data-sonner-toast]")).to_have_count(0)
    assert page.evaluate("() => window.sessionStorage.getItem('referral_code')") in (None, "")
    with session_scope(db) as session:
        profile = session.exec(
            select(Profile).join(User, User.id == Profile.user_id).where(User.email == email)
        ).one()
        assert profile.referred_by is None


def test_a_route_name_cannot_become_a_referral_code(page: Page, live_server, make_user):
    db = live_server.database_url
    user = make_user()
    with session_scope(db) as session:
        old = session.get(Profile, uuid.UUID(user["id"])).referral_code
    start_session(page, db, user["id"])
    visit(page, "/dashboard")
    page.locator("#dashboard-tab-referrals").click()
    page.locator("#referral-edit").click()
    page.locator("#referral-edit-input").fill("PRICING")
    page.locator("#referral-edit-save").click()
    expect_toast(page, *CODE_RESERVED)
    expect(page.locator("#referral-edit-dialog")).to_be_visible()
    expect(page.locator("#referral-code")).to_have_text(old)
    with session_scope(db) as session:
        assert session.get(Profile, uuid.UUID(user["id"])).referral_code == old
