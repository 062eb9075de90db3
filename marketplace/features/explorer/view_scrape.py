"""The developer explorer's Manual scrape card (SPEC 3, 5, 7, 8, 9).

Element ids: ``dev-scrape`` (card), ``dev-scrape-form``, ``dev-<field>`` for the
number fields (``dev-leadCount``, ``dev-minPrice`` ...), ``dev-state-XX``,
``dev-type-<Type>`` (spaces as dashes), ``dev-scrape-reset``, ``dev-scrape-run``,
``dev-scrape-problems``, ``dev-scrape-progress``, ``dev-scrape-error``,
``dev-scrape-results``, ``dev-scrape-result-label``.
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import cards
from marketplace.platform.ui.kit import slug
from marketplace.features.explorer import rules_scrape as dev_scrape
from marketplace.platform.texts import SCRAPING
from marketplace.features.explorer.state_scrape import ExplorerScrapeState


def _field(name: str, label: str, hint: str | None = None) -> rx.Component:
    input_id = f"dev-{name}"
    return rx.vstack(
        rx.el.label(label, html_for=input_id, class_name="lv-field-label"),
        rx.input(name=name, id=input_id, default_value=ExplorerScrapeState.form_values[name], input_mode="decimal",
                 aria_label=label, disabled=ExplorerScrapeState.scraping, size="2", width="100%"),
        *([rx.text(hint, size="1", color_scheme="gray")] if hint else []),
        spacing="1",
        width="100%",
    )


def _range(label: str, low: str, high: str) -> rx.Component:
    return rx.vstack(
        rx.text(label, size="2", weight="medium"),
        rx.grid(_field(low, f"Minimum {label.lower()}"), _field(high, f"Maximum {label.lower()}"),
                columns="2", spacing="2", width="100%"),
        spacing="1",
        width="100%",
    )


def _chip(value: str, selected, handler, chip_id: str) -> rx.Component:
    return rx.button(
        rx.cond(selected, rx.icon("check", size=12), rx.fragment()),
        value,
        type="button",
        size="1",
        variant=rx.cond(selected, "solid", "outline"),
        color_scheme=rx.cond(selected, "indigo", "gray"),
        on_click=handler(value),
        disabled=ExplorerScrapeState.scraping,
        aria_pressed=rx.cond(selected, "true", "false"),
        id=chip_id,
    )


def _chips(label: str, options: tuple[str, ...], chosen, handler, prefix: str) -> rx.Component:
    return rx.vstack(
        rx.text(label, size="2", weight="medium"),
        rx.flex(
            *[_chip(option, chosen.contains(option), handler, f"{prefix}-{slug(option)}") for option in options],
            wrap="wrap",
            spacing="2",
            role="group",
            aria_label=label,
        ),
        spacing="2",
        width="100%",
    )


def _result_row(row: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.vstack(rx.text(row["address"], weight="medium", size="2"),
                                rx.text(row["city_line"], size="1", color_scheme="gray"), spacing="0"),
                      min_width="180px"),
        rx.table.cell(rx.badge(row["lead_type"], variant="soft")),
        rx.table.cell(row["asking_price"], justify="end"),
        rx.table.cell(row["roi"], justify="end"),
        rx.table.cell(row["beds_baths"], white_space="nowrap"),
        rx.table.cell(row["sqft"], justify="end"),
        rx.table.cell(row["confidence"], justify="end"),
        rx.table.cell(row["credit_cost"], justify="end"),
    )


def _results() -> rx.Component:
    headers = (("Property", "start"), ("Type", "start"), ("Price", "end"), ("ROI", "end"), ("Beds/Baths", "start"),
               ("Sqft", "end"), ("Confidence", "end"), ("Credits", "end"))
    return rx.cond(
        ExplorerScrapeState.result_rows.length() > 0,
        rx.vstack(
            rx.hstack(rx.badge("New", color_scheme="grass"),
                      rx.text(ExplorerScrapeState.result_label, size="2", id="dev-scrape-result-label"), align="center", wrap="wrap"),
            rx.box(
                rx.table.root(
                    rx.table.header(rx.table.row(*[rx.table.column_header_cell(h, justify=j) for h, j in headers])),
                    rx.table.body(rx.foreach(ExplorerScrapeState.result_rows, _result_row)),
                    size="1",
                    width="100%",
                    id="dev-scrape-results",
                ),
                overflow_x="auto",
                width="100%",
            ),
            spacing="2",
            width="100%",
        ),
    )


def _form() -> rx.Component:
    return rx.form(
        rx.vstack(
            rx.grid(
                _field("leadCount", "Lead count", "1-100"),
                _field("roiThreshold", "ROI threshold (%)", "Minimum ROI, 0-100, step 0.1"),
                columns=rx.breakpoints(initial="1", sm="2"),
                spacing="3",
                width="100%",
            ),
            rx.grid(
                _range("Price", "minPrice", "maxPrice"),
                _range("Sqft", "minSqft", "maxSqft"),
                _range("Beds", "minBeds", "maxBeds"),
                _range("Confidence", "minConfidence", "maxConfidence"),
                columns=rx.breakpoints(initial="1", sm="2"),
                spacing="3",
                width="100%",
            ),
            _chips("States", dev_scrape.DEV_STATES, ExplorerScrapeState.selected_states, ExplorerScrapeState.toggle_state, "dev-state"),
            _chips("Lead types", dev_scrape.DEV_LEAD_TYPES, ExplorerScrapeState.selected_lead_types, ExplorerScrapeState.toggle_lead_type, "dev-type"),
            rx.cond(
                ExplorerScrapeState.problems.length() > 0,
                rx.callout.root(
                    rx.callout.icon(rx.icon("circle_alert", size=16)),
                    rx.vstack(rx.foreach(ExplorerScrapeState.problems, lambda p: rx.text(p, size="2")), spacing="1"),
                    color_scheme="red", size="1", id="dev-scrape-problems", width="100%",
                ),
            ),
            rx.flex(
                rx.button(rx.icon("rotate-ccw", size=14), "Reset to defaults", type="button", variant="soft",
                          color_scheme="gray", on_click=ExplorerScrapeState.reset_form, disabled=ExplorerScrapeState.scraping, id="dev-scrape-reset"),
                rx.button(
                    rx.cond(ExplorerScrapeState.scraping, rx.spinner(size="2"), rx.icon("radar", size=16)),
                    rx.cond(ExplorerScrapeState.scraping, SCRAPING, "Run Scrape"),
                    type="submit",
                    disabled=ExplorerScrapeState.scraping,
                    id="dev-scrape-run",
                ),
                spacing="3",
                justify="end",
                wrap="wrap",
                width="100%",
            ),
            spacing="4",
            width="100%",
        ),
        on_submit=ExplorerScrapeState.run_scrape,
        key=ExplorerScrapeState.form_key,
        id="dev-scrape-form",
        width="100%",
    )


def manual_scrape() -> rx.Component:
    return rx.card(
        rx.vstack(
            cards.card_header(
                "radar", "Manual scrape",
                "Pull leads from the lead source straight into the marketplace. They are listed at "
                            "once, flagged New and priced by confidence; nothing is charged.",
                "iris", heading_as="h2", tile_size="36px",
            ),
            _form(),
            rx.cond(
                ExplorerScrapeState.scraping,
                rx.vstack(
                    rx.progress(value=ExplorerScrapeState.progress_percent, max=100, width="100%"),
                    rx.text(ExplorerScrapeState.progress_label, size="1", color_scheme="gray"),
                    spacing="1", width="100%", id="dev-scrape-progress",
                ),
            ),
            rx.cond(
                ExplorerScrapeState.error_message != "",
                rx.callout(ExplorerScrapeState.error_message, icon="triangle_alert", color_scheme="red", size="1",
                           id="dev-scrape-error", width="100%"),
            ),
            _results(),
            spacing="4",
            width="100%",
        ),
        width="100%",
        id="dev-scrape",
    )
