"""The dashboard's Settings tab, one test per section, against the real app."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect
from sqlmodel import func, select

from marketplace.platform.db import session_scope
from marketplace.platform.models import CreditLedger, EmailOutbox, Profile, User
from marketplace.features.scrape import service_webhook_keys as webhook_keys
from marketplace.platform.texts import CONFIRM_SUBJECT
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import expect_toast, reload, sign_in, start_session, use_own_ip, visit, wait_ready

SESSION_ENDED = ("Signed Out", "Your session has ended: you were signed out, or your password was changed. "
                                 "Please sign in again.")
INVALID_CREDENTIALS = "Invalid login credentials. Signed up recently? Confirm your e-mail first with the link we sent you."

DASHBOARD = re.compile(r"/dashboard/?(\?tab=\w+)?$")  # a tab is in the address (issue 24)
AUTH = re.compile(r"/auth/?(\?.*)?$")
HOME = re.compile(r"^[^?#]*://[^/]+/?$")


def open_tab(page: Page, name: str) -> None:
    """Click a dashboard tab and wait until it is the active one: the tabs follow the server's answer, so
    a click on another tab before that answer lands on a tab that is still the active one and does nothing."""
    page.locator(f"#dashboard-tab-{name}").click()
    expect(page.locator(f"#dashboard-tab-{name}")).to_have_attribute("data-state", "active")
    expect(page).to_have_url(re.compile(rf"/dashboard\?tab={name}$"))  # its navigation done too


def open_settings(page: Page) -> None:
    if not DASHBOARD.search(page.url):
        visit(page, "/dashboard")
    open_tab(page, "settings")
    expect(page.locator("#dashboard-settings")).to_be_visible()


def new_page(browser, live_server) -> Page:
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15000)
    return context.new_page()


def expect_signed_out_on_reload(page: Page, told: bool = False) -> None:
    """Opening the dashboard lands on sign-in; a tab whose session ended elsewhere is told why."""
    visit(page, "/dashboard")
    page.wait_for_url(AUTH, timeout=20000)
    expect(page.locator("#header-login")).to_be_visible()
    if told:
        expect_toast(page, *SESSION_ENDED)


def test_profile_names_are_validated_saved_and_greet_at_once(page: Page, live_server, make_user):
    user = make_user(first_name="Nia", last_name="Investor")
    sign_in(page, user["email"], user["password"])
    expect(page.locator("#dashboard-greeting")).to_have_text(re.compile(r"^Welcome(?: back)?, Nia!$"))
    open_settings(page)
    expect(page.locator("#settings-first-name")).to_have_value("Nia")
    expect(page.locator("#settings-last-name")).to_have_value("Investor")

    page.locator("#settings-first-name").fill("   ")
    page.locator("#settings-save-profile").click()
    expect_toast(page, "Missing Information", "First name is required.")

    page.locator("#settings-first-name").fill("  Ada ")
    page.locator("#settings-last-name").fill("Lovelace")
    page.locator("#settings-save-profile").click()
    expect_toast(page, "Profile Updated", "Your name was saved.")
    expect(page.locator("#dashboard-greeting")).to_have_text(re.compile(r"^Welcome(?: back)?, Ada!$"))
    expect(page.locator("#settings-first-name")).to_have_value("Ada")
    with session_scope(live_server.database_url) as session:
        profile = session.get(Profile, uuid.UUID(user["id"]))
        assert (profile.first_name, profile.last_name) == ("Ada", "Lovelace")
    reload(page)
    expect(page.locator("#dashboard-greeting")).to_have_text(re.compile(r"^Welcome(?: back)?, Ada!$"))


def test_email_state_and_resend_of_the_confirmation_link(page: Page, live_server, make_user):
    user = make_user(confirmed=False)
    start_session(page, live_server.database_url, user["id"])  # an unconfirmed address cannot use the form
    open_settings(page)
    expect(page.locator("#settings-email")).to_have_value(user["email"])
    expect(page.locator("#settings-email-status")).to_have_text("Not confirmed")
    page.locator("#settings-resend-confirmation").click()
    expect_toast(page, "Confirmation Link Sent",
                 f"We sent a new link to {user['email']}. Open it to confirm your address.")
    page.locator("#settings-resend-confirmation").click()
    expect_toast(page, "Please Wait")
    with session_scope(live_server.database_url) as session:
        sent = session.exec(select(func.count()).select_from(EmailOutbox).where(
            EmailOutbox.to_address == user["email"], EmailOutbox.subject == CONFIRM_SUBJECT)).one()
    assert sent == 1

    confirmed = make_user(confirmed=True)
    other = new_page(page.context.browser, live_server)
    sign_in(other, confirmed["email"], confirmed["password"])
    open_settings(other)
    expect(other.locator("#settings-email-status")).to_have_text("Confirmed")
    expect(other.locator("#settings-resend-confirmation")).to_have_count(0)
    other.context.close()


def test_password_change_signs_out_the_other_browser_and_keeps_this_one(page: Page, browser, live_server, make_user):
    user = make_user(password="old-secret")
    use_own_ip(page)
    sign_in(page, user["email"], "old-secret")
    second = new_page(browser, live_server)
    sign_in(second, user["email"], "old-secret")
    open_settings(page)

    def submit(current: str, new: str, confirm: str) -> None:
        page.locator("#settings-current-password").fill(current)
        page.locator("#settings-new-password").fill(new)
        page.locator("#settings-confirm-password").fill(confirm)
        page.locator("#settings-change-password").click()

    submit("old-secret", "new-secret", "new-secreX")
    expect_toast(page, "Password Mismatch", "Passwords do not match. Please try again.")
    submit("old-secret", "short", "short")
    expect_toast(page, "Password Too Short", "Password must be at least 6 characters long.")
    submit("not-my-password", "new-secret", "new-secret")
    expect_toast(page, "Password Not Changed", "Your current password is incorrect. Nothing was changed.")
    reload(second)
    expect(second.locator("#dashboard-greeting")).to_be_visible()  # nothing changed yet

    submit("old-secret", "new-secret", "new-secret")
    expect_toast(page, "Password Changed", "Your password was changed. 1 other device signed out.")
    expect(page.locator("#settings-current-password")).to_have_value("")
    expect(page.locator("#settings-sessions .settings-session")).to_have_count(1)

    expect_signed_out_on_reload(second, told=True)
    reload(page)
    expect(page.locator("#dashboard-greeting")).to_be_visible()
    # reload waited for the ready signal: the session check of the page load is done, and it stayed.
    assert DASHBOARD.search(page.url)
    second.context.close()

    third = new_page(browser, live_server)
    sign_in(third, user["email"], "new-secret")
    third.context.close()


def test_sessions_list_sign_out_one_device_and_everywhere(page: Page, browser, live_server, make_user):
    user = make_user()
    sign_in(page, user["email"], user["password"])
    second = new_page(browser, live_server)
    sign_in(second, user["email"], user["password"])
    open_settings(page)
    rows = page.locator("#settings-sessions .settings-session")
    # The current session first, the other behind "1 more".
    expect(rows).to_have_count(1)
    expect(rows.first.locator(".settings-this-device")).to_have_count(1)
    expect(page.locator("#settings-sessions-count")).to_have_text("2 active sessions")
    expect(page.locator("#settings-sessions-more")).to_have_text("1 more")
    page.locator("#settings-sessions-card").screenshot(path=str(ARTIFACTS / "settings-sessions-collapsed.png"))
    page.locator("#settings-sessions-more").click()
    expect(rows).to_have_count(2)
    expect(page.locator("#settings-sessions-more")).to_have_count(0)
    page.locator("#settings-sessions-card").screenshot(path=str(ARTIFACTS / "settings-sessions-expanded.png"))
    expect(page.locator("#settings-sessions .settings-this-device")).to_have_count(1)
    expect(rows.first.locator(".settings-session-device")).to_have_text("Chrome on Linux")

    other_row = rows.filter(has_not=page.locator(".settings-this-device"))
    other_row.locator(".settings-session-signout").click()
    expect_toast(page, "Signed Out", "That device was signed out.")
    expect(rows).to_have_count(1)
    expect_signed_out_on_reload(second, told=True)
    second.context.close()

    third = new_page(browser, live_server)
    sign_in(third, user["email"], user["password"])
    open_tab(page, "unlocked")
    open_settings(page)
    expect(rows).to_have_count(2)
    page.locator("#settings-signout-everywhere").click()
    page.locator("#settings-signout-everywhere-confirm").click()
    page.wait_for_url(HOME)
    expect(page.locator("#header-login")).to_be_visible()
    expect_signed_out_on_reload(page)
    expect_signed_out_on_reload(third, told=True)
    third.context.close()


def test_webhook_key_state_and_link_to_the_bulk_scraper(page: Page, live_server, make_user):
    user = make_user()
    sign_in(page, user["email"], user["password"])
    open_settings(page)
    expect(page.locator("#settings-webhook-state")).to_contain_text("No key")

    with session_scope(live_server.database_url) as session:
        key = webhook_keys.rotate_key(session, uuid.UUID(user["id"]))
    open_tab(page, "unlocked")
    open_settings(page)
    expect(page.locator("#settings-webhook-state")).to_contain_text("Key set")
    expect(page.locator("#settings-webhook-hint")).to_have_text(key[-4:])
    link = page.locator("#settings-webhook-link")
    expect(link).to_have_attribute("href", "/bulkscraper?section=webhook")
    link.click()
    page.wait_for_url(re.compile(r"/bulkscraper\?section=webhook$"))
    expect(page.locator("#webhook-panel")).to_be_visible()
    expect(page.locator("#webhook-key")).to_contain_text(key[-4:])
    expect(page.locator("#webhook-toggle")).to_be_in_viewport()
    wait_ready(page)  # the page's loads are done: nothing closes it again
    expect(page.locator("#webhook-panel")).to_be_visible()

    # Opened from the address itself too, and collapsed on a plain visit.
    visit(page, "/bulkscraper?section=webhook")
    expect(page.locator("#webhook-panel")).to_be_visible()
    visit(page, "/bulkscraper")
    expect(page.locator("#webhook-toggle")).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#webhook-panel")).to_have_count(0)


def test_delete_account_end_to_end(page: Page, live_server, make_user):
    user = make_user(credits=300)
    sign_in(page, user["email"], user["password"])
    open_settings(page)
    expect(page.locator("#settings-delete-credits")).to_have_text("300 credits")
    expect(page.locator("#settings-delete-removed")).to_contain_text("Your name, e-mail address and password")
    expect(page.locator("#settings-delete-kept")).to_contain_text("credit ledger")
    submit = page.locator("#settings-delete-submit")
    expect(submit).to_be_disabled()
    page.locator("#settings-delete-confirm").fill("someone@example.com")
    expect(submit).to_be_disabled()
    page.locator("#settings-delete-confirm").fill(user["email"].upper())
    expect(submit).to_be_enabled()
    submit.click()
    page.wait_for_url(HOME)
    expect_toast(page, "Account Deleted", "Your account was deleted and you have been signed out.")
    expect(page.locator("#header-login")).to_be_visible()

    with session_scope(live_server.database_url) as session:
        tomb = session.get(User, uuid.UUID(user["id"]))
        assert tomb.deleted_at is not None and tomb.email.endswith("@deleted.invalid")
        assert session.get(Profile, tomb.id) is None
        # The ledger stays: the opening 300 and their forfeit, so it sums to the balance (none).
        ledger = session.exec(select(CreditLedger.delta, CreditLedger.reason)
                              .where(CreditLedger.user_id == tomb.id).order_by(CreditLedger.id)).all()
        assert [tuple(row) for row in ledger] == [(300, "admin_grant"), (-300, "forfeited")]
    expect_signed_out_on_reload(page)
    page.locator("#signin-email").fill(user["email"])
    page.locator("#signin-password").fill(user["password"])
    page.locator("#signin-submit").click()
    expect(page.locator("#auth-error-title")).to_have_text("Sign In Failed")
    expect(page.locator("#auth-error-message")).to_have_text(INVALID_CREDENTIALS)


def test_settings_tab_fits_desktop_and_phone(page: Page, live_server, make_user):
    user = make_user(first_name="Morgan", credits=1250, confirmed=False)
    start_session(page, live_server.database_url, user["id"])
    open_settings(page)
    page.screenshot(path=str(ARTIFACTS / "settings-1280.png"), full_page=True)
    page.set_viewport_size({"width": 375, "height": 800})
    expect(page.locator("#settings-delete-submit")).to_be_visible()
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    page.screenshot(path=str(ARTIFACTS / "settings-375.png"), full_page=True)
    for card in ("profile", "email-card", "password", "sessions-card", "webhook", "delete"):
        page.locator(f"#settings-{card}").screenshot(path=str(ARTIFACTS / f"settings-375-{card}.png"))
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px at 375 px"
