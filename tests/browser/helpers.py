"""Small steps shared by browser tests."""

from __future__ import annotations

import json
import re
import time
import uuid

from playwright.sync_api import Page, expect
from sqlmodel import select

from marketplace.db import session_scope
from marketplace.services import auth_sessions
from marketplace.services.auth_sessions import TokenPair

# Installed before any page script: remembers whether an element ever existed,
# so a test can prove that protected UI never flashed.
WATCH_SCRIPT = """
(() => {
  window.__seen = {};
  const ids = %s;
  const check = () => { for (const id of ids) { if (document.getElementById(id)) window.__seen[id] = true; } };
  new MutationObserver(check).observe(document, {childList: true, subtree: true});
  document.addEventListener('DOMContentLoaded', check);
})();
"""

# Records every text an element shows, to catch short-lived labels ('Unlocking...').
RECORD_LABELS = """
(id) => {
  window.__labels = [];
  const record = () => {
    const el = document.getElementById(id);
    if (el) window.__labels.push(el.textContent.trim());
  };
  record();
  new MutationObserver(record).observe(document.body, {childList: true, subtree: true, characterData: true,
                                                       attributes: true});
}
"""


def sign_in(page: Page, email: str, password: str) -> None:
    """Sign in through /auth and wait for the dashboard."""
    page.goto("/auth")
    page.locator("#signin-email").fill(email)
    page.locator("#signin-password").fill(password)
    page.locator("#signin-submit").click()
    page.wait_for_url("**/dashboard", timeout=20000)


def start_session(page: Page, database_url: str, user_id: str) -> TokenPair:
    """Sign ``user_id`` in without the /auth form: a real server session whose
    tokens are put in localStorage before the first page script runs (once per
    tab, so a later sign-out sticks)."""
    with session_scope(database_url) as session:
        pair = auth_sessions.create_session(session, uuid.UUID(user_id))
    page.add_init_script(
        "if (!sessionStorage.getItem('__lv_test_session')) {"
        f"localStorage.setItem('lv_access_token', {json.dumps(pair.access_token)});"
        f"localStorage.setItem('lv_refresh_token', {json.dumps(pair.refresh_token)});"
        f"localStorage.setItem('lv_access_expires_at', {json.dumps(pair.access_expires_at.isoformat())});"
        "sessionStorage.setItem('__lv_test_session', '1'); }"
    )
    return pair


def watch_for(page: Page, *element_ids: str) -> None:
    page.add_init_script(WATCH_SCRIPT % list(element_ids))


def ever_seen(page: Page, element_id: str) -> bool:
    return bool(page.evaluate(f"!!(window.__seen && window.__seen[{element_id!r}])"))


def record_labels(page: Page, element_id: str) -> None:
    page.evaluate(RECORD_LABELS, element_id)


def recorded_labels(page: Page) -> list[str]:
    return page.evaluate("window.__labels || []")


def expect_toast(page: Page, title: str, description: str | None = None) -> None:
    """A sonner toast with ``title`` (and ``description``, both exact) is visible."""
    toast = page.locator("[data-sonner-toast]").filter(
        has=page.locator("[data-title]", has_text=title)
    )
    if description is not None:
        toast = toast.filter(has=page.locator("[data-description]", has_text=description))
    expect(toast.first).to_be_visible()
    expect(toast.first.locator("[data-title]")).to_have_text(title)
    if description is not None:
        expect(toast.first.locator("[data-description]")).to_have_text(description)


def run_scrape(page: Page, count: int, cities: str) -> None:
    """On /bulkscraper: fill count and cities, Start, Confirm, and wait for the results."""
    page.locator("#scraper-lead-count").fill(str(count))
    page.locator("#scraper-cities").fill(cities)
    page.locator("#scraper-cities").blur()
    page.locator("#scraper-start").click()
    page.locator("#confirm-scrape").click()
    expect(page.locator("#scrape-results")).to_be_visible(timeout=120_000)


def wait_until(predicate, timeout: float = 15.0, message: str = "condition not met"):
    """Poll ``predicate`` (a DB read) until it is truthy; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(message)
        time.sleep(0.1)


def use_own_ip(page: Page) -> str:
    """Give this test's browser context a client address of its own: the live
    server trusts one proxy hop (TRUSTED_PROXY_HOPS=1), so the X-Forwarded-For
    header names the client. Throttle tests then never slow other tests."""
    n = uuid.uuid4().int
    ip = f"198.18.{n % 256}.{(n >> 8) % 254 + 1}"  # 198.18.0.0/15: for tests (RFC 2544)
    page.context.set_extra_http_headers({"X-Forwarded-For": ip})
    return ip


CONFIRM_LINK_RE = re.compile(r"(https?://\S+/auth/callback\?token=\S+)")
RESET_LINK_RE = re.compile(r"(https?://\S+/auth/reset\?token=\S+)")


def mailed_link(database_url: str, email: str, subject: str, pattern: re.Pattern, after_id: int = 0) -> str:
    """The link matching ``pattern`` in the newest e-mail ``subject`` to ``email`` with an
    outbox id above ``after_id`` (waits for it)."""
    from marketplace.models import EmailOutbox

    def newest():
        with session_scope(database_url) as session:
            return session.exec(
                select(EmailOutbox).where(EmailOutbox.to_address == email, EmailOutbox.subject == subject,
                                          EmailOutbox.id > after_id)
                .order_by(EmailOutbox.id.desc())
            ).first()

    mail = wait_until(newest, message=f"no e-mail {subject!r} to {email}")
    return pattern.search(mail.body).group(1)


def confirmation_link(database_url: str, email: str) -> str:
    """The link in the newest confirmation e-mail to ``email`` (waits for it)."""
    from marketplace.messages import CONFIRM_SUBJECT

    return mailed_link(database_url, email, CONFIRM_SUBJECT, CONFIRM_LINK_RE)


def click_settled(locator, settle_ms: int = 100, timeout: float = 15.0) -> None:
    """Click ``locator`` once the layout around it has stopped moving. The marketplace's cards render
    lazily (``content-visibility: auto``): scrolling to the pagination paints the cards above it at
    their real height, which moves the buttons; on a loaded machine a click aimed a moment earlier
    lands beside the button. A person sees the button move and clicks where it is now."""
    locator.scroll_into_view_if_needed()
    deadline, box = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        now = locator.bounding_box()
        if now is not None and now == box:
            break
        box = now
        locator.page.wait_for_timeout(settle_ms)
    locator.click()
