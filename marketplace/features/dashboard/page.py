"""/dashboard: requires login (SPEC 2, 6, 9)."""

from __future__ import annotations

import reflex as rx

from marketplace.platform import texts as messages, routes
from marketplace.platform.ui import cards, styles, kit as ui
from marketplace.platform.ui.deferred import deferred
from marketplace.platform.ui.layout import page
from marketplace.platform.ui.state_auth import AuthState
from marketplace.features.dashboard.state import DashboardState
from marketplace.features.property import OwnerOutreachState
from marketplace.features.property import PipelineState
from marketplace.features.marketplace import SavedSearchesState
from marketplace.features.property import pipeline_tab
from marketplace.features.billing import referrals_tab
from marketplace.features.marketplace import saved_searches_tab
from marketplace.features.scrape import scrapes_tab
from marketplace.features.property import owner_outreach_section
from marketplace.features.unlock import unlocked_tab
from marketplace.features.accounts import settings_tab


# --------------------------------------------------------------------------- tabs (one view module each)



def tab_trigger(label: str, value: str, icon: str, short: str | None = None) -> rx.Component:
    """One tab; below 768px the icon goes and ``short`` stands in for ``label`` (the
    accessible name stays the full label, which contains the short one)."""
    if short is None:
        text = rx.text(label)
    else:
        text = rx.fragment(rx.text(label, class_name="lv-hide-below-sm"), rx.text(short, class_name="lv-hide-from-sm"))
    return rx.tabs.trigger(
        rx.hstack(ui.static_icon(icon, size=15, aria_hidden="true", class_name="lv-hide-below-sm"), text, spacing="2",
                  align="center"),
        value=value,
        id=f"dashboard-tab-{value}",
        aria_label=label,
        # The tabs follow the server's answer; a click on the tab the browser still shows as active (the
        # previous click's answer not back yet) changes no value, so it is sent as a click too: never dropped.
        on_click=DashboardState.set_tab(value),
    )


def dashboard_tabs() -> rx.Component:
    return rx.tabs.root(
        rx.tabs.list(
            tab_trigger("Unlocked Leads", "unlocked", "lock-open", short="Unlocked"),
            tab_trigger("Pipeline", routes.PIPELINE_TAB, "kanban"),
            tab_trigger("Bulk Scrapes", "scrapes", "layers", short="Scrapes"),
            tab_trigger("Referrals", "referrals", "gift"),
            tab_trigger("Saved Searches", routes.SAVED_SEARCHES_TAB, "bookmark", short="Saved"),
            tab_trigger("Settings", "settings", "settings"),
            size="2",
            # One row at every width: a list wider than the screen scrolls sideways.
            class_name="lv-tab-row",
            id="dashboard-tabs",
        ),
        rx.tabs.content(rx.box(unlocked_tab(), owner_outreach_section(), padding_top="1rem"), value="unlocked"),
        rx.tabs.content(rx.box(pipeline_tab(), padding_top="1rem"), value=routes.PIPELINE_TAB),
        rx.tabs.content(rx.box(scrapes_tab(), padding_top="1rem"), value="scrapes"),
        rx.tabs.content(rx.box(referrals_tab(), padding_top="1rem"), value="referrals"),
        rx.tabs.content(rx.box(saved_searches_tab(), padding_top="1rem"), value=routes.SAVED_SEARCHES_TAB),
        # The settings cards' headings are h3: the tab's own (screen-reader) h2 keeps the order.
        rx.tabs.content(rx.box(rx.heading("Settings", as_="h2", class_name="lv-sr-only"), settings_tab(),
                               padding_top="1rem"), value="settings"),
        value=DashboardState.tab,
        # A tab is an address (?tab=...): set_tab navigates, and the page load shows the tab and loads its rows.
        on_change=DashboardState.set_tab,
        width="100%",
    )


# --------------------------------------------------------------------------- page


def dashboard_subtitle() -> rx.Component:
    """The header's line under the greeting: static, so the loading skeleton shows it too (the page's
    prerendered HTML paints it before its scripts run: its largest text is there at the first paint)."""
    return rx.text("Here's what's happening with your leads and credits.", size="3", color_scheme="gray")


def dashboard_header() -> rx.Component:
    return rx.flex(
        rx.vstack(
            rx.heading(DashboardState.greeting, ", ", AuthState.display_name, "!",
                       size=rx.breakpoints(initial="6", sm="7"),
                       id="dashboard-greeting", class_name="lv-break"),
            dashboard_subtitle(),
            spacing="1",
            min_width="0",
        ),
        rx.hstack(
            rx.badge(rx.icon("coins", size=16), DashboardState.credits_label, size="3", variant="soft",
                     radius="full", id="dashboard-credits", style={"padding": "0.45rem 0.85rem"}),
            ui.button_link("Buy Credits", routes.PURCHASE_CREDITS, icon="wallet", icon_first=True, icon_size=16,
                           id="dashboard-buy-credits", size="3"),
            spacing="3",
            align="center",
        ),
        direction=rx.breakpoints(initial="column", md="row"),
        justify="between",
        align=rx.breakpoints(initial="start", md="center"),
        spacing="4",
        width="100%",
    )


def dashboard_content() -> rx.Component:
    return rx.vstack(
        dashboard_header(),
        rx.cond(
            ~AuthState.email_confirmed,
            rx.callout.root(
                rx.callout.icon(rx.icon("mail-warning")),
                rx.callout.text("Please confirm your e-mail address — we sent you a link."),
                color_scheme="amber",
                variant="surface",
                width="100%",
                id="dashboard-confirm-email",
            ),
        ),
        rx.cond(
            DashboardState.load_failed,
            rx.callout.root(
                rx.callout.icon(rx.icon("triangle-alert")),
                rx.callout.text(
                    "Failed to load dashboard data. ",
                    rx.link("Try again", href="#", on_click=DashboardState.load.prevent_default, weight="medium",
                            underline="always", id="dashboard-retry"),
                ),
                color_scheme="red",
                variant="surface",
                width="100%",
                id="dashboard-load-error",
            ),
            dashboard_data(),
        ),
        spacing="6",
        width="100%",
        id="dashboard-content",
    )


def dashboard_data() -> rx.Component:
    """The stat cards and tabs; not rendered after a failed load (no made-up zeros)."""
    return rx.vstack(
        cards.stat_grid(
            cards.stat_card("Leads Unlocked", DashboardState.leads_unlocked, "lock-open", "indigo", "stat-leads-unlocked",
                      "All time"),
            cards.stat_card("Credits Remaining", DashboardState.credits_stat, "coins", "amber", "stat-credits",
                      "Available to spend"),
            cards.stat_card("Avg ROI", DashboardState.avg_roi, "trending-up", "grass", "stat-avg-roi",
                      messages.AVG_ROI_HINT),
            cards.stat_card("This Month", DashboardState.this_month, "calendar-days", "iris", "stat-this-month",
                      "Leads unlocked"),
        ),
        # Below the stat cards (a phone's first screen): rendered in a task of its own (issue 41).
        deferred(dashboard_tabs()),
        spacing="6",
        width="100%",
    )


def dashboard_skeleton() -> rx.Component:
    def block(height: str, width: str = "100%") -> rx.Component:
        return rx.skeleton(rx.box(height=height, width=width), loading=True)

    return rx.vstack(
        rx.flex(
            rx.vstack(block("2.25rem", "20rem"), dashboard_subtitle(), spacing="1", min_width="0"),
            block("2.5rem", "14rem"),
            direction=rx.breakpoints(initial="column", md="row"),
            justify="between",
            spacing="4",
            width="100%",
        ),
        rx.grid(
            *[block("7rem") for _ in range(4)],
            columns=styles.STAT_COLUMNS,
            spacing="4",
            width="100%",
        ),
        block("2.5rem", "26rem"),
        block("14rem"),
        spacing="6",
        width="100%",
        id="dashboard-loading",
        aria_busy="true",
    )


@page(route=routes.DASHBOARD, title="Dashboard",
      on_load=[DashboardState.load, SavedSearchesState.on_page_load, PipelineState.on_page_load,
               OwnerOutreachState.ot_load])
def dashboard() -> rx.Component:
    ready = AuthState.is_authenticated & (DashboardState.loaded_for == AuthState.user_id)
    return cards.app_page(rx.cond(ready, dashboard_content(), dashboard_skeleton()))
