"""HTTP rules for every response: body limits, which
origins may talk to the app, when a request came over HTTPS, the security
headers, the Content-Security-Policy, what may be cached and robots.txt. Pure
functions: the ASGI middleware in ``marketplace.platform.web.security`` applies them.

The site's own origin is ``SITE_URL`` when it is set; without it the origin of
the address the request was sent to (its Host header) is the site's own. In
development the loopback names of the app's port (``localhost``, ``127.0.0.1``,
``[::1]``) count as the site's own too, so a page opened on one can reach the
backend on the other.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from marketplace.platform import routes
from marketplace.platform.web.image_hosts import KNOWN_IMAGE_HOSTS

KIB = 1024
DEFAULT_BODY_LIMIT = 64 * KIB  # every route without a limit of its own
WEBHOOK_API_BODY_LIMIT = 64 * KIB  # /functions/v1/*: a JSON body of a dozen fields
STRIPE_WEBHOOK_BODY_LIMIT = 512 * KIB  # Stripe's events are far below this
STRIPE_WEBHOOK_PATH = "/api/stripe/webhook"
WEBHOOK_API_PREFIX = "/functions/v1/"
EVENT_PATH_PREFIX = "/_event"  # Reflex's socket.io endpoint

HSTS = "max-age=63072000; includeSubDomains"
REFERRER_POLICY = "strict-origin-when-cross-origin"
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")

_ORIGIN = re.compile(r"(https?)://(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?")
_HOST = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?")
_INLINE_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.S | re.I)
_DEFAULT_PORTS = {"http": 80, "https": 443}


# ------------------------------------------------------------------ origins


def normalize_origin(value: object) -> str | None:
    """``scheme://host[:port]`` in lower case with the default port dropped, or
    None for anything else (a path, user info, ``null``, another scheme)."""
    if not isinstance(value, str) or not value or len(value) > 300:
        return None
    match = _ORIGIN.fullmatch(value.strip().rstrip("/").lower())
    if match is None:
        return None
    scheme, host, port = match.groups()
    if port is not None and not 1 <= int(port) <= 65535:
        return None
    if port is None or int(port) == _DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{int(port)}"


def _host_and_port(origin: str) -> tuple[str, int]:
    match = _ORIGIN.fullmatch(origin)
    assert match is not None
    scheme, host, port = match.groups()
    return host, int(port) if port else _DEFAULT_PORTS[scheme]


@dataclass(frozen=True)
class OriginPolicy:
    """Which browser origins are the site's own."""

    site_origin: str | None  # SITE_URL's origin; None: the request's own host
    extra_origins: frozenset[str] = frozenset()  # loopback names in development

    @property
    def static_origins(self) -> list[str]:
        """The origins known without a request (Reflex's CORS list, socket.io's)."""
        found = [self.site_origin] if self.site_origin else []
        return found + sorted(self.extra_origins - set(found))

    def allows(self, origin: object, host_header: object) -> bool:
        """Whether a browser page on ``origin`` may use the app (CORS, websocket)."""
        found = normalize_origin(origin)
        if found is None:
            return False
        if found == self.site_origin or found in self.extra_origins:
            return True
        if self.site_origin is None:
            return same_host(found, host_header)
        return False


def same_host(origin: str, host_header: object) -> bool:
    """Whether ``origin`` names the host and port the request was sent to."""
    if not isinstance(host_header, str) or not host_header:
        return False
    match = _HOST.fullmatch(host_header.strip().lower())
    if match is None:
        return False
    host, port = match.groups()
    origin_host, origin_port = _host_and_port(origin)
    if host != origin_host:
        return False
    if port is None:  # the Host header leaves out the default port of the request's scheme
        return origin_port == _DEFAULT_PORTS[origin.split("://", 1)[0]]
    return int(port) == origin_port


def origin_policy(site_url: str | None, port: int, development: bool) -> OriginPolicy:
    extra = frozenset(f"http://{host}:{port}" for host in LOOPBACK_HOSTS) if development else frozenset()
    return OriginPolicy(site_origin=normalize_origin(site_url) if site_url else None, extra_origins=extra)


# ------------------------------------------------------------------ requests


def body_limit(path: str, default: int = DEFAULT_BODY_LIMIT, stripe: int = STRIPE_WEBHOOK_BODY_LIMIT,
               webhook_api: int = WEBHOOK_API_BODY_LIMIT) -> int:
    """The largest request body (bytes) accepted on ``path``."""
    if path.rstrip("/") == STRIPE_WEBHOOK_PATH:
        return stripe
    if path.startswith(WEBHOOK_API_PREFIX):
        return webhook_api
    return default


def webhook_body_limit(configured: int) -> int:
    """The webhook API's body limit: ``MAX_BODY_BYTES`` (``configured``), never above ``WEBHOOK_API_BODY_LIMIT``."""
    return min(configured, WEBHOOK_API_BODY_LIMIT)


# The ASGI scope key under which ``platform.web.security.HttpHardening`` leaves the ``BodyLimit`` it counts a
# request's body with: a route behind it reads the body without counting it again.
BODY_LIMIT_SCOPE = "leadvault.body_limit"


class BodyLimit:
    """One request's body limit, counted as its bytes arrive: the one body-size check of a request."""

    def __init__(self, limit: int):
        self.limit = limit
        self.received = 0

    def refuses_declared(self, declared: int) -> bool:
        """A declared Content-Length over the limit (refused before a byte is read)."""
        return declared > self.limit

    def add(self, size: int) -> bool:
        """Count ``size`` more bytes; True once the body is over the limit."""
        self.received += size
        return self.received > self.limit


def forwarded_value(values: Iterable[str], trusted_hops: int) -> str | None:
    """The entry of a comma-separated X-Forwarded-* header written by the
    outermost trusted proxy (``trusted_hops`` from the right), or None when no
    proxy is trusted or the header is missing. A header shorter than expected
    (one proxy overwrote it) gives its first entry."""
    if trusted_hops <= 0:
        return None
    chain = [part.strip() for value in values for part in (value or "").split(",") if part.strip()]
    if not chain:
        return None
    return chain[-trusted_hops] if len(chain) >= trusted_hops else chain[0]


def is_https(scheme: str, forwarded_proto: Iterable[str], trusted_hops: int) -> bool:
    """The request reached the app over HTTPS: its own scheme, or
    ``X-Forwarded-Proto`` set by a trusted proxy (TRUSTED_PROXY_HOPS > 0)."""
    if scheme in ("https", "wss"):
        return True
    return (forwarded_value(forwarded_proto, trusted_hops) or "").lower() == "https"


# ------------------------------------------------------------------ headers


def inline_script_hashes(html: str) -> list[str]:
    """CSP sources (``'sha256-...'``) for each inline ``<script>`` of a page."""
    found = []
    for match in _INLINE_SCRIPT.finditer(html):
        if re.search(r"\bsrc\s*=", match.group(1), re.I):
            continue
        digest = base64.b64encode(hashlib.sha256(match.group(2).encode("utf-8")).digest()).decode()
        source = f"'sha256-{digest}'"
        if source not in found:
            found.append(source)
    return found


def image_sources(site_origin: str | None) -> list[str]:
    """Where images may load from: the app, data/blob URLs and the allow-listed
    HTTPS hosts of marketplace.platform.web.image_hosts (with their subdomains)."""
    sources = ["'self'", "data:", "blob:"]
    if site_origin:
        sources.append(site_origin)
    for host in KNOWN_IMAGE_HOSTS:
        sources += [f"https://{host}", f"https://*.{host}"]
    return sources


def content_security_policy(script_hashes: Iterable[str], site_origin: str | None,
                            map_tiles: str | None = None) -> str:
    """The policy for the compiled frontend.

    Scripts: the app's own files plus the inline bootstrap scripts of the built
    pages by hash ('unsafe-eval' because Reflex runs ``rx.call_script`` through
    ``eval``). Styles: inline styles are how Radix and emotion work. Connections:
    the app itself, including its websocket (``'self'`` covers ws/wss on the
    same host; SITE_URL's ws/wss origin is named for older browsers). Images: also
    ``map_tiles``, the map tile server's origin (``platform.config.map_tiles.tile_image_source``).
    """
    connect = ["'self'"]
    if site_origin:
        scheme, rest = site_origin.split("://", 1)
        connect += [site_origin, f"{'wss' if scheme == 'https' else 'ws'}://{rest}"]
    directives = [
        "default-src 'self'",
        "script-src " + " ".join(["'self'", "'unsafe-eval'", *script_hashes]),
        "style-src 'self' 'unsafe-inline'",
        "img-src " + " ".join([*image_sources(site_origin), *([map_tiles] if map_tiles else [])]),
        "font-src 'self' data:",
        "connect-src " + " ".join(connect),
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
    return "; ".join(directives)


# FastAPI's interactive docs (/api/docs) load Swagger UI from a CDN.
API_DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: https://fastapi.tiangolo.com; "
    "object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
)


def security_headers(csp: str, https: bool) -> list[tuple[str, str]]:
    """The headers every response carries (unless the route set its own)."""
    headers = [
        ("content-security-policy", csp),
        ("x-frame-options", "DENY"),
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", REFERRER_POLICY),
        ("permissions-policy", PERMISSIONS_POLICY),
    ]
    if https:
        headers.append(("strict-transport-security", HSTS))
    return headers


def relative_location(location: str, host_header: str | None) -> str:
    """A redirect built from the request's own Host header, as a path on the
    same site (never another host); other locations are returned unchanged."""
    match = re.fullmatch(r"(?:https?:)?//([^/?#]*)(.*)", location, re.S)
    if match is None:
        return location
    netloc, rest = match.groups()
    if host_header is None or netloc.lower() != host_header.strip().lower():
        return location
    return "/" + rest.lstrip("/")


# ------------------------------------------------------------------ caching

BUILD_ASSETS_PREFIX = "/assets/"  # where the compiled frontend's bundler puts its files
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# Vite names its output name-HASH.ext, the hash 8 URL-safe characters. A hash may be all lower-case letters
# ('callout-wybvuyqa.js'): only the /assets/ folder, which holds nothing but the bundler's output, tells.
_HASHED_FILE = re.compile(r"[^/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]{1,5}(?:\.map)?")


def is_hashed_build_file(path: str) -> bool:
    """Whether ``path`` is a bundler output whose name changes with its content."""
    if not path.startswith(BUILD_ASSETS_PREFIX):
        return False
    name = path[len(BUILD_ASSETS_PREFIX):]
    return "/" not in name and _HASHED_FILE.fullmatch(name) is not None


def cache_control(path: str, status: int) -> str:
    """Cache-Control for a response that set none: content-hashed build files
    are kept a year and never revalidated (a new build has new names); every
    other answer (pages, logo, stylesheet, sitemap, errors) is revalidated on
    each use, so a deploy is seen at once."""
    if status in (200, 203, 304) and is_hashed_build_file(path):
        return IMMUTABLE
    return REVALIDATE


# ------------------------------------------------------------------ robots.txt

ROBOTS_PATH = "/robots.txt"
NOT_FOUND_ROUTE = "404"  # the compiled 404 page
API_PREFIX = "/api/"


def _prefix(route: str) -> str:
    """``/property/[lead_id]`` -> ``/property/``."""
    return route.split("[", 1)[0]


# Kept out of search engines: per-user, transactional and operator pages and the APIs.
NOT_CRAWLED = (
    routes.DASHBOARD, routes.EXPLORER, routes.PURCHASE_CREDITS, routes.CREDITS_PURCHASED, routes.AUTH_CALLBACK,
    routes.AUTH_RESET,
    _prefix(routes.PROPERTY), _prefix(routes.DEMO_CHECKOUT), API_PREFIX, WEBHOOK_API_PREFIX,
)


def robots_txt(disallowed: Iterable[str], site_url: str | None) -> str:
    """robots.txt: everything may be crawled but ``disallowed`` (path prefixes);
    the sitemap is named when the site's address is known (SITE_URL)."""
    lines = ["User-agent: *", "Allow: /", *(f"Disallow: {path}" for path in disallowed)]
    if site_url:
        lines += ["", f"Sitemap: {site_url.rstrip('/')}/sitemap.xml"]
    return "\n".join(lines) + "\n"


def is_indexed(route: str) -> bool:
    """Whether search engines may index the page at ``route`` (its ``noindex``
    otherwise): not per-record or per-code pages (dynamic routes), not the 404
    page, nothing robots.txt keeps crawlers out of."""
    path = "/" + route.strip("/")
    return "[" not in path and route.strip("/") != NOT_FOUND_ROUTE and not any(
        path == prefix.rstrip("/") or path.startswith(prefix) for prefix in NOT_CRAWLED)


class BodyRefused(Exception):
    """The body's read is stopped by ``platform.web.security.HttpHardening``: too large (413) or too slow (408). The
    route that was reading the body sees it and answers nothing of its own (the 413/408 goes out)."""

    def __init__(self, status: int, body: dict):
        super().__init__(status)
        self.status, self.body = status, body
