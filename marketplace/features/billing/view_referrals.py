"""Dashboard tab Referrals: counts, the code with its edit dialog and share link,
and how the program works (SPEC 1, 4, 5, 8, 9)."""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import cards, styles, kit as ui
from marketplace.platform.texts import CODE_UPDATING, COPIED
from marketplace.platform.ui.state_auth import success_toast
from marketplace.features.dashboard import DashboardState


def referral_stat(label: str, value, icon: str, color: str, stat_id: str, hint: str) -> rx.Component:
    """A compact number tile; on phones three fit in a row (no icon, no hint)."""
    return rx.hstack(
        ui.icon_tile(icon, color, "40px", icon_size=18, display=rx.breakpoints(initial="none", sm="flex")),
        rx.vstack(
            rx.text(label, size=rx.breakpoints(initial="1", sm="2"), color_scheme="gray", weight="medium"),
            rx.text(value, size=rx.breakpoints(initial="5", sm="6"), weight="bold", id=stat_id,
                    style=styles.NUMBER_STYLE, line_height="1.1"),
            rx.text(hint, size="1", color_scheme="gray", display=rx.breakpoints(initial="none", sm="block")),
            spacing="1",
            min_width="0",
        ),
        spacing="3",
        align="start",
        padding=rx.breakpoints(initial="0.75rem", sm="1.1rem 1.25rem"),
        border=styles.PANEL_BORDER,
        border_radius=styles.RADIUS_PANEL,
        background="var(--color-panel-solid)",
        width="100%",
        height="100%",
        style=styles.CARD_SHADOW,
    )


def explainer_point(icon: str, title: str, body: str) -> rx.Component:
    return rx.hstack(
        ui.icon_tile(icon, "grass", "32px", icon_size=16, border_radius="9999px"),
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
                            rx.cond(DashboardState.code_saving, CODE_UPDATING, "Save"),
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
    return cards.card(
        rx.vstack(
            rx.hstack(
                ui.icon_tile("gift", "grass", "40px", icon_size=20),
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
                        # Wraps at the '/' before the code, never inside the code or a word
                        # (only a host too long for a whole line breaks where it must).
                        rx.text(DashboardState.referral_base, rx.el.wbr(), DashboardState.my_referral_code,
                                size="2", id="referral-link", title=DashboardState.referral_link,
                                class_name="lv-share-link", min_width="0"),
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
                        on_click=[rx.set_clipboard(DashboardState.referral_link), *success_toast(COPIED)],
                        size="3",
                        id="referral-copy",
                        aria_label="Copy referral link",
                        flex_shrink="0",
                    ),
                    # Phones: the link gets the whole width, Copy goes under it.
                    direction=rx.breakpoints(initial="column", xs="row"),
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
        height="100%",
    )


def referral_explainer_card() -> rx.Component:
    return cards.card(
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
