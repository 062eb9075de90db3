"""The super admin's own webhook on /explorerdev (SPEC 4, 7, 8, 9): the auth key
(Generate / Regenerate, shown once, Copy), the request log of the super-admin
endpoint (``webhook-bulk-scrape-sp``; 50 newest) and its example request.

The section's UI is the bulk scraper's (``scrape.view_webhook``); this state
offers the same vars and events, each re-checking super-admin rights first.
"""

from __future__ import annotations

import uuid

import reflex as rx

from marketplace.platform.config import get_settings
from marketplace.features.scrape import curl_example
from marketplace.platform.texts import COPIED, KEY_DONE, KEY_FAILED, LOGS_FAILED
from marketplace.platform.offloop import run_blocking
from marketplace.features.scrape import service_webhooks as webhooks
from marketplace.platform.ui.state_auth import success_toast
from marketplace.platform.ui.state_browser import browser_origin
from marketplace.features.explorer.state import SECTION_RELOADS, ExplorerState
from marketplace.platform.ui.state_signed_in import signed_in
from marketplace.features.scrape import WebhookKeyVars, log_row

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
        """The key's state and the log (a failure: the handler's 'Failed to fetch webhook logs')."""
        state = await run_blocking(webhooks.key_state, admin_id)
        self.has_key, self.key_hint = state.has_key, state.hint
        entries = await run_blocking(webhooks.recent_requests, admin_id, webhooks.LOG_LIMIT, SP_ENDPOINT_PART)
        self.logs = [log_row(e, self._zone()) for e in entries]
        self.logs_loaded = True
        return None

    @rx.event
    @signed_in((LOGS_FAILED, ""), super_admin=True)
    async def load_webhook(self, admin_id: uuid.UUID):
        """When the section mounts (only after access was granted)."""
        self.new_key = ""
        self.origin = get_settings().base_url(browser_origin(self))
        return await self._read(admin_id)

    @rx.event
    @signed_in((LOGS_FAILED, ""), super_admin=True)
    async def refresh_logs(self, admin_id: uuid.UUID):
        return await self._read(admin_id)

    @rx.event
    @signed_in((KEY_FAILED, ""), super_admin=True)
    async def generate_key(self, admin_id: uuid.UUID):
        """regenerate_webhook_auth_key for the super admin: shown once; the old key stops working."""
        key = await run_blocking(webhooks.regenerate_key, admin_id)
        self.new_key = key
        self.has_key = True
        self.key_hint = key[-4:]
        return success_toast(KEY_DONE)

    @rx.event
    @signed_in(super_admin=True)
    async def copy(self, admin_id: uuid.UUID, text: str):
        if isinstance(text, str) and text:
            return [rx.set_clipboard(text), rx.toast.success(COPIED)]
        return None


SECTION_RELOADS["webhook"] = ExplorerWebhookState.refresh_logs
