"""/bulkscraper's collapsible Webhook section (SPEC 2, 4, 8, 9).

Element ids: ``webhook-toggle``, ``webhook-panel``, ``webhook-key``,
``webhook-key-new``, ``webhook-generate``, ``webhook-copy-key``,
``webhook-endpoint``, ``webhook-example``, ``webhook-copy-example``,
``webhook-docs``, ``webhook-log``, ``webhook-log-empty``, ``webhook-log-refresh``.
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import kit as ui
from marketplace.features.scrape.state_webhook import WebhookState as W


def key_block(W=W) -> rx.Component:
    """``W``: the state offering the section's vars and events (the explorer passes its own)."""
    return rx.vstack(
        rx.text("Auth key", weight="bold", size="2"),
        rx.cond(
            W.new_key != "",
            rx.vstack(
                rx.hstack(
                    rx.code(W.new_key, id="webhook-key-new", size="2", word_break="break-all"),
                    rx.icon_button(rx.icon("copy", size=15), on_click=W.copy(W.new_key), variant="soft", size="2",
                                   aria_label="Copy auth key", id="webhook-copy-key"),
                    align="center",
                    spacing="2",
                ),
                rx.callout("Copy this key now: it is shown only once. We keep only a hash of it.",
                           icon="triangle_alert", color_scheme="amber", size="1"),
                spacing="2",
                width="100%",
            ),
            rx.cond(
                W.has_key,
                rx.text(rx.code(W.masked_key, id="webhook-key"),
                        " — your key is set. For security it is shown only when generated; regenerate to get a new one "
                        "(the old key stops working at once).", size="2", color_scheme="gray"),
                rx.text("No key yet. Generate one to call the API.", size="2", color_scheme="gray", id="webhook-key"),
            ),
        ),
        generate_button(W),
        spacing="2",
        width="100%",
        align="start",
    )


def generate_button(W=W) -> rx.Component:
    """Generate at once; Regenerate only after a confirmation (the old key stops working)."""
    icon = rx.icon("key-round", size=16)
    regenerate = rx.alert_dialog.root(
        rx.alert_dialog.trigger(
            rx.button(icon, "Regenerate", loading=W.key_busy, id="webhook-generate", variant="soft", size="2"),
        ),
        rx.alert_dialog.content(
            rx.alert_dialog.title("Regenerate your webhook key?"),
            rx.alert_dialog.description(
                "Your current key stops working at once: every tool that uses it gets 401 until you give it the "
                "new key. The new key is shown once.",
                size="2",
            ),
            rx.flex(
                rx.alert_dialog.cancel(rx.button("Cancel", variant="soft", color_scheme="gray",
                                                 id="webhook-regenerate-cancel")),
                rx.alert_dialog.action(rx.button("Regenerate key", color_scheme="red", on_click=W.generate_key,
                                                 id="webhook-regenerate-confirm")),
                spacing="3",
                justify="end",
                margin_top="1rem",
            ),
            max_width="440px",
        ),
    )
    generate = rx.button(icon, "Generate", on_click=W.generate_key, loading=W.key_busy, id="webhook-generate",
                         variant="soft", size="2")
    return rx.cond(W.has_key | (W.new_key != ""), regenerate, generate)


def example_block(W=W, docs: bool = True) -> rx.Component:
    return rx.vstack(
        rx.hstack(
            rx.text("Endpoint", weight="bold", size="2"),
            rx.code(W.endpoint, id="webhook-endpoint", size="1", word_break="break-all"),
            spacing="2",
            align="center",
            wrap="wrap",
        ),
        rx.hstack(
            rx.text("Example request", weight="bold", size="2"),
            rx.spacer(),
            rx.button(rx.icon("copy", size=14), "Copy", size="1", variant="ghost", on_click=W.copy(W.example_request),
                      id="webhook-copy-example"),
            *([rx.button(rx.icon("file-down", size=14), "API documentation (.md)", size="1", variant="soft",
                         on_click=rx.download(url=W.docs_url), id="webhook-docs")] if docs else []),
            width="100%",
            align="center",
            wrap="wrap",
        ),
        rx.code_block(W.example_request, language="bash", id="webhook-example", wrap_long_lines=True, width="100%"),
        spacing="2",
        width="100%",
    )


def log_row(row: dict) -> rx.Component:
    return rx.table.row(
        rx.table.cell(row["when"], white_space="nowrap"),
        rx.table.cell(rx.badge(row["status"], color_scheme=rx.cond(row["ok"] == "1", "grass", "red"), variant="soft")),
        rx.table.cell(rx.code(row["endpoint"], size="1", word_break="break-all")),
        rx.table.cell(row["ip"]),
        rx.table.cell(rx.text(row["request"], size="1", color_scheme="gray", word_break="break-all")),
    )


def log_block(W=W) -> rx.Component:
    return rx.vstack(
        rx.hstack(
            rx.text("Request log (50 most recent)", weight="bold", size="2"),
            rx.spacer(),
            rx.icon_button(rx.icon("refresh-cw", size=14), on_click=W.refresh_logs, variant="ghost", size="1",
                           aria_label="Refresh the request log", id="webhook-log-refresh"),
            width="100%",
        ),
        rx.cond(
            W.logs.length() > 0,
            rx.scroll_area(
                rx.table.root(
                    rx.table.header(rx.table.row(*[rx.table.column_header_cell(h)
                                                   for h in ("Time", "Status", "Endpoint", "IP", "Body")])),
                    rx.table.body(rx.foreach(W.logs, log_row)),
                    size="1",
                    id="webhook-log",
                ),
                type="auto",
                scrollbars="both",
                style={"max_height": "320px"},
            ),
            rx.text("No requests yet.", size="2", color_scheme="gray", id="webhook-log-empty"),
        ),
        spacing="2",
        width="100%",
    )


def webhook_section() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.button(
                rx.hstack(ui.icon_tile("webhook", "violet"),
                          rx.vstack(rx.heading("Webhook API", size="5", as_="h2"),
                                    rx.text("Drive the scraper from your own tools with a personal key.", size="2",
                                            color_scheme="gray"),
                                    spacing="0", align="start", text_align="left"),
                          spacing="3", align="center"),
                rx.cond(W.open, rx.icon("chevron-up", size=20), rx.icon("chevron-down", size=20)),
                on_click=W.toggle,
                variant="ghost",
                color_scheme="gray",
                width="100%",
                justify_content="space-between",
                height="auto",
                padding="0.5rem",
                id="webhook-toggle",
                aria_expanded=rx.cond(W.open, "true", "false"),
                aria_controls="webhook-panel",
            ),
            rx.cond(
                W.open,
                rx.vstack(key_block(), rx.separator(size="4"), example_block(), rx.separator(size="4"), log_block(),
                          spacing="4", width="100%", id="webhook-panel"),
            ),
            spacing="3",
            width="100%",
        ),
        size="3",
        class_name="lv-card",
        width="100%",
    )
