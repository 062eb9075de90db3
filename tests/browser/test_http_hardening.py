"""HTTP hardening of the served app (issue 10, section 5), against the real
production build: body limits (413), 404 for paths that are no page, security
headers with a CSP the pages work under (Chromium), CORS and the websocket only
for the site's own origin, no Host header in redirects, a sitemap of public
pages only."""

from __future__ import annotations

import base64
import os
import re
import socket
import uuid
from urllib.parse import urlsplit
from xml.etree import ElementTree

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import visit

FOREIGN = "https://evil.example"
KIB = 1024


@pytest.fixture
def client(live_server):
    with httpx.Client(base_url=live_server.url, timeout=30, follow_redirects=False) as c:
        yield c


def _cors_headers(response: httpx.Response) -> dict[str, str]:
    return {k: v for k, v in response.headers.items() if k.lower().startswith("access-control-allow-")}


# --------------------------------------------------------------------------- request bodies


def test_bodies_over_the_limit_get_413_from_content_length(client):
    # The Stripe webhook: 512 KiB. Just over is refused, and nothing was read or handled.
    over = client.post("/api/stripe/webhook", content=b"{" + b" " * (512 * KIB), headers={"content-type": "application/json"})
    assert over.status_code == 413
    assert over.json() == {"error": "Request body too large (512 KiB at most)."}
    # A body under the limit reaches the route (which refuses it for its own reason).
    under = client.post("/api/stripe/webhook", content=b"{}", headers={"content-type": "application/json"})
    assert under.status_code == 400
    assert under.json() == {"error": "Stripe webhooks are not configured"}

    # The webhook API: 64 KiB.
    path = f"/functions/v1/webhook-bulk-scrape/{uuid.uuid4()}"
    response = client.post(path, content=b"x" * (64 * KIB + 1), headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json() == {"error": "Request body too large (64 KiB at most)."}

    # Any other route: 64 KiB too.
    assert client.post("/api/health", content=b"x" * (64 * KIB + 1)).status_code == 413
    assert client.post("/pricing", content=b"x" * (64 * KIB + 1)).status_code == 413
    # A lying, non-numeric Content-Length is refused too.
    raw = _raw_request(client.base_url, "POST /api/stripe/webhook HTTP/1.1", {"Content-Length": "12abc"})
    assert raw.startswith(b"HTTP/1.1 400")


def test_chunked_bodies_are_cut_off_at_the_limit(client, live_server):
    """No Content-Length (chunked): the server counts the bytes and answers 413
    long before a 600 MB body has been sent."""
    sent = 0

    def body():
        nonlocal sent
        chunk = b" " * (1 << 20)
        for _ in range(600):
            sent += len(chunk)
            yield chunk

    response = httpx.post(live_server.url + "/api/stripe/webhook", content=body(), timeout=60)
    assert response.status_code == 413
    assert response.json() == {"error": "Request body too large (512 KiB at most)."}
    assert sent < 64 * (1 << 20)
    # A small chunked body is read as usual.
    small = httpx.post(live_server.url + "/api/stripe/webhook", content=iter([b"{", b"}"]), timeout=30)
    assert small.status_code == 400
    assert client.get("/api/health").json() == {"status": "ok"}


# --------------------------------------------------------------------------- status codes


@pytest.mark.parametrize("path", [
    "/no-such/page", "/this-is-not-a-code-because-too-long", "/foo.bar", "/favicon.txt", "/A-B", "/pricing/extra",
])
def test_paths_that_are_no_page_answer_404_with_the_404_page(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert response.text == client.get("/404").text  # the compiled 404 page
    if path.count("/") == 1:
        # These one-segment paths used to answer 200 with the same file (same ETag):
        # revalidating a copy cached back then must not get 304 (keep showing a 200).
        etag = response.headers.get("etag") or '"x"'
        assert client.get(path, headers={"if-none-match": etag}).status_code == 404


@pytest.mark.parametrize("path", ["/", "/pricing", "/marketplace", "/legal/privacy", "/ABC123", "/abc123XYZ", f"/property/{uuid.uuid4()}"])
def test_pages_and_referral_paths_answer_200(client, path):
    response = client.get(path)
    assert response.status_code == 200, path
    assert response.headers["content-type"].startswith("text/html")


def test_head_of_an_unknown_path_is_404_too(client):
    assert client.head("/foo.bar").status_code == 404
    assert client.head("/ABC123").status_code == 200


# --------------------------------------------------------------------------- headers


@pytest.mark.parametrize("method,path", [
    ("GET", "/"), ("GET", "/pricing"), ("GET", "/api/health"), ("GET", "/foo.bar"), ("GET", "/logo.svg"),
    ("POST", "/api/stripe/webhook"),
])
def test_security_headers_on_every_response(client, method, path):
    response = client.request(method, path, content=b"x" * (600 * KIB) if method == "POST" else None)
    headers = response.headers
    csp = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp
    assert "default-src 'self'" in csp
    assert "object-src 'none'" in csp
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "strict-origin-when-cross-origin"
    # Served over plain http: no HSTS.
    assert "strict-transport-security" not in headers
    # The test server trusts one proxy (TRUSTED_PROXY_HOPS=1, see conftest): what that
    # proxy says about the scheme counts. (Untrusted headers: tests/platform/test_security.py.)
    behind_tls = client.request(method, path, headers={"x-forwarded-proto": "https"})
    assert behind_tls.headers["strict-transport-security"] == "max-age=63072000; includeSubDomains"
    plain = client.request(method, path, headers={"x-forwarded-proto": "http"})
    assert "strict-transport-security" not in plain.headers


def test_csp_allows_only_the_known_scripts_and_image_hosts(client):
    csp = client.get("/").headers["content-security-policy"]
    directives = dict(part.strip().split(" ", 1) for part in csp.split(";"))
    scripts = directives["script-src"].split()
    assert "'unsafe-inline'" not in scripts
    assert scripts[:2] == ["'self'", "'unsafe-eval'"]
    assert all(re.fullmatch(r"'sha256-[A-Za-z0-9+/]{43}='", s) for s in scripts[2:]) and scripts[2:]
    assert "https://photos.zillowstatic.com" in directives["img-src"].split()
    assert "https:" not in directives["img-src"].split()
    assert directives["connect-src"].split()[0] == "'self'"


# --------------------------------------------------------------------------- CORS and the websocket


def test_cors_is_granted_to_the_sites_own_origin_only(client, live_server):
    own = live_server.url  # SITE_URL in the test server
    foreign = client.get("/api/health", headers={"origin": FOREIGN})
    assert foreign.status_code == 200
    assert _cors_headers(foreign) == {}

    preflight = client.options("/api/health", headers={"origin": FOREIGN, "access-control-request-method": "POST"})
    assert "access-control-allow-origin" not in preflight.headers
    assert "access-control-allow-credentials" not in preflight.headers

    mine = client.get("/api/health", headers={"origin": own})
    assert mine.headers["access-control-allow-origin"] == own


def test_event_endpoint_refuses_foreign_origins(client, live_server):
    handshake = "/_event/?EIO=4&transport=polling"
    foreign = client.get(handshake, headers={"origin": FOREIGN})
    assert foreign.status_code == 403
    assert _cors_headers(foreign) == {}
    assert client.get(handshake, headers={"origin": "null"}).status_code == 403

    assert _websocket_status(live_server.url, FOREIGN) == 403
    assert _websocket_status(live_server.url, "null") == 403
    assert _websocket_status(live_server.url, live_server.url) == 101


# --------------------------------------------------------------------------- redirects


@pytest.mark.parametrize("path", ["/marketplace/", "/marketplace", "/pricing", "/legal/privacy", "/auth", "/ABC123/", "/about/"])
def test_redirects_never_carry_the_host_header(client, path):
    response = client.get(path, headers={"host": "evil.com"})
    location = response.headers.get("location", "")
    assert "evil.com" not in location
    if response.is_redirect:
        assert location.startswith("/") and not location.startswith("//")
    else:
        assert response.status_code == 200


# --------------------------------------------------------------------------- sitemap


def test_sitemap_lists_public_pages_only(client, live_server):
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    locs = [el.text for el in ElementTree.fromstring(response.content).findall("s:url/s:loc", ns)]
    paths = {urlsplit(loc).path for loc in locs}
    assert all(loc.startswith(live_server.url + "/") for loc in locs)  # absolute, on SITE_URL
    public = {"/", "/marketplace", "/pricing", "/about", "/contact", "/legal", "/legal/privacy", "/legal/terms",
              "/legal/disclaimer"}
    assert public <= paths
    assert paths <= public | {"/bulkscraper"}  # the bulk scraper joins once it is a page
    for private in ("/dashboard", "/explorerdev", "/auth", "/auth/callback", "/auth/reset", "/credits-purchased",
                    "/purchase-credits", "/404"):
        assert private not in paths
    assert not any("[" in p or p.startswith(("/property", "/demo-checkout")) for p in paths)


# --------------------------------------------------------------------------- the pages under the CSP


CSP_WATCH = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


def test_pages_work_under_the_csp_in_chromium(page: Page, live_server):
    console: list[str] = []
    page.on("console", lambda msg: console.append(msg.text))
    page.add_init_script(CSP_WATCH)

    def violations() -> list[str]:
        return page.evaluate("window.__cspViolations") + [
            text for text in console if "Content Security Policy" in text or "Refused to" in text
        ]

    # Home, then client-side navigation to the marketplace (sample or real lead cards render).
    response = visit(page, "/")
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    page.locator("#hero-cta-marketplace").click()
    page.wait_for_url("**/marketplace")
    expect(page.locator("#refresh-countdown")).to_have_text(re.compile(r"^Next refresh in: \d+h \d+m$"))
    expect(page.locator("[id^='lead-card-']").first).to_be_visible()
    assert violations() == []

    # A full load of /marketplace: images load from the app itself.
    visit(page, "/marketplace")
    expect(page.locator("[id^='lead-card-'] img").first).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert violations() == []

    # /auth: tabs and a sign-in round trip over the websocket.
    visit(page, "/auth")
    page.locator("#tab-signup").click()
    expect(page.locator("#tab-signup")).to_have_attribute("data-state", "active")
    page.locator("#tab-signin").click()
    page.locator("#signin-email").fill(f"nobody-{uuid.uuid4().hex[:8]}@example.com")
    page.locator("#signin-password").fill("wrong-password")
    page.locator("#signin-submit").click()
    expect(page.locator("#auth-error-title")).to_have_text("Sign In Failed")
    assert violations() == []

    # /pricing: the referral box validates on the server.
    visit(page, "/pricing")
    page.locator("#referral-input").fill("NOSUCHCODE9")
    page.locator("#referral-apply").click()
    expect(page.locator("#referral-invalid-message")).to_have_text(
        "Invalid referral code. Please check and try again.")
    assert violations() == []

    # /legal: picking a tab writes the URL hash (rx.call_script, which Reflex runs through eval).
    visit(page, "/legal")
    page.locator("#legal-tab-terms").click()
    page.wait_for_function("window.location.hash === '#terms'")
    assert violations() == []

    # An unknown path: status 404 and the 404 page renders.
    response = visit(page, "/foo.bar")
    assert response.status == 404
    expect(page.locator("#not-found-title")).to_have_text("Page not found")
    assert violations() == []


def test_the_app_refuses_to_be_framed(page: Page, live_server):
    """frame-ancestors 'none': another page cannot embed the app."""
    blocked: list[str] = []
    page.on("console", lambda msg: blocked.append(msg.text))
    with page.expect_console_message(lambda msg: "frame-ancestors" in msg.text or "X-Frame-Options" in msg.text):
        page.set_content(f'<iframe id="f" src="{live_server.url}/pricing"></iframe>')
    frame = page.frame_locator("#f")
    expect(frame.locator("#pricing-packs")).to_have_count(0)
    assert any("frame-ancestors" in text or "X-Frame-Options" in text for text in blocked)


# --------------------------------------------------------------------------- raw sockets


def _raw_request(base_url, request_line: str, headers: dict[str, str]) -> bytes:
    url = urlsplit(str(base_url))
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        lines = [request_line, f"Host: {url.netloc}", *(f"{k}: {v}" for k, v in headers.items()), "", ""]
        sock.sendall("\r\n".join(lines).encode())
        return sock.recv(4096)


def _websocket_status(base_url: str, origin: str) -> int:
    """The HTTP status of a websocket handshake on /_event from ``origin``."""
    key = base64.b64encode(os.urandom(16)).decode()
    answer = _raw_request(base_url, "GET /_event/?EIO=4&transport=websocket HTTP/1.1", {
        "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": key, "Sec-WebSocket-Version": "13",
        "Origin": origin,
    })
    return int(answer.split(b"\r\n", 1)[0].split()[1])
