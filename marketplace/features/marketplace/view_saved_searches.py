"""Dashboard tab Saved Searches: each saved search with its summary, matches now,
new since last opened, Open, Rename, Delete and its Alerts / E-mail switches;
the "N of 25" count; an empty state saying how to save one.

Element ids: ``saved-searches`` (the tab's content), ``saved-searches-count``,
``saved-searches-empty``, ``saved-searches-error``, ``saved-search-{id}`` (a
row) with ``saved-search-name-{id}``, ``saved-search-summary-{id}``,
``saved-search-matches-{id}``, ``saved-search-new-{id}``, ``saved-search-open-{id}``,
``saved-search-rename-{id}``, ``saved-search-delete-{id}``,
``saved-search-alerts-{id}``, ``saved-search-email-{id}``; the dialogs
``saved-search-rename-dialog`` (``saved-search-rename-input``,
``saved-search-rename-save``) and ``saved-search-delete-dialog``
(``saved-search-delete-confirm``).
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import cards, styles, kit as ui
from marketplace.platform.texts import SAVED_SEARCHES_LOAD_FAILED
from marketplace.platform.limits import MAX_SAVED_SEARCHES, SAVED_SEARCH_NAME_MAX_LENGTH as NAME_MAX_LENGTH
from marketplace.features.marketplace.state_saved_searches import SavedSearchesState

LABEL_STYLE = {"font_size": "var(--font-size-2)", "font_weight": "500"}


def _switch(label: str, row, field: str, handler, row_id_prefix: str, off=False) -> rx.Component:
    """A switch of the row; ``off``: disabled (it keeps its value), as E-mail while Alerts is off."""
    element_id = f"saved-search-{row_id_prefix}-" + row.id
    return rx.flex(
        rx.switch(
            checked=getattr(row, field),
            on_change=lambda enabled: handler(row.id, enabled),
            disabled=(SavedSearchesState.busy_id != "") | off,
            id=element_id,
            size="2",
        ),
        rx.el.label(label, html_for=element_id, style=LABEL_STYLE, cursor="pointer"),
        spacing="2",
        align="center",
    )


def search_row(row) -> rx.Component:
    busy = SavedSearchesState.busy_id == row.id
    return rx.box(
        rx.flex(
            rx.vstack(
                rx.flex(
                    rx.heading(row.name, as_="h3", size="3", weight="bold", class_name="lv-break",
                               id="saved-search-name-" + row.id),
                    rx.cond(
                        row.new_label != "",
                        rx.badge(row.new_label, color_scheme="grass", variant="solid", radius="full", size="1",
                                 id="saved-search-new-" + row.id, title="New since you last opened it"),
                    ),
                    spacing="2",
                    align="center",
                    wrap="wrap",
                ),
                rx.text(row.summary, size="2", color_scheme="gray", class_name="lv-break",
                        id="saved-search-summary-" + row.id),
                rx.hstack(
                    rx.text(row.matches, size="2", weight="medium", id="saved-search-matches-" + row.id),
                    rx.text("·", size="2", color_scheme="gray", aria_hidden="true"),
                    rx.text(row.created, size="2", color_scheme="gray"),
                    spacing="2",
                    wrap="wrap",
                ),
                spacing="1",
                min_width="0",
                flex="1",
            ),
            rx.hstack(
                rx.button(
                    rx.cond(busy, rx.spinner(size="1"), rx.icon("search", size=14, aria_hidden="true")),
                    "Open",
                    on_click=SavedSearchesState.open_search(row.id),
                    disabled=SavedSearchesState.busy_id != "",
                    size="2",
                    id="saved-search-open-" + row.id,
                    aria_label="Open " + row.name,
                ),
                rx.icon_button(
                    rx.icon("pencil", size=15, aria_hidden="true"),
                    on_click=SavedSearchesState.open_rename(row.id),
                    variant="soft",
                    color_scheme="gray",
                    size="2",
                    id="saved-search-rename-" + row.id,
                    aria_label="Rename " + row.name,
                    title="Rename",
                ),
                rx.icon_button(
                    rx.icon("trash_2", size=15, aria_hidden="true"),
                    on_click=SavedSearchesState.open_delete(row.id),
                    variant="soft",
                    color_scheme="red",
                    size="2",
                    id="saved-search-delete-" + row.id,
                    aria_label="Delete " + row.name,
                    title="Delete",
                ),
                spacing="2",
                align="center",
                flex_shrink="0",
            ),
            direction=rx.breakpoints(initial="column", sm="row"),
            justify="between",
            align=rx.breakpoints(initial="stretch", sm="start"),
            spacing="3",
            width="100%",
        ),
        rx.flex(
            _switch("Alerts", row, "alerts", SavedSearchesState.set_alerts, "alerts"),
            # No alerts, no e-mail: the switch keeps its value for when Alerts is on again.
            _switch("E-mail", row, "email", SavedSearchesState.set_email, "email", off=~row.alerts),
            rx.text(
                rx.cond(row.alerts,
                        rx.cond(row.email, "In-app and e-mail after each refresh",
                                "In-app only after each refresh"),
                        "No alerts"),
                size="1", color_scheme="gray",
            ),
            spacing="4",
            align="center",
            wrap="wrap",
            margin_top="0.75rem",
            padding_top="0.75rem",
            border_top=styles.ROW_BORDER,
        ),
        id="saved-search-" + row.id,
        padding=rx.breakpoints(initial="0.9rem", sm="1.1rem 1.25rem"),
        border=styles.PANEL_BORDER,
        border_radius=styles.RADIUS_PANEL,
        background="var(--color-panel-solid)",
        width="100%",
        style=styles.CARD_SHADOW,
    )


def _name_field(input_id: str, value, on_change, disabled) -> rx.Component:
    return rx.vstack(
        rx.el.label("Name", html_for=input_id, style=LABEL_STYLE),
        rx.input(id=input_id, name="name", value=value, on_change=on_change, max_length=NAME_MAX_LENGTH,
                 auto_complete="off", auto_focus=True, size="3", width="100%", disabled=disabled),
        spacing="1",
        width="100%",
    )


def _dialog_buttons(cancel_id: str, submit: rx.Component, busy, close=rx.dialog.close) -> rx.Component:
    return rx.flex(
        close(rx.button("Cancel", type="button", variant="soft", color_scheme="gray", size="3",
                        disabled=busy, id=cancel_id)),
        submit,
        spacing="3",
        justify="end",
        width="100%",
    )


def rename_dialog() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title("Rename saved search", margin="0"),
            rx.dialog.description("Names are yours to choose; each must be different.", size="2",
                                  color_scheme="gray", margin_top="0.35rem"),
            rx.form(
                rx.vstack(
                    _name_field("saved-search-rename-input", SavedSearchesState.rename_name, SavedSearchesState.set_rename_name, SavedSearchesState.renaming),
                    _dialog_buttons(
                        "saved-search-rename-cancel",
                        rx.button(rx.cond(SavedSearchesState.renaming, rx.spinner(size="2"), rx.icon("check", size=16)),
                                  rx.cond(SavedSearchesState.renaming, "Saving...", "Save"), type="submit", size="3",
                                  disabled=SavedSearchesState.rename_disabled, id="saved-search-rename-save"),
                        SavedSearchesState.renaming,
                    ),
                    spacing="5",
                    width="100%",
                ),
                on_submit=SavedSearchesState.rename,
                reset_on_submit=False,
                width="100%",
                margin_top="1.25rem",
            ),
            max_width="28rem",
            id="saved-search-rename-dialog",
        ),
        open=SavedSearchesState.rename_open,
        on_open_change=SavedSearchesState.set_rename_open,
    )


def delete_dialog() -> rx.Component:
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title("Delete saved search?", margin="0"),
            rx.alert_dialog.description(
                rx.text("\"", SavedSearchesState.delete_name, "\" and its alerts will be deleted. The leads themselves stay on "
                        "the marketplace.", class_name="lv-break"),
                size="2", margin_top="0.5rem",
            ),
            _dialog_buttons(
                "saved-search-delete-cancel",
                rx.button(rx.cond(SavedSearchesState.deleting, rx.spinner(size="2"), rx.icon("trash_2", size=16)),
                          rx.cond(SavedSearchesState.deleting, "Deleting...", "Delete"), on_click=SavedSearchesState.delete, color_scheme="red",
                          size="3", disabled=SavedSearchesState.deleting, id="saved-search-delete-confirm"),
                SavedSearchesState.deleting,
                close=rx.alert_dialog.cancel,
            ),
            max_width="28rem",
            id="saved-search-delete-dialog",
        ),
        open=SavedSearchesState.delete_open,
        on_open_change=SavedSearchesState.set_delete_open,
    )


def empty_state() -> rx.Component:
    return cards.empty_state(
        "bookmark",
        "No saved searches yet.",
        "On the marketplace, pick the filters you care about and press Save search. We check every new lead "
        "against it after each daily refresh and tell you when one matches.",
        ui.button_link("Go to Marketplace", routes.MARKETPLACE, icon="search", icon_first=True, icon_size=16,
                       id="saved-searches-marketplace", size="3", variant="soft"),
        "saved-searches-empty",
    )


def tab_header() -> rx.Component:
    return rx.flex(
        rx.vstack(
            rx.heading("Saved Searches", as_="h2", size="4", weight="bold"),
            rx.text("Alerts arrive after each daily refresh (8:00 AM Pacific) with the new leads that match.",
                    size="2", color_scheme="gray"),
            spacing="1",
            min_width="0",
        ),
        rx.badge(rx.icon("bookmark", size=13, aria_hidden="true"),
                 rx.text(SavedSearchesState.count_label, as_="span", id="saved-searches-count"),
                 rx.text(" saved", as_="span"),
                 variant="soft", radius="full", size="2", flex_shrink="0",
                 color_scheme=rx.cond(SavedSearchesState.at_limit, "amber", "gray"),
                 title=f"You can keep up to {MAX_SAVED_SEARCHES} saved searches"),
        justify="between",
        align="start",
        spacing="3",
        width="100%",
    )


def loading_rows() -> rx.Component:
    return rx.vstack(
        *[rx.skeleton(rx.box(height="7.5rem", width="100%"), loading=True) for _ in range(2)],
        spacing="3", width="100%", id="saved-searches-loading", aria_busy="true",
    )


def saved_searches_tab() -> rx.Component:
    return rx.vstack(
        tab_header(),
        rx.cond(
            SavedSearchesState.load_failed,
            rx.callout.root(
                rx.callout.icon(rx.icon("triangle-alert")),
                rx.callout.text(
                    SAVED_SEARCHES_LOAD_FAILED + " ",
                    rx.link("Try again", href="#", on_click=SavedSearchesState.load.prevent_default, weight="medium",
                            underline="always", id="saved-searches-retry"),
                ),
                color_scheme="red", variant="surface", width="100%", id="saved-searches-error",
            ),
            rx.cond(
                SavedSearchesState.loaded_for == "",
                loading_rows(),
                rx.cond(
                    SavedSearchesState.searches.length() > 0,
                    rx.vstack(rx.foreach(SavedSearchesState.searches, search_row), spacing="3", width="100%",
                              id="saved-searches-list"),
                    empty_state(),
                ),
            ),
        ),
        rename_dialog(),
        delete_dialog(),
        spacing="4",
        width="100%",
        id="saved-searches",
    )
