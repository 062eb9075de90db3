"""/credits-purchased?session_id=...: the purchase result, success or failure
(SPEC 2, 4, 7, 8). It only shows what happened: in test mode Pay already
credited the account; in Stripe mode the webhook does (or this page's verify,
whichever comes first). The TEST MODE banner shows while ``PAYMENTS=test``.

States (``CreditsPurchasedState.status``): verifying ('Verifying your
purchase...'), success ('Credits added!' with credits_added), failed ('Missing
session ID' or 'Failed to verify purchase', the support note and a toast), and
signed_out (log in first: a session is verified for its owner only). The tab's
title follows the state (``messages.PURCHASE_RESULT_TITLES``).

Element ids: ``purchase-verifying``, ``purchase-success``,
``purchase-credits-added``, ``purchase-pack-credits``, ``purchase-breakdown`` (the pack
bonus), ``purchase-bonus`` (the referral bonus), ``purchase-new-balance``, ``purchase-failed``,
``purchase-error``, ``purchase-signed-out``, ``demo-mode-banner``.
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import kit as ui
from marketplace.platform.ui.layout import page
from marketplace.platform.ui.demo_mode import demo_mode_banner
from marketplace.platform import texts as messages
from marketplace.features.billing.state_checkout import CreditsPurchasedState


def _panel(*children, panel_id: str, **props) -> rx.Component:
    return rx.card(
        rx.vstack(*children, spacing="4", align="center", text_align="center", width="100%"),
        size={"initial": "3", "sm": "5"},
        class_name="lv-card",
        id=panel_id,
        width="100%",
        max_width="560px",
        **props,
    )


def _badge_icon(icon: str, color: str) -> rx.Component:
    return rx.center(
        ui.static_icon(icon, size=30, aria_hidden="true", stroke_width=2.5),
        width="64px",
        height="64px",
        border_radius="9999px",
        background=f"var(--{color}-3)",
        color=f"var(--{color}-11)",
        box_shadow=f"0 0 0 8px var(--{color}-a2)",
    )


def _line(label: str, value, value_id: str) -> rx.Component:
    return rx.hstack(
        rx.text(label, size="2", color_scheme="gray"),
        rx.text(value, size="2", weight="medium", id=value_id, text_align="right"),
        justify="between",
        width="100%",
        spacing="3",
    )


def verifying() -> rx.Component:
    return _panel(
        rx.spinner(size="3"),
        rx.heading("Verifying your purchase...", as_="h1", size="6", weight="bold"),
        rx.text("This only takes a moment. Please keep this page open.", size="3", color_scheme="gray"),
        panel_id="purchase-verifying",
        role="status",
    )


def success() -> rx.Component:
    return _panel(
        _badge_icon("check", "grass"),
        rx.heading("Credits added!", as_="h1", size="7", weight="bold"),
        rx.text(
            rx.el.strong(CreditsPurchasedState.credits_added, id="purchase-credits-added"), " credits have been added to your account",
            size="4", id="purchase-success-message",
        ),
        rx.box(
            rx.hstack(
                rx.text("Pack", size="2", color_scheme="gray"),
                rx.text(CreditsPurchasedState.pack_name, size="2", weight="medium", id="purchase-pack"),
                justify="between",
                width="100%",
            ),
            _line("Pack credits", CreditsPurchasedState.pack_credits, "purchase-pack-credits"),
            rx.cond(CreditsPurchasedState.pack_breakdown != "", _line("Includes", CreditsPurchasedState.pack_breakdown, "purchase-breakdown")),
            rx.cond(CreditsPurchasedState.bonus_credits != "", _line("Referral bonus", f"+{CreditsPurchasedState.bonus_credits}", "purchase-bonus")),
            rx.hstack(
                rx.text("New balance", size="2", color_scheme="gray"),
                rx.text(f"{CreditsPurchasedState.new_balance} credits", size="2", weight="bold", id="purchase-new-balance"),
                justify="between",
                width="100%",
            ),
            width="100%",
            padding="0.9rem 1rem",
            border_radius="var(--radius-4)",
            background="var(--gray-2)",
            border="1px solid var(--gray-4)",
            display="flex",
            flex_direction="column",
            gap="0.5rem",
        ),
        rx.flex(
            ui.button_link("Browse Marketplace", routes.MARKETPLACE, icon="arrow_right", size="3",
                           id="purchase-to-marketplace"),
            ui.button_link("Go to Dashboard", routes.DASHBOARD, variant="outline", size="3",
                           id="purchase-to-dashboard"),
            spacing="3",
            wrap="wrap",
            justify="center",
        ),
        panel_id="purchase-success",
    )


def failed() -> rx.Component:
    return _panel(
        _badge_icon("triangle_alert", "red"),
        rx.heading(CreditsPurchasedState.error_message, as_="h1", size="6", weight="bold", id="purchase-error"),
        rx.text(messages.PAID_SHORTLY, size="3", id="purchase-failed-note"),
        rx.text(
            "Still missing credits? Contact ",
            rx.link(routes.SUPPORT_EMAIL, href=f"mailto:{routes.SUPPORT_EMAIL}", id="purchase-support-link",
                    underline="always"),
            " and include the time of your purchase.",
            size="2", color_scheme="gray",
        ),
        rx.flex(
            rx.button(rx.icon("refresh_cw", size=16, aria_hidden="true"), "Check again", on_click=CreditsPurchasedState.load,
                      size="3", variant="outline", id="purchase-retry"),
            ui.button_link("Back to Purchase Credits", routes.PURCHASE_CREDITS, size="3", id="purchase-back"),
            spacing="3",
            wrap="wrap",
            justify="center",
        ),
        panel_id="purchase-failed",
        role="alert",
    )


def signed_out() -> rx.Component:
    return _panel(
        _badge_icon("lock_keyhole", "amber"),
        rx.heading("Please log in", as_="h1", size="6", weight="bold"),
        rx.text("Log in to the account that made this purchase to verify it and add the credits.", size="3",
                color_scheme="gray"),
        ui.button_link("Login", routes.AUTH, icon="log_in", size="3", id="purchase-signed-out-login"),
        panel_id="purchase-signed-out",
    )


@page(route=routes.CREDITS_PURCHASED, title=CreditsPurchasedState.page_title, on_load=[CreditsPurchasedState.load])
def credits_purchased() -> rx.Component:
    return rx.fragment(demo_mode_banner(CreditsPurchasedState.demo_mode), result_section())


def result_section() -> rx.Component:
    return rx.el.section(
        ui.container(
            rx.center(
                rx.match(
                    CreditsPurchasedState.status,
                    ("success", success()),
                    ("failed", failed()),
                    ("signed_out", signed_out()),
                    verifying(),
                ),
                width="100%",
            ),
        ),
        class_name="lv-hero-bg",
        padding_top=ui.responsive("3rem", md="5rem"),
        padding_bottom=ui.responsive("3rem", md="5rem"),
        flex="1",
    )
