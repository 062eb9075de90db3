"""Marketplace pagination: Previous, the first and last pages with a window of 2
either side of the current page and ellipses, Next, and the range label (SPEC 2, 9)."""

from __future__ import annotations

import reflex as rx

from marketplace.features.marketplace.state import MarketplaceState


def page_button(number: rx.Var) -> rx.Component:
    current = number == MarketplaceState.page
    return rx.cond(
        number == 0,
        rx.text("…", size="2", color_scheme="gray", aria_hidden="true", padding_x="0.35rem"),
        rx.button(
            number,
            on_click=MarketplaceState.go_to_page(number),
            variant=rx.cond(current, "solid", "soft"),
            color_scheme=rx.cond(current, "indigo", "gray"),
            size={"initial": "1", "sm": "2"},
            aria_label=f"Page {number}",
            aria_current=rx.cond(current, "page", "false"),
            class_name="lv-mkt-page-btn",
            cursor="pointer",
        ),
    )


def pagination() -> rx.Component:
    """Previous, the page window, Next; on phones the numbers take the first row."""
    step = {"variant": "soft", "color_scheme": "gray", "size": "2", "cursor": "pointer"}
    return rx.cond(
        (MarketplaceState.pages > 1) & ~MarketplaceState.showing_samples,
        rx.el.nav(
            rx.flex(
                rx.button(rx.icon("chevron_left", size=16, aria_hidden="true"), "Previous",
                          on_click=MarketplaceState.go_to_page(MarketplaceState.page - 1), disabled=MarketplaceState.page <= 1, aria_label="Previous page",
                          **step),
                rx.flex(rx.foreach(MarketplaceState.page_window, page_button), spacing="1", align="center", justify="center",
                        id="pagination-pages", class_name="lv-mkt-pages"),
                rx.button("Next", rx.icon("chevron_right", size=16, aria_hidden="true"),
                          on_click=MarketplaceState.go_to_page(MarketplaceState.page + 1), disabled=MarketplaceState.page >= MarketplaceState.pages, aria_label="Next page",
                          **step),
                spacing="2",
                align="center",
                justify="center",
                wrap="wrap",
                width="100%",
            ),
            rx.text(MarketplaceState.range_label, size="1", color_scheme="gray", text_align="center", margin_top="0.75rem",
                    id="range-label", as_="p"),
            aria_label="Pagination",
            id="pagination",
            margin_top="2.5rem",
            width="100%",
        ),
    )
