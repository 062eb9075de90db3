"""/explorerdev: developer explorer, super admins only (SPEC 2, 6)."""

from __future__ import annotations

import reflex as rx

from marketplace import routes
from marketplace.components import ui
from marketplace.components.layout import page
from marketplace.pages.dashboard import STAT_COLUMNS, stat_card
from marketplace.states.auth import AuthState
from marketplace.states.explorer import ExplorerState


def explorer_content() -> rx.Component:
    return rx.vstack(
        rx.flex(
            rx.vstack(
                rx.hstack(
                    rx.center(
                        rx.icon("terminal", size=20),
                        style={"width": "40px", "height": "40px", "border_radius": "10px",
                               "background": "var(--gray-12)", "color": "var(--gray-1)"},
                    ),
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
                rx.icon("refresh-cw", size=16),
                "Refresh",
                on_click=ExplorerState.refresh_overview,
                variant="soft",
                id="explorer-refresh",
            ),
            direction=rx.breakpoints(initial="column", md="row"),
            justify="between",
            align=rx.breakpoints(initial="start", md="center"),
            gap="4",
            width="100%",
        ),
        rx.heading("Platform overview", size="4"),
        rx.grid(
            stat_card("Users", ExplorerState.total_users, "users", "indigo", "explorer-users", "Registered accounts"),
            stat_card("Leads", ExplorerState.total_leads, "database", "iris", "explorer-leads", "All time, incl. archived"),
            stat_card("Active Leads", ExplorerState.active_leads, "activity", "grass", "explorer-active-leads",
                      "Shown in the marketplace"),
            stat_card("Unlocks", ExplorerState.total_unlocks, "lock-open", "amber", "explorer-unlocks",
                      "Leads unlocked by users"),
            columns=STAT_COLUMNS,
            spacing=rx.breakpoints(initial="3", sm="4"),
            width="100%",
            id="explorer-overview",
        ),
        spacing="5",
        width="100%",
    )


def checking_access() -> rx.Component:
    return rx.center(
        rx.vstack(
            rx.spinner(size="3"),
            rx.text("Checking access...", size="2", color_scheme="gray"),
            align="center",
            spacing="3",
        ),
        id="explorer-checking",
        min_height="50vh",
        width="100%",
    )


@page(route=routes.EXPLORER, title="Developer Explorer", on_load=[ExplorerState.load])
def explorer() -> rx.Component:
    granted = AuthState.is_authenticated & ExplorerState.access_granted & (ExplorerState.granted_for == AuthState.user_id)
    return rx.box(
        ui.container(
            rx.cond(granted, explorer_content(), checking_access()),
            padding_y=rx.breakpoints(initial="1.5rem", sm="2.5rem"),
        ),
        background="linear-gradient(180deg, var(--gray-3) 0%, var(--gray-1) 280px)",
        min_height="calc(100vh - 140px)",
    )
