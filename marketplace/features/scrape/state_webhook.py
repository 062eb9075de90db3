"""The Webhook section of /bulkscraper (SPEC 2, 4, 8, 9): the personal auth key
(Generate / Regenerate, shown once, Copy), the request log (50 newest) and the
example request with the user's real id and endpoint.

The key is stored hashed: after a reload only its last four characters are
known, and the page says so. Every handler re-checks the session on the server.
"""

from __future__ import annotations

import json
import logging
import uuid

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.config import get_settings
from marketplace.platform.times import format_datetime
from marketplace.features.scrape.rules_webhook_docs import curl_example
from marketplace.platform.texts import COPIED, KEY_DONE, KEY_FAILED, LOGS_FAILED
from marketplace.platform.offloop import run_blocking
from marketplace.features.scrape import service_webhooks as webhooks
from marketplace.platform.ui.state_auth import AuthState, success_toast
from marketplace.platform.ui.state_browser import browser_origin
from marketplace.platform.ui.state_signed_in import signed_in

log = logging.getLogger("marketplace.webhook_ui")

ENDPOINT_PART = "/functions/v1/webhook-bulk-scrape/"


def log_row(entry: webhooks.LoggedRequest, zone_name: str) -> dict[str, str]:
    """One log line; its time in the browser's zone (``platform.times``)."""
    body = entry.request_body
    return {
        "id": str(entry.id),
        "when": format_datetime(entry.created_at, zone_name, seconds=True),
        "method": entry.method,
        "endpoint": entry.endpoint,
        "status": str(entry.response_status),
        "ok": "1" if 200 <= entry.response_status < 300 else "",
        "ip": entry.ip_address or "N/A",
        "scrape": str(entry.bulk_scrape_id or ""),
        "request": json.dumps(body)[:300] if body is not None else "",
    }


class WebhookKeyVars(rx.State, mixin=True):
    """What both webhook sections show (the bulk scraper's, the explorer's -sp one):
    the key's state, a newly generated key, and one page of the request log."""

    has_key: bool = False
    key_hint: str = ""
    new_key: str = ""  # the full key, only right after it was generated in this tab
    key_busy: bool = False
    logs: list[dict[str, str]] = []
    logs_loaded: bool = False
    origin: str = ""


class WebhookState(WebhookKeyVars, AuthState):
    open: bool = False
    logs_failed: bool = False

    @rx.var
    def endpoint(self) -> str:
        return f"{self.origin}{ENDPOINT_PART}{self.user_id}"

    @rx.var
    def example_request(self) -> str:
        return curl_example(self.origin, self.user_id, self.new_key or "YOUR_WEBHOOK_AUTH_KEY")

    @rx.var
    def docs_url(self) -> str:
        return routes.webhook_docs_url(self.user_id)

    @rx.var
    def masked_key(self) -> str:
        return f"lvwh_••••••••••••••••{self.key_hint}" if self.key_hint else ""

    async def _refresh(self, user_id: uuid.UUID):
        """The key's state and the log; a failed log read leaves ``logs_failed`` set and
        propagates to the handler's 'Failed to fetch webhook logs'."""
        try:
            state = await run_blocking(webhooks.key_state, user_id)
            self.has_key, self.key_hint = state.has_key, state.hint
        except Exception:  # noqa: BLE001 - the log below still loads; the key buttons keep what they showed
            log.exception("webhook key state failed for %s", user_id)
        self.logs_failed = True  # until the log is read
        entries = await run_blocking(webhooks.recent_requests, user_id, webhooks.LOG_LIMIT, ENDPOINT_PART)
        self.logs = [log_row(e, self._zone()) for e in entries]
        self.logs_failed = False
        self.logs_loaded = True

    @rx.event
    @signed_in((LOGS_FAILED, ""))
    async def load(self, user_id: uuid.UUID):
        """Collapsed, unless the address asks for the section (``?section=webhook``,
        the Settings tab's link): then open and scrolled to."""
        self.new_key = ""
        wanted = self.router.url.query_parameters.get("section") == routes.WEBHOOK_SECTION
        self.open = wanted
        self.origin = get_settings().base_url(browser_origin(self))
        await self._refresh(user_id)
        return rx.scroll_to(routes.WEBHOOK_ANCHOR) if wanted else None

    @rx.event
    @signed_in((LOGS_FAILED, ""))
    async def toggle(self, user_id: uuid.UUID):
        self.open = not self.open
        if self.open:
            await self._refresh(user_id)

    @rx.event
    @signed_in((LOGS_FAILED, ""))
    async def refresh_logs(self, user_id: uuid.UUID):
        await self._refresh(user_id)

    @rx.event
    @signed_in((KEY_FAILED, ""), signed_out=(KEY_FAILED, ""), busy="key_busy")
    async def generate_key(self, user_id: uuid.UUID):
        yield
        key = await run_blocking(webhooks.regenerate_key, user_id)
        self.new_key = key
        self.has_key = True
        self.key_hint = key[-4:]
        self.key_busy = False
        yield success_toast(KEY_DONE)

    @rx.event
    def copy(self, text: str):
        if isinstance(text, str) and text:
            return [rx.set_clipboard(text), rx.toast.success(COPIED)]
        return None
