"""The property page's "Owner contact" card (``features/property/state_owner_contact.py``).

Element ids (tests): ``owner-contact`` (the card), ``owner-contact-find`` (the button), ``owner-contact-confirm``
(the confirm step), ``owner-contact-balance``, ``owner-contact-go``, ``owner-contact-cancel``,
``owner-contact-busy``, ``owner-contact-miss``, ``owner-contact-phones`` (``data-number`` on each row,
``owner-contact-dnc`` / ``-dnc-clear`` / ``-dnc-unknown`` badges (every number shows its Do Not Call status), ``owner-contact-wrong`` toggles), ``owner-contact-emails``,
``owner-contact-source``, ``owner-contact-demo``, ``owner-contact-credits`` (the balance), ``owner-contact-retry-on``
(a recent miss's retry date).

The demo note ('fictional numbers') shows only over a found result: a miss has no numbers to call fictional.
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import cards, styles, kit as ui
from marketplace.features.property import texts_owner_contact as text
from marketplace.features.property.state_owner_contact import OwnerContactState

WRAP = ui.WRAP_BUTTON


def _find_button() -> rx.Component:
    return rx.vstack(
        rx.button(rx.icon("phone", size=16, aria_hidden="true"), OwnerContactState.oc_find_label, on_click=OwnerContactState.ask_owner_contact,
                  size="2", id="owner-contact-find", style=WRAP, width="100%"),
        rx.text(OwnerContactState.oc_explain, size="1", color_scheme="gray"),
        spacing="2",
        width="100%",
    )


def _confirm() -> rx.Component:
    return ui.confirm_callout(text.CONFIRM_TITLE, OwnerContactState.oc_confirm_text, OwnerContactState.oc_balance,
                              confirm_label=OwnerContactState.oc_confirm_button, on_confirm=OwnerContactState.find_owner_contact,
                              on_cancel=OwnerContactState.cancel_owner_contact, cancel_label=text.CANCEL, prefix="owner-contact",
                              balance_id="owner-contact-balance")


def _busy() -> rx.Component:
    return rx.hstack(rx.spinner(size="2"), rx.text(text.BUSY, size="2"), align="center", spacing="2",
                     id="owner-contact-busy", role="status")


def _phone(row: dict) -> rx.Component:
    wrong = row["wrong"] != ""
    return rx.vstack(
        rx.flex(
            rx.text(row["number"], size="3", weight="bold", style=styles.NUMBER_STYLE,
                    text_decoration=rx.cond(wrong, "line-through", "none")),
            rx.badge(row["type"], variant="soft", color_scheme="gray", size="1"),
            rx.match(
                row["dnc"],
                ("yes", rx.badge(text.DNC_BADGE, color_scheme="red", variant="solid", size="1",
                                 class_name="owner-contact-dnc", title=text.DNC_EXPLAIN)),
                ("no", rx.badge(text.DNC_CLEAR_BADGE, color_scheme="grass", variant="soft", size="1",
                                class_name="owner-contact-dnc-clear")),
                rx.badge(text.DNC_UNKNOWN_BADGE, color_scheme="amber", variant="soft", size="1",
                         class_name="owner-contact-dnc-unknown", title=text.DNC_UNKNOWN_EXPLAIN),
            ),
            rx.cond(wrong, rx.badge(text.WRONG_BADGE, color_scheme="orange", variant="soft", size="1",
                                    class_name="owner-contact-wrong-badge")),
            rx.spacer(),
            rx.button(rx.cond(wrong, text.UNMARK_WRONG, text.MARK_WRONG), size="1", variant="soft",
                      color_scheme=rx.cond(wrong, "gray", "orange"), class_name="owner-contact-wrong",
                      aria_pressed=rx.cond(wrong, "true", "false"),
                      aria_label=rx.cond(wrong, f"{text.UNMARK_WRONG}: ", f"{text.MARK_WRONG}: ") + row["number"],
                      on_click=OwnerContactState.toggle_wrong_number(row["number"]), disabled=OwnerContactState.oc_marking),
            spacing="2",
            align="center",
            wrap="wrap",
            width="100%",
        ),
        rx.match(
            row["dnc"],
            ("yes", rx.text(text.DNC_EXPLAIN, size="1", color=rx.color("red", 11))),
            ("no", rx.fragment()),
            rx.text(text.DNC_UNKNOWN_EXPLAIN, size="1", color=rx.color("amber", 11)),
        ),
        spacing="1",
        width="100%",
        padding_y="0.6rem",
        border_bottom=styles.ROW_BORDER,
        class_name="owner-contact-phone",
        custom_attrs={"data-number": row["number"]},
    )


def _found() -> rx.Component:
    return rx.vstack(
        rx.text(text.PHONES, size="2", weight="bold"),
        rx.cond(OwnerContactState.oc_phones.length() > 0,
                rx.vstack(rx.foreach(OwnerContactState.oc_phones, _phone), spacing="0", width="100%", id="owner-contact-phones"),
                rx.text(text.NO_PHONES, size="2", color_scheme="gray")),
        rx.text(text.EMAILS, size="2", weight="bold", padding_top="0.5rem"),
        rx.cond(OwnerContactState.oc_emails.length() > 0,
                rx.vstack(rx.foreach(OwnerContactState.oc_emails, lambda e: rx.text(e, size="2", class_name="owner-contact-email")),
                          spacing="1", width="100%", id="owner-contact-emails"),
                rx.text(text.NO_EMAILS, size="2", color_scheme="gray")),
        spacing="2",
        width="100%",
    )


def _source_line() -> rx.Component:
    return rx.text(OwnerContactState.oc_source, size="1", color_scheme="gray", id="owner-contact-source")


def _miss() -> rx.Component:
    """'No contact found. You were not charged.', then when it may be searched again (or the button), and the
    provider line; no demo note (no numbers to call fictional)."""
    return rx.vstack(
        rx.callout.root(rx.callout.icon(rx.icon("search_x")), rx.callout.text(text.MISS), color_scheme="gray",
                        variant="surface", width="100%", id="owner-contact-miss"),
        rx.cond(OwnerContactState.oc_can_retry, _find_button(),
                rx.cond(OwnerContactState.oc_retry_on != "", rx.text(OwnerContactState.oc_retry_on, size="1", color_scheme="gray",
                                                     id="owner-contact-retry-on"))),
        _source_line(),
        spacing="2",
        width="100%",
    )


def _source() -> rx.Component:
    return rx.vstack(
        rx.cond(OwnerContactState.oc_demo, rx.callout.root(
            rx.callout.icon(rx.icon("flask_conical")),
            rx.callout.text(OwnerContactState.oc_demo_note),  # 'Demo data: these are fictional numbers ...'
            color_scheme="amber", variant="surface", size="1", width="100%", id="owner-contact-demo")),
        _source_line(),
        spacing="2",
        width="100%",
    )


def owner_contact_card() -> rx.Component:
    """Shown once the state knows the lead is this user's (``oc_status`` set)."""
    return rx.cond(
        OwnerContactState.oc_status != "",
        cards.section_card(
            "contact",
            text.TITLE,
            text.SUBTITLE,
            rx.match(
                OwnerContactState.oc_status,
                ("idle", _find_button()),
                ("confirm", _confirm()),
                ("busy", _busy()),
                ("miss", _miss()),
                ("found", rx.vstack(_found(), _source(), spacing="3", width="100%")),
                rx.fragment(),
            ),
            rx.text(OwnerContactState.oc_credits_label, size="1", color_scheme="gray", id="owner-contact-credits"),
            heading_as="h2",
            tile_size="36px",
            card_id="owner-contact",
        ),
    )
