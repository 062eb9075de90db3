"""Settings tab: signed-in devices (sessions) and the webhook key's state."""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import cards, kit as ui
from marketplace.features.accounts.state_settings import WEBHOOK_HREF
from marketplace.features.accounts.state_settings import SettingsState


def session_item(row: dict) -> rx.Component:
    current = row["current"] != ""
    return rx.flex(
        rx.hstack(
            rx.center(
                rx.icon("monitor-smartphone", size=18, aria_hidden="true"),
                width="36px", height="36px", border_radius="9999px", flex_shrink="0",
                background=rx.cond(current, "var(--grass-3)", "var(--gray-3)"),
                color=rx.cond(current, "var(--grass-11)", "var(--gray-11)"),
            ),
            rx.vstack(
                rx.hstack(
                    rx.text(row["device"], weight="bold", size="2", class_name="settings-session-device"),
                    rx.cond(current, rx.badge("This device", color_scheme="grass", size="1",
                                              class_name="settings-this-device")),
                    spacing="2",
                    align="center",
                    wrap="wrap",
                ),
                rx.text("IP address ", row["ip"], size="1", color_scheme="gray", class_name="settings-session-ip"),
                rx.text("Signed in ", row["created"], size="1", color_scheme="gray"),
                rx.text("Last active ", row["last_used"], size="1", color_scheme="gray"),
                spacing="1",
                min_width="0",
            ),
            spacing="3",
            align="start",
            min_width="0",
        ),
        rx.button(
            rx.icon("log-out", size=14),
            "Sign out",
            on_click=SettingsState.revoke_session(row["id"]),
            disabled=SettingsState.sessions_busy,
            variant="soft",
            color_scheme="gray",
            size="2",
            flex_shrink="0",
            id="session-signout-" + row["id"],
            class_name="settings-session-signout",
            aria_label=rx.cond(current, "Sign out this device", "Sign out " + row["device"]),
        ),
        direction=rx.breakpoints(initial="column", sm="row"),
        justify="between",
        align=rx.breakpoints(initial="stretch", sm="center"),
        spacing="3",
        padding="0.85rem 1rem",
        border_bottom="1px solid var(--gray-a4)",
        class_name="settings-session",
        data_session_id=row["id"],
    )


def sign_out_everywhere_dialog() -> rx.Component:
    return rx.alert_dialog.root(
        rx.alert_dialog.trigger(
            rx.button(rx.icon("log-out", size=16), "Sign out everywhere", color_scheme="red", variant="soft",
                      size="3", disabled=SettingsState.sessions_busy, id="settings-signout-everywhere"),
        ),
        rx.alert_dialog.content(
            rx.alert_dialog.title("Sign out everywhere?"),
            rx.alert_dialog.description(
                "Every device signed in to your account is signed out, this one included. "
                "You will need your password to sign in again.",
                size="2",
            ),
            rx.flex(
                rx.alert_dialog.cancel(rx.button("Cancel", variant="soft", color_scheme="gray",
                                                 id="settings-signout-everywhere-cancel")),
                rx.alert_dialog.action(rx.button("Sign out everywhere", color_scheme="red",
                                                 on_click=SettingsState.sign_out_everywhere,
                                                 id="settings-signout-everywhere-confirm")),
                spacing="3",
                justify="end",
                margin_top="1rem",
            ),
            max_width="28rem",
        ),
    )


def sessions_card() -> rx.Component:
    return cards.section_card(
        "monitor-smartphone", "Signed-in devices",
        "Browsers where your account is signed in. Sign out any you do not recognise.",
        rx.box(
            rx.foreach(SettingsState.sessions, session_item),
            width="100%",
            border="1px solid var(--gray-a5)",
            border_radius="var(--radius-4)",
            background="var(--color-panel-solid)",
            overflow="hidden",
            style={"& > div:last-child": {"border_bottom": "none"}},
            id="settings-sessions",
        ),
        rx.cond(
            SettingsState.sessions_hidden > 0,
            rx.button(rx.icon("chevron-down", size=14), SettingsState.sessions_hidden, " more", variant="ghost", size="2",
                      on_click=SettingsState.toggle_sessions, disabled=SettingsState.sessions_busy, id="settings-sessions-more",
                      aria_label=SettingsState.sessions_hidden.to(str) + " more signed-in devices: show them"),
            rx.cond(SettingsState.sessions_expanded & (SettingsState.sessions_total > 1),
                    rx.button(rx.icon("chevron-up", size=14), "Show fewer", variant="ghost", size="2",
                              on_click=SettingsState.toggle_sessions, disabled=SettingsState.sessions_busy,
                              id="settings-sessions-fewer")),
        ),
        rx.flex(
            rx.text(SettingsState.sessions_total, " active session", rx.cond(SettingsState.sessions_total == 1, "", "s"),
                    size="2", color_scheme="gray", id="settings-sessions-count"),
            sign_out_everywhere_dialog(),
            direction=rx.breakpoints(initial="column", sm="row"),
            justify="between",
            align=rx.breakpoints(initial="stretch", sm="center"),
            spacing="3",
            width="100%",
        ),
        color="grass",
        card_id="settings-sessions-card",
    )


def webhook_card() -> rx.Component:
    return cards.section_card(
        "webhook", "Webhook key",
        "The personal key that lets your own tools run the bulk scraper through the webhook API.",
        rx.flex(
            rx.cond(
                SettingsState.has_webhook_key,
                rx.hstack(
                    rx.badge(rx.icon("key-round", size=12), "Key set", color_scheme="grass", size="2"),
                    rx.text("ends in ", rx.code(SettingsState.webhook_key_hint, id="settings-webhook-hint"), size="2",
                            color_scheme="gray"),
                    spacing="2",
                    align="center",
                    wrap="wrap",
                    id="settings-webhook-state",
                ),
                rx.hstack(
                    rx.badge("No key", color_scheme="gray", size="2"),
                    rx.text("Generate one in the bulk scraper to call the API.", size="2", color_scheme="gray"),
                    spacing="2",
                    align="center",
                    wrap="wrap",
                    id="settings-webhook-state",
                ),
            ),
            ui.button_link("Manage in Bulk Scraper", WEBHOOK_HREF, icon="arrow-right", icon_first=True, icon_size=16,
                           variant="soft", size="3", flex_shrink="0", id="settings-webhook-link"),
            direction=rx.breakpoints(initial="column", sm="row"),
            justify="between",
            align=rx.breakpoints(initial="stretch", sm="center"),
            spacing="3",
            width="100%",
        ),
        rx.text("For your security only the last four characters of the key are stored in readable form; "
                "a new key is shown in full once, when you generate it.", size="1", color_scheme="gray"),
        color="violet",
        card_id="settings-webhook",
    )
