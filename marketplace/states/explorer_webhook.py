"""The super admin's own webhook on /explorerdev (SPEC 4, 7, 8, 9): the auth key
(Generate / Regenerate, shown once, Copy), the request log of the super-admin
endpoint (``webhook-bulk-scrape-sp``; 50 newest) and its example request.

The section's UI is the bulk scraper's (``views.scraper_webhook``); this state
offers the same vars and events, each re-checking super-admin rights first.
"""

from __future__ import annotations

import logging

import reflex as rx

from marketplace.config import get_settings
from marketplace.core.webhook_docs import curl_example
from marketplace.messages import COPIED, KEY_DONE, KEY_FAILED, LOGS_FAILED
from marketplace.offloop import run_blocking
from marketplace.services import webhooks
from marketplace.states.auth import error_toast, success_toast
from marketplace.states.browser import browser_origin
from marketplace.states.explorer import ExplorerState
from marketplace.states.webhook import WebhookKeyVars, log_row

log = logging.getLogger("marketplace.explorer_webhook")

SP_ENDPOINT = "webhook-bulk-scrape-sp"
SP_ENDPOINT_PART = f"/functions/v1/{SP_ENDPOINT}/"


class ExplorerWebhookState(WebhookKeyVars, ExplorerState):
    @rx.var
    def endpoint(self) -> str:
        return f"{self.origin}{SP_ENDPOINT_PART}{self.user_id}"

    @rx.var
    def example_request(self) -> str:
        return curl_example(self.origin, self.user_id, self.new_key or "YOUR_WEBHOOK_AUTH_KEY", endpoint=SP_ENDPOINT)

    @rx.var
    def masked_key(self) -> str:
        return f"lvwh_••••••••••••••••{self.key_hint}" if self.key_hint else ""

    async def _read(self, admin_id):
        try:
            state = await run_blocking(webhooks.key_state, admin_id)
            self.has_key, self.key_hint = state.has_key, state.hint
            entries = await run_blocking(webhooks.recent_requests, admin_id, webhooks.LOG_LIMIT, SP_ENDPOINT_PART)
        except Exception:  # noqa: BLE001 - SPEC 8's message
            log.exception("explorer webhook logs failed for %s", admin_id)
            return error_toast(LOGS_FAILED)
        self.logs = [log_row(e, self._zone()) for e in entries]
        self.logs_loaded = True
        return None

    @rx.event
    async def load_webhook(self):
        """When the section mounts (only after access was granted)."""
        admin_id = await self._admin_id()
        if admin_id is None:
            return self._deny()
        self.new_key = ""
        self.origin = get_settings().base_url(browser_origin(self))
        return await self._read(admin_id)

    @rx.event
    async def refresh_logs(self):
        admin_id = await self._admin_id()
        if admin_id is None:
            return self._deny()
        return await self._read(admin_id)

    @rx.event
    async def generate_key(self):
        """regenerate_webhook_auth_key for the super admin: shown once; the old key stops working."""
        admin_id = await self._admin_id()
        if admin_id is None:
            return self._deny()
        try:
            key = await run_blocking(webhooks.regenerate_key, admin_id)
        except Exception:  # noqa: BLE001 - SPEC 8's message
            log.exception("explorer webhook key generation failed for %s", admin_id)
            return error_toast(KEY_FAILED)
        self.new_key = key
        self.has_key = True
        self.key_hint = key[-4:]
        return success_toast(KEY_DONE)

    @rx.event
    async def copy(self, text: str):
        if await self._admin_id() is None:
            return self._deny()
        if isinstance(text, str) and text:
            return [rx.set_clipboard(text), rx.toast.success(COPIED)]
        return None
