"""/bulkscraper: the bulk scraper (SPEC 2, 4, 5, 6, 8, 9).

Visitors get the Authentication Required panel with a Login link. Signed-in
users get the configuration form, the credits and cost panel, the discount tier
table, the results and the Webhook section (sections in ``marketplace/views``).
Element ids: ``scraper-auth-required``, ``scraper-login`` and the views' ids.
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform import texts as messages, routes
from marketplace.platform.ui import kit as ui
from marketplace.platform.ui.layout import page
from marketplace.features.scrape.state import BulkScraperState
from marketplace.features.scrape.state_webhook import WebhookState
from marketplace.features.scrape.view_form import confirm_dialog, config_form, cost_panel, tier_table
from marketplace.features.scrape.view_results import results_section
from marketplace.features.scrape.view_webhook import webhook_section


def page_header() -> rx.Component:
    return rx.vstack(
        ui.eyebrow("Bulk Scraper", "layers_3"),
        rx.heading("Bulk Lead Scraper", as_="h1", size={"initial": "8", "md": "9"}, weight="bold",
                   class_name="lv-hero-title"),
        rx.text("Generate up to 1,000 off-market leads at once, with full addresses and ROI analysis. "
                "The more you scrape, the less each lead costs.",
                size={"initial": "3", "md": "4"}, color_scheme="gray", max_width="720px"),
        spacing="3",
    )


def auth_required() -> rx.Component:
    return rx.card(
        rx.vstack(
            ui.icon_tile("lock", "amber"),
            rx.heading(messages.SCRAPE_LOGIN_REQUIRED[0], size="6", as_="h2"),
            rx.text(messages.SCRAPE_LOGIN_REQUIRED[1], size="3", color_scheme="gray"),
            ui.button_link("Login", routes.AUTH, icon="log-in"),
            spacing="3",
            align="center",
            text_align="center",
            padding="1.5rem",
        ),
        size="3",
        class_name="lv-card",
        max_width="520px",
        margin_x="auto",
        width="100%",
        id="scraper-auth-required",
    )


def signed_in_view() -> rx.Component:
    return rx.vstack(
        rx.grid(
            config_form(),
            rx.vstack(cost_panel(), tier_table(), spacing="4", width="100%",
                      position={"initial": "static", "md": "sticky"}, top="88px"),
            columns={"initial": "1", "md": "minmax(0, 3fr) minmax(300px, 2fr)"},
            spacing="5",
            width="100%",
            align_items="start",
        ),
        results_section(),
        webhook_section(),
        confirm_dialog(),
        spacing="5",
        width="100%",
    )


@page(routes.BULK_SCRAPER, "Bulk Scraper", on_load=[BulkScraperState.load, WebhookState.load])
def bulkscraper() -> rx.Component:
    return ui.section(
        rx.vstack(
            page_header(),
            # At least most of a screen tall in every state (resolving the session, visitor,
            # signed in): the footer starts below the fold, so nothing it shows moves (CLS).
            rx.box(
                rx.cond(
                    BulkScraperState.auth_loading,
                    rx.center(rx.spinner(size="3"), padding="3rem", width="100%"),
                    rx.cond(BulkScraperState.is_authenticated, signed_in_view(), auth_required()),
                ),
                min_height="70vh",
                width="100%",
            ),
            spacing="6",
            width="100%",
        ),
        padding_y=ui.responsive("2rem", sm="2.5rem", md="3rem"),
    )
