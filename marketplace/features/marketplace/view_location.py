"""Marketplace location and asking-price filters: the State select, City
(with suggestions from the inventory of the chosen states) and ZIP inputs, Min/Max price,
in popovers of the filter bar and in fieldsets of the phone sheet; and the chips of every
active filter with their remove buttons.

Element ids (``prefix`` is ``filter`` in the bar's popovers, ``sheet-filter`` in the sheet):
``{prefix}-state``, ``{prefix}-city``, ``{prefix}-city-add``, ``{prefix}-zip``,
``{prefix}-zip-add``, ``{prefix}-location-error``, ``{prefix}-min-price``,
``{prefix}-max-price``, ``{prefix}-price-apply``, ``{prefix}-price-note``,
``{prefix}-price-error``; ``{prefix}-markets`` (the covered markets) with a ``{prefix}-market-{id}`` button
each; ``filter-group-location``, ``filter-group-price``;
``filter-chips`` with ``chip-{group}-{value}`` and its ``...-remove`` button.
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform import texts as messages
from marketplace.platform.ui import kit as ui
from marketplace.platform.ui import popover
from marketplace.platform.ui import styles
from marketplace.features.marketplace.rules_filter_values import CITY_MAX_LENGTH, STATE_OPTIONS
from marketplace.features.marketplace.state import MarketplaceState
from marketplace.features.marketplace.state_location import MarketplaceLocationState as L

LABEL_STYLE = {"font_size": "var(--font-size-2)", "font_weight": "500"}


def _label(text: str, html_for: str) -> rx.Component:
    return rx.el.label(text, html_for=html_for, style=LABEL_STYLE)


def _error(message, element_id: str) -> rx.Component:
    return rx.cond(message != "", rx.text(message, size="1", color_scheme="red", id=element_id, role="alert"))


def _add_form(prefix: str, name: str, label: str, value, on_change, on_submit, placeholder: str,
              **input_props) -> rx.Component:
    """A labelled input with its Add button (Enter adds too)."""
    input_id = f"{prefix}-{name}"
    return rx.form(
        rx.vstack(
            _label(label, input_id),
            rx.hstack(
                rx.input(id=input_id, name=name, value=value, on_change=on_change, placeholder=placeholder,
                         auto_complete="off", size="2", width="100%", **input_props),
                rx.button("Add", type="submit", variant="soft", size="2", id=f"{input_id}-add", cursor="pointer",
                          aria_label=f"Add {label.lower()}"),
                spacing="2",
                width="100%",
            ),
            spacing="1",
            width="100%",
        ),
        on_submit=on_submit,
        reset_on_submit=False,
        width="100%",
    )


MARKET_STYLE = {
    "display": "flex", "flex_direction": "column", "align_items": "flex-start", "gap": "2px", "width": "100%",
    "text_align": "left", "padding": "0.45rem 0.6rem", "border_radius": "var(--radius-2)",
    "border": "1px solid var(--gray-a6)", "background": "var(--color-surface)", "color": "var(--gray-12)",
    "cursor": "pointer", "font": "inherit",
}


def _market(prefix: str, row) -> rx.Component:
    """A covered market: its name, what it holds, its live leads and newest record; a click filters to it."""
    return rx.el.li(rx.el.button(
        rx.text(row["name"], size="2", weight="bold", as_="span"),
        rx.text(row["holds"], size="1", color_scheme="gray", as_="span"),
        rx.text(row["leads"], " · ", row["newest"], size="1", as_="span"),
        type="button",
        on_click=L.pick_market(row["id"]),
        id=f"{prefix}-market-" + row["id"].to(str),
        class_name="lv-market",
        style=MARKET_STYLE,
    ), style={"list_style": "none", "width": "100%"})


def market_list(prefix: str) -> rx.Component:
    """The covered markets (only markets with imported records); nothing when there are none."""
    heading_id = f"{prefix}-markets-heading"
    return rx.cond(L.market_rows.length() > 0, rx.vstack(
        rx.text("Covered markets", size="2", weight="medium", id=heading_id),
        rx.el.ul(rx.foreach(L.market_rows, lambda row: _market(prefix, row)), id=f"{prefix}-markets",
                 aria_labelledby=heading_id,
                 style={"margin": "0", "padding": "0", "display": "flex", "flex_direction": "column",
                        "gap": "0.4rem", "width": "100%", "max_height": "16rem", "overflow_y": "auto"}),
        spacing="1",
        width="100%",
    ))


def location_controls(prefix: str) -> rx.Component:
    state_id = f"{prefix}-state"
    options_id = f"{prefix}-city-options"
    return rx.vstack(
        market_list(prefix),
        rx.vstack(
            _label("State", state_id),
            rx.el.select(
                rx.el.option("Add a state...", value=""),
                *[rx.el.option(label, value=code) for code, label in STATE_OPTIONS],
                value="",
                on_change=L.add_state,
                id=state_id,
                name="state",
                style=styles.NATIVE_SELECT,
            ),
            spacing="1",
            width="100%",
        ),
        _add_form(prefix, "city", "City", L.city_text, L.set_city_text, L.add_city,
                  rx.cond(MarketplaceState.chosen["states"].length() > 0, "Start typing a city", "Any city"),
                  max_length=CITY_MAX_LENGTH, list=options_id),
        rx.el.datalist(rx.foreach(L.city_options, lambda city: rx.el.option(value=city)), id=options_id),
        _add_form(prefix, "zip", "ZIP code", L.zip_text, L.set_zip_text, L.add_zip, "5 digits",
                  max_length=5, input_mode="numeric"),
        _error(L.location_error, f"{prefix}-location-error"),
        spacing="3",
        width="100%",
    )


def price_controls(prefix: str) -> rx.Component:
    low, high = f"{prefix}-min-price", f"{prefix}-max-price"
    return rx.form(
        rx.vstack(
            rx.hstack(
                rx.vstack(
                    _label("Min price", low),
                    rx.input(id=low, name="min_price", value=L.price_min_text, on_change=L.set_price_min_text,
                             placeholder="$0", input_mode="numeric", auto_complete="off", size="2", width="100%"),
                    spacing="1",
                    flex="1",
                ),
                rx.vstack(
                    _label("Max price", high),
                    rx.input(id=high, name="max_price", value=L.price_max_text, on_change=L.set_price_max_text,
                             placeholder="No max", input_mode="numeric", auto_complete="off", size="2",
                             width="100%"),
                    spacing="1",
                    flex="1",
                ),
                spacing="2",
                width="100%",
            ),
            rx.text(messages.PRICE_FILTER_NOTE, size="1", color_scheme="gray", id=f"{prefix}-price-note"),
            _error(L.price_error, f"{prefix}-price-error"),
            rx.button("Apply price", type="submit", size="2", id=f"{prefix}-price-apply", cursor="pointer",
                      align_self="end"),
            spacing="2",
            width="100%",
        ),
        on_submit=L.apply_price,
        reset_on_submit=False,
        width="100%",
    )


def bar_popover(group_id: str, label: str, short: str, icon: str, count, content: rx.Component,
                width: str = "auto") -> rx.Component:
    """A filter group of the bar: its button (with the count of chosen values) and its panel, a browser
    popover (``platform.ui.popover``): below its button, never above the viewport (a tall Location panel
    once started at y = -168 px on a 1280x800 screen): no taller than the room below, scrolling inside."""
    panel_id = f"filter-panel-{group_id}"
    return rx.fragment(
        rx.button(
            ui.static_icon(icon, size=14, aria_hidden="true"),
            short,
            rx.cond(count > 0, rx.badge(count, variant="solid", radius="full", size="1")),
            rx.icon("chevron_down", size=14, aria_hidden="true"),
            variant=rx.cond(count > 0, "soft", "surface"),
            color_scheme=rx.cond(count > 0, "indigo", "gray"),
            size="2",
            id=f"filter-group-{group_id}",
            aria_label=f"{label} filters",
            cursor="pointer",
            custom_attrs=popover.opens(panel_id),
        ),
        popover.panel(
            panel_id,
            f"{label} filters",
            rx.vstack(
                rx.text(label, size="1", weight="bold", color_scheme="gray", class_name="lv-eyebrow",
                        text_transform="uppercase"),
                content,
                spacing="3",
            ),
            width=width,
        ),
    )


def location_popover() -> rx.Component:
    count = MarketplaceState.chosen["states"].length() + MarketplaceState.chosen["cities"].length() + MarketplaceState.chosen["zips"].length()
    return bar_popover("location", "Location", "Location", "map_pin", count, location_controls("filter"), "300px")


def price_popover() -> rx.Component:
    return bar_popover("price", "Asking price", "Price", "dollar_sign", rx.cond(MarketplaceState.has_price, 1, 0),
                       price_controls("filter"), "300px")


def sheet_fieldsets() -> list[rx.Component]:
    """The phone sheet's Location and Asking price sections."""
    return [
        rx.el.fieldset(
            rx.el.legend(rx.text(legend, size="2", weight="bold"), margin_bottom="0.6rem"),
            controls("sheet-filter"),
            border="none",
            padding="0",
            margin="0",
            width="100%",  # the sheet's column aligns its items to the start: no shrinking to the content
        )
        for legend, controls in (("Location", location_controls), ("Asking price", price_controls))
    ]


def _chip(chip: dict) -> rx.Component:
    return rx.badge(
        rx.text(chip["label"], as_="span"),
        rx.el.button(
            rx.icon("x", size=12, aria_hidden="true"),
            on_click=MarketplaceState.remove_filter(chip["group"], chip["value"]),
            aria_label="Remove filter " + chip["label"],
            id=chip["id"] + "-remove",
            class_name="lv-chip-remove",
            style={"display": "inline-flex", "align_items": "center", "background": "none", "border": "none",
                   "padding": "2px", "margin_left": "2px", "cursor": "pointer", "color": "inherit",
                   "border_radius": "9999px"},
        ),
        variant="soft",
        color_scheme="indigo",
        radius="full",
        size="2",
        id=chip["id"],
        data_chip=chip["label"],
    )


def filter_chips() -> rx.Component:
    """The active filters as chips under the bar; nothing without filters."""
    return rx.cond(
        MarketplaceState.filter_chips.length() > 0,
        rx.flex(
            rx.text("Filters:", size="1", color_scheme="gray", weight="medium", class_name="lv-sr-only"),
            rx.foreach(MarketplaceState.filter_chips, _chip),
            spacing="2",
            wrap="wrap",
            align="center",
            id="filter-chips",
            aria_label="Active filters",
            role="group",
            padding_bottom="0.75rem",
        ),
    )
