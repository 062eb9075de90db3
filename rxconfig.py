"""Reflex configuration. DATABASE_URL and REDIS_URL are read here (Reflex only
reads REFLEX_-prefixed variables itself)."""

import reflex as rx

from marketplace import routes
from marketplace.config import exit_unless_ready, get_settings
from marketplace.core.http_policy import origin_policy

exit_unless_ready()  # a bad setting or an unfit production config: one line, exit 1
_settings = get_settings()
_origins = origin_policy(_settings.site_url, _settings.port, not _settings.is_production)

# sitemap.xml lists these pages only (when they exist); private, transactional
# and dynamic pages (dashboard, explorer, checkout, purchase results, property
# details, referral capture) never appear.
PUBLIC_PAGES = frozenset(
    route.strip("/") or "index"
    for route in (
        routes.HOME, routes.MARKETPLACE, routes.BULK_SCRAPER, routes.PRICING, routes.ABOUT, routes.CONTACT,
        routes.LEGAL, routes.LEGAL_PRIVACY, routes.LEGAL_TERMS, routes.LEGAL_DISCLAIMER,
    )
)


class PublicSitemapPlugin(rx.plugins.SitemapPlugin):
    """Reflex's sitemap, restricted to PUBLIC_PAGES."""

    def pre_compile(self, **context):
        pages = [page for page in context.get("unevaluated_pages", []) if (page.route.strip("/") or "index") in PUBLIC_PAGES]
        super().pre_compile(**{**context, "unevaluated_pages": pages})


config = rx.Config(
    app_name="marketplace",
    # Our own engine and Alembic history manage the database; Reflex's model
    # layer stays off so it never inspects or migrates our schema.
    db_url=None,
    redis_url=_settings.redis_url,
    telemetry_enabled=False,
    show_built_with_reflex=False,
    # The one theme of the product: light, indigo accent, slate grays, large radius.
    plugins=[
        rx.plugins.RadixThemesPlugin(
            theme=rx.theme(appearance="light", accent_color="indigo", gray_color="slate", radius="large", scaling="100%")
        ),
        PublicSitemapPlugin(),
    ],
    # CORS and the websocket: only the site's own origin (SITE_URL; in development
    # also localhost/127.0.0.1 on PORT). Same-origin pages need no CORS grant;
    # marketplace.api.security refuses websockets from any other origin.
    cors_allowed_origins=_origins.static_origins,
    # Absolute addresses in sitemap.xml.
    **({"deploy_url": _settings.site_url} if _settings.site_url else {}),
    # The build writes .br and .gz beside each JS/CSS/HTML file; the server sends the best one the
    # browser accepts (brotli: the framework's JS and CSS ~25 % smaller than gzip).
    frontend_compression_formats=["brotli", "gzip"],
    frontend_port=_settings.port,
    backend_port=_settings.port,
)
