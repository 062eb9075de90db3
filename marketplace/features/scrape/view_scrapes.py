"""Dashboard tab Bulk Scrapes: the user's stored scrapes with a CSV export each:
a table from ``sm``, one card per scrape on phones (every column, the export
included, without sideways scrolling)."""

from __future__ import annotations

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import cards, kit as ui
from marketplace.features.dashboard import DashboardState

COLUMNS = ("Date", "Requested", "Generated", "Credits used", "Status", "Export")


def export_button(row: dict, button_id) -> rx.Component:
    return rx.button(rx.icon("download", size=14), "CSV", size="1", variant="soft",
                     on_click=DashboardState.export_scrape(row["id"]), id=button_id,
                     aria_label="Download this scrape as CSV")


def scrape_row(row: dict) -> rx.Component:
    return rx.table.row(
        rx.table.cell(row["created_at"]),
        rx.table.cell(row["lead_count"]),
        rx.table.cell(row["leads_generated"]),
        rx.table.cell(row["credits_used"]),
        rx.table.cell(rx.badge(row["status"], variant="soft")),
        rx.table.cell(export_button(row, "scrape-csv-" + row["id"])),
        align="center",
    )


def scrape_item(row: dict) -> rx.Component:
    """One scrape as a card (phones): its numbers, status and export in view."""
    return rx.hstack(
        rx.vstack(
            rx.hstack(
                rx.text(row["created_at"], weight="bold", size="3", high_contrast=True),
                rx.badge(row["status"], variant="soft"),
                spacing="2",
                align="center",
                wrap="wrap",
            ),
            rx.text(row["leads_generated"], " of ", row["lead_count"], " leads generated · ",
                    row["credits_used"], " credits", size="2", color_scheme="gray"),
            spacing="1",
            min_width="0",
        ),
        rx.spacer(),
        export_button(row, "scrape-csv-card-" + row["id"]),
        align="center",
        width="100%",
        padding="0.9rem 1rem",
        border_bottom="1px solid var(--gray-a4)",
        class_name="dashboard-scrape-item",
    )


def scrapes_tab() -> rx.Component:
    return rx.cond(
        DashboardState.scrapes.length() > 0,
        rx.box(
            rx.box(
                rx.table.root(
                    rx.table.header(rx.table.row(*[rx.table.column_header_cell(h) for h in COLUMNS])),
                    rx.table.body(rx.foreach(DashboardState.scrapes, scrape_row)),
                    variant="surface",
                    size="2",
                    width="100%",
                ),
                overflow_x="auto",
                width="100%",
                id="dashboard-scrapes-table",
                class_name="lv-hide-below-sm",
            ),
            cards.row_list(rx.foreach(DashboardState.scrapes, scrape_item), id="dashboard-scrapes-list",
                           class_name="lv-hide-from-sm"),
            width="100%",
        ),
        cards.empty_state(
            "layers",
            "No bulk scrapes yet.",
            "Generate up to 1,000 leads at once, with volume discounts, and export them to CSV.",
            ui.button_link("Open Bulk Scraper", routes.BULK_SCRAPER, icon="zap", icon_first=True, icon_size=16,
                           id="dashboard-open-scraper", size="3", variant="soft"),
            "dashboard-scrapes-empty",
        ),
    )
