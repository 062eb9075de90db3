"""Serves the house renderings of built-in leads.

A page of cards asks for many of these at once, right when the next click of
the same user arrives. Through Starlette and FastAPI (middleware, routing,
dependency solving, a thread hop for a sync route) each cost about a
millisecond of the event loop. So they are answered here, in a plain ASGI
layer just inside ``HttpHardening`` (which still adds the security headers),
without the framework stack:

* ``/api/images/house/{key}/{n}.svg``: the drawing (about 0.05 ms), on the loop;
* ``/api/images/house/{key}/{n}-{w}.jpg``: the cards' JPEG, ``w`` 400 or 800
  (a few milliseconds of Pillow): drawn in a thread, at most ``RENDER_THREADS``
  at a time, so that a flood of new keys queues instead of taking every core
  from the event loop; the newest ``CACHE_SIZE`` are kept.
"""

from __future__ import annotations

import asyncio
import re
import threading
import weakref
from collections import OrderedDict
from functools import lru_cache

from marketplace.core.house_art import RASTER_WIDTHS, render_house_jpeg, render_house_svg
from marketplace.core.images import HOUSE_KEY, MAX_IMAGES_PER_LEAD

PATH = re.compile(rf"^/api/images/house/({HOUSE_KEY})/([0-9]{{1,2}})(?:\.svg|-([0-9]{{3}})\.jpg)$")
PREFIX = "/api/images/house/"
CACHE_FOREVER = b"public, max-age=31536000, immutable"
NOT_FOUND = (404, b'{"detail":"Image not found"}', b"application/json")
RENDER_THREADS = 2
CACHE_SIZE = 2048  # JPEGs of 5-25 KB: at most about 30 MB


@lru_cache(maxsize=4096)
def house_image(key: str, n: int) -> bytes:
    return render_house_svg(key, n).encode()


class _JpegCache:
    """The newest ``CACHE_SIZE`` JPEGs (drawn in worker threads, read on the loop)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[tuple[str, int, int], bytes] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, item: tuple[str, int, int]) -> bytes | None:
        with self.lock:
            body = self.items.get(item)
            if body is not None:
                self.items.move_to_end(item)
            return body

    def put(self, item: tuple[str, int, int], body: bytes) -> None:
        with self.lock:
            self.items[item] = body
            self.items.move_to_end(item)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


_jpegs = _JpegCache(CACHE_SIZE)
_render_slots: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # per event loop


def _slots() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    slots = _render_slots.get(loop)
    if slots is None:
        slots = _render_slots[loop] = asyncio.Semaphore(RENDER_THREADS)
    return slots


async def house_jpeg(key: str, n: int, width: int) -> bytes:
    item = (key, n, width)
    body = _jpegs.get(item)
    if body is None:
        async with _slots():
            body = _jpegs.get(item)  # drawn meanwhile for another request
            if body is None:
                body = await asyncio.to_thread(render_house_jpeg, key, n, width)
                _jpegs.put(item, body)
    return body


async def _response(path: str) -> tuple[int, bytes, bytes]:
    """(status, body, content type) for a house image path."""
    match = PATH.fullmatch(path)
    if match is None or not 0 <= int(match.group(2)) < MAX_IMAGES_PER_LEAD:
        return NOT_FOUND
    key, n, width = match.group(1), int(match.group(2)), match.group(3)
    if width is None:
        return 200, house_image(key, n), b"image/svg+xml"
    if int(width) not in RASTER_WIDTHS:
        return NOT_FOUND
    return 200, await house_jpeg(key, n, int(width)), b"image/jpeg"


class HouseImages:
    """ASGI wrapper: GET/HEAD of the house pictures answered directly."""

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
            status, body, content_type = await _response(path)
            extra = [(b"cache-control", CACHE_FOREVER)] if status == 200 else []
        headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode()), *extra]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"" if method == "HEAD" else body})
