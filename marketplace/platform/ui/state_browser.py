"""What the server may learn about the user's browser from the event's headers."""

from __future__ import annotations

import reflex as rx

from marketplace.platform.web.origin import origin_from_headers


def browser_origin(state: rx.State) -> str | None:
    """``scheme://host[:port]`` of the page the event came from, validated (None
    when the headers hold nothing usable). Reflex takes it from the websocket's
    Origin header, which the browser sets to the page's own origin."""
    router = state.router
    return origin_from_headers(router.headers.origin or router.page.host, router.headers.host)
