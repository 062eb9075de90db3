"""Reflex configuration. DATABASE_URL and REDIS_URL are read here (Reflex only
reads REFLEX_-prefixed variables itself)."""

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui.styles import THEME_COLORS
from marketplace.platform.config import exit_unless_ready, get_settings
from marketplace.platform.web.http_policy import origin_policy

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


class ThemeColorsRadixPlugin(rx.plugins.RadixThemesPlugin):
    """Radix Themes, as light as the pages allow (issue 26).

    * CSS: the colour scales the app uses only (THEME_COLORS) with the base tokens, the
      components and the utilities, instead of styles.css, which carries all 31 scales.
    * JS: Radix Themes is not registered for dynamic components (``window.__reflex``, none in
      this app): that registration imports the library's whole namespace, eagerly into the root
      chunk, or with ``frontend_lazy_bundled_libraries`` as a dynamic import, which still keeps
      every component (ThemePanel, menus, ...) in a chunk that every page preloads. Without it
      pages import the components they render and the rest is tree-shaken away.
    """

    def pre_compile(self, **context):
        # Runs after the pages are compiled and before the root and the library list are written.
        from reflex_base.registry import RegistrationContext

        libraries = RegistrationContext.ensure_context().bundled_libraries
        libraries[:] = [library for library in libraries if not library.startswith("@radix-ui/themes")]
        super().pre_compile(**context)
        context["add_modify_task"]("vite.config.js", icons_in_one_chunk)

    def get_stylesheet_paths(self, **context):
        if not self.enabled:
            return ()
        # In styles.css' order: the scales, then the base tokens (whose gray-colour mapping, e.g.
        # --gray-1: var(--slate-1), must come after the gray scale), the components, the utilities.
        return (*(f"@radix-ui/themes/tokens/colors/{color}.css" for color in THEME_COLORS),
                "@radix-ui/themes/tokens/base.css", "@radix-ui/themes/components.css",
                "@radix-ui/themes/utilities.css")


# Pages whose prerendered HTML is worth painting before their scripts start: a visitor's first look
# (its content), and the signed-in dashboard and property page (the header, the footer and the page's
# loading line or skeleton: on a phone they paint in about 1 s instead of after the scripts and the
# session, 3.5 s). The confirmation link and the fallback (unknown paths) start their scripts at once.
PAINT_FIRST_PAGES = PUBLIC_PAGES | {"auth", "auth/reset", "dashboard",
                                    *(shell.strip("/") for shell in routes.PAGE_SHELLS.values())}


def built_page_route(relative: str) -> str:
    """The route key of a built page file: 'pricing/index.html' and 'pricing.html' -> 'pricing',
    'index.html' -> 'index'."""
    key = relative.removesuffix(".html").removesuffix("/index")
    return key or "index"


class PaintFirstPlugin(rx.plugins.Plugin):
    """The pages of PAINT_FIRST_PAGES paint their prerendered content before their scripts start
    (``marketplace.platform.web.paint_first``; issue 26), and each dynamic page gets a prerendered shell
    (``routes.PAGE_SHELLS``; issue 41). The rewrite runs after the build, before the .br/.gz sidecars are
    written, so they carry the rewritten pages."""

    def pre_compile(self, **context):
        from marketplace.platform.web.paint_first import with_page_shells

        shells = list(routes.PAGE_SHELLS.values())
        context["add_modify_task"]("react-router.config.js", lambda text: with_page_shells(text, shells))

    def post_build(self, **context):
        from marketplace.platform.web.paint_first import paint_first

        static_dir = context["static_dir"]
        for html in sorted(static_dir.rglob("*.html")):
            if built_page_route(html.relative_to(static_dir).as_posix()) not in PAINT_FIRST_PAGES:
                continue
            text = html.read_text(encoding="utf-8")
            rewritten = paint_first(text)  # UnexpectedPage (the framework changed) stops the build
            if rewritten != text:
                html.write_text(rewritten, encoding="utf-8")


# The lucide icons the pages use (each its own module of a few hundred bytes) go into one chunk:
# left to the bundler, every icon shared by a different set of pages became a file of its own,
# a request each (25 on /), which costs a slow network a round trip per handful.
ICONS_CHUNK = '{ test: /[\\\\/]node_modules[\\\\/]lucide-react[\\\\/]/, name: "icons" },'


def icons_in_one_chunk(vite_config: str) -> str:
    if "groups: [" not in vite_config:
        raise RuntimeError("vite.config.js has no codeSplitting groups (Reflex changed its template): "
                           "update rxconfig.icons_in_one_chunk")
    return vite_config.replace("groups: [", "groups: [\n            " + ICONS_CHUNK, 1)


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
        ThemeColorsRadixPlugin(
            theme=rx.theme(appearance="light", accent_color="indigo", gray_color="slate", radius="large", scaling="100%")
        ),
        PublicSitemapPlugin(),
        PaintFirstPlugin(),
    ],
    # CORS and the websocket: only the site's own origin (SITE_URL; in development
    # also localhost/127.0.0.1 on PORT). Same-origin pages need no CORS grant;
    # marketplace.platform.web.security refuses websockets from any other origin.
    cors_allowed_origins=_origins.static_origins,
    # Absolute addresses in sitemap.xml.
    **({"deploy_url": _settings.site_url} if _settings.site_url else {}),
    # The build writes .br and .gz beside each JS/CSS/HTML file; the server sends the best one the
    # browser accepts (brotli: the framework's JS and CSS ~25 % smaller than gzip).
    frontend_compression_formats=["brotli", "gzip"],
    # Libraries only a dynamic component needs (all of Radix Themes, for one) load when such a
    # component first renders instead of in the root chunk of every page (issue 26).
    frontend_lazy_bundled_libraries=True,
    frontend_port=_settings.port,
    backend_port=_settings.port,
)
