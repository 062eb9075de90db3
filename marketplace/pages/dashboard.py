"""/dashboard: requires login (SPEC 2, 6, 9)."""

from __future__ import annotations

import reflex as rx

from marketplace import routes
from marketplace.components import ui
from marketplace.components.layout import page
from marketplace.states.auth import AuthState
from marketplace.states.dashboard import DashboardState
from marketplace.views.settings_delete import settings_tab

CARD_SHADOW = {"box_shadow": "0 1px 2px rgba(16, 24, 40, 0.04), 0 8px 24px -12px rgba(30, 41, 99, 0.12)"}
ICON_TILE = {"width": "40px", "height": "40px", "border_radius": "10px", "flex_shrink": "0"}


def link_button(label: str, href: str, icon: str | None = None, button_id: str | None = None, **props) -> rx.Component:
    """A real link (href, middle-click) that looks like a button."""
    children = [rx.icon(icon, size=16)] if icon else []
    return rx.button(
        rx.link(*children, label, href=href, underline="none", id=button_id),
        as_child=True,
        **props,
    )


STAT_COLUMNS = rx.breakpoints(initial="2", lg="4")


def stat_card(label: str, value, icon: str, color: str, stat_id: str, hint: str) -> rx.Component:
    return rx.card(
        rx.hstack(
            rx.vstack(
                rx.text(label, size="2", color_scheme="gray", weight="medium"),
                rx.text(value, size=rx.breakpoints(initial="6", sm="7"), weight="bold", id=stat_id,
                        style={"letter_spacing": "-0.02em"}),
                rx.text(hint, size="1", color_scheme="gray"),
                spacing="1",
                min_width="0",
            ),
            rx.spacer(),
            rx.center(
                rx.icon(icon, size=20),
                style={**ICON_TILE, "background": f"var(--{color}-3)", "color": f"var(--{color}-11)"},
                display=rx.breakpoints(initial="none", sm="flex"),
            ),
            align="start",
            width="100%",
        ),
        size=rx.breakpoints(initial="2", sm="3"),
        style=CARD_SHADOW,
    )


def empty_state(icon: str, title: str, body: str, action: rx.Component | None, state_id: str) -> rx.Component:
    return rx.center(
        rx.vstack(
            rx.center(
                rx.icon(icon, size=24),
                style={**ICON_TILE, "width": "52px", "height": "52px", "background": "var(--gray-3)",
                       "color": "var(--gray-11)", "border_radius": "14px"},
            ),
            rx.text(title, size="4", weight="bold", align="center"),
            rx.text(body, size="2", color_scheme="gray", align="center", max_width="26rem"),
            action if action is not None else rx.fragment(),
            align="center",
            spacing="3",
        ),
        id=state_id,
        padding_y="3rem",
        padding_x="1rem",
        width="100%",
        border="1px dashed var(--gray-6)",
        border_radius="var(--radius-5)",
        background="var(--color-panel-translucent)",
    )


# --------------------------------------------------------------------------- tabs


def roi_text(row: dict) -> rx.Component:
    return rx.text(row["roi"], weight="medium",
                   color=rx.cond(row["has_roi"] != "", rx.color("grass", 11), rx.color("gray", 10)))


def archived_badge(row: dict) -> rx.Component:
    return rx.cond(row["archived"] != "", rx.badge("Archived", variant="surface", color_scheme="gray", size="1"))


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
                spacing="0",
            )
        ),
        rx.table.cell(rx.badge(row["lead_type"], variant="soft", color_scheme="gray")),
        rx.table.cell(roi_text(row)),
        rx.table.cell(row["credit_cost"]),
        rx.table.cell(row["unlocked_at"]),
        rx.table.cell(link_button("View Details", row["href"], variant="soft", size="1")),
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
                rx.hstack(
                    rx.badge(row["lead_type"], variant="soft", color_scheme="gray"),
                    rx.badge(row["roi"], " ROI", variant="soft",
                             color_scheme=rx.cond(row["has_roi"] != "", "grass", "gray")),
                    spacing="2",
                    wrap="wrap",
                ),
                rx.text("Unlocked ", row["unlocked_at"], " · ", row["credit_cost"], " credits", size="1",
                        color_scheme="gray"),
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
                              for h in ("Property", "Type", "ROI", "Credits", "Unlocked", "")]
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
        empty_state(
            "lock-open",
            "You haven't unlocked any leads yet.",
            "Browse the marketplace and unlock a lead to see its full address, owner details and ROI analysis here.",
            link_button("Browse Marketplace", routes.MARKETPLACE, icon="search", button_id="dashboard-browse", size="3"),
            "dashboard-unlocked-empty",
        ),
    )


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
        empty_state(
            "layers",
            "No bulk scrapes yet.",
            "Generate up to 1,000 leads at once, with volume discounts, and export them to CSV.",
            link_button("Open Bulk Scraper", routes.BULK_SCRAPER, icon="zap", button_id="dashboard-open-scraper",
                        size="3", variant="soft"),
            "dashboard-scrapes-empty",
        ),
    )


def referral_stat(label: str, value, icon: str, color: str, stat_id: str, hint: str) -> rx.Component:
    """A compact number tile; on phones three fit in a row (no icon, no hint)."""
    return rx.hstack(
        rx.center(
            rx.icon(icon, size=18, aria_hidden="true"),
            style={**ICON_TILE, "background": f"var(--{color}-3)", "color": f"var(--{color}-11)"},
            display=rx.breakpoints(initial="none", sm="flex"),
        ),
        rx.vstack(
            rx.text(label, size=rx.breakpoints(initial="1", sm="2"), color_scheme="gray", weight="medium"),
            rx.text(value, size=rx.breakpoints(initial="5", sm="6"), weight="bold", id=stat_id,
                    style={"letter_spacing": "-0.02em"}, line_height="1.1"),
            rx.text(hint, size="1", color_scheme="gray", display=rx.breakpoints(initial="none", sm="block")),
            spacing="1",
            min_width="0",
        ),
        spacing="3",
        align="start",
        padding=rx.breakpoints(initial="0.75rem", sm="1.1rem 1.25rem"),
        border="1px solid var(--gray-a5)",
        border_radius="var(--radius-4)",
        background="var(--color-panel-solid)",
        width="100%",
        height="100%",
        style=CARD_SHADOW,
    )


def explainer_point(icon: str, title: str, body: str) -> rx.Component:
    return rx.hstack(
        rx.center(
            rx.icon(icon, size=16, aria_hidden="true"),
            style={**ICON_TILE, "width": "32px", "height": "32px", "border_radius": "9999px",
                   "background": "var(--grass-3)", "color": "var(--grass-11)"},
        ),
        rx.vstack(
            rx.text(title, size="2", weight="bold"),
            rx.text(body, size="2", color_scheme="gray"),
            spacing="0",
            min_width="0",
        ),
        spacing="3",
        align="start",
    )


def edit_code_dialog() -> rx.Component:
    """'Edit code': a custom code (SPEC 4, 5, 8); closes on success, stays open with a toast on failure."""
    return rx.dialog.root(
        rx.dialog.trigger(
            rx.button(rx.icon("pencil", size=15), "Edit code", variant="soft", size="2", id="referral-edit",
                      flex_shrink="0"),
        ),
        rx.dialog.content(
            rx.dialog.title("Edit referral code", margin="0"),
            rx.dialog.description(
                "Pick a code that is easy to share. Links with your old code stop working; people you already "
                "referred stay yours.",
                size="2", color_scheme="gray", margin_top="0.35rem",
            ),
            rx.form(
                rx.vstack(
                    rx.vstack(
                        rx.el.label("New code", html_for="referral-edit-input",
                                    style={"font_size": "var(--font-size-2)", "font_weight": "500"}),
                        rx.input(
                            rx.input.slot(rx.icon("ticket", size=16, aria_hidden="true")),
                            id="referral-edit-input",
                            name="code",
                            value=DashboardState.code_input,
                            on_change=DashboardState.set_code_input,
                            max_length=15,
                            placeholder="e.g. JANESMITH",
                            auto_complete="off",
                            spell_check=False,
                            auto_focus=True,
                            size="3",
                            width="100%",
                            aria_describedby="referral-edit-help",
                            text_transform="uppercase",
                            disabled=DashboardState.code_saving,
                        ),
                        rx.text("1-15 letters or digits. Codes are not case-sensitive.", size="1",
                                color_scheme="gray", id="referral-edit-help"),
                        spacing="1",
                        width="100%",
                    ),
                    rx.flex(
                        rx.dialog.close(
                            rx.button("Cancel", type="button", variant="soft", color_scheme="gray", size="3",
                                      disabled=DashboardState.code_saving, id="referral-edit-cancel"),
                        ),
                        rx.button(
                            rx.cond(DashboardState.code_saving, rx.spinner(size="2"), rx.icon("check", size=16)),
                            rx.cond(DashboardState.code_saving, "Updating...", "Save"),
                            type="submit",
                            size="3",
                            disabled=DashboardState.code_save_disabled,
                            id="referral-edit-save",
                        ),
                        spacing="3",
                        justify="end",
                        width="100%",
                    ),
                    spacing="5",
                    width="100%",
                ),
                on_submit=DashboardState.save_code,
                reset_on_submit=False,
                width="100%",
                margin_top="1.25rem",
            ),
            max_width="28rem",
            id="referral-edit-dialog",
        ),
        open=DashboardState.code_dialog_open,
        on_open_change=DashboardState.set_code_dialog_open,
    )


def referral_share_card() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.center(rx.icon("gift", size=20, aria_hidden="true"),
                          style={**ICON_TILE, "background": "var(--grass-3)", "color": "var(--grass-11)"}),
                rx.vstack(
                    rx.text("Your referral code", weight="bold", size="3"),
                    rx.text("Invite other investors and earn credits when they buy.", size="2",
                            color_scheme="gray"),
                    spacing="0",
                    min_width="0",
                ),
                spacing="3",
                align="center",
            ),
            rx.flex(
                # The outer id is the older name of the same element (kept for existing tests and links).
                rx.box(
                    rx.code(DashboardState.my_referral_code, size=rx.breakpoints(initial="6", sm="7"),
                            variant="ghost", weight="bold", id="referral-code",
                            style={"letter_spacing": "0.06em", "word_break": "break-all"}),
                    id="dashboard-referral-code",
                    min_width="0",
                ),
                edit_code_dialog(),
                align="center",
                justify="between",
                spacing="3",
                padding=rx.breakpoints(initial="0.75rem 0.9rem", sm="0.9rem 1.1rem"),
                border_radius="var(--radius-3)",
                background="var(--gray-2)",
                border="1px dashed var(--gray-7)",
                width="100%",
            ),
            rx.vstack(
                rx.text("Share link", size="2", weight="medium", color_scheme="gray"),
                rx.flex(
                    rx.hstack(
                        rx.icon("link", size=15, color="var(--gray-10)", flex_shrink="0", aria_hidden="true"),
                        rx.text(DashboardState.referral_link, size="2", id="referral-link",
                                style={"word_break": "break-all"}),
                        align="center",
                        spacing="2",
                        flex="1",
                        min_width="0",
                        padding="0.55rem 0.75rem",
                        border="1px solid var(--gray-a6)",
                        border_radius="var(--radius-3)",
                        background="var(--color-surface)",
                        min_height="40px",
                    ),
                    rx.button(
                        rx.icon("copy", size=15),
                        "Copy",
                        on_click=[rx.set_clipboard(DashboardState.referral_link), rx.toast.success("Copied")],
                        size="3",
                        id="referral-copy",
                        aria_label="Copy referral link",
                        flex_shrink="0",
                    ),
                    spacing="2",
                    align="stretch",
                    width="100%",
                ),
                spacing="1",
                width="100%",
            ),
            spacing="4",
            width="100%",
        ),
        size="3",
        style=CARD_SHADOW,
        height="100%",
    )


def referral_explainer_card() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text("How it works", weight="bold", size="3"),
            explainer_point("share-2", "Share your link or code",
                            "Friends sign up through your link, or enter your code on the Pricing page."),
            explainer_point("user-plus", "They get 50% bonus credits",
                            "on their first credit purchase."),
            explainer_point("coins", "You earn 2 credits for every $1 they spend",
                            "on every purchase they make, added to your balance automatically."),
            spacing="4",
            width="100%",
            id="referral-explainer",
        ),
        size="3",
        style=CARD_SHADOW,
        height="100%",
    )


def referrals_tab() -> rx.Component:
    return rx.vstack(
        rx.grid(
            referral_stat("People referred", DashboardState.referred_users, "users", "indigo", "referral-people",
                          "Signed up with your code"),
            referral_stat("Purchases by referrals", DashboardState.referral_purchases, "shopping-cart", "iris",
                          "referral-purchases", "Credit packs they bought"),
            referral_stat("Credits earned", DashboardState.referral_earned, "coins", "grass", "referral-earned",
                          "Added to your balance"),
            columns="3",
            spacing=rx.breakpoints(initial="2", sm="4"),
            width="100%",
        ),
        rx.grid(
            referral_share_card(),
            referral_explainer_card(),
            columns=rx.breakpoints(initial="1", md="2"),
            spacing="4",
            width="100%",
        ),
        spacing="4",
        width="100%",
        id="dashboard-referrals",
    )


def tab_trigger(label: str, value: str, icon: str) -> rx.Component:
    return rx.tabs.trigger(
        rx.hstack(rx.icon(icon, size=15), rx.text(label), spacing="2", align="center"),
        value=value,
        id=f"dashboard-tab-{value}",
    )


def dashboard_tabs() -> rx.Component:
    return rx.tabs.root(
        rx.tabs.list(
            tab_trigger("Unlocked Leads", "unlocked", "lock-open"),
            tab_trigger("Bulk Scrapes", "scrapes", "layers"),
            tab_trigger("Referrals", "referrals", "gift"),
            tab_trigger("Settings", "settings", "settings"),
            size="2",
            style={"flex_wrap": "wrap"},
        ),
        rx.tabs.content(rx.box(unlocked_tab(), padding_top="1rem"), value="unlocked"),
        rx.tabs.content(rx.box(scrapes_tab(), padding_top="1rem"), value="scrapes"),
        rx.tabs.content(rx.box(referrals_tab(), padding_top="1rem"), value="referrals"),
        rx.tabs.content(rx.box(settings_tab(), padding_top="1rem"), value="settings"),
        value=DashboardState.tab,
        on_change=DashboardState.set_tab,
        width="100%",
    )


# --------------------------------------------------------------------------- page


def dashboard_header() -> rx.Component:
    return rx.flex(
        rx.vstack(
            rx.heading("Welcome back, ", AuthState.display_name, "!", size=rx.breakpoints(initial="6", sm="7"),
                       id="dashboard-greeting"),
            rx.text("Here's what's happening with your leads and credits.", size="3", color_scheme="gray"),
            spacing="1",
        ),
        rx.hstack(
            rx.badge(rx.icon("coins", size=16), DashboardState.credits_label, size="3", variant="soft",
                     radius="full", id="dashboard-credits", style={"padding": "0.45rem 0.85rem"}),
            link_button("Buy Credits", routes.PURCHASE_CREDITS, icon="wallet", button_id="dashboard-buy-credits",
                        size="3"),
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
                            id="dashboard-retry"),
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
        rx.grid(
            stat_card("Leads Unlocked", DashboardState.leads_unlocked, "lock-open", "indigo", "stat-leads-unlocked",
                      "All time"),
            stat_card("Credits Remaining", DashboardState.credits_remaining, "coins", "amber", "stat-credits",
                      "Available to spend"),
            stat_card("Avg ROI", DashboardState.avg_roi, "trending-up", "grass", "stat-avg-roi",
                      "Across unlocked leads"),
            stat_card("This Month", DashboardState.this_month, "calendar-days", "iris", "stat-this-month",
                      "Leads unlocked"),
            columns=STAT_COLUMNS,
            spacing=rx.breakpoints(initial="3", sm="4"),
            width="100%",
        ),
        dashboard_tabs(),
        spacing="6",
        width="100%",
    )


def dashboard_skeleton() -> rx.Component:
    def block(height: str, width: str = "100%") -> rx.Component:
        return rx.skeleton(rx.box(height=height, width=width), loading=True)

    return rx.vstack(
        rx.flex(
            rx.vstack(block("2.25rem", "20rem"), block("1.25rem", "16rem"), spacing="2"),
            block("2.5rem", "14rem"),
            direction=rx.breakpoints(initial="column", md="row"),
            justify="between",
            spacing="4",
            width="100%",
        ),
        rx.grid(
            *[block("7rem") for _ in range(4)],
            columns=STAT_COLUMNS,
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


@page(route=routes.DASHBOARD, title="Dashboard", on_load=[DashboardState.load])
def dashboard() -> rx.Component:
    ready = AuthState.is_authenticated & (DashboardState.loaded_for == AuthState.user_id)
    return rx.box(
        ui.container(
            rx.cond(ready, dashboard_content(), dashboard_skeleton()),
            padding_y=rx.breakpoints(initial="1.5rem", sm="2.5rem"),
        ),
        background="linear-gradient(180deg, var(--accent-2) 0%, var(--gray-1) 320px)",
        min_height="calc(100vh - 140px)",
    )
