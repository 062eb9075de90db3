"""The unlock confirmation dialog: ONE per page, filled by the server with the lead
it is about (``states.unlock_confirm.UnlockConfirmVars``), never one per card.

Element ids: ``unlock-confirm-dialog``, ``unlock-confirm-lead``,
``unlock-confirm-cost``, ``unlock-confirm-before``, ``unlock-confirm-after``,
``unlock-confirm-dont-ask``, ``unlock-confirm-cancel``, ``unlock-confirm-ok``.
"""

from __future__ import annotations

import reflex as rx

from marketplace.messages import UNLOCK_CONFIRM_DONT_ASK, UNLOCK_CONFIRM_TITLE


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
            rx.alert_dialog.title(UNLOCK_CONFIRM_TITLE),
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
            rx.el.label(
                rx.checkbox(checked=S.confirm_dont_ask, on_change=S.set_confirm_dont_ask,
                            id="unlock-confirm-dont-ask", aria_label=UNLOCK_CONFIRM_DONT_ASK),
                rx.text(UNLOCK_CONFIRM_DONT_ASK, size="2"),
                display="flex",
                align_items="center",
                gap="0.5rem",
                margin_top="0.75rem",
                cursor="pointer",
            ),
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
