"""Small steps shared by browser tests."""

from __future__ import annotations

import contextlib
import json
import re
import time
import uuid
from urllib.parse import urlsplit

from playwright.sync_api import Page, expect
from sqlmodel import select

from marketplace.platform.db import session_scope
from marketplace.platform import sessions as auth_sessions
from marketplace.platform.sessions import TokenPair

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


def wait_ready(page: Page) -> None:
    """Wait for the app's own ready signal: ``#lv-ready[data-ready=true]`` (``platform.ui.layout.
    ready_signal``), set once the page has hydrated, its websocket is connected and its on_load
    handlers are done. Built pages start their scripts after their first paint
    (``core/paint_first.py``), so the load event can come before a page responds: a click then
    would land on prerendered HTML with no handler yet. People wait for a page to respond; tests
    wait for this after every document of the app they load."""
    expect(page.locator("#lv-ready")).to_have_attribute("data-ready", "true")


def _app_document(response) -> bool:
    """Whether ``response`` loaded a document of the app (not a history step inside the same
    document, a download, or the API's own HTML such as its docs)."""
    if response is None or "text/html" not in (response.headers.get("content-type") or ""):
        return False
    return not urlsplit(response.url).path.startswith("/api/")


def visit(page: Page, url: str, **options):
    """``page.goto(url)``, then wait for the app to be ready when an app page was loaded. A test that
    wants the page before that calls ``page.goto(url, wait_until="commit")`` itself."""
    response = page.goto(url, **options)
    if _app_document(response):
        wait_ready(page)
    return response


def reload(page: Page, **options):
    """``page.reload()``, then wait for the app to be ready."""
    response = page.reload(**options)
    if _app_document(response):
        wait_ready(page)
    return response


# The screen is still: fonts loaded, no finite animation or transition running (an endless one, a
# spinner, never ends), and the scroll position unchanged over five frames.
AT_REST = """() => {
  const rest = window.__lvRest || (window.__lvRest = {last: null, still: 0});
  const busy = document.fonts.status !== 'loaded' || document.getAnimations().some((a) =>
    a.playState === 'running' && a.effect && a.effect.getComputedTiming().iterations !== Infinity);
  const now = window.scrollX + ',' + window.scrollY;
  rest.still = busy || now !== rest.last ? 0 : rest.still + 1;
  rest.last = now;
  return rest.still >= 5;
}"""


def at_rest(page: Page) -> None:
    """Wait until the screen is still, as a person waits before looking (a screenshot, a measure):
    fonts loaded, dialogs and popovers done fading, smooth scrolling over (checked every frame)."""
    page.evaluate("window.__lvRest = null")
    page.wait_for_function(AT_REST, polling="raf")


def sign_in(page: Page, email: str, password: str) -> None:
    """Sign in through /auth and wait for the dashboard."""
    visit(page, "/auth")
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


def wait_until(predicate, timeout: float = 15.0, message: str = "condition not met", *,
               page: Page | None = None, every: float = 0.1):
    """Poll ``predicate`` until it is truthy and return its value; fail after ``timeout``. A condition
    wait for what Playwright's ``expect`` cannot see (a database row, the address bar's query, frames on
    the websocket, a server starting). The ONE place a browser test pauses (tests/test_browser_waits.py
    refuses a pause anywhere else): with ``page`` the pause is Playwright's, so the page's websocket and
    events keep being served while the test waits."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(message)
        pause(every, page)


def pause(seconds: float, page: Page | None = None) -> None:
    """Only for ``wait_until``, ``stays`` and ``click_settled``: a poll's interval, never a wait by itself."""
    if page is not None:
        page.wait_for_timeout(seconds * 1000)
    else:
        time.sleep(seconds)


def stays(predicate, seconds: float, message: str = "condition broke") -> None:
    """``predicate`` holds throughout a window of ``seconds`` (checked all along, failing at once when it
    breaks): how a test proves that something the app would do after a known delay (a debounced save) does
    not happen. The window comes from the app's own constant, never a guess."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert predicate(), message
        pause(0.05)
    assert predicate(), message


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
    from marketplace.platform.models import EmailOutbox

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
    from marketplace.platform.texts import CONFIRM_SUBJECT

    return mailed_link(database_url, email, CONFIRM_SUBJECT, CONFIRM_LINK_RE)


def click_settled(locator, settle_ms: int = 100, timeout: float = 15.0) -> None:
    """Click ``locator`` once the layout around it has stopped moving. The marketplace's cards render
    lazily (``content-visibility: auto``): scrolling to the pagination paints the cards above it at
    their real height, which moves the buttons; on a loaded machine a click aimed a moment earlier
    lands beside the button. A person sees the button move and clicks where it is now."""
    locator.scroll_into_view_if_needed()
    boxes = [None]

    def settled() -> bool:
        now = locator.bounding_box()
        same = now is not None and now == boxes[-1]
        boxes.append(now)
        return same

    try:
        wait_until(settled, timeout=timeout, page=locator.page, every=settle_ms / 1000)
    except AssertionError:
        pass  # still moving after the timeout: click where it is now, as a person would
    locator.click()


@contextlib.contextmanager
def scriptless_page(browser, base_url: str, path: str, redirects_of: str, width: int = 412, height: int = 900):
    """``path`` as a phone paints it from the prerendered HTML alone (scripts off: it never hydrates), and
    the Location of each 302 answered to a request for ``redirects_of``: ``(page, locations)``."""
    context = browser.new_context(base_url=base_url, viewport={"width": width, "height": height},
                                  java_script_enabled=False)
    try:
        page = context.new_page()
        locations: list[str | None] = []
        page.on("response", lambda res: locations.append(res.headers.get("location"))
                if redirects_of in res.url and res.status == 302 else None)
        page.goto(path, wait_until="domcontentloaded")
        yield page, locations
    finally:
        context.close()


def wait_loaded(page: Page, element_id: str, timeout: float = 30.0) -> None:
    """Until the picture ``element_id`` has loaded (decoded, with a width). Polled from here, not with
    ``wait_for_function``: its frame-driven polling stalled now and then on a page with scripts off."""
    wait_until(lambda: page.evaluate(
        "(id) => { const el = document.getElementById(id); return !!el && el.complete && el.naturalWidth > 0; }",
        element_id), timeout, f"#{element_id} did not load", page=page)
