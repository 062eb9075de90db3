"""/auth/callback: where the confirmation e-mail lands (SPEC 2, 8)."""

from __future__ import annotations

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui.layout import page
from marketplace.platform.ui.prefetch import prefetch_route
from marketplace.platform.texts import CALLBACK_WELCOME, CALLBACK_WORKING
from marketplace.features.accounts.state import CallbackState

BADGE_STYLE = {"width": "56px", "height": "56px", "border_radius": "16px"}
BACKGROUND_STYLE = {
    "background": "radial-gradient(1000px 420px at 50% -10%, var(--accent-3), transparent 60%), var(--gray-1)",
    "min_height": "calc(100vh - 140px)",
}


def working() -> rx.Component:
    return rx.vstack(
        rx.center(rx.spinner(size="3"), style={**BADGE_STYLE, "background": "var(--accent-3)"}),
        rx.heading(CALLBACK_WORKING, size="6", align="center", id="callback-heading"),
        rx.text("Hang tight while we verify your link.", size="2", color_scheme="gray", align="center"),
        align="center",
        spacing="3",
    )


def welcome() -> rx.Component:
    return rx.vstack(
        rx.center(
            rx.icon("circle-check-big", size=28),
            style={**BADGE_STYLE, "background": "var(--grass-3)", "color": "var(--grass-11)"},
        ),
        rx.heading(CALLBACK_WELCOME, size="6", align="center", id="callback-heading"),
        rx.text("You're signed in. Taking you to your dashboard...", size="2", color_scheme="gray", align="center"),
        rx.link("Go to dashboard now", href=routes.DASHBOARD, size="2", weight="medium"),
        align="center",
        spacing="3",
        id="callback-welcome",
    )


@page(route=routes.AUTH_CALLBACK, title=CALLBACK_WORKING, on_load=[CallbackState.load])
def callback() -> rx.Component:
    return rx.center(
        prefetch_route(routes.DASHBOARD),  # the dashboard's code loads while the link is checked
        rx.card(
            rx.cond(CallbackState.status == "welcome", welcome(), working()),
            size="4",
            width="100%",
            max_width="26rem",
            style={"box_shadow": "0 12px 40px -12px rgba(30, 41, 99, 0.18)"},
        ),
        padding="1rem",
        style=BACKGROUND_STYLE,
    )
