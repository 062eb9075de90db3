"""Hand-made events: junk arguments are invalid input, never an unhandled exception.

A browser can send any event it likes over the websocket. These tests sit
between the page and the server (Playwright's WebSocket routing) and rewrite
the arguments of real events on their way out: an ``Infinity`` page number,
a dict as the sort, a list as a filter group. The server must ignore them (the
page stays as it was, no error toast, no traceback in the server log) and keep
serving the same tab normally afterwards.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from marketplace.features.scrape.service_seeding import insert_leads
from tests.browser.helpers import click_settled, visit
from tests.browser.leads import make_lead
from tests.browser.ws_events import EventChannel

REWRITES = {
    # event name fragment -> (argument pattern, junk value)
    "go_to_page": (r'"number":\s*[^,}]+', '"number":Infinity'),
    "set_sort": (r'"value":\s*"[^"]*"', '"value":{"$gt":""}'),
    "toggle_filter": (r'"group":\s*"[^"]*"', '"group":["lead_types"]'),
    "set_page_size": (r'"value":\s*"[^"]*"', '"value":1e999'),
}


class Tamper(EventChannel):
    """Routes the page's websocket through the test and rewrites chosen events."""

    def __init__(self, page: Page):
        super().__init__(page)
        self.active: set[str] = set()
        self.rewritten: list[str] = []
        self.rewrite = self._rewrite

    def _rewrite(self, message):
        if isinstance(message, str):
            for name in self.active:
                if f".{name}" in message:
                    pattern, junk = REWRITES[name]
                    message, n = re.subn(pattern, junk, message, count=1)
                    if n:
                        self.rewritten.append(message)
        return message


def _junk_handled(tamper: Tamper, before: int) -> None:
    """The page sent its event (rewritten), and the server handled it."""
    assert tamper.wait_for(lambda _: len(tamper.rewritten) > before, 0), "the page sent no such event"
    tamper.settle()


def _log_tail(live_server, start: int) -> str:
    return live_server.log_path.read_text(errors="replace")[start:]


def _grid_query(page: Page) -> str:
    return page.locator("#lead-grid").get_attribute("data-query") or ""


def _wait_grid(page: Page, query: str) -> None:
    page.wait_for_function(
        "(q) => { const g = document.getElementById('lead-grid');"
        " return g && g.getAttribute('data-query') === q && g.getAttribute('data-loading') === 'false'; }",
        arg=query, timeout=20000,
    )


def test_junk_event_arguments_are_ignored(page: Page, live_server):
    insert_leads([make_lead(is_active=True) for _ in range(45)], database_url=live_server.database_url)
    log_start = len(live_server.log_path.read_text(errors="replace"))
    tamper = Tamper(page)
    visit(page, "/marketplace")
    _wait_grid(page, "")

    # An Infinity page number: the page does not move, nothing breaks.
    tamper.active = {"go_to_page"}
    before = len(tamper.rewritten)
    click_settled(page.locator("[aria-label='Next page']").first)
    _junk_handled(tamper, before)
    assert "Infinity" in tamper.rewritten[-1]
    assert _grid_query(page) == ""

    # A dict as the sort.
    tamper.active = {"set_sort"}
    before = len(tamper.rewritten)
    page.locator("#sort-select").select_option(label="Newest")
    _junk_handled(tamper, before)
    assert '"value":{"$gt":""}' in tamper.rewritten[-1]
    assert _grid_query(page) == ""
    expect(page.locator("#sort-select option:checked")).to_have_text("Highest ROI")

    # 1e999 (infinity once parsed) as the page size.
    tamper.active = {"set_page_size"}
    before = len(tamper.rewritten)
    page.locator("#page-size-select").select_option(label="50")
    _junk_handled(tamper, before)
    assert "1e999" in tamper.rewritten[-1]
    assert _grid_query(page) == ""

    # A list as the filter group.
    tamper.active = {"toggle_filter"}
    before = len(tamper.rewritten)
    page.locator("#filter-group-type").click()
    page.locator("#filter-type-Probate").click()
    _junk_handled(tamper, before)
    assert '"group":["lead_types"]' in tamper.rewritten[-1]
    assert _grid_query(page) == ""
    page.keyboard.press("Escape")

    # No error toast, no traceback: the server treated all of it as invalid input.
    expect(page.locator("[data-sonner-toast]")).to_have_count(0)
    log = _log_tail(live_server, log_start)
    assert "Traceback" not in log, log[-3000:]

    # The same tab still works normally.
    tamper.active = set()
    click_settled(page.locator("[aria-label='Next page']").first)
    _wait_grid(page, "page=2")
