"""Site shell: header, footer and the page template decorator.

Every page is declared with ``@page(route=..., title=...)``: the decorator
registers it with Reflex, wraps it in the shell and runs
``AuthState.check_session`` first on every load.
"""

from __future__ import annotations

from collections.abc import Callable

import reflex as rx

from marketplace import routes
from marketplace.states.auth import AuthState

NAV_LINKS = [
    ("Home", routes.HOME),
    ("Marketplace", routes.MARKETPLACE),
    ("Bulk Scraper", routes.BULK_SCRAPER),
    ("Pricing", routes.PRICING),
    ("About", routes.ABOUT),
    ("Legal", routes.LEGAL),
]


def header() -> rx.Component:
    return rx.el.header(
        rx.hstack(
            rx.link(rx.heading(routes.APP_NAME, size="5"), href=routes.HOME, underline="none"),
            rx.spacer(),
            *[rx.link(label, href=href) for label, href in NAV_LINKS],
            rx.cond(AuthState.is_authenticated, rx.link("Dashboard", href=routes.DASHBOARD)),
            rx.cond(
                AuthState.is_authenticated,
                rx.hstack(
                    rx.text(AuthState.user_email, size="2"),
                    rx.button("Sign Out", on_click=AuthState.sign_out),
                ),
                rx.link(rx.button("Login"), href=routes.AUTH),
            ),
            width="100%",
            align="center",
            padding="1rem",
        )
    )


def footer() -> rx.Component:
    return rx.el.footer(rx.text(f"© {routes.APP_NAME}"), padding="1rem")


def shell(content: rx.Component) -> rx.Component:
    return rx.box(header(), rx.el.main(content), footer())


def page(route: str, title: str, on_load: list | None = None, shell_wrapped: bool = True) -> Callable:
    """Register a page: shell around it, session check before its own loads."""

    def decorator(fn: Callable[[], rx.Component]) -> Callable[[], rx.Component]:
        @rx.page(route=route, title=f"{title} | {routes.APP_NAME}", on_load=[AuthState.check_session, *(on_load or [])])
        def wrapped() -> rx.Component:
            return shell(fn()) if shell_wrapped else fn()

        wrapped.__name__ = fn.__name__
        return wrapped

    return decorator
