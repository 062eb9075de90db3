"""HTTP hardening around the whole app.

``HardenedApp`` is ``rx.App`` whose ASGI application is wrapped, outermost, in
``HttpHardening``, so every response passes through it (Reflex's own CORS and
error middleware, the API, the websocket and the compiled frontend alike):

- request bodies over the route's limit get 413 before they are read (the
  Content-Length up front, and the bytes of a chunked body as they arrive);
- a body that stops arriving gets 408 (``BODY_READ_TIMEOUT`` seconds without a
  byte while the app waits for it) and the connection is closed, so a client
  that declares a body and never sends it cannot hold a connection open (an
  answer given before the body was read carries ``Connection: close``);
- only the site's own origin gets CORS headers, and the websocket (``/_event``)
  refuses other origins;
- every response carries the security headers and a Content-Security-Policy
  that allows the compiled frontend's inline bootstrap scripts by hash;
- a path that is no page answers 404 (Reflex serves a one-segment path as the
  referral-capture page with 200; only a referral code is one), with the 404
  page as its body;
- a page directory is served without the trailing-slash redirect, and a
  redirect never carries the request's Host header to another host;
- a dynamic page's path (/property/{id}) is served its prerendered shell (``page_shell``);
- content-hashed build files (``/assets/name-HASH.js``) are cached for a year,
  immutable; everything else without a Cache-Control of its own is revalidated
  (``no-cache``), so a new deploy is seen at once;
- ``/robots.txt`` (with an ETag: revalidated with 304) keeps crawlers out of private, transactional and API paths
  and names the sitemap;
- inside it, ``scrape.api_webhook_gate.WebhookGate`` answers the webhook API's rate-limited calls and repeated
  wrong keys before Reflex's middleware and the FastAPI app.

The rules themselves are pure functions in ``marketplace.platform.web.http_policy``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from starlette.datastructures import Headers

from marketplace.platform import routes
from marketplace.platform.config import Settings, get_settings
from marketplace.platform.web import http_policy
from marketplace.platform.routes import is_reserved_referral_code, is_valid_referral_code
from marketplace.platform.config import map_tiles

Router = Callable[[str], "str | None"]
_REFERRAL_ROUTE = routes.REFERRAL_CAPTURE.strip("/")
_CONDITIONAL = {b"if-none-match", b"if-modified-since", b"if-range", b"range"}


def _without_connection(headers) -> list:
    return [(k, v) for k, v in headers if k.lower() != b"connection"]


_BodyRefused = http_policy.BodyRefused

BODY_TIMEOUT_ERROR = {"error": "Request body not received in time."}


def too_large_message(limit: int) -> str:
    """The 413 error, in the words the webhook API uses: 'Request body too large (64 KiB at most).'"""
    size = f"{limit // 1024} KiB" if limit % 1024 == 0 else f"{limit} bytes"
    return f"Request body too large ({size} at most)."


def is_unknown_page(router: Router | None, path: str) -> bool:
    """Whether Reflex would serve ``path`` as a page although it is none: a
    one-segment path matched by the referral-capture route that is not a
    referral code (SPEC 2: 1-15 letters or digits, not a route's name)."""
    if router is None:
        return False
    try:
        route = router(path)
    except Exception:  # noqa: BLE001  a router failure must not take the request down
        return False
    if route is None or route.strip("/") != _REFERRAL_ROUTE:
        return False
    segment = path.strip("/")
    return not (is_valid_referral_code(segment) and not is_reserved_referral_code(segment))


_SHELLS = {route.strip("/"): shell for route, shell in routes.PAGE_SHELLS.items()}


def page_shell(router: Router | None, path: str, page_dirs: frozenset[str]) -> str | None:
    """The prerendered shell that serves ``path`` (``routes.PAGE_SHELLS``: /property/{id} ->
    /property/loading), when the path is that dynamic page's and the build has the shell."""
    if router is None or not path.startswith("/") or path.rstrip("/") in page_dirs:
        return None
    try:
        route = router(path)
    except Exception:  # noqa: BLE001  a router failure must not take the request down
        return None
    shell = _SHELLS.get((route or "").strip("/"))
    return shell if shell in page_dirs else None


def frontend_static_dir() -> Path | None:
    """Where Reflex serves the compiled frontend from in production (as in
    ``reflex.utils.exec.get_frontend_mount``); it may not be built yet."""
    try:
        from reflex.utils import prerequisites
        from reflex_base import constants
        from reflex_base.config import get_config

        return (prerequisites.get_web_dir() / constants.Dirs.STATIC / get_config().frontend_path.strip("/")).resolve()
    except Exception:  # noqa: BLE001
        return None


def _build_stamp(static_dir: Path | None) -> float | None:
    """Changes whenever the frontend is (re)built: the 404 page is written by every build."""
    try:
        return (static_dir / "404.html").stat().st_mtime if static_dir else None
    except OSError:
        return None


class _Frontend:
    """What the middleware needs to know about the compiled pages: the hashes of
    their inline scripts, which page routes are directories (pricing/index.html) and
    which one-segment paths are files (/logo.svg: never mistaken for a referral path)."""

    def __init__(self, static_dir: Path | None):
        self.script_hashes: list[str] = []
        self.page_dirs: frozenset[str] = frozenset()
        self.root_files: frozenset[str] = frozenset()
        if static_dir is None or not static_dir.is_dir():
            return
        self.root_files = frozenset("/" + child.name for child in static_dir.iterdir() if child.is_file())
        hashes: list[str] = []
        dirs = set()
        for html in sorted(static_dir.rglob("*.html")):
            try:
                text = html.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            hashes += [h for h in http_policy.inline_script_hashes(text) if h not in hashes]
            if html.name == "index.html" and html.parent != static_dir:
                dirs.add("/" + html.parent.relative_to(static_dir).as_posix())
        self.script_hashes = hashes
        self.page_dirs = frozenset(dirs)


class HttpHardening:
    """ASGI middleware applying ``marketplace.platform.web.http_policy`` to every request."""

    def __init__(self, app, settings: Settings | None = None, router: Router | None = None,
                 static_dir: Path | None = None, marketplace_link: Callable[[], Awaitable[str | None]] | None = None):
        settings = settings or get_settings()
        self.app = app
        self.marketplace_link = marketplace_link  # /marketplace's Link header (its first card's picture), if any
        self.router = router
        self.origins = http_policy.origin_policy(settings.site_url, settings.port, not settings.is_production)
        self.trusted_hops = settings.trusted_proxy_hops
        self.default_limit = settings.max_body_bytes
        self.stripe_limit = settings.stripe_webhook_max_body_bytes
        self.body_timeout = settings.body_read_timeout
        self.static_dir = static_dir
        self.robots = http_policy.robots_txt(http_policy.NOT_CRAWLED, settings.site_url).encode()
        self.robots_etag = b'"' + hashlib.sha256(self.robots).hexdigest()[:20].encode() + b'"'
        self._stamp: float | None = None
        self._checked = float("-inf")
        self._load_frontend()

    def _load_frontend(self) -> None:
        """Read the built pages again when a build appeared or changed (checked at most every 2 s)."""
        now = time.monotonic()
        if now - self._checked < 2:
            return
        self._checked = now
        stamp = _build_stamp(self.static_dir)
        if stamp == self._stamp and hasattr(self, "csp"):
            return
        frontend = _Frontend(self.static_dir)
        self._stamp = stamp
        self.page_dirs = frontend.page_dirs
        self.root_files = frontend.root_files
        self.csp = http_policy.content_security_policy(
            frontend.script_hashes, self.origins.site_origin,
            map_tiles.tile_image_source(get_settings().map_tile_url))

    def socket_origin_allowed(self, origin, environ) -> bool:
        """engine.io's origin check (``cors_allowed_origins`` as a callable)."""
        return self.origins.allows(origin, environ.get("HTTP_HOST"))

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    # ------------------------------------------------------------------ websocket

    async def _websocket(self, scope, receive, send):
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if origin is not None and not self.origins.allows(origin, headers.get("host")):
            # Closing before accepting makes the server answer the handshake with 403.
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": 1008})
            return
        await self.app(scope, receive, send)

    # ------------------------------------------------------------------ http

    async def _http(self, scope, receive, send):
        self._load_frontend()
        headers = Headers(scope=scope)
        path = scope.get("path", "")
        host = headers.get("host")
        origin = headers.get("origin")
        foreign = origin is not None and not self.origins.allows(origin, host)
        https = http_policy.is_https(scope.get("scheme", "http"), headers.getlist("x-forwarded-proto"),
                                     self.trusted_hops)
        extra = http_policy.security_headers(self._csp_for(path), https)
        if path.rstrip("/") == routes.MARKETPLACE and not scope.get("query_string") \
                and scope.get("method") in ("GET", "HEAD") and self.marketplace_link \
                and (link := await self.marketplace_link()):
            extra = [*extra, ("link", link)]  # its first card's picture loads beside the scripts

        async def respond(status: int, body: dict, more: list[tuple[str, str]] = ()) -> None:
            payload = json.dumps(body).encode()
            raw = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
            raw += [(k.encode(), v.encode()) for k, v in [*more, *extra]]
            await send({"type": "http.response.start", "status": status, "headers": raw})
            await send({"type": "http.response.body", "body": payload})

        limit = http_policy.body_limit(path, self.default_limit, self.stripe_limit,
                                       http_policy.webhook_body_limit(self.default_limit))
        meter = http_policy.BodyLimit(limit)
        scope[http_policy.BODY_LIMIT_SCOPE] = meter  # a route behind this does not count the body again
        declared = headers.get("content-length")
        if declared is not None:
            if not declared.strip().isdigit():
                await respond(400, {"error": "Invalid Content-Length"}, [("connection", "close")])
                return
            if meter.refuses_declared(int(declared)):
                await respond(413, {"error": too_large_message(limit)},
                              [("connection", "close")])
                return
        if foreign and path.startswith(http_policy.EVENT_PATH_PREFIX):
            await respond(403, {"error": "Origin not allowed"})
            return

        method = scope.get("method", "GET")
        if method in ("GET", "HEAD") and path == http_policy.ROBOTS_PATH:
            await self._robots(send, extra, method == "HEAD", headers.get("if-none-match"))
            return
        not_a_page = method in ("GET", "HEAD") and path not in self.root_files and is_unknown_page(self.router, path)
        shell = page_shell(self.router, path, self.page_dirs) if method in ("GET", "HEAD") else None
        if shell is not None:
            # /property/{id}: its page as prerendered before its data (paint_first.with_page_shells).
            scope = {**scope, "path": shell + "/", "raw_path": (shell + "/").encode()}
        elif method in ("GET", "HEAD") and path in self.page_dirs:
            # /pricing is the directory pricing/: serve its index.html here and now,
            # instead of Starlette's redirect to an address built from the Host header.
            scope = {**scope, "path": path + "/", "raw_path": (path + "/").encode()}
        if not_a_page:
            # Always the full 404 page: never 304/206 from a cached fallback response.
            scope = {**scope, "headers": [(k, v) for k, v in scope["headers"] if k.lower() not in _CONDITIONAL]}

        # An HTTP/1.1 request that declares a body (which every body read here is still counted against).
        declares_body = (declared is not None and int(declared) > 0) or "transfer-encoding" in headers
        state: dict = {"started": False, "refused": None, "body_done": False}

        async def limited_receive():
            if state["body_done"]:
                return await receive()  # waiting for the disconnect: no deadline
            try:
                message = await asyncio.wait_for(receive(), self.body_timeout)
            except asyncio.TimeoutError:
                state["refused"] = _BodyRefused(408, BODY_TIMEOUT_ERROR)
                raise state["refused"] from None
            if message["type"] == "http.request":
                if meter.add(len(message.get("body", b""))):
                    state["refused"] = _BodyRefused(413, {"error": too_large_message(limit)})
                    raise state["refused"]
                state["body_done"] = not message.get("more_body", False)
            else:
                state["body_done"] = True
            return message

        async def guarded_send(message):
            if state["refused"] is not None:
                return  # the app's own answer to the aborted read is replaced by 413/408
            if message["type"] == "http.response.start":
                message = self._finish_start(message, extra, foreign, not_a_page, host, path)
                if declares_body and not state["body_done"]:
                    # Answered before the declared body was read (a 405, a static file): close
                    # the connection after it, so an unsent body cannot keep it open.
                    message = {**message, "headers": [*_without_connection(message.get("headers", [])),
                                                      (b"connection", b"close")]}
                state["started"] = True
            await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except _BodyRefused:
            pass
        except Exception:
            if state["refused"] is None:
                raise
        refused = state["refused"]
        if refused is not None and not state["started"]:
            state["refused"] = None
            await respond(refused.status, refused.body, [("connection", "close")])

    async def _robots(self, send, extra, head_only: bool, if_none_match: str | None) -> None:
        """robots.txt, or 304 when the browser holds this version (its ETag)."""
        fresh = self.robots_etag.decode() in [tag.strip() for tag in (if_none_match or "").split(",")]
        raw = [(b"etag", self.robots_etag), (b"cache-control", http_policy.REVALIDATE.encode())]
        if not fresh:
            raw += [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(self.robots)).encode())]
        raw += [(k.encode(), v.encode()) for k, v in extra]
        await send({"type": "http.response.start", "status": 304 if fresh else 200, "headers": raw})
        await send({"type": "http.response.body", "body": b"" if fresh or head_only else self.robots})

    def _csp_for(self, path: str) -> str:
        if path.rstrip("/") in ("/api/docs", "/api/docs/oauth2-redirect"):
            return http_policy.API_DOCS_CSP
        return self.csp

    @staticmethod
    def _finish_start(message, extra, foreign: bool, not_a_page: bool, host: str | None, path: str = ""):
        headers = list(message.get("headers", []))
        names = {k.lower() for k, _ in headers}
        status = message["status"]
        if foreign:  # no CORS grant for another site, whatever set it
            headers = [(k, v) for k, v in headers if not k.lower().startswith(b"access-control-allow-")]
        if not_a_page and status == 200:
            content_type = next((v for k, v in headers if k.lower() == b"content-type"), b"")
            if content_type.startswith(b"text/html"):
                status = 404
        if 300 <= status < 400:
            headers = [
                (k, http_policy.relative_location(v.decode("latin-1"), host).encode("latin-1"))
                if k.lower() == b"location" else (k, v)
                for k, v in headers
            ]
        headers += [(k.encode(), v.encode()) for k, v in extra if k.encode() not in names]
        if b"cache-control" not in names:
            headers.append((b"cache-control", http_policy.cache_control(path, status).encode()))
        return {**message, "status": status, "headers": headers}
