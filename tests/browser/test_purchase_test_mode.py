"""Test-mode payments in Chromium (issue 10, section 1).

- Pay credits the account on the server at once: the credits are there even
  when the result page never loads (its requests and its events are blocked).
- Every purchase screen says TEST MODE.
- Return addresses follow the browser when SITE_URL is unset: a second app
  server, started without SITE_URL, is visited at 127.0.0.1 and at localhost;
  each buyer comes back to the address they started on, signed in, credited.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, WebSocketRoute, expect
from sqlmodel import select

from marketplace.platform.db import session_scope
from marketplace.platform.migrations import upgrade
from marketplace.platform.models import CreditLedger, CreditPurchase, DemoCheckout, User
from marketplace.features.accounts import service as accounts
from marketplace.platform import ledger
from tests.browser.conftest import ARTIFACTS, _free_port, variant_app_dir, wait_for_server
from tests.browser.helpers import start_session, visit, wait_until

BANNER = "TEST MODE — no real payment is made"
RESULT_PATH = "credits-purchased"


def balance_of(db_url: str, user_id: str) -> int:
    uid = uuid.UUID(user_id)
    with session_scope(db_url) as session:
        value = ledger.balance(session, uid)
        assert value == ledger.ledger_sum(session, uid)
        return value


def ledger_of(db_url: str, user_id: str) -> list[tuple[str, int]]:
    with session_scope(db_url) as session:
        rows = session.exec(select(CreditLedger).where(CreditLedger.user_id == uuid.UUID(user_id))
                            .order_by(CreditLedger.id)).all()
        return [(row.reason, row.delta) for row in rows]


def purchases_of(db_url: str, user_id: str) -> list[CreditPurchase]:
    with session_scope(db_url) as session:
        rows = session.exec(select(CreditPurchase).where(CreditPurchase.user_id == uuid.UUID(user_id))).all()
        for row in rows:
            session.expunge(row)
        return list(rows)


def open_checkout(page: Page, context: BrowserContext, pack: str = "starter") -> Page:
    visit(page, f"/purchase-credits?pack={pack}")
    expect(page.locator(f"#pack-option-{pack}")).to_have_attribute("data-state", "checked")
    expect(page.locator("#purchase-button")).to_be_enabled()
    with context.expect_page() as new_page:
        page.locator("#purchase-button").click()
    checkout = new_page.value
    checkout.wait_for_url(re.compile(r"/demo-checkout/demo_cs_[\w-]+$"))
    expect(checkout.locator("#demo-checkout-pay")).to_be_enabled()
    return checkout


def block_the_result_page(context: BrowserContext) -> list[str]:
    """Nothing of /credits-purchased reaches the server: page loads are aborted and
    every websocket event sent from that route (its on_load verify) is dropped.
    Returns the dropped events, for the test to show that the page did try."""
    dropped: list[str] = []
    # Documents only: a full load of the page is refused; its code may still load, so a
    # client-side navigation happens and its events show up (and are dropped) below.
    context.route(f"**/{RESULT_PATH}**",
                  lambda route: route.abort() if route.request.resource_type == "document" else route.continue_())

    def relay(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def upstream(message):
            if isinstance(message, str) and f"/{RESULT_PATH}" in message:
                dropped.append(message)
                return
            server.send(message)

        ws.on_message(upstream)
        server.on_message(lambda message: ws.send(message))

    context.route_web_socket(re.compile(r".*/_event.*"), relay)
    return dropped


# --------------------------------------------------------------------------- Pay credits at once


def test_pay_credits_even_when_the_result_page_never_loads(page: Page, live_server, make_user):
    db = live_server.database_url
    user = make_user()
    start_session(page, db, user["id"])
    dropped = block_the_result_page(page.context)

    checkout = open_checkout(page, page.context, "pro")
    expect(checkout.locator("#demo-mode-banner")).to_have_text(BANNER)
    assert balance_of(db, user["id"]) == 0
    checkout.locator("#demo-checkout-pay").click()
    # The buyer is sent on to the result page, which never gets to do anything ...
    checkout.wait_for_url(re.compile(rf"/{RESULT_PATH}\?session_id=demo_cs_[\w-]+$"))
    # (the page's pause lets Playwright run the websocket relay)
    wait_until(lambda: dropped, page=checkout, message="the result page should have tried to send its events")
    expect(checkout.locator("#purchase-success")).to_have_count(0)
    # ... and the credits are there all the same, booked once by Pay.
    assert balance_of(db, user["id"]) == 1500
    assert ledger_of(db, user["id"]) == [("purchase", 1500)]
    [purchase] = purchases_of(db, user["id"])
    assert (purchase.status, purchase.credits, purchase.provider) == ("paid", 1500, "test")
    checkout.close()

    # A fresh tab (same browser, same sign-in) shows the new balance.
    fresh = page.context.new_page()
    visit(fresh, "/purchase-credits")
    expect(fresh.locator("#purchase-balance")).to_have_text("1,500 credits")
    assert ledger_of(db, user["id"]) == [("purchase", 1500)]


def test_paying_again_from_the_checkout_page_books_nothing_more(page: Page, live_server, make_user):
    db = live_server.database_url
    user = make_user()
    start_session(page, db, user["id"])
    checkout = open_checkout(page, page.context)
    checkout_url = checkout.url
    checkout.locator("#demo-checkout-pay").click()
    checkout.wait_for_url(re.compile(rf"/{RESULT_PATH}\?session_id=demo_cs_[\w-]+$"))
    expect(checkout.locator("#purchase-credits-added")).to_have_text("500")
    expect(checkout.locator("#purchase-new-balance")).to_have_text("500 credits")

    visit(checkout, checkout_url)
    expect(checkout.locator("#demo-checkout-finished")).to_have_text("This checkout has already been paid.")
    checkout.locator("#demo-checkout-continue").click()
    checkout.wait_for_url(re.compile(rf"/{RESULT_PATH}\?session_id=demo_cs_[\w-]+$"))
    expect(checkout.locator("#purchase-credits-added")).to_have_text("500")
    expect(checkout.locator("#purchase-new-balance")).to_have_text("500 credits")
    assert balance_of(db, user["id"]) == 500
    assert ledger_of(db, user["id"]) == [("purchase", 500)]


# --------------------------------------------------------------------------- the TEST MODE banner


def test_test_mode_banner_on_every_purchase_screen(page: Page, live_server, make_user):
    user = make_user()
    start_session(page, live_server.database_url, user["id"])

    visit(page, "/pricing")
    banner = page.locator("#demo-mode-banner")
    expect(banner).to_have_text(BANNER)
    # In the pack cards' area: above the cards, below the referral box.
    cards = page.locator("#pricing-packs").bounding_box()
    box = page.locator("#referral-box").bounding_box()
    strip = banner.bounding_box()
    assert box["y"] + box["height"] <= strip["y"] and strip["y"] + strip["height"] <= cards["y"]

    visit(page, "/purchase-credits")
    expect(page.locator("#demo-mode-banner")).to_have_text(BANNER)
    expect(page.locator("#purchase-button")).to_be_visible()

    checkout = open_checkout(page, page.context)
    expect(checkout.locator("#demo-mode-banner")).to_have_text(BANNER)
    checkout.locator("#demo-checkout-pay").click()
    checkout.wait_for_url(re.compile(rf"/{RESULT_PATH}\?session_id=demo_cs_[\w-]+$"))
    expect(checkout.locator("#purchase-success")).to_be_visible()
    expect(checkout.locator("#demo-mode-banner")).to_have_text(BANNER)
    for screen in (page, checkout):
        expect(screen.locator("#demo-mode-banner")).to_have_count(1)


# --------------------------------------------------------------------------- return addresses without SITE_URL


@pytest.fixture(scope="module")
def server_without_site_url(live_server):
    """The app as `make run` serves it on a fresh machine: no SITE_URL, test payments.
    Started after the main server (one frontend build at a time)."""
    tmp = Path(tempfile.mkdtemp(prefix="lv-browser-nosite-"))
    port = _free_port()
    database_url = f"sqlite:///{tmp / 'app.db'}"
    upgrade(database_url)
    env = {key: value for key, value in os.environ.items()
           if key not in ("SITE_URL", "PAYMENTS", "APP_ENV", "REDIS_URL", "STRIPE_SECRET_KEY",
                          "STRIPE_WEBHOOK_SECRET", "STRIPE_API_BASE", "GRANIAN_WORKERS")}
    env.update({
        "DATABASE_URL": database_url, "MARKETPLACE_DATA_DIR": str(tmp), "SECRET_KEY": "browser-test-secret",
        "PORT": str(port), "LEAD_REFRESH_SCHEDULER": "off", "LEAD_REFRESH_COUNT": "40",
    })
    log_path = ARTIFACTS / "live-server-no-site-url.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "reflex", "run", "--env", "prod", "--frontend-port", str(port),
             "--backend-port", str(port)],
            cwd=variant_app_dir("no-site-url"), env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        try:
            wait_for_server(proc, f"http://127.0.0.1:{port}", log_path)
            yield {"port": port, "database_url": database_url}
        finally:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_buyer_comes_back_to_the_address_they_started_on(browser, server_without_site_url, host):
    """Without SITE_URL a buyer who opened the app at 127.0.0.1 (or localhost, or a LAN
    address) pays and lands on that same address, still signed in, with the credits."""
    db = server_without_site_url["database_url"]
    origin = f"http://{host}:{server_without_site_url['port']}"
    with session_scope(db) as session:
        user = accounts.create_user(session, f"buyer-{uuid.uuid4().hex[:10]}@example.com", "secret123", "Ada",
                                    "Buyer", confirmed=True)
        user_id, email = str(user.id), user.email
    context = browser.new_context(base_url=origin, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15000)
    try:
        page = context.new_page()
        start_session(page, db, user_id)
        checkout = open_checkout(page, context)
        assert checkout.url.startswith(f"{origin}/demo-checkout/")
        with session_scope(db) as session:
            row = session.exec(select(DemoCheckout).where(DemoCheckout.user_id == uuid.UUID(user_id))).one()
            assert row.success_url == f"{origin}/{RESULT_PATH}?session_id={row.id}"
            assert row.cancel_url == f"{origin}/purchase-credits?canceled=1&pack=starter"
        checkout.locator("#demo-checkout-pay").click()
        checkout.wait_for_url(f"{origin}/{RESULT_PATH}?session_id={row.id}")
        expect(checkout.locator("#purchase-success")).to_be_visible()
        expect(checkout.locator("#purchase-credits-added")).to_have_text("500")
        expect(checkout.locator("#header-email")).to_have_text(email)  # still signed in
        assert balance_of(db, user_id) == 500
        assert ledger_of(db, user_id) == [("purchase", 500)]
        with session_scope(db) as session:
            assert session.exec(select(User.id).where(User.email == email)).one() == uuid.UUID(user_id)
    finally:
        context.close()
