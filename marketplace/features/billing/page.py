"""/purchase-credits: pick a pack and open the checkout in a new tab (SPEC 2, 6, 7, 8).

Visitors see the packs and 'Authentication Required: Please log in to purchase
credits' with a Login link instead of the purchase button (the handler checks
the session again on the server). ``?pack=<id>`` preselects a pack and
``?canceled=1`` (the checkout's cancel URL) shows a neutral note.

Element ids: ``purchase-button``, ``purchase-auth-required``, ``purchase-login``,
``purchase-canceled``, ``purchase-summary``, ``summary-*``, ``checkout-opened``,
``checkout-link``, ``purchase-referral``, ``demo-mode-banner`` (while
``PAYMENTS=test``) and the ``pack-option-<id>`` radio cards.
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import kit as ui
from marketplace.platform.ui.layout import page
from marketplace.platform.ui.prefetch import prefetch_route
from marketplace.features.billing.view_pack_card import pack_option
from marketplace.platform.ui.demo_mode import demo_mode_banner
from marketplace.features.billing.rules_packs import PACKS
from marketplace.platform import texts as messages
from marketplace.features.billing.state import PurchaseState


def page_header() -> rx.Component:
    return rx.el.section(
        ui.container(
            rx.flex(
                rx.vstack(
                    ui.eyebrow("Credits", "wallet"),
                    rx.heading("Purchase Credits", as_="h1", size={"initial": "8", "md": "9"}, weight="bold",
                               class_name="lv-hero-title"),
                    rx.text("Choose a credit pack. Checkout opens securely in a new tab.",
                            size={"initial": "3", "md": "4"}, color_scheme="gray"),
                    spacing="3",
                ),
                rx.cond(
                    PurchaseState.is_authenticated,
                    rx.card(
                        rx.hstack(
                            ui.icon_tile("coins", "amber"),
                            rx.vstack(
                                rx.text("Current balance", size="2", color_scheme="gray", weight="medium"),
                                rx.text(PurchaseState.balance_label, size="5", weight="bold", id="purchase-balance"),
                                spacing="0",
                            ),
                            spacing="3",
                            align="center",
                        ),
                        size="2",
                        class_name="lv-card",
                        flex_shrink="0",
                    ),
                ),
                direction={"initial": "column", "sm": "row"},
                justify="between",
                align={"initial": "start", "sm": "end"},
                spacing="5",
            ),
        ),
        class_name="lv-hero-bg",
        padding_top=ui.responsive("2.5rem", md="4rem"),
        padding_bottom=ui.responsive("2rem", md="3rem"),
    )


def canceled_note() -> rx.Component:
    return rx.cond(
        PurchaseState.canceled,
        rx.callout.root(
            rx.callout.icon(rx.icon("info", size=18)),
            rx.callout.text(messages.CANCELED_NOTE),
            color_scheme="gray",
            variant="surface",
            id="purchase-canceled",
            role="status",
            width="100%",
        ),
    )


def pack_selection() -> rx.Component:
    return rx.vstack(
        rx.heading("1. Choose a pack", as_="h2", size="5", weight="bold"),
        rx.radio_cards.root(
            *[pack_option(pack) for pack in PACKS],
            value=PurchaseState.selected_pack,
            on_value_change=PurchaseState.select_pack,
            # Not clickable until the page's load has set the selection (billing.state.packs_ready).
            disabled=~PurchaseState.packs_ready,
            aria_busy=~PurchaseState.packs_ready,
            columns="1",
            gap="3",
            size="2",
            width="100%",
            aria_label="Credit packs",
            id="pack-options",
        ),
        rx.hstack(
            rx.icon("tag", size=16, color="var(--gray-10)", aria_hidden="true"),
            rx.text("Compare every pack on the ",
                    rx.link("pricing page", href=routes.PRICING, id="purchase-pricing-link", underline="always"), ".",
                    size="2", color_scheme="gray"),
            spacing="2",
            align="center",
        ),
        spacing="3",
        width="100%",
    )


def _summary_row(label, value, value_id: str, **value_props) -> rx.Component:
    return rx.hstack(
        rx.text(label, size="2", color_scheme="gray"),
        rx.text(value, size="2", weight="medium", id=value_id, **value_props),
        justify="between",
        width="100%",
    )


def referral_note() -> rx.Component:
    return rx.cond(
        PurchaseState.bonus_shown,
        rx.hstack(
            rx.icon("gift", size=16, aria_hidden="true", flex_shrink="0", margin_top="2px"),
            rx.text("Referral bonus: 50% extra credits on your first purchase.", size="2"),
            spacing="2",
            align="start",
            color="var(--grass-11)",
            id="purchase-referral",
        ),
    )


def auth_required() -> rx.Component:
    return rx.callout.root(
        rx.callout.icon(rx.icon("lock_keyhole", size=18)),
        rx.vstack(
            rx.text(
                rx.text.strong(f"{messages.PURCHASE_AUTH_REQUIRED[0]}: "), messages.PURCHASE_AUTH_REQUIRED[1],
                size="2", id="purchase-auth-message",
            ),
            ui.button_link("Login", routes.AUTH, icon="log_in", size="2", id="purchase-login", color_scheme="indigo"),
            spacing="3",
        ),
        color_scheme="amber",
        variant="surface",
        id="purchase-auth-required",
        role="alert",
        width="100%",
    )


def checkout_opened() -> rx.Component:
    return rx.cond(
        (PurchaseState.checkout_url != "") & PurchaseState.checkout_pending,
        rx.callout.root(
            rx.callout.icon(rx.icon("external_link", size=18)),
            rx.vstack(
                rx.text("Checkout opened in a new tab. Complete your payment there.", size="2"),
                rx.text("Didn't open? ",
                        rx.link("Open checkout", href=PurchaseState.checkout_url, is_external=True, id="checkout-link",
                                weight="medium", underline="always"),
                        size="2"),
                spacing="1",
            ),
            color_scheme="indigo",
            variant="surface",
            id="checkout-opened",
            role="status",
            width="100%",
        ),
    )


def purchase_button() -> rx.Component:
    return rx.button(
        rx.cond(PurchaseState.busy, rx.spinner(size="2"), rx.icon("lock", size=16, aria_hidden="true")),
        rx.cond(PurchaseState.busy, "Opening checkout...", f"Purchase {PurchaseState.pack_name} · {PurchaseState.pack_price}"),
        id="purchase-button",
        on_click=PurchaseState.purchase,
        disabled=PurchaseState.busy,
        size="4",
        width="100%",
    )


def order_summary() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.heading("2. Order summary", as_="h2", size="5", weight="bold"),
            rx.vstack(
                _summary_row("Pack", PurchaseState.pack_name, "summary-pack"),
                _summary_row("Credits", PurchaseState.pack_credits, "summary-credits"),
                rx.cond(PurchaseState.pack_breakdown != "", _summary_row("Includes", PurchaseState.pack_breakdown, "summary-breakdown",
                                                             color="var(--grass-11)")),
                rx.cond(PurchaseState.pack_bonus != "", _summary_row("Referral bonus", f"+{PurchaseState.pack_bonus}", "summary-bonus",
                                                          color="var(--grass-11)")),
                _summary_row("Price per credit", PurchaseState.pack_per_credit, "summary-per-credit"),
                spacing="2",
                width="100%",
            ),
            rx.separator(size="4"),
            rx.hstack(
                rx.vstack(
                    rx.text("Total", size="3", weight="bold"),
                    rx.text(f"{PurchaseState.pack_total_credits} credits", size="1", color_scheme="gray",
                            id="summary-total-credits"),
                    spacing="0",
                ),
                rx.text(PurchaseState.pack_price, size="7", weight="bold", id="summary-price", letter_spacing="-0.02em"),
                justify="between",
                align="center",
                width="100%",
            ),
            referral_note(),
            rx.cond(
                PurchaseState.auth_loading,
                rx.skeleton(height="48px", width="100%"),
                rx.cond(PurchaseState.is_authenticated, purchase_button(), auth_required()),
            ),
            checkout_opened(),
            rx.hstack(
                rx.icon("shield_check", size=14, color="var(--gray-10)", aria_hidden="true", flex_shrink="0"),
                rx.text(messages.PAYMENT_NOTE, size="1", color_scheme="gray", id="purchase-payment-note"),
                spacing="2",
                align="center",
            ),
            spacing="4",
            width="100%",
        ),
        size=rx.breakpoints(initial="3", sm="4"),
        class_name="lv-card",
        id="purchase-summary",
        width="100%",
    )


@page(route=routes.PURCHASE_CREDITS, title="Purchase Credits", on_load=[PurchaseState.load])
def purchase_credits() -> rx.Component:
    return rx.fragment(
        # The checkout tab's page code is in the browser's cache before Purchase opens it.
        rx.cond(PurchaseState.demo_mode, prefetch_route("/demo-checkout/prefetch")),
        demo_mode_banner(PurchaseState.demo_mode),
        page_header(),
        ui.section(
            rx.vstack(
                canceled_note(),
                rx.grid(
                    pack_selection(),
                    rx.box(order_summary(), position=ui.responsive("static", md="sticky"), top="88px"),
                    columns={"initial": "1", "md": "3fr 2fr"},
                    spacing="6",
                    width="100%",
                    align="start",
                ),
                spacing="5",
                width="100%",
            ),
            padding_top=ui.responsive("2rem", md="3rem"),
        ),
    )
