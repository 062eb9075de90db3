"""The explorer's Sources panel (issue 23, item 7): every shipped dataset (28) grouped by market (8 market
header rows with completeness and freshness, and 'Every market' for the price index) with a stale warning
after an import;
"Run now" on an enabled dataset queues a run that the records worker, a process of its own, completes from
the (fake) portal; each dataset shows its last and next pull and the lag from a row's portal update to its
signal (issue 38, item 3: N/A until a row carries a portal update time, then p50 / p95 over its rows). Its own app server: the datasets must be enabled (``OPEN_DATA_DATASETS``) and pointed at
the fake portal (``OPEN_DATA_DIR``) in the server's environment, which the shared server does not have."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest
from playwright.sync_api import expect

from marketplace.platform.config import PROJECT_ROOT
from marketplace.features.records import service_imports as record_imports
from tests.browser.conftest import ARTIFACTS, _serve
from tests.browser.helpers import sign_in, visit
from tests.browser.test_accessibility import axe_violations, describe
from tests.factories import make_user, records_refreshed_today
from tests.fakes.portal import FakePortal
from tests.fakes.portal_datasets import datasets_dir
from tests.features.records.test_record_jobs import CHICAGO, _served
from tests.features.records.opendata_helpers import DATASETS, sample


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
        turn, after = panel.get_by_role("button", name="Next"), "Page 2 of 2"
        if turn.is_disabled():
            turn, after = panel.get_by_role("button", name="Previous"), "Page 1 of 2"
        turn.click()
        expect(panel).to_contain_text(after)
    expect(panel.locator(f"#source-{dataset_id}")).to_have_count(1)


def _wait_for_job(page, row) -> None:
    """Reload the panel until the row's latest job has ended (what the operator does), at most 90 s."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        page.locator("#explorer-sources-reload").click()
        try:
            expect(row.locator(".source-job")).to_have_text(re.compile("^(ok|failed)$"), timeout=2000)
            return
        except AssertionError:
            continue
    expect(row.locator(".source-job")).to_have_text("ok")


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
        visit(page, "/explorerdev")
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
        rolling = page.locator("#source-nyc-dof-rolling-sales")  # not in OPEN_DATA_DATASETS: never pulled
        expect(rolling.locator(".source-next-pull")).to_have_text("not pulled")
        expect(rolling.locator(".source-lag")).to_have_text("N/A: no row carried a portal update time")
        _show(panel, CHICAGO)

        chicago = page.locator(f"#source-{CHICAGO}")
        expect(chicago).to_contain_text("Never")
        expect(chicago.locator(".source-last-pull")).to_have_text("Last pull: never")
        expect(chicago.locator(".source-next-pull")).to_have_text("every 60 min · due now (never pulled)")
        expect(chicago.locator(".source-lag")).to_have_text("N/A: no row carried a portal update time")
        page.locator(f"#run-now-{CHICAGO}").click()
        expect(page.get_by_text("Run queued")).to_be_visible()
        expect(chicago.locator(".source-job")).to_have_text("queued")
        assert portal.requests == []  # queued only: the web process pulled nothing

        records_refreshed_today(server.database_url)  # the worker pulls only what the panel queues
        worker = subprocess.Popen([sys.executable, "-m", "marketplace", "worker"], cwd=PROJECT_ROOT,
                                  env={**os.environ, **env, "DATABASE_URL": server.database_url},
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        _wait_for_job(page, chicago)
        expect(chicago.locator(".source-job")).to_have_text("ok")
        expect(chicago).to_contain_text("(api, ok)")
        expect(chicago.locator("td").nth(2)).to_have_text("260")  # read
        assert portal.requests and portal.requests[0].params["$select"] == ":*, *"
        stamp = r"[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M \w+"
        expect(chicago.locator(".source-last-pull")).to_have_text(re.compile(f"^Last pull {stamp}$"))
        expect(chicago.locator(".source-next-pull")).to_have_text(re.compile(f"^every 60 min · next {stamp}$"))
        # the sample's rows carry no :updated_at: nothing to measure yet
        expect(chicago.locator(".source-lag")).to_have_text("N/A: no row carried a portal update time")

        # the portal publishes a new docket now, with its :updated_at; the next pull stores it
        published = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        portal.rows.append({**portal.rows[0], "docket_number": "FRESH-1", "property_address": "9 W FRESH ST",
                            ":id": "row-fresh", ":updated_at": published})
        page.locator(f"#run-now-{CHICAGO}").click()
        expect(chicago.locator(".source-job")).to_have_text("queued")
        _wait_for_job(page, chicago)
        expect(chicago.locator(".source-job")).to_have_text("ok")
        expect(chicago.locator(".source-lag")).to_have_text(
            re.compile(r"^p50 \d+ (s|min) · p95 \d+ (s|min) \(30 days, 1 row\)$"))
        violations = axe_violations(page)
        assert not violations, describe(violations)
        for width in (1280, 375):
            page.set_viewport_size({"width": width, "height": 900})
            chicago.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / f"explorer-sources-freshness-{width}.png"))
            panel.locator("[role=region]").evaluate("box => { box.scrollLeft = box.scrollWidth; }")
            page.screenshot(path=str(ARTIFACTS / f"explorer-sources-freshness-{width}-right.png"))
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
