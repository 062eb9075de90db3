"""The pieces of the visitor's account forms (/auth and /auth/reset): a labelled
field, the submit button with its busy label, and the refusal callout.

The refusal sits right above the submit button, where the eye is after a click,
and the state that sets it also scrolls it into view (``platform.ui.state_auth.reveal``):
at 1280x800 the sign-up form's button is near the bottom of the window, and a
message below it went unseen. ``role="alert"`` announces it.
"""

from __future__ import annotations

import reflex as rx

LABEL_STYLE = {"font_size": "var(--font-size-2)", "font_weight": "500", "color": "var(--gray-12)"}


def field(label: str, input_id: str, name: str, *, type_: str = "text", placeholder: str = "",
          auto_complete: str = "", hint: str = "") -> rx.Component:
    return rx.vstack(
        rx.el.label(label, html_for=input_id, style=LABEL_STYLE),
        rx.input(
            id=input_id,
            name=name,
            type=type_,
            placeholder=placeholder,
            auto_complete=auto_complete,
            size="3",
            width="100%",
        ),
        rx.cond(hint != "", rx.text(hint, size="1", color_scheme="gray")),
        spacing="1",
        width="100%",
    )


def submit_button(button_id: str, busy, idle_label: str, busy_label: str) -> rx.Component:
    return rx.button(
        rx.cond(busy, rx.spinner(size="2"), rx.fragment()),
        rx.cond(busy, busy_label, idle_label),
        id=button_id,
        type="submit",
        disabled=busy,
        size="3",
        width="100%",
    )


def refusal_callout(shown, title, message, callout_id: str) -> rx.Component:
    """The most recent refusal (``title``, ``message`` vars) while ``shown``; ids
    ``{callout_id}``, ``{callout_id}-title`` and ``{callout_id}-message``."""
    return rx.cond(
        shown,
        rx.callout.root(
            rx.callout.icon(rx.icon("circle-alert")),
            rx.vstack(
                rx.text(title, id=f"{callout_id}-title", weight="bold", size="2"),
                rx.text(message, id=f"{callout_id}-message", size="2"),
                spacing="0",
            ),
            id=callout_id,
            role="alert",
            color_scheme="red",
            variant="surface",
            width="100%",
            scroll_margin="1rem",
        ),
    )
