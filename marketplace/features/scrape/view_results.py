"""/bulkscraper results: filters (ROI, size, tags; OR within a group, AND across),
sort, one page of rows, pagination and Download CSV (SPEC 2, 5, 9).

From ``sm`` the results are a table; on phones each result is a card with every
column as a labelled value (nothing scrolls sideways), as the dashboard's lists.
A generated lead says 'Demo data (generated)' in both.

Element ids: ``scrape-results``, ``results-summary``, ``results-table``, ``results-list``,
``result-filter-<group>-<value>``, ``results-sort``, ``results-prev``,
``results-next``, ``download-csv``, ``results-shortfall``, ``results-when``.
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import cards, kit as ui
from marketplace.features.scrape import rules as scrape_rules
from marketplace.features.marketplace import ROI_BANDS, SIZE_BANDS
from marketplace.features.scrape.state import BulkScraperState

COLUMNS = ("Address", "Type", "Asking", "Market Value", "ARV", "Rehab", "ROI", "Beds / Baths", "Sqft", "Confidence")


def filter_chip(group: str, value: str, label: str, selected) -> rx.Component:
    return rx.button(
        label,
        on_click=BulkScraperState.toggle_result_filter(group, value),
        variant=rx.cond(selected, "solid", "surface"),
        color_scheme=rx.cond(selected, "indigo", "gray"),
        size="1",
        radius="full",
        id=f"result-filter-{group}-{value}",
        aria_pressed=rx.cond(selected, "true", "false"),
    )


def filters_bar() -> rx.Component:
    def group(title: str, name: str, options, selected_list) -> rx.Component:
        return rx.hstack(
            rx.text(title, size="1", weight="bold", color_scheme="gray", min_width="44px"),
            *[filter_chip(name, value, label, selected_list.contains(value)) for value, label in options],
            spacing="2",
            wrap="wrap",
            align="center",
        )

    return rx.vstack(
        group("ROI", "roi", ROI_BANDS, BulkScraperState.roi_filter),
        group("Size", "size", SIZE_BANDS, BulkScraperState.size_filter),
        group("Tags", "tag", scrape_rules.RESULT_TAGS, BulkScraperState.tag_filter),
        rx.hstack(
            rx.select.root(
                rx.select.trigger(id="results-sort", aria_label="Sort results", variant="surface"),
                rx.select.content(*[rx.select.item(label, value=value) for value, label in scrape_rules.RESULT_SORTS]),
                value=BulkScraperState.sort,
                on_change=BulkScraperState.set_sort,
                size="2",
            ),
            rx.button("Clear filters", variant="ghost", size="2", on_click=BulkScraperState.clear_result_filters,
                      id="results-clear"),
            spacing="3",
            align="center",
        ),
        spacing="2",
        width="100%",
    )


def result_row(row: dict) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(
            rx.vstack(
                rx.link(row["address"], href=row["href"], weight="medium"),
                rx.text(row["city_line"], size="1", color_scheme="gray"),
                ui.provenance_badge(row["provenance"], class_name="result-provenance"),
                spacing="1",
            ),
            min_width="200px",
        ),
        rx.table.cell(rx.badge(row["lead_type"], variant="soft", color_scheme="gray")),
        rx.table.cell(row["asking_price"]),
        rx.table.cell(row["zestimate"]),
        rx.table.cell(row["arv"]),
        rx.table.cell(row["rehab"]),
        rx.table.cell(rx.text(row["roi"], weight="bold", color_scheme="grass")),
        rx.table.cell(row["beds_baths"], white_space="nowrap"),
        rx.table.cell(row["sqft"]),
        rx.table.cell(row["confidence"]),
    )


def _figure(label: str, value) -> rx.Component:
    return rx.vstack(
        rx.text(label, size="1", color_scheme="gray"),
        rx.text(value, size="2", weight="medium"),
        spacing="0",
        min_width="0",
    )


def result_item(row: dict) -> rx.Component:
    """One result as a card (phones): address, place, type and every figure of the table's row."""
    return rx.vstack(
        rx.link(row["address"], href=row["href"], weight="bold", size="3", class_name="lv-break"),
        rx.text(row["city_line"], size="2", color_scheme="gray"),
        rx.hstack(
            rx.badge(row["lead_type"], variant="soft", color_scheme="gray"),
            ui.provenance_badge(row["provenance"], class_name="result-provenance"),
            spacing="2",
            wrap="wrap",
        ),
        rx.grid(
            _figure("Asking", row["asking_price"]),
            _figure("Market Value", row["zestimate"]),
            _figure("ARV", row["arv"]),
            _figure("Rehab", row["rehab"]),
            rx.vstack(rx.text("ROI", size="1", color_scheme="gray"),
                      rx.text(row["roi"], size="2", weight="bold", color_scheme="grass"), spacing="0"),
            _figure("Beds / Baths", row["beds_baths"]),
            _figure("Sqft", row["sqft"]),
            _figure("Confidence", row["confidence"]),
            columns="2",
            spacing="3",
            width="100%",
        ),
        spacing="2",
        width="100%",
        padding="0.9rem 1rem",
        border_bottom="1px solid var(--gray-a4)",
        class_name="result-item",
    )


def results_section() -> rx.Component:
    return rx.cond(
        BulkScraperState.result_count > 0,
        rx.card(
            rx.vstack(
                rx.flex(
                    rx.vstack(
                        rx.heading("Scrape results", size="5", as_="h2"),
                        rx.text(BulkScraperState.results_label, size="2", color_scheme="gray", id="results-summary"),
                        rx.text("Your last scrape, run ", BulkScraperState.results_when, size="1", color_scheme="gray",
                                id="results-when"),
                        spacing="1",
                    ),
                    rx.button(rx.icon("download", size=16), "Download CSV", on_click=BulkScraperState.download_csv,
                              id="download-csv", size="2"),
                    justify="between",
                    align={"initial": "start", "sm": "center"},
                    direction={"initial": "column", "sm": "row"},
                    gap="3",
                    width="100%",
                ),
                rx.cond(BulkScraperState.shortfall != "",
                        rx.callout(BulkScraperState.shortfall, icon="info", color_scheme="amber", size="1", id="results-shortfall",
                                   width="100%")),
                filters_bar(),
                rx.box(
                    rx.table.root(
                        rx.table.header(rx.table.row(*[rx.table.column_header_cell(h) for h in COLUMNS])),
                        rx.table.body(rx.foreach(BulkScraperState.rows, result_row)),
                        size="1",
                        variant="surface",
                        id="results-table",
                    ),
                    overflow_x="auto",
                    width="100%",
                    class_name="lv-hide-below-sm",
                ),
                cards.row_list(rx.foreach(BulkScraperState.rows, result_item), id="results-list", class_name="lv-hide-from-sm"),
                rx.cond(BulkScraperState.filtered_count == 0,
                        rx.text("No results match these filters.", size="2", color_scheme="gray")),
                rx.hstack(
                    rx.button(rx.icon("chevron-left", size=16), "Previous", variant="soft", size="2",
                              on_click=BulkScraperState.go_to_page(BulkScraperState.page - 1), disabled=BulkScraperState.page <= 1, id="results-prev"),
                    rx.text(BulkScraperState.page, " / ", BulkScraperState.pages, size="2"),
                    rx.button("Next", rx.icon("chevron-right", size=16), variant="soft", size="2",
                              on_click=BulkScraperState.go_to_page(BulkScraperState.page + 1), disabled=BulkScraperState.page >= BulkScraperState.pages, id="results-next"),
                    spacing="3",
                    align="center",
                    justify="center",
                    width="100%",
                ),
                spacing="4",
                width="100%",
            ),
            size="3",
            class_name="lv-card",
            width="100%",
            id="scrape-results",
        ),
    )
