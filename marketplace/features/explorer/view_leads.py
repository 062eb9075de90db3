"""/explorerdev: the leads table (search, status filter, sorts, server-side pages) and the CSV export.

Element ids: ``leads-section``, ``leads-search-form``, ``leads-search``,
``leads-search-submit``, ``leads-search-clear``, ``leads-status``,
``leads-sort``, ``leads-page-size``, ``leads-export``, ``leads-range``,
``leads-counts``, ``leads-table``, ``lead-row-{id}``, ``leads-empty``,
``leads-pagination``, ``leads-prev``, ``leads-next``.
"""

from __future__ import annotations

import reflex as rx

from marketplace.features.explorer import rules as explorer_rules
from marketplace.features.explorer.state_leads import ExplorerLeadsState

# Property and Status first: on a phone they are what shows before the table scrolls sideways.
# Every sort of the table has its column (Created, Asking, Market value, ROI, Sqft).
COLUMNS = (("Property", "start"), ("Status", "start"), ("Created", "start"), ("Type", "start"),
           ("Asking", "end"), ("Market value", "end"), ("ROI", "end"), ("Sqft", "end"), ("Confidence", "end"),
           ("Cost", "end"), ("Images", "start"))
IMAGE_COLORS = (("success", "grass"), ("pending", "amber"), ("failed", "red"))


def _labelled(label: str, control_id: str, control: rx.Component) -> rx.Component:
    return rx.vstack(
        rx.text(label, size="1", weight="medium", color_scheme="gray", as_="label", html_for=control_id),
        control,
        spacing="1",
    )


def _select(control_id: str, label: str, options, value, on_change, width: str = "150px") -> rx.Component:
    return _labelled(
        label,
        control_id,
        rx.select.root(
            rx.select.trigger(id=control_id, aria_label=label, variant="surface", min_width=width),
            rx.select.content(*[rx.select.item(text, value=val) for val, text in options], position="popper"),
            value=value,
            on_change=on_change,
            size="2",
        ),
    )


def search_form() -> rx.Component:
    return rx.form(
        _labelled(
            "Search by city, state or ZIP",
            "leads-search",
            rx.hstack(
                rx.input(
                    rx.input.slot(rx.icon("search", size=14)),
                    rx.cond(
                        ExplorerLeadsState.leads_query != "",
                        rx.input.slot(
                            rx.icon_button(rx.icon("x", size=14), type="button", variant="ghost", color_scheme="gray",
                                           size="1", on_click=ExplorerLeadsState.clear_leads_search, id="leads-search-clear",
                                           aria_label="Clear search"),
                            side="right",
                        ),
                    ),
                    name="q",
                    id="leads-search",
                    placeholder="Austin, TX or 78701",
                    default_value=ExplorerLeadsState.leads_query,
                    key=ExplorerLeadsState.leads_query,  # uncontrolled: shows the applied search again after Clear
                    max_length=explorer_rules.SEARCH_MAX_LENGTH,
                    aria_label="Search by city, state or ZIP",
                    flex="1",
                    min_width="0",
                ),
                rx.button("Search", type="submit", variant="soft", id="leads-search-submit"),
                spacing="2",
                width="100%",
            ),
        ),
        on_submit=ExplorerLeadsState.search_leads,
        id="leads-search-form",
        width="100%",
        max_width=rx.breakpoints(initial="100%", md="420px"),
    )


def controls() -> rx.Component:
    return rx.flex(
        search_form(),
        rx.flex(
            _select("leads-status", "Status", explorer_rules.STATUSES, ExplorerLeadsState.leads_status, ExplorerLeadsState.set_leads_status, "110px"),
            _select("leads-sort", "Sort", explorer_rules.SORTS, ExplorerLeadsState.leads_sort, ExplorerLeadsState.set_leads_sort, "170px"),
            _select("leads-page-size", "Per page", [(str(n), str(n)) for n in explorer_rules.PAGE_SIZES],
                    ExplorerLeadsState.leads_page_size_value, ExplorerLeadsState.set_leads_page_size, "80px"),
            spacing="3",
            wrap="wrap",
            align="end",
        ),
        direction=rx.breakpoints(initial="column", md="row"),
        justify="between",
        align=rx.breakpoints(initial="stretch", md="end"),
        spacing="4",
        width="100%",
    )


def _row(lead: rx.Var) -> rx.Component:
    image_color = rx.match(lead["image_status"], *IMAGE_COLORS, "gray")
    return rx.table.row(
        rx.table.row_header_cell(
            rx.vstack(
                rx.text(lead["address"], size="2", weight="medium", white_space="nowrap"),
                rx.text(lead["place"], size="1", color_scheme="gray", white_space="nowrap"),
                spacing="0",
            ),
        ),
        rx.table.cell(rx.badge(lead["status"], color_scheme=rx.cond(lead["status"] == "Active", "grass", "gray"))),
        rx.table.cell(rx.text(lead["created"], size="2", white_space="nowrap")),
        rx.table.cell(rx.badge(lead["lead_type"], variant="soft", color_scheme="indigo", white_space="nowrap")),
        rx.table.cell(rx.text(lead["price"], size="2"), justify="end"),
        rx.table.cell(rx.text(lead["market"], size="2"), justify="end"),
        rx.table.cell(rx.text(lead["roi"], size="2"), justify="end"),
        rx.table.cell(rx.text(lead["sqft"], size="2"), justify="end"),
        rx.table.cell(rx.text(lead["confidence"], size="2"), justify="end"),
        rx.table.cell(rx.text(lead["cost"], size="2"), justify="end"),
        rx.table.cell(rx.badge(lead["image_status"], variant="outline", color_scheme=image_color)),
        id="lead-row-" + lead["id"].to(str),
    )


def table() -> rx.Component:
    return rx.box(
        rx.table.root(
            rx.table.header(rx.table.row(*[rx.table.column_header_cell(title, justify=side)
                                           for title, side in COLUMNS])),
            rx.table.body(rx.foreach(ExplorerLeadsState.lead_rows, _row)),
            size="1",
            variant="surface",
            width="100%",
            id="leads-table",
            data_loading=rx.cond(ExplorerLeadsState.leads_loading, "true", "false"),
        ),
        overflow_x="auto",
        width="100%",
    )


def scroll_hint() -> rx.Component:
    """Phones see the first two columns; say that the rest is a swipe away."""
    return rx.text("Swipe the table sideways for more columns.", size="1", color_scheme="gray",
                   display=rx.breakpoints(initial="block", md="none"), id="leads-scroll-hint")


def empty_state() -> rx.Component:
    return rx.center(
        rx.vstack(
            rx.icon("search-x", size=28, color="var(--gray-9)"),
            rx.text("No leads in this view", weight="medium"),
            rx.text(rx.cond(ExplorerLeadsState.leads_query != "", "Nothing matches the search and status filter.",
                            "The marketplace has no leads with this status yet."),
                    size="2", color_scheme="gray", text_align="center"),
            rx.cond(ExplorerLeadsState.leads_query != "",
                    rx.button("Clear search", variant="soft", size="2", on_click=ExplorerLeadsState.clear_leads_search)),
            align="center",
            spacing="2",
        ),
        id="leads-empty",
        padding="2.5rem 1rem",
        border="1px dashed var(--gray-6)",
        border_radius="var(--radius-3)",
        width="100%",
    )


def _page_button(number: rx.Var) -> rx.Component:
    current = number == ExplorerLeadsState.leads_page
    return rx.cond(
        number == 0,
        rx.text("…", size="2", color_scheme="gray", aria_hidden="true", padding_x="0.35rem"),
        rx.button(
            number,
            on_click=ExplorerLeadsState.leads_go_to_page(number),
            variant=rx.cond(current, "solid", "soft"),
            color_scheme=rx.cond(current, "indigo", "gray"),
            size="1",
            aria_label=f"Page {number}",
            aria_current=rx.cond(current, "page", "false"),
            cursor="pointer",
        ),
    )


def pagination() -> rx.Component:
    step = {"variant": "soft", "color_scheme": "gray", "size": "1", "cursor": "pointer"}
    return rx.cond(
        ExplorerLeadsState.leads_pages > 1,
        rx.el.nav(
            rx.flex(
                rx.button(rx.icon("chevron_left", size=14, aria_hidden="true"), "Previous",
                          on_click=ExplorerLeadsState.leads_go_to_page(ExplorerLeadsState.leads_page - 1), disabled=ExplorerLeadsState.leads_page <= 1,
                          aria_label="Previous page", id="leads-prev", **step),
                rx.flex(rx.foreach(ExplorerLeadsState.leads_window, _page_button), spacing="1", align="center", wrap="wrap",
                        justify="center"),
                rx.button("Next", rx.icon("chevron_right", size=14, aria_hidden="true"),
                          on_click=ExplorerLeadsState.leads_go_to_page(ExplorerLeadsState.leads_page + 1), disabled=ExplorerLeadsState.leads_page >= ExplorerLeadsState.leads_pages,
                          aria_label="Next page", id="leads-next", **step),
                spacing="2",
                align="center",
                justify="center",
                wrap="wrap",
                width="100%",
            ),
            aria_label="Leads pagination",
            id="leads-pagination",
            width="100%",
        ),
    )


def explorer_leads() -> rx.Component:
    """The section; its first page loads when it appears (the handler re-checks the rights)."""
    return rx.card(
        rx.vstack(
            rx.flex(
                rx.vstack(
                    rx.heading("Leads", size="4"),
                    rx.text("Every marketplace lead, active and archived, full addresses. Leads delivered "
                            "privately to a user's bulk scrape are not listed.", size="2", color_scheme="gray",
                            id="leads-caption"),
                    spacing="1",
                ),
                rx.button(
                    rx.icon("download", size=16),
                    "Export CSV",
                    on_click=ExplorerLeadsState.export_leads,
                    variant="surface",
                    id="leads-export",
                    flex_shrink="0",
                ),
                direction=rx.breakpoints(initial="column", sm="row"),
                justify="between",
                align=rx.breakpoints(initial="start", sm="center"),
                spacing="3",
                width="100%",
            ),
            controls(),
            rx.flex(
                rx.text(ExplorerLeadsState.leads_range, size="2", weight="medium", id="leads-range"),
                rx.text(ExplorerLeadsState.leads_counts, size="2", color_scheme="gray", id="leads-counts"),
                rx.cond(ExplorerLeadsState.leads_search_label != "",
                        rx.badge("Search: ", ExplorerLeadsState.leads_search_label, variant="soft", color_scheme="gray",
                                 id="leads-search-label")),
                rx.cond(ExplorerLeadsState.leads_loading, rx.spinner(size="1")),
                spacing="3",
                align="center",
                wrap="wrap",
            ),
            rx.cond(
                ExplorerLeadsState.lead_rows.length() > 0,
                rx.vstack(scroll_hint(), table(), spacing="2", width="100%"),
                rx.cond(ExplorerLeadsState.leads_loaded, empty_state(),
                        rx.cond(ExplorerLeadsState.leads_failed,
                                rx.button("Retry", on_click=ExplorerLeadsState.load_leads, variant="soft", id="leads-retry"),
                                rx.center(rx.spinner(size="3"), padding="2rem", width="100%"))),
            ),
            pagination(),
            spacing="4",
            width="100%",
        ),
        width="100%",
        id="leads-section",
        on_mount=ExplorerLeadsState.load_leads,
    )
