"""The TEST MODE banner: shown on every purchase screen while ``PAYMENTS=test``
(the demo checkout, no real payment). One component for every page, so the
warning reads the same everywhere.

Element id: ``demo-mode-banner`` (one per page).
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform.texts import DEMO_MODE_BANNER


def _strip(banner_id: str, inline: bool) -> rx.Component:
    return rx.box(
        rx.hstack(
            rx.icon("flask_conical", size=18, aria_hidden="true", flex_shrink="0"),
            rx.text(DEMO_MODE_BANNER, size=rx.breakpoints(initial="2", sm="3"), weight="bold",
                    letter_spacing="0.02em"),
            spacing="2",
            align="center",
            justify="center",
        ),
        id=banner_id,
        role="note",
        background="repeating-linear-gradient(135deg, var(--amber-9) 0 18px, var(--amber-10) 18px 36px)",
        color="var(--gray-12)",
        padding="0.7rem 1rem",
        text_align="center",
        width="100%",
        border_radius="var(--radius-3)" if inline else None,
    )


def demo_mode_banner(visible: rx.Var | bool = True, banner_id: str = "demo-mode-banner",
                     inline: bool = False) -> rx.Component:
    """The amber TEST MODE strip, full width (``inline``: rounded, inside a section);
    ``visible`` is a state var (the mode is read on the server at page load) or a constant."""
    strip = _strip(banner_id, inline)
    if isinstance(visible, bool):
        return strip if visible else rx.fragment()
    return rx.cond(visible, strip)

