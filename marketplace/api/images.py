"""Serves the house renderings of built-in leads.

A page of cards asks for up to 20 of these at once, right when the next click
of the same user arrives. Through Starlette and FastAPI (middleware, routing,
dependency solving, a thread hop for a sync route) each cost about a
millisecond of the event loop; rendering one takes about 0.05 ms. So they are
answered here, in a plain ASGI layer just inside ``HttpHardening`` (which still
adds the security headers), without the framework stack or a thread.
"""

from __future__ import annotations

import re
from functools import lru_cache

from marketplace.core.house_art import render_house_svg
from marketplace.core.images import MAX_IMAGES_PER_LEAD

PATH = re.compile(r"^/api/images/house/([A-Za-z0-9-]{1,64})/([0-9]{1,2})\.svg$")
PREFIX = "/api/images/house/"
CACHE_FOREVER = b"public, max-age=31536000, immutable"


@lru_cache(maxsize=4096)
def house_image(key: str, n: int) -> bytes:
    return render_house_svg(key, n).encode()


def _response(path: str) -> tuple[int, bytes, bytes]:
    """(status, body, content type) for a house image path."""
    match = PATH.fullmatch(path)
    if match is None or not 0 <= int(match.group(2)) < MAX_IMAGES_PER_LEAD:
        return 404, b'{"detail":"Image not found"}', b"application/json"
    return 200, house_image(match.group(1), int(match.group(2))), b"image/svg+xml"


class HouseImages:
    """ASGI wrapper: GET/HEAD ``/api/images/house/{key}/{n}.svg`` answered directly."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if not path.startswith(PREFIX):
            await self.app(scope, receive, send)
            return
        method = scope.get("method", "GET")
        if method not in ("GET", "HEAD"):
            status, body, content_type = 405, b'{"detail":"Method Not Allowed"}', b"application/json"
            extra = [(b"allow", b"GET, HEAD")]
        else:
            status, body, content_type = _response(path)
            extra = [(b"cache-control", CACHE_FOREVER)] if status == 200 else []
        headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode()), *extra]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"" if method == "HEAD" else body})
