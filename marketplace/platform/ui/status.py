"""Status views of the app pages: loading, and a message screen (not found,
no access, error) with a tinted icon, a title, text and actions."""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import styles, kit as ui


def loading_view(text: str, element_id: str, text_size: str = "3") -> rx.Component:
    """A spinner and a line of text, centred in the page."""
    return rx.center(
        rx.vstack(
            rx.spinner(size="3"),
            rx.text(text, size=text_size, color_scheme="gray"),
            align="center",
            spacing="3",
        ),
        id=element_id,
        role="status",
        aria_busy="true",
        min_height="50vh",
        width="100%",
    )


def status_icon(icon: rx.Component | str, color: str = "accent", **props) -> rx.Component:
    """The large tinted tile at the top of a message screen."""
    return rx.center(
        ui.static_icon(icon, size=28, aria_hidden="true") if isinstance(icon, str) else icon,
        width="64px",
        height="64px",
        border_radius=styles.RADIUS_LARGE,
        **styles.tinted(color),
        **props,
    )


def message_view(icon: rx.Component, title: rx.Component, *body: rx.Component, actions: list[rx.Component],
                 actions_props: dict | None = None, **props) -> rx.Component:
    """Icon tile, title (an h1), lines of text and a row of buttons, centred."""
    return rx.center(
        rx.vstack(
            icon,
            title,
            *body,
            rx.flex(*actions, spacing="3", wrap="wrap", justify="center", **(actions_props or {})),
            spacing="3",
            align="center",
            text_align="center",
        ),
        min_height="50vh",
        width="100%",
        **props,
    )


def error_view(message, message_id: str, retry, retry_id: str, back_label: str, back_href: str) -> rx.Component:
    """'Something went wrong' with the message, Try again and a way back."""
    return message_view(
        status_icon("triangle_alert", "red"),
        rx.heading("Something went wrong", as_="h1", size="7", weight="bold"),
        rx.text(message, size="4", id=message_id),
        actions=[
            rx.button(rx.icon("rotate_cw", size=16), "Try again", on_click=retry, size="3", id=retry_id),
            ui.button_link(back_label, back_href, size="3", variant="outline"),
        ],
    )
