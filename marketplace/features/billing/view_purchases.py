"""Settings card Purchases: every credit purchase with its receipt.
It sits in the Settings tab (the tab row already fills a 375 px screen); the rows
load when the card mounts, i.e. when the tab is shown.

Columns: Date, Pack, Price, Credits (with the pack bonus), Referral bonus,
Status, Receipt. Below 640px the table scrolls sideways, and a hint says so.

Element ids: ``dashboard-purchases-table``, ``purchases-scroll-hint``,
``settings-purchases`` (the card), ``purchase-row-<id>``, ``receipt-open-<id>``, ``dashboard-purchases-empty``,
``dashboard-purchases-error``, ``receipt-dialog``, ``receipt-*``,
``receipt-download``.
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import cards, kit as ui
from marketplace.features.billing.state_history import PurchaseHistoryState

HEADERS = ("Date", "Pack", "Price", "Credits", "Pack bonus", "Referral bonus", "Status", "Receipt")


def purchase_row(row: dict) -> rx.Component:
    return rx.table.row(
        rx.table.cell(row["date"], white_space="nowrap"),
        rx.table.cell(row["pack"]),
        rx.table.cell(row["price"]),
        rx.table.cell(row["credits"]),
        rx.table.cell(row["bonus"], white_space="nowrap"),
        rx.table.cell(row["referral_bonus"]),
        rx.table.cell(rx.badge(row["status"], color_scheme=row["status_color"], variant="soft")),
        rx.table.cell(
            rx.button(rx.icon("receipt", size=14, aria_hidden="true"), "View", size="1", variant="soft",
                      on_click=PurchaseHistoryState.open_receipt(row["id"]), id="receipt-open-" + row["id"],
                      aria_label="View receipt " + row["number"]),
        ),
        align="center",
        id="purchase-row-" + row["id"],
    )


def _line(label: str, key: str) -> rx.Component:
    return rx.hstack(
        rx.text(label, size="2", color_scheme="gray"),
        rx.text(PurchaseHistoryState.receipt[key], size="2", weight="medium", id=f"receipt-{key.replace('_', '-')}",
                text_align="right"),
        justify="between",
        spacing="3",
        width="100%",
    )


def receipt_dialog() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title("Receipt ", rx.el.span(PurchaseHistoryState.receipt["number"], id="receipt-number")),
            rx.dialog.description("LeadVault credit purchase", size="2", color_scheme="gray"),
            rx.vstack(
                _line("Date", "date"),
                rx.cond(PurchaseHistoryState.receipt["paid_date"] != "", _line("Paid", "paid_date")),
                _line("Status", "status"),
                _line("Pack", "pack"),
                _line("Price", "price"),
                _line("Pack credits", "breakdown"),
                _line("Referral bonus", "referral_bonus"),
                _line("Total credits", "total"),
                _line("Payment", "payment"),
                spacing="2",
                width="100%",
                padding_y="1rem",
            ),
            rx.flex(
                rx.dialog.close(rx.button("Close", variant="soft", color_scheme="gray", id="receipt-close")),
                rx.button(rx.icon("download", size=16, aria_hidden="true"), "Download receipt",
                          on_click=PurchaseHistoryState.download_receipt(PurchaseHistoryState.receipt["id"]), id="receipt-download"),
                spacing="3",
                justify="end",
                wrap="wrap",
            ),
            max_width="440px",
            id="receipt-dialog",
        ),
        open=PurchaseHistoryState.receipt_open,
        on_open_change=PurchaseHistoryState.set_receipt_open,
    )


def purchases_table() -> rx.Component:
    return rx.vstack(
        rx.hstack(
            rx.icon("move_horizontal", size=14, aria_hidden="true"),
            rx.text("Scroll sideways to see every column.", size="1"),
            spacing="1",
            align="center",
            color="var(--gray-11)",
            class_name="lv-hide-from-sm",
            id="purchases-scroll-hint",
        ),
        rx.box(
            rx.table.root(
                rx.table.header(rx.table.row(*[rx.table.column_header_cell(h, white_space="nowrap")
                                               for h in HEADERS])),
                rx.table.body(rx.foreach(PurchaseHistoryState.purchases, purchase_row)),
                variant="surface",
                size="2",
                width="100%",
                min_width="52rem",
            ),
            overflow_x="auto",
            width="100%",
            id="dashboard-purchases-table",
            tab_index=0,
            aria_label="Purchases (scrolls sideways)",
            role="region",
        ),
        rx.text("Dates are in your time zone. Pack bonus credits are part of the pack's credits; the referral "
                "bonus is added on top of a referred first purchase.", size="1", color_scheme="gray"),
        spacing="2",
        width="100%",
    )


def purchases_card() -> rx.Component:
    return cards.section_card(
        "receipt", "Purchases", "Credit packs you bought, with a receipt for each.",
        rx.cond(
            PurchaseHistoryState.load_failed,
            rx.callout.root(
                rx.callout.icon(rx.icon("triangle-alert")),
                rx.callout.text("Failed to load your purchases. ",
                                rx.link("Try again", href="#", on_click=PurchaseHistoryState.load.prevent_default, underline="always")),
                color_scheme="red", variant="surface", width="100%", id="dashboard-purchases-error",
            ),
            rx.cond(
                ~PurchaseHistoryState.loaded,
                rx.skeleton(rx.box(height="6rem", width="100%"), loading=True),
                rx.cond(
                    PurchaseHistoryState.purchases.length() > 0,
                    purchases_table(),
                    rx.vstack(
                        rx.text("No purchases yet.", size="2", weight="medium"),
                        ui.button_link("Buy Credits", routes.PURCHASE_CREDITS, icon="wallet", icon_first=True,
                                       icon_size=16, id="dashboard-purchases-buy", size="2", variant="soft"),
                        spacing="2",
                        id="dashboard-purchases-empty",
                    ),
                ),
            ),
        ),
        receipt_dialog(),
        card_id="settings-purchases",
        on_mount=PurchaseHistoryState.load,
    )
