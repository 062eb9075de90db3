"""The app in prod mode on a free port, as the browser test fixture runs it
(``tests/browser/conftest.py``): ``reflex run --env prod`` in its own process
group, built in a synced copy of the project so it never touches the
checkout's ``.web``, stopped with the whole group at the end.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from marketplace.platform.config import PROJECT_ROOT

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
START_TIMEOUT = 900
REFLEX_ENV = {
    "REFLEX_USE_NPM": "1",
    "REFLEX_TELEMETRY_ENABLED": "false",
    "REFLEX_CHECK_LATEST_VERSION": "false",
    "REFLEX_HTTP_CLIENT_BIND_ADDRESS": "0.0.0.0",
    "NPM_CONFIG_REGISTRY": "https://registry.npmjs.org",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def sync_app(target: Path) -> Path:
    """Copy the project (without .venv, .web, data, .git) to ``target``."""
    subprocess.run(
        ["rsync", "-a", "--delete", "--exclude", ".venv", "--exclude", ".web", "--exclude", "data",
         "--exclude", ".git", "--exclude", "test-artifacts", f"{PROJECT_ROOT}/", f"{target}/"],
        check=True,
    )
    return target


@contextlib.contextmanager
def live_app(database_url: str, data_dir: Path, app_dir: Path, log_path: Path):
    """Yield the base URL of the running app; stop it (the whole group) afterwards."""
    with reflex_server(app_dir, log_path, ready_paths=("/", "/api/health"), env={
        "DATABASE_URL": database_url,
        "MARKETPLACE_DATA_DIR": str(data_dir),
        "SECRET_KEY": "benchmark-secret",
        "LEAD_REFRESH_SCHEDULER": "off",
    }) as url:
        yield url


@contextlib.contextmanager
def reflex_server(app_dir: Path, log_path: Path, ready_paths=("/",), env: dict | None = None):
    """``reflex run --env prod`` of the Reflex app in ``app_dir`` on a free port (this app, or another such
    as the blank app of ``benchmarks.page_blocking``) until each of ``ready_paths`` answers 200; yield its
    base URL and stop the whole process group afterwards."""
    port = free_port()
    venv_bin = str(Path(sys.executable).parent)
    env = {
        **os.environ,
        **REFLEX_ENV,
        "PATH": f"{venv_bin}:{os.environ.get('PATH', '')}",
        "PORT": str(port),
        "SITE_URL": f"http://127.0.0.1:{port}",
        **(env or {}),
    }
    env.pop("REDIS_URL", None)
    url = f"http://127.0.0.1:{port}"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "reflex", "run", "--env", "prod", "--frontend-port", str(port),
             "--backend-port", str(port)],
            cwd=app_dir, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        try:
            deadline = time.monotonic() + START_TIMEOUT
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"app exited with {proc.returncode}; see {log_path}")
                try:
                    if all(httpx.get(url + path, timeout=2).status_code == 200 for path in ready_paths):
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"app did not start in {START_TIMEOUT}s; see {log_path}")
                time.sleep(1)
            yield url
        finally:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)


def session_storage(pair) -> dict[str, str]:
    """The localStorage entries of a server session ``pair`` (``platform.sessions.create_session``), as the
    app stores them: a browser context given them is signed in."""
    return {"lv_access_token": pair.access_token, "lv_refresh_token": pair.refresh_token,
            "lv_access_expires_at": pair.access_expires_at.isoformat()}


def session_script(pair) -> str:
    """An init script that signs a browser context in with ``pair`` (``session_storage``)."""
    return "const t = %s; for (const k in t) localStorage.setItem(k, t[k]);" % json.dumps(session_storage(pair))


@contextlib.contextmanager
def signed_in_page(database_url: str, data_dir: Path, app_dir: Path, pair, log_name: str = "app.log"):
    """The app running (``live_app``) and a 1280x900 Chromium page signed in with ``pair``:
    ``(base_url, browser, page)``; the browser is closed afterwards."""
    from playwright.sync_api import sync_playwright

    with live_app(database_url, data_dir, app_dir, data_dir / log_name) as base_url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900})
        context.add_init_script(session_script(pair))
        try:
            yield base_url, browser, context.new_page()
        finally:
            with contextlib.suppress(Exception):
                browser.close()
