"""The webhook API's cheapest answers, given at the edge of the app.

A rate-limited call (429), and a 404 or 401 this worker gave the same user id and key moments ago
(``scrape.service_known_refusals``), are answered here, before Reflex's middleware, the FastAPI app, its
router and the thread pool: no database, no write, one in-memory count (``scrape.api_webhook._refuse``).
Everything else goes on to the route with what was done here (``webhook.Admitted``: counted, the key
hashed, the refusals looked up), which the route does not do again; it keeps the order of checks of
``features/scrape/api_webhook.py``: rate limit, body size, user, key, ...

The declared body (at most the route's limit: ``HttpHardening`` refused a larger Content-Length
already) is read before a refusal is sent, so the connection stays open for the client's next call.
A 404 or 401 is repeated here only for a body of declared length (so a chunked body over the limit
still gets its 413 first, from the route); a 429 comes first whatever the body.
"""

from __future__ import annotations

import re

from marketplace.features.scrape import api_webhook as webhook
from marketplace.platform.web.http_policy import WEBHOOK_API_PREFIX
from marketplace.features.scrape import service_webhooks as webhooks

_ROUTE = re.compile(r"/functions/v1/webhook-bulk-scrape(?:-sp)?/([^/]+)")


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


class WebhookGate:
    """ASGI middleware: webhook API refusals that need neither the app nor the database."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if not path.startswith(WEBHOOK_API_PREFIX) or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        match = _ROUTE.fullmatch(path)
        if match is None:
            await self.app(scope, receive, send)
            return
        ip = webhook.caller_ip(scope)
        refused = await webhook.rate_limited(ip, path)
        declared = _header(scope, b"content-length")
        sized = declared is not None and _header(scope, b"transfer-encoding") is None
        if refused is None:
            key_hash = webhooks.key_hash(_header(scope, b"x-webhook-auth"))
            if sized:
                refused = webhook.repeated_refusal(ip, path, match.group(1), key_hash)
        if refused is None:
            scope[webhook.ADMITTED] = webhook.Admitted(key_hash, refusal_checked=sized)
            await self.app(scope, receive, send)
            return
        if sized:
            more = declared.strip() not in ("", "0")
            while more:  # the declared body, so the connection can carry the client's next request
                message = await receive()
                more = message["type"] == "http.request" and message.get("more_body", False)
        await refused(scope, receive, send)
