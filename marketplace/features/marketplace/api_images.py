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

Drawing is work anyone could ask for, so:

* only a lead's own drawings are drawn: the key and number must be among a
  lead's pictures (``marketplace.service_images.house_drawings``, a read through an index,
  off the loop; the keys found are remembered); anything else is 404, undrawn;
* a request that memory cannot answer (a key not yet looked up, a JPEG not in
  the cache) counts against its client IP: ``IMAGE_MISSES_PER_MINUTE``, then 429;
* at most ``RENDER_QUEUE`` such requests wait for a lookup or a drawing thread;
  beyond that the answer is 503 with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import re
import threading
import weakref
from collections import OrderedDict
from functools import lru_cache

from marketplace.platform.web.ratelimit import Limiter
from marketplace.platform.config import Settings, get_settings
from marketplace.features.marketplace.rules_house_art import RASTER_WIDTHS, render_house_jpeg, render_house_svg
from marketplace.platform.web.image_hosts import HOUSE_KEY, MAX_IMAGES_PER_LEAD
from marketplace.platform.web.net import client_ip
from marketplace.platform.offloop import run_blocking
from marketplace.features.marketplace.service_images import house_drawings

PATH = re.compile(rf"^/api/images/house/({HOUSE_KEY})/([0-9]{{1,2}})(?:\.svg|-([0-9]{{3}})\.jpg)$")
PREFIX = "/api/images/house/"
CACHE_FOREVER = b"public, max-age=31536000, immutable"
JSON = b"application/json"
NOT_FOUND = (404, b'{"detail":"Image not found"}', JSON)
TOO_MANY = (429, b'{"detail":"Too many new pictures from your address: try again in a minute"}', JSON)
BUSY = (503, b'{"detail":"Too many pictures are being drawn: try again in a moment"}', JSON)
RETRY_AFTER = {429: b"60", 503: b"1"}
RENDER_THREADS = 2
RENDER_QUEUE = 64  # requests waiting for a lookup or a drawing thread; more get 503
CACHE_SIZE = 2048  # JPEGs of 5-25 KB: at most about 30 MB
KNOWN_KEYS = 16384  # keys found among the leads, with their drawings' numbers


@lru_cache(maxsize=4096)
def house_image(key: str, n: int) -> bytes:
    return render_house_svg(key, n).encode()


class _Lru:
    """The newest ``size`` items (JPEGs drawn in worker threads, keys found by lookups; read on the loop)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, item):
        with self.lock:
            body = self.items.get(item)
            if body is not None:
                self.items.move_to_end(item)
            return body

    def put(self, item, body) -> None:
        with self.lock:
            self.items[item] = body
            self.items.move_to_end(item)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


_jpegs = _Lru(CACHE_SIZE)
_known = _Lru(KNOWN_KEYS)  # key -> frozenset of drawing numbers (found ones only)
_render_slots: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # per event loop
_waiting = 0  # requests between their miss and their answer (lookups and drawings)


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


def _picture(key: str, n: int, width: int | None, drawings: frozenset[int]) -> tuple[int, bytes, bytes] | None:
    """The answer memory already holds (None: it needs drawing)."""
    if n not in drawings:
        return NOT_FOUND
    if width is None:
        return 200, house_image(key, n), b"image/svg+xml"  # about 0.05 ms, cached
    body = _jpegs.get((key, n, width))
    return None if body is None else (200, body, b"image/jpeg")


class HouseImages:
    """ASGI wrapper: GET/HEAD of the house pictures answered directly."""

    def __init__(self, app, settings: Settings | None = None) -> None:
        settings = settings or get_settings()
        self.app = app
        self.trusted_hops = settings.trusted_proxy_hops
        self.misses = Limiter("house-images", per_minute=settings.image_misses_per_minute)

    async def _response(self, scope, path: str) -> tuple[int, bytes, bytes]:
        """(status, body, content type) for a house image path."""
        global _waiting
        match = PATH.fullmatch(path)
        if match is None or not 0 <= int(match.group(2)) < MAX_IMAGES_PER_LEAD:
            return NOT_FOUND
        key, n, width = match.group(1), int(match.group(2)), match.group(3)
        if width is not None and int(width) not in RASTER_WIDTHS:
            return NOT_FOUND
        width = None if width is None else int(width)
        drawings = _known.get(key)
        if drawings is not None and (answer := _picture(key, n, width, drawings)) is not None:
            return answer
        # A miss: a lookup, a drawing or both.
        if not await self.misses.hit(self._client(scope)):
            return TOO_MANY
        if _waiting >= RENDER_QUEUE:
            return BUSY
        _waiting += 1
        try:
            if drawings is None:
                drawings = await run_blocking(house_drawings, key)
                if drawings:
                    _known.put(key, drawings)
            return _picture(key, n, width, drawings) or (200, await house_jpeg(key, n, width), b"image/jpeg")
        finally:
            _waiting -= 1

    def _client(self, scope) -> str:
        peer = (scope.get("client") or ("", 0))[0]
        forwarded = [v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"x-forwarded-for"]
        return client_ip(peer, forwarded, self.trusted_hops)

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
            status, body, content_type = await self._response(scope, path)
            extra = [(b"cache-control", CACHE_FOREVER)] if status == 200 else []
            if status in RETRY_AFTER:
                extra = [(b"retry-after", RETRY_AFTER[status]), (b"cache-control", b"no-store")]
        headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode()), *extra]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"" if method == "HEAD" else body})
