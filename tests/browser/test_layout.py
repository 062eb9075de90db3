"""The site shell on every page: the sticky header hides what scrolls under it,
the skip link jumps to the page's main content, on the page itself, and a dropped connection says
'Reconnecting...' at once."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from marketplace.platform.texts import RECONNECTING
from tests.browser.helpers import visit, wait_until


@pytest.mark.parametrize("path", ["/marketplace", "/pricing", "/legal"])
def test_header_is_opaque_and_skip_link_stays_on_the_page(page: Page, path: str):
    visit(page, path)
    header = page.locator("header.lv-header")
    expect(header).to_be_visible()
    page.mouse.wheel(0, 900)
    page.wait_for_function("window.scrollY > 0")
    # rgb(...) without an alpha channel: nothing under the header shows through.
    background = header.evaluate("(el) => getComputedStyle(el).backgroundColor")
    assert re.fullmatch(r"rgb\(\d+, \d+, \d+\)", background), background
    assert header.evaluate("(el) => getComputedStyle(el).position") == "sticky"
    if path == "/marketplace":  # the sticky filter bar under it is solid too
        bar = page.locator(".lv-mkt-bar").first
        bar_background = bar.evaluate("(el) => getComputedStyle(el).backgroundColor")
        assert re.fullmatch(r"rgb\(\d+, \d+, \d+\)", bar_background), bar_background

    page.evaluate("window.scrollTo(0, 0)")
    skip = page.get_by_role("link", name="Skip to content")
    expect(skip).to_have_attribute("href", "#main-content")
    page.keyboard.press("Tab")
    expect(skip).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("main#main-content")).to_be_focused()
    expect(page).to_have_url(re.compile(rf"{re.escape(path)}/?#main-content$"))


def test_a_dropped_connection_says_reconnecting_at_once_while_the_reconnect_hangs(page: Page):
    """The page's websocket drops and its reconnect reaches a port that accepts and never answers (a
    server still starting): 'Reconnecting...' shows from the drop, not after socket.io's 20 s connect
    timeout. (The page's sockets go through Playwright's websocket route: to the server until the page is
    ready, then left unanswered.)"""
    routes, hang = [], []

    def route(ws):
        routes.append(ws)
        if not hang:
            ws.connect_to_server()

    page.route_web_socket(re.compile(r"/_event"), route)
    visit(page, "/pricing")
    status = page.locator("#lv-connection-status")
    expect(status).to_have_text("")
    hang.append(True)
    connected = len(routes)
    routes[-1].close()  # the connection drops
    wait_until(lambda: len(routes) > connected, page=page, message="the page did not try to reconnect")
    expect(status).to_have_text(RECONNECTING, timeout=5000)  # the attempt is still hanging
    expect(status).to_be_visible()
