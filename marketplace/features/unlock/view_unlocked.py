"""Dashboard tab Unlocked Leads: a table from ``sm``, tappable cards on phones,
Load more, and the empty state (SPEC 2, 9)."""

from __future__ import annotations

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import cards, kit as ui
from marketplace.features.unlock.texts_guarantee import CLOSED_BADGE
from marketplace.features.dashboard import DashboardState


def roi_text(row: dict) -> rx.Component:
    return rx.text(row["roi"], weight="medium",
                   color=rx.cond(row["has_roi"] != "", rx.color("grass", 11), rx.color("gray", 10)))


def archived_badge(row: dict) -> rx.Component:
    """Archived, or Closed for a lead the county contradicted within the guarantee (its credits came back)."""
    return rx.fragment(
        rx.cond(row["archived"] != "", rx.badge("Archived", variant="surface", color_scheme="gray", size="1")),
        rx.cond(row["closed"] != "", rx.badge(CLOSED_BADGE, variant="surface", color_scheme="amber", high_contrast=True, size="1",
                                              class_name="dashboard-closed-badge")),
    )


def closed_line(row: dict, size: str = "1") -> rx.Component:
    """'Closed: the vacancy notice at 123 Main St left Baltimore City's open list on Nov 28, 2026 · 120 credits
    back' (only for a refunded purchase)."""
    return rx.cond(row["closed"] != "", rx.text(
        rx.text.strong("Closed: "), row["closed_reason"], " · ",
        rx.text.span(row["credits_back"], weight="bold", color=rx.color("grass", 11), white_space="nowrap"),
        size=size, color=rx.color("gray", 11), class_name="dashboard-closed-reason lv-break"))


def sale_line(row: dict, size: str = "1") -> rx.Component:
    """The lead's sale or auction date and its source ('Sale date: Dec 12, 2026 (in 17 days) · Demo date')."""
    return rx.cond(row["sale"] != "", rx.text(row["sale"], " · ", row["sale_source"], size=size,
                                              color=rx.color("orange", 11), class_name="dashboard-sale-date"))


def unlocked_row(row: dict) -> rx.Component:
    return rx.table.row(
        rx.table.cell(
            rx.vstack(
                rx.hstack(
                    rx.link(row["address"], href=row["href"], weight="medium", size="2", high_contrast=True,
                            underline="hover", class_name="dashboard-property-link"),
                    archived_badge(row),
                    spacing="2",
                    align="center",
                ),
                rx.text(row["place"], size="1", color_scheme="gray"),
                ui.provenance_badge(row["provenance"], class_name="dashboard-unlocked-provenance"),
                sale_line(row),
                closed_line(row),
                spacing="1",
            )
        ),
        rx.table.cell(rx.badge(row["lead_type"], variant="soft", color_scheme="gray")),
        rx.table.cell(roi_text(row)),
        rx.table.cell(row["credit_cost"]),
        rx.table.cell(row["unlocked_at"], white_space="nowrap"),
        # One line at every width: the button keeps its label's width, the address column gives way.
        rx.table.cell(ui.button_link("View Details", row["href"], variant="soft", size="1", white_space="nowrap",
                                     flex_shrink="0", class_name="dashboard-view-details"),
                      white_space="nowrap"),
        align="center",
    )


def unlocked_item(row: dict) -> rx.Component:
    """One unlock as a tappable card (phones, where the table would scroll sideways)."""
    return rx.link(
        rx.hstack(
            rx.vstack(
                rx.hstack(
                    rx.text(row["address"], weight="bold", size="3", high_contrast=True),
                    archived_badge(row),
                    spacing="2",
                    align="center",
                    wrap="wrap",
                ),
                rx.text(row["place"], size="2", color_scheme="gray"),
                ui.provenance_badge(row["provenance"], class_name="dashboard-unlocked-provenance"),
                rx.hstack(
                    rx.badge(row["lead_type"], variant="soft", color_scheme="gray"),
                    rx.badge(row["roi"], " ROI", variant="soft",
                             color_scheme=rx.cond(row["has_roi"] != "", "grass", "gray")),
                    spacing="2",
                    wrap="wrap",
                ),
                rx.text("Unlocked ", row["unlocked_at"], " · ", row["credit_cost"], " credits", size="1",
                        color_scheme="gray"),
                sale_line(row),
                closed_line(row),
                spacing="1",
                min_width="0",
            ),
            rx.spacer(),
            rx.icon("chevron_right", size=18, color="var(--gray-9)", flex_shrink="0"),
            align="center",
            width="100%",
        ),
        href=row["href"],
        underline="none",
        color="inherit",
        _hover={"background": "var(--gray-a2)"},
        display="block",
        padding="0.9rem 1rem",
        border_bottom="1px solid var(--gray-a4)",
        class_name="dashboard-unlocked-item",
    )


def unlocked_tab() -> rx.Component:
    return rx.cond(
        DashboardState.unlocked.length() > 0,
        rx.vstack(
            rx.box(
                rx.table.root(
                    rx.table.header(
                        rx.table.row(
                            *[rx.table.column_header_cell(h)
                              for h in ("Property", "Type", "ROI", "Credits", "Unlocked")],
                            rx.table.column_header_cell(rx.el.span("Details", class_name="lv-sr-only")),
                        )
                    ),
                    rx.table.body(rx.foreach(DashboardState.unlocked, unlocked_row)),
                    variant="surface",
                    size="2",
                    width="100%",
                ),
                overflow_x="auto",
                width="100%",
                id="dashboard-unlocked-table",
                class_name="lv-hide-below-sm",
            ),
            rx.box(
                rx.foreach(DashboardState.unlocked, unlocked_item),
                id="dashboard-unlocked-list",
                class_name="lv-hide-from-sm",
                width="100%",
                border="1px solid var(--gray-a5)",
                border_radius="var(--radius-4)",
                background="var(--color-panel-solid)",
                overflow="hidden",
                style={"& > a:last-child": {"border_bottom": "none"}},
            ),
            rx.flex(
                rx.text(DashboardState.unlocked_summary, size="2", color_scheme="gray",
                        id="dashboard-unlocked-summary"),
                rx.cond(
                    DashboardState.unlocked_has_more,
                    rx.button(
                        rx.icon("chevrons_down", size=16),
                        "Load more",
                        on_click=DashboardState.load_more_unlocked,
                        loading=DashboardState.loading_more,
                        variant="soft",
                        size="2",
                        id="dashboard-load-more",
                    ),
                ),
                direction=rx.breakpoints(initial="column", sm="row"),
                justify="between",
                align=rx.breakpoints(initial="start", sm="center"),
                spacing="3",
                width="100%",
            ),
            spacing="3",
            width="100%",
        ),
        cards.empty_state(
            "lock-open",
            "You haven't unlocked any leads yet.",
            "Browse the marketplace and unlock a lead to see its full address, owner details and ROI analysis here.",
            ui.button_link("Browse Marketplace", routes.MARKETPLACE, icon="search", icon_first=True, icon_size=16,
                           id="dashboard-browse", size="3"),
            "dashboard-unlocked-empty",
        ),
    )
