"""Settings tab, first half: Profile, E-mail and Password cards (and the card
frame the other Settings sections share)."""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import cards, kit as ui
from marketplace.features.accounts.rules import NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH
from marketplace.platform.ui.state_auth import AuthState
from marketplace.features.accounts.state_settings import SettingsState

LABEL_STYLE = {"font_size": "var(--font-size-2)", "font_weight": "500"}


def labelled(label: str, field_id: str, control: rx.Component, extra: rx.Component | None = None,
             help_text: str | None = None, help_id: str | None = None) -> rx.Component:
    return rx.vstack(
        rx.hstack(
            rx.el.label(label, html_for=field_id, style=LABEL_STYLE),
            extra if extra is not None else rx.fragment(),
            spacing="2",
            align="center",
            wrap="wrap",
        ),
        control,
        rx.text(help_text, size="1", color_scheme="gray", id=help_id) if help_text else rx.fragment(),
        spacing="1",
        width="100%",
    )


def submit_button(label: str, busy_label: str, busy, icon: str, button_id: str, **props) -> rx.Component:
    return rx.button(
        rx.cond(busy, rx.spinner(size="2"), ui.static_icon(icon, size=16)),
        rx.cond(busy, busy_label, label),
        type="submit",
        size="3",
        disabled=busy,
        id=button_id,
        **props,
    )


# --------------------------------------------------------------------------- profile


def profile_card() -> rx.Component:
    def name_input(name: str, field_id: str, value, on_change, autocomplete: str) -> rx.Component:
        return rx.input(id=field_id, name=name, value=value, on_change=on_change, max_length=NAME_MAX_LENGTH,
                        auto_complete=autocomplete, size="3", width="100%", required=True)

    return cards.section_card(
        "user-round", "Profile",
        "Your name as it appears in your greeting and on your account.",
        rx.form(
            rx.vstack(
                rx.grid(
                    labelled("First name", "settings-first-name",
                             name_input("first_name", "settings-first-name", SettingsState.first_name_input,
                                        SettingsState.set_first_name_input, "given-name")),
                    labelled("Last name", "settings-last-name",
                             name_input("last_name", "settings-last-name", SettingsState.last_name_input,
                                        SettingsState.set_last_name_input, "family-name")),
                    columns=rx.breakpoints(initial="1", sm="2"),
                    spacing="4",
                    width="100%",
                ),
                rx.flex(
                    rx.text("Member since ", rx.text.strong(SettingsState.member_since, id="settings-member-since"),
                            size="2", color_scheme="gray"),
                    submit_button("Save name", "Saving...", SettingsState.profile_saving, "check", "settings-save-profile"),
                    justify="between",
                    align=rx.breakpoints(initial="stretch", sm="center"),
                    direction=rx.breakpoints(initial="column-reverse", sm="row"),
                    spacing="3",
                    width="100%",
                ),
                spacing="4",
                width="100%",
            ),
            on_submit=SettingsState.save_profile,
            reset_on_submit=False,
            width="100%",
        ),
        color="indigo",
        card_id="settings-profile",
    )


# --------------------------------------------------------------------------- e-mail


def email_status_badge() -> rx.Component:
    return rx.cond(
        AuthState.email_confirmed,
        rx.badge(rx.icon("badge-check", size=12), "Confirmed", color_scheme="grass", size="1",
                 id="settings-email-status"),
        rx.badge(rx.icon("mail-warning", size=12), "Not confirmed", color_scheme="amber", size="1",
                 id="settings-email-status"),
    )


def email_card() -> rx.Component:
    return cards.section_card(
        "mail", "E-mail",
        "Where we send sign-in links and receipts. To use another address, write to support.",
        labelled(
            "E-mail address", "settings-email",
            rx.input(value=AuthState.user_email, id="settings-email", read_only=True, size="3", width="100%",
                     variant="soft", color_scheme="gray"),
            extra=email_status_badge(),
        ),
        rx.cond(
            AuthState.email_confirmed,
            rx.fragment(),
            rx.flex(
                rx.text("Open the link we e-mailed you to confirm this address. No e-mail? Send a new link "
                        "(one a minute).", size="2", color_scheme="gray"),
                rx.button(
                    rx.cond(SettingsState.resend_busy, rx.spinner(size="2"), rx.icon("send", size=16)),
                    rx.cond(SettingsState.resend_busy, "Sending...", "Resend confirmation link"),
                    on_click=SettingsState.resend_confirmation,
                    disabled=SettingsState.resend_busy,
                    variant="soft",
                    color_scheme="amber",
                    size="3",
                    id="settings-resend-confirmation",
                    flex_shrink="0",
                ),
                direction=rx.breakpoints(initial="column", sm="row"),
                justify="between",
                align=rx.breakpoints(initial="stretch", sm="center"),
                spacing="3",
                width="100%",
                padding="0.75rem 1rem",
                border_radius="var(--radius-3)",
                background="var(--amber-2)",
                border="1px solid var(--amber-a5)",
                id="settings-email-unconfirmed",
            ),
        ),
        color="iris",
        card_id="settings-email-card",
    )


# --------------------------------------------------------------------------- password


def password_input(name: str, field_id: str, autocomplete: str, described_by: str | None = None) -> rx.Component:
    return rx.input(type="password", id=field_id, name=name, auto_complete=autocomplete, size="3", width="100%",
                    max_length=PASSWORD_MAX_LENGTH, required=True, aria_describedby=described_by)


def password_card() -> rx.Component:
    return cards.section_card(
        "key-round", "Password",
        "Changing your password signs out every other device; this one stays signed in.",
        rx.form(
            rx.vstack(
                labelled("Current password", "settings-current-password",
                         password_input("current_password", "settings-current-password", "current-password")),
                rx.grid(
                    labelled("New password", "settings-new-password",
                             password_input("new_password", "settings-new-password", "new-password",
                                            "settings-password-help"),
                             help_text="At least 6 characters.", help_id="settings-password-help"),
                    labelled("Confirm new password", "settings-confirm-password",
                             password_input("confirm_password", "settings-confirm-password", "new-password")),
                    columns=rx.breakpoints(initial="1", sm="2"),
                    spacing="4",
                    width="100%",
                ),
                rx.flex(
                    submit_button("Change password", "Changing...", SettingsState.password_saving, "lock",
                                  "settings-change-password"),
                    justify="end",
                    width="100%",
                ),
                spacing="4",
                width="100%",
            ),
            on_submit=SettingsState.change_password,
            reset_on_submit=False,
            width="100%",
        ),
        color="amber",
        card_id="settings-password",
    )
