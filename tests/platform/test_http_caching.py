"""Caching, robots.txt and page metadata (issue 14, page load): the rules in
marketplace.platform.web.http_policy and the middleware applying them, in-process."""

from __future__ import annotations

import pytest

from marketplace.platform import routes
from marketplace.platform.texts_pages import PAGE_DESCRIPTIONS
from marketplace.platform.web.security import HttpHardening
from marketplace.platform.web import http_policy as hp
from tests.platform.test_security import App, call, settings  # noqa: F401  (the settings fixture)

YEAR = "public, max-age=31536000, immutable"


# --------------------------------------------------------------------------- rules


@pytest.mark.parametrize("path", [
    "/assets/entry.client-CY6srTXT.js", "/assets/manifest-120576bd.js", "/assets/__reflex_global_styles-DnDORZ7-.css",
    "/assets/_marketplace_._index-CwC5AZy2.js", "/assets/a-arrow-down-BpvGFpJ6.js",
    "/assets/callout-wybvuyqa.js",  # a hash can be all lower-case letters (a real build's name)
])
def test_content_hashed_build_files_are_kept_a_year(path):
    assert hp.is_hashed_build_file(path)
    assert hp.cache_control(path, 200) == YEAR
    assert hp.cache_control(path, 304) == YEAR
    assert hp.cache_control(path, 404) == "no-cache"  # a missing file may appear with the next deploy


@pytest.mark.parametrize("path", [
    "/", "/marketplace", "/pricing/", "/logo.svg", "/styles.css", "/sitemap.xml", "/assets/styles.css",
    "/assets/my-long-name.js", "/assets/sub/name-CY6srTXT.js", "/api/health", "/hero-house.svg",
])
def test_pages_and_files_without_a_hash_are_revalidated(path):
    assert not hp.is_hashed_build_file(path)
    assert hp.cache_control(path, 200) == "no-cache"


def test_robots_txt_keeps_crawlers_out_of_private_pages_and_names_the_sitemap():
    text = hp.robots_txt(hp.NOT_CRAWLED, "https://leadvault.app/")
    lines = text.splitlines()
    assert lines[:2] == ["User-agent: *", "Allow: /"]
    for path in ("/dashboard", "/explorerdev", "/api/", "/property/", "/credits-purchased", "/purchase-credits",
                 "/demo-checkout/", "/auth/callback", "/auth/reset", "/functions/v1/"):
        assert f"Disallow: {path}" in lines
    assert not any(line in lines for line in ("Disallow: /auth", "Disallow: /marketplace", "Disallow: /pricing"))
    assert lines[-1] == "Sitemap: https://leadvault.app/sitemap.xml"
    assert "Sitemap" not in hp.robots_txt(hp.NOT_CRAWLED, None)


@pytest.mark.parametrize("route,indexed", [
    (routes.HOME, True), (routes.MARKETPLACE, True), (routes.PRICING, True), (routes.AUTH, True),
    (routes.LEGAL_TERMS, True), (routes.ABOUT, True), (routes.CONTACT, True), (routes.BULK_SCRAPER, True),
    (routes.DASHBOARD, False), (routes.EXPLORER, False), (routes.PROPERTY, False), (routes.AUTH_CALLBACK, False),
    (routes.AUTH_RESET, False),
    (routes.PURCHASE_CREDITS, False), (routes.CREDITS_PURCHASED, False), (routes.DEMO_CHECKOUT, False),
    (routes.REFERRAL_CAPTURE, False), ("404", False),
])
def test_which_pages_search_engines_may_index(route, indexed):
    assert hp.is_indexed(route) is indexed


def test_every_page_has_a_description_and_noindex_where_private():
    import marketplace.app_pages  # noqa: F401  (declares every page)
    from marketplace.platform.ui.layout import PAGES

    declared = {kwargs["route"]: kwargs for _, kwargs in PAGES}
    for route, kwargs in declared.items():
        assert len(kwargs["description"]) >= 30, route
        robots = [m["content"] for m in kwargs["meta"] if m.get("name") == "robots"]
        assert robots == ([] if hp.is_indexed(route) else ["noindex"]), route
    # Every real page has its own description; only the 404 and referral-capture pages share the default.
    assert set(declared) - set(PAGE_DESCRIPTIONS) == {"404", routes.REFERRAL_CAPTURE}
    assert len(set(PAGE_DESCRIPTIONS.values())) == len(PAGE_DESCRIPTIONS)


# --------------------------------------------------------------------------- the middleware


def test_middleware_sets_cache_control_unless_the_route_did(settings):  # noqa: F811
    mw = HttpHardening(App(), settings=settings)
    assert call(mw, "/assets/entry.client-CY6srTXT.js")[1]["cache-control"] == YEAR
    assert call(mw, "/marketplace")[1]["cache-control"] == "no-cache"
    assert call(mw, "/logo.svg")[1]["cache-control"] == "no-cache"
    own = HttpHardening(App(headers=[(b"cache-control", b"private, max-age=60")]), settings=settings)
    status, headers, _ = call(own, "/api/images/house/x/0.svg")
    assert headers["cache-control"] == "private, max-age=60"
    missing = HttpHardening(App(status=404), settings=settings)
    assert call(missing, "/assets/gone-CY6srTXT.js")[1]["cache-control"] == "no-cache"


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_middleware_answers_robots_txt_itself(settings, method):  # noqa: F811
    app = App()
    status, headers, body = call(HttpHardening(app, settings=settings), "/robots.txt", method)
    assert status == 200 and app.seen == {}  # never reaches the app (whose answer would be its HTML)
    assert headers["content-type"] == "text/plain; charset=utf-8"
    assert headers["cache-control"] == "no-cache"
    assert "x-content-type-options" in headers
    expected = hp.robots_txt(hp.NOT_CRAWLED, "https://leadvault.app").encode()
    assert int(headers["content-length"]) == len(expected)
    assert body == (b"" if method == "HEAD" else expected)
    # Revalidated like every page: its ETag answers 304 without a body; another ETag gets the file.
    again = call(HttpHardening(app, settings=settings), "/robots.txt", method, {"if-none-match": headers["etag"]})
    assert (again[0], again[2], again[1]["etag"]) == (304, b"", headers["etag"])
    other = call(HttpHardening(app, settings=settings), "/robots.txt", method, {"if-none-match": '"stale"'})
    assert other[0] == 200


def test_files_of_the_build_revalidate_although_their_path_looks_like_a_referral_code(settings, tmp_path):  # noqa: F811
    def router(path):
        segments = path.strip("/").split("/")
        return "[referral_segment]" if len(segments) == 1 and segments[0] else None

    static = tmp_path / "client"
    static.mkdir()
    (static / "logo.svg").write_text("<svg/>")
    app = App(headers=[(b"content-type", b"image/svg+xml")])
    mw = HttpHardening(app, settings=settings, router=router, static_dir=static)
    call(mw, "/logo.svg", headers={"if-none-match": '"x"'})
    assert app.seen["headers"][b"if-none-match"] == b'"x"'  # the file server may answer 304
    call(mw, "/nologo.svg", headers={"if-none-match": '"x"'})
    assert b"if-none-match" not in app.seen["headers"]  # no such file: always the full 404 page
