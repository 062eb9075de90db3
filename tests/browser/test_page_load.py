"""Page load on the prod build (issue 14): content-hashed build files are cached
for a year and everything else is revalidated, every internal link is answered
directly (no redirect), robots.txt is a real one, and every page says what it is
(title, meta description, noindex where private)."""

from __future__ import annotations

import re
import uuid
from urllib.parse import urljoin, urlsplit

import httpx
import pytest
from playwright.sync_api import Page, expect

from marketplace.platform import routes
from marketplace.platform.texts_pages import PAGE_DESCRIPTIONS
from marketplace.platform.web import http_policy
from marketplace.platform.web.image_hosts import FIRST_CARD_PICTURE
from tests.browser.helpers import visit

YEAR = "public, max-age=31536000, immutable"
PUBLIC_PAGES = ["/", "/marketplace", "/bulkscraper", "/pricing", "/about", "/contact", "/legal", "/legal/privacy",
                "/legal/terms", "/legal/disclaimer", "/auth"]
PRIVATE_PAGES = ["/dashboard", "/explorerdev", "/purchase-credits", "/credits-purchased", "/auth/callback",
                 "/auth/reset"]


@pytest.fixture
def client(live_server):
    with httpx.Client(base_url=live_server.url, timeout=30, follow_redirects=False) as c:
        yield c


def _build_files(html: str) -> list[str]:
    """The build files a page names: its links and, on a page that paints first
    (platform/web/paint_first.py), the scripts its module script preloads and imports."""
    return sorted(set(re.findall(r'(?:href|src)="(/assets/[^"]+)"', html))
                  | set(re.findall(r'"(/assets/[^"]+\.js)"', html)))


def _meta(html: str, name: str) -> list[str]:
    return [m.group(1) for m in re.finditer(rf'<meta content="([^"]*)" name="{name}"\s*/?>', html)] + [
        m.group(1) for m in re.finditer(rf'<meta name="{name}" content="([^"]*)"\s*/?>', html)]


FIRST_CARD_PREFIX = FIRST_CARD_PICTURE.split("{")[0]  # /api/images/first-card-


# --------------------------------------------------------------------------- caching


def test_hashed_build_files_are_immutable_for_a_year(client):
    files = _build_files(client.get("/marketplace").text)
    assert any(f.endswith(".css") for f in files) and sum(f.endswith(".js") for f in files) >= 5, files
    for path in files:
        response = client.get(path, headers={"accept-encoding": "br, gzip"})
        assert response.status_code == 200, path
        assert response.headers["cache-control"] == YEAR, path
    # Compressed on the wire: brotli when the browser takes it, gzip otherwise.
    css = next(f for f in files if f.endswith(".css"))
    assert client.get(css, headers={"accept-encoding": "br, gzip"}).headers["content-encoding"] == "br"
    assert client.get(css, headers={"accept-encoding": "gzip"}).headers["content-encoding"] == "gzip"


@pytest.mark.parametrize("path", ["/", "/marketplace", "/pricing", "/auth", "/logo.svg", "/styles.css",
                                  "/sitemap.xml", "/robots.txt", "/no-such/page"])
def test_pages_and_unhashed_files_are_revalidated(client, path):
    response = client.get(path, headers={"accept-encoding": "br, gzip"})
    assert response.headers["cache-control"] == "no-cache", path
    if response.status_code == 200:
        # Revalidation is cheap: an unchanged page answers 304 without a body (no ETag: a failure,
        # every revalidation would download the page again).
        assert "etag" in response.headers, path
        again = client.get(path, headers={"if-none-match": response.headers["etag"], "accept-encoding": "br, gzip"})
        assert again.status_code == 304 and again.content == b"", path
    if path in ("/", "/marketplace"):
        assert response.headers["content-encoding"] == "br"


# --------------------------------------------------------------------------- no redirects


@pytest.mark.parametrize("path", PUBLIC_PAGES + PRIVATE_PAGES)
def test_every_page_is_served_directly(client, path):
    response = client.get(path)
    assert response.status_code == 200, (path, response.headers.get("location"))
    assert response.headers["content-type"].startswith("text/html")


def test_no_internal_link_on_the_home_page_answers_a_redirect(page: Page, live_server, client):
    statuses: list[tuple[int, str]] = []
    page.on("response", lambda r: statuses.append((r.status, r.url)))
    visit(page, "/")
    expect(page.locator("#hero-cta-marketplace")).to_be_visible()
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map((e) => e.getAttribute('href'))")
    internal = sorted({urlsplit(urljoin(live_server.url + "/", h))._replace(fragment="").geturl() for h in hrefs
                       if urljoin(live_server.url + "/", h).startswith(live_server.url)})
    assert {live_server.url + p for p in ("/marketplace", "/pricing", "/about", "/legal/privacy")} <= set(internal)
    for url in internal:
        response = client.get(url)
        assert response.status_code == 200, (url, response.headers.get("location"))
    # Chromium itself: the page load and a full load of every link, no 3xx on the way.
    for url in internal:
        response = visit(page, url)
        assert response.status == 200 and response.request.redirected_from is None, url
    # (304: a revalidated image.) The one redirect by design is not a link: /marketplace's loading
    # skeleton shows its first card's picture through an address that leads to the card's own file.
    assert [s for s in statuses if s[0] in (301, 302, 303, 307, 308)
            and FIRST_CARD_PREFIX not in s[1]] == []


# --------------------------------------------------------------------------- robots.txt and metadata


def test_robots_txt(client, live_server):
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    lines = response.text.splitlines()
    assert lines[:2] == ["User-agent: *", "Allow: /"]
    for path in ("/dashboard", "/explorerdev", "/api/", "/property/", "/credits-purchased", "/purchase-credits",
                 "/demo-checkout/"):
        assert f"Disallow: {path}" in lines
    assert f"Sitemap: {live_server.url}/sitemap.xml" in lines
    assert client.get("/sitemap.xml").status_code == 200


@pytest.mark.parametrize("path", PUBLIC_PAGES + PRIVATE_PAGES)
def test_every_page_has_a_title_and_description_and_private_ones_noindex(client, path):
    html = client.get(path).text
    route = path if path != "/" else routes.HOME
    assert _meta(html, "description") == [PAGE_DESCRIPTIONS[route].replace("'", "&#x27;")], path
    assert re.search(r"<title>[^<]+ \| LeadVault</title>", html), path
    assert _meta(html, "robots") == ([] if path in PUBLIC_PAGES else ["noindex"]), path
    assert http_policy.is_indexed(route) is (path in PUBLIC_PAGES)


def test_dynamic_pages_say_noindex_once_rendered(page: Page):
    visit(page, f"/property/{uuid.uuid4()}")
    expect(page.locator('meta[name="robots"]')).to_have_attribute("content", "noindex")
    expect(page.locator('meta[name="description"]')).to_have_attribute(
        "content", PAGE_DESCRIPTIONS[routes.PROPERTY])
    expect(page).to_have_title("Property Details | LeadVault")
