"""/demo-checkout/{id}: the demo checkout (``PAYMENTS=test``).

Plays Stripe Checkout's part with ``PAYMENTS=test``: clearly marked TEST MODE, it shows
the pack, credits and amount and lets the buyer pay or cancel. Pay credits the
account on the server at once (as Stripe's webhook would); either way the
buyer is then sent to the URL Stripe would use (/credits-purchased?session_id=...
or /purchase-credits?canceled=1), in the same tab. Only the checkout's owner
sees it (checked on the server); anyone else, and everyone when payments are
not in demo mode, gets a not-found message.

Element ids: ``demo-mode-banner``, ``demo-checkout-pay``,
``demo-checkout-cancel``, ``demo-checkout-not-found``,
``demo-checkout-login``, ``demo-checkout-amount``, ``demo-checkout-pack``,
``demo-checkout-credits``, ``demo-checkout-breakdown`` (the pack bonus),
``demo-checkout-referral`` (the first-purchase referral bonus this payment gets).
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import kit as ui
from marketplace.platform.ui.footer import brand
from marketplace.platform.ui.layout import page
from marketplace.platform.ui.demo_data import demo_data_banner
from marketplace.platform.ui.demo_mode import demo_mode_banner
from marketplace.features.billing.state_checkout import DemoCheckoutState

def top_bar() -> rx.Component:
    return rx.box(
        ui.container(
            rx.hstack(
                brand(),
                rx.badge("Checkout", variant="soft", color_scheme="gray", radius="full", size="2"),
                rx.spacer(),
                rx.hstack(rx.icon("lock", size=14, aria_hidden="true"), rx.text("Demo checkout", size="2"),
                          spacing="1", align="center", color="var(--gray-11)",
                          display=rx.breakpoints(initial="none", xs="flex")),
                align="center",
                spacing="3",
                height="64px",
            ),
        ),
        border_bottom="1px solid var(--gray-a4)",
        background="var(--color-panel-solid)",
    )


def _row(label: str, value, value_id: str) -> rx.Component:
    return rx.hstack(
        rx.text(label, size="2", color_scheme="gray"),
        rx.text(value, size="2", weight="medium", id=value_id),
        justify="between",
        width="100%",
    )


def summary_panel() -> rx.Component:
    return rx.vstack(
        rx.text("LeadVault credits", size="2", color_scheme="gray", weight="medium"),
        rx.text(DemoCheckoutState.amount, size="9", weight="bold", id="demo-checkout-amount", letter_spacing="-0.03em",
                line_height="1"),
        rx.vstack(
            _row("Pack", DemoCheckoutState.pack_name, "demo-checkout-pack"),
            _row("Credits", DemoCheckoutState.pack_credits, "demo-checkout-credits"),
            rx.cond(DemoCheckoutState.pack_breakdown != "", _row("Includes", DemoCheckoutState.pack_breakdown, "demo-checkout-breakdown")),
            rx.cond(DemoCheckoutState.referral_bonus != "", _row("Referral bonus", f"+{DemoCheckoutState.referral_bonus}", "demo-checkout-referral")),
            _row("Price per credit", DemoCheckoutState.per_credit, "demo-checkout-per-credit"),
            spacing="2",
            width="100%",
            padding_top="0.5rem",
        ),
        rx.text(DemoCheckoutState.pack_description, size="2", color_scheme="gray"),
        spacing="3",
        width="100%",
    )


def pay_panel() -> rx.Component:
    return rx.vstack(
        rx.heading("Confirm payment", as_="h1", size="6", weight="bold"),
        rx.callout.root(
            rx.callout.icon(rx.icon("info", size=18)),
            rx.callout.text(
                "This is a demo checkout. No card is needed and nothing is charged: "
                "Pay adds the credits to your account at once, as a real payment would; "
                "Cancel returns you without buying."
            ),
            color_scheme="amber",
            variant="surface",
            size="1",
        ),
        rx.cond(
            DemoCheckoutState.checkout_status == "open",
            rx.vstack(
                rx.button(
                    rx.cond(DemoCheckoutState.busy, rx.spinner(size="2"), rx.icon("lock", size=16, aria_hidden="true")),
                    f"Pay {DemoCheckoutState.amount}",
                    id="demo-checkout-pay",
                    on_click=DemoCheckoutState.pay,
                    disabled=DemoCheckoutState.busy,
                    size="4",
                    width="100%",
                ),
                rx.button(
                    "Cancel",
                    id="demo-checkout-cancel",
                    on_click=DemoCheckoutState.cancel,
                    disabled=DemoCheckoutState.busy,
                    variant="soft",
                    color_scheme="gray",
                    size="3",
                    width="100%",
                ),
                spacing="3",
                width="100%",
            ),
            rx.vstack(
                rx.text(
                    rx.cond(DemoCheckoutState.checkout_status == "complete", "This checkout has already been paid.",
                            "This checkout was canceled."),
                    size="3", weight="medium", id="demo-checkout-finished",
                ),
                rx.button("Continue", id="demo-checkout-continue", on_click=DemoCheckoutState.pay, disabled=DemoCheckoutState.busy, size="3",
                          width="100%"),
                spacing="3",
                width="100%",
            ),
        ),
        spacing="4",
        width="100%",
    )


def checkout_card() -> rx.Component:
    return rx.card(
        rx.grid(
            summary_panel(),
            pay_panel(),
            columns={"initial": "1", "sm": "2"},
            spacing={"initial": "6", "sm": "8"},
        ),
        size={"initial": "3", "sm": "5"},
        class_name="lv-card",
        width="100%",
        max_width="880px",
        id="demo-checkout",
    )


def message_card(icon: str, title: str, text: str, action: rx.Component, card_id: str) -> rx.Component:
    return rx.card(
        rx.vstack(
            ui.icon_tile(icon, "gray", "52px"),
            rx.heading(title, as_="h1", size="6", weight="bold"),
            rx.text(text, size="3", color_scheme="gray"),
            action,
            spacing="3",
            align="center",
            text_align="center",
        ),
        size="4",
        class_name="lv-card",
        max_width="480px",
        width="100%",
        id=card_id,
    )


def body() -> rx.Component:
    return rx.match(
        DemoCheckoutState.status,
        ("ready", checkout_card()),
        ("not_found", message_card(
            "search_x", "Checkout not found",
            "This checkout session does not exist or belongs to another account.",
            ui.button_link("Back to Purchase Credits", routes.PURCHASE_CREDITS, size="3"),
            "demo-checkout-not-found",
        )),
        ("signed_out", message_card(
            "lock_keyhole", "Please log in",
            "Log in to the account that started this checkout to continue.",
            ui.button_link("Login", routes.AUTH, icon="log_in", size="3", id="demo-checkout-login"),
            "demo-checkout-signed-out",
        )),
        rx.vstack(rx.spinner(size="3"), rx.text("Loading checkout...", size="2", color_scheme="gray"),
                  align="center", spacing="3", role="status", id="demo-checkout-loading"),
    )


@page(route=routes.DEMO_CHECKOUT, title="Demo Checkout", on_load=[DemoCheckoutState.load], shell_wrapped=False)
def demo_checkout() -> rx.Component:
    # Landmarks of its own (no site shell here): the bars are the banner, the card the main content.
    return rx.box(
        demo_data_banner(),
        rx.el.header(demo_mode_banner(), top_bar()),
        rx.el.main(
            rx.center(
                body(),
                padding=ui.responsive("1.5rem 1rem", sm="3rem 1.5rem"),
                min_height="calc(100vh - 120px)",
                align_items=ui.responsive("start", sm="center"),
            ),
            id="main-content",
        ),
        background="var(--gray-2)",
        min_height="100vh",
    )
