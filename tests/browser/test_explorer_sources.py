"""The explorer's Sources panel (issue 23, item 7): every shipped dataset (28) grouped by market (8 market
header rows with completeness and freshness, and 'Every market' for the price index) with a stale warning
after an import;
"Run now" on an enabled dataset queues a run that the records worker, a process of its own, completes from
the (fake) portal. Its own app server: the datasets must be enabled (``OPEN_DATA_DATASETS``) and pointed at
the fake portal (``OPEN_DATA_DIR``) in the server's environment, which the shared server does not have."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from marketplace.config import PROJECT_ROOT
from marketplace.services import record_imports
from tests.browser.conftest import ARTIFACTS, _serve
from tests.browser.helpers import sign_in
from tests.browser.test_accessibility import axe_violations, describe
from tests.factories import make_user
from tests.fakes.portal import FakePortal
from tests.fakes.portal_datasets import datasets_dir
from tests.services.test_record_jobs import CHICAGO, _served
from tests.sources.opendata_helpers import DATASETS, sample


@pytest.fixture(scope="module")
def records_app():
    tmp = Path(tempfile.mkdtemp(prefix="lv-browser-sources-"))
    with FakePortal("socrata", _served(), resource=DATASETS[CHICAGO].resource) as portal:
        env = {"OPEN_DATA_DATASETS": CHICAGO, "OPEN_DATA_DIR": str(datasets_dir(tmp / "datasets", CHICAGO, portal.url))}
        # A second server of its own (own build, own database); the shared one and this process's
        # environment are left as they are for the tests that follow.
        for server in _serve(tmp, f"sqlite:///{tmp / 'app.db'}", env, False, second="sources"):
            yield server, env, portal


def _show(panel, dataset_id: str) -> None:
    """Turn the Sources panel to the page that lists ``dataset_id`` (two pages of 20 at most)."""
    for _ in range(2):
        if panel.locator(f"#source-{dataset_id}").count():
            return
        turn = panel.get_by_role("button", name="Next")
        if turn.is_disabled():
            turn = panel.get_by_role("button", name="Previous")
        turn.click()
        panel.page.wait_for_timeout(500)
    expect(panel.locator(f"#source-{dataset_id}")).to_have_count(1)


def test_sources_panel_lists_datasets_and_run_now_is_done_by_the_worker(records_app, browser):
    server, env, portal = records_app
    record_imports.import_file("phl-tax-delinquencies", sample("phl-tax-delinquencies"),
                               database_url=server.database_url)
    make_user(server.database_url, email="sources-admin@example.com", password="secret123",
                      first_name="Ada", last_name="Admin", credits=0, admin=True, confirmed=True)
    worker = None
    # The session's Chromium: a second sync Playwright cannot start beside it.
    context = browser.new_context(base_url=server.url, viewport={"width": 1440, "height": 900},
                                  bypass_csp=True)  # the axe script is injected
    page = context.new_page()
    page.set_default_timeout(20000)
    try:
        sign_in(page, "sources-admin@example.com", "secret123")
        page.goto("/explorerdev")
        panel = page.locator("#explorer-sources")
        # 28 datasets under 9 headers, 20 rows a page (the state holds one page)
        expect(panel.locator("tbody tr")).to_have_count(20)
        expect(panel).to_contain_text("Page 1 of 2")
        philadelphia = "#source-market-philadelphia-pa"
        expect(panel.locator("tbody tr.source-market")).to_have_count(7)
        expect(panel.locator("#source-market-kent-county-mi .source-completeness")).to_have_text(
            "Roll: configured, not imported · Sales: missing · Lists: missing")
        expect(panel.locator("#source-market-kent-county-mi .source-freshness")).to_have_text(
            "No record imported · never run")
        panel.get_by_role("button", name="Next").click()
        expect(panel).to_contain_text("Page 2 of 2")
        # the page opens inside New York City: its header again, then 17 rows
        expect(panel.locator("tbody tr")).to_have_count(18)
        expect(panel.locator("tbody tr").first).to_contain_text("New York City, NY (continued)")
        expect(panel.locator(f"{philadelphia} .source-completeness")).to_have_text(
            "Roll: configured, not imported · Sales: missing · Lists: imported")
        expect(panel.locator(f"{philadelphia} .source-freshness")).to_contain_text("Newest record Jul 1, 2016 · last run ")
        violations = axe_violations(page)
        assert not violations, describe(violations)
        for width in (1280, 375):
            page.set_viewport_size({"width": width, "height": 900})
            panel.screenshot(path=str(ARTIFACTS / f"explorer-sources-markets-{width}.png"))
        page.set_viewport_size({"width": 1440, "height": 900})
        _show(panel, "phl-tax-delinquencies")
        tax = page.locator("#source-phl-tax-delinquencies")
        # The newest record's date once, in the app's date format; the warning gives its age.
        expect(tax.locator(".source-stale")).to_have_text(re.compile(r"^Stale: [\d,]+ days old \(max 90\)$"))
        expect(tax).to_contain_text("Jul 1, 2016")
        expect(tax).to_contain_text("(file, ok)")
        _show(panel, "phl-sheriff-sales-bid4assets")
        expect(page.locator("#run-now-phl-sheriff-sales-bid4assets")).to_be_disabled()
        expect(page.locator("#source-phl-sheriff-sales-bid4assets")).to_contain_text(
            "published as a download: use import-records")
        _show(panel, "nyc-dof-rolling-sales")
        expect(page.locator("#run-now-nyc-dof-rolling-sales")).to_be_disabled()
        _show(panel, CHICAGO)

        chicago = page.locator(f"#source-{CHICAGO}")
        expect(chicago).to_contain_text("Never")
        page.locator(f"#run-now-{CHICAGO}").click()
        expect(page.get_by_text("Run queued")).to_be_visible()
        expect(chicago.locator(".source-job")).to_have_text("queued")
        assert portal.requests == []  # queued only: the web process pulled nothing

        worker = subprocess.Popen([sys.executable, "-m", "marketplace", "worker"], cwd=PROJECT_ROOT,
                                  env={**os.environ, **env, "DATABASE_URL": server.database_url},
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            page.locator("#explorer-sources-reload").click()
            time.sleep(1.0)
            if chicago.locator(".source-job").inner_text() in ("ok", "failed"):
                break
        expect(chicago.locator(".source-job")).to_have_text("ok")
        expect(chicago).to_contain_text("(api, ok)")
        expect(chicago.locator("td").nth(2)).to_have_text("260")  # read
        assert portal.requests
    except Exception:
        page.screenshot(path=str(ARTIFACTS / "explorer_sources.png"), full_page=True)
        raise
    finally:
        context.close()
        if worker is not None:
            worker.send_signal(signal.SIGTERM)
            try:
                worker.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                worker.kill()
    assert worker.returncode == 0
