"""Dashboard tab Bulk Scrapes: the user's stored scrapes with a CSV export each."""

from __future__ import annotations

import reflex as rx

from marketplace import routes
from marketplace.components import cards, ui
from marketplace.states.dashboard import DashboardState


def scrape_row(row: dict) -> rx.Component:
    return rx.table.row(
        rx.table.cell(row["created_at"]),
        rx.table.cell(row["lead_count"]),
        rx.table.cell(row["leads_generated"]),
        rx.table.cell(row["credits_used"]),
        rx.table.cell(rx.badge(row["status"], variant="soft")),
        rx.table.cell(
            rx.button(rx.icon("download", size=14), "CSV", size="1", variant="soft",
                      on_click=DashboardState.export_scrape(row["id"]), id="scrape-csv-" + row["id"],
                      aria_label="Download this scrape as CSV"),
        ),
        align="center",
    )


def scrapes_tab() -> rx.Component:
    return rx.cond(
        DashboardState.scrapes.length() > 0,
        rx.box(
            rx.table.root(
                rx.table.header(
                    rx.table.row(
                        *[rx.table.column_header_cell(h) for h in ("Date", "Requested", "Generated", "Credits used", "Status", "Export")]
                    )
                ),
                rx.table.body(rx.foreach(DashboardState.scrapes, scrape_row)),
                variant="surface",
                size="2",
                width="100%",
                min_width="36rem",
            ),
            overflow_x="auto",
            id="dashboard-scrapes-table",
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
