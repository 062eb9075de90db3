"""Site shell: header, footer and the page template decorator.

Every page is declared with ``@page(route=..., title=...)``: the decorator
wraps it in the shell, runs ``AuthState.check_session`` first on every load
and records it; ``add_pages(app)`` (called once by marketplace/marketplace.py)
registers the recorded pages with the app.

Header layout by viewport (Radix breakpoints):

* below ``sm`` (768px): brand, Login (or the account button) and a menu
  button (aria-label "Open menu") opening a drawer with the navigation links;
* ``sm`` and up: the inline navigation; between 768px and 1024px the brand
  shows its mark only;
* below ``lg`` (1280px) a signed-in user's e-mail, subscription badge and
  Sign Out sit in a popover behind an account button (aria-label "Account
  details"); from ``lg`` they are inline in the header.

A signed-in user's header holds what features register in ``CHROME`` (the Notifications bell, left of
the account controls at every width), and ``CHROME.events`` (the bell's unread count) run on every page
load and with the session keep-alive. marketplace/app_pages.py registers them before any page is declared.

Element ids used by the test suite: ``header-login``, ``header-signout``,
``header-email``, ``header-subscription`` and ``nav-dashboard``.
"""

from __future__ import annotations

from collections.abc import Callable

from dataclasses import dataclass, field

import reflex as rx
from reflex_base.components.memo import memo
from reflex_base.utils.imports import ImportVar
from reflex_base.vars.base import Var, VarData
from reflex_components_core.core.banner import has_connection_errors
from reflex_components_core.el.elements.inline import A as InlineA

from marketplace.platform import routes
from marketplace.platform.texts import DATABASE_DOWN, RECONNECTING
from marketplace.platform.texts_pages import PAGE_DESCRIPTION_DEFAULT, PAGE_DESCRIPTIONS
from marketplace.platform.web import http_policy
from marketplace.platform.ui.balance_refresh import balance_refresh
from marketplace.platform.ui.demo_data import claim_text, demo_data_banner
from marketplace.platform.ui import kit as ui
from marketplace.platform.ui import popover
from marketplace.platform.ui.footer import LEGAL_NOTE, brand, footer
from marketplace.platform.ui.state_auth import AuthState
from marketplace.platform.ui.state_demo_data import DemoDataState

PREVIEW_IMAGE = "/logo.svg"  # og:image of every page (Reflex defaults to a favicon.ico there is none of)
NAV_LINKS = [
    ("Home", routes.HOME),
    ("Marketplace", routes.MARKETPLACE),
    ("Bulk Scraper", routes.BULK_SCRAPER),
    ("Pricing", routes.PRICING),
    ("About", routes.ABOUT),
    ("Legal", routes.LEGAL),
]
DASHBOARD_LINK = ("Dashboard", routes.DASHBOARD)

MAIN_ID = "main-content"  # the skip link's target

# Token refresh ticker period: access tokens are refreshed well before expiry.
KEEP_ALIVE_INTERVAL_MS = 4 * 60 * 1000

# Visibility helpers (classes in assets/styles.css; sm = 768px, lg = 1280px).
_FROM_SM = "lv-hide-below-sm"
_BELOW_SM = "lv-hide-from-sm"
_FROM_LG = "lv-hide-below-lg"
_BELOW_LG = "lv-hide-from-lg"


# --------------------------------------------------------------------- pieces

def _current_path() -> rx.Var:
    """The browser path as the router last reported it."""
    return rx.State.router.url.path


def _is_active(href: str) -> rx.Var:
    """Whether the nav entry for ``href`` is the current page (or its section)."""
    path = _current_path()
    if href == routes.HOME:
        return path == href
    return (path == href) | path.startswith(f"{href}/")


def nav_link(label: str, href: str, link_id: str | None = None) -> rx.Component:
    """One inline header navigation link with an active state."""
    active = _is_active(href)
    return rx.link(
        label,
        href=href,
        id=link_id,
        underline="none",
        size="2",
        weight="medium",
        class_name=rx.cond(active, "lv-nav-link lv-nav-link-active", "lv-nav-link"),
        _hover={},  # hover colours come from assets/styles.css
        aria_current=rx.cond(active, "page", "false"),
    )


def drawer_link(label: str, href: str, icon: str) -> rx.Component:
    """One navigation entry of the mobile drawer; tapping it closes the drawer."""
    active = _is_active(href)
    return rx.drawer.close(
        rx.link(
            rx.hstack(ui.static_icon(icon, size=18, aria_hidden="true"), rx.text(label), spacing="3", align="center"),
            href=href,
            underline="none",
            size="3",
            weight="medium",
            class_name=rx.cond(active, "lv-drawer-link lv-nav-link-active", "lv-drawer-link"),
            _hover={},
            aria_current=rx.cond(active, "page", "false"),
        ),
    )


_DRAWER_ICONS = {
    routes.HOME: "house",
    routes.MARKETPLACE: "map_pin",
    routes.BULK_SCRAPER: "layers_3",
    routes.PRICING: "dollar_sign",
    routes.ABOUT: "building_2",
    routes.LEGAL: "scale",
    routes.DASHBOARD: "gauge",
}


def subscription_badge(badge_id: str | None = None) -> rx.Component:
    """'<type> · N leads remaining' for subscribed users, nothing otherwise."""
    return rx.cond(
        AuthState.subscribed,
        rx.badge(
            rx.icon("badge_check", size=12, aria_hidden="true"),
            rx.text(f"{AuthState.subscription_type} · {AuthState.leads_remaining} leads remaining", as_="span",
                    class_name="lv-capitalize-first"),
            id=badge_id,
            color_scheme="grass",
            variant="soft",
            radius="full",
            size="1",
        ),
    )


def account_inline() -> rx.Component:
    """From 1280px: e-mail, subscription badge and Sign Out, inline in the header."""
    return rx.hstack(
        rx.vstack(
            rx.text(AuthState.user_email, id="header-email", size="2", weight="medium", class_name="lv-truncate",
                    max_width="240px", title=AuthState.first_name + " · " + AuthState.user_email),
            subscription_badge("header-subscription"),
            spacing="1",
            align="end",
        ),
        sign_out_button(id="header-signout"),
        spacing="3",
        align="center",
        class_name=_FROM_LG,
    )


def account_popover() -> rx.Component:
    """Below 1280px: an avatar button opening the e-mail, subscription and Sign Out (a browser popover,
    ``ui.popover``)."""
    return rx.box(
        rx.icon_button(
            rx.icon("user_round", size=18, aria_hidden="true"),
            variant="soft",
            radius="full",
            size="2",
            aria_label="Account details",
            custom_attrs=popover.opens("account-panel"),
        ),
        popover.panel(
            "account-panel",
            "Your account",
            rx.vstack(
                rx.text("Signed in as", size="1", color_scheme="gray"),
                rx.cond(AuthState.first_name != "",
                        rx.text(AuthState.first_name, size="3", weight="bold", class_name="lv-break",
                                id="header-name")),
                rx.text(AuthState.user_email, size="2", weight="medium", class_name="lv-break"),
                subscription_badge(),
                sign_out_button(margin_top="0.5rem", id="popover-signout"),
                spacing="2",
            ),
            width="260px",
        ),
        class_name=_BELOW_LG,
    )


def login_button() -> rx.Component:
    """The Login button shown to visitors."""
    return ui.button_link("Login", routes.AUTH, icon="log_in", size="2", id="header-login")


def sign_out_button(**props) -> rx.Component:
    """The Sign Out button: signs out and returns to the home page."""
    return rx.button(
        rx.icon("log_out", size=16, aria_hidden="true"),
        "Sign Out",
        on_click=AuthState.sign_out,
        variant="soft",
        color_scheme="gray",
        size="2",
        **props,
    )


@dataclass
class Chrome:
    """What features add to every signed-in page: components in the header beside the account controls, and
    event handlers run on each page load and every session keep-alive. Registered once, before any page is
    declared (marketplace/app_pages.py); the platform names no feature."""

    header: list[Callable[[], rx.Component]] = field(default_factory=list)
    events: list = field(default_factory=list)


CHROME = Chrome()


def account_controls() -> rx.Component:
    """Login / account area; a skeleton while the session is being resolved."""
    return rx.cond(
        AuthState.auth_loading,
        rx.skeleton(width="88px", height="32px", aria_label="Loading account", role="status"),
        rx.cond(
            AuthState.is_authenticated,
            rx.fragment(*[item() for item in CHROME.header], account_inline(), account_popover()),
            login_button(),
        ),
    )


def mobile_menu() -> rx.Component:
    """The menu button and slide-in drawer used below 768px."""
    return rx.box(
        rx.drawer.root(
            rx.drawer.trigger(
                rx.icon_button(
                    rx.icon("menu", size=20, aria_hidden="true"),
                    variant="ghost",
                    color_scheme="gray",
                    size="3",
                    aria_label="Open menu",
                    id="header-menu-button",
                ),
            ),
            rx.drawer.overlay(z_index="60"),
            rx.drawer.portal(
                rx.drawer.content(
                    rx.vstack(
                        rx.hstack(
                            rx.drawer.title(brand(), margin="0"),
                            rx.drawer.close(
                                rx.icon_button(
                                    rx.icon("x", size=20, aria_hidden="true"),
                                    variant="ghost",
                                    color_scheme="gray",
                                    size="3",
                                    aria_label="Close menu",
                                ),
                            ),
                            justify="between",
                            align="center",
                            width="100%",
                        ),
                        rx.drawer.description("Site navigation", class_name="lv-sr-only"),
                        rx.el.nav(
                            rx.vstack(
                                *[drawer_link(label, href, _DRAWER_ICONS[href]) for label, href in NAV_LINKS],
                                rx.cond(
                                    AuthState.is_authenticated,
                                    drawer_link(*DASHBOARD_LINK, _DRAWER_ICONS[routes.DASHBOARD]),
                                ),
                                spacing="1",
                                width="100%",
                            ),
                            aria_label="Mobile",
                            width="100%",
                        ),
                        rx.spacer(),
                        claim_text(LEGAL_NOTE, size="1", color_scheme="gray"),
                        spacing="5",
                        height="100%",
                        width="100%",
                    ),
                    class_name="lv-drawer",
                    top="0",
                    left="auto",
                    right="0",
                    height="100%",
                    width="min(20rem, 86vw)",
                    padding="1.25rem",
                    z_index="61",
                ),
            ),
            direction="right",
        ),
        class_name=_BELOW_SM,
    )


def header() -> rx.Component:
    """The sticky site header: brand, navigation and account controls."""
    return rx.el.header(
        ui.container(
            rx.hstack(
                brand(collapse_text=True),
                rx.el.nav(
                    rx.hstack(
                        *[nav_link(label, href) for label, href in NAV_LINKS],
                        rx.cond(AuthState.is_authenticated, nav_link(*DASHBOARD_LINK, link_id="nav-dashboard")),
                        spacing="1",
                        align="center",
                    ),
                    aria_label="Main",
                    class_name=_FROM_SM,
                    margin_left=ui.responsive("0.5rem", md="1.5rem"),
                ),
                rx.spacer(),
                account_controls(),
                mobile_menu(),
                align="center",
                spacing="3",
                height="64px",
                width="100%",
            ),
        ),
        class_name="lv-header",
    )


def session_keep_alive() -> rx.Component:
    """Hidden ticker refreshing the session tokens every 4 minutes (signed in only).

    ``rx.moment`` also fires ``on_change`` once on mount, which merely
    re-validates the fresh session.
    """
    return rx.cond(
        AuthState.is_authenticated,
        rx.moment(interval=KEEP_ALIVE_INTERVAL_MS, on_change=[AuthState.keep_alive, *CHROME.events],
                  display="none",
                  aria_hidden="true"),
    )


def ready_signal() -> rx.Component:
    """The app's ready signal, hidden: ``#lv-ready`` carries ``data-ready="true"`` once the page has
    hydrated, its websocket is connected and its on_load handlers are done (Reflex's
    ``State.is_hydrated``), "false" while a page loads. Browser tests wait for it
    (``tests/browser/helpers.wait_ready``). An app wrap (``marketplace.py``): on every page."""
    return rx.fragment(rx.el.div(id="lv-ready", hidden=True, data_ready=rx.State.is_hydrated))


# The page's socket dropped and Reflex is reconnecting it: true from the drop, not only once an attempt has
# failed (``has_connection_errors``), since an attempt can hang until socket.io's 20 s connect timeout (a
# listening port that does not answer yet). Reflex calls ``window.__reflex_otel.onSocketDisconnect`` /
# ``onSocketConnect`` (its instrumentation hooks) on every drop and connect; a drop it will not retry (the
# page leaving: "io client disconnect"; the server ending the session: "io server disconnect") is not shown.
SOCKET_HOOKS = """useEffect(() => {
  const hooks = (window.__reflex_otel = window.__reflex_otel || {});
  const down = hooks.onSocketDisconnect, up = hooks.onSocketConnect;
  hooks.onSocketDisconnect = (reason) => {
    down?.(reason);
    if (reason !== "io client disconnect" && reason !== "io server disconnect") setLvSocketDown(true);
  };
  hooks.onSocketConnect = () => { up?.(); setLvSocketDown(false); };
  return () => { hooks.onSocketDisconnect = down; hooks.onSocketConnect = up; };
}, []);"""
socket_down = Var(
    _js_expr="lvSocketDown",
    _var_data=VarData(imports={"react": [ImportVar(tag="useState"), ImportVar(tag="useEffect")]},
                      hooks={"const [lvSocketDown, setLvSocketDown] = useState(false);": None, SOCKET_HOOKS: None}),
).to(bool)


def _connection_status() -> rx.Component:
    return rx.el.div(
        rx.cond(has_connection_errors | socket_down, rx.el.span(RECONNECTING)),
        role="status",
        aria_live="polite",
        id="lv-connection-status",
        class_name="lv-connection-status",
    )


def connection_status() -> rx.Component:
    """The app's overlay (its "Overlay" app wrap, on every page): 'Reconnecting...' while the
    page's connection to the server is down (the server restarting, a network drop). A polite live region
    that is always there, so a screen reader hears the text appear; empty (and hidden) while connected.
    Clicks made meanwhile wait in the page and are sent once it reconnects (Reflex's event queue).
    A memo of its own, as Reflex's overlay: the connection hook lives in that component."""
    return rx.fragment(memo(_connection_status)())


def outage_notice() -> rx.Component:
    """In place of a page whose load found the database unreachable (``AuthState.db_down``): what is
    wrong and a way to try again (a fresh load), instead of a page with no data."""
    return rx.box(
        rx.heading(DATABASE_DOWN[0], as_="h1", size="6"),
        rx.text(DATABASE_DOWN[1], size="3"),
        rx.button("Try again", on_click=rx.call_script("window.location.reload()"), size="3",
                  id="db-outage-retry"),
        role="alert",
        id="db-outage",
        class_name="lv-outage-notice",
    )


def shell(content: rx.Component) -> rx.Component:
    """Header, main content and footer, with a skip link for keyboard users."""
    return rx.box(
        # A plain <a> (rx.el.a is React Router's Link, which resolves "#main-content"
        # against the route, e.g. "/marketplace/#main-content"): an in-page jump that
        # moves focus to <main> on every page.
        InlineA.create("Skip to content", href=f"#{MAIN_ID}", class_name="lv-skip-link"),
        demo_data_banner(),  # a demo install says so on every page
        header(),
        rx.el.main(rx.cond(AuthState.db_down, outage_notice(), content), id=MAIN_ID, class_name="lv-main",
                   tab_index=-1),
        footer(),
        session_keep_alive(),
        balance_refresh(),
        class_name="lv-shell",
    )


# Pages declared with ``@page``; ``add_pages`` adds them to the app once. (Reflex
# re-applies ``rx.page``'s queue on every compile: the CLI's and the backend
# worker's, so each page was added twice, "Page ... is being redefined".)
PAGES: list[tuple[Callable[[], rx.Component], dict]] = []


def page(route: str, title: str | rx.Var, on_load: list | None = None, shell_wrapped: bool = True,
         opens_session: bool = False) -> Callable:
    """Declare a page: shell around it, session check before its own loads. ``title``
    may be a state var (a title that follows the page's state). ``opens_session``: the page's one
    on_load does the session check and the bell's count itself (``AuthState._open_page``)."""

    def decorator(fn: Callable[[], rx.Component]) -> Callable[[], rx.Component]:
        def wrapped() -> rx.Component:
            return shell(fn()) if shell_wrapped else fn()

        # Reflex files a page's memoised components under the page function's module: keeping
        # the page's own module gives each page a chunk of its own (a wrapper defined here would
        # put all pages' components in one chunk that every page preloads).
        wrapped.__name__ = fn.__name__
        wrapped.__qualname__ = fn.__qualname__
        wrapped.__module__ = fn.__module__
        PAGES.append((wrapped, {
            "route": route,
            "title": title + f" | {routes.APP_NAME}" if isinstance(title, rx.Var) else f"{title} | {routes.APP_NAME}",
            # The chrome's events (the bell's unread count, signed in) run with every page load, after the page's own data.
            # Last, whether the install serves demo data (the banner; a cached read, prerendered already).
            "on_load": [*(on_load or []), DemoDataState.check_demo_data] if opens_session else
                       [AuthState.check_session, *(on_load or []), *CHROME.events,
                        DemoDataState.check_demo_data],
            # Search snippet, link preview image, and noindex for private and transactional pages.
            "description": PAGE_DESCRIPTIONS.get(route, PAGE_DESCRIPTION_DEFAULT),
            "image": PREVIEW_IMAGE,
            "meta": [] if http_policy.is_indexed(route) else [{"name": "robots", "content": "noindex"}],
        }))
        return wrapped

    return decorator


def add_pages(app: rx.App) -> None:
    """Add every declared page to ``app``, each exactly once."""
    for render, kwargs in PAGES:
        app.add_page(render, **kwargs)
