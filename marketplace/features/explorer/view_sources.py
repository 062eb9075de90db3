"""The Sources panel on /explorerdev: one row per public-record dataset (title,
publisher, protocol, status note, last run in the viewer's zone, counts, newest record, freshness warning,
the last and next pull, the 30-day lag, the latest "Run now" job and the button), grouped by market under a header row (its name, completeness of
roll, sales and lists, newest record and last run). Element ids: ``explorer-sources``, ``source-<dataset id>``,
``run-now-<dataset id>``, ``source-market-<market id>`` (a header row), ``explorer-sources-reload``."""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import cards
from marketplace.features.explorer.state_sources import ExplorerSourcesState

COUNTS = (("Read", "read"), ("Added", "added"), ("Updated", "updated"), ("Closed", "closed"),
          ("Archived", "archived"), ("Rejected", "rejected"))


def _job_badge(row: rx.Var) -> rx.Component:
    color = rx.match(row["job"], ("ok", "grass"), ("failed", "red"), ("running", "blue"), "amber")
    return rx.cond(row["job"] != "", rx.badge(row["job"], color_scheme=color, title=row["job_error"],
                                              class_name="source-job"))


def _market_row(row: rx.Var) -> rx.Component:
    """A market's header: its name, what of roll, sales and lists it has, and how fresh it is."""
    return rx.table.row(
        rx.table.row_header_cell(rx.vstack(
            rx.heading(row["title"], as_="h3", size="3"),
            rx.text(row["completeness"], size="1", class_name="source-completeness"),
            rx.text(row["newest"], rx.cond(row["last_run"] != "", rx.text.span(" · ", row["last_run"])),
                    size="1", color_scheme="gray", class_name="source-freshness"),
            # stays in view (and wraps) while the wide table scrolls sideways on a phone
            spacing="1", position="sticky", left="0", max_width="calc(100vw - 5rem)"),
            col_span=len(COUNTS) + 6),
        id="source-" + row["id"].to(str),
        class_name="source-market",
        style={"background": "var(--gray-a2)"},
    )


def _source_row(row: rx.Var) -> rx.Component:
    return rx.cond(row["kind"] == "market", _market_row(row), _dataset_row(row))


def _dataset_row(row: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.vstack(
            rx.text(row["title"], size="2", weight="medium"),
            rx.hstack(rx.text(row["publisher"], size="1", color_scheme="gray"),
                      rx.badge(row["protocol"], variant="soft", color_scheme="gray", size="1"),
                      spacing="2", wrap="wrap"),
            rx.cond(row["note"] != "", rx.text(row["note"], size="1", color_scheme="gray")),
            spacing="1")),
        rx.table.cell(rx.vstack(rx.text(row["last_run"], size="2"),
                                rx.cond(row["error"] != "", rx.text(row["error"], size="1", color_scheme="red")),
                                spacing="1")),
        *[rx.table.cell(rx.text(row[key], size="2"), justify="end") for _, key in COUNTS],
        rx.table.cell(rx.vstack(
            rx.text(row["newest"], size="2"),
            rx.cond(row["warning"] != "", rx.badge(rx.icon("triangle-alert", size=12), row["warning"],
                                                   color_scheme="amber", class_name="source-stale",
                                                   white_space="normal")),
            spacing="1")),
        rx.table.cell(rx.vstack(
            rx.text(row["last_pull"], size="2", class_name="source-last-pull"),
            rx.text(row["next_pull"], size="1", color_scheme="gray", class_name="source-next-pull"),
            spacing="1"), min_width="11rem"),
        rx.table.cell(rx.text(row["lag"], size="2", class_name="source-lag"), min_width="10rem"),
        rx.table.cell(rx.vstack(
            rx.hstack(
                rx.button(rx.icon("play", size=14), "Run now", size="1", disabled=row["can_run"] == "",
                          title=rx.cond(row["can_run"] == "", row["hint"], "Queue a run for the records worker"),
                          on_click=ExplorerSourcesState.run_now(row["id"]), id="run-now-" + row["id"].to(str)),
                _job_badge(row), spacing="2", align="center"),
            rx.cond(row["hint"] != "", rx.text(row["hint"], size="1", color_scheme="gray")),
            spacing="1")),
        id="source-" + row["id"].to(str),
    )


def explorer_sources() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.flex(
                cards.card_header(
                    "database", "Sources",
                    "Public-record datasets: the last run of each, its counts and how fresh its newest record "
                    "is. The records worker pulls each enabled one every interval its dataset file sets "
                    "(incrementally where the portal allows) and whole daily at 8:00 AM Pacific; Run now "
                    "queues a pull for it (never in the web server). Lag: how long after the portal updated a "
                    "row LeadVault stored its signal, over rows first seen in the last 30 days.",
                    "bronze", heading_as="h2", tile_size="36px",
                ),
                rx.button(rx.icon("rotate-cw", size=14), "Reload", variant="soft", size="1",
                          on_click=ExplorerSourcesState.load_sources, id="explorer-sources-reload", flex_shrink="0"),
                justify="between", align="start", spacing="3", width="100%",
            ),
            rx.cond(
                ExplorerSourcesState.sources_loaded,
                rx.box(
                    rx.table.root(
                        rx.table.header(rx.table.row(
                            rx.table.column_header_cell("Dataset"),
                            rx.table.column_header_cell("Last run"),
                            *[rx.table.column_header_cell(label, justify="end") for label, _ in COUNTS],
                            rx.table.column_header_cell("Newest record"),
                            rx.table.column_header_cell("Pulls"),
                            rx.table.column_header_cell("Lag, portal update to signal"),
                            rx.table.column_header_cell("Run"),
                        )),
                        rx.table.body(rx.foreach(ExplorerSourcesState.source_rows, _source_row)),
                        size="1", width="100%", min_width="82rem", id="explorer-sources-table",
                        # the table's own scroll area never scrolls: the focusable box around it does
                        style={"& .rt-ScrollAreaViewport": {"overflow": "visible !important"}},
                    ),
                    # The box scrolls sideways (not the table's own area), reachable by keyboard.
                    overflow_x="auto", width="100%", tab_index=0, role="region",
                    aria_label="Sources (scrolls sideways)",
                ),
                rx.spinner(size="2"),
            ),
            rx.cond(ExplorerSourcesState.sources_pages > 1, rx.hstack(
                rx.button("Previous", size="1", variant="soft", on_click=ExplorerSourcesState.sources_page_by(-1),
                          disabled=ExplorerSourcesState.sources_page == 0),
                rx.text("Page ", ExplorerSourcesState.sources_page + 1, " of ", ExplorerSourcesState.sources_pages, size="2"),
                rx.button("Next", size="1", variant="soft", on_click=ExplorerSourcesState.sources_page_by(1),
                          disabled=ExplorerSourcesState.sources_page + 1 >= ExplorerSourcesState.sources_pages),
                spacing="2", align="center")),
            spacing="4",
            width="100%",
        ),
        on_mount=ExplorerSourcesState.load_sources,
        width="100%",
        id="explorer-sources",
    )
