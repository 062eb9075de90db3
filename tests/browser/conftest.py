"""Browser tests: Chromium (Debian's, via Playwright) against the real app.

``live_server`` starts ``reflex run --env prod`` on a free port with its own
throwaway SQLite database, in its own process group, and stops the group at
the end of the session. Tests create users straight in that database with
``make_user`` and drive the UI with ``page``.

With ``LV_PROD_SHAPE=1`` (``make test-prod-shape``) the same harness serves the
app the way the README tells operators to: a fresh PostgreSQL database on
``TEST_DATABASE_URL``'s server, Redis and two backend workers; see
``tests/browser/smoke/prod_shape.py``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect, sync_playwright

from marketplace.platform.config import PROJECT_ROOT, reload_settings
from marketplace.platform.migrations import upgrade
from tests.browser.helpers import wait_until

# Assertions wait as long as actions do: a 2-core CI machine running the whole
# suite can take more than Playwright's default 5 s to settle a page.
expect.set_options(timeout=15_000)

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = PROJECT_ROOT / "test-artifacts"
SERVER_START_TIMEOUT = 900


@dataclass
class LiveServer:
    url: str
    database_url: str
    data_dir: Path
    log_path: Path
    prod_shape: bool = False  # PostgreSQL + Redis + GRANIAN_WORKERS=2 (LV_PROD_SHAPE=1)
    pid: int = 0  # the `reflex run` process, leader of the server's process group
    port: int = 0
    app_dir: Path | None = None  # where it was built: the served files are app_dir/.web/build/client


def wait_for_server(proc: subprocess.Popen, url: str, log_path: Path) -> None:
    """Until the app at ``url`` answers its page and its health check; fail at once if it exits."""
    def up() -> bool:
        if proc.poll() is not None:
            pytest.fail(f"app exited with {proc.returncode}; see {log_path}:\n{log_path.read_text()[-3000:]}")
        try:
            return httpx.get(url + "/", timeout=2).status_code == 200 and \
                httpx.get(url + "/api/health", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        wait_until(up, timeout=SERVER_START_TIMEOUT, every=1.0)
    except AssertionError:
        pytest.fail(f"app did not start in {SERVER_START_TIMEOUT}s; see {log_path}")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _app_dir() -> Path:
    """Where the app is built and run: the project itself, or with LV_TEST_APP_DIR
    a synced copy (so that several test runs can build at once)."""
    target = os.environ.get("LV_TEST_APP_DIR")
    if not target:
        return PROJECT_ROOT
    subprocess.run(
        ["rsync", "-a", "--delete", "--exclude", ".venv", "--exclude", ".web", "--exclude", "data",
         "--exclude", ".git", "--exclude", "test-artifacts", f"{PROJECT_ROOT}/", f"{target}/"],
        check=True,
    )
    return Path(target)


@pytest.fixture(scope="session")
def live_server():
    with contextlib.ExitStack() as stack:
        tmp = Path(tempfile.mkdtemp(prefix="lv-browser-"))
        prod_shape = os.environ.get("LV_PROD_SHAPE") == "1"
        if prod_shape:
            from tests.browser.smoke.prod_shape import prod_shape_backends

            database_url, extra_env = stack.enter_context(prod_shape_backends(tmp))
        else:
            database_url, extra_env = f"sqlite:///{tmp / 'app.db'}", {}
        yield from _serve(tmp, database_url, extra_env, prod_shape)


def variant_app_dir(suffix: str) -> Path:
    """A copy of the project for a second app server: its own frontend build (building in the shared
    server's folder would rewrite the files it is serving), seeded with the first build's node packages
    so that only the frontend build runs again."""
    main = Path(os.environ.get("LV_TEST_APP_DIR") or PROJECT_ROOT)
    target = Path(os.environ["LV_TEST_APP_DIR"] + f"-{suffix}") if os.environ.get("LV_TEST_APP_DIR") \
        else Path(tempfile.gettempdir()) / f"lv-app-{suffix}"
    subprocess.run(
        ["rsync", "-a", "--delete", "--exclude", ".venv", "--exclude", ".web", "--exclude", "data",
         "--exclude", ".git", "--exclude", "test-artifacts", f"{PROJECT_ROOT}/", f"{target}/"],
        check=True,
    )
    if (main / ".web" / "node_modules").is_dir() and not (target / ".web" / "node_modules").is_dir():
        subprocess.run(["rsync", "-a", "--exclude", "/build", f"{main}/.web/", f"{target}/.web/"], check=True)
    return target


def _serve(tmp: Path, database_url: str, extra_env: dict, prod_shape: bool, *, second: str | None = None):
    """Serve the app in prod mode. The shared server (``second`` None) builds in the project (or
    LV_TEST_APP_DIR) and points this process's DATABASE_URL at its database (``make_user`` writes there);
    a ``second`` server builds in a copy of its own and leaves this process's environment alone."""
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "MARKETPLACE_DATA_DIR": str(tmp),
        "SECRET_KEY": "browser-test-secret",
        "PORT": str(port),
        "SITE_URL": f"http://127.0.0.1:{port}",
        "LOGIN_MAX_FAILURES": "5",
        # One trusted proxy: a test that sends X-Forwarded-For gets an IP of its own
        # (a throttle test does not slow the others); without the header, the peer.
        "TRUSTED_PROXY_HOPS": "1",
        "SIGNUP_MAX_PER_HOUR": "1000",
        # Every page load of the run comes from one address: a module that pages through 235 leads draws more
        # than a visitor's 120 new house pictures a minute (the limit's own tests: test_house_images.py).
        "IMAGE_MISSES_PER_MINUTE": "1000",
        "LEAD_REFRESH_SCHEDULER": "off",
        "LEAD_REFRESH_COUNT": "40",
    }
    env.pop("REDIS_URL", None)
    env.update(extra_env)
    if second is None:
        os.environ["DATABASE_URL"] = database_url  # make_user writes here
        reload_settings()
    upgrade(database_url)
    ARTIFACTS.mkdir(exist_ok=True)
    name = f"live-server-{second}" if second else ("live-server-prod-shape" if prod_shape else "live-server")
    log_path = ARTIFACTS / f"{name}.log"
    log = open(log_path, "w")
    app_dir = variant_app_dir(second) if second else _app_dir()
    proc = subprocess.Popen(
        [sys.executable, "-m", "reflex", "run", "--env", "prod", "--frontend-port", str(port),
         "--backend-port", str(port)],
        cwd=app_dir, env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_server(proc, url, log_path)
        yield LiveServer(url=url, database_url=database_url, data_dir=tmp, log_path=log_path,
                         prod_shape=prod_shape, pid=proc.pid, port=port, app_dir=app_dir)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        log.close()


@pytest.fixture(scope="session")
def browser(live_server):
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def open_page(browser, live_server, request, **options):
    """A fresh browser context (empty localStorage) with ``options``, its page yielded; a screenshot
    on failure. The ``page`` fixture; a module that needs other context options uses it too."""
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900}, **options)
    context.set_default_timeout(15000)
    pg = context.new_page()
    yield pg
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()


@pytest.fixture
def page(browser, live_server, request):
    """A fresh browser context (empty localStorage) per test; screenshot on failure."""
    yield from open_page(browser, live_server, request)


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    setattr(item, "rep_" + rep.when, rep)


@pytest.fixture
def make_user(live_server):
    """Create a user in the live app's database (``tests.factories.make_user``): returns a
    dict with email, password, id and first name."""
    from tests.factories import make_user as store_user

    def _make(
        email: str | None = None,
        password: str = "secret123",
        first_name: str = "Test",
        last_name: str = "Investor",
        credits: int = 0,
        admin: bool = False,
        confirmed: bool = True,
    ) -> dict:
        email = email or f"user-{uuid.uuid4().hex[:10]}@example.com"
        user = store_user(live_server.database_url, email=email, password=password, first_name=first_name,
                          last_name=last_name, credits=credits, admin=admin, confirmed=confirmed)
        return {"email": email, "password": password, "id": str(user.id), "first_name": first_name}

    return _make
