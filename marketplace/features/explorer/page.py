"""/explorerdev: developer explorer, super admins only (SPEC 2, 6)."""

from __future__ import annotations

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import cards, status, styles, kit as ui
from marketplace.platform.ui.layout import page
from marketplace.platform.ui.state_auth import AuthState
from marketplace.features.explorer.state import ExplorerState
from marketplace.features.explorer.view_scrape import manual_scrape
from marketplace.features.explorer.view_sources import explorer_sources
from marketplace.features.explorer.view_webhook import explorer_webhook
from marketplace.features.explorer.view_leads import explorer_leads


def explorer_content() -> rx.Component:
    return rx.vstack(
        rx.flex(
            rx.vstack(
                rx.hstack(
                    ui.icon_tile("terminal", "gray", "40px", icon_size=20, background="var(--gray-12)",
                                 foreground="var(--gray-1)"),
                    rx.heading("Developer Explorer", size=rx.breakpoints(initial="6", sm="7"), id="explorer-heading"),
                    rx.badge(rx.icon("shield-check", size=14), "Super admin", color_scheme="grass", size="2",
                             radius="full"),
                    spacing="3",
                    align="center",
                    wrap="wrap",
                ),
                rx.text(
                    "Inspect the lead database, run manual scrapes and check webhook traffic. "
                    "Only super admins can open this page.",
                    size="3",
                    color_scheme="gray",
                ),
                spacing="2",
            ),
            rx.button(
                rx.icon("rotate-cw", size=16),
                "Reload data",
                on_click=ExplorerState.refresh_overview,
                variant="soft",
                title="Read the overview, the leads table and the webhook log again",
                id="explorer-refresh",
            ),
            direction=rx.breakpoints(initial="column", md="row"),
            justify="between",
            align=rx.breakpoints(initial="start", md="center"),
            spacing="4",
            width="100%",
        ),
        rx.heading("Platform overview", size="4"),
        cards.stat_grid(
            cards.stat_card("Users", ExplorerState.total_users, "users", "indigo", "explorer-users", "Registered accounts"),
            cards.stat_card("Leads", ExplorerState.total_leads, "database", "iris", "explorer-leads", "Marketplace, incl. archived"),
            cards.stat_card("Active Leads", ExplorerState.active_leads, "activity", "grass", "explorer-active-leads",
                      "Shown in the marketplace"),
            cards.stat_card("Unlocks", ExplorerState.total_unlocks, "lock-open", "amber", "explorer-unlocks",
                      "Leads unlocked by users"),
            id="explorer-overview",
        ),
        explorer_leads(),
        lead_operations(),
        explorer_sources(),
        manual_scrape(),
        explorer_webhook(),
        spacing="5",
        width="100%",
    )


def _op_button(label: str, busy_label: str, icon: str, op: str, handler, element_id: str) -> rx.Component:
    busy = ExplorerState.operation_running == op
    return rx.button(
        rx.cond(busy, rx.spinner(size="2"), ui.static_icon(icon, size=16)),
        rx.cond(busy, busy_label, label),
        on_click=handler,
        disabled=ExplorerState.operation_running != "",
        id=element_id,
    )


def _run_row(run: rx.Var) -> rx.Component:
    color = rx.match(run["status"], ("completed", "grass"), ("failed", "red"), "amber")
    return rx.table.row(
        rx.table.cell(rx.text(run["started"], size="2")),
        rx.table.cell(rx.badge(run["trigger"], variant="soft", color_scheme="gray")),
        rx.table.cell(rx.badge(run["status"], color_scheme=color), title=run["error"]),
        rx.table.cell(rx.text(run["added"], size="2"), justify="end"),
        rx.table.cell(rx.text(run["archived"], size="2"), justify="end"),
    )


def lead_operations() -> rx.Component:
    """Manual lead refresh (fetch-leads), image fetching, and the latest refresh runs."""
    return rx.card(
        rx.vstack(
            rx.flex(
                rx.vstack(
                    rx.heading("Lead operations", size="4"),
                    rx.text("Leads refresh daily at 8:00 AM Pacific. Run a refresh now, or look for pictures of "
                            "leads whose images are pending or failed.", size="2", color_scheme="gray"),
                    rx.hstack(
                        rx.icon("calendar-clock", size=14, color="var(--gray-11)"),
                        rx.text("Next scheduled refresh:", size="2", weight="medium"),
                        rx.text(ExplorerState.next_run, size="2", id="explorer-next-run"),
                        rx.cond(ExplorerState.next_run_in != "",
                                rx.badge(ExplorerState.next_run_in, variant="soft", color_scheme="indigo",
                                         id="explorer-next-run-in")),
                        spacing="2",
                        align="center",
                        wrap="wrap",
                    ),
                    spacing="1",
                ),
                rx.hstack(
                    _op_button("Refresh Leads Now", "Refreshing...", "database-zap", "refresh",
                               ExplorerState.run_lead_refresh, "explorer-run-refresh"),
                    _op_button("Fetch Property Images", "Fetching...", "image", "images",
                               ExplorerState.fetch_images, "explorer-fetch-images"),
                    spacing="3",
                    wrap="wrap",
                    flex_shrink="0",
                ),
                direction=rx.breakpoints(initial="column", md="row"),
                justify="between",
                align=rx.breakpoints(initial="start", md="center"),
                spacing="4",
                width="100%",
            ),
            rx.cond(
                ExplorerState.refresh_runs.length() > 0,
                rx.box(
                    rx.table.root(
                        rx.table.header(
                            rx.table.row(
                                rx.table.column_header_cell("Started"),
                                rx.table.column_header_cell("Trigger"),
                                rx.table.column_header_cell("Status"),
                                rx.table.column_header_cell("Added", justify="end"),
                                rx.table.column_header_cell("Archived", justify="end"),
                            )
                        ),
                        rx.table.body(rx.foreach(ExplorerState.refresh_runs, _run_row)),
                        size="1",
                        width="100%",
                        id="explorer-refresh-runs",
                    ),
                    overflow_x="auto",
                    width="100%",
                ),
                rx.text("No refresh has run yet.", size="2", color_scheme="gray", id="explorer-no-runs"),
            ),
            spacing="4",
            width="100%",
        ),
        width="100%",
        id="explorer-lead-ops",
    )


@page(route=routes.EXPLORER, title="Developer Explorer", on_load=[ExplorerState.load])
def explorer() -> rx.Component:
    granted = AuthState.is_authenticated & ExplorerState.access_granted & (ExplorerState.granted_for == AuthState.user_id)
    return cards.app_page(
        rx.cond(granted, explorer_content(), status.loading_view("Checking access...", "explorer-checking", "2")),
        background=styles.APP_PAGE_BACKGROUND_GRAY,
    )
