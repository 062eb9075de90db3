"""Issue 40, item 6 in the browser: outages said plainly, clicks never silently dropped.

A server of its own (own build, own PostgreSQL database, own Redis): PostgreSQL is reached through a
``TcpProxy`` of this module that the tests switch off (connections refused) and on; Redis is a
redis-server of this module's own that a test stops and starts; a server restart is this server's
backend stopped and started again on the same port. The shared servers are never touched.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from marketplace.platform.texts import DATABASE_DOWN, DATABASE_UNAVAILABLE, RECONNECTING, SERVER_UNAVAILABLE
from marketplace.features.property import service_deals as deals
from tests.browser.conftest import ARTIFACTS, _serve
from tests.browser.helpers import expect_toast, start_session
from tests.factories import make_user
from tests.fakes.outage import OwnRedis, TcpProxy, _wait_for_port

PG = "postgresql://postgres@127.0.0.1:5432"


@pytest.fixture(scope="module")
def outage_app():
    name = f"lv_outage_{uuid.uuid4().hex[:8]}"
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", name], check=True)
    tmp = Path(tempfile.mkdtemp(prefix="lv-outage-"))
    try:
        with TcpProxy(5432) as proxy, OwnRedis() as own_redis:
            url = f"postgresql://postgres@127.0.0.1:{proxy.port}/{name}"
            env = {"REDIS_URL": own_redis.url}
            for server in _serve(tmp, url, env, False, second="outage"):
                server.proxy, server.redis, server.direct_url = proxy, own_redis, f"{PG}/{name}"
                server.restarted = []
                yield server
                for proc in server.restarted:  # the backends this module started itself
                    with _quiet():
                        os.killpg(proc.pid, signal.SIGTERM)
                        proc.wait(timeout=20)
    finally:
        subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--force", "--if-exists", name], check=False)


class _quiet:
    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        return kind is not None and issubclass(kind, (ProcessLookupError, subprocess.TimeoutExpired))


@pytest.fixture
def tab(browser, outage_app, request):
    """A signed-in tab of the outage server on the settings tab, the deal defaults form loaded."""
    user = make_user(outage_app.direct_url, email=f"outage-{uuid.uuid4().hex[:8]}@example.com",
                     password="secret123", first_name="Olga", last_name="Outage", credits=5)
    context = browser.new_context(base_url=outage_app.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(20000)
    page = context.new_page()
    start_session(page, outage_app.direct_url, str(user.id))
    page.goto("/dashboard?tab=settings")
    expect(page.locator("#deal-default-down_payment_pct")).to_have_value("20", timeout=30000)
    page.user_id = user.id
    yield page
    if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"))
    if not _port_open(outage_app.proxy.port):
        outage_app.proxy.restore()
    context.close()


def _port_open(port: int) -> bool:
    try:
        _wait_for_port(port, up=True, timeout=0.2)
        return True
    except TimeoutError:
        return False


def _shots(page: Page, name: str) -> None:
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(ARTIFACTS / f"outage-{name}-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})


def test_a_click_with_the_database_refused_says_so_and_a_page_loaded_then_says_so(tab: Page, outage_app):
    outage_app.proxy.refuse()
    tab.locator("#deal-default-down_payment_pct").fill("30")
    tab.locator("#deal-defaults-save").click()
    expect_toast(tab, "Error", DATABASE_UNAVAILABLE)  # the area's title, the outage's words
    _shots(tab, "click")

    # A page loaded during the outage says so in place of its (empty) content.
    fresh = tab.context.new_page()
    fresh.goto("/dashboard?tab=settings")
    notice = fresh.locator("#db-outage")
    expect(notice).to_be_visible()
    expect(notice).to_have_attribute("role", "alert")
    expect(notice.get_by_role("heading")).to_have_text(DATABASE_DOWN[0])
    expect(notice).to_contain_text(DATABASE_UNAVAILABLE)
    expect(fresh.locator("#deal-defaults-save")).to_have_count(0)
    _shots(fresh, "page")

    # Back: 'Try again' loads the page, and the click that failed was not carried out.
    outage_app.proxy.restore()
    fresh.locator("#db-outage-retry").click()
    expect(fresh.locator("#deal-default-down_payment_pct")).to_have_value("20", timeout=30000)
    expect(fresh.locator("#db-outage")).to_have_count(0)
    assert deals.load_defaults(tab.user_id, outage_app.direct_url).down_payment_pct == 20


def test_a_click_with_the_session_store_down_is_reported_not_done(tab: Page, outage_app):
    outage_app.redis.stop()
    try:
        tab.locator("#deal-default-down_payment_pct").fill("35")
        tab.locator("#deal-defaults-save").click()
        expect_toast(tab, SERVER_UNAVAILABLE[0], SERVER_UNAVAILABLE[1])
    finally:
        outage_app.redis.start()
    assert deals.load_defaults(tab.user_id, outage_app.direct_url).down_payment_pct == 20


def _restart_backend(server) -> subprocess.Popen:
    """Stop the server (its whole process group) and start it again on the same port (Reflex 0.10.1's
    --backend-only refuses to run with its configured frontend port, so the restart builds again: the page
    stays disconnected for that long)."""
    os.killpg(server.pid, signal.SIGTERM)
    _wait_for_port(server.port, up=False, timeout=30)
    env = {**os.environ, "DATABASE_URL": server.database_url, "MARKETPLACE_DATA_DIR": str(server.data_dir),
           "SECRET_KEY": "browser-test-secret", "PORT": str(server.port), "SITE_URL": server.url,
           "TRUSTED_PROXY_HOPS": "1", "LEAD_REFRESH_SCHEDULER": "off", "REDIS_URL": server.redis.url}
    log = open(ARTIFACTS / "live-server-outage-restarted.log", "w")
    return subprocess.Popen(
        [sys.executable, "-m", "reflex", "run", "--env", "prod", "--frontend-port", str(server.port), "--backend-port",
         str(server.port)],
        cwd=server.app_dir, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )


def test_the_server_restarting_shows_reconnecting_and_a_click_meanwhile_is_carried_out_once(tab: Page, outage_app):
    status = tab.locator("#lv-connection-status")
    expect(status).to_have_attribute("role", "status")
    expect(status).to_have_text("")
    proc = _restart_backend(outage_app)
    outage_app.restarted.append(proc)
    outage_app.pid = proc.pid
    expect(status).to_have_text(RECONNECTING)
    expect(status).to_be_visible()
    _shots(tab, "reconnecting")

    tab.locator("#deal-default-down_payment_pct").fill("40")
    tab.locator("#deal-defaults-save").click()  # while the server is down
    expect(status).to_have_text("", timeout=300_000)  # back (after its build)
    expect_toast(tab, "Defaults Saved", "New deal analyses start from these figures.")
    assert deals.load_defaults(tab.user_id, outage_app.direct_url).down_payment_pct == 40
    # Sent once: one 'Defaults Saved' (a second run of the save would toast again).
    expect(tab.locator("[data-sonner-toast]").filter(has_text="Defaults Saved")).to_have_count(1)
