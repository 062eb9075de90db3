"""Settings tab: deleting the account (and the whole tab's layout)."""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import cards, kit as ui
from marketplace.platform.ui.state_auth import AuthState
from marketplace.features.accounts.state_settings import SettingsState
from marketplace.features.billing import purchases_card
from marketplace.features.accounts.view_settings_account import LABEL_STYLE, email_card, password_card, profile_card
from marketplace.features.accounts.view_settings_sessions import sessions_card, webhook_card
from marketplace.features.property import deal_defaults_card
from marketplace.features.unlock import unlock_confirm_card

REMOVED = (
    "Your name, e-mail address and password",
    "Your credit balance and referral code (people you referred keep their accounts)",
    "Every signed-in device, your subscription and your webhook key",
    "Your sign-in history, webhook request log and any e-mails waiting to be sent to you",
    "The stored results and search settings of your bulk scrapes",
)
KEPT = (
    "Your credit purchases and the credit ledger (every credit added or spent)",
    "Which leads were unlocked and which bulk scrapes ran, with their credit costs",
)
KEPT_WHY = ("We must keep payment and credit records for accounting and tax purposes. They are kept without your "
            "name or e-mail address, attached to an anonymous account number, and cannot be used to sign in.")


def _point(text: str, icon: str, color: str) -> rx.Component:
    return rx.hstack(
        ui.static_icon(icon, size=15, color=f"var(--{color}-11)", flex_shrink="0", margin_top="3px", aria_hidden="true"),
        rx.text(text, size="2"),
        spacing="2",
        align="start",
    )


def _list(title: str, items: tuple[str, ...], icon: str, color: str, list_id: str) -> rx.Component:
    return rx.vstack(
        rx.text(title, size="2", weight="bold"),
        *[_point(item, icon, color) for item in items],
        spacing="2",
        width="100%",
        id=list_id,
    )


def delete_card() -> rx.Component:
    return cards.section_card(
        "trash-2", "Delete account",
        "Permanently delete your account. This cannot be undone.",
        rx.grid(
            _list("Removed", REMOVED, "x", "red", "settings-delete-removed"),
            rx.vstack(
                _list("Kept, anonymised", KEPT, "archive", "gray", "settings-delete-kept"),
                rx.text(KEPT_WHY, size="1", color_scheme="gray"),
                spacing="2",
                width="100%",
            ),
            columns=rx.breakpoints(initial="1", md="2"),
            spacing="4",
            width="100%",
        ),
        rx.callout.root(
            rx.callout.icon(rx.icon("coins")),
            rx.callout.text(
                "Your remaining ", rx.text.strong(SettingsState.credits_forfeit, " credits", id="settings-delete-credits"),
                " are forfeited: they are not refunded and cannot be moved to another account. "
                "You can sign up again later with the same e-mail address, as a new account.",
            ),
            color_scheme="amber",
            variant="surface",
            width="100%",
        ),
        rx.form(
            rx.vstack(
                rx.el.label("Type your e-mail address ", rx.el.strong(AuthState.user_email),
                            " to confirm", html_for="settings-delete-confirm", style=LABEL_STYLE),
                rx.flex(
                    rx.input(
                        id="settings-delete-confirm",
                        name="confirm_email",
                        value=SettingsState.delete_confirm,
                        on_change=SettingsState.set_delete_confirm,
                        placeholder="Your e-mail address",
                        auto_complete="off",
                        spell_check=False,
                        size="3",
                        width="100%",
                        flex="1",
                        type="email",
                    ),
                    rx.button(
                        rx.cond(SettingsState.deleting, rx.spinner(size="2"), rx.icon("trash-2", size=16)),
                        rx.cond(SettingsState.deleting, "Deleting...", "Delete my account"),
                        type="submit",
                        color_scheme="red",
                        size="3",
                        disabled=~SettingsState.delete_ready | SettingsState.deleting,
                        id="settings-delete-submit",
                        flex_shrink="0",
                    ),
                    direction=rx.breakpoints(initial="column", sm="row"),
                    spacing="3",
                    width="100%",
                ),
                spacing="2",
                width="100%",
            ),
            on_submit=SettingsState.delete_account,
            reset_on_submit=False,
            width="100%",
        ),
        color="red",
        card_id="settings-delete",
        style={"border": "1px solid var(--red-a6)"},
    )


def settings_skeleton() -> rx.Component:
    return rx.vstack(
        *[rx.skeleton(rx.box(height=h, width="100%"), loading=True) for h in ("10rem", "8rem", "12rem")],
        spacing="4",
        width="100%",
        id="settings-loading",
    )


def settings_tab() -> rx.Component:
    """The whole tab. Its data loads when it is shown (the content mounts when
    the tab opens), so the other tabs never wait for it."""
    ready = SettingsState.loaded_for == AuthState.user_id
    return rx.box(
        rx.cond(
            ready,
            rx.grid(
                rx.vstack(profile_card(), email_card(), webhook_card(), spacing="4", width="100%"),
                rx.vstack(password_card(), sessions_card(), unlock_confirm_card(), spacing="4", width="100%"),
                rx.box(deal_defaults_card(), grid_column=rx.breakpoints(initial="auto", lg="1 / -1"), width="100%",
                       min_width="0"),
                rx.box(purchases_card(), grid_column=rx.breakpoints(initial="auto", lg="1 / -1"), width="100%",
                       min_width="0"),
                rx.box(delete_card(), grid_column=rx.breakpoints(initial="auto", lg="1 / -1"), width="100%"),
                columns=rx.breakpoints(initial="1", lg="2"),
                spacing="4",
                width="100%",
                align_items="start",
                id="dashboard-settings",
            ),
            rx.cond(
                SettingsState.load_failed,
                rx.callout.root(
                    rx.callout.icon(rx.icon("triangle-alert")),
                    rx.callout.text("Failed to load your settings. ",
                                    rx.link("Try again", href="#", on_click=SettingsState.load.prevent_default,
                                            id="settings-retry")),
                    color_scheme="red",
                    variant="surface",
                    width="100%",
                ),
                settings_skeleton(),
            ),
        ),
        on_mount=SettingsState.load,
        width="100%",
    )
