"""HTTP rules (marketplace.platform.web.http_policy) and the ASGI middleware applying
them (marketplace.platform.web.security), driven in-process with plain ASGI messages."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
import dataclasses
import json

import pytest

from marketplace.platform.web.security import HttpHardening, is_unknown_page, page_shell
from marketplace.platform.config import reload_settings
from marketplace.platform.web import http_policy as hp

# --------------------------------------------------------------------------- rules


def test_normalize_origin():
    assert hp.normalize_origin("https://LeadVault.app/") == "https://leadvault.app"
    assert hp.normalize_origin("https://leadvault.app:443") == "https://leadvault.app"
    assert hp.normalize_origin("http://127.0.0.1:3000") == "http://127.0.0.1:3000"
    assert hp.normalize_origin("http://[::1]:3000") == "http://[::1]:3000"
    for bad in (None, "", "null", "file://x", "https://a.com/path", "https://user@a.com", "https://a.com:99999",
                "javascript:alert(1)", "https://a b.com", 42):
        assert hp.normalize_origin(bad) is None, bad


def test_origin_policy_with_site_url():
    policy = hp.origin_policy("https://leadvault.app", 3000, development=False)
    assert policy.static_origins == ["https://leadvault.app"]
    assert policy.allows("https://leadvault.app", "anything")
    # Another origin is refused even when it names the host the request was sent to.
    assert not policy.allows("https://evil.example", "evil.example")
    assert not policy.allows("http://leadvault.app", "leadvault.app")
    assert not policy.allows("null", "leadvault.app")
    assert not policy.allows("http://localhost:3000", "localhost:3000")  # production: no loopback extras


def test_origin_policy_without_site_url_is_same_origin():
    policy = hp.origin_policy(None, 3000, development=False)
    assert policy.static_origins == []
    assert policy.allows("http://192.168.1.20:3000", "192.168.1.20:3000")
    assert policy.allows("https://shop.example", "shop.example")
    assert policy.allows("https://shop.example", "shop.example:443")
    assert not policy.allows("https://shop.example", "shop.example:8443")
    assert not policy.allows("https://evil.example", "shop.example")
    assert not policy.allows("http://192.168.1.20:3001", "192.168.1.20:3000")
    assert not policy.allows("https://shop.example", None)


def test_development_allows_the_loopback_names_of_the_apps_port():
    policy = hp.origin_policy("http://localhost:3000", 3000, development=True)
    assert policy.static_origins == ["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"]
    assert policy.allows("http://127.0.0.1:3000", "localhost:3000")
    assert not policy.allows("http://127.0.0.1:4000", "localhost:3000")


def test_body_limits_by_route():
    assert hp.body_limit("/api/stripe/webhook") == 512 * 1024
    assert hp.body_limit("/functions/v1/webhook-bulk-scrape/abc") == 64 * 1024
    assert hp.body_limit("/api/health") == 64 * 1024
    assert hp.body_limit("/_event/") == 64 * 1024
    assert hp.body_limit("/api/stripe/webhook", stripe=1000) == 1000


def test_https_only_from_the_scheme_or_a_trusted_proxy():
    assert hp.is_https("https", [], 0)
    assert not hp.is_https("http", ["https"], 0)  # nobody trusted: a client's header is ignored
    assert hp.is_https("http", ["https"], 1)
    assert not hp.is_https("http", ["https, http"], 1)  # our proxy saw http
    assert hp.is_https("http", ["https, http"], 2)
    assert hp.is_https("http", ["https"], 2)  # one proxy overwrote the header
    assert not hp.is_https("http", [], 1)


def test_inline_script_hashes():
    html = ("<script>alert('Hello, world.');</script><script src=/a.js></script>"
            "<script type=\"module\" async=\"\">alert('Hello, world.');</script>")
    # The CSP specification's example hash for this script.
    assert hp.inline_script_hashes(html) == ["'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='"]


def test_csp():
    csp = hp.content_security_policy(["'sha256-x'"], "https://leadvault.app")
    directives = dict(part.strip().split(" ", 1) for part in csp.split(";"))
    assert directives["script-src"] == "'self' 'unsafe-eval' 'sha256-x'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["connect-src"] == "'self' https://leadvault.app wss://leadvault.app"
    assert "https://*.photos.zillowstatic.com" in directives["img-src"]


def test_relative_location():
    assert hp.relative_location("http://evil.com/pricing/", "evil.com") == "/pricing/"
    assert hp.relative_location("http://evil.com//evil.org/", "evil.com") == "/evil.org/"
    assert hp.relative_location("https://checkout.stripe.com/c/pay", "leadvault.app") == "https://checkout.stripe.com/c/pay"
    assert hp.relative_location("/dashboard", "evil.com") == "/dashboard"


# --------------------------------------------------------------------------- the middleware


@pytest.fixture
def settings(monkeypatch, tmp_path):
    for name in ("SITE_URL", "APP_ENV", "TRUSTED_PROXY_HOPS", "MAX_BODY_BYTES", "STRIPE_WEBHOOK_MAX_BODY_BYTES",
                 "PAYMENTS", "STRIPE_SECRET_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MARKETPLACE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("SECRET_KEY", "unit")
    monkeypatch.setenv("SITE_URL", "https://leadvault.app")
    return reload_settings()


class App:
    """A tiny ASGI app: reads the whole body, answers what it was given."""

    def __init__(self, status=200, headers=(), body=b"ok"):
        self.status, self.headers, self.body = status, list(headers), body
        self.seen: dict = {}

    async def __call__(self, scope, receive, send):
        self.seen = {"path": scope["path"], "raw_path": scope.get("raw_path"), "query_string": scope.get("query_string"),
                     "headers": dict(scope["headers"]), "body": b""}
        if scope["type"] == "websocket":
            await receive()
            await send({"type": "websocket.accept"})
            return
        while True:
            message = await receive()
            if message["type"] != "http.request":
                raise RuntimeError("disconnected")
            self.seen["body"] += message.get("body", b"")
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": self.status, "headers": self.headers})
        await send({"type": "http.response.body", "body": self.body})


def call(middleware, path="/", method="GET", headers=None, chunks=(b"",), scheme="http", kind="http", query=b""):
    headers = {k.lower(): v for k, v in (headers or {}).items()}
    scope = {"type": kind, "path": path, "raw_path": path.encode(), "method": method, "scheme": scheme,
             "headers": [(k.encode(), v.encode()) for k, v in headers.items()], "query_string": query}
    if kind == "websocket":
        incoming = [{"type": "websocket.connect"}]
    else:
        incoming = [{"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)]
    sent = []

    async def receive():
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    # A thread of its own: in a full run, Playwright's sync API (browser tests) keeps an
    # event loop running in the main thread, where asyncio.run() is refused.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, middleware(scope, receive, send)).result()
    if kind == "websocket":
        return sent
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}, body


def test_content_length_over_the_limit_is_refused_unread(settings):
    app = App()
    mw = HttpHardening(app, settings=settings)
    status, headers, body = call(mw, "/api/stripe/webhook", "POST", {"content-length": str(512 * 1024 + 1)})
    assert status == 413
    assert json.loads(body) == {"error": "Request body too large (512 KiB at most)."}
    assert app.seen == {}  # the app never ran
    assert headers["x-content-type-options"] == "nosniff"
    assert call(mw, "/api/x", "POST", {"content-length": "nope"})[0] == 400


def test_chunked_body_is_counted(settings):
    app = App()
    mw = HttpHardening(app, settings=dataclasses.replace(settings, max_body_bytes=10))
    status, _, body = call(mw, "/api/x", "POST", chunks=[b"12345", b"67890", b"1"])
    assert status == 413
    assert json.loads(body) == {"error": "Request body too large (10 bytes at most)."}
    status, _, _ = call(mw, "/api/x", "POST", chunks=[b"12345", b"67890"])
    assert status == 200 and app.seen["body"] == b"1234567890"


def test_headers_hsts_and_cors_stripping(settings):
    app = App(headers=[(b"access-control-allow-origin", b"https://evil.example"), (b"content-type", b"text/plain")])
    mw = HttpHardening(app, settings=settings)
    status, headers, _ = call(mw, "/api/health", headers={"origin": "https://evil.example"})
    assert status == 200
    assert "access-control-allow-origin" not in headers
    assert headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert "strict-transport-security" not in headers
    assert "strict-transport-security" in call(mw, "/", scheme="https")[1]
    # X-Forwarded-Proto counts only behind a trusted proxy.
    assert "strict-transport-security" not in call(mw, "/", headers={"x-forwarded-proto": "https"})[1]
    trusting = HttpHardening(app, settings=dataclasses.replace(settings, trusted_proxy_hops=1))
    assert "strict-transport-security" in call(trusting, "/", headers={"x-forwarded-proto": "https"})[1]
    # The site's own origin keeps its CORS grant.
    app.headers = [(b"access-control-allow-origin", b"https://leadvault.app")]
    assert call(mw, "/api/health", headers={"origin": "https://leadvault.app"})[1][
        "access-control-allow-origin"] == "https://leadvault.app"


def test_event_endpoint_and_websocket_refuse_foreign_origins(settings):
    app = App()
    mw = HttpHardening(app, settings=settings)
    assert call(mw, "/_event/", headers={"origin": "https://evil.example"})[0] == 403
    assert call(mw, "/_event/", headers={"origin": "https://leadvault.app"})[0] == 200
    refused = call(mw, "/_event/", headers={"origin": "https://evil.example"}, kind="websocket")
    assert refused == [{"type": "websocket.close", "code": 1008}]
    accepted = call(mw, "/_event/", headers={"origin": "https://leadvault.app"}, kind="websocket")
    assert accepted == [{"type": "websocket.accept"}]
    # engine.io's own check (HardenedApp installs it on Reflex's socket.io server).
    assert mw.socket_origin_allowed("https://leadvault.app", {"HTTP_HOST": "leadvault.app"})
    assert not mw.socket_origin_allowed("https://evil.example", {"HTTP_HOST": "evil.example"})
    same_origin = HttpHardening(app, settings=dataclasses.replace(settings, site_url=None, app_env="production"))
    assert same_origin.socket_origin_allowed("http://192.168.1.20:3000", {"HTTP_HOST": "192.168.1.20:3000"})
    assert not same_origin.socket_origin_allowed("https://evil.example", {"HTTP_HOST": "192.168.1.20:3000"})


def test_unknown_pages_become_404(settings):
    def router(path):
        segments = path.strip("/").split("/")
        return "[referral_segment]" if len(segments) == 1 and segments[0] else None

    assert is_unknown_page(router, "/foo.bar")
    assert is_unknown_page(router, "/this-is-not-a-code-because-too-long")
    assert is_unknown_page(router, "/pricing")  # a route's name is never a referral code
    assert not is_unknown_page(router, "/ABC123")
    assert not is_unknown_page(router, "/no/route")  # Reflex answers 404 itself
    html = App(headers=[(b"content-type", b"text/html; charset=utf-8")])
    mw = HttpHardening(html, settings=settings, router=router)
    assert call(mw, "/foo.bar", headers={"if-none-match": '"x"'})[0] == 404
    assert "if-none-match" not in {k.decode() for k in html.seen["headers"]}
    assert call(mw, "/ABC123")[0] == 200
    svg = HttpHardening(App(headers=[(b"content-type", b"image/svg+xml")]), settings=settings, router=router)
    assert call(svg, "/logo.svg")[0] == 200  # a real file is served as is


def test_page_directories_are_served_without_redirect_and_redirects_stay_on_site(settings, tmp_path):
    static = tmp_path / "client"
    (static / "pricing").mkdir(parents=True)
    (static / "pricing" / "index.html").write_text("<script>a()</script>")
    app = App(status=307, headers=[(b"location", b"http://evil.com/x/")])
    mw = HttpHardening(app, settings=settings, static_dir=static)
    status, headers, _ = call(mw, "/pricing", headers={"host": "evil.com"})
    assert app.seen["path"] == "/pricing/"
    assert headers["location"] == "/x/"
    assert "'sha256-" in headers["content-security-policy"]


def test_a_property_path_is_served_the_property_pages_prerendered_shell(settings, tmp_path):
    """/property/{id} has no prerendered page of its own: it gets the shell (routes.PAGE_SHELLS), so it paints
    its header and loading line before its scripts run; other paths, other methods and a build without the
    shell are left to the framework (its empty fallback)."""
    def router(path):
        segments = path.strip("/").split("/")
        return "property/[lead_id]" if len(segments) == 2 and segments[0] == "property" else None

    static = tmp_path / "client"
    (static / "property" / "loading").mkdir(parents=True)
    (static / "property" / "loading" / "index.html").write_text("<p>Loading property details...</p>")
    app = App()
    mw = HttpHardening(app, settings=settings, router=router, static_dir=static)
    lead = "/property/8e0f3a52-3c1e-4a8e-9b1e-0d6c8d3f1a2b"
    assert call(mw, lead, query=b"tab=comps")[0] == 200
    assert (app.seen["path"], app.seen["raw_path"], app.seen["query_string"]) == (
        "/property/loading/", b"/property/loading/", b"tab=comps")
    call(mw, lead, method="HEAD")
    assert app.seen["path"] == "/property/loading/"
    call(mw, "/property/loading")
    assert app.seen["path"] == "/property/loading/"
    call(mw, lead, method="POST")
    assert app.seen["path"] == lead
    call(mw, "/pricing")
    assert app.seen["path"] == "/pricing"
    assert page_shell(router, lead, frozenset()) is None  # not built (dev, or before the first build)
    assert page_shell(None, lead, frozenset({"/property/loading"})) is None
    assert page_shell(router, "/property/a/b", frozenset({"/property/loading"})) is None


def test_a_build_that_appears_later_is_picked_up(settings, tmp_path):
    static = tmp_path / "later"
    mw = HttpHardening(App(), settings=settings, static_dir=static)
    assert "'sha256-" not in call(mw, "/")[1]["content-security-policy"]
    static.mkdir()
    (static / "404.html").write_text("<script>alert('Hello, world.');</script>")
    mw._checked = float("-inf")  # skip the 2-second recheck interval
    assert "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='" in call(mw, "/")[1]["content-security-policy"]
