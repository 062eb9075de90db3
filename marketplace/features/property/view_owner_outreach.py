"""The dashboard's "Owner phones and e-mails" section under Unlocked Leads (``features/property/state_owner_outreach.py``).

Element ids (tests): ``owner-outreach`` (the card), ``owner-outreach-list`` (rows ``.owner-outreach-row`` with
``data-lead``; each checkbox ``.owner-outreach-check`` labelled 'Select <address>'; ``.owner-outreach-status``),
``owner-outreach-all``, ``owner-outreach-clear``, ``owner-outreach-find``, ``owner-outreach-confirm``,
``owner-outreach-confirm-text``, ``owner-outreach-confirm-balance``, ``owner-outreach-go``,
``owner-outreach-cancel``, ``owner-outreach-progress``, ``owner-outreach-summary``, ``owner-export-<layout>``.
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import cards, styles, kit as ui
from marketplace.features.property.rules_owner_export import LAYOUTS
from marketplace.features.property import texts_owner_contact as text
from marketplace.features.dashboard import DashboardState
from marketplace.features.property.state_owner_outreach import OwnerOutreachState

WRAP = ui.WRAP_BUTTON


def _row(row: dict) -> rx.Component:
    lead_id = row["lead_id"]
    status = OwnerOutreachState.ot_statuses[lead_id].to(str)
    return rx.box(
        rx.hstack(
            rx.checkbox(checked=OwnerOutreachState.ot_selected.contains(lead_id), on_change=lambda _: OwnerOutreachState.ot_toggle(lead_id),
                        disabled=OwnerOutreachState.ot_running, class_name="owner-outreach-check",
                        aria_label=f"Select {row['address']}"),
            rx.vstack(
                rx.text(row["address"], size="2", weight="medium", high_contrast=True),
                rx.text(row["place"], size="1", color_scheme="gray"),
                # under the address: a phone keeps the address on one line
                rx.text(rx.cond(status, status, text.BULK_STATUS[""]), size="1", color=rx.color("indigo", 11),
                        class_name="owner-outreach-status"),
                spacing="0",
                min_width="0",
                flex="1",
            ),
            align="center",
            spacing="3",
            width="100%",
        ),
        class_name="owner-outreach-row",
        custom_attrs={"data-lead": lead_id},
        style={"padding": "0.6rem 0.25rem", "border_bottom": styles.ROW_BORDER},
    )


def _confirm() -> rx.Component:
    return ui.confirm_callout(text.BULK_CONFIRM_TITLE, OwnerOutreachState.ot_confirm_text, OwnerOutreachState.ot_confirm_balance,
                              confirm_label=OwnerOutreachState.ot_confirm_button, on_confirm=OwnerOutreachState.ot_run, on_cancel=OwnerOutreachState.ot_cancel,
                              cancel_label=text.CANCEL, prefix="owner-outreach",
                              balance_id="owner-outreach-confirm-balance", text_id="owner-outreach-confirm-text")


def _progress() -> rx.Component:
    return rx.vstack(
        rx.progress(value=OwnerOutreachState.ot_percent, width="100%"),
        rx.text(OwnerOutreachState.ot_progress, size="2", id="owner-outreach-progress"),
        role="status",
        spacing="1",
        width="100%",
    )


def _export() -> rx.Component:
    return rx.vstack(
        rx.text(text.EXPORT_HEADING, size="2", weight="bold"),
        rx.text(text.EXPORT_EXPLAIN, size="1", color_scheme="gray"),
        rx.flex(
            *[rx.button(rx.icon("download", size=14, aria_hidden="true"), layout.label, size="1", variant="soft",
                        on_click=OwnerOutreachState.ot_export(key), id=f"owner-export-{key.replace('_', '-')}", style=WRAP)
              for key, layout in LAYOUTS.items()],
            spacing="2",
            wrap="wrap",
        ),
        spacing="2",
        width="100%",
        id="owner-export",
    )


def owner_outreach_section() -> rx.Component:
    """Shown with at least one unlocked lead loaded."""
    return rx.cond(
        DashboardState.unlocked.length() > 0,
        cards.section_card(
            "phone",
            text.BULK_TITLE,
            text.BULK_SUBTITLE,
            rx.box(rx.foreach(DashboardState.unlocked, _row), id="owner-outreach-list", width="100%",
                   max_height="22rem", overflow_y="auto"),
            rx.flex(
                rx.button(OwnerOutreachState.ot_button, on_click=OwnerOutreachState.ot_ask, loading=OwnerOutreachState.ot_asking,
                          disabled=(OwnerOutreachState.ot_selected.length() == 0) | OwnerOutreachState.ot_running, size="2",
                          id="owner-outreach-find", style=WRAP),
                rx.button(text.BULK_SELECT_ALL, on_click=OwnerOutreachState.ot_select_all, size="2", variant="soft",
                          disabled=OwnerOutreachState.ot_running, id="owner-outreach-all"),
                rx.button(text.BULK_CLEAR, on_click=OwnerOutreachState.ot_clear, size="2", variant="soft", color_scheme="gray",
                          disabled=OwnerOutreachState.ot_running, id="owner-outreach-clear"),
                spacing="2",
                wrap="wrap",
            ),
            rx.cond(OwnerOutreachState.ot_confirm_open, _confirm()),
            rx.cond(OwnerOutreachState.ot_running, _progress()),
            rx.cond(OwnerOutreachState.ot_summary != "", rx.text(OwnerOutreachState.ot_summary, size="2", id="owner-outreach-summary")),
            _export(),
            heading_as="h2",
            tile_size="36px",
            card_id="owner-outreach",
            margin_top="1rem",
        ),
    )
