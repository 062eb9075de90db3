"""The referral code box shown above the pricing cards (SPEC 4, 5, 8).

Input (max 15 characters) and Apply. Apply is disabled while the input is
blank (a blank submit by Enter shows a hint); while the server validates, the
button reads 'Validating code...'; then a green check with the bonus message,
or 'Invalid referral code. Please check and try again.'.

Element ids: ``referral-input``, ``referral-apply``, ``referral-valid``,
``referral-invalid``, ``referral-blank``, ``referral-remove``,
``referral-applied-code``.
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform import texts as messages
from marketplace.platform.ui.state_auth import AuthState
from marketplace.features.billing.state_pricing import PricingState

INPUT_ID = "referral-input"


def _status_line() -> rx.Component:
    return rx.match(
        PricingState.referral_status,
        (
            "valid",
            rx.hstack(
                rx.center(
                    rx.icon("check", size=16, aria_hidden="true", stroke_width=3),
                    width="24px", height="24px", min_width="24px", border_radius="9999px",
                    background="var(--grass-9)", color="white",
                ),
                rx.vstack(
                    rx.text(rx.cond(AuthState.first_purchase_done, messages.CODE_VALID_AFTER_FIRST,
                                    messages.CODE_APPLIED),
                            size="2", weight="medium", color="var(--grass-11)", id="referral-valid-message"),
                    rx.text(
                        "Code ", rx.code(PricingState.applied_code, id="referral-applied-code", variant="ghost",
                                         weight="bold"),
                        rx.cond(AuthState.first_purchase_done, " is saved. ", " will be applied at checkout. "),
                        rx.link("Remove", href="#", on_click=PricingState.remove_referral.prevent_default,
                                id="referral-remove", color_scheme="gray", underline="always"),
                        size="1", color_scheme="gray",
                    ),
                    spacing="1",
                    min_width="0",
                ),
                spacing="3",
                align="start",
                width="100%",
                id="referral-valid",
                role="status",
                padding="0.75rem",
                border_radius="var(--radius-3)",
                background="var(--grass-a2)",
                border="1px solid var(--grass-a5)",
            ),
        ),
        (
            "invalid",
            rx.hstack(
                # The user's own code is not a typo: it gets its own sentence, never "Invalid referral code".
                rx.cond(
                    PricingState.own_code,
                    rx.icon("info", size=18, color="var(--amber-11)", aria_hidden="true", flex_shrink="0",
                            margin_top="1px"),
                    rx.icon("circle_x", size=18, color="var(--red-10)", aria_hidden="true", flex_shrink="0",
                            margin_top="1px"),
                ),
                rx.cond(
                    PricingState.own_code,
                    rx.text(messages.OWN_CODE_HINT, size="2", weight="medium", color="var(--amber-11)",
                            id="referral-own-code"),
                    rx.text(messages.INVALID_CODE, size="2", weight="medium", color="var(--red-11)",
                            id="referral-invalid-message"),
                ),
                spacing="2",
                align="start",
                id="referral-invalid",
                role="alert",
            ),
        ),
        (
            "blank",
            rx.hstack(
                rx.icon("info", size=16, color="var(--amber-11)", aria_hidden="true", flex_shrink="0"),
                rx.text(messages.BLANK_CODE, size="2", color="var(--amber-11)"),
                spacing="2",
                align="center",
                id="referral-blank",
                role="alert",
            ),
        ),
        rx.fragment(),
    )


def referral_box() -> rx.Component:
    """The box itself: a titled card with the form and its result line."""
    return rx.card(
        rx.flex(
            rx.hstack(
                rx.center(
                    rx.icon("gift", size=22, aria_hidden="true"),
                    width="44px", height="44px", min_width="44px", border_radius="var(--radius-4)",
                    background="var(--grass-3)", color="var(--grass-11)",
                ),
                rx.vstack(
                    rx.heading("Have a referral code?", as_="h2", size="4", weight="bold"),
                    rx.text(rx.cond(AuthState.first_purchase_done, messages.REFERRAL_BONUS_USED,
                                    "Referred buyers get 50% bonus credits on their first purchase."),
                            size="2", color_scheme="gray", id="referral-promise"),
                    spacing="1",
                ),
                spacing="3",
                align="center",
                flex="1",
                min_width="0",
            ),
            rx.vstack(
                rx.form(
                    rx.flex(
                        rx.box(
                            rx.el.label("Referral code", html_for=INPUT_ID, class_name="lv-sr-only"),
                            rx.input(
                                rx.input.slot(rx.icon("ticket", size=16, aria_hidden="true")),
                                id=INPUT_ID,
                                name="referral_code",
                                value=PricingState.referral_input,
                                on_change=PricingState.set_referral_input,
                                max_length=15,
                                placeholder="Enter referral code",
                                auto_complete="off",
                                spell_check=False,
                                size="3",
                                width="100%",
                                aria_describedby="referral-help",
                                text_transform="uppercase",
                            ),
                            flex="1",
                            min_width="0",
                        ),
                        rx.button(
                            rx.cond(PricingState.referral_busy, rx.spinner(size="2"), rx.fragment()),
                            rx.cond(PricingState.referral_busy, messages.VALIDATING, "Apply"),
                            id="referral-apply",
                            type="submit",
                            size="3",
                            disabled=PricingState.apply_disabled,
                            flex_shrink="0",
                        ),
                        spacing="2",
                        width="100%",
                    ),
                    on_submit=PricingState.apply_referral,
                    reset_on_submit=False,
                    width="100%",
                ),
                rx.text("Up to 15 letters or digits.", size="1", color_scheme="gray", id="referral-help",
                        class_name="lv-sr-only"),
                _status_line(),
                spacing="2",
                width="100%",
                max_width=rx.breakpoints(initial="100%", md="32rem"),
            ),
            direction=rx.breakpoints(initial="column", md="row"),
            spacing="5",
            align=rx.breakpoints(initial="stretch", md="start"),
            justify="between",
            width="100%",
        ),
        size=rx.breakpoints(initial="3", sm="4"),
        id="referral-box",
        class_name="lv-card",
        width="100%",
    )
