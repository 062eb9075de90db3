"""The Deal Analyzer's results (features/property/view_analyzer.py lays out the inputs): one tile per result with
its value and the line saying how it is computed. Element ids: ``analyzer-{key}`` (the value) and
``analyzer-{key}-how`` for every key of ``property.texts_deal.RESULT_LABELS``; ``analyzer-offer-note``,
``analyzer-offer-targets``, ``analyzer-stale``."""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import styles
from marketplace.features.property import texts_deal as text
from marketplace.features.property.state_analyzer import AnalyzerState

TONE_COLOR = {"gain": "var(--grass-11)", "loss": "var(--red-11)"}


def result_tile(key: str, primary: bool = False) -> rx.Component:
    color = (rx.match(AnalyzerState.tones[key], ("gain", TONE_COLOR["gain"]), ("loss", TONE_COLOR["loss"]), "var(--gray-12)")
             if key in ("flip_profit", "rental_cash_flow", "brrrr_cash_flow") else "var(--gray-12)")
    return rx.vstack(
        rx.text(text.RESULT_LABELS[key], size="2", color_scheme="gray", weight="medium", id=f"analyzer-{key}-label"),
        rx.text(AnalyzerState.values[key], size=rx.breakpoints(initial="5", sm="6") if primary else "5", weight="bold",
                id=f"analyzer-{key}", color=color, style=styles.NUMBER_STYLE,
                aria_describedby=f"analyzer-{key}-label"),
        rx.text(AnalyzerState.hows[key], size="1", color_scheme="gray", id=f"analyzer-{key}-how"),
        spacing="1",
        padding="0.8rem 1rem",
        border_radius="var(--radius-4)",
        background=rx.cond(primary, "var(--accent-a2)", "var(--color-panel-solid)"),
        border=rx.cond(primary, "1px solid var(--accent-a6)", "1px solid var(--gray-a5)"),
        width="100%",
        min_width="0",
    )


def results_grid(*keys: str, primary: tuple[str, ...] = ()) -> rx.Component:
    return rx.vstack(
        rx.cond(
            AnalyzerState.stale,
            rx.callout.root(rx.callout.icon(rx.icon("triangle_alert")), rx.callout.text(text.RESULTS_STALE),
                            color_scheme="amber", variant="surface", size="1", width="100%"),
        ),
        rx.grid(
            *[result_tile(key, key in primary) for key in keys],
            columns=rx.breakpoints(initial="1", xs="2", lg="3"),
            spacing="3",
            width="100%",
        ),
        spacing="3",
        width="100%",
        aria_live="polite",
    )


def offer_results() -> rx.Component:
    return rx.vstack(
        results_grid("offer_rule_70", "offer_max", primary=("offer_max",)),
        rx.text(AnalyzerState.offer_note, size="2", weight="medium", id="analyzer-offer-note"),
        rx.el.ul(
            rx.foreach(AnalyzerState.offer_targets, lambda line: rx.el.li(rx.text(line, size="2"))),
            id="analyzer-offer-targets",
            style={"margin": "0", "padding_left": "1.2rem", "color": "var(--gray-11)"},
        ),
        spacing="2",
        width="100%",
    )
