"""/auth: Sign In and Sign Up (SPEC 2, 4, 5, 8)."""

from __future__ import annotations

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import kit as ui
from marketplace.features.accounts.view_auth_form import field, refusal_callout, submit_button
from marketplace.platform.ui.demo_data import demo_claim_suffix
from marketplace.platform.ui.layout import page
from marketplace.platform.texts import REFERRAL_NOT_APPLIED_TITLE, SIGN_UP_SENT_TITLE
from marketplace.features.accounts.texts import AUTH_HEADING_FIRST_VISIT, AUTH_HEADING_RETURNING, AUTH_HEADING_SIGN_UP
from marketplace.features.accounts.state import AUTH_ERROR_ID, SIGN_IN_TAB, SIGN_UP_TAB, AuthPageState
from marketplace.platform.ui.state_auth import AuthState

ICON_BADGE_STYLE = {
    "width": "44px", "height": "44px", "border_radius": "12px",
    "background": "var(--accent-3)", "color": "var(--accent-11)",
}
POINT_ICON_STYLE = {
    "width": "36px", "height": "36px", "border_radius": "10px", "flex_shrink": "0",
    "background": "var(--accent-3)", "color": "var(--accent-11)",
}
BACKGROUND_STYLE = {
    "background": "radial-gradient(1200px 500px at 10% -10%, var(--accent-3), transparent 60%), "
                  "radial-gradient(900px 400px at 100% 0%, var(--iris-2), transparent 55%), var(--gray-1)",
    "min_height": "calc(100vh - 140px)",
}
CARD_STYLE = {"box_shadow": "0 12px 40px -12px rgba(30, 41, 99, 0.18)"}

SELLING_POINTS = [
    ("map-pin", "Curated off-market leads", "Probate, pre-foreclosure, auction, tax delinquent and vacancy leads."),
    ("chart-line", "ROI analysis on every lead", "Market value, ARV, rehab estimate and a 0-100 confidence score."),
    ("lock-open", "Pay only for what you unlock", "Spend credits on the leads you want and see the full address."),
]


def error_callout(tab: str) -> rx.Component:
    """The most recent refusal for this form, readable after the toast fades."""
    return refusal_callout(
        (AuthPageState.error_tab == tab) & (AuthPageState.error_title != ""),
        AuthPageState.error_title, AuthPageState.error_message, AUTH_ERROR_ID,
    )


def _auth_form(form_id: str, on_submit, fields: list[rx.Component], submit: rx.Component, tab: str,
               switch_prompt: str, switch_label: str, switch_tab: str) -> rx.Component:
    """A sign-in or sign-up form: fields, the inline error right above the submit, link to the other tab."""
    return rx.form(
        rx.vstack(
            *fields,
            error_callout(tab),
            submit,
            rx.text(
                switch_prompt,
                rx.link(switch_label, href="#", on_click=AuthPageState.set_tab(switch_tab).prevent_default,
                        weight="medium", underline="always"),
                size="2",
                color_scheme="gray",
                align="center",
                width="100%",
            ),
            spacing="4",
            width="100%",
        ),
        on_submit=on_submit,
        reset_on_submit=False,
        no_validate=True,
        id=form_id,
        width="100%",
    )


def sign_in_form() -> rx.Component:
    return _auth_form(
        "signin-form",
        AuthPageState.sign_in,
        [
            field("Email", "signin-email", "email", type_="email", placeholder="you@example.com",
                  auto_complete="email"),
            rx.vstack(
                field("Password", "signin-password", "password", type_="password", placeholder="Your password",
                      auto_complete="current-password"),
                rx.flex(rx.link("Forgot password?", href=routes.AUTH_RESET, id="signin-forgot", size="2",
                                weight="medium"), justify="end", width="100%"),
                spacing="2",
                width="100%",
            ),
        ],
        rx.vstack(
            submit_button("signin-submit", AuthPageState.signin_busy, "Sign In", "Signing in..."),
            rx.text("Just signed up? Open the link in the e-mail we sent you first.", size="1",
                    color_scheme="gray", id="signin-confirm-hint"),
            spacing="2",
            width="100%",
        ),
        SIGN_IN_TAB,
        "New to LeadVault? ",
        "Create an account",
        SIGN_UP_TAB,
    )


def sign_up_form() -> rx.Component:
    return _auth_form(
        "signup-form",
        AuthPageState.sign_up,
        [
            rx.grid(
                field("First name", "signup-first-name", "first_name", placeholder="Jane", auto_complete="given-name"),
                field("Last name", "signup-last-name", "last_name", placeholder="Doe", auto_complete="family-name"),
                columns=rx.breakpoints(initial="1", xs="2"),
                spacing="3",
                width="100%",
            ),
            field("Email", "signup-email", "email", type_="email", placeholder="you@example.com", auto_complete="email"),
            field("Password", "signup-password", "password", type_="password", placeholder="Create a password",
                  auto_complete="new-password", hint="At least 6 characters."),
            field("Confirm password", "signup-confirm-password", "confirm_password", type_="password",
                  placeholder="Repeat your password", auto_complete="new-password"),
            rx.cond(
                AuthState.referral_code != "",
                rx.hstack(
                    rx.icon("gift", size=16),
                    rx.text("Signing up with referral code ", rx.code(AuthState.referral_code), size="2"),
                    align="center",
                    spacing="2",
                    color=rx.color("grass", 11),
                    id="signup-referral",
                ),
            ),
        ],
        submit_button("signup-submit", AuthPageState.signup_busy, "Create Account", "Creating account..."),
        SIGN_UP_TAB,
        "Already have an account? ",
        "Sign in",
        SIGN_IN_TAB,
    )


def check_email_panel() -> rx.Component:
    """The end of every sign-up, new address or taken: the e-mail says which."""
    return rx.vstack(
        rx.center(rx.icon("mail-check", size=22), style=ICON_BADGE_STYLE),
        rx.heading(SIGN_UP_SENT_TITLE, size="5", id="signup-check-title"),
        rx.text(
            "We sent a link to ", rx.text.strong(AuthPageState.signup_sent_to, id="signup-sent-to"),
            ". Open it to confirm your address and sign in.",
            size="2", id="signup-check-message",
        ),
        rx.text("No e-mail after a few minutes? Look in your spam folder, or sign up again to get a new link.",
                size="1", color_scheme="gray"),
        rx.cond(
            AuthPageState.referral_refused_message != "",
            rx.callout.root(
                rx.callout.icon(rx.icon("triangle-alert")),
                rx.vstack(
                    rx.text(REFERRAL_NOT_APPLIED_TITLE, weight="bold", size="2", id="signup-referral-refused-title"),
                    rx.text(AuthPageState.referral_refused_message, size="2", id="signup-referral-refused-message"),
                    spacing="0",
                ),
                id="signup-referral-refused",
                color_scheme="amber",
                variant="surface",
                width="100%",
            ),
        ),
        rx.button("Use another e-mail address", on_click=AuthPageState.sign_up_again, variant="soft",
                  id="signup-again", width="100%"),
        align="center",
        spacing="3",
        width="100%",
        id="signup-check-email",
        role="status",  # announced when it replaces the form (no toast repeats it)
    )


def legal_note() -> rx.Component:
    return rx.text(
        "By continuing you agree to our ",
        rx.link("Terms of Service", href=f"{routes.LEGAL}#terms", id="auth-terms-link", underline="always"),
        " and ",
        rx.link("Privacy Policy", href=f"{routes.LEGAL}#privacy", id="auth-privacy-link", underline="always"),
        ".",
        size="1",
        color_scheme="gray",
        align="center",
        width="100%",
    )


def auth_card() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.vstack(
                rx.center(rx.icon("lock-open", size=22), style=ICON_BADGE_STYLE),
                rx.heading(
                    rx.cond(AuthPageState.tab == SIGN_UP_TAB, AUTH_HEADING_SIGN_UP,
                            rx.cond(AuthPageState.signed_in_here == "1", AUTH_HEADING_RETURNING,
                                    AUTH_HEADING_FIRST_VISIT)),
                    size="6",
                    align="center",
                    id="auth-heading",
                ),
                rx.text(
                    rx.cond(
                        AuthPageState.tab == SIGN_UP_TAB,
                        "Start unlocking off-market investment leads in minutes.",
                        "Sign in to access your leads, credits and dashboard.",
                    ),
                    size="2",
                    color_scheme="gray",
                    align="center",
                ),
                align="center",
                spacing="2",
                width="100%",
            ),
            rx.tabs.root(
                rx.tabs.list(
                    rx.tabs.trigger("Sign In", value=SIGN_IN_TAB, id="tab-signin", flex="1"),
                    rx.tabs.trigger("Sign Up", value=SIGN_UP_TAB, id="tab-signup", flex="1"),
                    size="2",
                    width="100%",
                ),
                rx.tabs.content(rx.box(sign_in_form(), padding_top="1.25rem"), value=SIGN_IN_TAB),
                rx.tabs.content(
                    rx.box(
                        rx.cond(AuthPageState.signup_sent_to != "", check_email_panel(), sign_up_form()),
                        padding_top="1.25rem",
                    ),
                    value=SIGN_UP_TAB,
                ),
                value=AuthPageState.tab,
                on_change=AuthPageState.set_tab,
                width="100%",
            ),
            rx.separator(size="4"),
            legal_note(),
            spacing="5",
            width="100%",
        ),
        size="4",
        width="100%",
        style=CARD_STYLE,
    )


def checking_session() -> rx.Component:
    return rx.center(
        rx.vstack(
            rx.spinner(size="3"),
            rx.text("Checking your session...", size="2", color_scheme="gray"),
            align="center",
            spacing="3",
        ),
        id="auth-checking",
        min_height="420px",
        width="100%",
    )


def brand_panel() -> rx.Component:
    return rx.vstack(
        rx.badge(rx.icon("sparkles", size=14), "Fresh leads every morning", size="2", variant="soft", radius="full"),
        rx.heading("Find off-market deals before anyone else.", size="8"),
        rx.text(
            "LeadVault turns public records into investment-ready leads, with the numbers "
            "you need to decide in minutes.",
            demo_claim_suffix(),  # a demo install says what it really serves
            size="4",
            color_scheme="gray",
        ),
        rx.vstack(
            *[
                rx.hstack(
                    rx.center(ui.static_icon(icon, size=18), style=POINT_ICON_STYLE),
                    rx.vstack(
                        rx.text(title, weight="bold", size="3"),
                        rx.text(body, size="2", color_scheme="gray"),
                        spacing="0",
                    ),
                    spacing="3",
                    align="start",
                )
                for icon, title, body in SELLING_POINTS
            ],
            spacing="4",
            padding_top="0.5rem",
        ),
        rx.hstack(
            rx.vstack(rx.text("2,500+", weight="bold", size="5"), rx.text("active investors", size="1", color_scheme="gray"), spacing="0"),
            rx.vstack(rx.text("$50M+", weight="bold", size="5"), rx.text("deals sourced", size="1", color_scheme="gray"), spacing="0"),
            rx.vstack(rx.text("50,000+", weight="bold", size="5"), rx.text("properties analyzed", size="1", color_scheme="gray"), spacing="0"),
            spacing="6",
            padding_top="0.75rem",
        ),
        spacing="4",
        display=rx.breakpoints(initial="none", md="flex"),
        max_width="30rem",
        padding_top="2.5rem",
    )


@page(route=routes.AUTH, title="Sign In", on_load=[AuthPageState.load])
def auth() -> rx.Component:
    return rx.box(
        ui.container(
            rx.vstack(
                ui.button_link("Back to Home", routes.HOME, icon="arrow-left", icon_first=True, icon_size=16,
                               variant="ghost", color_scheme="gray", size="2", id="auth-back-home"),
                rx.grid(
                    brand_panel(),
                    rx.box(
                        rx.cond(
                            AuthState.auth_loading | AuthState.is_authenticated,
                            checking_session(),
                            auth_card(),
                        ),
                        width="100%",
                        max_width="28rem",
                        justify_self="center",
                    ),
                    columns=rx.breakpoints(initial="1", md="2"),
                    spacing="8",
                    width="100%",
                    align_items="start",
                ),
                spacing="5",
                width="100%",
            ),
            padding_y=rx.breakpoints(initial="1.25rem", sm="2.5rem"),
        ),
        style=BACKGROUND_STYLE,
    )
