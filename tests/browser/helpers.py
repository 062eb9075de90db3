"""Small steps shared by browser tests."""

from __future__ import annotations

from playwright.sync_api import Page


def sign_in(page: Page, email: str, password: str) -> None:
    """Sign in through /auth and wait for the dashboard."""
    page.goto("/auth")
    page.locator("#signin-email").fill(email)
    page.locator("#signin-password").fill(password)
    page.locator("#signin-submit").click()
    page.wait_for_url("**/dashboard", timeout=20000)
