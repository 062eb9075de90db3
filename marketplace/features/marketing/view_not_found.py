"""The "Page not found" view: the 404 page's body, also rendered by the referral
capture page for one-segment paths that are not referral codes."""

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import kit as ui

NOT_FOUND_ROUTE = "404"  # reflex_base.constants.Page404.SLUG


def not_found_view() -> rx.Component:
    """"Page not found" with a Return to Home button."""
    return ui.section(
        rx.vstack(
            rx.text("404", class_name="lv-404-code", aria_hidden="true"),
            rx.heading("Page not found", as_="h1", size={"initial": "7", "md": "8"}, weight="bold",
                       id="not-found-title"),
            rx.text("Sorry, the page you are looking for does not exist or has been moved.", size="4",
                    color_scheme="gray", max_width="30rem"),
            rx.flex(
                ui.button_link("Return to Home", routes.HOME, size="3", id="not-found-home"),
                ui.button_link("Browse Marketplace", routes.MARKETPLACE, size="3", variant="outline"),
                spacing="3",
                wrap="wrap",
                justify="center",
            ),
            spacing="4",
            align="center",
            text_align="center",
            padding_y=ui.responsive("1rem", md="3rem"),
        ),
        class_name="lv-hero-bg",
    )
