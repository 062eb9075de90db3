"""Settings tab: Deal defaults (what a new deal analysis starts from). State: ``property.state_deal_defaults``.
Element ids: ``settings-deal-defaults`` (the card), ``deal-default-{key}`` and ``deal-default-{key}-error``
for every field of ``property.rules_deal.form.DEFAULT_GROUPS``, ``deal-defaults-save``."""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import cards
from marketplace.features.property.rules_deal.form import DEFAULT_GROUPS, Field
from marketplace.features.property import texts_deal as text
from marketplace.platform.ui.state_auth import AuthState
from marketplace.features.property.state_deal_defaults import DealDefaultsState
from marketplace.features.accounts import LABEL_STYLE

ERROR_STYLE = {"color": "var(--red-11)", "font_size": "var(--font-size-1)"}


def default_field(field: Field) -> rx.Component:
    field_id, error_id = f"deal-default-{field.key}", f"deal-default-{field.key}-error"
    return rx.vstack(
        rx.el.label(field.labelled, html_for=field_id, style=LABEL_STYLE),
        rx.input(default_value=DealDefaultsState.values[field.key], name=field.key, id=field_id, input_mode="decimal",
                 auto_complete="off", size="2", width="100%", placeholder="None" if field.optional else None,
                 aria_invalid=rx.cond(DealDefaultsState.errors.contains(field.key), "true", "false"), aria_describedby=error_id),
        rx.text(DealDefaultsState.errors[field.key], id=error_id, style=ERROR_STYLE),
        spacing="1",
        width="100%",
        min_width="0",
    )


def deal_defaults_card() -> rx.Component:
    ready = DealDefaultsState.loaded_for == AuthState.user_id
    return cards.section_card(
        "calculator", text.DEFAULTS_TITLE, text.DEFAULTS_SUBTITLE,
        rx.cond(
            ready,
            rx.form(
                rx.vstack(
                    *[rx.vstack(
                        rx.heading(text.DEFAULTS_GROUPS[name], as_="h4", size="2", color_scheme="gray"),
                        rx.grid(*[default_field(f) for f in group], columns=rx.breakpoints(initial="1", xs="2", md="4"),
                                spacing="3", width="100%"),
                        spacing="2", width="100%",
                    ) for name, group in DEFAULT_GROUPS.items()],
                    rx.button(rx.cond(DealDefaultsState.saving, rx.spinner(size="2"), rx.icon("save", size=16)),
                              text.DEFAULTS_SAVE, type="submit", size="3", disabled=DealDefaultsState.saving,
                              id="deal-defaults-save"),
                    spacing="4",
                    width="100%",
                    key=DealDefaultsState.form_key,
                ),
                on_submit=DealDefaultsState.save,
                reset_on_submit=False,
                width="100%",
            ),
            rx.skeleton(rx.box(height="12rem", width="100%"), loading=True),
        ),
        on_mount=DealDefaultsState.load,
        color="grass",
        card_id="settings-deal-defaults",
    )
