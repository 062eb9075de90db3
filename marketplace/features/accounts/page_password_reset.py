"""/auth/reset: "Forgot password?": ask for a link, then choose a new password."""

from __future__ import annotations

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import kit as ui
from marketplace.features.accounts.view_auth_form import field, refusal_callout, submit_button
from marketplace.platform.ui.layout import page
from marketplace.platform.texts import RESET_LINK_INVALID, RESET_SENT, RESET_SENT_TITLE
from marketplace.features.accounts.state_password_reset import (
    CHECKING,
    INVALID,
    NEW_PASSWORD,
    RESET_ERROR_ID,
    SENT,
    PasswordResetState,
)

BADGE_STYLE = {"width": "48px", "height": "48px", "border_radius": "14px",
               "background": "var(--accent-3)", "color": "var(--accent-11)"}
WARNING_BADGE_STYLE = {**BADGE_STYLE, "background": "var(--amber-3)", "color": "var(--amber-11)"}
BACKGROUND_STYLE = {
    "background": "radial-gradient(1000px 420px at 50% -10%, var(--accent-3), transparent 60%), var(--gray-1)",
    "min_height": "calc(100vh - 140px)",
}


def _heading(icon: str, title, text, *, style: dict = BADGE_STYLE, title_id: str = "reset-title") -> rx.Component:
    return rx.vstack(
        rx.center(ui.static_icon(icon, size=22), style=style),
        rx.heading(title, size="6", align="center", id=title_id),
        rx.text(text, size="2", color_scheme="gray", align="center", id=f"{title_id}-text"),
        align="center",
        spacing="2",
        width="100%",
    )


def _back_to_sign_in() -> rx.Component:
    return rx.box(rx.link("Back to sign in", href=routes.AUTH, id="reset-back-signin", size="2", weight="medium"),
                  text_align="center", width="100%")


def _error() -> rx.Component:
    return refusal_callout(PasswordResetState.error_title != "", PasswordResetState.error_title,
                           PasswordResetState.error_message, RESET_ERROR_ID)


def _form(form_id: str, on_submit, fields: list[rx.Component], submit: rx.Component) -> rx.Component:
    """Fields, the refusal right above the submit button, the submit."""
    return rx.form(
        rx.vstack(*fields, _error(), submit, spacing="4", width="100%"),
        on_submit=on_submit,
        reset_on_submit=False,
        no_validate=True,
        id=form_id,
        width="100%",
    )


def _panel(panel_id: str, role: str, *children: rx.Component) -> rx.Component:
    return rx.vstack(*children, _back_to_sign_in(), spacing="4", width="100%", id=panel_id, role=role)


def request_form() -> rx.Component:
    return rx.vstack(
        _heading("key-round", "Forgot your password?",
                 "Enter the e-mail address of your account and we'll send you a link to choose a new one."),
        _form(
            "reset-request-form",
            PasswordResetState.request_link,
            [field("Email", "reset-email", "email", type_="email", placeholder="you@example.com",
                   auto_complete="email")],
            submit_button("reset-request-submit", PasswordResetState.busy, "Send Reset Link", "Sending..."),
        ),
        _back_to_sign_in(),
        spacing="5",
        width="100%",
    )


def sent_panel() -> rx.Component:
    """The same answer for every address (role status: announced when it replaces the form)."""
    return _panel(
        "reset-sent-panel", "status",
        _heading("mail-check", RESET_SENT_TITLE, RESET_SENT, title_id="reset-sent"),
        rx.text("No e-mail after a few minutes? Look in your spam folder, or check the address and ask again.",
                size="1", color_scheme="gray", align="center"),
        rx.button("Use another e-mail address", on_click=PasswordResetState.request_again, variant="soft",
                  id="reset-ask-again", width="100%"),
    )


def new_password_form() -> rx.Component:
    return rx.vstack(
        _heading("lock-keyhole", "Choose a new password",
                 "Setting it signs you in here and signs out every other device."),
        _form(
            "reset-password-form",
            PasswordResetState.set_password,
            [
                field("New password", "reset-password", "password", type_="password",
                      placeholder="Create a password", auto_complete="new-password", hint="At least 6 characters."),
                field("Confirm password", "reset-confirm-password", "confirm_password", type_="password",
                      placeholder="Repeat your password", auto_complete="new-password"),
            ],
            submit_button("reset-submit", PasswordResetState.busy, "Set New Password", "Saving..."),
        ),
        spacing="5",
        width="100%",
    )


def invalid_panel() -> rx.Component:
    return _panel(
        "reset-invalid-panel", "alert",
        _heading("link-2-off", RESET_LINK_INVALID[1],
                 "Reset links work once, for 30 minutes. Ask for a new one and open the newest e-mail.",
                 style=WARNING_BADGE_STYLE, title_id="reset-invalid"),
        rx.button("Request a new link", on_click=PasswordResetState.request_again, id="reset-request-new",
                  size="3", width="100%"),
    )


def checking() -> rx.Component:
    return rx.center(
        rx.vstack(rx.spinner(size="3"), rx.text("Checking your link...", size="2", color_scheme="gray"),
                  align="center", spacing="3"),
        id="reset-checking",
        min_height="240px",
        width="100%",
    )


@page(route=routes.AUTH_RESET, title="Reset your password", on_load=[PasswordResetState.load])
def password_reset() -> rx.Component:
    view = PasswordResetState.view
    return rx.box(
        ui.container(
            rx.center(
                rx.card(
                    rx.match(
                        view,
                        (CHECKING, checking()),
                        (SENT, sent_panel()),
                        (NEW_PASSWORD, new_password_form()),
                        (INVALID, invalid_panel()),
                        request_form(),
                    ),
                    size="4",
                    width="100%",
                    max_width="28rem",
                    style={"box_shadow": "0 12px 40px -12px rgba(30, 41, 99, 0.18)"},
                ),
                width="100%",
            ),
            padding_y=rx.breakpoints(initial="1.25rem", sm="2.5rem"),
        ),
        style=BACKGROUND_STYLE,
    )
