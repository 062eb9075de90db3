"""The unlock confirmation dialog: ONE per page, filled by the server with the lead
it is about (``unlock.state_confirm.UnlockConfirmVars``), never one per card.

Element ids: ``unlock-confirm-dialog``, ``unlock-confirm-lead``,
``unlock-confirm-cost``, ``unlock-confirm-before``, ``unlock-confirm-after``, ``unlock-confirm-guarantee``,
``unlock-confirm-dont-ask``, ``unlock-confirm-cancel``, ``unlock-confirm-ok``, ``unlock-confirm-spots``
(an exclusive unlock: the spots it takes), ``unlock-confirm-cap`` ('At most 5 investors can hold a lead.').
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform.texts import UNLOCK_CONFIRM_DONT_ASK


def _row(label: str, value, value_id: str, strong: bool = False) -> rx.Component:
    return rx.hstack(
        rx.text(label, size="2", color_scheme="gray"),
        rx.text(value, size="2", weight="bold" if strong else "medium", id=value_id),
        justify="between",
        width="100%",
    )


def unlock_confirm_dialog(S) -> rx.Component:
    """The dialog for state ``S`` (a state with ``UnlockConfirmVars``, ``confirm_unlock``)."""
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(S.confirm_title),
            rx.alert_dialog.description(
                rx.text(rx.text.strong(S.confirm_type), " lead in ", S.confirm_place, id="unlock-confirm-lead"),
                size="2",
            ),
            rx.vstack(
                _row("Cost", S.confirm_cost, "unlock-confirm-cost", strong=True),
                _row("Your balance now", S.confirm_before, "unlock-confirm-before"),
                _row("Balance after unlocking", S.confirm_after, "unlock-confirm-after"),
                spacing="2",
                width="100%",
                padding="0.75rem",
                margin_top="0.75rem",
                border_radius="var(--radius-3)",
                background="var(--gray-2)",
            ),
            rx.cond(S.confirm_guarantee != "", rx.text(
                rx.icon("shield_check", size=14, aria_hidden="true", display="inline", vertical_align="-2px",
                        margin_right="0.35rem"),
                S.confirm_guarantee, size="2", color_scheme="gray", margin_top="0.75rem",
                id="unlock-confirm-guarantee")),
            rx.cond(S.confirm_spots != "", rx.text(S.confirm_spots, size="2", margin_top="0.75rem",
                                                   id="unlock-confirm-spots")),
            rx.cond(S.confirm_cap != "", rx.text(S.confirm_cap, size="2", color_scheme="gray", margin_top="0.5rem",
                                                 id="unlock-confirm-cap")),
            rx.cond(~S.confirm_exclusive, rx.el.label(
                rx.checkbox(checked=S.confirm_dont_ask, on_change=S.set_confirm_dont_ask,
                            id="unlock-confirm-dont-ask", aria_label=UNLOCK_CONFIRM_DONT_ASK),
                rx.text(UNLOCK_CONFIRM_DONT_ASK, size="2"),
                display="flex",
                align_items="center",
                gap="0.5rem",
                margin_top="0.75rem",
                cursor="pointer",
            )),
            rx.flex(
                rx.alert_dialog.cancel(
                    rx.button("Cancel", variant="soft", color_scheme="gray", on_click=S.cancel_unlock,
                              id="unlock-confirm-cancel"),
                ),
                rx.alert_dialog.action(rx.button(S.confirm_label, on_click=S.confirm_unlock, id="unlock-confirm-ok")),
                spacing="3",
                justify="end",
                wrap="wrap",
                margin_top="1rem",
            ),
            id="unlock-confirm-dialog",
            max_width="440px",
        ),
        open=S.confirm_open,
        on_open_change=S.set_confirm_open,
    )
