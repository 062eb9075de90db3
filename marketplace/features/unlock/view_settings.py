"""Settings tab: Unlock confirmation (ask before an expensive unlock, and from how
many credits). Element ids: ``settings-unlock-confirm`` (the switch),
``settings-unlock-threshold`` (the select), ``settings-unlock-summary``."""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import cards
from marketplace.features.unlock.rules_confirm import THRESHOLD_CHOICES
from marketplace.features.accounts import SettingsState
from marketplace.features.accounts import LABEL_STYLE


def unlock_confirm_card() -> rx.Component:
    return cards.section_card(
        "shield-question", "Unlock confirmation",
        "Ask before a lead unlock spends many credits at once.",
        rx.flex(
            rx.el.label("Ask before expensive unlocks", html_for="settings-unlock-confirm", style=LABEL_STYLE),
            rx.switch(checked=SettingsState.unlock_confirm_on, on_change=SettingsState.set_unlock_confirm_on, disabled=SettingsState.unlock_confirm_saving,
                      id="settings-unlock-confirm", size="2"),
            justify="between",
            align="center",
            spacing="3",
            width="100%",
        ),
        rx.vstack(
            rx.el.label("Ask from", html_for="settings-unlock-threshold", style=LABEL_STYLE),
            rx.select.root(
                rx.select.trigger(id="settings-unlock-threshold", width="100%"),
                rx.select.content(
                    *[rx.select.item(f"{n} credits or more", value=str(n)) for n in THRESHOLD_CHOICES],
                ),
                value=SettingsState.unlock_confirm_threshold,
                on_change=SettingsState.set_unlock_confirm_threshold,
                disabled=SettingsState.unlock_confirm_saving | ~SettingsState.unlock_confirm_on,
                size="3",
            ),
            spacing="1",
            width="100%",
        ),
        rx.text(
            rx.cond(SettingsState.unlock_confirm_on,
                    "Unlocks of " + SettingsState.unlock_confirm_threshold + " credits or more ask first.",
                    "Every unlock happens in one click."),
            size="2", color_scheme="gray", id="settings-unlock-summary",
        ),
        color="amber",
        card_id="settings-unlock-confirmation",
    )
